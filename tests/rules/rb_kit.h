// Helpers for the building games' tests: positions, moves, and reading `legal`
// and views.
#pragma once

#include <functional>
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
// Every card a view's piles show, once each: a spread pile's cards, a stock's
// face-up run, or the top of a squared pile.
std::vector<std::string> shown_cards(const Json& view);
// The sum of every pile's count in the view.
std::size_t cards_in_piles(const Json& view);

// The refusal's message, after checking the code and that nothing changed.
std::string refusal_message(Harness& h, int seat, const Json& action, const std::string& code = "illegal_action");

// A recorded action, to replay a game on a fresh copy.
struct Step {
  int seat = 0;
  Json action;
};

// A fresh game with the same setup, replayed through `history`.
struct Replay {
  std::string game;
  Json options;
  int players = 2;
  std::uint64_t seed = 0;

  Harness at(const std::vector<Step>& history) const;
};

// Every action `legal` lists for `seat` applies, each tried on its own replay.
void every_listed_action_applies(const Replay& replay, const std::vector<Step>& history, int seat, const Json& legal);

// Every probe not listed in `legal` is refused, unless `may_accept` says the
// rules allow it though it is not listed; tried on a replay.
void unlisted_actions_refused(const Replay& replay, const std::vector<Step>& history, int seat, const Json& legal,
                              const std::vector<Json>& probes,
                              const std::function<bool(const Json& action, const Json& legal)>& may_accept);

// Plays on with the catalogue's bot for the first seat to act until the game
// ends or `most_actions` are made; `watch` sees every view a bot acted on.
// Returns the number of actions.
int play_with_bots(Harness& h, const std::string& game, std::uint64_t seed, int most_actions,
                   const std::function<void(const Json& view)>& watch = nullptr);

// Moves between every pair of the view's piles, and the given other actions.
std::vector<Json> probe_actions(const Json& view, const std::vector<std::string>& others);

// The hidden-information shape of a building view: stocks show at most their
// face-up run (loads each on the card beneath, ending in the top), hands and
// supplies only a count, seats' cards only "??"; and `seat` sees what a
// spectator sees.
void check_public_view(rules::GameState& game, int seat);

}  // namespace parlour::test
