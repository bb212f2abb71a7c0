// libFuzzer target: every game's action decoding and apply, from mid-game states.
//
// Playing each input's game from its start cost ~17 ms under ASan, so at start-up
// (LLVMFuzzerInitialize) this plays a few seeded games of random legal actions per
// game and keeps copies of their states at random points: the snapshots. An input
// then works on a copy of one snapshot:
//
//   byte 0   the game (its index in the registry; ignored when PARLOUR_FUZZ_GAME
//            names one game, as scripts/fuzz.sh's long mode does per game)
//   byte 1   the snapshot of that game
//   then up to kMaxSteps steps, each a byte saying what comes:
//     listed   a seat to act plays one of its listed actions, picked by index
//              (numbers in range drawn from the input): it must be accepted
//     mutated  a listed action with a field changed, added or made up
//     raw      any JSON text the input spells, as a client may send it
//     leave    a seat's player leaves the table for good
//     spend    a seat's player spends chips at another table
//   and at the end, maybe the table closes.
//
// Checked at every input: no call throws anything but a RulesError from apply;
// chips are conserved and never negative; someone is to act while the game is
// playing; a listed action picked is accepted.
//
// Checked at a thorough input, 1 in kThoroughOneIn (by a hash of the whole input,
// so that most of a thorough input's mutants are not): an action refused leaves
// the whole state as it was, hidden parts included (its snapshot unchanged);
// the cards in play stay the same within a deal (in games whose views account
// for all their cards, found out at start-up); and the state it ends on has an
// action for every seat to act, and a spectator's view and one seat's (its
// choice) that follow the schema and show no other player's hidden cards
// (tests/rules/view_checks.h, as the rules tests check).
//
// Lists of legal actions are written as text, as the server writes them, and an
// action is parsed from it when an input picks one; at a thorough input the text
// is compared with the list's tree.
//
// Building views and lists of legal actions is nearly all of a run's cost (a
// face-up game of twenty players has twenty-one views). Checked at every input,
// the fuzzer ran at 44-580 executions a second under ASan; chosen by a byte of
// the input, libFuzzer kept the checking inputs for the coverage the views'
// code gives and bred from them, and it ran hardly faster. The rules tests
// check every view of thousands of seeded random games besides.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rules/json_writer.h"
#include "rules/random_play.h"
#include "rules/registry.h"
#include "rules/snapshot.h"
#include "tests/rules/view_checks.h"

namespace rules = parlour::rules;
namespace test = parlour::test;
using rules::Json;

namespace {

constexpr int kMaxSteps = 8;               // steps an input takes from its snapshot
constexpr std::uint32_t kThoroughOneIn = 16;  // inputs checked thoroughly: 1 in this
constexpr int kGamesPerSnapshotSet = 12;   // seeded games played per game at start-up
constexpr int kSnapshotsPerGame = 6;       // states kept from each of those games
constexpr int kMaxPreparationSteps = 600;  // steps into a game a snapshot may be taken

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
  // Raw bytes, for JSON texts to parse: a length byte, then the text.
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

std::uint32_t fnv1a(const std::uint8_t* data, std::size_t size) {
  std::uint32_t hash = 2166136261u;
  for (std::size_t i = 0; i < size; ++i) hash = (hash ^ data[i]) * 16777619u;
  return hash;
}

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_games: %s\n", what.c_str());
  std::abort();
}

Json random_options(const rules::GameInfo& info, rules::Rng& rng) {
  Json options = Json::object();
  for (const auto& spec : info.options) {
    if (rng.below(3) != 0) continue;  // mostly defaults
    if (spec.type == rules::OptionSpec::Type::boolean) options[spec.name] = rng.below(2) == 0;
    else if (!spec.choices.empty()) options[spec.name] = spec.choices[rng.below(spec.choices.size())];
  }
  // Games without a natural end stop after a few deals.
  for (const auto& spec : info.options)
    if (spec.name == "deals") options["deals"] = 1 + rng.below(3);
  return options;
}

