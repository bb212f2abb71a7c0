// Five Hundred Rummy, also Pinochle Rummy or 500 Rum (source 000 "FIVE HUNDRED
// RUMMY"; rules/rummy.md §2.4): Michigan's pack, deal, values and spread discard
// pile with its duty to meld the card taken, but no score is kept during play.
// Each player keeps what he melds and what he lays off on others' melds; when a
// player goes out, or the stock is exhausted, each scores the value of his own
// melded and laid-off cards less the count of his hand (92 − 61 = +31). First to
// the target (500) wins and collects the difference from each opponent. Option
// `partnership`: four players, partners opposite, the team scores combined.
//
// Choices (rules/rummy.md):
// - R-M1 13 cards each with two players, otherwise 7; two packs with five or more
//   players, when a set may hold the same card twice (at most four cards).
// - R-M2 the card taken from the pile must be used at once, the top card too
//   (option top_card_free); a take is listed only where such a use exists.
// - Values `michigan`: ace 15, but 1 as the lowest card of a run 3-2-A; faces 10;
//   a card left in the hand counts at its hand value (ace 15). Aces high or low,
//   never round the corner. R-G1: the single top card just taken may not be
//   discarded that turn.
// - R-M6 a lay-off extends the meld logically but scores for the player who laid
//   it off; lay-offs go on anyone's melds, partners' or opponents'.
// - Deal end: going out, or (option after_stock = end, the default) the end of the
//   turn in which the last stock card was drawn. R-F2 after_stock = turn_over turns
//   the pile over as in Michigan, at most `max_restocks` times, then ends the deal.
//   Every deal end scores the same way (melded − hand). R-F1 no bonus for going out.
// - Game end: after a deal in which a player (a team) reaches the target (≥); the
//   highest wins; an exact tie for the highest plays another deal. The winner
//   collects (his score − each opponent's) × stake from each opponent; partnership:
//   each player of the losing team pays the margin × stake to the winning player
//   seated at his left (team_diff). The game also ends after `deals` deals when
//   that is not 0, and in any case after 200 deals; the highest score then wins
//   (tied players share; tied teams: no chips move).
// - Partnership needs exactly four players; a player leaving ends a partnership
//   game (no chips move). Otherwise a player who leaves is out of the settlement.
// - The first dealer is drawn from the seed; the deal passes left.
#pragma once

#include <memory>

#include "rules/registry.h"

namespace parlour::rules {

GameInfo five_hundred_rummy_info();

namespace rummy {

struct RummyConfig;

// The Five Hundred family: Five Hundred Rummy and Persian Rummy share the scoring
// of melded cards less the hand, deal by deal.
struct FiveHundredRules {
  bool partnership = false;   // seats 0+2 against 1+3, team scores combined
  bool four_intact_double = false;  // Persian: a set of four melded in one action counts double
  int going_out_bonus = 0;    // Persian: the going-out player's team scores 25
  int target = 500;           // 0: no target, the game is `deals` deals (Persian)
  int deals = 0;              // with a target: 0 no limit, else a cap; without: the number of deals
};

std::unique_ptr<GameState> make_five_hundred_family(const GameSetup& setup, const RummyConfig& config,
                                                    const FiveHundredRules& rules);

}  // namespace rummy

}  // namespace parlour::rules
