// bot_league: how well each game's level-1 bot (GameInfo::bot) plays, measured
// against random players (level 0) and against itself. Run by hand or by
// `make bot-league`; a benchmark, never a timed test.
//
//   bot_league [--game ID]... [--deals N] [--deals-per-game N] [--seats N]
//              [--seed S] [--self] [--option NAME=VALUE]...
//
// Each game is played many times from consecutive seeds, the careful bot in one
// seat (a different seat each game) and random players in the others. A game is
// up to --deals-per-game deals (the game's `deals` option, where it has one; the
// games without one, Russian Bank and Rabouge, are played whole), with a million
// chips a seat so that nobody goes broke. The figure is the bot's chips won per
// deal, with a 95 % interval from the spread of its chips per game (games are
// independent; the deals of one game are not), and the processor time the bot takes to
// choose a move.
//
// --option sets a game option (for every game measured that has it), e.g.
// `--option sequential=true --option limit=10` for Red and Black.
//
// --self seats the careful bot everywhere and prints, for the Rummy family,
// how often a deal ends by someone going out (Carousel: knocking) rather than by the stock.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include <time.h>

#include "bench/chip_table.h"
#include "rules/random_play.h"
#include "rules/registry.h"

namespace {

using parlour::rules::Json;
namespace rules = parlour::rules;

struct LeagueOptions {
  std::vector<std::string> games;  // empty: every game in the catalogue
  int deals = 2000;                // deals (or whole games) measured per game
  int deals_per_game = 10;
  int seats = 0;  // 0: three, or the game's nearest player count
  std::uint64_t seed = 1;
  bool self_play = false;
  Json game_options = Json::object();  // --option NAME=VALUE, for every game that has the option
};

constexpr std::int64_t starting_chips = 1'000'000;

// The processor time this thread has used, in seconds: a move's think time is
// the bot's own work, not the time the machine gave other processes meanwhile
// (wall time on a shared machine put a preempted move at tens of milliseconds).
double thread_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

struct GameTally {
  std::vector<double> per_game;  // the measured seat's chips won in each game
  std::int64_t deals = 0;
  std::int64_t went_out = 0;  // Rummy family: deals ended by going out
  std::int64_t rummy_deals = 0;
  std::vector<double> think;  // seconds per bot move
  std::int64_t stuck = 0;  // games cut short because they would not end
};

int seats_for(const rules::GameInfo& info, const Json& options, int wanted) {
  const int target = wanted > 0 ? wanted : 3;
  return std::clamp(target, info.min_players, info.max_players_with(options));
}

Json options_for(const rules::GameInfo& info, int deals_per_game, const Json& chosen) {
  Json given = Json::object();
  for (const auto& option : info.options) {
    if (option.name == "deals")  // some games cap it (Persian Rummy: at most 3)
      given["deals"] = option.max ? std::min<std::int64_t>(deals_per_game, *option.max) : deals_per_game;
    if (chosen.contains(option.name)) given[option.name] = chosen[option.name];
  }
  return rules::Registry::validate_options(info, given);
}

// One game; returns the chips the measured seat won in it.
void play_game(const rules::GameInfo& info, const Json& options, int players, std::uint64_t seed,
               int measured_seat, bool self_play, GameTally& tally) {
  parlour::bench::ChipTable table(info, options, players, seed, starting_chips);
  table.next_deal();
  rules::Rng rng(seed * 7919 + 17);
  auto& game = table.game();
  // Far more steps than any real game takes: a guard against a game that
  // never ends with these players, which the league reports instead of hanging.
  std::int64_t steps_left = 200'000;
  auto count_deal = [&] {
    ++tally.deals;
    const Json result = game.result();
    if (info.layout == "rummy" && result.is_object() && result.contains("end")) {
      ++tally.rummy_deals;
      // Carousel's deals are ended by a player's knock (an empty hand knocks by itself).
      if (result["end"] == "went_out" || result["end"] == "knock") ++tally.went_out;
    }
  };
  while (game.phase() != rules::Phase::game_over && steps_left-- > 0) {
    if (game.phase() == rules::Phase::deal_over) {
      count_deal();
      table.next_deal();
      continue;
    }
    const auto acting = game.to_act();
    if (acting.empty()) throw std::runtime_error(info.id + ": nobody can act in a game in play");
    const int seat = acting.front();
    const Json legal = game.legal_actions(seat, table.chips());
    if (legal.empty()) throw std::runtime_error(info.id + ": seat " + std::to_string(seat) + " must act but has no action");
    const bool careful = (self_play || seat == measured_seat) && info.bot;
    if (careful) {
      const Json view = game.view(seat);
      const double start = thread_seconds();
      const Json action = info.bot(view, legal, rng);
      const double took = thread_seconds() - start;
      tally.think.push_back(took);
      table.apply(seat, action);
    } else {
      table.apply(seat, rules::random_legal_action(legal, rng));
    }
  }
  if (game.phase() == rules::Phase::game_over) {
    count_deal();
  } else {
    ++tally.stuck;
  }
  table.close();
  tally.per_game.push_back(static_cast<double>(table.chips()[measured_seat] - starting_chips));
}

struct Interval {
  double mean = 0;
  double half_width = 0;
};

Interval interval_of(const std::vector<double>& values) {
  if (values.empty()) return {};
  const double n = static_cast<double>(values.size());
  const double mean = std::accumulate(values.begin(), values.end(), 0.0) / n;
  double squares = 0;
  for (double v : values) squares += (v - mean) * (v - mean);
  const double sd = values.size() > 1 ? std::sqrt(squares / (n - 1)) : 0;
  return {mean, 1.96 * sd / std::sqrt(n)};
}

void run_game(const rules::GameInfo& info, const LeagueOptions& options) {
  const Json game_options = options_for(info, options.deals_per_game, options.game_options);
  const int players = seats_for(info, game_options, options.seats);
  const bool has_deals_option = game_options.contains("deals");
  if (!info.bot) {
    std::printf("%-24s %2d seats  no level-1 bot yet: every level plays at random\n", info.id.c_str(), players);
    return;
  }
  GameTally tally;
  std::uint64_t seed = options.seed;
  int game_number = 0;
  const auto wall_start = std::chrono::steady_clock::now();
  // Games without a `deals` option are measured per whole game.
  while ((has_deals_option ? tally.deals : static_cast<std::int64_t>(tally.per_game.size())) < options.deals) {
    play_game(info, game_options, players, seed++, game_number % players, options.self_play, tally);
    ++game_number;
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();

  const Interval per_game = interval_of(tally.per_game);
  const double deals_per_game = static_cast<double>(tally.deals) / static_cast<double>(tally.per_game.size());
  const double unit = has_deals_option ? deals_per_game : 1.0;
  const double mean = per_game.mean / unit;
  const double low = (per_game.mean - per_game.half_width) / unit;
  const double high = (per_game.mean + per_game.half_width) / unit;
  std::sort(tally.think.begin(), tally.think.end());
  const auto think_at = [&](double q) {
    if (tally.think.empty()) return 0.0;
    return 1e6 * tally.think[std::min(tally.think.size() - 1, static_cast<std::size_t>(q * static_cast<double>(tally.think.size())))];
  };
  const double think_us =
      tally.think.empty() ? 0 : 1e6 * std::accumulate(tally.think.begin(), tally.think.end(), 0.0) / static_cast<double>(tally.think.size());

  std::printf("%-24s %2d seats %6lld %-5s", info.id.c_str(), players,
              static_cast<long long>(has_deals_option ? tally.deals : static_cast<std::int64_t>(tally.per_game.size())),
              has_deals_option ? "deals" : "games");
  if (!options.self_play) {
    const char* verdict = low > 0 ? "ahead" : (high < 0 ? "BEHIND" : "not shown");
    std::printf("  %+9.3f chips/%s [%+9.3f, %+9.3f] %-9s", mean, has_deals_option ? "deal" : "game", low, high, verdict);
  }
  std::printf("  think %7.1f us/move (p99 %7.1f, max %7.1f)", think_us, think_at(0.99), think_at(1.0));
  if (tally.rummy_deals > 0)
    std::printf("  went out %5.1f %%", 100.0 * static_cast<double>(tally.went_out) / static_cast<double>(tally.rummy_deals));
  if (tally.stuck > 0) std::printf("  %lld games cut short", static_cast<long long>(tally.stuck));
  std::printf("  (%.1f s)\n", wall);
  std::fflush(stdout);
}

int parse_int(const std::string& flag, const std::string& text) {
  try {
    std::size_t used = 0;
    const int value = std::stoi(text, &used);
    if (used != text.size() || value < 0) throw std::invalid_argument(text);
    return value;
  } catch (const std::exception&) {
    throw std::runtime_error(flag + " takes a whole number >= 0, not '" + text + "'");
  }
}

// NAME=VALUE, the value read as JSON (true, 10) or else as a string (3-2).
void add_option(const std::string& text, Json& into) {
  const auto equals = text.find('=');
  if (equals == std::string::npos || equals == 0) throw std::runtime_error("--option takes NAME=VALUE, not '" + text + "'");
  const std::string value = text.substr(equals + 1);
  Json parsed = Json::parse(value, nullptr, /*allow_exceptions=*/false);
  into[text.substr(0, equals)] = parsed.is_discarded() ? Json(value) : parsed;
}

LeagueOptions parse(int argc, char** argv) {
  LeagueOptions options;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--self") {
      options.self_play = true;
      continue;
    }
    if (flag == "--help" || flag == "-h") {
      std::cout << "usage: bot_league [--game ID]... [--deals N] [--deals-per-game N] [--seats N] [--seed S] [--self]\n"
                   "                  [--option NAME=VALUE]...\n";
      std::exit(0);
    }
    if (i + 1 >= argc) throw std::runtime_error(flag + " needs a value");
    const std::string value = argv[++i];
    if (flag == "--game") options.games.push_back(value);
    else if (flag == "--deals") options.deals = std::max(1, parse_int(flag, value));
    else if (flag == "--deals-per-game") options.deals_per_game = std::max(1, parse_int(flag, value));
    else if (flag == "--seats") options.seats = parse_int(flag, value);
    else if (flag == "--seed") options.seed = static_cast<std::uint64_t>(parse_int(flag, value));
    else if (flag == "--option") add_option(value, options.game_options);
    else throw std::runtime_error("unknown option " + flag + " (see --help)");
  }
  return options;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const LeagueOptions options = parse(argc, argv);
    const auto& registry = rules::Registry::builtin();
    std::printf("bot_league: level-1 bot %s; chips won per deal (per game where a game has no deals option), "
                "95 %% interval; seeds from %llu\n",
                options.self_play ? "in every seat" : "against level-0 (random) players",
                static_cast<unsigned long long>(options.seed));
    if (options.games.empty()) {
      for (const auto& info : registry.all()) run_game(info, options);
    } else {
      for (const auto& id : options.games) {
        const auto* info = registry.find(id);
        if (!info) throw std::runtime_error("no game '" + id + "' in the catalogue");
        run_game(*info, options);
      }
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "bot_league: " << e.what() << "\n";
    return 1;
  }
}
