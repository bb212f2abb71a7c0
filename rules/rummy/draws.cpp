// The draw stage (rules/rummy.md §1.6): the stock top, the upcard (with the stock
// top in Boathouse, then one more card in Round-the-Corner), a spread pile's card
// with all above it (Michigan family) or the whole pile (Polish), declining the
// upcard once the stock is gone (Block). What an empty stock allows is asked of
// stock_end.cpp.
#include "rules/rummy/rummy_base.h"

#include "rules/action.h"
#include "rules/rummy/card_lists.h"

namespace parlour::rules::rummy {

// The draw stage, a turn's start: the stock top, the upcard, a spread pile's
// cards, the whole pile, declining the upcard (Block), or going down (Java).
void RummyBase::draw_legal_actions(int seat, JsonWriter& legal) const {
  list_draws(seat, legal);
  if (config_.melding.go_down) list_go_down(seat, legal);
}

void RummyBase::apply_draw_action(int seat, const std::string& type, const Json& action, Balances& chips,
                                  Effects& fx) {
  if (type == "draw") apply_draw(seat, action, fx);
  else if (type == "take") apply_take(seat, action, fx);
  else if (type == "take_all") apply_take_all(seat, fx);
  else if (type == "decline") apply_decline(seat, chips, fx);
  else if (type == "go_down") apply_go_down(seat, action, chips, fx);
  else throw illegal_action("draw first: expected draw, take or decline, got '" + type + "'");
}

void RummyBase::apply_draw(int seat, const Json& action, Effects& fx) {
  expect_only_fields(action, {"from"});
  const auto from = action.value("from", Json()).is_string() ? action["from"].get<std::string>() : std::string();
  if (from != "stock" && from != "discard" && from != "two_discards")
    throw illegal_action("draw from \"stock\" or \"discard\", got " + action.value("from", Json()).dump());
  if (config_.draw.spread_pile && from != "stock") throw illegal_action("take from the spread pile with a take action");
  if (in_break_ && from == "discard" && !usable_take(seat, 0, true))
    throw illegal_action("in the break, take the upcard only to meld it or lay it off at once");
  if (stock_gone_) {
    if (from != "discard") throw illegal_action("the stock is gone: take the upcard or decline");
    if (pile_.empty()) throw illegal_action("there is no upcard to take");
  }
  if (config_.draw.upcard_then_one_more) return draw_upcard_then_one_more(seat, from, fx);
  if (from == "stock") {
    prepare_stock_draw(fx);
    take_stock_top(seat);
    fx.say(seat_tag(seat) + " draws from the stock.");
  } else if (from == "discard") {
    if (pile_.empty()) throw illegal_action("the discard pile is empty");
    const bool pair_with_stock = config_.draw.boathouse && !stock_gone_;
    if (pair_with_stock && stock_.empty() && !upcard_restocks_pair())
      throw illegal_action("the upcard comes with the stock top, and the stock is empty");
    const Card upcard = pile_.back();
    if (!take_upcard_restocking(fx)) {
      pile_.pop_back();
      hands_[seat].push_back(upcard);
    }
    taken_upcard_ = upcard;
    if (in_break_) must_use_ = upcard;
    fx.say(seat_tag(seat) + " takes the upcard " + to_string(upcard) + ".");
    if (pair_with_stock) {
      take_stock_top(seat);
      fx.say(seat_tag(seat) + " also draws from the stock.");
    }
  } else {
    if (!config_.draw.boathouse_two_discards) throw illegal_action("taking two discards is not allowed in this game");
    if (pile_.size() < 2) throw illegal_action("the discard pile holds fewer than two cards");
    for (int i = 0; i < 2; ++i) {
      hands_[seat].push_back(pile_.back());
      pile_.pop_back();
    }
    fx.say(seat_tag(seat) + " takes the two top discards.");
  }
  stage_ = Stage::play;
}

// Round-the-Corner's draw: the stock top alone, or the upcard and then one more
// card, the stock top or the new upcard (so also the two top discards).
void RummyBase::draw_upcard_then_one_more(int seat, const std::string& from, Effects& fx) {
  const bool second = drawn_this_turn_ > 0;
  if (from == "two_discards") throw illegal_action("take the two top discards as two draws from \"discard\"");
  if (from == "stock") {
    if (stock_.empty()) throw illegal_action("the stock is empty");
    take_stock_top(seat);
    fx.say(seat_tag(seat) + " draws from the stock.");
  } else {
    if (pile_.empty()) throw illegal_action("the discard pile is empty");
    if (!second && stock_.empty() && pile_.size() < 2)
      throw illegal_action("no second card could follow the upcard: the stock is empty");
    const Card upcard = pile_.back();
    pile_.pop_back();
    hands_[seat].push_back(upcard);
    if (!second) taken_upcard_ = upcard;
    fx.say(seat_tag(seat) + " takes the upcard " + to_string(upcard) + ".");
  }
  after_draw_for_stock(fx);
  if (from == "discard" && !second) {
    drawn_this_turn_ = 1;  // one more card to draw before playing
    return;
  }
  drawn_this_turn_ = 2;
  stage_ = Stage::play;
}

bool RummyBase::usable_take(int seat, std::size_t depth, bool must_use) const {
  if (depth >= pile_.size()) return false;
  if (!must_use) return true;
  const Card card = pile_[pile_.size() - 1 - depth];
  auto cards = hands_[seat];
  cards.insert(cards.end(), pile_.end() - 1 - static_cast<std::ptrdiff_t>(depth), pile_.end());
  // Usable: it lays off on a table meld, or some meld of the new hand holds it.
  for (const auto& tm : table_)
    if (lays_off(tm.meld, card, config_.melds)) return true;
  if (config_.melding.shift_on_natural)
    for (const auto& tm : table_)
      if (!shift_choices(tm.meld, card, config_.melds).empty()) return true;
  return some_meld_holds(cards, card, config_.melds);
}

void RummyBase::apply_take(int seat, const Json& action, Effects& fx) {
  if (!config_.draw.spread_pile) throw illegal_action("this game has no spread pile; draw from the stock or the discard");
  expect_only_fields(action, {"depth", "card"});
  const auto depth = int_field(action, "depth");
  if (depth < 0 || depth >= static_cast<std::int64_t>(pile_.size()))
    throw illegal_action("depth must be from 0 (the top) to " + std::to_string(static_cast<int>(pile_.size()) - 1));
  const Card card = pile_[pile_.size() - 1 - depth];
  if (action.contains("card") && card_field(action, "card") != card)
    throw illegal_action("the card at depth " + std::to_string(depth) + " is " + to_string(card));
  if (!usable_take(seat, static_cast<std::size_t>(depth), config_.draw.must_use_taken && !(depth == 0 && config_.draw.top_card_free)))
    throw illegal_action("you may take " + to_string(card) + " only if you can meld it or lay it off at once");
  std::vector<Card> taken(pile_.end() - 1 - depth, pile_.end());
  pile_.erase(pile_.end() - 1 - depth, pile_.end());
  hands_[seat].insert(hands_[seat].end(), taken.begin(), taken.end());
  if (config_.draw.must_use_taken && !(depth == 0 && config_.draw.top_card_free)) must_use_ = card;
  if (depth == 0) taken_upcard_ = card;
  fx.say(seat_tag(seat) + " takes " + to_string(card) + (depth > 0 ? " and the " + std::to_string(depth) + " cards above it" : "") + ".");
  stage_ = Stage::play;
}

void RummyBase::apply_take_all(int seat, Effects& fx) {
  if (!config_.draw.take_whole_pile) throw illegal_action("taking the whole pile is the Polish rule, not in play here");
  if (pile_.empty()) throw illegal_action("the discard pile is empty");
  if (whole_pile_takes_ >= whole_pile_takes_max())
    throw illegal_action("the whole pile has been taken " + std::to_string(whole_pile_takes_) +
                         " times this deal, the most allowed: draw from the stock or take a card to meld");
  ++whole_pile_takes_;
  hands_[seat].insert(hands_[seat].end(), pile_.begin(), pile_.end());
  fx.say(seat_tag(seat) + " takes the whole discard pile (" + std::to_string(pile_.size()) + " cards).");
  pile_.clear();
  stage_ = Stage::play;
}

void RummyBase::apply_decline(int seat, Balances& chips, Effects& fx) {
  if (!stock_gone_) throw illegal_action("you may decline the upcard only once the stock is gone (Block)");
  fx.say(seat_tag(seat) + " declines the upcard; play ends.");
  end_deal({DealEnd::Kind::block_showdown, -1, false}, chips, fx);
}

void RummyBase::take_stock_top(int seat) {
  hands_[seat].push_back(stock_.back());
  stock_.pop_back();
}

void RummyBase::draw_from_stock(int seat) {
  take_stock_top(seat);
  ++drawn_this_turn_;
}

// ------------------------------------------------------------------ legal

void RummyBase::list_draws(int seat, JsonWriter& legal) const {
  if (stock_gone_) {
    if (!pile_.empty()) list_draw(legal, "discard");
    write_bare_action(legal, "decline");
    return;
  }
  if (config_.draw.upcard_then_one_more) {
    if (!stock_.empty()) list_draw(legal, "stock");
    if (!pile_.empty() && (drawn_this_turn_ > 0 || !stock_.empty() || pile_.size() >= 2)) list_draw(legal, "discard");
    return;
  }
  if (can_draw_from_stock()) list_draw(legal, "stock");
  if (config_.draw.spread_pile) {
    for (std::size_t depth = 0; depth < pile_.size(); ++depth)
      if (usable_take(seat, depth, config_.draw.must_use_taken && !(depth == 0 && config_.draw.top_card_free)))
        legal.object([&] {
          legal.field("type", "take");
          legal.field("depth", depth);
          legal.field("card", to_string(pile_[pile_.size() - 1 - depth]));
        });
    if (config_.draw.take_whole_pile && !pile_.empty() && whole_pile_takes_ < whole_pile_takes_max())
      write_bare_action(legal, "take_all");
    return;
  }
  const bool upcard_ok = !pile_.empty() && (!config_.draw.boathouse || !stock_.empty() || upcard_restocks_pair()) &&
                        (!in_break_ || usable_take(seat, 0, true));
  if (upcard_ok) list_draw(legal, "discard");
  if (config_.draw.boathouse_two_discards && pile_.size() >= 2) list_draw(legal, "two_discards");
}

}  // namespace parlour::rules::rummy