// A move the input makes up: a listed action with one field changed, a field
// added, or a type made up.
Json mutated(Json action, Input& in) {
  switch (in.byte() % 4) {
    case 0: action["extra"] = in.text(8); return action;
    case 1: action["type"] = in.text(8); return action;
    default: break;
  }
  if (!action.is_object() || action.size() < 2) return action;
  auto field = action.begin();
  std::advance(field, 1 + in.byte() % (action.size() - 1));
  if (field.key() == "type") return action;
  switch (in.byte() % 7) {
    case 0: *field = static_cast<std::int64_t>(in.u64()); break;
    case 1: *field = in.text(4); break;
    case 2: *field = Json::array({in.text(3), in.text(3)}); break;
    case 3: *field = nullptr; break;
    case 4: *field = -static_cast<std::int64_t>(in.byte()); break;
    case 5:
      if (field->is_array() && !field->empty()) field->erase(in.byte() % field->size());
      break;
    default: *field = Json::object(); break;
  }
  return action;
}

// A seat's legal actions as the server writes them: text (a JSON tree cost most
// of a Rummy input under ASan), split into its elements, one parsed when an
// input picks it.
class Listed {
 public:
  Listed(const rules::GameState& game, int seat, const rules::Balances& chips) {
    rules::JsonText out;
    game.write_legal_actions(seat, chips, out);
    text_ = out.take();
    split();
  }
  bool empty() const { return items_.empty(); }
  std::size_t size() const { return items_.size(); }
  Json at(std::size_t i) const { return Json::parse(items_.at(i)); }
  const std::string& text() const { return text_; }

 private:
  // The array's elements: at depth one, outside strings, between commas.
  void split() {
    if (text_.size() < 2 || text_.front() != '[' || text_.back() != ']') fail("a legal list is not an array: " + text_);
    int depth = 0;
    bool in_string = false;
    std::size_t start = 1;
    for (std::size_t i = 1; i + 1 < text_.size(); ++i) {
      const char c = text_[i];
      if (in_string) {
        if (c == '\\') ++i;
        else if (c == '"') in_string = false;
        continue;
      }
      if (c == '"') in_string = true;
      else if (c == '{' || c == '[') ++depth;
      else if (c == '}' || c == ']') --depth;
      else if (c == ',' && depth == 0) {
        items_.push_back(std::string_view(text_).substr(start, i - start));
        start = i + 1;
      }
    }
    if (start + 1 < text_.size()) items_.push_back(std::string_view(text_).substr(start, text_.size() - 1 - start));
  }

  std::string text_;
  std::vector<std::string_view> items_;
};

// A game at a table: its state, every seat's chips and every pool's, and what
// must stay constant.
struct Table {
  const rules::GameInfo* info = nullptr;
  std::unique_ptr<rules::GameState> game;
  rules::Balances chips;
  std::map<std::string, std::int64_t> pools;
  std::int64_t total = 0;
  std::vector<bool> left;
  std::optional<std::size_t> deal_cards;  // cards in play this deal, where the game's views count them all
  bool touched = false;                   // the state changed since it was copied
  // The last seat's list of legal actions, while neither the state nor the chips
  // changed: a refused action changes nothing (checked at thorough inputs), so
  // the steps after it would list the same actions again. Shared by copies: an
  // input starts from a copy of a snapshot, whose list is made once.
  mutable int listed_seat = -1;
  mutable std::shared_ptr<const Listed> listed;

  Table() = default;
  Table(const Table& other)
      : info(other.info), game(other.game->clone()), chips(other.chips), pools(other.pools), total(other.total),
        left(other.left), deal_cards(other.deal_cards), listed_seat(other.listed_seat), listed(other.listed) {}
  Table(Table&&) = default;
  Table& operator=(Table&&) = default;
  Table& operator=(const Table& other) { return *this = Table(other); }

  int players() const { return static_cast<int>(chips.size()); }

  const Listed& legal_actions(int seat) const {
    if (!listed || listed_seat != seat) {
      listed = std::make_shared<const Listed>(*game, seat, chips);
      listed_seat = seat;
    }
    return *listed;
  }
  // The state or the chips changed: what was listed may no longer hold.
  void forget_listed() { listed.reset(); }
  std::string where() const { return info->id + " (deal " + std::to_string(game->deals_played()) + ")"; }

  void record(const rules::Effects& effects) {
    forget_listed();
    for (const auto& t : effects.transfers) {
      if (t.amount <= 0) fail(where() + ": a transfer of " + std::to_string(t.amount));
      auto& from = t.from.is_seat() ? chips.at(t.from.seat) : pools[t.from.pool];
      auto& to = t.to.is_seat() ? chips.at(t.to.seat) : pools[t.to.pool];
      from -= t.amount;
      to += t.amount;
      if (t.from.is_seat() && from < 0) fail(where() + ": seat " + std::to_string(t.from.seat) + " went below zero");
    }
    std::int64_t sum = 0;
    for (auto c : chips) sum += c;
    for (const auto& [name, amount] : pools) sum += amount;
    if (sum != total) fail(where() + ": chips not conserved");
  }

