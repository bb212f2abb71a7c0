// rules_bench: for every registered game, random playouts on one core: deals per
// second and actions per second, where an action is what a table does for it:
// list the actor's legal actions, choose one, apply it. Run by hand
// (`./build/bench/rules_bench [seconds-per-game] [players] [game-id ...]`), never in CI.
// The player count is clamped to what each game allows with the options used.
#include <chrono>
#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "rules/random_play.h"
#include "rules/registry.h"

using namespace parlour::rules;

namespace {

struct Figures {
  long deals = 0;
  long actions = 0;
  double seconds = 0;
};

const OptionSpec* option(const GameInfo& info, const char* name) {
  for (const auto& o : info.options)
    if (o.name == name) return &o;
  return nullptr;
}

void apply_transfers(const Effects& fx, Balances& chips) {
  for (const auto& t : fx.transfers) {
    if (t.from.is_seat()) chips[t.from.seat] -= t.amount;
    if (t.to.is_seat()) chips[t.to.seat] += t.amount;
  }
}

// The options every playout uses: at most 20 deals where the game counts them.
Json bench_options(const GameInfo& info) {
  Json options = Json::object();
  if (const auto* deals = option(info, "deals")) options["deals"] = std::min<std::int64_t>(20, deals->max.value_or(20));
  return options;
}

// Plays one game of up to 20 deals with random legal actions.
void play_one(const GameInfo& info, int players, std::uint64_t seed, Figures& out) {
  Balances chips(players, 1'000'000);
  const Json options = bench_options(info);
  auto game = Registry::create(info, GameSetup{options, players, seed, std::nullopt, chips});
  Rng rng(seed);
  apply_transfers(game->start_next_deal(chips), chips);
  for (int guard = 0; guard < 100000 && game->phase() != Phase::game_over; ++guard) {
    if (game->phase() == Phase::deal_over) {
      ++out.deals;
      if (game->deals_played() >= 20) break;
      apply_transfers(game->start_next_deal(chips), chips);
      continue;
    }
    const auto acting = game->to_act();
    const int seat = acting[rng.below(acting.size())];
    const auto legal = game->legal_actions(seat, chips);
    apply_transfers(game->apply(seat, random_legal_action(legal, rng), chips), chips);
    ++out.actions;
  }
  if (game->phase() == Phase::game_over) ++out.deals;
}

}  // namespace

int main(int argc, char** argv) {
  const double budget = argc > 1 ? std::atof(argv[1]) : 2.0;
  const int wanted_players = argc > 2 ? std::atoi(argv[2]) : 4;
  const std::vector<std::string> only(argv + std::min(argc, 3), argv + argc);
  std::printf("rules_bench: random playouts, one core, %.1f s per game\n", budget);
  for (const auto& info : Registry::builtin().all()) {
    if (!only.empty() && std::find(only.begin(), only.end(), info.id) == only.end()) continue;
    const int most = info.max_players_with(Registry::validate_options(info, bench_options(info)));
    const int players = std::max(info.min_players, std::min(wanted_players, most));
    Figures f;
    const auto start = std::chrono::steady_clock::now();
    std::uint64_t seed = 1;
    do {
      play_one(info, players, seed++, f);
      f.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    } while (f.seconds < budget);
    std::printf("%-24s %d players: %9.0f deals/s  %10.0f actions/s  %8.1f us/deal  (%ld deals)\n", info.id.c_str(),
                players, f.deals / f.seconds, f.actions / f.seconds, 1e6 * f.seconds / std::max(1L, f.deals), f.deals);
  }
  return 0;
}
