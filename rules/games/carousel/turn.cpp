// Carousel's turn (rules/rummy.md §1.7 and §3.6), in place of the Rummy engine's
// draw and play stages: DRAW1 → options → DRAW2 → options → DRAW3 ends the turn.
// The options are `layout` (the whole new table, any number of times), `knock`
// (count ≤ 5), `finish` (after a layout this turn) and `draw` (before any layout
// this turn). There is no discard pile. A layout that empties the hand knocks by
// itself (R-CA2). Once the last stock card is drawn, its drawer's turn goes on
// without further draws; if he does not knock, the final meld round (R-CA3, the
// engine's StockEnd::final_meld_round): each player still in the deal, from the
// drawer's left and the drawer last, may lay out once more, then the deal ends
// with the stock exhausted. `withdraw` (a turn time limit) takes the player to
// act out of the deal: no further turns; his hand still counts.
#include "rules/games/carousel/carousel_game.h"

#include "rules/action.h"
#include "rules/pools.h"
#include "rules/rummy/card_lists.h"

namespace parlour::rules::carousel {

using rummy::DealEnd;

// ------------------------------------------------------------------ the draw stage

void Carousel::draw_legal_actions(int, JsonWriter& legal) const {
  if (!stock_empty()) rummy::list_draw(legal, "stock");
}

void Carousel::apply_draw_action(int seat, const std::string& type, const Json& action, Balances& chips,
                                 Effects& fx) {
  if (type == "withdraw") return withdraw(seat, chips, fx);
  if (type != "draw") throw illegal_action("draw first: your turn starts with a card from the stock, got '" + type + "'");
  draw(seat, action, chips, fx);
}

// ------------------------------------------------------------------ the play stage

void Carousel::play_legal_actions(int seat, JsonWriter& legal) const {
  const bool final_round = in_final_meld_round();
  if (!final_round && plays_this_turn() == 0 && !stock_empty()) rummy::list_draw(legal, "stock");
  if (!final_round && hand_count(seat) <= kKnockMax) write_bare_action(legal, "knock");
  if (final_round || plays_this_turn() > 0 || stock_empty()) write_bare_action(legal, "finish");
  list_layouts(seat, legal);
}

void Carousel::apply_play_action(int seat, const std::string& type, const Json& action, Balances& chips,
                                 Effects& fx) {
  if (type == "withdraw") return withdraw(seat, chips, fx);
  if (type == "layout") {
    if (hand(seat).empty()) throw illegal_action("your hand is empty: finish your turn");
    return apply_layout(seat, action, chips, fx);
  }
  if (type == "draw") return draw(seat, action, chips, fx);
  if (type == "knock") return knock(seat, chips, fx);
  if (type == "finish") return finish(seat, chips, fx);
  throw illegal_action("expected layout, knock, finish or draw, got '" + type + "'");
}

// ------------------------------------------------------------------ the actions

void Carousel::draw(int seat, const Json& action, Balances& chips, Effects& fx) {
  expect_only_fields(action, {"from"});
  if (action.contains("from") && action["from"] != "stock")
    throw illegal_action("draw from the stock: there is no discard pile in this game");
  if (in_final_meld_round()) throw illegal_action("the stock is exhausted: no more drawing, lay out or finish");
  if (plays_this_turn() > 0) throw illegal_action("you have melded this turn and may not draw again");
  if (stock_empty()) throw illegal_action("the stock is exhausted: no more drawing, lay out, knock or finish");
  draw_from_stock(seat);
  fx.say(seat_tag(seat) + " draws card " + std::to_string(drawn_this_turn()) + " from the stock.");
  if (stock_empty()) fx.say(seat_tag(seat) + " has drawn the last card of the stock.");
  if (drawn_this_turn() >= kDrawsPerTurn) {
    fx.say("That was " + seat_tag(seat) + "'s last draw: the turn ends.");
    return end_turn(chips, fx);
  }
  set_stage(Stage::play);
}

void Carousel::knock(int seat, Balances& chips, Effects& fx) {
  if (in_final_meld_round()) throw illegal_action("no knocking in the final meld round");
  const int count = hand_count(seat);
  if (count > kKnockMax)
    throw illegal_action("you may knock only with a count of " + std::to_string(kKnockMax) + " or less; yours is " +
                         std::to_string(count));
  knocker_ = seat;
  fx.say(seat_tag(seat) + " knocks with " + std::to_string(count) + ".");
  DealEnd end;
  end.kind = DealEnd::Kind::knock;
  end.knocker = seat;
  end_deal(end, chips, fx);
}

void Carousel::finish(int seat, Balances& chips, Effects& fx) {
  if (!in_final_meld_round() && plays_this_turn() == 0 && !stock_empty())
    throw illegal_action("you may finish only after melding this turn; otherwise draw");
  fx.say(seat_tag(seat) + " is finished.");
  end_turn(chips, fx);
}

// R-CA4: the server plays this for a player whose turn outlasts the time limit.
void Carousel::withdraw(int seat, Balances& chips, Effects& fx) {
  if (time_limit_ <= 0) throw illegal_action("there is no turn time limit at this table");
  withdrawn_[seat] = true;
  fx.say(seat_tag(seat) + " ran out of time and withdraws from this deal; his hand still counts.");
  end_turn(chips, fx);
}

// R-CA2: a layout that empties the hand knocks by itself, but in the final meld
// round, where there is no knocking, it simply ends this last chance.
void Carousel::on_hand_emptied(int seat, Balances& chips, Effects& fx) {
  if (in_final_meld_round()) {
    fx.say(seat_tag(seat) + " has melded his whole hand.");
    return end_turn(chips, fx);
  }
  knocker_ = seat;
  fx.say(seat_tag(seat) + " has melded his whole hand and knocks.");
  DealEnd end;
  end.kind = DealEnd::Kind::knock;
  end.knocker = seat;
  end_deal(end, chips, fx);
}

// ------------------------------------------------------------------ the turn's end

int Carousel::players_in_deal() const {
  int count = 0;
  for (int s = 0; s < players(); ++s)
    if (in_deal(s)) ++count;
  return count;
}

int Carousel::next_seat_in_deal(int from) const {
  const int seat = next_seat(from, players(), [&](int s) { return in_deal(s); });
  return in_deal(seat) ? seat : -1;
}

void Carousel::end_turn(Balances& chips, Effects& fx) {
  if (final_meld_round_over(fx)) {
    DealEnd end;
    end.kind = DealEnd::Kind::stock_exhausted;
    return end_deal(end, chips, fx);
  }
  // R-CA3: from the last drawer's left, ending with him (if still in the deal).
  begin_final_meld_round_once_stock_is_out(players_in_deal(), fx);
  const int next = next_seat_in_deal(turn());
  if (next < 0 || (in_final_meld_round() && final_meld_turns_left() <= 0)) {
    fx.say("Every player has withdrawn: the deal ends with no winner.");
    return end_deal(DealEnd{}, chips, fx);
  }
  begin_turn(next, fx);
  if (in_final_meld_round()) set_stage(Stage::play);
}

}  // namespace parlour::rules::carousel
