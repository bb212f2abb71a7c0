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

// Games in which the players start with few chips and play at random until the
// game ends by itself (or after `deal_cap` deals, for games whose chips only
// circulate so that no shortage can ever end them). Now and then a player spends
// chips at another table between two calls, as a player may: the game must go
// on from the balances it is given. Checks that each game ends within
// `max_deals`, that the seat to act always has a listed action, that the chosen
// action and now and then every listed action is accepted, and that no chip is
// made or lost (but those spent elsewhere).
struct LowChips {
  std::string game;
  Json options = Json::object();
  int games = 40;
  int players_lo = 2;
  int players_hi = 4;
  std::int64_t chips_lo = 3;
  std::int64_t chips_hi = 20;
  int deal_cap = 0;       // 0: no cap, the game must end by itself
  int max_deals = 3000;   // every game ends within this many deals
  int replays = 3;        // games in which listed actions are all tried now and then
  std::uint64_t seed_base = 0;
};

// Returns the number of deals played in all.
int low_chip_games(const LowChips& spec);

}  // namespace parlour::test
