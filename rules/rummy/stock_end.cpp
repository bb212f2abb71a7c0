// Every rule for a stock that runs out (rules/rummy/config.h StockEnd), in one
// place: what an empty stock allows a draw, what a draw that empties it sets off,
// and what the end of a turn does once the stock is low or gone.
#include "rules/rummy/rummy_base.h"

#include "rules/action.h"

namespace parlour::rules::rummy {

// ------------------------------------------------------------------ drawing

// turn_over: the stock may be drawn while it holds a card or the pile can be turned.
bool RummyBase::can_draw_from_stock() const {
  const bool can_restock = config_.stock.end == StockEnd::turn_over && !pile_.empty();
  return !stock_.empty() || can_restock;
}

// Before a draw from the stock: turn_over turns the pile over when the stock is
// empty; otherwise an empty stock cannot be drawn from.
void RummyBase::prepare_stock_draw(Effects& fx) {
  if (stock_.empty() && (config_.stock.end != StockEnd::turn_over || pile_.empty()))
    throw illegal_action("the stock is empty");
  if (stock_.empty()) restock_for_draw(false, fx);
}

// turn_over, taking the upcard from an empty stock: the player takes it and the
// rest of the pile is turned over as the stock. False when the rule does not apply.
bool RummyBase::take_upcard_restocking(Effects& fx) {
  if (!stock_.empty() || stock_gone_ || config_.stock.end != StockEnd::turn_over) return false;
  restock_for_draw(true, fx);
  return true;
}

// Boathouse with an empty stock (R-BH3): the upcard is taken, the rest of the
// pile turned over as the new stock, and its top card drawn as the upcard's pair;
// possible while the pile holds a card under the upcard.
bool RummyBase::upcard_restocks_pair() const {
  return stock_.empty() && config_.stock.end == StockEnd::turn_over && pile_.size() >= 2;
}

// reshuffle_except_top: as soon as a draw empties the stock, the pile but its top
// card becomes the new stock, while restocks remain.
void RummyBase::after_draw_for_stock(Effects& fx) {
  if (stock_.empty() && config_.stock.end == StockEnd::reshuffle_except_top) reshuffle_except_top(fx);
}

// Stock empty under turn-over (000 Rummy): take the upcard and turn the rest,
// or turn the whole pile and draw its top. Either counts as one restock.
void RummyBase::restock_for_draw(bool take_upcard, Effects& fx) {
  std::optional<Card> upcard;
  if (take_upcard) {
    upcard = pile_.back();
    pile_.pop_back();
  }
  stock_.assign(pile_.rbegin(), pile_.rend());
  pile_.clear();
  ++restocks_;
  fx.say("The stock is exhausted; the discard pile is turned over as a new stock.");
  if (upcard) hands_[turn_].push_back(*upcard);
}

// The discard pile but its top card, shuffled into a new stock; false when the
// cap is reached or there is nothing under the top card.
bool RummyBase::reshuffle_except_top(Effects& fx) {
  if (restocks_ >= config_.stock.max_restocks || pile_.size() < 2) return false;
  const Card top = pile_.back();
  pile_.pop_back();
  reshuffle_rng_.shuffle(pile_);
  stock_ = pile_;
  pile_.assign(1, top);
  ++restocks_;
  fx.say("The stock is exhausted; the discard pile but its top card is shuffled into a new stock.");
  return true;
}

// discard_only (Block): a turn that begins with the stock gone may only take the
// upcard or decline it, and counts towards the end of play (R-B1).
void RummyBase::note_turn_begun_for_stock() {
  if (stock_.empty() && config_.stock.end == StockEnd::discard_only) {
    stock_gone_ = true;
    ++turns_after_stock_;
  }
}

// ------------------------------------------------------------------ a turn's end

// A turn is over. Play goes on from the left of the player whose turn it was,
// unless the stock rule ends the deal first, or the break is on.
void RummyBase::finish_turn(Balances& chips, Effects& fx) {
  if (in_break_) return count_down_break(chips, fx);
  switch (config_.stock.end) {
    case StockEnd::end_deal:
      if (stock_.empty()) {
        fx.say("The stock is exhausted; the deal ends.");
        return end_deal({DealEnd::Kind::stock_exhausted, -1, false}, chips, fx);
      }
      break;
    case StockEnd::break_at_players:
    case StockEnd::end_at_players:
      if (static_cast<int>(stock_.size()) <= active_players()) return stock_down_to_players(chips, fx);
      break;
    case StockEnd::reshuffle_except_top:
      if (stock_.empty() && !reshuffle_except_top(fx)) {
        fx.say("The stock is exhausted and may not be restocked; the deal is void.");
        return end_deal({DealEnd::Kind::no_winner, -1, false}, chips, fx);
      }
      break;
    case StockEnd::turn_over:
    case StockEnd::discard_only:
    case StockEnd::final_meld_round: break;
  }
  turn_ = resume_from_;
  next_turn(fx);
  if (!stock_is_dead()) return;
  if (config_.stock.end == StockEnd::discard_only) return end_deal({DealEnd::Kind::block_showdown, -1, false}, chips, fx);
  fx.say("The stock is exhausted and may not be turned again; the deal ends with no winner.");
  end_deal({DealEnd::Kind::no_winner, -1, false}, chips, fx);
}

// break_at_players, end_at_players: the next player is the breaker; Skip's deal
// ends there, the Straight family's break begins with him.
void RummyBase::stock_down_to_players(Balances& chips, Effects& fx) {
  turn_ = resume_from_;
  int next = turn_;
  do next = left_of(next);
  while (!in_play(next));
  breaker_ = next;
  if (config_.stock.end == StockEnd::end_at_players) {
    fx.say("The stock is down to the number of players; the deal ends.");
    return end_deal({DealEnd::Kind::showdown, -1, false}, chips, fx);
  }
  in_break_ = true;
  break_turns_left_ = active_players();
  fx.say("The break: " + seat_tag(breaker_) + " is the breaker.");
  next_turn(fx);
}

// In the break each player still in has one last turn, then the showdown.
void RummyBase::count_down_break(Balances& chips, Effects& fx) {
  if (--break_turns_left_ <= 0) {
    fx.say("The break is over: the unmatched cards are shown.");
    return end_deal({DealEnd::Kind::showdown, -1, false}, chips, fx);
  }
  turn_ = resume_from_;
  next_turn(fx);
}

// No card can be drawn any more (after a turn, turn_over and discard_only ask).
bool RummyBase::stock_is_dead() const {
  if (!stock_.empty()) return false;
  switch (config_.stock.end) {
    case StockEnd::turn_over: return restocks_ >= config_.stock.max_restocks || pile_.empty();
    case StockEnd::end_deal: return true;
    case StockEnd::discard_only: return pile_.empty() || turns_after_stock_ > config_.stock.after_stock_turns;
    case StockEnd::break_at_players:
    case StockEnd::end_at_players: return true;
    case StockEnd::reshuffle_except_top: return true;
    case StockEnd::final_meld_round: return true;
  }
  return true;
}

// How a result names a showdown that the stock's running down brought about.
const char* RummyBase::showdown_end_name() const {
  return config_.stock.end == StockEnd::end_at_players ? "stock_ran_down" : "break";
}

// ------------------------------------------------------------------ final_meld_round (Carousel, R-CA3)

void RummyBase::begin_final_meld_round_once_stock_is_out(int turns, Effects& fx) {
  if (final_round_ || !stock_.empty()) return;
  final_round_ = true;
  final_turns_left_ = turns;
  if (turns > 0) fx.say("The stock is exhausted: each player has one more chance to meld.");
}

bool RummyBase::final_meld_round_over(Effects& fx) {
  if (!final_round_ || --final_turns_left_ > 0) return false;
  fx.say("The final meld round is over: the lowest count wins.");
  return true;
}

}  // namespace parlour::rules::rummy
