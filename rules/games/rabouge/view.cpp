// What everyone sees.
#include "rules/games/rabouge/game.h"

#include <algorithm>

#include "rules/action.h"
#include "rules/building/pile_view.h"
#include "rules/shoe.h"
#include "rules/view.h"

namespace parlour::rules::rabouge {

std::string Rabouge::seat_status(int seat) const {
  const auto& p = players_[seat];
  if (p.left) return "left";
  if (phase_ == Phase::game_over) {
    const auto& winners = result_["winners"];
    if (std::find(winners.begin(), winners.end(), Json(seat)) != winners.end()) return "won";
    return winners.empty() ? result_["end"].get<std::string>() : "lost";
  }
  if (phase_ != Phase::playing) return "waiting";
  return seat == mover_ ? "moving" : "waiting";
}

Json Rabouge::seat_view(int seat) const {
  const auto& p = players_[seat];
  const auto& r = p.cards;
  Json out = view::seat(seat, building::plain_cards(r.hand), false, seat_status(seat), p.left);
  out["stock"] = r.stock().size();
  out["stock_top"] = r.stock_top() ? Json(to_string(*r.stock_top())) : Json();
  out["supply"] = r.hand.size();
  out["turned"] = r.turned ? Json(to_string(r.turned->card)) : Json();
  Json discards = Json::array();
  for (const auto& pile : r.discards) discards.push_back(pile.size());
  out["discards"] = std::move(discards);
  out["rabouges"] = p.rabouges;
  out["opened"] = p.opened;
  out["cards_left"] = r.cards_left();
  return out;
}

Json Rabouge::piles_view() const {
  using view::Shown;
  Json out = Json::array();
  for (const auto& pile : centre_) {
    Json json = building::pile_view(to_string(Spot{Zone::centre, pile.id}), std::nullopt, pile.cards, Shown::all, false);
    json["next"] = rank_letter(building::next_rank_wrapping(pile.cards.back().card.rank));
    out.push_back(std::move(json));
  }
  for (int seat = 0; seat < players(); ++seat) {
    const auto& r = players_[seat].cards;
    out.push_back(building::pile_view(to_string(Spot{Zone::stock, seat}), seat, r.stock(), Shown::top, false));
    out.push_back(building::pile_view(to_string(Spot{Zone::supply, seat}), seat, r.hand, Shown::count, false));
    out.push_back(building::pile_view(to_string(Spot{Zone::turned, seat}), seat, r.turned ? Pile{*r.turned} : Pile{},
                                      Shown::top, false));
    for (int k = 0; k < discard_slots; ++k)
      out.push_back(
          building::pile_view(to_string(Spot{Zone::discard, seat, k}), seat, r.discards[k], Shown::all, false));
  }
  return out;
}

const char* Rabouge::phase_name() const {
  switch (phase_) {
    case Phase::deal_over: return "waiting";
    case Phase::playing: return opening() ? "opening" : "play";
    case Phase::game_over: return "game_over";
  }
  return "play";
}

Json Rabouge::view(std::optional<int> viewer) const {
  Json out = view::base(view::layouts::building, phase_name(), deals_, std::nullopt);
  out["viewer"] = viewer ? Json(*viewer) : Json();
  Json seats = Json::array();
  Json scores = Json::array();
  for (int seat = 0; seat < players(); ++seat) {
    seats.push_back(seat_view(seat));
    scores.push_back(players_[seat].rabouges);
  }
  out["seats"] = std::move(seats);
  out["piles"] = piles_view();
  out["scores"] = std::move(scores);
  out["turn"] = view::turn(to_act(), phase_ != Phase::playing ? "over" : opening() ? "opening" : "play");
  out["mover"] = phase_ == Phase::playing ? Json(mover_) : Json();
  out["starter_rank"] = starter_rank_ ? Json(rank_letter(*starter_rank_)) : Json();
  out["draws_left"] = phase_ == Phase::playing && opening() ? draws_left_ : 0;
  out["passes"] = passes_;
  out["packs"] = packs_;
  out["stock_size"] = stock_size();
  out["aside"] = aside_;
  out["rabouge_cards"] = rabouge_cards_;
  out["stake"] = stake_;
  out["win_stake"] = win_stake_;
  out["card_count"] = card_count_;
  out["rabouge_stake"] = rabouge_stake_;
  return out;
}

}  // namespace parlour::rules::rabouge
