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

void RussianBank::write_seat(JsonWriter& out, int seat) const {
  const auto& side = sides_[seat];
  out.object([&] {
    view::seat_members(out, seat, building::plain_cards(side.hand), false, seat_status(seat), left_[seat]);
    out.field("role", seat == first_ ? "X" : "Y");
    out.field("stock", side.stock().size());
    out.field("stock_top", building::card_name(side.stock_top()));
    out.field("hand", side.hand.size());
    out.field("turned", building::card_name(side.turned));
    out.field("discard", side.discards[0].size());
    out.field("cards_left", side.cards_left());
  });
}

void RussianBank::write_piles(JsonWriter& out) const {
  using building::write_pile_view;
  using view::Shown;
  out.begin_array();
  for (int i = 0; i < piles; ++i)
    write_pile_view(out, to_string(Spot{Zone::centre, i}), std::nullopt, centre_[i], Shown::all, true);
  for (int i = 0; i < piles; ++i) {
    out.object([&] {
      building::pile_view_members(out, to_string(Spot{Zone::layout, i}), std::nullopt, layout_[i], Shown::all, true);
      out.field("side", i < column ? 0 : 1);
    });
  }
  for (int seat = 0; seat < players; ++seat) {
    const auto& side = sides_[seat];
    building::write_stock_view(out, to_string(Spot{Zone::stock, seat}), seat, side);
    write_pile_view(out, to_string(Spot{Zone::hand, seat}), seat, side.hand, Shown::count, true);
    write_pile_view(out, to_string(Spot{Zone::turned, seat}), seat, side.turned ? Pile{*side.turned} : Pile{},
                    Shown::top, true);
    write_pile_view(out, to_string(Spot{Zone::discard, seat}), seat, side.discards[0], Shown::all, true);
  }
  out.end_array();
}

const char* RussianBank::phase_name() const {
  switch (phase_) {
    case Phase::deal_over: return "waiting";
    case Phase::playing: return "play";
    case Phase::game_over: return "game_over";
  }
  return "play";
}

void RussianBank::write_view(std::optional<int> viewer, JsonWriter& out) const {
  out.begin_object();
  view::base_members(out, view::layouts::building, phase_name(), deals_, std::nullopt);
  out.field("viewer", viewer);
  out.array_field("seats", [&] {
    for (int seat = 0; seat < players; ++seat) write_seat(out, seat);
  });
  out.key("piles");
  write_piles(out);
  out.key("turn");
  view::turn(out, to_act(), phase_ != Phase::playing ? "over" : stop_callable() ? "stop_window" : "play");
  out.field("mover", phase_ == Phase::playing ? std::optional<int>(mover_) : std::nullopt);
  out.field("first_player", first_);
  out.field("turn_number", turn_number_);
  out.field("max_turns", max_turns_);
  out.field("stop_rule", stop_rule_ == StopRule::call ? "call" : "refuse");
  out.field("stake", stake_);
  out.field("infraction", infraction_);
  out.field("demanded_space", demanded_fill_);
  out.object_field("layout_moves", [&] {
    out.field("made", layout_moves_);
    out.field("limit", layout_moves_per_turn);
  });
  out.array_field("recycles", [&] {
    for (const int recycled : recycles_) out.integer(recycled);
  });
  out.end_object();
}

}  // namespace parlour::rules::russian_bank
