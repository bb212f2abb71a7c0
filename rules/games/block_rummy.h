// Block Rummy (Scarne), source 002 "Block Rummy"; rules/rummy.md §3.4 and §4.
// Not the `block` option of `rummy` (Hoyle/Gibson, source 000): both are offered,
// this one under its own id.
//
// "Played in the same manner as Straight Rummy except": the player who goes out
// must make a final discard (his other cards all in melds), and there is no break:
// the stock is drawn to the last card; then play goes on only while each player in
// turn takes the upcard (he may go rummy with it, with a discard, or must discard
// another card); the first refusal (`decline`) ends play. Each player's count is the
// unmatched count of his best arrangement (R-K2, Straight Rummy's object 2); the
// lowest count wins the difference from each other player × `stake`; tied low
// counts share it equally, odd chips clockwise from the dealer's left (R-G4).
//
// Otherwise Straight Rummy (rules/games/straight_rummy.h): option `hand_size` 7
// (2–5 players, default) or 6 (2–6, R-K4); ace low, `basic` values; no upcard
// (option `initial_upcard`); rummy only, as one action with its discard. Going
// rummy pays 2 units from each player, 4 on the first pick or with all melded
// cards in one sequence of one suit (option `one_suit_rule`, R-S4); option
// `payoff=points` makes it (each loser's unmatched count) × 2 or 4. The upcard
// just taken may not be discarded that turn (R-G1); after the stock that means a
// take is always followed by another card's discard. R-B1 play after the stock is
// capped at 2 × players turns, then ends as a refusal would. `deals` deals (0: each
// player deals once).
#pragma once

#include "rules/registry.h"

namespace parlour::rules {

GameInfo block_rummy_info();

}  // namespace parlour::rules
