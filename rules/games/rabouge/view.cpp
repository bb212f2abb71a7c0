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

void Rabouge::write_seat(JsonWriter& out, int seat) const {
  const auto& p = players_[seat];
  const auto& r = p.cards;
  out.object([&] {
    view::seat_members(out, seat, building::plain_cards(r.hand), false, seat_status(seat), p.left);
    out.field("stock", r.stock().size());
    out.field("stock_top", building::card_name(r.stock_top()));
    out.field("supply", r.hand.size());
    out.field("turned", building::card_name(r.turned));
    out.array_field("discards", [&] {
      for (const auto& pile : r.discards) out.value(pile.size());
    });
    out.field("rabouges", p.rabouges);
    out.field("opened", p.opened);
    out.field("cards_left", r.cards_left());
  });
}

void Rabouge::write_piles(JsonWriter& out) const {
  using building::write_pile_view;
  using view::Shown;
  out.begin_array();
  for (const auto& pile : centre_) {
    out.object([&] {
      building::pile_view_members(out, to_string(Spot{Zone::centre, pile.id}), std::nullopt, pile.cards, Shown::all,
                                  false);
      out.field("next", rank_letter(building::next_rank_wrapping(pile.cards.back().card.rank)));
    });
  }
  for (int seat = 0; seat < players(); ++seat) {
    const auto& r = players_[seat].cards;
    write_pile_view(out, to_string(Spot{Zone::stock, seat}), seat, r.stock(), Shown::top, false);
    write_pile_view(out, to_string(Spot{Zone::supply, seat}), seat, r.hand, Shown::count, false);
    write_pile_view(out, to_string(Spot{Zone::turned, seat}), seat, r.turned ? Pile{*r.turned} : Pile{}, Shown::top,
                    false);
    for (int k = 0; k < discard_slots; ++k)
      write_pile_view(out, to_string(Spot{Zone::discard, seat, k}), seat, r.discards[k], Shown::all, false);
  }
  out.end_array();
}

const char* Rabouge::phase_name() const {
  switch (phase_) {
    case Phase::deal_over: return "waiting";
    case Phase::playing: return opening() ? "opening" : "play";
    case Phase::game_over: return "game_over";
  }
  return "play";
}

void Rabouge::write_view(std::optional<int> viewer, JsonWriter& out) const {
  out.begin_object();
  view::base_members(out, view::layouts::building, phase_name(), deals_, std::nullopt);
  out.field("viewer", viewer);
  out.array_field("seats", [&] {
    for (int seat = 0; seat < players(); ++seat) write_seat(out, seat);
  });
  out.key("piles");
  write_piles(out);
  out.array_field("scores", [&] {
    for (const auto& p : players_) out.integer(p.rabouges);
  });
  out.key("turn");
  view::turn(out, to_act(), phase_ != Phase::playing ? "over" : opening() ? "opening" : "play");
  out.field("mover", phase_ == Phase::playing ? std::optional<int>(mover_) : std::nullopt);
  out.field("starter_rank", starter_rank_ ? std::optional<std::string>(rank_letter(*starter_rank_)) : std::nullopt);
  out.field("draws_left", phase_ == Phase::playing && opening() ? draws_left_ : 0);
  out.field("passes", passes_);
  out.field("packs", packs_);
  out.field("stock_size", stock_size());
  out.field("aside", aside_);
  out.field("rabouge_cards", rabouge_cards_);
  out.field("stake", stake_);
  out.field("win_stake", win_stake_);
  out.field("card_count", card_count_);
  out.field("rabouge_stake", rabouge_stake_);
  out.end_object();
}

}  // namespace parlour::rules::rabouge
