// Helpers for the building games' tests: positions, moves, and reading `legal`
// and views.
#pragma once

#include <string>
#include <vector>

#include "tests/rules/harness.h"

namespace parlour::test {

// {"type":"move","from":…,"to":…} (without a card: any top is meant).
Json move(const std::string& from, const std::string& to);
Json action(const std::string& type);

// The legal entries as short strings: "from>to" for a move, the type otherwise
// (a demand lists its steps: "demand layout:0>layout:1,…").
std::vector<std::string> listed(const Json& legal);
bool lists(const Json& legal, const std::string& entry);

// A view's pile by id.
Json pile(const Json& view, const std::string& id);
// Every card a view's piles show, once each: a spread pile's cards, or the top
// of a squared one.
std::vector<std::string> shown_cards(const Json& view);
// The sum of every pile's count in the view.
std::size_t cards_in_piles(const Json& view);

// The refusal's message, after checking the code and that nothing changed.
std::string refusal_message(Harness& h, int seat, const Json& action, const std::string& code = "illegal_action");

}  // namespace parlour::test
