// Carousel's turn in the shared Rummy engine (RummyConfig::draw_meld_cycle,
// rules/rummy.md §1.7 and §3.6): DRAW1 → options → DRAW2 → options → DRAW3 ends
// the turn. The options are `layout` (the whole new table, any number of times),
// `knock` (count ≤ knock_max), `finish` (after a layout this turn) and `draw`
// (before any layout this turn). There is no discard pile. A layout that empties
// the hand knocks by itself (R-CA2). Once the last stock card is drawn, its
// drawer's turn goes on without further draws; if he does not knock, the final
// meld round (R-CA3): each player still in the deal, from the drawer's left and
// the drawer last, may lay out once more, then the deal ends with the stock
// exhausted. `withdraw` (withdraw_allowed) takes the player to act out of the
// deal: no further turns; his hand still counts.
#include <algorithm>

#include "rules/action.h"
#include "rules/pools.h"
#include "rules/rummy/rummy_base.h"

namespace parlour::rules::rummy {

namespace {

std::vector<Card> distinct_cards(const std::vector<Card>& cards) {
  std::vector<Card> out;
  for (auto c : cards)
    if (!holds(out, c)) out.push_back(c);
  return out;
}

// A meld as the wire writes it ("9H", "JK=8H"), straight into JSON.
Json meld_json(const Meld& meld) {
  Json out = Json::array();
  out.get_ref<Json::array_t&>().reserve(meld.cards.size());
  for (const auto& mc : meld.cards) out.push_back(mc.wild ? to_string(mc.card) + "=" + to_string(mc.as) : to_string(mc.card));
  return out;
}

// A cheap first test before lays_off: a full set, or (distinct suits) a set that
// already holds the card's suit, takes nothing.
bool set_could_take(const Meld& meld, Card card, const MeldRules& rules) {
  if (meld.kind != MeldKind::set) return true;
  if (static_cast<int>(meld.cards.size()) >= rules.set_max) return false;
  if (card.is_joker() || !rules.set_distinct_suits) return true;
  return std::none_of(meld.cards.begin(), meld.cards.end(), [&](const MeldCard& mc) { return mc.as.suit == card.suit; });
}

}  // namespace

// ------------------------------------------------------------------ apply

void RummyBase::apply_draw_meld_cycle(int seat, const std::string& type, const Json& action, Balances& chips,
                                      Effects& fx) {
  if (type == "withdraw") return cycle_withdraw(seat, chips, fx);
  if (step_ == Step::draw) {
    if (type != "draw") throw illegal_action("draw first: your turn starts with a card from the stock, got '" + type + "'");
    return cycle_draw(seat, action, chips, fx);
  }
  if (step_ != Step::play) throw illegal_action("nothing to do now");
  if (type == "layout") {
    if (hands_[seat].empty()) throw illegal_action("your hand is empty: finish your turn");
    return apply_layout(seat, action, chips, fx);
  }
  if (type == "draw") return cycle_draw(seat, action, chips, fx);
  if (type == "knock") return cycle_knock(seat, chips, fx);
  if (type == "finish") return cycle_finish(seat, chips, fx);
  throw illegal_action("expected layout, knock, finish or draw, got '" + type + "'");
}

void RummyBase::cycle_draw(int seat, const Json& action, Balances& chips, Effects& fx) {
  expect_only_fields(action, {"from"});
  if (action.contains("from") && action["from"] != "stock")
    throw illegal_action("draw from the stock: there is no discard pile in this game");
  if (final_round_) throw illegal_action("the stock is exhausted: no more drawing, lay out or finish");
  if (plays_this_turn_ > 0) throw illegal_action("you have melded this turn and may not draw again");
  if (stock_.empty()) throw illegal_action("the stock is exhausted: no more drawing, lay out, knock or finish");
  hands_[seat].push_back(stock_.back());
  stock_.pop_back();
  ++drawn_this_turn_;
  fx.say(seat_tag(seat) + " draws card " + std::to_string(drawn_this_turn_) + " from the stock.");
  if (stock_.empty()) fx.say(seat_tag(seat) + " has drawn the last card of the stock.");
  if (drawn_this_turn_ >= config_.cycle.draws_per_turn) {
    fx.say("That was " + seat_tag(seat) + "'s last draw: the turn ends.");
    return cycle_end_turn(chips, fx);
  }
  step_ = Step::play;
}

void RummyBase::cycle_knock(int seat, Balances& chips, Effects& fx) {
  if (final_round_) throw illegal_action("no knocking in the final meld round");
  const int count = hand_count(seat);
  if (count > config_.cycle.knock_max)
    throw illegal_action("you may knock only with a count of " + std::to_string(config_.cycle.knock_max) +
                         " or less; yours is " + std::to_string(count));
  knocker_ = seat;
  fx.say(seat_tag(seat) + " knocks with " + std::to_string(count) + ".");
  DealEnd end;
  end.kind = DealEnd::Kind::knock;
  end.knocker = seat;
  end_deal(end, chips, fx);
}

void RummyBase::cycle_finish(int seat, Balances& chips, Effects& fx) {
  if (!final_round_ && plays_this_turn_ == 0 && !stock_.empty())
    throw illegal_action("you may finish only after melding this turn; otherwise draw");
  fx.say(seat_tag(seat) + " is finished.");
  cycle_end_turn(chips, fx);
}

void RummyBase::cycle_withdraw(int seat, Balances& chips, Effects& fx) {
  if (!config_.cycle.withdraw_allowed) throw illegal_action("there is no turn time limit at this table");
  if (step_ != Step::draw && step_ != Step::play) throw illegal_action("nothing to withdraw from");
  withdrawn_[seat] = true;
  fx.say(seat_tag(seat) + " ran out of time and withdraws from this deal; his hand still counts.");
  cycle_end_turn(chips, fx);
}

void RummyBase::cycle_hand_emptied(int seat, Balances& chips, Effects& fx) {
  if (final_round_) {  // no knocking any more: the empty hand simply ends this last chance
    fx.say(seat_tag(seat) + " has melded his whole hand.");
    return cycle_end_turn(chips, fx);
  }
  knocker_ = seat;
  fx.say(seat_tag(seat) + " has melded his whole hand and knocks.");
  DealEnd end;
  end.kind = DealEnd::Kind::knock;
  end.knocker = seat;
  end_deal(end, chips, fx);
}

int RummyBase::cycle_next_seat(int from) const {
  const auto still_in = [&](int seat) { return !left_[seat] && !withdrawn_[seat]; };
  const int seat = next_seat(from, players(), still_in);
  return still_in(seat) ? seat : -1;
}

void RummyBase::cycle_end_turn(Balances& chips, Effects& fx) {
  if (final_round_ && --final_turns_left_ <= 0) {
    fx.say("The final meld round is over: the lowest count wins.");
    DealEnd end;
    end.kind = DealEnd::Kind::stock_exhausted;
    return end_deal(end, chips, fx);
  }
  if (!final_round_ && stock_.empty()) {
    // R-CA3: from the last drawer's left, ending with him (if still in the deal).
    final_round_ = true;
    final_turns_left_ = 0;
    for (int s = 0; s < players(); ++s)
      if (!left_[s] && !withdrawn_[s]) ++final_turns_left_;
    if (final_turns_left_ > 0) fx.say("The stock is exhausted: each player has one more chance to meld.");
  }
  const int next = cycle_next_seat(turn_);
  if (next < 0 || (final_round_ && final_turns_left_ <= 0)) {
    fx.say("Every player has withdrawn: the deal ends with no winner.");
    return end_deal(DealEnd{}, chips, fx);
  }
  begin_turn(next, fx);
  if (final_round_) step_ = Step::play;
}

// ------------------------------------------------------------------ legal

void RummyBase::list_draw_meld_cycle(int seat, Json& legal) const {
  if (step_ == Step::draw) {
    if (!stock_.empty()) legal.push_back({{"type", "draw"}, {"from", "stock"}});
    return;
  }
  if (step_ != Step::play) return;
  if (!final_round_ && plays_this_turn_ == 0 && !stock_.empty()) legal.push_back({{"type", "draw"}, {"from", "stock"}});
  if (!final_round_ && hand_count(seat) <= config_.cycle.knock_max) legal.push_back({{"type", "knock"}});
  if (final_round_ || plays_this_turn_ > 0 || stock_.empty()) legal.push_back({{"type", "finish"}});
  list_layouts(seat, legal);
}

// A useful subset of layouts (rules/rummy.md G6), each valid as listed: every
// new meld the hand could put down beside the table as it stands (the engine's
// candidate melds, jokers declared as the validator places them), every single
// card laid off on a table meld, and every exchange of a table joker for the
// natural card it stands for, the joker then laid off on the first meld that
// takes it or, failing that, melded with cards from the hand.
void RummyBase::list_layouts(int seat, Json& legal) const {
  const auto& hand = hands_[seat];
  if (hand.empty()) return;
  const auto& rules = config_.melds;
  // The table as it stands, written out once and only if some layout is listed.
  Json written;
  auto table = [&]() -> const Json& {
    if (written.is_null()) {
      written = Json::array();
      for (const auto& tm : table_) written.push_back(meld_json(tm.meld));
    }
    return written;
  };
  auto emit = [&](Json melds) { legal.push_back({{"type", "layout"}, {"melds", std::move(melds)}}); };

  for (const auto& cards : candidate_melds(hand, rules)) {
    auto check = validate_meld(cards, rules);
    if (!check) continue;
    Json melds = table();
    melds.push_back(meld_json(*check.meld));
    emit(std::move(melds));
  }

  const auto singles = distinct_cards(hand);
  for (std::size_t i = 0; i < table_.size(); ++i)
    for (auto c : singles) {
      if (!set_could_take(table_[i].meld, c, rules) || !lays_off(table_[i].meld, c, rules)) continue;
      auto check = extend_meld(table_[i].meld, {c}, rules);
      Json melds = table();
      melds[i] = meld_json(*check.meld);
      emit(std::move(melds));
    }

  for (std::size_t i = 0; i < table_.size(); ++i) {
    const auto& meld = table_[i].meld;
    for (std::size_t k = 0; k < meld.cards.size(); ++k) {
      const auto& mc = meld.cards[k];
      if (!mc.wild || !holds(hand, mc.as)) continue;
      if (k > 0 && std::find(meld.cards.begin(), meld.cards.begin() + k, mc) != meld.cards.begin() + k) continue;
      Meld swapped = meld;
      swapped.cards[k] = MeldCard{mc.as, mc.as, false};
      const Card wild = mc.card;
      bool placed = false;
      for (std::size_t j = 0; j < table_.size() && !placed; ++j) {
        auto check = extend_meld(j == i ? swapped : table_[j].meld, {wild}, rules);
        if (!check) continue;
        Json melds = table();
        melds[i] = meld_json(swapped);
        melds[j] = meld_json(*check.meld);
        emit(std::move(melds));
        placed = true;
      }
      if (placed) continue;
      auto rest = hand;
      rest.erase(std::find(rest.begin(), rest.end(), mc.as));
      rest.push_back(wild);
      for (const auto& cards : candidate_melds(rest, rules)) {
        if (!holds(cards, wild)) continue;
        auto check = validate_meld(cards, rules);
        if (!check) continue;
        Json melds = table();
        melds[i] = meld_json(swapped);
        melds.push_back(meld_json(*check.meld));
        emit(std::move(melds));
        break;
      }
    }
  }
}

// ------------------------------------------------------------------ view

void RummyBase::cycle_view(Json& view) const {
  view["drawn"] = drawn_this_turn_;
  view["draws_per_turn"] = config_.cycle.draws_per_turn;
  view["melded_this_turn"] = plays_this_turn_ > 0;
  view["knock_max"] = config_.cycle.knock_max;
  view["knocker"] = knocker_ >= 0 ? Json(knocker_) : Json();
  std::vector<int> out;
  for (int s = 0; s < players(); ++s)
    if (withdrawn_[s]) out.push_back(s);
  view["withdrawn"] = out;
  if (final_round_) view["final_round"] = {{"turns_left", final_turns_left_}};
  view.erase("upcard");
  view.erase("pile_size");
}

}  // namespace parlour::rules::rummy
