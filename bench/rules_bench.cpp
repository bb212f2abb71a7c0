#include "bench/rules_bench.h"

#include <map>
#include <stdexcept>

#include "bench/chip_table.h"
#include "bench/report.h"
#include "rules/random_play.h"
#include "rules/registry.h"

namespace parlour::bench {

namespace {

using rules::Json;

constexpr int players = 2;
constexpr std::int64_t starting_chips = 1'000'000;
// Long enough that creating a game is a small part of the time, short enough
// that a measurement covers many games.
constexpr int deals_per_game = 200;

const rules::GameInfo& red_dog() {
  const auto* info = rules::Registry::builtin().find("red_dog");
  if (!info) throw std::runtime_error("the registry has no red_dog");
  return *info;
}

// One Red Dog game of `deals_per_game` deals, the chips kept as a table keeps them.
class Table : public ChipTable {
 public:
  explicit Table(std::uint64_t seed)
      : ChipTable(red_dog(), rules::Registry::validate_options(red_dog(), {{"ante", 1}, {"deals", deals_per_game}}),
                  players, seed, starting_chips) {}
};

// A recorded game: its seed and every action in order, so it can be replayed
// with nothing but apply and start_next_deal, as recovery replays a table's log.
struct Script {
  std::uint64_t seed = 0;
  std::vector<std::pair<int, Json>> actions;
};

// What the rules measurements saw, for the report's details.
struct Tally {
  std::int64_t games = 0;
  std::int64_t actions = 0;
};

Script record_game(std::uint64_t seed) {
  Script script{seed, {}};
  Table table(seed);
  rules::Rng rng(seed);
  auto& game = table.game();
  while (game.phase() != rules::Phase::game_over) {
    if (game.phase() == rules::Phase::deal_over) {
      table.next_deal();
      continue;
    }
    const int seat = game.to_act().front();
    Json action = rules::random_legal_action(game.legal_actions(seat, table.chips()), rng);
    table.apply(seat, action);
    script.actions.emplace_back(seat, std::move(action));
  }
  return script;
}

void replay(const Script& script, Tally& tally) {
  Table table(script.seed);
  auto& game = table.game();
  table.next_deal();
  for (const auto& [seat, action] : script.actions) {
    if (game.phase() == rules::Phase::deal_over) table.next_deal();
    table.apply(seat, action);
  }
  ++tally.games;
  tally.actions += static_cast<std::int64_t>(script.actions.size());
}

// apply alone: replays recorded games, so choosing actions is not timed.
void bench_apply(const Options& options) {
  std::vector<Script> scripts;
  for (std::uint64_t i = 0; i < 16; ++i) scripts.push_back(record_game(options.seed + i));
  Tally tally;
  Stopwatch clock;
  while (clock.seconds() < options.micro_seconds())
    for (const auto& script : scripts) replay(script, tally);
  const double seconds = clock.seconds();
  print_rate("rules/red_dog apply (replay)", static_cast<double>(tally.actions), seconds, "actions/s",
             std::to_string(tally.games) + " games of " + std::to_string(deals_per_game) + " deals, seeds " +
                 std::to_string(options.seed) + ".." + std::to_string(options.seed + scripts.size() - 1));
}

// What the table actor computes for one action: apply it, then for every
// seat the view, the seats to act and that seat's legal actions (the state
// push). Views are kept now and then for the serialisation measurement.
void bench_server_step(const Options& options, std::vector<Json>& sample_views) {
  Tally tally;
  std::uint64_t seed = options.seed;
  Stopwatch clock;
  while (clock.seconds() < options.micro_seconds()) {
    Table table(seed);
    rules::Rng rng(seed++);
    auto& game = table.game();
    table.next_deal();
    std::vector<Json> legal(players);
    while (game.phase() != rules::Phase::game_over) {
      if (game.phase() == rules::Phase::deal_over) table.next_deal();
      if (game.phase() != rules::Phase::playing) continue;
      for (int seat = 0; seat < players; ++seat) {
        Json view = game.view(seat);
        (void)game.to_act();
        legal[seat] = game.legal_actions(seat, table.chips());
        if (tally.actions % 64 == 0 && sample_views.size() < 256) sample_views.push_back(std::move(view));
      }
      const int seat = game.to_act().front();
      table.apply(seat, rules::random_legal_action(legal[seat], rng));
      ++tally.actions;
    }
    ++tally.games;
  }
  const double seconds = clock.seconds();
  print_rate("rules/red_dog apply+view+legal per seat", static_cast<double>(tally.actions), seconds, "actions/s",
             std::to_string(tally.games) + " games, " + std::to_string(players) + " seats, seeds from " +
                 std::to_string(options.seed));
}

// view(seat).dump(): the biggest part of every state frame the server sends.
void bench_view_dump(const Options& options, const std::vector<Json>& views) {
  if (views.empty()) throw std::runtime_error("no views were sampled");
  std::int64_t dumps = 0;
  std::size_t bytes = 0;
  Stopwatch clock;
  while (clock.seconds() < options.micro_seconds()) {
    for (const auto& view : views) bytes += view.dump().size();
    dumps += static_cast<std::int64_t>(views.size());
  }
  const double seconds = clock.seconds();
  print_rate("rules/red_dog view dump()", static_cast<double>(dumps), seconds, "views/s",
             std::to_string(views.size()) + " sampled views, " + std::to_string(bytes / dumps) + " bytes each");
}

}  // namespace

void run_rules_bench(const Options& options) {
  bench_apply(options);
  std::vector<Json> views;
  bench_server_step(options, views);
  bench_view_dump(options, views);
}

}  // namespace parlour::bench
