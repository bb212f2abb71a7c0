// Server-side bots. A bot sees exactly what its seat sees: the seat's view and
// its legal actions, never the game's hidden state, so a bot can never cheat and
// can be tested from a view alone. Deterministic given the Rng.
#pragma once

#include <functional>

#include "rules/game.h"
#include "rules/rng.h"

namespace parlour::rules {

// Chooses one of `legal` (a non-empty array from GameState::legal_actions),
// filling any numeric bound, from the seat's `view`.
using BotPolicy = std::function<Json(const Json& view, const Json& legal, Rng& rng)>;

// Level 0: a uniformly random legal action (rules/random_play.h).
Json random_bot(const Json& view, const Json& legal, Rng& rng);

// The number `share` (clamped to 0..1) of the way from a listed {"min","max"}
// to its max, rounded: how a bot sizes a bet by its confidence. Throws
// std::logic_error for bounds that are not a range (rules/action.h listed_range).
std::int64_t amount_at_share(const Json& listed, double share);

}  // namespace parlour::rules
