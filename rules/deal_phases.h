// The phases of a game dealt deal after deal, named and ended the same way at
// every such table.
#pragma once

#include <string>

#include "rules/game.h"

namespace parlour::rules {

// The phase's name in a view: `playing` is the game's own word for a deal in
// progress ("betting", "exchanging", ...).
inline const char* phase_label(Phase phase, const char* playing) {
  switch (phase) {
    case Phase::playing: return playing;
    case Phase::deal_over: return "deal_over";
    case Phase::game_over: return "game_over";
  }
  return playing;
}

// A deal has just been settled: the table is over once `deals` reaches the
// game's "deals" option (`limit`, 0: no limit), and the log says so.
inline Phase phase_after_deal(int deals, int limit, Effects& fx) {
  const bool limit_reached = limit > 0 && deals >= limit;
  if (limit_reached) fx.say("The last of " + std::to_string(limit) + " deals is played.");
  return limit_reached ? Phase::game_over : Phase::deal_over;
}

}  // namespace parlour::rules
