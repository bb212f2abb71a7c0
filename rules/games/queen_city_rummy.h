// Queen City Rummy, also Cincinnati Rummy (source 002 "Queen City Rummy";
// rules/rummy.md §3.5, example E16): "the same as Straight Rummy except" seven
// cards each, no meld until a player can go rummy, going rummy with seven or eight
// cards (no discard required), and the player going rummy collects the point value
// of his own melded cards (not his opponents', not doubled) × `stake` from each
// other player.
//
// Everything else is Straight Rummy (rules/games/straight_rummy.h): 2–6 players
// (2–5 recommended, six allowed: 42 cards dealt leave a stock of 10), one pack, ace
// low, `basic` values, no upcard (option `initial_upcard`), the leader draws first.
// Choices: R-Q1 the break applies unchanged with its 1-unit payoff (option
// `payoff=points`: each pays the difference of unmatched counts); the source gives
// Queen City no other end. The discard, when a player goes rummy with seven cards,
// is not part of his melds and is not paid for. R-G1 the single upcard taken may not
// be discarded that turn. `deals` deals (0: each player deals once).
#pragma once

#include "rules/registry.h"

namespace parlour::rules {

GameInfo queen_city_rummy_info();

}  // namespace parlour::rules
