// A table without a server, for rules tests: keeps every seat's chips and every
// pool's contents by applying the transfers a game returns, so tests can check
// exact chip movements and that no chip is ever created or lost.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "rules/registry.h"

namespace parlour::test {

using rules::Json;

std::vector<rules::Card> cards(const std::vector<std::string>& names);

// Harness's first_dealer for a dealer drawn from the seed, as a table draws it.
inline constexpr std::optional<int> drawn_dealer = std::nullopt;

// The view's pile with this id (rules/view.h "piles"); fails the test when there is none.
// A reference into `view`: keep the view alive while it is used.
const Json& view_pile(const Json& view, const std::string& id);

class Harness {
 public:
  // Creates the game and starts play (the first start_next_deal), as a table does.
  // Seat 0 deals first unless `first_dealer` says otherwise: the worked examples
  // are written from seat 0's deal.
  Harness(const std::string& game, Json options, std::vector<std::int64_t> chips, std::uint64_t seed = 1,
          std::optional<std::vector<rules::Card>> deck = std::nullopt, std::optional<int> first_dealer = 0);

  // Starts play of a game made elsewhere (e.g. set up at a position).
  Harness(std::unique_ptr<rules::GameState> game, std::vector<std::int64_t> chips);

  rules::GameState& game() { return *game_; }
  const std::vector<std::int64_t>& chips() const { return chips_; }
  std::int64_t chips(int seat) const { return chips_[seat]; }
  std::int64_t pool(const std::string& name) const;
  std::int64_t total() const;  // seats plus pools: constant for a whole game

  // Applies and records the effects; rethrows RulesError.
  rules::Effects act(int seat, const Json& action);
  rules::Effects next_deal();
  rules::Effects leave(int seat);
  rules::Effects close();
  Json legal(int seat) const { return game_->legal_actions(seat, chips_); }
  // The seat's player spends chips at another table: a player's chips are his
  // across tables, so the game sees fewer at its next call.
  void spend_elsewhere(int seat, std::int64_t amount) { chips_[seat] -= amount; }

  // A new game made from `snapshot` (GameState::snapshot) with this game's setup;
  // only for a harness that created its game.
  std::unique_ptr<rules::GameState> restored(const Json& snapshot) const;

  // Checks that a snapshot of this game short of any one of its fields, or with
  // one of `seat_fields` naming a seat the table has not, is refused.
  void spoilt_snapshots_refused(const std::vector<std::string>& seat_fields) const;

  // The error code an action is refused with, after checking it changed nothing.
  std::string refusal(int seat, const Json& action);

 private:
  rules::Effects record(rules::Effects effects);

  const rules::GameInfo* info_ = nullptr;
  std::optional<rules::GameSetup> setup_;  // the game's, when the harness created it
  std::unique_ptr<rules::GameState> game_;
  std::vector<std::int64_t> chips_;
  std::map<std::string, std::int64_t> pools_;
};

}  // namespace parlour::test
