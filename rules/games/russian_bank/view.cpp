// What everyone sees: the same for both seats and spectators.
#include "rules/games/russian_bank/game.h"

#include "rules/building/pile_view.h"
#include "rules/view.h"

namespace parlour::rules::russian_bank {

std::string RussianBank::seat_status(int seat) const {
  if (phase_ == Phase::deal_over) return "waiting";
  if (phase_ == Phase::game_over) {
    const auto& winner = result_["winner"];
    if (winner.is_null()) return result_["end"].get<std::string>();
    return winner == seat ? "won" : "lost";
  }
  return seat == mover_ ? "moving" : "watching";
}

Json RussianBank::seat_view(int seat) const {
  const auto& side = sides_[seat];
  Json out = view::seat(seat, building::plain_cards(side.hand), false, seat_status(seat), left_[seat]);
  out["role"] = seat == first_ ? "X" : "Y";
  out["stock"] = side.stock().size();
  out["stock_top"] = side.stock_top() ? Json(to_string(*side.stock_top())) : Json();
  out["hand"] = side.hand.size();
  out["turned"] = side.turned ? Json(to_string(side.turned->card)) : Json();
  out["discard"] = side.discards[0].size();
  out["cards_left"] = side.cards_left();
  return out;
}

Json RussianBank::piles_view() const {
  using view::Shown;
  Json out = Json::array();
  for (int i = 0; i < piles; ++i)
    out.push_back(building::pile_view(to_string(Spot{Zone::centre, i}), std::nullopt, centre_[i], Shown::all, true));
  for (int i = 0; i < piles; ++i) {
    Json pile = building::pile_view(to_string(Spot{Zone::layout, i}), std::nullopt, layout_[i], Shown::all, true);
    pile["side"] = i < column ? 0 : 1;
    out.push_back(std::move(pile));
  }
  for (int seat = 0; seat < players; ++seat) {
    const auto& side = sides_[seat];
    out.push_back(building::stock_view(to_string(Spot{Zone::stock, seat}), seat, side));
    out.push_back(building::pile_view(to_string(Spot{Zone::hand, seat}), seat, side.hand, Shown::count, true));
    out.push_back(building::pile_view(to_string(Spot{Zone::turned, seat}), seat,
                                      side.turned ? Pile{*side.turned} : Pile{}, Shown::top, true));
    out.push_back(building::pile_view(to_string(Spot{Zone::discard, seat}), seat, side.discards[0], Shown::all, true));
  }
  return out;
}

const char* RussianBank::phase_name() const {
  switch (phase_) {
    case Phase::deal_over: return "waiting";
    case Phase::playing: return "play";
    case Phase::game_over: return "game_over";
  }
  return "play";
}

Json RussianBank::view(std::optional<int> viewer) const {
  Json out = view::base(view::layouts::building, phase_name(), deals_, std::nullopt);
  out["viewer"] = viewer ? Json(*viewer) : Json();
  Json seats = Json::array();
  for (int seat = 0; seat < players; ++seat) seats.push_back(seat_view(seat));
  out["seats"] = std::move(seats);
  out["piles"] = piles_view();
  const auto acting = to_act();
  out["turn"] = view::turn(acting, phase_ != Phase::playing ? "over" : stop_callable() ? "stop_window" : "play");
  out["mover"] = phase_ == Phase::playing ? Json(mover_) : Json();
  out["first_player"] = first_;
  out["turn_number"] = turn_number_;
  out["max_turns"] = max_turns_;
  out["stop_rule"] = stop_rule_ == StopRule::call ? "call" : "refuse";
  out["stake"] = stake_;
  out["infraction"] = infraction_ ? Json(*infraction_) : Json();
  out["demanded_space"] = demanded_fill_;
  out["layout_moves"] = {{"made", layout_moves_}, {"limit", layout_moves_per_turn}};
  out["recycles"] = recycles_;
  return out;
}

}  // namespace parlour::rules::russian_bank
