// libFuzzer target: every game's action decoding and apply. The input picks a
// game, its options, the player count and the seed, then a stream of moves:
// most are entries of `legal` (which must be accepted), the rest are actions
// mutated or made up from the input (which must be accepted or refused with a
// RulesError that changes nothing). Checked all along: chips are conserved and
// never negative, and no call throws anything but a RulesError from apply.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "rules/random_play.h"
#include "rules/registry.h"

namespace rules = parlour::rules;
using rules::Json;

namespace {

class Input {
 public:
  Input(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  bool empty() const { return at_ >= size_; }
  std::uint8_t byte() { return at_ < size_ ? data_[at_++] : 0; }
  std::uint64_t u64() {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = (v << 8) | byte();
    return v;
  }
  // Raw bytes, for JSON texts to parse.
  std::string bytes(std::size_t max) {
    const std::size_t n = std::min<std::size_t>(byte() % (max + 1), size_ - std::min(at_, size_));
    std::string out(reinterpret_cast<const char*>(data_ + at_), n);
    at_ += n;
    return out;
  }
  // A string as the wire can carry it (parsed JSON is always valid UTF-8): card-ish
  // letters and digits, and now and then a character beyond ASCII.
  std::string text(std::size_t max) {
    static const char* const pieces[] = {"A", "K", "Q", "J", "T", "9", "2", "S", "H", "D", "C", "=", "??", "JK",
                                         "-", "0", "x", "é", "♠", " ", "stock", "discard", "hand"};
    std::string out;
    for (std::size_t n = byte() % (max + 1); n > 0; --n) out += pieces[byte() % std::size(pieces)];
    return out;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_games: %s\n", what.c_str());
  std::abort();
}

Json random_options(const rules::GameInfo& info, Input& in) {
  Json options = Json::object();
  for (const auto& spec : info.options) {
    const auto pick = in.byte();
    if (pick % 3 != 0) continue;  // mostly defaults
    if (spec.type == rules::OptionSpec::Type::boolean) options[spec.name] = (pick & 8) != 0;
    else if (!spec.choices.empty()) options[spec.name] = spec.choices[in.byte() % spec.choices.size()];
  }
  // Games without a natural end stop after a few deals.
  for (const auto& spec : info.options)
    if (spec.name == "deals") options["deals"] = 1 + in.byte() % 3;
  return options;
}

// A move the input makes up: a listed action with one field changed, a field
// added, or any JSON the input spells.
Json mutated(Json action, Input& in) {
  switch (in.byte() % 5) {
    case 0: return Json::parse(in.bytes(64), nullptr, false);
    case 1: action["extra"] = in.text(8); return action;
    case 2: action["type"] = in.text(8); return action;
    default: break;
  }
  if (!action.is_object() || action.size() < 2) return action;
  auto field = action.begin();
  std::advance(field, 1 + in.byte() % (action.size() - 1));
  if (field.key() == "type") return action;
  switch (in.byte() % 6) {
    case 0: *field = static_cast<std::int64_t>(in.u64()); break;
    case 1: *field = in.text(4); break;
    case 2: *field = Json::array({in.text(3), in.text(3)}); break;
    case 3: *field = nullptr; break;
    case 4: *field = -static_cast<std::int64_t>(in.byte()); break;
    default: *field = Json::object(); break;
  }
  return action;
}

struct Table {
  std::unique_ptr<rules::GameState> game;
  rules::Balances chips;
  std::map<std::string, std::int64_t> pools;
  std::int64_t total = 0;

  void record(const rules::Effects& effects) {
    for (const auto& t : effects.transfers) {
      if (t.amount <= 0) fail("a transfer of " + std::to_string(t.amount));
      auto& from = t.from.is_seat() ? chips.at(t.from.seat) : pools[t.from.pool];
      auto& to = t.to.is_seat() ? chips.at(t.to.seat) : pools[t.to.pool];
      from -= t.amount;
      to += t.amount;
      if (t.from.is_seat() && from < 0) fail("seat " + std::to_string(t.from.seat) + " went below zero");
    }
    std::int64_t sum = 0;
    for (auto c : chips) sum += c;
    for (const auto& [name, amount] : pools) sum += amount;
    if (sum != total) fail("chips not conserved");
  }

  // What a refused action must leave as it was: the actor's view and choices,
  // the public view and the result.
  std::string snapshot(int seat) const {
    return game->view(seat).dump() + game->legal_actions(seat, chips).dump() + game->view(std::nullopt).dump() +
           game->result().dump();
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  const auto& games = rules::Registry::builtin().all();
  const auto& info = games[in.byte() % games.size()];
  Json options;
  try {
    options = rules::Registry::validate_options(info, random_options(info, in));
  } catch (const rules::SetupError&) {
    return 0;  // a combination the game refuses
  }
  const int most = info.max_players_with(options);
  const int players = info.min_players + in.byte() % (most - info.min_players + 1);
  const std::int64_t stake = 1 + in.byte() % 200;
  Table table;
  table.chips.assign(players, stake);
  table.total = stake * players;
  rules::Rng rng(in.u64());
  try {
    table.game = rules::Registry::create(info, rules::GameSetup{options, players, in.u64(), std::nullopt, table.chips});
    table.record(table.game->start_next_deal(table.chips));
  } catch (const rules::SetupError&) {
    return 0;
  }
  // A deal or two of most games: each run stays short (the fuzzer goes deeper by
  // keeping inputs that reach new states, not by long runs).
  for (int step = 0; step < 120 && !in.empty(); ++step) {
    const auto phase = table.game->phase();
    if (phase == rules::Phase::game_over) break;
    if (phase == rules::Phase::deal_over) {
      table.record(table.game->start_next_deal(table.chips));
      continue;
    }
    const auto acting = table.game->to_act();
    if (acting.empty()) fail(info.id + ": nobody to act while playing");
    const int seat = acting[in.byte() % acting.size()];
    const Json legal = table.game->legal_actions(seat, table.chips);
    const auto how = in.byte();
    if (how % 4 != 0 && !legal.empty()) {
      const Json action = rules::random_legal_action(legal, rng);
      try {
        table.record(table.game->apply(seat, action, table.chips));
      } catch (const rules::RulesError& e) {
        fail(info.id + ": listed action " + action.dump() + " refused: " + e.what());
      }
      continue;
    }
    const Json action = mutated(legal.empty() ? Json{{"type", "pass"}} : legal[in.byte() % legal.size()], in);
    const int actor = in.byte() % 4 == 0 ? (seat + 1) % players : seat;
    // Comparing before and after is most of a run's cost: done for one refusal in three.
    const bool compare = in.byte() % 3 == 0;
    const auto before = compare ? table.snapshot(actor) : std::string();
    try {
      table.record(table.game->apply(actor, action, table.chips));
    } catch (const rules::RulesError&) {
      if (compare && table.snapshot(actor) != before)
        fail(info.id + ": refused action " + action.dump() + " changed the state");
    }
  }
  if (in.byte() % 2 == 0 && table.game->phase() != rules::Phase::game_over) table.record(table.game->close(table.chips));
  return 0;
}
