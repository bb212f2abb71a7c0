// Round-the-Corner Rummy, also Boat House Rummy and Dizzy Rummy (source 002
// "Round-the-Corner Rummy"; rules/rummy.md §3.3, example E15): "the same as
// Straight Rummy, except":
//   - 2–4 players, one 52-card pack; 9 − players cards each (2→7, 3→6, 4→5), dealt
//     one at a time from the dealer's left (the leader); the next card of the stock
//     is always turned up as the starter of the discard pile.
//   - The ace is high, low or round the corner (AceMode::around): A-K-Q, A-2-3 and
//     K-A-2 are all runs. Sets of 3–4, runs of 3 or more in one suit.
//   - The leader (dealer's left) plays first. A turn's draw is either the stock top
//     alone ({"type":"draw","from":"stock"}), or the upcard ({"from":"discard"}) and
//     then one more card before anything else: the stock top or the new upcard (so
//     "the two top cards of the discard pile whenever two are available" is two
//     draws from "discard"). No discard may be taken after the stock top (the turn's
//     draw is over). The first upcard is refused when no second card could follow
//     (empty stock and a one-card pile).
//   - Then exactly one discard, so hands grow by one card each turn the player takes
//     two. Melding only by going rummy: {"type":"go_rummy","melds":…,"discard"?:C},
//     the whole hand in melds, a final discard optional (R-T1, as Straight Rummy).
//     No break, no lay-offs: only going rummy ends a deal.
//   - As soon as the stock is empty (even in the middle of a draw), the discard pile
//     except its top card is shuffled (seeded from the table's seed) into a new
//     stock; the top card stays as the pile's starter (StockEnd::reshuffle_except_top).
// Choices:
//   - R-T2 / R-G3: the deal is void (no chips move, the deal passes left) when the
//     stock is empty at the end of a turn and cannot be restocked (pile of one card),
//     or once `max_reshuffles` (default 5, 1–50) reshuffles have been used up and the
//     stock runs out again. This cap makes every deal end.
//   - R-G1 (no discarding the upcard just taken) applies only to a player who took
//     the single upcard; here a player who takes the upcard always takes a second
//     card, so either card taken may be discarded.
//   - Chips: the player going rummy collects `stake` from each other player (flat,
//     whatever the hand; no doubling); card values are unused.
//   - `deals` deals (0: each player deals once); the deal passes left.
#pragma once

#include "rules/registry.h"

namespace parlour::rules {

GameInfo round_the_corner_rummy_info();

}  // namespace parlour::rules
