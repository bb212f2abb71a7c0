// Michigan Rummy (source 000 "MICHIGAN RUMMY", with its Polish Rummy variant;
// rules/rummy.md §2.3): 2–8 players, a spread discard pile from which any card may
// be taken with every card above it, provided it is melded or laid off at once;
// every meld and lay-off scores its value when made, and the player who goes out
// adds the count of every other hand. First to the target (500) wins and collects
// from each opponent the difference of their scores.
//
// Choices (rules/rummy.md):
// - R-M1 13 cards each with two players, otherwise 7; two packs with five or more
//   players, when a set may hold the same card twice (at most four cards).
// - R-M2 the card taken must be used at once even when it is the top card
//   (option top_card_free waives it for the top card alone); a take is listed only
//   where such a use exists.
// - Values `michigan`: ace 15, but 1 as the lowest card of a run 3-2-A; faces 10.
//   Aces rank high or low (A-K-Q or 3-2-A), never round the corner.
// - Lay-offs go on any meld and score for the player who lays off; they extend the
//   meld (R-M6). R-G1: the single top card just taken may not be discarded that turn.
// - Stock exhausted: the discard pile is turned over (not shuffled) as a new stock,
//   at most `max_restocks` times (default 1); when it runs out again the source's
//   "Otherwise" rule applies: the deal ends with no winner and every player's
//   running score drops by the count of his hand (his melds already scored).
// - R-M3 the game ends after a deal in which someone reaches the target (≥);
//   the highest score wins; an exact tie for the highest plays another deal. The
//   winner collects (his score − each opponent's) × stake from each opponent.
// - R-M4 option settle_each_deal: no target; after each deal won by going out the
//   winner collects (his deal points − each opponent's) × stake (negative: he pays);
//   a deal ended by the "Otherwise" rule moves no chips. `deals` deals are played
//   (0: each player deals once).
// - R-M5 option polish: the whole pile may also be taken, with no duty to meld; at
//   most 2 × players times a deal (R-G3: whole-pile takes recycle cards without
//   drawing the stock, and a deal of nothing else would never end).
// - Termination: playing to the target, the game also ends after `deals` deals when
//   that is not 0, and in any case after 200 deals; the highest score then wins
//   (players tied for it share each payment, odd chips clockwise from the dealer's
//   left) and collects the differences.
// - The first dealer is drawn from the seed; the deal passes left. A player who leaves the table is
//   out of the game's settlement.
#pragma once

#include "rules/registry.h"

namespace parlour::rules {

GameInfo michigan_rummy_info();

}  // namespace parlour::rules