  std::size_t cards_in_play() const { return test::cards_in_play(game->view(std::nullopt)); }

  // The spectator's view and the seats' views (all of them, or the one given)
  // follow the schema, and none shows what its seat may not see.
  void check_views(std::optional<int> only_seat = std::nullopt) const {
    const auto to_act = game->to_act();
    const Json spectator = game->view(std::nullopt);
    const bool face_up = test::hands_face_up_by_rule.count(info->id) > 0;
    auto problems = test::schema_problems(spectator, *info, players(), to_act);
    // Each seat's own entry, from its own view (a seat not checked counts as
    // holding what the spectator sees of it).
    std::vector<Json> own_entries(spectator["seats"].begin(), spectator["seats"].end());
    for (int seat = 0; seat < players() && problems.empty(); ++seat) {
      if (only_seat && seat != *only_seat) continue;
      const Json view = game->view(seat);
      problems = test::schema_problems(view, *info, players(), to_act);
      for (auto& leak : test::leaks(view, spectator, seat))
        problems.push_back("seat " + std::to_string(seat) + " sees more than a spectator: " + leak);
      own_entries[seat] = view["seats"][seat];
    }
    if (problems.empty()) problems = test::hidden_hand_problems(spectator, own_entries, face_up);
    if (!problems.empty()) fail(where() + ": " + Json(problems).dump() + "\n" + spectator.dump());
  }

  // The check after every change of state. The rest cost views or lists of
  // legal actions, most of a run's cost: the cards are checked when a deal ends,
  // and everything after the last step of the inputs that ask (finished()); a
  // listed action is asked for at every step that plays one, and must exist.
  void changed() {
    touched = true;
    forget_listed();
    if (game->phase() == rules::Phase::playing && game->to_act().empty())
      fail(where() + ": nobody to act while playing");
  }

  // Every seat to act has an action, and its list as text is its list as a tree.
  void check_seats_to_act_can() const {
    if (game->phase() != rules::Phase::playing) return;
    for (int seat : game->to_act()) {
      const auto& legal = legal_actions(seat);
      if (legal.empty()) fail(where() + ": seat " + std::to_string(seat) + " to act has no action");
      if (legal.text() != game->legal_actions(seat, chips).dump())
        fail(where() + ": seat " + std::to_string(seat) + "'s legal list as text differs from its tree: " + legal.text());
    }
  }

  void check_cards() const {
    if (deal_cards && cards_in_play() != *deal_cards)
      fail(where() + ": " + std::to_string(*deal_cards) + " cards in play became " + std::to_string(cards_in_play()));
  }

  // `thorough`: whether the input is a thorough one (counting the cards costs a view).
  void next_deal(bool thorough) {
    if (thorough) check_cards();
    record(game->start_next_deal(chips));
    if (deal_cards) deal_cards = thorough ? std::optional(cards_in_play()) : std::nullopt;
    changed();
  }

  // The state an input reached, when it is not the snapshot's (checked at
  // start-up): every seat to act has an action, its cards, and the spectator's
  // view and one seat's, the input's choice (every seat's at start-up).
  void finished(int seat) const {
    if (!touched) return;
    check_seats_to_act_can();
    check_cards();
    check_views(seat);
  }
};

// ---- start-up: the snapshots

struct GameSnapshots {
  const rules::GameInfo* info;
  std::vector<Table> tables;
};

std::vector<GameSnapshots> snapshots;
std::optional<std::size_t> only_game;  // PARLOUR_FUZZ_GAME

// A table of the game as a seeded random table would be set: options, players, chips.
std::optional<Table> seeded_table(const rules::GameInfo& info, rules::Rng& rng) {
  Table table;
  table.info = &info;
  try {
    const Json options = rules::Registry::validate_options(info, random_options(info, rng));
    const int most = info.max_players_with(options);
    const int players = info.min_players + static_cast<int>(rng.below(most - info.min_players + 1));
    const std::int64_t stake = 1 + static_cast<std::int64_t>(rng.below(rng.below(2) == 0 ? 30 : 500));
    table.chips.assign(players, stake);
    table.total = stake * players;
    table.left.assign(players, false);
    table.game = rules::Registry::create(info, rules::GameSetup{options, players, rng.next(), std::nullopt, table.chips});
    table.record(table.game->start_next_deal(table.chips));
  } catch (const rules::SetupError&) {
    return std::nullopt;  // a combination the game refuses
  }
  return table;
}

