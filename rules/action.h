// Reading a player's action object with errors that say what was expected and
// what came. Every game reads its actions through these, so malformed input is
// refused the same way everywhere (as illegal_action).
#pragma once

#include <initializer_list>
#include <string>

#include "rules/cards.h"
#include "rules/game.h"

namespace parlour::rules {

// The action's "type"; throws if missing or not a string.
std::string action_type(const Json& action);
// Throws if the action has a field not in `allowed` ("type" is always allowed).
void expect_only_fields(const Json& action, std::initializer_list<const char*> allowed);
std::int64_t int_field(const Json& action, const char* name);
Card card_field(const Json& action, const char* name, Ranks ranks = Ranks::standard);
// {"min":lo,"max":hi}, the bounds of a number in a `legal` entry. Throws
// std::logic_error when lo > hi: an empty range is never listed.
Json bounds(std::int64_t lo, std::int64_t hi);

}  // namespace parlour::rules
