// Random playouts for the randomized tests of every game: whole games of random
// legal actions, checking at every step that chips and cards are conserved and
// every chosen action is accepted, now and then that every listed action is
// accepted (by replaying to that point, or on a copy of the game), and that
// every game ends. A game's own checks go in the spec's hooks.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "rules/rng.h"
#include "tests/rules/harness.h"

namespace parlour::test {

struct Playout {
  std::string game;

  // ---- each game's table, drawn from the game's own rng in this order
  Json options = Json::object();
  std::function<Json(rules::Rng&)> options_for;  // options drawn per game; default: `options`
  int players_lo = 2;
  int players_hi = 2;
  // Default: between players_lo and players_hi.
  std::function<int(const Json& options, rules::Rng&)> players_for;
  // Each seat's chips at the start; default: 1000 each.
  std::function<std::vector<std::int64_t>(int players, rules::Rng&)> chips_for;

  // ---- how much is played: games until at least min_games games and min_deals deals are done
  int min_games = 1;
  int min_deals = 1000;
  int max_games = 100000;  // fails rather than plays on when games play too few deals
  int max_steps = 100000;  // every game ends within this many steps (actions and next deals)
  std::uint64_t seed_base = 0;

  // ---- play
  // The action a seat makes of those listed; default: rules::random_legal_action.
  std::function<Json(const Json& legal, rules::Rng&)> choose;
  int leave_one_in = 0;  // after one action in this many, a seat drawn at random leaves (0: none leaves)
  int replays = 2;       // games in which listed actions are all tried now and then, by replaying
  // When given, every listed action is also tried on a copy of the game one step
  // in `copy_one_in`, in every game.
  std::function<std::unique_ptr<rules::GameState>(const rules::GameState&)> copy_game;
  int copy_one_in = 80;
  // One step in this many, the strong guarantee is checked (tests/rules/strong_guarantee.h):
  // actions made up from listed ones, refused, change nothing, hidden parts included.
  // A check plays copies on for 20 steps comparing every view after each: at one in
  // 400 (and 40 steps) the Rabouge, Red Dog and low-chip tests took 3.6 times as long.
  int guarantee_one_in = 5000;
  // One step in this many, at one deal's end in kSnapshotDealEndsOneIn (the
  // point the server keeps) and at one game's end in two, the game's snapshot
  // (rules/snapshot.h) is restored into a new game, which must show the same and
  // play on the same for some steps, hidden parts included. At one step in 150
  // and every other deal's end, the Rummy half of the rules tests took 60 %
  // longer; the fuzzer checks a snapshot at every thorough refusal besides.
  int snapshot_one_in = 400;

  // ---- the game's own checks (chips conserved and every chosen action accepted are always checked)
  // Cards conserved, after every action. Default: the view's piles, seats' counts
  // and melds' cards make `pack_size` cards (the Rummy family, Cassino).
  std::function<void(Harness&)> cards_conserved;
  std::function<std::size_t(int players)> pack_size = [](int) { return std::size_t{52}; };
  std::function<void(Harness&, int seat, const Json& legal)> before_step;  // the seat to act and what it is offered
  std::function<void(Harness&)> after_step;  // after every action (and any player leaving after it)
  std::function<void(Harness&)> deal_starts;  // when a deal's play begins (the first deal and each next deal)
  std::function<void(Harness&)> deal_over;    // after the step that ended a deal (the phase is no longer playing)
  std::function<void(Harness&)> after_game;   // the game's own end-of-game checks (the harness is not closed)
};

// Returns the number of games played.
// The game's snapshot (rules/snapshot.h), through JSON text as the server stores
// it, restored into a new game: it must show the same and play on the same for
// some steps, hidden parts included, and give back the same snapshot. For a
// game's own random loops; random_playouts calls it as Playout::snapshot_one_in says.
void snapshot_round_trips(Harness& h, rules::Rng& rng);

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
  int guarantee_one_in = 5000;  // as Playout's
  std::uint64_t seed_base = 0;
};

// Returns the number of deals played in all.
int low_chip_games(const LowChips& spec);

}  // namespace parlour::test
