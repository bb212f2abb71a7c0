// Random playouts for the randomized tests of every Rummy-family game: whole games
// of random legal actions, checking at every step that chips and cards are
// conserved and every chosen action is accepted, now and then that every listed
// action is accepted (by replaying to that point), and that every game ends.
#pragma once

#include <functional>
#include <string>

#include "tests/rules/harness.h"

namespace parlour::test {

struct Playout {
  std::string game;
  Json options = Json::object();
  int min_deals = 1000;  // plays games until at least this many deals are done
  int players_lo = 2;
  int players_hi = 2;
  int replays = 2;  // games in which listed actions are all tried now and then
  std::uint64_t seed_base = 0;
  std::function<std::size_t(int players)> pack_size = [](int) { return std::size_t{52}; };
  std::function<void(Harness&)> after_game;  // the game's own end-of-game checks
};

// Returns the number of games played.
int random_playouts(const Playout& spec);

}  // namespace parlour::test
