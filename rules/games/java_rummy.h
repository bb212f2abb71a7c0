// Java Rummy (Elimination Rummy, Freeze Out), source 002 "Java Rummy";
// rules/rummy.md §3.8, example E20; and the base it shares with Rummy Poker (§3.9).
//
// 2–6 players, one 52-card pack plus option `jokers` (0, 1 or 2; default 0: the
// source's game is the pack with its deuces wild, jokers "may also be added").
// Seven cards each, one at a time from the dealer's left, the dealer last; no
// upcard: the leader draws the stock top first. Deuces and jokers are wild (a wild
// stands for any card; every meld needs one natural card, R-W1; a deuce may also
// stand as itself). Sets of 3–4, runs of 3+ in a suit, ace low. Values `wild25`:
// ace 1, deuce and joker 25, faces 10, pips.
//
// A turn: either go down at its start, before drawing (`go_down`: all seven cards
// in melds, or six with the seventh shown, worth 5 or less), which ends the deal
// with no draw and no discard; or draw (the stock top or the upcard) and discard.
// No meld at any other time, no installments, no lay-offs. R-G1 the single upcard
// taken may not be discarded that turn.
//
// Scoring (penalty points, kept across deals): each loser adds the unmatched
// count of his hand's best arrangement (wilds used); a six-card winner adds his
// shown card's value; a seven-card winner subtracts 25 (totals may go below 0).
// The break (R-J1): once a turn ends with no more stock cards than players still
// in the game and nobody has gone down, the deal ends and everyone adds his count.
//
// Elimination: a player whose total reaches 100 or more is out and puts `stake`
// chips into the table's pool (one who cannot pays what he has; the rest is named
// in the result's `unpaid`). He is no longer dealt in and is skipped; the deal
// passes left among the players still in. When one player remains he takes the
// pool. If every player still in reaches 100 in the same deal, the lowest total
// wins the pool and pays nothing; the others pay in first; players tied for the
// lowest pay nothing and share it (odd chips one each from the dealer's left, R-G4).
// Choices: option `deals` (0: play to the last survivor; N: stop after N deals at
// the latest) and a safety cap of 200 deals: when either ends the game, the player
// still in with the lowest total takes the pool (ties share it); nobody else pays.
// A player leaving the table abandons the deal in progress (no points); if one
// player is then left in the game he takes the pool. `close` by the host shares
// the pool out among the players still seated, eliminated ones included, as
// rules/pools.h close_pool does. The first dealer is drawn from the seed.
//
// View: `pool`, `eliminated` (per seat), `target` (100), `scores` (running totals).
// Result: `counts` (every hand's unmatched count), `deal_points` (this deal's, per seat),
// `scores`, `eliminated` (seats out this deal), `pool`, and when the game ends
// `pool_winners`; `shown` with a six-card go-down.
#pragma once

#include "rules/registry.h"
#include "rules/rummy/rummy_base.h"

namespace parlour::rules {

GameInfo java_rummy_info();

namespace rummy {

// Java's engine settings: seven cards, no upcard, deuces (and jokers) wild, going
// down before the draw, the deal ending when the stock falls to the players.
// Reads `stake` and `jokers` (if present).
RummyConfig java_config(const Json& options);

// What Java Rummy and Rummy Poker share: going down and the deal's penalty points.
class GoDownFamily : public RummyBase {
 public:
  static constexpr int kMaxDeals = 200;  // every game ends, whatever the cards do
  GoDownFamily(const GameSetup& setup, RummyConfig config);

  // The engine's state, and the family's under "go_down".
  Json snapshot() const override;
  void restore(const Json& snapshot) override;

 protected:
  // Java's penalty points of a deal for each player still in: losers (everyone
  // after the break) their unmatched count; the winner his shown card, or −25
  // with a whole-hand go-down.
  std::vector<int> penalty_points(const DealEnd& end) const;
  // Every hand's unmatched count (0 for players not in the game).
  std::vector<int> counts() const;
  // Those of `seats` with the lowest (or highest) score, in the same order.
  std::vector<int> best_of(const std::vector<int>& seats, bool lowest) const;
  bool deal_limit_reached() const;
  bool game_finished() const override { return over_; }

  int deal_limit_ = 0;  // option `deals` (0: none)
  bool over_ = false;
};

}  // namespace rummy
}  // namespace parlour::rules
