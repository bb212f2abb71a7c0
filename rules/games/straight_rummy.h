// Six-Card / Seven-Card Straight Rummy (source 002 "Straight Rummy"; rules/rummy.md
// §3.0–3.1), and the base the other 002 "same as Straight Rummy" games share.
//
// 2–6 players (hand_size 6) or 2–5 (hand_size 7, the default); one 52-card pack;
// one card at a time from the dealer's left, the dealer last; no upcard: the leader
// draws the stock top first. Ace low; values `basic` (A 1, faces 10, pips).
// Before the break a turn is a draw (stock top or the upcard) then either a
// discard or going rummy: the whole hand laid down at once (`go_rummy`), melds
// of 3–4 of a rank or runs of 3+ in a suit. No meld or lay-off otherwise (R-S0).
//
// The break: once a turn ends with no more stock cards than players (R-S5), the
// next player is the breaker; he and each other player in clockwise order play one
// last turn: the stock top, or the upcard only if it is melded or laid off at once
// (the source's "used in an immediate meld"; a lay-off on an exposed meld counts);
// then every meld is put down (R-S2: his hand may hold no complete meld when he
// discards, so no meld is broken up by the discard either; he chooses the partition), lay-offs on any exposed meld from his
// own hand are optional, and a discard ends the turn unless the hand is already
// empty (R-S3). An empty hand does not end the break (R-S6). Then the showdown:
// the lowest count of unmatched cards wins; a tie goes to the breaker, else to the
// tied player nearest the breaker's left. The unmatched cards stay hidden until the
// showdown (the engine shows them only in the deal's result).
//
// Payoff (option `payoff`, 1 unit = `stake` chips):
// - `units` (default): the break's winner 1 unit from each other player; going
//   rummy before the break 2 units; going rummy on one's first pick (first turn
//   of the deal), or with all melded cards in one suit (R-S4), 4 units.
// - `points`: each loser pays (his count − the winner's count) × 1/2/4 × stake;
//   a loser's count before the break is his best arrangement's unmatched count.
// Choices: R-S1 the discard with going rummy is optional. R-S4 option
// `one_suit_rule`: `single_run` (default: the melded cards are one sequence of one
// suit, however the player split it into melds) or `all_runs_one_suit` (every
// meld a run, all of one suit). Option `initial_upcard` (default false, as the
// source recommends) turns an upcard after the deal, which the leader may take.
// R-G1 the single upcard taken may not be discarded that turn. R-G2 one settlement
// a deal; `deals` deals (0: each player deals once); the deal passes left.
// The first dealer is drawn from the seed.
//
// View: `break: {breaker, turns_left}` while the break is on; `must_use` after a
// break upcard. Result: `end` "went_out" or "break" (the showdown), `breaker`,
// `counts` (every hand's unmatched count by its best arrangement), `units`, and
// `winner` (going out) or `winners` (a list: the showdown's). A rummy's wilds may be
// declared to make one run of one suit (4 units): `legal` lists such a declaration
// beside the plain one. A player who has left the table is out of every later
// settlement (RummyBase::seats_in_play). A zero count reached in the break (hand all melded or laid off) is
// simply the lowest count: one unit, like any other winner after the break.
#pragma once

#include <string>

#include "rules/registry.h"
#include "rules/rummy/rummy_base.h"
#include "rules/rummy/settlement.h"

namespace parlour::rules {

GameInfo straight_rummy_info();

namespace rummy {

// The 002 Straight Rummy base (rummy-only, no upcard unless asked, the break).
RummyConfig straight_base_config(const Json& options);

// The options the Straight family shares: stake, deals, payoff, initial_upcard.
std::vector<OptionSpec> straight_family_options(bool with_upcard_option);
// R-S4's choice for the games that pay four units for a rummy in one suit.
OptionSpec one_suit_rule_option();
// Straight and Block Rummy deal 7 cards to at most five players, or 6 to six.
OptionSpec six_or_seven_card_hand_option();
int players_for_six_or_seven_cards(const Json& options);

// The 002 games: Straight Rummy's payoffs and showdown; games override pieces.
class StraightFamily : public RummyBase {
 public:
  StraightFamily(const GameSetup& setup, RummyConfig config);

 protected:
  void settle_deal(const DealEnd& end, Balances& chips, Effects& fx, Json& summary) override;

  // Going rummy: the units each loser pays (2, or 4 for the first pick / one suit).
  virtual int rummy_units(const DealEnd& end) const;
  virtual void settle_rummy(const DealEnd& end, Settlement& pay_out);
  // The break's (or Skip's end's) showdown: lowest count, ties to the breaker's side.
  virtual void settle_showdown(const DealEnd& end, Settlement& pay_out);
  // Block's end after the stock: lowest count wins the differences, ties share.
  void settle_block_showdown(Settlement& pay_out);
  // Each loser pays `units` units, or in points mode (count − winner's) × units.
  void pay_winner(int winner, const std::vector<int>& counts, int units, const std::string& memo, Settlement& pay_out);
  bool one_suit_rummy(int winner) const;
  bool one_suit(const std::vector<Meld>& melds) const;
  // A rummy declared as one run of one suit pays four units (R-S4).
  int arrangement_worth(const std::vector<Meld>& melds) const override { return one_suit(melds) ? 1 : 0; }
  std::vector<int> unmatched_counts() const;

  bool points_mode_ = false;
  bool all_runs_one_suit_ = false;
};

}  // namespace rummy
}  // namespace parlour::rules