// Whether the game's views account for every card of a deal: the count stays the
// same through every step of legal play in the seeded games.
bool counts_every_card(const std::vector<std::vector<std::size_t>>& counts_per_deal) {
  for (const auto& deal : counts_per_deal)
    for (auto count : deal)
      if (count != deal.front()) return false;
  return true;
}

GameSnapshots prepare(const rules::GameInfo& info, std::uint64_t seed) {
  GameSnapshots out{&info, {}};
  rules::Rng rng(seed);
  std::vector<std::vector<std::size_t>> counts_per_deal;
  std::vector<std::string> seen_when_kept;  // each snapshot's public view when it was taken
  for (int g = 0; g < kGamesPerSnapshotSet; ++g) {
    auto table = seeded_table(info, rng);
    if (!table) continue;
    // A uniform sample of the game's states (reservoir sampling: its length is not known ahead).
    std::vector<Table> kept;
    std::vector<std::string> seen;
    counts_per_deal.push_back({table->cards_in_play()});
    for (int step = 0; step < kMaxPreparationSteps && table->game->phase() != rules::Phase::game_over; ++step) {
      const auto slot = step < kSnapshotsPerGame ? step : rng.below(step + 1);
      if (slot < kSnapshotsPerGame) {
        if (slot == kept.size()) kept.push_back(*table), seen.push_back({});
        else kept[slot] = *table;
        seen[slot] = table->game->view(std::nullopt).dump();
      }
      if (table->game->phase() == rules::Phase::deal_over) {
        table->record(table->game->start_next_deal(table->chips));
        counts_per_deal.push_back({table->cards_in_play()});
        continue;
      }
      const auto acting = table->game->to_act();
      if (acting.empty()) fail(table->where() + ": nobody to act while playing");
      const int seat = acting[rng.below(acting.size())];
      const Json legal = table->game->legal_actions(seat, table->chips);
      if (legal.empty()) fail(table->where() + ": seat " + std::to_string(seat) + " to act has no action");
      table->record(table->game->apply(seat, rules::random_legal_action(legal, rng), table->chips));
      counts_per_deal.back().push_back(table->cards_in_play());
    }
    for (std::size_t i = 0; i < kept.size(); ++i) {
      out.tables.push_back(kept[i]);
      seen_when_kept.push_back(seen[i]);
    }
  }
  if (out.tables.empty()) fail(info.id + ": no snapshot could be taken");
  // A copy goes its own way: playing on from the original changed none of them.
  for (std::size_t i = 0; i < out.tables.size(); ++i)
    if (out.tables[i].game->view(std::nullopt).dump() != seen_when_kept[i])
      fail(info.id + ": a copy of a state changed when the original played on");
  const bool cards_counted = counts_every_card(counts_per_deal);
  for (auto& table : out.tables) {
    if (cards_counted) table.deal_cards = table.cards_in_play();
    table.check_views();
    table.check_seats_to_act_can();
    // Listed once here, the list most inputs' first step reads.
    if (table.game->phase() == rules::Phase::playing) table.legal_actions(table.game->to_act().front());
  }
  std::fprintf(stderr, "fuzz_games: %s: %zu snapshots%s\n", info.id.c_str(), out.tables.size(),
               cards_counted ? ", cards counted" : " (its views do not count every card: no card check)");
  return out;
}

// ---- one input

// A seat to act plays a listed action, picked by index, its numbers drawn from the input.
void play_listed(Table& table, Input& in) {
  const auto acting = table.game->to_act();
  if (acting.empty()) fail(table.where() + ": nobody to act while playing");
  const int seat = acting[in.byte() % acting.size()];
  const auto& legal = table.legal_actions(seat);
  if (legal.empty()) fail(table.where() + ": seat " + std::to_string(seat) + " to act has no action");
  rules::Rng numbers(in.byte());
  const Json action = rules::with_numbers_drawn(legal.at(in.byte() % legal.size()), numbers);
  try {
    table.record(table.game->apply(seat, action, table.chips));
  } catch (const rules::RulesError& e) {
    fail(table.where() + ": listed action " + action.dump() + " refused: " + e.what());
  }
  table.changed();
}

