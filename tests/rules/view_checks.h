// Checks of a game's views that both the rules tests and the fuzzer make
// (docs/protocol.md "View schema", rules/view.h): each returns what is wrong,
// empty when nothing is, so a doctest test and a libFuzzer target can both
// report it in their own way.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "rules/registry.h"

namespace parlour::test {

using rules::GameInfo;
using rules::Json;

// Games whose rules show (some of) a player's hand cards to everyone: Red and
// Black deals the five cards face up; Ranter-Go-Round turns a king up and shows
// every card at the end of a deal.
extern const std::set<std::string> hands_face_up_by_rule;

// Everything wrong with `view` against the common schema (empty: it validates).
std::vector<std::string> schema_problems(const Json& view, const GameInfo& info, int players,
                                         const std::vector<int>& to_act);

// What of `seen_by_seat` the seat alone may see, beyond what a spectator sees:
// the differences outside the seat's own entry (empty: none).
std::vector<std::string> leaks(Json seen_by_seat, Json seen_by_spectator, int seat);

// The spectator's cards of each hand: "??" unless the game shows hands face up,
// and then only cards the seat holds. `own_entries` is each seat's own entry of
// "seats" in its own view.
std::vector<std::string> hidden_hand_problems(const Json& spectator, const std::vector<Json>& own_entries,
                                              bool face_up_by_rule);

// The cards a view accounts for: every pile's and every seat's count and every meld's cards.
std::size_t cards_in_play(const Json& view);

}  // namespace parlour::test
