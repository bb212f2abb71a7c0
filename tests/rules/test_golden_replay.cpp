// The golden replay test: for every registered game, a recorded log of a seeded
// game (tests/rules/golden/*.json) is replayed through the GameState interface,
// and after every step the whole state as the interface shows it — every seat's
// view, the spectator's view, every seat's legal actions, phase, to_act, result,
// deals played, the turn timer, and the effects (transfers and log lines) the
// step returned — is folded into running FNV-1a hashes that must match the ones
// recorded. It proves that a refactor keeps every game's behaviour: the same log
// replays to the same states.
//
// Re-recording (tests/rules/golden/README.md):
//   PARLOUR_RECORD_GOLDEN=1     keeps each file's log and rewrites its hashes and
//                               snapshots from what the code does now (after an
//                               intended change of views, results or messages);
//   PARLOUR_RECORD_GOLDEN=fresh also plays new logs from the specs below.
// e.g. PARLOUR_RECORD_GOLDEN=1 ./build/tests/test_rules -tc='*golden*'
#include <map>
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "rules/random_play.h"
#include "rules/registry.h"
#include "rules/snapshot.h"

#ifndef PARLOUR_GOLDEN_DIR
#error "PARLOUR_GOLDEN_DIR must name tests/rules/golden"
#endif

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_golden_replay {

namespace {

using parlour::rules::Balances;
using parlour::rules::Effects;
using parlour::rules::GameInfo;
using parlour::rules::GameSetup;
using parlour::rules::GameState;
using parlour::rules::Json;
using parlour::rules::Registry;
using parlour::rules::Rng;

constexpr std::size_t checkpoint_every = 25;

// ---------------------------------------------------------------- fingerprints

std::uint64_t fnv1a(std::uint64_t hash, const std::string& text) {
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

std::string hex(std::uint64_t value) {
  std::ostringstream out;
  out << std::hex;
  out.width(16);
  out.fill('0');
  out << value;
  return out.str();
}

// Running hashes of four parts of what the interface shows, so a mismatch says
// which part changed.
struct Fingerprint {
  std::uint64_t views = 0xcbf29ce484222325ULL;
  std::uint64_t legal = 0xcbf29ce484222325ULL;
  std::uint64_t state = 0xcbf29ce484222325ULL;
  std::uint64_t effects = 0xcbf29ce484222325ULL;

  Json to_json(std::size_t step) const {
    return {{"step", step}, {"views", hex(views)}, {"legal", hex(legal)}, {"state", hex(state)},
            {"effects", hex(effects)}};
  }
};

Json effects_json(const Effects& fx) {
  Json transfers = Json::array();
  for (const auto& t : fx.transfers)
    transfers.push_back({t.from.seat, t.from.pool, t.to.seat, t.to.pool, t.amount, t.memo});
  return {{"transfers", transfers}, {"log", fx.log}};
}

// A view or legal list as the server pushes it: written as text (JsonText).
// The tree the same code writes (JsonTree: what bots, tests and hand histories
// read) must dump to the very same bytes.
template <class Write>
std::string written(Write&& write) {
  const auto text = parlour::rules::json_text_of(write);
  const auto tree = parlour::rules::json_tree_of(write);
  REQUIRE_MESSAGE(text == tree.dump(), "written as text: " << text << "\nwritten as a tree: " << tree.dump());
  return text;
}

// What the whole game shows after a step.
void fold_state(Fingerprint& print, const GameState& game, int players, const Balances& balances) {
  using parlour::rules::JsonWriter;
  const auto view_of = [&](std::optional<int> seat) {
    return written([&](JsonWriter& out) { game.write_view(seat, out); });
  };
  std::map<std::optional<int>, std::string> alone;
  for (int seat = 0; seat < players; ++seat) print.views = fnv1a(print.views, alone[seat] = view_of(seat));
  print.views = fnv1a(print.views, alone[std::nullopt] = view_of(std::nullopt));
  // The pushes of one moment write its views keeping what they share
  // (JsonWriter::shared_value), in whatever order their members come: each
  // must be the view written alone. A spectator first, then the seats from the last.
  parlour::rules::SharedValues shared;
  const auto shared_view_of = [&](std::optional<int> seat) {
    parlour::rules::JsonText text;
    text.share_values(&shared);
    game.write_view(seat, text);
    return text.take();
  };
  REQUIRE(shared_view_of(std::nullopt) == alone[std::nullopt]);
  for (int seat = players - 1; seat >= 0; --seat)
    REQUIRE_MESSAGE(shared_view_of(seat) == alone[seat], "seat " << seat << "'s view with the values the others share");
  for (int seat = 0; seat < players; ++seat) {
    print.legal = fnv1a(print.legal, written([&](JsonWriter& out) { game.write_legal_actions(seat, balances, out); }));
    // What a table reads of the list on every step (GameState::legal_shape) is the list's.
    const auto tree = game.legal_actions(seat, balances);
    const auto shape = game.legal_shape(seat, balances);
    REQUIRE_MESSAGE(shape.size() == tree.size(), "seat " << seat << "'s legal list counted as written: " << tree.dump());
    REQUIRE(shape.first_type() == (tree.empty() ? std::string() : tree[0].value("type", std::string())));
  }
  Json timer;
  if (auto t = game.turn_timer()) timer = {t->seat, t->seconds, t->action, t->turn};
  const Json state = {{"phase", static_cast<int>(game.phase())}, {"to_act", game.to_act()},
                      {"deals", game.deals_played()},              {"result", game.result()},
                      {"timer", timer}};
  print.state = fnv1a(print.state, state.dump());
}

// The state at one point, kept in full in the file to show what changed.
Json snapshot(const GameState& game, std::size_t step, bool with_view) {
  Json out = {{"step", step}, {"phase", static_cast<int>(game.phase())}, {"to_act", game.to_act()},
              {"result", game.result()}};
  if (with_view) out["spectator_view"] = game.view(std::nullopt);
  return out;
}

// ---------------------------------------------------------------- the log

// A step of the log, as the file writes it (the balances passed with a call are
// written only when they differ from the previous call's):
//   ["deal", balances?]            start_next_deal
//   [seat, action, balances?]      apply
//   ["leave", seat, balances?]     seat_left
//   ["close", balances?]           close
struct LogEntry {
  enum class Kind { deal, act, leave, close } kind = Kind::act;
  int seat = -1;
  Json action;
  std::optional<Balances> balances;

  Json to_json() const {
    Json out = Json::array();
    switch (kind) {
      case Kind::deal: out.push_back("deal"); break;
      case Kind::act: out = {seat, action}; break;
      case Kind::leave: out = {"leave", seat}; break;
      case Kind::close: out.push_back("close"); break;
    }
    if (balances) out.push_back(*balances);
    return out;
  }

  static LogEntry from_json(const Json& in) {
    LogEntry step;
    std::size_t next = 1;
    if (in[0].is_number_integer()) {
      step.seat = in[0].get<int>();
      step.action = in[1];
      next = 2;
    } else if (in[0] == "deal") {
      step.kind = Kind::deal;
    } else if (in[0] == "leave") {
      step.kind = Kind::leave;
      step.seat = in[1].get<int>();
      next = 2;
    } else if (in[0] == "close") {
      step.kind = Kind::close;
    } else {
      throw std::runtime_error("golden log: unknown step " + in.dump());
    }
    if (in.size() > next) step.balances = in[next].get<Balances>();
    return step;
  }
};

struct GameLog {
  std::string name;
  std::string game;
  Json options = Json::object();
  int players = 2;
  std::uint64_t seed = 1;
  int first_dealer = 0;
  Balances chips;
  std::vector<LogEntry> steps;
};

// Runs one step; a refusal (which a recorded step never is) is folded in as effects.
Effects run_step(GameState& game, const LogEntry& step, const Balances& balances) {
  try {
    switch (step.kind) {
      case LogEntry::Kind::deal: return game.start_next_deal(balances);
      case LogEntry::Kind::act: return game.apply(step.seat, step.action, balances);
      case LogEntry::Kind::leave: return game.seat_left(step.seat, balances);
      case LogEntry::Kind::close: return game.close(balances);
    }
  } catch (const parlour::rules::RulesError& e) {
    Effects refused;
    refused.say("refused " + e.code() + ": " + e.what());
    return refused;
  }
  return {};
}

std::unique_ptr<GameState> create(const GameLog& log) {
  const GameInfo* info = Registry::builtin().find(log.game);
  REQUIRE_MESSAGE(info != nullptr, "no game " << log.game);
  return Registry::create(*info, GameSetup{log.options, log.players, log.seed, std::nullopt, log.chips,
                                           log.first_dealer});
}

struct Replay {
  std::vector<Json> checkpoints;
  // Every step's whole-state snapshot (GameState::snapshot), hashed: a change
  // of what a snapshot holds needs a new rules::snapshot_format.
  std::uint64_t snapshot_hash = 0xcbf29ce484222325ULL;
  std::vector<Json> snapshots;
  std::set<std::string> endings;  // how the deals of the log ended, for the recording's message
  int unpaid = 0;                 // results that name an unpaid rest
};

// How a result says its deal ended, in whichever field the game uses.
std::string ending_of(const Json& result) {
  for (const char* key : {"end", "outcome"})
    if (result.contains(key) && result[key].is_string()) return result[key].get<std::string>();
  return "settled";
}

bool names_unpaid(const Json& result) {
  return result.contains("unpaid") && result["unpaid"].is_array() && !result["unpaid"].empty();
}

// The snapshots: after the first deal's end, and (with the spectator's view) at the end of the log.
Replay replay(const GameLog& log) {
  auto game = create(log);
  Replay out;
  Fingerprint print;
  Balances balances = log.chips;
  bool first_deal_end_kept = false;
  for (std::size_t i = 0; i < log.steps.size(); ++i) {
    const LogEntry& step = log.steps[i];
    if (step.balances) balances = *step.balances;
    const bool was_playing = game->phase() == parlour::rules::Phase::playing;
    const Effects fx = run_step(*game, step, balances);
    print.effects = fnv1a(print.effects, effects_json(fx).dump());
    fold_state(print, *game, log.players, balances);
    out.snapshot_hash = fnv1a(out.snapshot_hash, game->snapshot().dump());
    const std::size_t done = i + 1;
    if (done % checkpoint_every == 0 || done == log.steps.size()) out.checkpoints.push_back(print.to_json(done));
    if (was_playing && game->phase() != parlour::rules::Phase::playing && !game->result().is_null()) {
      out.endings.insert(ending_of(game->result()));
      if (names_unpaid(game->result())) ++out.unpaid;
    }
    if (!first_deal_end_kept && game->phase() != parlour::rules::Phase::playing && done > 1) {
      out.snapshots.push_back(snapshot(*game, done, false));
      first_deal_end_kept = true;
    }
  }
  out.snapshots.push_back(snapshot(*game, log.steps.size(), true));
  return out;
}

// ---------------------------------------------------------------- recording

// How a fresh log is played: the first `max_steps` calls of a game with these
// players, chips and options, then close.
struct LogSpec {
  std::string name;
  std::string game;
  Json options = Json::object();
  int players = 3;
  std::uint64_t seed = 1;
  std::int64_t chips_lo = 20;
  std::int64_t chips_hi = 200;
  std::size_t max_steps = 160;
  int leave_at = -1;  // the step at which a random seat leaves (-1: nobody leaves)
  int greed = 2;      // in how many of 3 choices a move that makes progress is preferred
  int spend_one_in = 40;  // a player spends chips elsewhere before one call in this many
};

// The moves that bring a deal nearer its end, which random play seldom picks.
bool makes_progress(const Json& action) {
  static const std::set<std::string> types = {"go_rummy", "go_down", "knock", "meld", "lay_off", "layout",
                                              "call",     "capture", "move",  "stand"};
  return types.count(action.value("type", "")) > 0;
}

Json choose(const GameInfo& info, const GameState& game, int seat, const Json& legal, int greed, Rng& rng) {
  if (info.bot && rng.below(3) != 0) return info.bot(game.view(seat), legal, rng);
  Json progress = Json::array();
  for (const auto& action : legal)
    if (makes_progress(action)) progress.push_back(action);
  if (!progress.empty() && static_cast<int>(rng.below(3)) < greed)
    return parlour::rules::random_legal_action(progress, rng);
  return parlour::rules::random_legal_action(legal, rng);
}

void apply_transfers(const Effects& fx, Balances& chips) {
  for (const auto& t : fx.transfers) {
    if (t.from.is_seat()) chips[t.from.seat] -= t.amount;
    if (t.to.is_seat()) chips[t.to.seat] += t.amount;
  }
}

GameLog play_fresh(const LogSpec& spec) {
  GameLog log;
  log.name = spec.name;
  log.game = spec.game;
  log.options = spec.options;
  log.players = spec.players;
  log.seed = spec.seed;
  log.first_dealer = parlour::rules::draw_first_dealer(spec.seed, spec.players);
  Rng rng(spec.seed * 7919 + 17);
  for (int s = 0; s < spec.players; ++s) log.chips.push_back(rng.between(spec.chips_lo, spec.chips_hi));
  const GameInfo& info = *Registry::builtin().find(spec.game);
  auto game = create(log);
  Balances chips = log.chips;
  Balances last_logged = log.chips;
  auto logged = [&](LogEntry step) {
    if (chips != last_logged) step.balances = chips;
    last_logged = chips;
    log.steps.push_back(step);
    return step;
  };
  auto run = [&](const LogEntry& step) {
    const Effects fx = run_step(*game, logged(step), chips);
    const bool refused = !fx.log.empty() && fx.log.front().rfind("refused", 0) == 0;
    REQUIRE_MESSAGE(!refused, spec.name << ": a listed action was " << fx.log.front());
    apply_transfers(fx, chips);
  };
  while (game->phase() != parlour::rules::Phase::game_over && log.steps.size() < spec.max_steps) {
    if (static_cast<int>(log.steps.size()) == spec.leave_at) {
      run({LogEntry::Kind::leave, static_cast<int>(rng.below(static_cast<std::uint64_t>(spec.players))), {}, {}});
      continue;
    }
    if (game->phase() == parlour::rules::Phase::deal_over) {
      run({LogEntry::Kind::deal, -1, {}, {}});
      continue;
    }
    // Now and then a player spends chips at another table, as a player may.
    if (rng.below(static_cast<std::uint64_t>(spec.spend_one_in)) == 0) {
      const int seat = static_cast<int>(rng.below(static_cast<std::uint64_t>(spec.players)));
      chips[seat] -= rng.between(0, std::max<std::int64_t>(chips[seat], 0));
    }
    // Now and then the turn timer runs out, as the server would play it.
    if (auto timer = game->turn_timer(); timer && rng.below(60) == 0) {
      run({LogEntry::Kind::act, timer->seat, timer->action, {}});
      continue;
    }
    const auto acting = game->to_act();
    REQUIRE_MESSAGE(!acting.empty(), spec.name << ": nobody to act");
    const int seat = acting[rng.below(acting.size())];
    const Json legal = game->legal_actions(seat, chips);
    REQUIRE_MESSAGE(!legal.empty(), spec.name << ": seat " << seat << " has no legal action");
    run({LogEntry::Kind::act, seat, choose(info, *game, seat, legal, spec.greed, rng), {}});
  }
  run({LogEntry::Kind::close, -1, {}, {}});
  return log;
}

// One log per game, and more for the engines whose rules many options change.
std::vector<LogSpec> log_specs() {
  return {
      {"red_dog", "red_dog", {{"deals", 10}}, 4, 11, 3, 30, 160, -1, 2, 6},
      {"red_and_black", "red_and_black", {{"deals", 10}}, 4, 12, 4, 24, 160, -1, 2, 8},
      {"ranter_go_round", "ranter_go_round", {{"counters", 3}, {"stake", 3}}, 5, 13, 9, 30, 160, -1, 2, 6},
      {"rummy", "rummy", {{"deals", 2}, {"stake", 2}}, 3, 14, 10, 120, 200},
      {"rummy_call", "rummy", {{"call", true}, {"deals", 2}}, 3, 15, 20, 200, 200},
      {"rummy_block", "rummy", {{"block", true}, {"deals", 3}}, 2, 16, 20, 200, 200, -1, 1},
      {"rummy_boathouse", "rummy", {{"boathouse", true}, {"boathouse_two_discards", true}}, 2, 17, 20, 200, 200},
      {"rummy_wild_card", "rummy", {{"wild_card", true}, {"jokers", 2}, {"high_low", true}}, 3, 18, 20, 200, 200},
      {"rummy_two_meld", "rummy", {{"two_meld", true}, {"round_the_corner", true}, {"max_restocks", 2}}, 2, 19, 20,
       200, 200, -1, 1},
      {"michigan_rummy", "michigan_rummy", {{"target", 50}}, 3, 20, 20, 200, 200},
      {"michigan_polish", "michigan_rummy", {{"polish", true}, {"settle_each_deal", true}, {"deals", 2}}, 2, 21, 5,
       40, 200},
      {"five_hundred_rummy", "five_hundred_rummy", {{"target", 60}, {"after_stock", "turn_over"}}, 3, 22, 20, 200,
       200},
      {"five_hundred_partnership", "five_hundred_rummy", {{"partnership", true}, {"target", 50}}, 4, 23, 20, 200, 200},
      {"persian_rummy", "persian_rummy", {{"top_card_free", true}}, 4, 24, 20, 200, 200},
      {"straight_rummy", "straight_rummy", {{"initial_upcard", true}, {"payoff", "points"}}, 3, 25, 5, 60, 200},
      {"queen_city_rummy", "queen_city_rummy", Json::object(), 3, 26, 20, 200, 200},
      {"block_rummy", "block_rummy", {{"hand_size", 6}}, 3, 27, 20, 200, 200, -1, 1},
      {"skip_rummy", "skip_rummy", Json::object(), 3, 28, 20, 200, 200},
      {"round_the_corner_rummy", "round_the_corner_rummy", {{"max_reshuffles", 1}}, 3, 29, 20, 200, 200, -1, 1},
      {"java_rummy", "java_rummy", {{"jokers", 1}, {"stake", 5}}, 3, 30, 2, 20, 200},
      {"rummy_poker", "rummy_poker", {{"scoring", "penalty"}}, 2, 31, 20, 200, 260},
      {"double_rummy", "double_rummy", Json::object(), 2, 32, 5, 60, 330},
      {"carousel", "carousel", {{"turn_time_limit_s", 60}, {"deals", 3}}, 2, 33, 2, 40, 260},
      {"reversi", "reversi", {{"deals", 3}}, 4, 34, 2, 30, 200},
      {"rams", "rams", {{"deals", 6}}, 4, 35, 3, 40, 200},
      {"rounce", "rounce", {{"deals", 6}}, 4, 36, 3, 40, 200, 150},
      {"royal_cassino", "royal_cassino", {{"per_deal_game", true}, {"stake", 3}}, 2, 37, 2, 30, 200},
      {"royal_cassino_partners", "royal_cassino", {{"partnership", true}, {"draw", true}}, 4, 38, 20, 200, 200},
      {"russian_bank", "russian_bank", Json::object(), 2, 39, 20, 200, 200},
      {"rabouge", "rabouge", {{"rabouge_stake", 1}, {"card_count", true}}, 3, 40, 5, 40, 200},
  };
}

// ---------------------------------------------------------------- files

std::string env(const char* name, const char* fallback) {
  const char* value = std::getenv(name);
  return value && *value ? value : fallback;
}

// PARLOUR_GOLDEN_DIR_OVERRIDE: another folder of logs, for a deeper check kept
// outside the repository (README.md there).
std::string golden_dir() { return env("PARLOUR_GOLDEN_DIR_OVERRIDE", PARLOUR_GOLDEN_DIR); }

std::string path_of(const std::string& name) { return golden_dir() + "/" + name + ".json"; }

Json snapshot_stamp(const Replay& replayed) {
  return {{"format", parlour::rules::snapshot_format}, {"hash", hex(replayed.snapshot_hash)}};
}

// A changed snapshot hash under the same format: what a server would misread.
void require_snapshot_format_bumped(const Replay& replayed, const Json& file) {
  const auto recorded = file.value("snapshot_format", Json());
  if (recorded.is_null() || recorded.value("format", 0) != parlour::rules::snapshot_format) return;
  INFO("this log's game snapshots differ from the recorded ones under the same format; a server reading "
       "snapshots stored by the previous build would take them for what they are not: bump "
       "rules::snapshot_format (rules/snapshot.h), then re-record with PARLOUR_RECORD_GOLDEN=1");
  REQUIRE(recorded.value("hash", "") == hex(replayed.snapshot_hash));
}

// One top-level field per line, one step per line: small diffs when re-recorded.
void write_file(const GameLog& log, const Replay& replayed) {
  std::ofstream out(path_of(log.name));
  REQUIRE_MESSAGE(out.good(), "cannot write " << path_of(log.name));
  out << "{\n";
  out << "\"game\": " << Json(log.game).dump() << ",\n";
  out << "\"options\": " << log.options.dump() << ",\n";
  out << "\"players\": " << log.players << ",\n";
  out << "\"seed\": " << log.seed << ",\n";
  out << "\"first_dealer\": " << log.first_dealer << ",\n";
  out << "\"chips\": " << Json(log.chips).dump() << ",\n";
  out << "\"steps\": [\n";
  for (std::size_t i = 0; i < log.steps.size(); ++i)
    out << log.steps[i].to_json().dump() << (i + 1 < log.steps.size() ? ",\n" : "\n");
  out << "],\n";
  out << "\"checkpoints\": [\n";
  for (std::size_t i = 0; i < replayed.checkpoints.size(); ++i)
    out << replayed.checkpoints[i].dump() << (i + 1 < replayed.checkpoints.size() ? ",\n" : "\n");
  out << "],\n";
  out << "\"snapshots\": [\n";
  for (std::size_t i = 0; i < replayed.snapshots.size(); ++i)
    out << replayed.snapshots[i].dump() << (i + 1 < replayed.snapshots.size() ? ",\n" : "\n");
  out << "],\n";
  out << "\"snapshot_format\": " << snapshot_stamp(replayed).dump() << "\n}\n";
}

std::optional<Json> read_file(const std::string& name) {
  std::ifstream in(path_of(name));
  if (!in) return std::nullopt;
  return Json::parse(in);
}

GameLog log_from(const std::string& name, const Json& file) {
  GameLog log;
  log.name = name;
  log.game = file.at("game").get<std::string>();
  log.options = file.at("options");
  log.players = file.at("players").get<int>();
  log.seed = file.at("seed").get<std::uint64_t>();
  log.first_dealer = file.at("first_dealer").get<int>();
  log.chips = file.at("chips").get<Balances>();
  for (const auto& step : file.at("steps")) log.steps.push_back(LogEntry::from_json(step));
  return log;
}

// For the deeper check: PARLOUR_GOLDEN_SEEDS=N plays N logs per spec (seeds
// spec.seed + 1000·k, every other one with a seat leaving two thirds of the way)
// and PARLOUR_GOLDEN_LONGER=F makes each F times as long.
// The repository's logs are the N = 1, F = 1 set.
std::vector<LogSpec> specs_to_run() {
  const int seeds = std::max(1, std::stoi(env("PARLOUR_GOLDEN_SEEDS", "1")));
  const int longer = std::max(1, std::stoi(env("PARLOUR_GOLDEN_LONGER", "1")));
  std::vector<LogSpec> out;
  for (const auto& spec : log_specs())
    for (int k = 0; k < seeds; ++k) {
      LogSpec variant = spec;
      variant.max_steps *= static_cast<std::size_t>(longer);
      if (k > 0) {
        variant.name += "-" + std::to_string(k);
        variant.seed += 1000 * static_cast<std::uint64_t>(k);
        if (k % 2 == 1) variant.leave_at = static_cast<int>(variant.max_steps * 2 / 3);  // half of them see a seat leave
      }
      out.push_back(variant);
    }
  return out;
}

}  // namespace

TEST_CASE("golden replay: every game's recorded log replays to the recorded states") {
  const std::string mode = env("PARLOUR_RECORD_GOLDEN", "");
  std::set<std::string> games_logged;
  for (const auto& spec : specs_to_run()) {
    CAPTURE(spec.name);
    games_logged.insert(spec.game);
    const auto file = read_file(spec.name);
    if (!mode.empty()) {
      const GameLog log = mode == "fresh" || !file ? play_fresh(spec) : log_from(spec.name, *file);
      const Replay replayed = replay(log);
      if (file && mode != "fresh") require_snapshot_format_bumped(replayed, *file);
      write_file(log, replayed);
      std::string endings;
      for (const auto& ending : replayed.endings) endings += " " + ending;
      MESSAGE("recorded " << path_of(spec.name) << ": " << log.steps.size() << " steps; deals ended:" << endings
                          << "; unpaid named " << replayed.unpaid << " times");
      continue;
    }
    REQUIRE_MESSAGE(file.has_value(), "missing " << path_of(spec.name) << ": record it with PARLOUR_RECORD_GOLDEN=1");
    const GameLog log = log_from(spec.name, *file);
    const Replay replayed = replay(log);
    const auto& expected = file->at("checkpoints");
    REQUIRE(replayed.checkpoints.size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      INFO("the state differs by step " << expected[i]["step"] << " of " << log.steps.size()
                                        << " (the first checkpoint that differs; PARLOUR_RECORD_GOLDEN=1 re-records "
                                           "an intended change)");
      REQUIRE(replayed.checkpoints[i] == expected[i]);
    }
    CHECK(Json(replayed.snapshots) == file->at("snapshots"));
    require_snapshot_format_bumped(replayed, *file);
    INFO("the snapshot format was bumped: re-record with PARLOUR_RECORD_GOLDEN=1");
    CHECK(file->value("snapshot_format", Json()) == snapshot_stamp(replayed));
  }
  // Every registered game has a log.
  for (const auto& info : Registry::builtin().all()) {
    CAPTURE(info.id);
    CHECK(games_logged.count(info.id) == 1);
  }
}

}  // namespace unity_test_golden_replay
