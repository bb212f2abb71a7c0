// §8.4's compulsory order and §8.5's demanded space, and the mover's actions
// checked against them: refused, or under stop_rule `call` accepted as an infraction.
#include "rules/games/russian_bank/game.h"

#include "rules/action.h"

namespace parlour::rules::russian_bank {

// §8.4's compulsory order and §8.5's demanded space, as they stand now.
std::vector<Priority<Move>> RussianBank::priorities() const {
  const auto& side = mover_side();
  const bool stock_left = !side.stock().empty();
  const bool vacancy = has_vacancy();
  const auto stock_top = side.stock_top();
  const bool stock_to_base = stock_top && base_for(*stock_top);
  const bool base_play = any_base_play();
  const auto fills_space_from_stock = [this](const Move& m) {
    return places(m, Zone::stock, Zone::layout) && layout_[m.placement.to.index].empty();
  };
  const auto neither_hand_nor_end = [](const Move& m) {
    return m.kind != Move::Kind::turn_hand && m.kind != Move::Kind::end_turn;
  };
  return {
      {rule_stock_first, stock_to_base, [](const Move& m) { return places(m, Zone::stock, Zone::centre); }},
      {rule_base_first, base_play,
       [](const Move& m) { return places_to(m, Zone::centre) || m.kind == Move::Kind::turn_stock; }},
      {rule_demanded, demanded_fill_ && stock_left && !base_play,
       [fills_space_from_stock](const Move& m) {
         return m.kind == Move::Kind::turn_stock || fills_space_from_stock(m);
       }},
      {rule_spaces, vacancy && stock_left, neither_hand_nor_end},
      {rule_spaces_discard, vacancy && !stock_left,
       [this](const Move& m) { return !is_discard(m, mover_) && m.kind != Move::Kind::end_turn; }},
      {rule_hand_too_soon, stock_left && !side.stock_top_up(), neither_hand_nor_end},
  };
}

// A move's card is filled in once its source is known to hold one.
Move RussianBank::parse_mover_action(const std::string& type, const Json& action, std::optional<Card>& named) const {
  if (type == "move") {
    const auto request = building::parse_move(action);
    named = request.card;
    return {Move::Kind::place, request.placement, {}};
  }
  Move move;
  if (type == "turn_stock") move.kind = Move::Kind::turn_stock;
  else if (type == "turn_hand") move.kind = Move::Kind::turn_hand;
  else if (type == "end_turn") move.kind = Move::Kind::end_turn;
  else if (type == "stop" || type == "demand")
    throw illegal_action("'" + type + "' is for the opponent of the player moving (§8.5, §8.6)");
  else
    throw illegal_action("unknown action '" + type + "': expected move, turn_stock, turn_hand or end_turn");
  expect_only_fields(action, {});
  return move;
}

void RussianBank::apply_mover(const std::string& type, const Json& action, Effects& fx) {
  std::optional<Card> named;
  Move move = parse_mover_action(type, action, named);
  if (move.kind == Move::Kind::place) {
    if (auto fault = source_fault(move.placement.from); fault != Fault::none)
      throw illegal_action(fault_message(fault, move.placement, std::nullopt));
    move.card = source_card(move.placement.from);
    building::check_named_card({move.placement, named}, move.card);
    if (auto fault = placement_fault(move.placement); fault != Fault::none)
      throw illegal_action(fault_message(fault, move.placement, move.card));
  } else if (auto fault = step_fault(move.kind); !fault.empty()) {
    throw illegal_action(fault);
  }
  const auto rules = priorities();
  if (const auto* broken = building::broken_priority(move, rules)) {
    if (stop_rule_ == StopRule::refuse) throw illegal_action(broken->rule);
    if (ends_turn(move, mover_))
      throw illegal_action(broken->rule + "; a fault that ends the turn could never be stopped, so it is refused");
    infraction_ = broken->rule;
    fx.say(seat_tag(mover_) + " plays out of order: " + broken->rule + ". " + seat_tag(opponent()) +
           " may call stop.");
  }
  perform(move, fx);
}

void RussianBank::perform(const Move& move, Effects& fx) {
  auto& side = mover_side();
  switch (move.kind) {
    case Move::Kind::turn_stock:
      side.turn_up_stock();
      fx.say(seat_tag(mover_) + " turns up " + to_string(side.stock().back().card) + " on the stock.");
      return;
    case Move::Kind::turn_hand: {
      if (side.turn_hand()) {
        ++recycles_[mover_];
        fx.say(seat_tag(mover_) + " turns the discard pile over as a new hand.");
      }
      fx.say(seat_tag(mover_) + " turns up " + to_string(side.turned->card) + " from the hand.");
      return;
    }
    case Move::Kind::end_turn:
      fx.say(seat_tag(mover_) + " has no hand card to turn and ends the turn.");
      return pass_turn(fx);
    case Move::Kind::place: return place(move.placement, fx);
  }
}

}  // namespace parlour::rules::russian_bank