// The first difference between two snapshots of a state (GameState::snapshot),
// by JSON pointer; empty when they are the same.
std::string snapshot_difference(const Json& before, const Json& after) {
  if (before == after) return {};
  const Json patch = Json::diff(before, after);
  return "its snapshot differs: " + patch.front().dump();
}

// An action that may be refused: refused, it must change nothing, hidden parts
// included (checked at a thorough input): the snapshot of the whole state
// (GameState::snapshot: hidden cards and random streams included) taken before
// equals the one after. Equal snapshots are the same state, so this is the whole
// check, at the cost of two snapshots (comparing every seat's views and lists,
// played on for some steps, cost most of a run before games wrote snapshots).
void try_action(Table& table, int actor, const Json& action, bool compare) {
  const Json before = compare ? table.game->snapshot() : Json();
  try {
    table.record(table.game->apply(actor, action, table.chips));
  } catch (const rules::RulesError&) {
    if (!compare) return;
    if (const auto problem = snapshot_difference(before, table.game->snapshot()); !problem.empty())
      fail(table.where() + ": refused action " + action.dump() + " by seat " + std::to_string(actor) +
           " changed the state: " + problem);
    return;
  }
  table.changed();
}

int some_seat(const Table& table, Input& in) {
  const auto acting = table.game->to_act();
  const int seat = acting.empty() || in.byte() % 4 == 0 ? in.byte() % table.players() : acting[in.byte() % acting.size()];
  return seat;
}

void step(Table& table, Input& in, bool thorough) {
  switch (in.byte() % 8) {
    case 0: case 1: case 2:
      play_listed(table, in);
      return;
    case 3: case 4: {
      const int actor = some_seat(table, in);
      const auto& legal = table.legal_actions(actor);
      try_action(table, actor, mutated(legal.empty() ? Json{{"type", "pass"}} : legal.at(in.byte() % legal.size()), in),
                 thorough);
      return;
    }
    case 5: {
      const int actor = some_seat(table, in);
      try_action(table, actor, Json::parse(in.bytes(200), nullptr, false), thorough);
      return;
    }
    case 6: {
      const int seat = in.byte() % table.players();
      if (table.left[seat]) return;
      table.left[seat] = true;
      table.record(table.game->seat_left(seat, table.chips));
      table.changed();
      return;
    }
    default: {
      const int seat = in.byte() % table.players();
      const std::int64_t spent = std::min<std::int64_t>(table.chips[seat], 1 + in.byte() % 50);
      table.chips[seat] -= spent;
      table.total -= spent;
      table.forget_listed();
      return;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const auto& games = rules::Registry::builtin().all();
  const char* wanted = std::getenv("PARLOUR_FUZZ_GAME");
  if (wanted && std::string(wanted) == "list") {  // for scripts/fuzz.sh's long mode
    for (const auto& info : games) std::printf("%s\n", info.id.c_str());
    std::exit(0);
  }
  if (wanted && *wanted) {
    const auto* info = rules::Registry::builtin().find(wanted);
    if (!info) fail(std::string("PARLOUR_FUZZ_GAME names no game: ") + wanted);
    only_game = static_cast<std::size_t>(info - games.data());
  }
  for (std::size_t g = 0; g < games.size(); ++g)
    snapshots.push_back(!only_game || *only_game == g ? prepare(games[g], 1000 + g) : GameSnapshots{&games[g], {}});
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  const std::size_t g = in.byte() % snapshots.size();
  const auto& kept = snapshots[only_game.value_or(g)].tables;
  Table table(kept[in.byte() % kept.size()]);
  const bool thorough = fnv1a(data, size) % kThoroughOneIn == 0;
  for (int steps = 0; steps < kMaxSteps && !in.empty(); ++steps) {
    if (table.game->phase() == rules::Phase::game_over) break;
    if (table.game->phase() == rules::Phase::deal_over) table.next_deal(thorough);
    else step(table, in, thorough);
  }
  const int seat = in.byte() % table.players();
  if (thorough) table.finished(seat);
  if (in.byte() % 4 == 0 && table.game->phase() != rules::Phase::game_over) table.record(table.game->close(table.chips));
  return 0;
}
