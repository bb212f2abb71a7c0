// Reading a player's action object with errors that say what was expected and
// what came. Every game reads its actions through these, so malformed input is
// refused the same way everywhere (as illegal_action).
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

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
void write_bounds(JsonWriter& out, std::int64_t lo, std::int64_t hi);
// Reads such bounds back, for whoever chooses a number in them (bots, random
// play). Throws std::logic_error for anything but two integers with min <= max.
struct Range {
  std::int64_t min = 0;
  std::int64_t max = 0;
};
Range listed_range(const Json& bounds);
// True for a {"min","max"} object in a `legal` entry.
bool is_bounds(const Json& value);

// {"type":T}: an action with nothing more to choose ("pass", "continue", ...).
void write_bare_action(JsonWriter& out, std::string_view type);
// {"type":T,"card":C}: an action naming one card (a discard, a card played).
void write_card_action(JsonWriter& out, std::string_view type, Card card);
Json card_action(std::string_view type, Card card);

// {"type":"skip"}: the only action listed for a seat whose chips, as passed in
// now, cannot cover any move the game offers (a player's chips are his across
// tables and may have gone since his turn began). Listing it keeps the seat to
// act from ever having nothing legal; a server may apply it at once.
Json skip_action();
void write_skip_action(JsonWriter& out);
// Checks a skip sent by a seat: refused while the balances passed with it still
// cover a move, so a replay with the logged balances decides the same way.
void check_skip(const Json& action, bool can_cover_a_move);

}  // namespace parlour::rules
