// A uniformly random choice among a seat's legal actions, with every numeric
// bound filled by a uniform number in range: what bots play, and what the
// randomized tests use to wander through games.
#pragma once

#include "rules/game.h"
#include "rules/rng.h"

namespace parlour::rules {

// `legal` is a non-empty array from GameState::legal_actions.
Json random_legal_action(const Json& legal, Rng& rng);

// One listed action with each numeric bound replaced by a uniform number in range.
Json with_numbers_drawn(Json action, Rng& rng);

}  // namespace parlour::rules
