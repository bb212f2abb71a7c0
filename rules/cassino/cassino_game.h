// The Cassino engine (rules/other.md §10): 2–4 players, four either each for
// himself or as two partnerships (partners opposite); the deal in rounds with
// "last" announced before the final one, or Draw Cassino's stock; capturing,
// building and trailing (rules/cassino/moves.h); sweeps; the last capture taking
// what is left on the table; the deal scored item by item (rules/cassino/scoring.h)
// and the game counted out at its target, or each deal a game of its own.
//
// Chips move only in the effects of the action that ends a game (or, in a game
// complete in one deal, each deal): each loser pays what he owes, or what he has
// (rules::ChipBook); the unpaid rest is named in the result.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "rules/cassino/moves.h"
#include "rules/cassino/values.h"
#include "rules/registry.h"

namespace parlour::rules::cassino {

struct CassinoConfig {
  std::string name = "Cassino";
  CardValues values = CardValues::standard();
  bool special_pack = false;  // 60 cards with the eleven and twelve spots
  bool draw = false;          // Draw Cassino: hands refilled from a stock, no "last"
  bool spade = false;         // Spade Cassino's scoring
  bool sweeps = true;
  bool partnership = false;   // four players as two partnerships
  bool per_deal_game = false; // each deal is a game of its own, settled at once
  int target = 21;            // the game's points (not used in a game of one deal)
  int lurch_below = 0;        // a loser with fewer points pays double (0: no lurch)
  int deal_limit = 0;         // the table ends after this many deals (0: no limit)
  std::int64_t stake = 1;     // chips per point of difference
  std::int64_t game_stake = 0;// > 0: chips per game lost instead of per point
  ListingLimits limits;
};

std::unique_ptr<GameState> make_cassino(const CassinoConfig& config, const GameSetup& setup);

// A copy of a Cassino game in its present state (tests try every listed action on copies).
std::unique_ptr<GameState> copy_cassino(const GameState& game);

}  // namespace parlour::rules::cassino
