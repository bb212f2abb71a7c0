// What the table plays for a seat whose turn clock runs out (docs/protocol.md
// "Turn clock and away"): each family names its safe default, chosen from the
// seat's own view and legal list only. Pure and deterministic: the same view
// and legal list give the same action, always one of `legal` with every
// {"min","max"} bound filled with its min.
#pragma once

#include <functional>
#include <string>

#include "rules/game.h"

namespace parlour::rules {

// Chooses the default from a non-empty `legal` (GameState::legal_actions) and
// the acting seat's `view`.
using DefaultAction = std::function<Json(const Json& view, const Json& legal)>;

// Any game: a listed pass, stand, skip, end_turn, decline or keep; else the
// first listed action.
Json generic_default(const Json& view, const Json& legal);
// Betting games: stand or pass where listed, else the lowest legal bet.
Json betting_default(const Json& view, const Json& legal);
// Trick games: pass where allowed (a forced player pays the dealer, a dealer
// keeps his hand), else the lowest legal card (aces high).
Json tricks_default(const Json& view, const Json& legal);
// Rummy family: draw from the stock (a Block Rummy player declines the
// discard); when the draw is done, discard the card just drawn if it may be
// discarded, else the highest-valued card; never meld unless nothing else is
// listed. Carousel, which has no discard: draw, else end the turn.
Json rummy_default(const Json& view, const Json& legal);
// Building games (Russian Bank, Rabouge): a move to a centre (foundation)
// pile, which the rules make compulsory, or a listed demand; else end the
// turn (draw, pass, turn the hand or the stock); else the first listed move.
Json building_default(const Json& view, const Json& legal);
// Cassino: trail the lowest card; where trailing is not allowed, the first
// listed (forced) capture or build.
Json cassino_default(const Json& view, const Json& legal);

// The default for a family's layout name (rules/view.h layouts); the generic
// one for any other.
DefaultAction default_action_for_layout(const std::string& layout);

}  // namespace parlour::rules
