// The call window (000 Rummy's option `call`, rules/rummy.md §2.2): on a discard
// that could be laid off, the other players may call "Rummy!"; the caller nearest
// the discarder's left lays it off and discards, and play goes on.
#include "rules/rummy/rummy_base.h"

#include <algorithm>

#include "rules/action.h"
#include "rules/rummy/card_lists.h"

namespace parlour::rules::rummy {

void RummyBase::open_call_window(int discarder, Effects& fx) {
  const Card card = pile_.back();
  bool fits = false;
  for (const auto& tm : table_)
    if (lays_off(tm.meld, card, config_.melds)) fits = true;
  if (!fits) return;
  discarder_ = discarder;
  call_order_.clear();
  for (int i = 1; i < players(); ++i) {
    const int seat = (discarder + i) % players();
    if (in_play(seat)) call_order_.push_back(seat);
  }
  call_answer_.assign(call_order_.size(), 0);
  call_meld_.assign(call_order_.size(), -1);
  stage_ = Stage::call_window;
  fx.say(to_string(card) + " could be laid off: the others may call \"Rummy!\".");
}

// The call window: each other player in turn from the discarder's left calls the
// discard onto a meld it lays off on, or passes.
void RummyBase::call_window_legal_actions(int, JsonWriter& legal) const {
  write_bare_action(legal, "pass");
  for (std::size_t i = 0; i < table_.size(); ++i)
    if (lays_off(table_[i].meld, pile_.back(), config_.melds))
      legal.object([&] {
        legal.field("type", "call");
        legal.field("meld", i);
      });
}

void RummyBase::apply_call_window_action(int seat, const std::string& type, const Json& action, Balances& chips,
                                         Effects& fx) {
  if (type == "call") apply_call(seat, action, chips, fx);
  else if (type == "pass") apply_pass(seat, chips, fx);
  else throw illegal_action("expected call or pass, got '" + type + "'");
}

// The winning caller, having laid the card off, discards.
void RummyBase::call_discard_legal_actions(int seat, JsonWriter& legal) const {
  for (auto c : distinct(hands_[seat])) write_card_action(legal, "discard", c);
}

void RummyBase::apply_call_discard_action(int seat, const std::string& type, const Json& action, Balances& chips,
                                          Effects& fx) {
  if (type != "discard") throw illegal_action("after a call, discard a card from your hand");
  apply_discard(seat, action, chips, fx);
}

void RummyBase::apply_call(int seat, const Json& action, Balances& chips, Effects& fx) {
  expect_only_fields(action, {"meld"});
  const auto index = int_field(action, "meld");
  if (index < 0 || index >= static_cast<std::int64_t>(table_.size()))
    throw illegal_action("no meld " + std::to_string(index) + " on the table");
  if (!extend_meld(table_[index].meld, {pile_.back()}, config_.melds))
    throw illegal_action(to_string(pile_.back()) + " does not lay off on meld " + std::to_string(index));
  const auto pos = std::find(call_order_.begin(), call_order_.end(), seat) - call_order_.begin();
  call_answer_[pos] = 1;
  call_meld_[pos] = static_cast<int>(index);
  fx.say(seat_tag(seat) + " calls \"Rummy!\"");
  resolve_call_window(chips, fx);
}

void RummyBase::apply_pass(int seat, Balances& chips, Effects& fx) {
  const auto pos = std::find(call_order_.begin(), call_order_.end(), seat) - call_order_.begin();
  call_answer_[pos] = -1;
  resolve_call_window(chips, fx);
}

// The caller nearest the discarder's left wins once everyone nearer has passed.
void RummyBase::resolve_call_window(Balances& chips, Effects& fx) {
  for (std::size_t i = 0; i < call_order_.size(); ++i) {
    if (call_answer_[i] == 0) return;  // someone nearer may still call
    if (call_answer_[i] == -1) continue;
    const int caller = call_order_[i];
    const Card card = pile_.back();
    pile_.pop_back();
    auto& target = table_[call_meld_[i]];
    auto extended = *extend_meld(target.meld, {card}, config_.melds).meld;
    std::vector<int> placed_by;
    std::vector<bool> used(target.meld.cards.size(), false);
    for (const auto& mc : extended.cards) {
      int by = caller;
      for (std::size_t j = 0; j < target.meld.cards.size(); ++j)
        if (!used[j] && target.meld.cards[j] == mc) {
          used[j] = true;
          by = target.placed_by[j];
          break;
        }
      placed_by.push_back(by);
    }
    target.meld = extended;
    target.placed_by = placed_by;
    fx.say(seat_tag(caller) + " lays off " + to_string(card) + " and must discard.");
    caller_ = caller;
    stage_ = Stage::call_discard;
    return;
  }
  // Everyone passed: play goes on in order.
  finish_turn(chips, fx);
}

}  // namespace parlour::rules::rummy
