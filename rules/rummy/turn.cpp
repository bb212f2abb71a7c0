// The turn engine's spine (rules/rummy/rummy_base.h): the stages of a deal and
// who acts in each, one Legal/Apply pair per stage dispatched from here; dealing;
// a turn's start; the play stage; a player leaving; the table closing.
#include "rules/rummy/rummy_base.h"

#include <algorithm>
#include <set>

#include "rules/action.h"
#include "rules/pools.h"

namespace parlour::rules::rummy {

// ------------------------------------------------------------------ state

RummyBase::RummyBase(const GameSetup& setup, RummyConfig config)
    : scores_(setup.players, 0),
      config_(std::move(config)),
      shoe_(config_.deal.pack, setup.seed, setup.stacked_deck),
      reshuffle_rng_(setup.seed ^ 0x9e3779b97f4a7c15ULL),
      hands_(setup.players),
      melded_this_deal_(setup.players, false),
      melded_before_this_turn_(setup.players, false),
      left_(setup.players, false),
      out_(setup.players, false),
      turns_taken_(setup.players, 0) {
  dealer_ = setup.starting_dealer();
  if (config_.scoring.deals == 0) config_.scoring.deals = setup.players;
  if (config_.stock.after_stock_turns == 0) config_.stock.after_stock_turns = 2 * setup.players;
}

Phase RummyBase::phase() const {
  if (stage_ == Stage::game_over) return Phase::game_over;
  if (stage_ == Stage::deal_over) return Phase::deal_over;
  return Phase::playing;
}

std::vector<int> RummyBase::to_act() const {
  switch (stage_) {
    case Stage::draw:
    case Stage::play: return {turn_};
    case Stage::call_discard: return {caller_};
    case Stage::call_window: {
      std::vector<int> waiting;
      for (std::size_t i = 0; i < call_order_.size(); ++i)
        if (call_answer_[i] == 0) waiting.push_back(call_order_[i]);
      return waiting;
    }
    default: return {};
  }
}

std::vector<int> RummyBase::seats_in_play() const {
  return seats_from(left_of(dealer_), players(), [&](int s) { return in_play(s); });
}

int RummyBase::active_players() const {
  int count = 0;
  for (int s = 0; s < players(); ++s) count += in_play(s) ? 1 : 0;
  return count;
}

int RummyBase::unmatched_count(int seat) const {
  return best_arrangement(hands_[seat], config_.melds, config_.values).deadwood_value;
}

int RummyBase::lowest_from(const std::vector<int>& counts, int first) const {
  int best = -1;
  for (int i = 0; i < players(); ++i) {
    const int seat = (first + i) % players();
    if (!in_play(seat)) continue;
    if (best < 0 || counts[seat] < counts[best]) best = seat;
  }
  return best;
}

// ------------------------------------------------------------------ dealing and turns

Effects RummyBase::start_next_deal(const Balances&) {
  if (stage_ != Stage::deal_over) throw std::logic_error("rummy: next deal while a deal is on");
  if (deals_ > 0 || !in_play(dealer_)) {
    do dealer_ = left_of(dealer_);
    while (!in_play(dealer_));
  }
  Effects fx;
  deal(fx);
  return fx;
}

void RummyBase::deal(Effects& fx) {
  ++deals_;
  auto fresh = shoe_.next_deal();
  auto top_first = fresh.draw(fresh.size());
  stock_.assign(top_first.rbegin(), top_first.rend());
  pile_.clear();
  table_.clear();
  restocks_ = 0;
  whole_pile_takes_ = 0;
  stock_gone_ = false;
  turns_after_stock_ = 0;
  in_break_ = false;
  breaker_ = -1;
  break_turns_left_ = 0;
  final_round_ = false;
  final_turns_left_ = 0;
  for (int s = 0; s < players(); ++s) {
    hands_[s].clear();
    melded_this_deal_[s] = false;
    turns_taken_[s] = 0;
  }
  std::vector<int> order;
  for (int i = 1; i <= players(); ++i) {
    const int seat = (dealer_ + i) % players();
    if (in_play(seat)) order.push_back(seat);
  }
  for (int round = 0; round < config_.deal.hand_size; ++round)
    for (int seat : order) {
      hands_[seat].push_back(stock_.back());
      stock_.pop_back();
    }
  if (config_.deal.upcard) {
    pile_.push_back(stock_.back());
    stock_.pop_back();
  }
  fx.say("Deal " + std::to_string(deals_) + ": " + seat_tag(dealer_) + " deals " + std::to_string(config_.deal.hand_size) +
         " cards each" + (config_.deal.upcard ? "; the upcard is " + to_string(pile_.back()) : std::string()) + ".");
  begin_turn(order.front(), fx);
}

void RummyBase::begin_turn(int seat, Effects&) {
  turn_ = seat;
  stage_ = Stage::draw;
  taken_upcard_.reset();
  must_use_.reset();
  drawn_this_turn_ = 0;
  plays_this_turn_ = 0;
  ++turns_taken_[seat];
  ++turns_begun_;
  melded_before_this_turn_[seat] = melded_this_deal_[seat];
  note_turn_begun_for_stock();
}

// The turn passes to the next player left of turn_ who is still in play.
void RummyBase::next_turn(Effects& fx) {
  begin_turn(next_seat(turn_, players(), [&](int seat) { return in_play(seat); }), fx);
}

// ------------------------------------------------------------------ the stages

Effects RummyBase::apply(int seat, const Json& action, const Balances& balances) {
  if (stage_ == Stage::deal_over || stage_ == Stage::game_over) throw not_your_turn("no deal is in progress");
  const auto acting = to_act();
  if (std::find(acting.begin(), acting.end(), seat) == acting.end()) {
    if (stage_ == Stage::call_window) throw not_your_turn("the call window is for the other players");
    throw not_your_turn("it is " + seat_tag(acting.front()) + "'s turn");
  }
  const auto type = action_type(action);
  // The actions of every Rummy game that carry nothing but their type (Carousel's
  // knock, finish and withdraw among them) take no other field either.
  static const std::set<std::string> bare = {"take_all", "decline", "pass", "knock", "finish", "withdraw"};
  if (bare.count(type)) expect_only_fields(action, {});
  Effects fx;
  Balances chips = balances;
  switch (stage_) {
    case Stage::draw: apply_draw_action(seat, type, action, chips, fx); break;
    case Stage::play: apply_play_action(seat, type, action, chips, fx); break;
    case Stage::call_window: apply_call_window_action(seat, type, action, chips, fx); break;
    case Stage::call_discard: apply_call_discard_action(seat, type, action, chips, fx); break;
    default: break;
  }
  return fx;
}

void RummyBase::write_legal_actions(int seat, const Balances&, JsonWriter& legal) const {
  legal.array([&] {
    const auto acting = to_act();
    if (std::find(acting.begin(), acting.end(), seat) == acting.end()) return;
    switch (stage_) {
      case Stage::draw: draw_legal_actions(seat, legal); break;
      case Stage::play: play_legal_actions(seat, legal); break;
      case Stage::call_window: call_window_legal_actions(seat, legal); break;
      case Stage::call_discard: call_discard_legal_actions(seat, legal); break;
      default: break;
    }
  });
}

// The play stage, after the draw: meld, lay off, lay out, go rummy or go down,
// and discard.
void RummyBase::play_legal_actions(int seat, JsonWriter& legal) const {
  if (config_.melding.rummy_only && !in_break_) {
    if (!config_.melding.go_down) list_go_rummy(seat, legal);
  } else {
    list_melds_and_lay_offs(seat, legal);
  }
  list_discards(seat, legal);
}

void RummyBase::apply_play_action(int seat, const std::string& type, const Json& action, Balances& chips,
                                  Effects& fx) {
  if (type == "meld") apply_meld(seat, action, chips, fx);
  else if (type == "lay_off") apply_lay_off(seat, action, chips, fx);
  else if (type == "discard") apply_discard(seat, action, chips, fx);
  else if (type == "go_rummy") apply_go_rummy(seat, action, chips, fx);
  else if (type == "layout") apply_layout(seat, action, chips, fx);
  else if (type == "go_down") apply_go_down(seat, action, chips, fx);
  else throw illegal_action("expected meld, lay_off, discard or go_rummy, got '" + type + "'");
}

// ------------------------------------------------------------------ leaving

Effects RummyBase::seat_left(int seat, const Balances&) {
  Effects fx;
  if (left_[seat]) return fx;
  const bool was_playing = in_play(seat);
  left_[seat] = true;
  fx.say(seat_tag(seat) + " leaves the table.");
  const int remaining = active_players();
  if (was_playing && stage_ != Stage::deal_over && stage_ != Stage::game_over) {
    // A player who leaves mid-deal has his hand played out by the table's bot and
    // leaves between deals (docs/protocol.md "Leaving in the middle of a deal");
    // a seat taken out mid-deal all the same (the host freeing an absent
    // player's) abandons the deal, and no chips move.
    fx.say("The deal is abandoned.");
    result_ = {{"deal", deals_}, {"dealer", dealer_}, {"end", "abandoned"}};
    stage_ = Stage::deal_over;
  }
  if (remaining < 2) {
    stage_ = Stage::game_over;
    fx.say("Too few players remain; the game is over.");
  }
  return fx;
}

Effects RummyBase::close(const Balances&) {
  stage_ = Stage::game_over;
  return {};
}

// ------------------------------------------------------------------ options

std::vector<OptionSpec> common_rummy_options() {
  return {
      {"stake", OptionSpec::Type::integer, 1, {}, 1, 1000, "Chips per point (or per unit)."},
      {"deals", OptionSpec::Type::integer, 0, {}, 0, 50,
       "Deals to play (0: one round, each player dealing once)."},
  };
}

}  // namespace parlour::rules::rummy
