// The table core without a network: commands in, frames, writes and timers out.
// A tiny scripted game stands in for the real ones where a test needs a game to
// misbehave (throw, deal empty deals, leave nobody able to act); Red Dog is used
// where real rules matter.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>

#include "rules/registry.h"
#include "rules/fair.h"
#include "server/history/history.h"
#include "server/table/table_core.h"
#include "tests/server/table_bench.h"

using namespace parlour::server;
using parlour::server::test::Bench;
using parlour::rules::Json;
namespace rules = parlour::rules;
namespace storage = parlour::storage;

namespace {

// Options: "throw_at_act" (throw a std::runtime_error on that many-th act),
// "nobody_acts" (to_act names a seat with nothing to do), "empty_deals" (every
// deal ends at once), "scored" (the seat whose tap ends a deal takes the pot and
// 5 points; the result then has seats' chips and points, and running scores),
// "table_melds" (the result has a meld the table owns: result_with_table_melds).
// Each act moves 1 chip from the actor to the pool "pot".
class ScriptedGame final : public rules::GameState {
 public:
  explicit ScriptedGame(const rules::GameSetup& setup) : options_(setup.options), players_(setup.players) {}
  std::unique_ptr<rules::GameState> clone() const override { return std::make_unique<ScriptedGame>(*this); }
  rules::Phase phase() const override { return phase_; }
  std::vector<int> to_act() const override {
    if (phase_ != rules::Phase::playing) return {};
    return {turn_};
  }
  void write_legal_actions(int seat, const rules::Balances&, rules::JsonWriter& out) const override {
    if (phase_ != rules::Phase::playing || seat != turn_ || options_.value("nobody_acts", false)) return out.json(Json::array());
    out.json(Json::array({{{"type", "tap"}}}));
  }
  rules::Effects apply(int seat, const Json& action, const rules::Balances&) override {
    if (phase_ != rules::Phase::playing || seat != turn_) throw rules::not_your_turn("not your turn");
    if (action.value("type", "") != "tap") throw rules::illegal_action("expected tap");
    if (++acts_ == options_.value("throw_at_act", 0)) throw std::runtime_error("the scripted game breaks");
    rules::Effects fx;
    fx.move(rules::Account::of_seat(seat), rules::Account::of_pool("pot"), 1, "tap");
    fx.say("tap " + std::to_string(acts_));
    pot_ += 1;
    deal_chips_[seat] -= 1;
    turn_ = (turn_ + 1) % players_;
    if (acts_ % 2 == 0) {
      settle();
      if (options_.value("scored", false)) {
        fx.move(rules::Account::of_pool("pot"), rules::Account::of_seat(seat), pot_, "the last tap takes the pot");
        deal_chips_[seat] += pot_;
        pot_ = 0;
        winner_ = seat;
        scores_[seat] += 5;
      }
    }
    return fx;
  }
  rules::Effects start_next_deal(const rules::Balances&) override {
    ++deals_;
    deal_chips_.assign(players_, 0);
    if (scores_.size() != static_cast<std::size_t>(players_)) scores_.assign(players_, 0);
    winner_ = -1;
    phase_ = rules::Phase::playing;
    if (options_.value("empty_deals", false)) settle();
    return {};
  }
  rules::Effects seat_left(int, const rules::Balances&) override { return {}; }
  rules::Effects close(const rules::Balances&) override {
    rules::Effects fx;
    for (int seat = 0; seat < players_ && pot_ > 0; ++seat) {
      fx.move(rules::Account::of_pool("pot"), rules::Account::of_seat(seat), pot_, "pot back");
      pot_ = 0;
    }
    phase_ = rules::Phase::game_over;
    return fx;
  }
  void write_view(std::optional<int>, rules::JsonWriter& out) const override { out.json({{"deal", deals_}, {"pot", pot_}}); }
  Json result() const override {
    if (deals_ == 0 || phase_ == rules::Phase::playing) return Json();
    if (options_.value("table_melds", false)) return Json{{"deal", deals_}, {"melds", {{{"meld", 0}, {"owner", 0}, {"cards", {"AS"}}}}}};
    if (!options_.value("scored", false)) return Json{{"deal", deals_}};
    Json seats = Json::array();
    for (int seat = 0; seat < players_; ++seat)
      seats.push_back({{"seat", seat}, {"chips", deal_chips_[seat]}, {"points", seat == winner_ ? 5 : 0}});
    return {{"deal", deals_}, {"seats", seats}, {"scores", scores_}};
  }
  int deals_played() const override { return deals_; }
  Json result_with_table_melds() const override {
    auto shown = result();
    if (shown.contains("melds")) shown["melds"][0]["owner"] = nullptr;
    return shown;
  }
  Json snapshot() const override {
    return {{"phase", static_cast<int>(phase_)}, {"turn", turn_}, {"acts", acts_}, {"deals", deals_}, {"pot", pot_},
            {"deal_chips", deal_chips_}, {"scores", scores_}, {"winner", winner_}};
  }
  void restore(const Json& snapshot) override {
    phase_ = static_cast<rules::Phase>(snapshot.at("phase").get<int>());
    turn_ = snapshot.at("turn").get<int>();
    acts_ = snapshot.at("acts").get<int>();
    deals_ = snapshot.at("deals").get<int>();
    pot_ = snapshot.at("pot").get<std::int64_t>();
    deal_chips_ = snapshot.at("deal_chips").get<std::vector<std::int64_t>>();
    scores_ = snapshot.at("scores").get<std::vector<int>>();
    winner_ = snapshot.at("winner").get<int>();
  }

 private:
  void settle() { phase_ = rules::Phase::deal_over; }

  Json options_;
  int players_;
  rules::Phase phase_ = rules::Phase::deal_over;
  int turn_ = 0;
  int acts_ = 0;
  int deals_ = 0;
  std::int64_t pot_ = 0;
  std::vector<std::int64_t> deal_chips_ = std::vector<std::int64_t>(4, 0);
  std::vector<int> scores_ = std::vector<int>(4, 0);
  int winner_ = -1;
};

rules::GameInfo scripted_info() {
  rules::GameInfo info;
  info.id = "scripted";
  info.name = "Scripted";
  info.min_players = 2;
  info.max_players = 4;
  info.options = {
      {"throw_at_act", rules::OptionSpec::Type::integer, 0, {}, 0, 100, ""},
      {"nobody_acts", rules::OptionSpec::Type::boolean, false, {}, std::nullopt, std::nullopt, ""},
      {"empty_deals", rules::OptionSpec::Type::boolean, false, {}, std::nullopt, std::nullopt, ""},
      {"scored", rules::OptionSpec::Type::boolean, false, {}, std::nullopt, std::nullopt, ""},
      {"table_melds", rules::OptionSpec::Type::boolean, false, {}, std::nullopt, std::nullopt, ""},
  };
  info.create = [](const rules::GameSetup& setup) -> std::unique_ptr<rules::GameState> {
    return std::make_unique<ScriptedGame>(setup);
  };
  return info;
}

// A bot named the new way: "bot-", 16 hex digits, "-SEAT"; nothing of its table's id.
bool is_new_bot_name(const std::string& name, int seat) {
  const std::string prefix = "bot-", suffix = "-" + std::to_string(seat);
  if (name.size() != prefix.size() + 16 + suffix.size()) return false;
  if (name.rfind(prefix, 0) != 0 || name.substr(name.size() - suffix.size()) != suffix) return false;
  const auto id = name.substr(prefix.size(), 16);
  return id.find_first_not_of("0123456789abcdef") == std::string::npos;
}

}  // namespace

TEST_CASE("a step is answered only once its write has committed, and the log replays to the same state") {
  Bench bench(scripted_info());
  bench.seat_and_start();
  bench.tap(bench.ann());
  CHECK(bench.last(1)["type"] == "state");
  CHECK(bench.core->seq() == 2);
  CHECK(bench.chips("player:ann") == 99);
  CHECK(bench.chips("pool:t1:pot") == 1);
  const auto before = bench.last_state(1);
  bench.restart();
  bench.run(bench.core->watch(bench.ann()));
  auto after = bench.last_state(1);
  CHECK(after["view"] == before["view"]);
  CHECK(after["seq"] == before["seq"]);
}

TEST_CASE("an exception in a step fails that table alone: stopped with its reason, pools shared out, all told") {
  Bench bench(scripted_info(), {{"throw_at_act", 2}}, 3);
  bench.run(bench.core->join(bench.ann(), 0));
  bench.run(bench.core->join(bench.bob(), 1));
  bench.run(bench.core->join(bench.cat(), 2));
  bench.run(bench.core->start(bench.ann()));
  bench.tap(bench.ann());
  CHECK(bench.chips("pool:t1:pot") == 1);
  // The actor's barrier: the step throws, then the core is asked to fail.
  CHECK_THROWS_AS(bench.core->act(bench.bob(), {{"type", "tap"}}, std::nullopt), std::runtime_error);
  bench.run(bench.core->fail("a request failed: the scripted game breaks"));
  CHECK(bench.core->failed());
  CHECK(bench.core->status() == "finished");
  const auto& write = bench.writes.back();
  REQUIRE(write.failure);
  CHECK(write.failure->find("scripted game breaks") != std::string::npos);
  CHECK(write.status == "finished");
  // The pot's one chip goes to seat 0 (the odd chip from seat 0): nothing is stranded.
  CHECK(bench.chips("pool:t1:pot") == 0);
  CHECK(bench.chips("player:ann") == 100);
  CHECK(bench.chips("player:ann") + bench.chips("player:bob") + bench.chips("player:cat") == 300);
  const auto told = bench.last_state(2);
  CHECK(told["status"] == "finished");
  CHECK(told["failure"].get<std::string>().find("breaks") != std::string::npos);
  CHECK(told["legal"].empty());
  // Later requests are answered, never applied.
  bench.tap(bench.cat());
  CHECK(bench.last(3)["code"] == "conflict");
}

TEST_CASE("a log that cannot be replayed throws ReplayError, and the quarantined table fails cleanly") {
  Bench bench(scripted_info());
  bench.seat_and_start();
  bench.tap(bench.ann());
  auto events = bench.events;
  events.push_back({bench.core->seq() + 1, R"({"kind":"act","seat":1,"action":{"type":"dance"},"balances":[99,100]})"});
  CHECK_THROWS_AS(bench.make(bench.stored_record(), events), ReplayError);
  bench.core = bench.make(bench.stored_record(), {});
  bench.run(bench.core->fail("the log cannot be replayed"));
  CHECK(bench.core->failed());
  CHECK(bench.chips("pool:t1:pot") == 0);
  CHECK(bench.chips("player:ann") + bench.chips("player:bob") == 200);
}

TEST_CASE("a restart just after a deal settled starts the next deal by itself") {
  Bench bench(scripted_info());
  bench.seat_and_start();
  bench.tap(bench.ann());
  bench.tap(bench.bob());  // the deal settles
  REQUIRE(bench.timers.count(TimerKind::next_deal));
  const auto seq = bench.core->seq();
  bench.restart();  // the server died before the pause ran out
  REQUIRE(bench.timers.count(TimerKind::next_deal));
  bench.fire(TimerKind::next_deal);
  CHECK(bench.core->seq() == seq + 1);
  CHECK(Json::parse(bench.events.back().json)["kind"] == "deal");
}

TEST_CASE("a table of bots only resumes its bots after a restart") {
  Bench bench(scripted_info());
  bench.run(bench.core->add_bot(bench.ann(), 0, 0));
  bench.run(bench.core->add_bot(bench.ann(), 1, 0));
  bench.run(bench.core->start(bench.ann()));
  REQUIRE(bench.timers.count(TimerKind::bot));
  bench.restart();
  REQUIRE(bench.timers.count(TimerKind::bot));
  const auto seq = bench.core->seq();
  bench.fire(TimerKind::bot);
  CHECK(bench.core->seq() == seq + 1);
}

// A careful bot's mistake (it throws, or picks a move the game refuses) costs
// the seat its careful move, not the table: a random listed move is played.
TEST_CASE("a careful bot that throws or picks a refused move is replaced by a random listed move") {
  for (const char* fault : {"throws", "refused"}) {
    CAPTURE(fault);
    auto info = scripted_info();
    const bool throws = std::string(fault) == "throws";
    info.bot = [throws](const Json&, const Json&, rules::Rng&) -> Json {
      if (throws) throw std::runtime_error("the careful bot breaks");
      return {{"type", "fold"}};  // never listed by the scripted game
    };
    Bench bench(info);
    bench.run(bench.core->add_bot(bench.ann(), 0, 1));
    bench.run(bench.core->add_bot(bench.ann(), 1, 1));
    bench.run(bench.core->start(bench.ann()));
    for (int move = 0; move < 2; ++move) {
      REQUIRE(bench.timers.count(TimerKind::bot));
      const auto seq = bench.core->seq();
      bench.fire(TimerKind::bot);
      CHECK(bench.core->seq() == seq + 1);
      const auto event = Json::parse(bench.events.back().json);
      CHECK(event["kind"] == "act");
      CHECK(event["action"] == Json{{"type", "tap"}});
    }
    CHECK_FALSE(bench.core->failed());
  }
}

TEST_CASE("a deal's result stays up until every connected player continues") {
  Bench bench(scripted_info());
  bench.seat_and_start();
  bench.tap(bench.ann());
  bench.tap(bench.bob());
  const auto seq = bench.core->seq();
  auto state = bench.last_state(1);
  CHECK(state["legal"] == Json::array({{{"type", "continue"}}}));
  CHECK(state.contains("result"));
  bench.run(bench.core->act(bench.ann(), {{"type", "continue"}}, std::nullopt));
  CHECK(bench.core->seq() == seq);  // bob has not seen it yet
  CHECK(bench.last_state(1)["legal"].empty());
  bench.run(bench.core->act(bench.bob(), {{"type", "continue"}}, std::nullopt));
  CHECK(bench.core->seq() == seq + 1);
  CHECK(Json::parse(bench.events.back().json)["kind"] == "deal");
}

TEST_CASE("the next deal also starts when the pause runs out, and a player who left does not hold it up") {
  Bench bench(scripted_info());
  bench.seat_and_start();
  bench.tap(bench.ann());
  bench.tap(bench.bob());
  const auto seq = bench.core->seq();
  bench.run(bench.core->disconnected(2));
  bench.run(bench.core->act(bench.ann(), {{"type", "continue"}}, std::nullopt));
  CHECK(bench.core->seq() == seq + 1);
}

TEST_CASE("deals in which nobody can act end the table instead of looping") {
  Bench bench(scripted_info(), {{"empty_deals", true}});
  bench.seat_and_start();
  bench.run(bench.core->disconnected(1));
  bench.run(bench.core->disconnected(2));
  for (int i = 0; i < 10 && bench.timers.count(TimerKind::next_deal); ++i) bench.fire(TimerKind::next_deal);
  CHECK(bench.core->status() == "finished");
  CHECK(bench.core->seq() <= 1 + bench.config.max_idle_deals + 1);
}

TEST_CASE("a deal in which the player to act has nothing he may do ends the table") {
  Bench bench(scripted_info(), {{"nobody_acts", true}});
  bench.run(bench.core->join(bench.ann(), 0));
  bench.run(bench.core->join(bench.bob(), 1));
  bench.run(bench.core->start(bench.ann()));
  CHECK(bench.core->status() == "finished");
  CHECK(Json::parse(bench.events.back().json)["kind"] == "close");
}

TEST_CASE("an act resent with the same action_id is answered with its first seq and applied once, also after a restart") {
  Bench bench(scripted_info());
  bench.seat_and_start();
  bench.tap(bench.ann(7), "ann-1");
  const auto seq = bench.core->seq();
  const auto first = std::find_if(bench.frames[1].begin(), bench.frames[1].end(),
                                  [](const Json& f) { return f["type"] == "ok" && f.value("re", 0) == 7; });
  REQUIRE(first != bench.frames[1].end());
  CHECK((*first)["seq"] == seq);
  bench.restart();
  bench.tap(bench.ann(8), "ann-1");
  CHECK(bench.core->seq() == seq);
  CHECK(bench.chips("player:ann") == 99);
  const auto again = std::find_if(bench.frames[1].begin(), bench.frames[1].end(),
                                  [](const Json& f) { return f["type"] == "ok" && f.value("re", 0) == 8; });
  REQUIRE(again != bench.frames[1].end());
  CHECK((*again)["seq"] == seq);
  CHECK((*again)["duplicate"] == true);
}

TEST_CASE("the host's second end ends the table at once, mid-deal") {
  Bench bench(scripted_info());
  bench.seat_and_start();
  bench.tap(bench.ann());
  bench.run(bench.core->end(bench.ann()));
  CHECK(bench.core->status() == "playing");
  bench.run(bench.core->end(bench.ann()));
  CHECK(bench.core->status() == "finished");
  CHECK(bench.chips("pool:t1:pot") == 0);
}

TEST_CASE("the host's end after this deal is an event of the log: a restart still ends the table when the deal is over") {
  Bench bench(scripted_info());
  bench.seat_and_start();
  bench.tap(bench.ann());
  bench.run(bench.core->end(bench.ann(5)));
  CHECK(bench.last_event() == Json{{"kind", "ending"}, {"balances", {99, 100}}});
  CHECK(bench.reply(1, 5)["seq"] == bench.core->seq());
  CHECK(bench.log_has(1, "The host ends the table after this deal"));
  bench.restart();
  CHECK(bench.core->status() == "playing");
  bench.tap(bench.bob());
  CHECK(bench.core->status() == "finished");
}

TEST_CASE("a private table's invite goes to its host and players, never to a spectator") {
  Bench bench(scripted_info());
  bench.seat_and_start();
  bench.run(bench.core->watch(bench.cat()));
  for (const auto& frame : bench.frames[3]) CHECK_FALSE(frame.contains("invite"));
  CHECK(bench.last_state(1)["invite"] == "secret-invite");
  CHECK(bench.last_state(2)["invite"] == "secret-invite");
}

TEST_CASE("a commit that fails is undone: chips back, state rebuilt from the log, the player told") {
  Bench bench(scripted_info());
  bench.seat_and_start();
  bench.fail_next_commit = true;
  bench.tap(bench.ann(9));
  CHECK(bench.chips("player:ann") == 100);
  CHECK(bench.core->seq() == 1);
  CHECK(bench.reply(1, 9)["code"] == "internal");
  bench.tap(bench.ann());
  CHECK(bench.core->seq() == 2);
}
TEST_CASE("a step another node's table beat to the same chips is undone and answered insufficient_chips") {
  Bench bench(scripted_info());
  bench.seat_and_start();
  bench.fail_next_commit = true;
  bench.commit_failure = {storage::CommitOutcome::Kind::lacked_chips,
                          "insufficient chips for moving 5 from player:ann to pool:t2:pot: player:ann has 0"};
  bench.tap(bench.ann(9));
  CHECK(bench.chips("player:ann") == 100);
  CHECK(bench.core->seq() == 1);
  CHECK(bench.reply(1, 9)["code"] == "insufficient_chips");
}
TEST_CASE("a step that failed for another reason is answered internal, whatever its detail says: the kind decides") {
  Bench bench(scripted_info());
  bench.seat_and_start();
  bench.fail_next_commit = true;
  bench.commit_failure = storage::CommitOutcome::failure("insufficient chips, says a trigger someone added");
  bench.tap(bench.ann(9));
  CHECK(bench.chips("player:ann") == 100);
  CHECK(bench.core->seq() == 1);
  CHECK(bench.reply(1, 9)["code"] == "internal");
}

TEST_CASE("Red Dog: a player whose chips went elsewhere is skipped by the table, never offered a bet he cannot make") {
  Bench bench(*rules::Registry::builtin().find("red_dog"));
  bench.seat_and_start();
  bench.run(bench.core->watch(bench.ann()));
  bench.run(bench.core->watch(bench.bob()));
  const int to_act = bench.last_state(1)["to_act"][0];
  const std::string account = to_act == 0 ? "player:ann" : "player:bob";
  // The player to act spends everything at another table between two steps.
  {
    auto lock = bench.balances.lock();
    bench.balances.apply({{account, "pool:t9:pot", bench.balances.balance(account, lock), "elsewhere", "t9", "red_dog", std::nullopt, std::nullopt}},
                         lock);
  }
  const auto seq = bench.core->seq();
  bench.run(bench.core->resume());
  CHECK(bench.core->seq() == seq + 1);
  const auto event = Json::parse(bench.events.back().json);
  CHECK(event["action"]["type"] == "skip");
  CHECK(event["seat"] == to_act);
  for (ClientId client : {ClientId{1}, ClientId{2}}) {
    const auto state = bench.last_state(client);  // held: a range-for over a temporary's member would dangle
    for (const auto& action : state["legal"])
      if (action.contains("amount")) CHECK(action["amount"]["min"] <= action["amount"]["max"]);
  }
}

// Issue 25 item 2: the table hears of chips spent elsewhere at once
// (LiveBalances::watch wakes TableCore::balances_changed), without an act of its own.
namespace {
void spend_everything_elsewhere(LiveBalances& balances, const std::string& account) {
  auto lock = balances.lock();
  balances.apply({{account, "pool:t9:pot", balances.balance(account, lock), "elsewhere", "t9", "red_dog", std::nullopt,
                   std::nullopt}},
                 lock);
}
int chips_shown(const Json& state, const std::string& player) {
  for (const auto& entry : state["players"])
    if (entry["player"] == player) return entry["chips"];
  return -1;
}
}  // namespace

TEST_CASE("Red Dog: chips spent elsewhere by the player to act: the table skips him at once and pushes his real chips") {
  Bench bench(*rules::Registry::builtin().find("red_dog"));
  bench.seat_and_start();
  bench.run(bench.core->watch(bench.ann()));
  const int to_act = bench.last_state(1)["to_act"][0];
  const std::string player = to_act == 0 ? "ann" : "bob";
  spend_everything_elsewhere(bench.balances, "player:" + player);
  const auto seq = bench.core->seq();
  bench.run(bench.core->balances_changed());
  REQUIRE(bench.core->seq() == seq + 1);
  const auto event = Json::parse(bench.events.back().json);
  CHECK(event["action"]["type"] == "skip");
  CHECK(event["seat"] == to_act);
  CHECK(chips_shown(bench.last_state(1), player) == 0);
  // Told again with nothing changed, the table does nothing.
  const auto frames = bench.frames[1].size();
  bench.run(bench.core->balances_changed());
  CHECK(bench.core->seq() == seq + 1);
  CHECK(bench.frames[1].size() == frames);
}

TEST_CASE("Red Dog: chips spent elsewhere by a player not to act: the table pushes his real chips and takes no step") {
  Bench bench(*rules::Registry::builtin().find("red_dog"));
  bench.seat_and_start();
  bench.run(bench.core->watch(bench.ann()));
  bench.run(bench.core->watch(bench.bob()));
  const int to_act = bench.last_state(1)["to_act"][0];
  const std::string waiting = to_act == 0 ? "bob" : "ann";
  spend_everything_elsewhere(bench.balances, "player:" + waiting);
  const auto seq = bench.core->seq();
  const auto frames = bench.frames[2].size();
  bench.run(bench.core->balances_changed());
  CHECK(bench.core->seq() == seq);
  CHECK(bench.frames[2].size() == frames + 1);
  for (ClientId client : {ClientId{1}, ClientId{2}}) CHECK(chips_shown(bench.last_state(client), waiting) == 0);
}

TEST_CASE("a table waiting for players pushes a seated player's chips spent elsewhere") {
  Bench bench(*rules::Registry::builtin().find("red_dog"));
  bench.run(bench.core->join(bench.ann(), std::nullopt));
  REQUIRE(bench.core->seated_accounts() == std::set<std::string>{"player:ann"});
  CHECK(bench.core->seated_accounts_are({"player:ann"}));
  CHECK_FALSE(bench.core->seated_accounts_are({}));
  CHECK_FALSE(bench.core->seated_accounts_are({"player:bob"}));
  CHECK_FALSE(bench.core->seated_accounts_are({"player:ann", "player:bob"}));
  spend_everything_elsewhere(bench.balances, "player:ann");
  bench.run(bench.core->balances_changed());
  CHECK(chips_shown(bench.last_state(1), "ann") == 0);
}

TEST_CASE("the first dealer drawn from the seed is kept in the start event; an older log without it replays with seat 0") {
  Bench bench(*rules::Registry::builtin().find("red_dog"));
  bench.record.seed = 3;
  bench.core = bench.make(bench.record, {});
  bench.seat_and_start();
  auto start = Json::parse(bench.events.front().json);
  REQUIRE(start.contains("first_dealer"));
  CHECK(start["first_dealer"] == rules::draw_first_dealer(3, 2));
  start.erase("first_dealer");
  auto old_log = bench.events;
  old_log.front().json = start.dump();
  auto replayed = bench.make(bench.stored_record(), old_log);
  bench.core = std::move(replayed);
  bench.run(bench.core->watch(bench.cat()));
  CHECK(bench.last_state(3)["view"]["dealer"] == 0);
}

TEST_CASE("a state push carries only the log lines the member has not had, and the players list only when it changed") {
  Bench bench(scripted_info());
  bench.seat_and_start();
  bench.run(bench.core->watch(bench.cat()));
  const auto first = bench.last_pushed(3);
  REQUIRE(first.contains("players"));
  const auto from = first["log_from"].get<std::int64_t>();
  const auto had = static_cast<std::int64_t>(first["log"].size());
  bench.tap(bench.ann());
  const auto next = bench.last_pushed(3);
  CHECK(next["log_from"] == from + had);
  CHECK(next["log"] == Json::array({"tap 1"}));
  // Only ann's chips changed (she paid 1 into the pot): the push carries the
  // chips alone, one per entry of the list, in its order.
  CHECK_FALSE(next.contains("players"));
  CHECK(next["chips"] == Json::array({99, 100}));
  CHECK(bench.player(3, 0)["chips"] == 99);
  bench.run(bench.core->leave(bench.cat()));
  bench.run(bench.core->watch(bench.cat()));  // a member again: the whole log and list once more
  const auto again = bench.last_pushed(3);
  CHECK(again["log_from"] == from);
  CHECK(again["log"].size() == static_cast<std::size_t>(had + 1));
  CHECK(again.contains("players"));
  CHECK_FALSE(again.contains("chips"));
  // A seat's presence changing sends the list whole again.
  bench.run(bench.core->disconnected(2));
  CHECK(bench.last_pushed(3)["players"][1]["connected"] == false);
  bench.run(bench.core->join(bench.bob(), 1));
  CHECK(bench.last_pushed(3)["players"][1]["connected"] == true);
  // A push in which nobody's chips, seat or presence changed leaves both out.
  bench.tap(bench.bob());
  CHECK(bench.last_pushed(3).contains("chips"));  // bob paid too
  const auto before = bench.frames[3].size();
  bench.run(bench.core->act(bench.ann(), {{"type", "continue"}}, std::nullopt));
  bench.run(bench.core->act(bench.bob(), {{"type", "continue"}}, std::nullopt));
  REQUIRE(bench.frames[3].size() > before);
  CHECK_FALSE(bench.last_pushed(3).contains("players"));
  CHECK_FALSE(bench.last_pushed(3).contains("chips"));
  // The new deal's one line is its commitment.
  CHECK(bench.last_pushed(3)["log"] ==
        Json::array({"Deal 2 is dealt from a committed deck: sha256 " + bench.core->commitment(2) + "."}));
  bench.run(bench.core->end(bench.ann()));
  bench.run(bench.core->end(bench.ann()));
  REQUIRE(bench.last_state(3)["status"] == "finished");
  CHECK(bench.last_state(3)["players"] == bench.last_state(1)["players"]);
}

TEST_CASE("a connection's first state carries the table's fixed parts and the view's constants; later pushes leave them out") {
  Bench bench(*rules::Registry::builtin().find("red_dog"));
  bench.seat_and_start();
  bench.run(bench.core->watch(bench.cat()));
  const std::set<std::string> fixed = {"game", "host", "clock"};
  const Json constants = Json::array({"ante", "hand_size", "layout"});
  const auto first = bench.last_pushed(3);
  for (const auto& key : fixed) CHECK_MESSAGE(first.contains(key), key);
  CHECK(first["view_constants"] == constants);
  CHECK(first["view"]["ante"] == 1);
  CHECK(first["view"]["layout"] == "betting");
  CHECK(first.contains("fair"));
  CHECK_FALSE(first.contains("invite"));  // a spectator never has it
  CHECK(bench.last_state(1)["invite"] == "secret-invite");
  const auto invites_to_ann = std::count_if(bench.frames[1].begin(), bench.frames[1].end(),
                                            [](const Json& frame) { return frame.contains("invite"); });
  CHECK(invites_to_ann == 1);  // her first push only

  // The next push (a bet): none of them, and the view without its constants.
  const auto mover = bench.last_state(1)["to_act"][0].get<int>() == 0 ? bench.ann() : bench.bob();
  Json bet = bench.last_state(mover.client)["legal"][0];
  bet["amount"] = bet["amount"]["min"];
  bench.run(bench.core->act(mover, bet, std::nullopt));
  for (ClientId client : {1, 2, 3}) {
    const auto next = bench.last_pushed(client);
    CAPTURE(client);
    REQUIRE(next["seq"] > first["seq"]);
    for (const auto& key : {"game", "host", "clock", "invite", "fair", "view_constants"}) CHECK_MESSAGE(!next.contains(key), key);
    for (const auto& key : constants) CHECK_FALSE(next["view"].contains(key));
    CHECK(next["view"].contains("seats"));
    CHECK(next.contains("status"));
    // Filled in, it is the whole state, as the first push had it.
    const auto whole = bench.last_state(client);
    CHECK(whole["game"] == "red_dog");
    CHECK(whole["host"] == "ann");
    CHECK(whole["clock"] == first["clock"]);
    CHECK(whole["view"]["hand_size"] == 5);
    CHECK(whole["view"]["seats"][0]["cards"].size() == whole["view"]["seats"][0]["count"]);
  }

  // A reconnect is a new connection, a new member: it has them all again.
  bench.run(bench.core->disconnected(1));
  bench.run(bench.core->join({4, "ann", 1}, 0));
  const auto back = bench.last_pushed(4);
  for (const auto& key : fixed) CHECK_MESSAGE(back.contains(key), key);
  CHECK(back["invite"] == "secret-invite");
  CHECK(back.contains("fair"));
  CHECK(back.contains("players"));
  CHECK(back["view_constants"] == constants);
  CHECK(back["view"]["hand_size"] == 5);
}

// PROTOCOL.md version 1: a member that did not ask for deltas gets every push
// whole, in the same broadcast that sends a delta member its smaller push, and
// the delta member's push, filled in, is that whole push.
TEST_CASE("a connection that did not ask for deltas gets every state push whole, beside a delta member's smaller one") {
  Bench bench(*rules::Registry::builtin().find("red_dog"));
  const Caller whole_bob{2, "bob", 1, {.deltas = false}};
  const Caller whole_eve{5, "eve", 1, {.deltas = false}};  // a spectator, like cat
  bench.run(bench.core->join(bench.ann(), 0));
  bench.run(bench.core->join(whole_bob, 1, /*invited=*/true));
  bench.run(bench.core->start(bench.ann()));
  bench.run(bench.core->watch(bench.cat()));
  bench.run(bench.core->watch(whole_eve));
  const auto first_seq = bench.last_pushed(5)["seq"];

  const auto step = [&] {
    // Whoever may act: the seat to act, or after a deal anyone who may continue.
    const auto state = bench.last_state(1);
    const int seat = !state["to_act"].empty()      ? state["to_act"][0].get<int>()
                     : !state["legal"].empty()     ? 0
                                                   : 1;
    const Caller& mover = seat == 0 ? bench.ann() : whole_bob;
    REQUIRE_FALSE(bench.last_state(mover.client)["legal"].empty());
    Json action = bench.last_state(mover.client)["legal"][0];
    for (auto& [key, value] : action.items())
      if (value.is_object() && value.contains("min")) value = value["min"];
    bench.run(bench.core->act(mover, action, std::nullopt));
  };
  const auto check_whole = [&](const Json& push, bool seated) {
    for (const auto& key : {"table", "game", "seq", "status", "seat", "host", "clock", "players", "view", "to_act",
                            "legal", "log", "log_from", "fair", "view_constants"})
      CHECK_MESSAGE(push.contains(key), key);
    CHECK_FALSE(push.contains("chips"));  // never the chips alone: the players list, whole
    CHECK(push.contains("invite") == seated);
    for (const auto& key : {"ante", "hand_size", "layout"}) CHECK_MESSAGE(push["view"].contains(key), key);
    for (const auto& player : push["players"])
      CHECK(player["chips"] == bench.chips("player:" + player["player"].get<std::string>()));
  };
  bool saw_result = false;
  for (int steps = 0; steps < 12; ++steps) {
    step();
    const auto delta_push = bench.last_pushed(3);
    const auto v1_push = bench.last_pushed(5);
    CAPTURE(v1_push.dump());
    REQUIRE(v1_push["seq"] > first_seq);
    check_whole(v1_push, false);
    check_whole(bench.last_pushed(2), true);
    CHECK_FALSE(delta_push.contains("game"));
    // Once a deal has settled, its result is in every whole push after.
    saw_result = saw_result || v1_push.contains("result");
    if (saw_result) CHECK(v1_push.contains("result"));
    // Filled in, the delta member's state is the whole push (both are spectators'),
    // the log apart: a member keeps every line since it came, a whole push the tail.
    auto merged = bench.last_state(3);
    auto sent = v1_push;
    const auto tail = sent["log"].size();
    REQUIRE(merged["log"].size() >= tail);
    CHECK(std::equal(sent["log"].begin(), sent["log"].end(), merged["log"].end() - static_cast<std::ptrdiff_t>(tail)));
    // view_constants only says which of the view's keys a delta push may leave out.
    for (auto* state : {&merged, &sent})
      for (const auto& key : {"log", "log_from", "chat", "chat_from", "view_constants"}) state->erase(key);
    CHECK(merged == sent);
  }
  CHECK(saw_result);
}

TEST_CASE("before play the view's constants are the table's seats and options; play's start sends the game's own") {
  Bench bench(scripted_info());
  bench.run(bench.core->join(bench.ann(), 0));
  CHECK(bench.last_pushed(1)["view"] == Json({{"seats", 2}, {"options", Json::parse(bench.record.options_json)}}));
  CHECK(bench.last_pushed(1)["view_constants"] == Json::array({"options", "seats"}));
  bench.run(bench.core->join(bench.bob(), 1));
  CHECK(bench.last_pushed(1)["view"] == Json::object());  // nothing new: the constants hold
  CHECK(bench.last_state(1)["view"] == Json({{"seats", 2}, {"options", Json::parse(bench.record.options_json)}}));
  bench.run(bench.core->start(bench.ann()));
  // The scripted game names no constants: its whole view comes, and the
  // empty list tells the client that the old ones are gone.
  CHECK(bench.last_pushed(1)["view_constants"] == Json::array());
  CHECK_FALSE(bench.last_state(1)["view"].contains("options"));
}

TEST_CASE("the log kept for new members is the last 50 lines, numbered for the life of the table") {
  Bench bench(scripted_info());
  bench.seat_and_start();
  for (int i = 0; i < 30; ++i) {
    bench.tap(bench.ann());
    bench.tap(bench.bob());
    bench.run(bench.core->act(bench.ann(), {{"type", "continue"}}, std::nullopt));
    bench.run(bench.core->act(bench.bob(), {{"type", "continue"}}, std::nullopt));
  }
  bench.run(bench.core->watch(bench.cat()));
  const auto state = bench.last_state(3);
  CHECK(state["log"].size() == 50);
  CHECK(state["log"][48] == "tap 60");
  CHECK(state["log"].back() == "Deal 31 is dealt from a committed deck: sha256 " + bench.core->commitment(31) + ".");
  CHECK(state["log_from"].get<std::int64_t>() > 0);
}

TEST_CASE("while a table is played, each deal's result goes once to each member; a finished table's goes always") {
  Bench bench(*rules::Registry::builtin().find("red_dog"));
  bench.seat_and_start();
  bench.run(bench.core->watch(bench.cat()));
  const auto play_one_step = [&] {
    const auto state = bench.last_state(1)["to_act"].empty() ? bench.last_state(2) : bench.last_state(1);
    const int seat = state["to_act"].empty() ? 0 : state["to_act"][0].get<int>();
    const auto& mover = seat == 0 ? bench.ann() : bench.bob();
    const auto legal = bench.last_state(seat == 0 ? 1 : 2)["legal"];
    REQUIRE_FALSE(legal.empty());
    Json action = legal[0];
    for (auto& [key, value] : action.items())
      if (value.is_object() && value.contains("min")) value = value["min"];
    bench.run(bench.core->act(mover, action, std::nullopt));
  };
  while (bench.last_state(3)["view"]["phase"] != "deal_over") play_one_step();
  const auto settled = bench.last_state(3);
  REQUIRE(settled.contains("result"));
  bench.run(bench.core->act(bench.ann(), {{"type", "continue"}}, std::nullopt));
  CHECK_FALSE(bench.last_pushed(3).contains("result"));  // the deal is still over: sent already
  CHECK(bench.last_state(3)["result"] == settled["result"]);
  bench.run(bench.core->act(bench.bob(), {{"type", "continue"}}, std::nullopt));
  REQUIRE(bench.last_state(3)["view"]["phase"] == "betting");
  // The first push of the new deal came after the result was sent: left out.
  CHECK_FALSE(bench.last_pushed(3).contains("result"));
  CHECK(bench.last_state(3)["result"] == settled["result"]);  // the client keeps it
  bench.run(bench.core->leave(bench.cat()));
  bench.run(bench.core->watch(bench.cat()));
  CHECK(bench.last_pushed(3)["result"] == settled["result"]);  // a new member has it once
  play_one_step();
  if (bench.last_state(3)["view"]["phase"] == "betting") CHECK_FALSE(bench.last_pushed(3).contains("result"));
  // Once the table has finished, every push carries its last result.
  bench.run(bench.core->end(bench.ann()));
  bench.run(bench.core->end(bench.ann()));
  REQUIRE(bench.last_state(3)["status"] == "finished");
  const auto pushes = bench.frames[3].size();
  bench.run(bench.core->watch({5, "dan", 1}));
  REQUIRE(bench.frames[3].size() > pushes);
  CHECK(bench.last_pushed(3).contains("result"));
}

TEST_CASE("a result's table-owned melds name no owner for a member who asked for table_melds, a seat for one who did not") {
  Bench bench(scripted_info(), {{"table_melds", true}});
  const Caller ann{1, "ann", 1, {.deltas = true, .table_melds = true}};
  bench.run(bench.core->join(ann, 0));
  bench.run(bench.core->join(bench.bob(), 1));
  bench.run(bench.core->start(ann));
  bench.run(bench.core->act(ann, {{"type", "tap"}}, std::nullopt));
  bench.run(bench.core->act(bench.bob(), {{"type", "tap"}}, std::nullopt));
  REQUIRE(bench.last_state(1)["result"].is_object());
  CHECK(bench.last_state(1)["result"]["melds"][0]["owner"].is_null());
  CHECK(bench.last_state(2)["result"]["melds"][0]["owner"] == 0);
  CHECK(bench.last_state(1)["result"]["melds"][0]["cards"] == bench.last_state(2)["result"]["melds"][0]["cards"]);
  // The hand history, made by its own replay, tells each what his pushes told him.
  const auto settled = [&](const HistoryQuery& query) {
    return build_history(bench.stored_record(), bench.info, bench.events, query)["steps"].back();
  };
  HistoryQuery asked_by_ann{"ann", 1, {}, false};
  asked_by_ann.table_melds = true;
  const auto for_ann = settled(asked_by_ann);
  CHECK(for_ann["result"] == bench.last_state(1)["result"]);
  CHECK_FALSE(for_ann.contains("result_table_melds"));
  CHECK(settled(HistoryQuery{"bob", 1, {}, false})["result"] == bench.last_state(2)["result"]);
}

// ---------------------------------------------------------------- the turn clock and away seats

TEST_CASE("the clock: when a seat's time runs out the table plays the game's default, logged as an event that replays") {
  Bench bench(scripted_info());
  bench.use_clock({{"seconds", 30}});
  bench.seat_and_start();
  CHECK(bench.turn_after_ms() == 30'000);
  auto state = bench.last_state(1);
  CHECK(state["clock"] == Json{{"seconds", 30}, {"bank", 0}, {"away_after", 2}});
  CHECK(state["timer"] == Json{{"seat", 0}, {"seconds", 30}, {"ends_at", 1'030'000}, {"bank", 0}});
  CHECK(bench.core->summary()["clock"] == state["clock"]);
  const auto seq = bench.core->seq();
  bench.fire(TimerKind::turn);
  CHECK(bench.core->seq() == seq + 1);
  const auto event = bench.last_event();
  CHECK(event["seat"] == 0);
  CHECK(event["action"] == Json{{"type", "tap"}});
  CHECK(event["by"] == "clock");
  CHECK(bench.log_has(2, "ann's time ran out: the table plays tap."));
  CHECK(bench.chips("player:ann") == 99);
  // Bob's turn now, with a clock of his own.
  CHECK(bench.last_state(2)["timer"]["seat"] == 1);
  CHECK(bench.turn_after_ms() == 30'000);
  CHECK_FALSE(bench.player(2, 0)["away"]);
  // The event replays, with its log line.
  bench.restart();
  bench.run(bench.core->watch(bench.cat()));
  CHECK(bench.log_has(3, "ann's time ran out: the table plays tap."));
  CHECK(bench.last_state(3)["seq"] == seq + 1);
}

TEST_CASE("the clock is on by default (90 s) and off with seconds 0") {
  SUBCASE("default") {
    Bench bench(scripted_info());
    bench.seat_and_start();
    CHECK(bench.turn_after_ms() == 90'000);
    CHECK(bench.last_state(1)["clock"] == Json{{"seconds", 90}, {"bank", 0}, {"away_after", 2}});
  }
  SUBCASE("off") {
    Bench bench(scripted_info());
    bench.use_clock({{"seconds", 0}});
    bench.seat_and_start();
    CHECK_FALSE(bench.timers.count(TimerKind::turn));
    CHECK_FALSE(bench.last_state(1).contains("timer"));
  }
}

TEST_CASE("the clock's deadline is kept within a turn and restarts with the seat's next move") {
  Bench bench(scripted_info());
  bench.use_clock({{"seconds", 30}});
  bench.seat_and_start();
  const auto token = bench.timers.at(TimerKind::turn).token;
  bench.now += 10'000;
  // Steps that are not ann's move keep her deadline.
  bench.run(bench.core->watch(bench.cat()));
  bench.run(bench.core->join(bench.bob(), std::nullopt));
  CHECK(bench.timers.at(TimerKind::turn).token == token);
  CHECK(bench.last_state(3)["timer"]["ends_at"] == 1'030'000);
  bench.tap(bench.ann());
  CHECK(bench.last_state(3)["timer"] == Json{{"seat", 1}, {"seconds", 30}, {"ends_at", 1'040'000}, {"bank", 0}});
  CHECK(bench.turn_after_ms() == 30'000);
}

TEST_CASE("the clock restarts when the same seat moves again (Rummy: draw, then discard)") {
  const auto* rummy = rules::Registry::builtin().find("rummy");
  REQUIRE(rummy);
  Bench bench(*rummy);
  bench.use_clock({{"seconds", 20}});
  bench.seat_and_start();
  const int seat = bench.last_state(1)["to_act"][0].get<int>();
  const Caller who = seat == 0 ? bench.ann() : bench.bob();
  const ClientId client = seat == 0 ? 1 : 2;
  CHECK(bench.last_state(client)["timer"]["ends_at"] == 1'020'000);
  bench.now += 15'000;
  bench.run(bench.core->act(who, {{"type", "draw"}, {"from", "stock"}}, std::nullopt));
  REQUIRE(bench.last(client)["type"] == "state");
  CHECK(bench.last_state(client)["to_act"] == Json::array({seat}));
  CHECK(bench.last_state(client)["timer"] == Json{{"seat", seat}, {"seconds", 20}, {"ends_at", 1'035'000}, {"bank", 0}});
  CHECK(bench.turn_after_ms() == 20'000);
  // Run out: Rummy's default discards the card just drawn.
  const auto hand = bench.last_state(client)["view"]["seats"][seat]["cards"];
  bench.fire(TimerKind::turn);
  CHECK(bench.last_event()["by"] == "clock");
  CHECK(bench.last_event()["action"] == Json{{"type", "discard"}, {"card", hand.back()}});
}

TEST_CASE("the time bank: seconds beyond the move's come out of it, and it is never refilled") {
  Bench bench(scripted_info());
  bench.use_clock({{"seconds", 10}, {"bank", 30}});
  bench.seat_and_start();
  CHECK(bench.turn_after_ms() == 40'000);
  CHECK(bench.last_state(1)["timer"] == Json{{"seat", 0}, {"seconds", 40}, {"ends_at", 1'040'000}, {"bank", 30}});
  bench.now += 25'000;  // 15 s of the bank
  bench.tap(bench.ann());
  CHECK(bench.turn_after_ms() == 40'000);  // bob's bank is his own
  bench.tap(bench.bob());                  // the deal settles
  bench.fire(TimerKind::next_deal);
  CHECK(bench.turn_after_ms() == 25'000);  // ann: 10 s and the 15 s left
  CHECK(bench.last_state(1)["timer"]["bank"] == 15);
  bench.fire(TimerKind::turn);  // she lets it run out: the bank is spent
  bench.tap(bench.bob());
  bench.fire(TimerKind::next_deal);
  CHECK(bench.turn_after_ms() == 10'000);
  CHECK(bench.last_state(1)["timer"]["bank"] == 0);
}

TEST_CASE("after away_after expiries in a row the seat is away, shown to all, and a bot plays it") {
  Bench bench(scripted_info());
  bench.use_clock({{"seconds", 10}, {"away_after", 2}});
  bench.seat_and_start();
  bench.fire(TimerKind::turn);  // ann's first miss
  CHECK_FALSE(bench.player(2, 0)["away"]);
  bench.tap(bench.bob());
  bench.fire(TimerKind::next_deal);
  bench.fire(TimerKind::turn);  // the second in a row
  CHECK(bench.player(2, 0)["away"] == true);
  CHECK(bench.player(1, 0)["away"] == true);
  CHECK(bench.player(2, 0)["connected"] == true);  // connected stays as it was
  CHECK(bench.player(2, 1)["away"] == false);
  CHECK(bench.log_has(2, "ann is away: a bot plays for them until they are back."));
  CHECK(bench.core->summary()["seats"][0]["away"] == true);
  bench.tap(bench.bob());
  // The next deal does not wait for ann, and her turn is the bot's: no clock for her.
  bench.fire(TimerKind::next_deal);
  CHECK(bench.last_state(2)["to_act"] == Json::array({0}));
  CHECK_FALSE(bench.timers.count(TimerKind::turn));
  REQUIRE(bench.timers.count(TimerKind::bot));
  const auto seq = bench.core->seq();
  bench.fire(TimerKind::bot);
  CHECK(bench.core->seq() == seq + 1);
  CHECK(bench.last_event()["seat"] == 0);
  CHECK_FALSE(bench.last_event().contains("by"));
  CHECK(bench.player(2, 0)["away"] == true);  // still away until she is back
}

TEST_CASE("an away player's own act is applied and makes him present again") {
  Bench bench(scripted_info());
  bench.use_clock({{"seconds", 10}, {"away_after", 1}});
  bench.seat_and_start();
  bench.fire(TimerKind::turn);
  CHECK(bench.player(1, 0)["away"] == true);
  bench.tap(bench.bob());
  bench.fire(TimerKind::next_deal);
  REQUIRE(bench.last_state(1)["to_act"] == Json::array({0}));
  CHECK(bench.last_state(1)["legal"] == Json::array({{{"type", "tap"}}}));  // he may still act himself
  const auto seq = bench.core->seq();
  bench.tap(bench.ann());
  CHECK(bench.core->seq() == seq + 1);
  CHECK(bench.player(2, 0)["away"] == false);
  CHECK(bench.log_has(2, "ann is back."));
}

TEST_CASE("back makes an away seat present again, his clock running in full") {
  Bench bench(scripted_info());
  bench.use_clock({{"seconds", 10}, {"away_after", 1}});
  bench.seat_and_start();
  bench.fire(TimerKind::turn);
  bench.tap(bench.bob());
  bench.fire(TimerKind::next_deal);
  REQUIRE(bench.player(1, 0)["away"] == true);
  CHECK_FALSE(bench.timers.count(TimerKind::turn));
  bench.run(bench.core->back(bench.ann(5)));
  CHECK(bench.frames.at(1)[bench.frames.at(1).size() - 2] == Json{{"type", "back"}, {"table", "t1"}, {"re", 5}});
  CHECK(bench.player(2, 0)["away"] == false);
  CHECK(bench.log_has(2, "ann is back."));
  CHECK(bench.turn_after_ms() == 10'000);
  CHECK(bench.last_state(1)["timer"]["seat"] == 0);
  // The bot's timer may still fire: it plays no longer for her.
  if (bench.timers.count(TimerKind::bot)) {
    const auto seq = bench.core->seq();
    bench.fire(TimerKind::bot);
    CHECK(bench.core->seq() == seq);
  }
  // Sent by someone without a seat, or when present, back is harmless.
  bench.run(bench.core->back(bench.cat()));
  CHECK(bench.last(3)["code"] == "forbidden");
  bench.run(bench.core->back(bench.ann()));
  CHECK(bench.player(2, 0)["away"] == false);
}

TEST_CASE("a default the game refuses marks the seat away at once and the bot plays it: no loop") {
  auto info = scripted_info();
  info.default_action = [](const Json&, const Json&) { return Json{{"type", "dance"}}; };
  Bench bench(info);
  bench.use_clock({{"seconds", 10}, {"away_after", 5}});
  bench.seat_and_start();
  const auto seq = bench.core->seq();
  bench.fire(TimerKind::turn);
  CHECK(bench.core->seq() == seq);  // nothing applied
  CHECK(bench.player(2, 0)["away"] == true);
  CHECK_FALSE(bench.timers.count(TimerKind::turn));
  bench.fire(TimerKind::bot);
  CHECK(bench.core->seq() == seq + 1);
  CHECK(bench.last_event()["seat"] == 0);
}

TEST_CASE("Carousel's own turn limit wins over the table's clock") {
  const auto* carousel = rules::Registry::builtin().find("carousel");
  REQUIRE(carousel);
  Bench bench(*carousel, {{"turn_time_limit_s", 20}});
  bench.use_clock({{"seconds", 90}});
  bench.seat_and_start();
  CHECK(bench.turn_after_ms() == 20'000);
  const auto state = bench.last_state(1);
  CHECK(state["timer"]["seconds"] == 20);
  CHECK_FALSE(state["timer"].contains("bank"));
  bench.fire(TimerKind::turn);
  CHECK(bench.last_event()["action"] == Json{{"type", "withdraw"}});
  CHECK_FALSE(bench.last_event().contains("by"));
}

TEST_CASE("Carousel without a limit of its own runs the table's clock, whose default draws") {
  const auto* carousel = rules::Registry::builtin().find("carousel");
  REQUIRE(carousel);
  Bench bench(*carousel);
  bench.use_clock({{"seconds", 15}});
  bench.seat_and_start();
  CHECK(bench.turn_after_ms() == 15'000);
  bench.fire(TimerKind::turn);
  CHECK(bench.last_event()["by"] == "clock");
  CHECK(bench.last_event()["action"]["type"] == "draw");
}

TEST_CASE("a restart re-arms the clock in full and finds every seat present") {
  Bench bench(scripted_info());
  bench.use_clock({{"seconds", 10}, {"bank", 20}, {"away_after", 1}});
  bench.seat_and_start();
  bench.now += 25'000;  // ann uses 15 s of her bank
  bench.tap(bench.ann());
  bench.fire(TimerKind::turn);  // bob misses: away
  bench.fire(TimerKind::next_deal);
  REQUIRE(bench.player(1, 1)["away"] == true);
  bench.now += 5'000;
  bench.restart();
  CHECK(bench.core->clock() == parlour::protocol::Clock{10, 20, 1});
  CHECK(bench.turn_after_ms() == 30'000);  // ann's turn, her bank whole again
  bench.run(bench.core->watch(bench.cat()));
  CHECK(bench.player(3, 1)["away"] == false);
  CHECK(bench.last_state(3)["timer"] == Json{{"seat", 0}, {"seconds", 30}, {"ends_at", bench.now + 30'000}, {"bank", 20}});
}

// ---------------------------------------------------------------- table chat

namespace {

// Every chat line a client was sent, in order (the pushes carry only new ones).
Json chat_seen(const Bench& bench, ClientId client) {
  Json lines = Json::array();
  for (const auto& frame : bench.frames.at(client)) {
    if (frame["type"] != "state" || !frame.contains("chat")) continue;
    if (frame["chat_from"].get<std::size_t>() != lines.size()) lines = Json::array();
    for (const auto& line : frame["chat"]) lines.push_back(line);
  }
  return lines;
}

parlour::protocol::Chat say(const std::string& text) { return {"t1", text, std::nullopt}; }
parlour::protocol::Chat react(const std::string& reaction) { return {"t1", std::nullopt, reaction}; }

Json reply_to(const Bench& bench, ClientId client, std::int64_t re) {
  for (const auto& frame : bench.frames.at(client))
    if (frame.value("re", std::int64_t{-1}) == re) return frame;
  return Json();
}

}  // namespace

TEST_CASE("chat: a seated player's line and a watcher's reaction reach everyone at the table, kept in the log") {
  Bench bench(scripted_info());
  bench.seat_and_start();
  bench.run(bench.core->watch(bench.cat()));
  const auto seq = bench.core->seq();
  bench.run(bench.core->chat(bench.ann(21), say("good luck all")));
  bench.now += 1500;
  bench.run(bench.core->chat(bench.cat(22), react("thumbs_up")));
  CHECK(reply_to(bench, 1, 21) == Json{{"type", "ok"}, {"re", 21}, {"table", "t1"}, {"seq", seq + 1}});
  CHECK(reply_to(bench, 3, 22)["seq"] == seq + 2);
  // The log has one line so far: the first deal's commitment.
  const Json expected = Json::array(
      {{{"player", "ann"}, {"text", "good luck all"}, {"time", 1'000'000}, {"log_at", 1}},
       {{"player", "cat"}, {"reaction", "thumbs_up"}, {"time", 1'001'500}, {"log_at", 1}}});
  CHECK(chat_seen(bench, 2) == expected);
  CHECK(chat_seen(bench, 3) == expected);
  // It carries the seats' chips when it was said, as every event does, so that
  // its history step shows them (issue 26).
  CHECK(bench.last_event() == Json{{"kind", "chat"},
                                   {"player", "cat"},
                                   {"reaction", "thumbs_up"},
                                   {"time", 1'001'500},
                                   {"balances", {100, 100}}});
  // Chips and the game are untouched; a restart shows the same lines to a newcomer.
  CHECK(bench.chips("player:ann") == 100);
  bench.restart();
  bench.frames.clear();
  bench.run(bench.core->watch(bench.cat()));
  CHECK(chat_seen(bench, 3) == expected);
  CHECK(bench.last_state(3)["seq"] == seq + 2);
}

TEST_CASE("chat: someone who neither sits nor watches at the table is refused, and nothing is written") {
  Bench bench(scripted_info());
  bench.seat_and_start();
  const auto writes = bench.writes.size();
  bench.run(bench.core->chat(bench.cat(5), say("hi")));
  CHECK(reply_to(bench, 3, 5)["code"] == "forbidden");
  CHECK(bench.writes.size() == writes);
}

TEST_CASE("chat: the sixth line within ten seconds is rate_limited with when to retry; the window slides") {
  Bench bench(scripted_info());
  bench.seat_and_start();
  for (int i = 0; i < 5; ++i) {
    bench.run(bench.core->chat(bench.ann(100 + i), say("line " + std::to_string(i))));
    CHECK(reply_to(bench, 1, 100 + i)["type"] == "ok");
    bench.now += 1000;
  }
  const auto writes = bench.writes.size();
  bench.run(bench.core->chat(bench.ann(200), say("one too many")));
  auto refused = reply_to(bench, 1, 200);
  CHECK(refused["code"] == "rate_limited");
  CHECK(refused["retry_after_ms"] == 5000);  // the first line leaves the window 10 s after it was sent
  CHECK(refused["message"] == "you may send 5 chat lines in 10 s, at all tables together; try again in 5 s");
  CHECK(bench.writes.size() == writes);
  // Bob's own allowance is his.
  bench.run(bench.core->chat(bench.bob(201), say("me too")));
  CHECK(reply_to(bench, 2, 201)["type"] == "ok");
  bench.now += 4999;
  bench.run(bench.core->chat(bench.ann(202), say("still too soon")));
  CHECK(reply_to(bench, 1, 202)["retry_after_ms"] == 1);
  bench.now += 1;
  bench.run(bench.core->chat(bench.ann(203), say("now")));
  CHECK(reply_to(bench, 1, 203)["type"] == "ok");
}

TEST_CASE("chat: only the host mutes; a muted person's chat is refused until unmuted, also after a restart") {
  Bench bench(scripted_info());
  bench.seat_and_start();
  bench.run(bench.core->watch(bench.cat()));
  const auto writes = bench.writes.size();
  bench.run(bench.core->mute(bench.bob(30), "cat", true));
  CHECK(reply_to(bench, 2, 30)["code"] == "forbidden");
  CHECK(bench.writes.size() == writes);

  bench.run(bench.core->mute(bench.ann(31), "CAT", true));
  CHECK(reply_to(bench, 1, 31) ==
        Json{{"type", "ok"}, {"re", 31}, {"table", "t1"}, {"player", "cat"}, {"muted", true}, {"seq", 2}});
  CHECK(bench.last_state(2)["muted"] == Json::array({"cat"}));
  CHECK(bench.log_has(2, "The host muted cat at this table."));
  bench.run(bench.core->chat(bench.cat(32), say("let me speak")));
  CHECK(reply_to(bench, 3, 32)["code"] == "forbidden");
  CHECK(reply_to(bench, 3, 32)["message"] == "the host, ann, has muted you at this table");
  CHECK(bench.writes.size() == writes + 1);

  bench.restart();
  bench.run(bench.core->watch(bench.cat()));
  bench.run(bench.core->chat(bench.cat(33), say("still?")));
  CHECK(reply_to(bench, 3, 33)["code"] == "forbidden");
  bench.run(bench.core->mute(bench.ann(34), "cat", false));
  CHECK(reply_to(bench, 1, 34)["muted"] == false);
  CHECK_FALSE(bench.last_state(3).contains("muted"));
  bench.run(bench.core->chat(bench.cat(35), say("thank you")));
  CHECK(reply_to(bench, 3, 35)["type"] == "ok");
}

TEST_CASE("mute: nobody at the table is not_found, a bot or the host himself is bad_request, muting twice writes once") {
  Bench bench(scripted_info(), Json::object(), 3);
  bench.run(bench.core->join(bench.ann(), 0));
  bench.run(bench.core->join(bench.bob(), 1));
  bench.run(bench.core->add_bot(bench.ann(), 2, 0));
  const std::string bot = bench.player(1, 2)["player"];
  const auto writes = bench.writes.size();
  bench.run(bench.core->mute(bench.ann(40), "zed", true));
  CHECK(reply_to(bench, 1, 40)["code"] == "not_found");
  bench.run(bench.core->mute(bench.ann(41), bot, true));
  CHECK(reply_to(bench, 1, 41)["code"] == "bad_request");
  bench.run(bench.core->mute(bench.ann(42), "Ann", true));
  CHECK(reply_to(bench, 1, 42)["code"] == "bad_request");
  CHECK(bench.writes.size() == writes);
  bench.run(bench.core->mute(bench.ann(43), "bob", true));
  bench.run(bench.core->mute(bench.ann(44), "bob", true));
  CHECK(reply_to(bench, 1, 44)["type"] == "ok");
  CHECK(bench.writes.size() == writes + 1);
}

TEST_CASE("chat does not move the game: the turn clock keeps its deadline and idle deals still end the table") {
  SUBCASE("the clock") {
    Bench bench(scripted_info());
    bench.use_clock({{"seconds", 30}});
    bench.seat_and_start();
    const auto token = bench.timers.at(TimerKind::turn).token;
    bench.now += 10'000;
    bench.run(bench.core->chat(bench.ann(), say("thinking…")));
    bench.run(bench.core->chat(bench.bob(), react("hurry")));
    CHECK(bench.timers.at(TimerKind::turn).token == token);
    CHECK(bench.last_state(2)["timer"]["ends_at"] == 1'030'000);
    CHECK(bench.last_state(1)["legal"] == Json::array({{{"type", "tap"}}}));
  }
  SUBCASE("deals without an action") {
    Bench bench(scripted_info(), {{"empty_deals", true}});
    bench.seat_and_start();
    for (int i = 0; i < 10 && bench.timers.count(TimerKind::next_deal); ++i) {
      bench.run(bench.core->chat(bench.ann(), say("anyone?")));
      bench.fire(TimerKind::next_deal);
    }
    CHECK(bench.core->status() == "finished");
  }
}

TEST_CASE("no chat at a finished table, nor at one stopped by a fault: their logs are closed") {
  Bench bench(scripted_info());
  bench.seat_and_start();
  bench.run(bench.core->end(bench.ann()));
  bench.run(bench.core->end(bench.ann()));
  REQUIRE(bench.core->finished());
  const auto seq = bench.core->seq();
  bench.run(bench.core->chat(bench.bob(50), react("gg")));
  CHECK(reply_to(bench, 2, 50)["code"] == "conflict");
  CHECK(bench.core->seq() == seq);

  Bench broken(scripted_info());
  broken.seat_and_start();
  broken.run(broken.core->fail("a request failed: test"));
  broken.run(broken.core->chat(broken.bob(51), react("oops")));
  CHECK(reply_to(broken, 2, 51)["code"] == "conflict");
}

// ---------------------------------------------------------------- standings

TEST_CASE("standings: chips won or lost at the table, deals won and the game's score, the same after a restart") {
  Bench bench(scripted_info(), {{"scored", true}}, 3);
  bench.run(bench.core->join(bench.ann(), 0));
  bench.run(bench.core->join(bench.bob(), 1));
  bench.run(bench.core->join(bench.cat(), 2));
  bench.run(bench.core->start(bench.ann()));
  // Deal 1: ann and bob tap a chip each, bob's tap ends it and takes the pot.
  bench.tap(bench.ann());
  bench.tap(bench.bob());
  bench.fire(TimerKind::next_deal);
  // Deal 2: cat, then ann, who takes it.
  bench.tap(bench.cat());
  bench.tap(bench.ann());
  bench.fire(TimerKind::next_deal);
  // Deal 3 is stopped by the host after bob's tap: its pot goes back to seat 0 and nobody wins it.
  bench.tap(bench.bob());
  bench.run(bench.core->end(bench.ann()));
  bench.run(bench.core->end(bench.ann()));
  REQUIRE(bench.core->finished());
  const Json expected = {
      {"deals", 2},
      {"players",
       Json::array({{{"seat", 0}, {"player", "ann"}, {"bot", false}, {"chips", 1}, {"deals_won", 1}, {"score", 5}},
                    {{"seat", 1}, {"player", "bob"}, {"bot", false}, {"chips", 0}, {"deals_won", 1}, {"score", 5}},
                    {{"seat", 2}, {"player", "cat"}, {"bot", false}, {"chips", -1}, {"deals_won", 0}, {"score", 0}}})}};
  CHECK(bench.last_state(3)["standings"] == expected);
  // The chips are the ledger's.
  CHECK(bench.chips("player:ann") == 101);
  CHECK(bench.chips("player:bob") == 100);
  CHECK(bench.chips("player:cat") == 99);
  bench.restart();
  bench.run(bench.core->watch(bench.cat()));
  CHECK(bench.last_state(3)["standings"] == expected);
}

TEST_CASE("standings are only in a finished table's state, and never for a table stopped by a fault") {
  Bench bench(scripted_info(), {{"scored", true}});
  bench.seat_and_start();
  bench.tap(bench.ann());
  CHECK_FALSE(bench.last_state(1).contains("standings"));
  bench.run(bench.core->fail("a request failed: test"));
  CHECK_FALSE(bench.last_state(1).contains("standings"));
}

TEST_CASE("Standings: a deal is won in chips, else by the highest points above zero; a deal counts once") {
  Standings standings;
  standings.start(3);
  standings.add_transfers({{rules::Account::of_seat(0), rules::Account::of_pool("pot"), 4, ""},
                           {rules::Account::of_pool("pot"), rules::Account::of_seat(2), 3, ""},
                           {rules::Account::of_seat(1), rules::Account::of_seat(2), 2, ""}});
  standings.add_settled_deal({{"deal", 1}, {"seats", {{{"seat", 0}, {"chips", -4}}, {{"seat", 2}, {"chips", 5}}}}});
  standings.add_settled_deal({{"deal", 1}, {"seats", {{{"seat", 2}, {"chips", 5}}}}});  // the same deal again
  // No chips moved: the deal's best points win (both, when tied).
  standings.add_settled_deal({{"deal", 2},
                              {"seats", {{{"seat", 0}, {"chips", 0}, {"points", 12}},
                                         {{"seat", 1}, {"chips", 0}, {"points", 12}},
                                         {{"seat", 2}, {"chips", 0}, {"points", -3}}}}});
  // Nobody above zero: nobody won.
  standings.add_settled_deal({{"deal", 3}, {"seats", {{{"seat", 0}, {"chips", 0}, {"points", 0}}}}});
  CHECK(standings.deals() == 3);
  CHECK(standings.chips(0) == -4);
  CHECK(standings.chips(1) == -2);
  CHECK(standings.chips(2) == 5);
  CHECK(standings.deals_won(0) == 1);
  CHECK(standings.deals_won(1) == 1);
  CHECK(standings.deals_won(2) == 1);
  // Without running scores the score is the sum of the deals' points.
  CHECK(standings.score(0) == 12);
  CHECK(standings.score(2) == -3);
  // A game's running or final scores win over the sum.
  standings.add_settled_deal({{"deal", 4}, {"seats", Json::array()}, {"scores", {40, 10, 0}}, {"final_scores", {50, 10, 0}}});
  CHECK(standings.score(0) == 50);
  // A game without points has no score.
  Standings chips_only;
  chips_only.start(2);
  chips_only.add_settled_deal({{"deal", 1}, {"seats", {{{"seat", 0}, {"chips", 3}}, {{"seat", 1}, {"chips", -3}}}}});
  CHECK_FALSE(chips_only.score(0).has_value());
  CHECK_FALSE(chips_only.to_json({"ann", "bob"}, {false, false})["players"][0].contains("score"));
}

// ---------------------------------------------------------------- rematch

TEST_CASE("rematch: only the host, only once the table has finished, only once") {
  Bench bench(scripted_info(), {{"scored", true}}, 3);
  bench.run(bench.core->join(bench.ann(), 0));
  bench.run(bench.core->join(bench.bob(), 1));
  bench.run(bench.core->add_bot(bench.ann(), 2, 1));
  bench.run(bench.core->start(bench.ann()));
  Outbox out;
  CHECK_FALSE(bench.core->plan_rematch(bench.ann(60), false, out));
  bench.run(std::move(out));
  CHECK(reply_to(bench, 1, 60)["code"] == "conflict");
  bench.run(bench.core->end(bench.ann()));
  bench.run(bench.core->end(bench.ann()));
  REQUIRE(bench.core->finished());
  out = Outbox{};
  CHECK_FALSE(bench.core->plan_rematch(bench.bob(61), false, out));
  bench.run(std::move(out));
  CHECK(reply_to(bench, 2, 61)["code"] == "forbidden");

  out = Outbox{};
  const auto plan = bench.core->plan_rematch(bench.ann(62), true, out);
  REQUIRE(plan);
  CHECK(out.frames.empty());
  CHECK(plan->from_table == "t1");
  CHECK(plan->same_seed);
  CHECK(plan->seed == 7);
  CHECK(plan->game == "scripted");
  CHECK(plan->host == "ann");
  REQUIRE(plan->seats.size() == 3);
  CHECK(plan->seats[0].player == "ann");
  CHECK(plan->seats[2].bot);
  CHECK(plan->seats[2].bot_level == 1);
  CHECK(plan->standings["players"].size() == 3);
  // While the lobby makes it, a second one is refused.
  out = Outbox{};
  CHECK_FALSE(bench.core->plan_rematch(bench.ann(63), false, out));
  bench.run(std::move(out));
  CHECK(reply_to(bench, 1, 63)["code"] == "conflict");

  // The lobby commits the new table with this table's event naming it (as the
  // store test "a rematch is one transaction" does); it is taken in here as made.
  const auto writes = bench.writes.size();
  bench.events.push_back({plan->seq, rematch_event("t2", true).dump()});
  bench.run(bench.core->rematch_made(bench.ann(62), "t2", "new-invite"));
  CHECK(bench.writes.size() == writes);  // nothing written twice
  CHECK(bench.core->seq() == plan->seq);
  CHECK(reply_to(bench, 1, 62) == Json{{"type", "created"}, {"re", 62}, {"table", "t2"}, {"invite", "new-invite"},
                                       {"rematch_of", "t1"}, {"same_seed", true}});
  CHECK(bench.last_state(2)["rematch"] == Json{{"table", "t2"}, {"same_seed", true}});
  CHECK(bench.log_has(2, "The host opened a rematch with the same deals: table t2."));
  // Kept in the log: a restart still offers the rematch.
  bench.restart();
  bench.run(bench.core->watch(bench.bob()));
  CHECK(bench.last_state(2)["rematch"] == Json{{"table", "t2"}, {"same_seed", true}});
}

TEST_CASE("rematch: the old table's event takes the next seq, requests wait for it, and a retry answers the same table") {
  Bench bench(scripted_info(), Json::object(), 2);
  bench.seat_and_start();
  bench.run(bench.core->end(bench.ann()));
  bench.run(bench.core->end(bench.ann()));
  REQUIRE(bench.core->finished());
  Outbox out;
  const auto plan = bench.core->plan_rematch(bench.ann(80), false, out);
  REQUIRE(plan);
  CHECK(plan->seq == bench.core->seq() + 1);
  CHECK_FALSE(plan->made);
  CHECK(bench.core->committing());  // the actor holds other requests until the lobby answers
  bench.events.push_back({plan->seq, rematch_event("t2", false).dump()});
  bench.run(bench.core->rematch_made(bench.ann(80), "t2", "inv2"));
  CHECK_FALSE(bench.core->committing());
  // The host asks again (his reply was lost, or the server restarted): the same table.
  bench.restart();
  out = Outbox{};
  const auto again = bench.core->plan_rematch(bench.ann(81), true, out);
  REQUIRE(again);
  CHECK(again->made == "t2");
  CHECK(out.frames.empty());
  const auto seq = bench.core->seq();
  bench.run(bench.core->rematch_made(bench.ann(81), "t2", "inv2"));
  CHECK(reply_to(bench, 1, 81) == Json{{"type", "created"}, {"re", 81}, {"table", "t2"}, {"invite", "inv2"},
                                       {"rematch_of", "t1"}, {"same_seed", false}, {"duplicate", true}});
  CHECK(bench.core->seq() == seq);
}

TEST_CASE("rematch: a refusal by the lobby is passed on and the host may ask again; a player who left leaves his seat open") {
  Bench bench(scripted_info(), Json::object(), 3);
  bench.run(bench.core->join(bench.ann(), 0));
  bench.run(bench.core->join(bench.bob(), 1));
  bench.run(bench.core->join(bench.cat(), 2));
  bench.run(bench.core->start(bench.ann()));
  bench.run(bench.core->leave(bench.cat()));
  bench.run(bench.core->end(bench.ann()));
  bench.run(bench.core->end(bench.ann()));
  Outbox out;
  auto plan = bench.core->plan_rematch(bench.ann(70), false, out);
  REQUIRE(plan);
  CHECK(plan->seats[2].player.empty());
  CHECK(plan->deck_json.empty());
  bench.run(bench.core->rematch_failed(bench.ann(70), "conflict", "you already host 20 open tables"));
  CHECK(reply_to(bench, 1, 70)["code"] == "conflict");
  CHECK(bench.core->plan_rematch(bench.ann(71), false, out));
}

TEST_CASE("a same-seed rematch shows its standings side by side with the table it repeats") {
  Bench bench(scripted_info(), {{"scored", true}});
  const Json previous = {
      {"deals", 1},
      {"players", Json::array({{{"seat", 0}, {"player", "ann"}, {"bot", false}, {"chips", 1}, {"deals_won", 1}},
                               {{"seat", 1}, {"player", "bob"}, {"bot", false}, {"chips", -1}, {"deals_won", 0}}})}};
  const Json first = {{"kind", "rematch_of"}, {"table", "t0"}, {"same_seed", true}, {"standings", previous}};
  bench.events = {{1, first.dump()}};
  bench.core = bench.make(bench.record, bench.events);
  bench.seat_and_start();
  CHECK(bench.last_state(1)["rematch_of"] == Json{{"table", "t0"}, {"same_seed", true}});
  bench.tap(bench.ann());
  bench.tap(bench.bob());
  bench.run(bench.core->end(bench.ann()));
  REQUIRE(bench.core->finished());
  const auto standings = bench.last_state(1)["standings"];
  CHECK(standings["rematch_of"] == "t0");
  auto compare = previous;
  compare["table"] = "t0";
  CHECK(standings["compare"] == compare);
  CHECK(standings["players"][1]["chips"] == 1);
}

TEST_CASE("chat before play starts is kept too: the log replays a chat line ahead of the start") {
  Bench bench(scripted_info());
  bench.run(bench.core->join(bench.ann(), 0));
  bench.run(bench.core->chat(bench.ann(80), say("waiting for bob")));
  CHECK(reply_to(bench, 1, 80)["seq"] == 1);
  bench.run(bench.core->join(bench.bob(), 1));
  bench.run(bench.core->start(bench.ann()));
  REQUIRE(bench.core->status() == "playing");
  CHECK(bench.core->seq() == 2);
  bench.restart();
  bench.frames.clear();
  bench.run(bench.core->watch(bench.cat()));
  CHECK(chat_seen(bench, 3).size() == 1);
  CHECK(bench.last_state(3)["to_act"] == Json::array({0}));
}

// ---------------------------------------------------------------- late joiners and open seats

namespace {

const rules::GameInfo& red_dog() { return *rules::Registry::builtin().find("red_dog"); }

// Ann, bob and cat in seats 0, 1 and 2, and play starts.
void seat_three_and_start(Bench& bench) {
  bench.run(bench.core->join(bench.ann(), 0));
  bench.run(bench.core->join(bench.bob(), 1));
  bench.run(bench.core->join(bench.cat(), 2));
  bench.run(bench.core->start(bench.ann()));
}

// A fourth person, with chips of her own.
Caller dan() { return {4, "dan", 1}; }
void give_dan_chips(Bench& bench) {
  auto lock = bench.balances.lock();
  bench.balances.apply({{"bank", "player:dan", 100, "grant", "", "", std::nullopt, std::nullopt}}, lock);
}

// Plays the deal in progress to its end, each seat taking its first legal action
// (a bet at its least) and bots moving when their timer fires. `zed` (client 9)
// watches, so that every step's state is seen.
void play_out_deal(Bench& bench, int most_steps = 100) {
  const std::map<std::string, Caller> people = {
      {"ann", bench.ann()}, {"bob", bench.bob()}, {"cat", bench.cat()}, {"dan", dan()}};
  for (int step = 0; step < most_steps; ++step) {
    const auto watched = bench.last_state(9);
    if (watched["to_act"].empty()) return;
    const int seat = watched["to_act"][0];
    const auto player = bench.player(9, seat);
    const std::string name = player["player"];
    if (player["away"] == true || player["bot"] == true || !people.count(name)) {
      bench.fire(TimerKind::bot);
      continue;
    }
    const auto& who = people.at(name);
    auto action = bench.last_state(who.client)["legal"].at(0);
    if (action.contains("amount")) action["amount"] = action["amount"]["min"];
    bench.run(bench.core->act(who, action, std::nullopt));
  }
  FAIL("the deal did not end in " << most_steps << " steps");
}

// The last answer (not a state push) the client had.
Json answer(const Bench& bench, ClientId client) {
  const auto& list = bench.frames.at(client);
  for (auto it = list.rbegin(); it != list.rend(); ++it)
    if ((*it)["type"] != "state") return *it;
  return Json();
}

// The last event without the balances every event records.
Json last_event_bare(const Bench& bench) {
  auto event = bench.last_event();
  event.erase("balances");
  return event;
}

Json seat_of_player(const Json& state, const std::string& name) {
  for (const auto& p : state["players"])
    if (p["player"] == name) return p["seat"];
  return Json();
}

}  // namespace

TEST_CASE("late join: a friend who joins a Red Dog table in play waits, is told so, and is dealt in at the next deal") {
  Bench bench(red_dog(), Json::object(), 3);
  bench.seat_and_start();
  const Caller zed{9, "zed", 1};
  bench.run(bench.core->watch(zed));
  auto start = Json::parse(bench.events.front().json);
  CHECK(start["open"] == Json::array({2}));  // the empty seat stays in the game, out of play
  CHECK(bench.core->summary()["late_join"] == true);

  bench.run(bench.core->join(bench.cat(), std::nullopt, /*invited=*/true));
  const auto answer = bench.frames.at(3).front();
  CHECK(answer["type"] == "watching");
  CHECK(answer["waiting"] == 1);
  CHECK(answer["message"] == "The game is under way: you take a seat when the next deal starts.");
  CHECK(bench.last_state(3)["seat"].is_null());
  CHECK(bench.last_state(3)["waiting"] == 1);
  CHECK(bench.core->summary()["waiting"] == 1);

  play_out_deal(bench);
  bench.fire(TimerKind::next_deal);
  const auto deal = bench.last_event();
  REQUIRE(deal["kind"] == "deal");
  CHECK(deal["seats"] == Json::parse(R"([{"seat":2,"player":"cat","bot":false}])"));
  const auto state = bench.last_state(3);
  CHECK(state["seat"] == 2);
  CHECK_FALSE(state.contains("waiting"));
  CHECK(bench.log_has(9, "cat takes seat 2 and is dealt in."));
  // A newcomer antes like anyone joining a pot and holds cards.
  CHECK(state["view"]["seats"][2]["cards"].size() == state["view"]["hand_size"]);
  CHECK(bench.chips("player:cat") < 100);
  CHECK(bench.core->summary()["seats"][2]["player"] == "cat");
  CHECK(bench.writes.back().seats);

  // The log replays to the same seats and view.
  const auto before = bench.last_state(3);
  bench.restart();
  bench.run(bench.core->watch(bench.cat()));
  const auto after = bench.last_state(3);
  CHECK(after["seat"] == 2);
  CHECK(after["view"] == before["view"]);
}

TEST_CASE("late join: a game played to its end by those who started it answers watching with the reason, no seat") {
  Bench bench(*rules::Registry::builtin().find("rummy"), Json::object(), 3);
  bench.seat_and_start();
  CHECK(bench.core->summary()["late_join"] == false);
  const auto seq = bench.core->seq();
  bench.run(bench.core->join(bench.cat(), std::nullopt, /*invited=*/true));
  const auto answer = bench.frames.at(3).front();
  CHECK(answer["type"] == "watching");
  CHECK_FALSE(answer.contains("waiting"));
  CHECK(answer["message"] == "Rummy is played to its end by the players who started it: you are watching.");
  CHECK(bench.core->seq() == seq);
  CHECK(bench.last_state(3)["seat"].is_null());
}

TEST_CASE("late join: with every seat taken the newcomer is told his place in line and takes the first seat freed") {
  Bench bench(red_dog(), Json::object(), 3);
  give_dan_chips(bench);
  seat_three_and_start(bench);
  bench.run(bench.core->watch({9, "zed", 1}));
  bench.run(bench.core->join(dan(), std::nullopt, /*invited=*/true));
  CHECK(bench.frames.at(4).front()["message"] ==
        "The game is under way and every seat is taken: you are watching, number 1 in line for the first seat that "
        "frees up.");
  // Bob goes for good; his seat passes to dan at the next deal.
  bench.run(bench.core->leave(bench.bob()));
  play_out_deal(bench);
  bench.fire(TimerKind::next_deal);
  CHECK(bench.last_event()["seats"] == Json::parse(R"([{"seat":1,"player":"dan","bot":false}])"));
  CHECK(bench.last_state(4)["seat"] == 1);
  CHECK(bench.player(9, 1)["player"] == "dan");
}

TEST_CASE("late join: a seat left by a player nobody takes is emptied at the next deal, his chips his") {
  Bench bench(red_dog(), Json::object(), 3);
  seat_three_and_start(bench);
  bench.run(bench.core->watch({9, "zed", 1}));
  bench.run(bench.core->leave(bench.bob()));
  play_out_deal(bench);
  const auto bobs = bench.chips("player:bob");
  bench.fire(TimerKind::next_deal);
  CHECK(bench.last_event()["seats"] == Json::parse(R"([{"seat":1,"player":null}])"));
  CHECK(bench.log_has(9, "bob has gone; seat 1 is open."));
  CHECK(bench.player(9, 1).is_null());
  CHECK(bench.chips("player:bob") == bobs);
  CHECK(bench.core->summary()["seats"][1]["player"].is_null());
}

TEST_CASE("open seats: the host moves a bot out for a person, who takes its seat at the next deal") {
  Bench bench(red_dog(), Json::object(), 2);
  bench.run(bench.core->join(bench.ann(), 0));
  bench.run(bench.core->add_bot(bench.ann(), 1, 0));
  bench.run(bench.core->start(bench.ann()));
  bench.run(bench.core->watch({9, "zed", 1}));
  const std::string bot = bench.player(9, 1)["player"];
  bench.run(bench.core->join(bench.cat(), std::nullopt, /*invited=*/true));
  bench.run(bench.core->unseat(bench.ann(2), 1, "open"));
  CHECK(answer(bench, 1)["type"] == "ok");
  CHECK(last_event_bare(bench) == Json::parse(R"({"kind":"unseat","seat":1,"replace":"open"})"));
  CHECK(bench.player(9, 1)["leaving"] == "open");
  play_out_deal(bench);
  bench.fire(TimerKind::next_deal);
  CHECK(bench.last_state(3)["seat"] == 1);
  CHECK(seat_of_player(bench.last_state(9), bot).is_null());
}

TEST_CASE("open seats: an absent player removed by the host is played by a bot to the deal's end, then a bot takes "
          "his seat; his chips stay his") {
  Bench bench(red_dog(), Json::object(), 2);
  bench.seat_and_start();
  bench.run(bench.core->watch({9, "zed", 1}));
  // Bob is present: he cannot be moved out.
  const auto seq = bench.core->seq();
  bench.run(bench.core->unseat(bench.ann(), 1, "bot"));
  CHECK(answer(bench, 1)["code"] == "conflict");
  CHECK(bench.core->seq() == seq);
  bench.run(bench.core->disconnected(2));
  bench.run(bench.core->unseat(bench.ann(), 1, "bot"));
  REQUIRE(answer(bench, 1)["type"] == "ok");
  CHECK(bench.player(9, 1)["leaving"] == "bot");
  CHECK(bench.player(9, 1)["away"] == true);
  play_out_deal(bench);
  const auto bobs_chips = bench.chips("player:bob");
  bench.fire(TimerKind::next_deal);
  const auto deal = bench.last_event();
  REQUIRE(deal["seats"].size() == 1);
  const std::string bot = deal["seats"][0]["player"];
  CHECK(is_new_bot_name(bot, 1));
  CHECK(deal["seats"][0] == Json{{"seat", 1}, {"player", bot}, {"bot", true}, {"level", 1}});
  CHECK(bench.player(9, 1)["player"] == bot);
  CHECK(bench.chips("player:bob") == bobs_chips);
  CHECK(bench.chips("player:" + bot) > 0);  // its starting chips, less what it put in this deal
  CHECK(bench.writes.back().postings.front().memo == "starting chips (bot)");
}

TEST_CASE("open seats: a pending move out survives a restart and happens at the next deal") {
  Bench bench(red_dog(), Json::object(), 2);
  bench.seat_and_start();
  bench.run(bench.core->disconnected(2));
  bench.run(bench.core->unseat(bench.ann(), 1, "bot"));
  bench.restart();
  bench.run(bench.core->join(bench.ann(), std::nullopt));
  bench.run(bench.core->watch({9, "zed", 1}));
  CHECK(bench.player(9, 1)["leaving"] == "bot");
  CHECK(bench.player(9, 1)["away"] == true);
  play_out_deal(bench);
  bench.fire(TimerKind::next_deal);
  CHECK(is_new_bot_name(bench.player(9, 1)["player"], 1));
}

TEST_CASE("open seats: only the host frees seats, never his own, and only a seat that exists and is taken") {
  Bench bench(red_dog(), Json::object(), 3);
  bench.seat_and_start();
  const auto seq = bench.core->seq();
  bench.run(bench.core->unseat(bench.bob(), 0, "open"));
  CHECK(answer(bench, 2)["code"] == "forbidden");
  bench.run(bench.core->unseat(bench.ann(), 0, "open"));
  CHECK(answer(bench, 1)["code"] == "conflict");
  CHECK(answer(bench, 1)["message"] == "that is your own seat: send leave to give it up");
  bench.run(bench.core->unseat(bench.ann(), 7, "open"));
  CHECK(answer(bench, 1)["code"] == "bad_request");
  bench.run(bench.core->unseat(bench.ann(), 2, "open"));
  CHECK(answer(bench, 1)["code"] == "conflict");
  CHECK(answer(bench, 1)["message"] == "seat 2 is already empty");
  CHECK(bench.core->seq() == seq);
}

TEST_CASE("open seats: in a game played to its end, an absent player can only be taken out, as if he had left: his hand played out first") {
  Bench bench(*rules::Registry::builtin().find("rummy"), Json::object(), 3);
  seat_three_and_start(bench);
  bench.run(bench.core->disconnected(3));
  const auto seq = bench.core->seq();
  bench.run(bench.core->unseat(bench.ann(), 2, "bot"));
  CHECK(answer(bench, 1)["code"] == "conflict");
  CHECK(bench.core->seq() == seq);
  bench.run(bench.core->watch({9, "zed", 1}));
  bench.run(bench.core->unseat(bench.ann(), 2, "open"));
  CHECK(answer(bench, 1)["type"] == "ok");
  CHECK(last_event_bare(bench) == Json::parse(R"({"kind":"unseat","seat":2,"replace":"open"})"));
  CHECK(bench.log_has(9, "The host takes cat out of the game: a bot plays their hand to the end of this deal"));
  CHECK(bench.player(9, 2)["away"] == true);
  play_out_deal(bench, 2000);
  CHECK(bench.last_state(9)["result"]["end"] != "abandoned");
  bench.fire(TimerKind::next_deal);
  CHECK(bench.last_event()["seats"] == Json::parse(R"([{"seat":2,"left":true}])"));
  CHECK(bench.core->state().seats()[2].left);
  // Between deals it is at once, as before.
  Bench later(*rules::Registry::builtin().find("rummy"), Json::object(), 3);
  seat_three_and_start(later);
  later.run(later.core->watch({9, "zed", 1}));
  play_out_deal(later, 2000);
  later.run(later.core->disconnected(3));
  later.run(later.core->unseat(later.ann(), 2, "open"));
  CHECK(last_event_bare(later) == Json::parse(R"({"kind":"leave","seat":2,"by":"host"})"));
}

TEST_CASE("open seats: before play the host empties a seat at once") {
  Bench bench(red_dog(), Json::object(), 3);
  bench.run(bench.core->join(bench.ann(), 0));
  bench.run(bench.core->add_bot(bench.ann(), 1, 0));
  bench.run(bench.core->unseat(bench.ann(), 1, "open"));
  CHECK(answer(bench, 1)["type"] == "ok");
  CHECK(bench.core->summary()["seats"][1]["player"].is_null());
}

TEST_CASE("late join: the standings keep what a player did at his seat before it changed hands, after a restart too") {
  Bench bench(red_dog(), Json::object(), 3);
  give_dan_chips(bench);
  seat_three_and_start(bench);
  bench.run(bench.core->watch({9, "zed", 1}));
  bench.run(bench.core->join(dan(), std::nullopt, /*invited=*/true));
  bench.run(bench.core->leave(bench.bob()));
  play_out_deal(bench);
  const auto bobs_net = bench.chips("player:bob") - 100;
  bench.fire(TimerKind::next_deal);
  REQUIRE(bench.player(9, 1)["player"] == "dan");
  play_out_deal(bench);
  bench.run(bench.core->end(bench.ann()));
  const auto standings = bench.last_state(9)["standings"];
  REQUIRE(standings.is_object());
  Json dan_row, bob_row;
  for (const auto& row : standings["players"]) {
    if (row["player"] == "dan") dan_row = row;
    if (row["player"] == "bob") bob_row = row;
  }
  CHECK(dan_row["seat"] == 1);
  CHECK(dan_row["chips"] == bench.chips("player:dan") - 100);
  CHECK_FALSE(dan_row.contains("left"));
  CHECK(bob_row["seat"] == 1);
  CHECK(bob_row["left"] == true);
  CHECK(bob_row["chips"] == bobs_net);
  // The log names each seat's player of the time when it is replayed.
  bench.restart();
  bench.run(bench.core->watch({9, "zed", 2}));
  CHECK(bench.last_state(9)["standings"] == standings);
}

TEST_CASE("fair deals: each deal's push carries its commitment, derived again after a restart; the seed only at the end") {
  Bench bench(scripted_info());
  bench.run(bench.core->join(bench.ann(), 0));
  bench.run(bench.core->join(bench.bob(), 1));
  CHECK_FALSE(bench.last_state(1).contains("fair"));  // before play: nothing to commit to
  bench.run(bench.core->start(bench.ann()));
  const auto start = bench.last_event();
  const std::string salt = start.at("fair_salt");
  CHECK(salt.size() == 32);
  const auto first = bench.last_state(2);
  CHECK(first["fair"] == Json({{"deal", 1}, {"commitment", rules::fair::commitment("t1", 1, 7, salt)}}));
  CHECK(first["log"].back() == "Deal 1 is dealt from a committed deck: sha256 " + rules::fair::commitment("t1", 1, 7, salt) + ".");
  bench.tap(bench.ann());
  CHECK_FALSE(bench.last_pushed(2).contains("fair"));  // sent once a deal: the client keeps it
  CHECK(bench.last_state(2)["fair"] == first["fair"]);
  bench.tap(bench.bob());
  bench.run(bench.core->act(bench.ann(), {{"type", "continue"}}, std::nullopt));
  bench.run(bench.core->act(bench.bob(), {{"type", "continue"}}, std::nullopt));
  CHECK(bench.last_state(1)["fair"]["deal"] == 2);
  CHECK(bench.last_state(1)["fair"]["commitment"] == rules::fair::commitment("t1", 2, 7, salt));
  bench.restart();
  bench.run(bench.core->watch(bench.cat()));
  CHECK(bench.last_state(3)["fair"] == Json({{"deal", 2}, {"commitment", rules::fair::commitment("t1", 2, 7, salt)}}));
  for (const auto& [client, frames] : bench.frames)
    for (const auto& frame : frames) CHECK_FALSE(frame.dump().find(salt) != std::string::npos);
  bench.run(bench.core->end(bench.ann()));
  bench.run(bench.core->end(bench.ann()));
  REQUIRE(bench.last_state(3)["status"] == "finished");
  CHECK(bench.last_state(3)["fair"] == Json({{"deal", 2},
                                             {"commitment", rules::fair::commitment("t1", 2, 7, salt)},
                                             {"scheme", "parlour-fair-1"},
                                             {"seed", "7"},
                                             {"salt", salt}}));
}

TEST_CASE("history: replayed offline, a seated player's finished deals from his own seat; strangers refused until the end") {
  Bench bench(scripted_info());
  bench.seat_and_start();
  bench.tap(bench.ann());
  bench.tap(bench.bob());  // deal 1 is over
  bench.run(bench.core->act(bench.ann(), {{"type", "continue"}}, std::nullopt));
  bench.run(bench.core->act(bench.bob(), {{"type", "continue"}}, std::nullopt));
  bench.tap(bench.ann());  // deal 2 under way
  const auto record = bench.stored_record();
  CHECK_THROWS_WITH_AS(build_history(record, bench.info, bench.events, HistoryQuery{"cat", {}, {}, false}),
                       "table t1 is still being played; until it ends only the players seated at it may replay its "
                       "finished deals",
                       parlour::protocol::ProtocolError);
  CHECK_THROWS_WITH_AS(build_history(record, bench.info, bench.events, HistoryQuery{"ann", 2, {}, false}),
                       "deal 2 of table t1 is still being played; it can be replayed once it ends", parlour::protocol::ProtocolError);
  CHECK_THROWS_WITH_AS(build_history(record, bench.info, bench.events, HistoryQuery{"ann", 3, {}, false}),
                       "table t1 has had 2 deals; there is no deal 3", parlour::protocol::ProtocolError);
  const auto seq_before = bench.core->seq();
  const auto doc = build_history(record, bench.info, bench.events, HistoryQuery{"bob", 1, {}, false});
  CHECK(bench.core->seq() == seq_before);  // the live table is untouched
  CHECK(doc["viewer"] == Json({{"player", "bob"}, {"seat", 1}, {"full", false}}));
  REQUIRE(doc["steps"].size() == 3);  // start, ann's tap, bob's tap
  CHECK(doc["steps"][0]["event"] == Json({{"kind", "start"}}));
  CHECK(doc["steps"][1]["event"] == Json({{"kind", "act"}, {"seat", 0}, {"player", "ann"}, {"action", {{"type", "tap"}}}}));
  CHECK(doc["steps"][1]["log"] == Json::array({"tap 1"}));
  CHECK(doc["steps"][2]["phase"] == "deal_over");
  CHECK(doc["steps"][2].contains("result"));
  CHECK(doc["deals"] == Json::array({{{"deal", 1}, {"from_seq", 1}, {"to_seq", 3}, {"finished", true},
                                      {"commitment", bench.core->commitment(1)}},
                                     {{"deal", 2}, {"from_seq", 4}, {"to_seq", 5}, {"finished", false},
                                      {"commitment", bench.core->commitment(2)}}}));
  for (const auto& step : doc["steps"]) {
    CHECK(step.contains("view"));
    CHECK_FALSE(step.contains("views"));
  }
  CHECK(doc["next_from"].is_null());
  // Paging: a reply holds at most `limit` steps; its next_from, sent as `from`, gives the rest of the deal.
  const auto page = build_history(record, bench.info, bench.events, HistoryQuery{"bob", 1, {}, false, 2});
  CHECK(page["steps"].size() == 2);
  CHECK(page["next_from"] == 3);
  const auto rest = build_history(record, bench.info, bench.events, HistoryQuery{"bob", 1, 3, false, 2});
  REQUIRE(rest["steps"].size() == 1);
  CHECK(rest["steps"][0] == doc["steps"][2]);
  CHECK(rest["next_from"].is_null());
}

TEST_CASE("history: a kept replay goes on from where it stood and serves the pages a fresh replay would") {
  Bench bench(scripted_info());
  bench.seat_and_start();
  const auto play_deal = [&bench] {
    bench.tap(bench.ann());
    bench.tap(bench.bob());
    bench.run(bench.core->act(bench.ann(), {{"type", "continue"}}, std::nullopt));
    bench.run(bench.core->act(bench.bob(), {{"type", "continue"}}, std::nullopt));
  };
  play_deal();
  play_deal();
  ReplayedHistory kept(bench.stored_record(), bench.info);
  const auto counted = history_events_replayed();
  kept.extend(bench.events);
  CHECK(history_events_replayed() - counted == bench.events.size());
  CHECK(kept.seq() == bench.core->seq());

  for (int deal = 0; deal < 20; ++deal) play_deal();
  const auto record = bench.stored_record();
  REQUIRE(kept.made_for(record));
  std::vector<storage::Event> since;
  for (const auto& event : bench.events)
    if (event.seq > kept.seq()) since.push_back(event);
  const auto before = history_events_replayed();
  kept.extend(since);
  // Only what was logged since: the cost of going on is not the table's age.
  CHECK(history_events_replayed() - before == since.size());
  CHECK(since.size() < bench.events.size());
  // Every page, for either player and paged small, is the page a fresh replay gives.
  for (const std::string viewer : {"ann", "bob"})
    for (int deal = 1; deal <= 22; ++deal)
      for (const std::optional<std::int64_t> from : {std::optional<std::int64_t>{}, std::optional<std::int64_t>{bench.events.size() / 2}}) {
        const HistoryQuery query{viewer, deal, from, false, 2};
        CHECK(kept.document(record, query) == build_history(record, bench.info, bench.events, query));
      }
  // A page costs no replay at all.
  const auto paged = history_events_replayed();
  kept.document(record, HistoryQuery{"ann", 5, {}, false});
  CHECK(history_events_replayed() == paged);

  // The table's end is another record: a kept replay is not taken for it.
  bench.run(bench.core->end(bench.ann()));
  bench.run(bench.core->end(bench.ann()));
  CHECK_FALSE(kept.made_for(bench.stored_record()));
  const auto whole = HistoryQuery{"ann", std::nullopt, std::nullopt, true};
  ReplayedHistory ended(bench.stored_record(), bench.info);
  ended.extend(bench.events);
  CHECK(ended.document(bench.stored_record(), whole) ==
        build_history(bench.stored_record(), bench.info, bench.events, whole));
}

TEST_CASE("late join: a player who left comes back as anyone late, in line, and is dealt in afresh at the next deal") {
  Bench bench(red_dog(), Json::object(), 3);
  seat_three_and_start(bench);
  bench.run(bench.core->watch({9, "zed", 1}));
  bench.run(bench.core->leave(bench.bob()));
  const auto seq = bench.core->seq();
  bench.run(bench.core->leave(bench.bob()));  // a second leave changes nothing
  CHECK(bench.core->seq() == seq);
  bench.run(bench.core->join(bench.bob(), std::nullopt));
  Json reply;
  for (const auto& frame : bench.frames.at(2))
    if (frame["type"] == "watching") reply = frame;
  REQUIRE(reply.is_object());
  CHECK(reply["waiting"] == 1);
  play_out_deal(bench);
  bench.fire(TimerKind::next_deal);
  CHECK(bench.last_event()["seats"] == Json::parse(R"([{"seat":1,"player":"bob","bot":false}])"));
  CHECK(bench.player(9, 1)["player"] == "bob");
  CHECK(bench.last_state(2)["legal"].is_array());
}

TEST_CASE("leave in the middle of a Rams deal: a bot plays the hand to the deal's end, nothing is void, the seat opens at the next deal") {
  Bench bench(*rules::Registry::builtin().find("rams"), Json::object(), 3);
  seat_three_and_start(bench);
  bench.run(bench.core->watch({9, "zed", 1}));
  REQUIRE(bench.last_state(9)["to_act"].size() == 1);
  bench.run(bench.core->leave(bench.bob(5)));
  CHECK(bench.reply(2, 5)["type"] == "left");
  CHECK(last_event_bare(bench) == Json::parse(R"({"kind":"unseat","seat":1,"replace":"open","by":"player"})"));
  CHECK(bench.log_has(9, "bob leaves the table: a bot plays their hand to the end of this deal, and the seat is open "
                         "from the next deal."));
  CHECK(bench.player(9, 1)["leaving"] == "open");
  CHECK(bench.player(9, 1)["away"] == true);
  // The seat is his no more: not among his tables, no move of his, no "back".
  CHECK(bench.core->holders() == std::vector<std::string>{"ann", "cat"});
  bench.run(bench.core->back(bench.bob(6)));
  CHECK(bench.reply(2, 6)["code"] == "conflict");
  // A crash now: the log says who is leaving, and the bot goes on playing his hand.
  bench.restart();
  bench.run(bench.core->join(bench.ann(), std::nullopt));
  bench.run(bench.core->join(bench.cat(), std::nullopt));
  bench.run(bench.core->watch({9, "zed", 1}));
  CHECK(bench.player(9, 1)["leaving"] == "open");
  CHECK(bench.player(9, 1)["away"] == true);
  play_out_deal(bench);
  const auto result = bench.last_state(9)["result"];
  REQUIRE(result.is_object());
  CHECK(result["outcome"] != "void");
  CHECK_FALSE(bench.log_has(9, "The deal is void: the cards are thrown in; the pool carries over."));
  bench.fire(TimerKind::next_deal);
  // Two players are too few for Rams: the seat empties, and the game is over.
  REQUIRE(bench.events.size() >= 2);
  const auto deal = Json::parse(bench.events[bench.events.size() - 2].json);
  CHECK(deal["kind"] == "deal");
  CHECK(deal["seats"] == Json::parse(R"([{"seat":1,"player":null}])"));
  CHECK(bench.log_has(9, "bob has gone; seat 1 is open."));
  CHECK(bench.last_state(9)["status"] == "finished");
}

TEST_CASE("leave in the middle of a Rummy deal: the deal is played out, and the game goes on without him from the next") {
  Bench bench(*rules::Registry::builtin().find("rummy"), Json::object(), 3);
  seat_three_and_start(bench);
  bench.run(bench.core->watch({9, "zed", 1}));
  bench.run(bench.core->leave(bench.bob()));
  CHECK(bench.log_has(9, "bob leaves the table: a bot plays their hand to the end of this deal, and the game goes on "
                         "without them from the next deal."));
  CHECK_FALSE(bench.log_has(9, "The deal is abandoned."));
  play_out_deal(bench, 2000);
  CHECK(bench.last_state(9)["result"]["end"] != "abandoned");
  bench.fire(TimerKind::next_deal);
  CHECK(bench.last_event()["seats"] == Json::parse(R"([{"seat":1,"left":true}])"));
  CHECK(bench.log_has(9, "bob leaves the table."));
  // Ann and cat play on, dealt a new deal; bob's seat is out of the game, his name kept.
  CHECK(bench.last_state(9)["status"] == "playing");
  CHECK(bench.player(9, 1)["player"] == "bob");
  CHECK_FALSE(bench.player(9, 1).contains("leaving"));
  CHECK(bench.core->state().seats()[1].left);
  // Replayed from its log, the table is the same.
  const auto before = bench.core->state().seats()[1].left;
  bench.restart();
  CHECK(bench.core->state().seats()[1].left == before);
}

TEST_CASE("leave between deals is at once, as before: nothing is left to play out") {
  Bench bench(red_dog(), Json::object(), 3);
  seat_three_and_start(bench);
  bench.run(bench.core->watch({9, "zed", 1}));
  play_out_deal(bench);
  bench.run(bench.core->leave(bench.bob()));
  CHECK(last_event_bare(bench) == Json::parse(R"({"kind":"leave","seat":1})"));
  CHECK(bench.core->state().seats()[1].left);
}

TEST_CASE("late join: a stranger without the invite of a private table in play is refused; the line has a limit") {
  Bench bench(red_dog(), Json::object(), 3);
  bench.make_private();
  bench.seat_and_start();
  const auto seq = bench.core->seq();
  bench.run(bench.core->join(bench.cat(), std::nullopt));
  CHECK(answer(bench, 3)["code"] == "forbidden");
  CHECK(answer(bench, 3)["message"] == "table t1 is private; join it through its invite");
  CHECK_FALSE(bench.core->is_member(3));
  CHECK(bench.core->summary()["waiting"] == 0);
  CHECK(bench.core->seq() == seq);
  // Through the invite, up to max_waiting people wait in line; the next one watches.
  for (std::size_t i = 0; i < TableCore::max_waiting; ++i)
    bench.run(bench.core->join({ClientId{100 + i}, "p" + std::to_string(i), 1}, std::nullopt, true));
  CHECK(bench.core->summary()["waiting"] == TableCore::max_waiting);
  bench.run(bench.core->join(bench.cat(), std::nullopt, true));
  const auto late = answer(bench, 3);
  CHECK(late["type"] == "watching");
  CHECK_FALSE(late.contains("waiting"));
  CHECK(late["message"] == "The game is under way and 32 people are in line for a seat already: you are watching.");
}

TEST_CASE("private tables: by its id alone nobody joins or watches a waiting table; the invite, the host and the "
          "seated do") {
  Bench bench(scripted_info(), Json::object(), 3);
  bench.make_private();
  bench.run(bench.core->join(bench.ann(), 0));  // the host
  const auto seq = bench.core->seq();
  bench.run(bench.core->join(bench.bob(), 1));
  CHECK(answer(bench, 2)["code"] == "forbidden");
  CHECK(answer(bench, 2)["message"] == "table t1 is private; join it through its invite");
  bench.run(bench.core->watch(bench.cat()));
  CHECK(answer(bench, 3)["code"] == "forbidden");
  CHECK(answer(bench, 3)["message"] == "table t1 is private; watch it through its invite");
  CHECK_FALSE(bench.core->is_member(2));
  CHECK_FALSE(bench.core->is_member(3));
  CHECK(bench.core->seq() == seq);
  // No state went to them: no seat, no chat, no invite.
  for (ClientId stranger : {ClientId{2}, ClientId{3}})
    for (const auto& frame : bench.frames[stranger]) CHECK(frame["type"] == "error");
  // Through the invite bob sits; seated, he comes back by id; cat watches through it.
  bench.run(bench.core->join(bench.bob(), 1, /*invited=*/true));
  CHECK(answer(bench, 2)["type"] == "joined");
  bench.run(bench.core->join(bench.bob(), 1));
  CHECK(answer(bench, 2)["type"] == "joined");
  bench.run(bench.core->watch(bench.cat(), /*invited=*/true));
  CHECK(answer(bench, 3)["type"] == "watching");
  CHECK(bench.core->is_member(3));
}

TEST_CASE("a bot's name says nothing of its table: an opaque id and its seat, new at each seating") {
  Bench bench(scripted_info(), Json::object(), 3);
  bench.make_private();
  bench.run(bench.core->join(bench.ann(), 0));
  bench.run(bench.core->add_bot(bench.ann(), 1, 1));
  bench.run(bench.core->add_bot(bench.ann(), 2, 1));
  const std::string first = bench.player(1, 1)["player"], second = bench.player(1, 2)["player"];
  CHECK(is_new_bot_name(first, 1));
  CHECK(is_new_bot_name(second, 2));
  CHECK(first.find("t1") == std::string::npos);
  CHECK(first.substr(0, first.size() - 2) != second.substr(0, second.size() - 2));
  // The name is stored with the seat: a restart keeps it.
  bench.restart();
  bench.run(bench.core->watch(bench.ann()));
  CHECK(bench.player(1, 1)["player"] == first);
}

namespace {

// A push with its commitments (salted at random each run) written as "C".
std::string without_commitments(std::string text) {
  for (const std::string mark : {R"("commitment":")", "sha256 "}) {
    for (auto at = text.find(mark); at != std::string::npos; at = text.find(mark, at + 1))
      if (text.size() >= at + mark.size() + 64) text.replace(at + mark.size(), 64, "C");
  }
  return text;
}

}  // namespace

// The exact text of every state push in a short table (commitments, salted at
// random, written as C): what an independent client reads. A change here is a
// change of the wire contract (docs/protocol.md "State") and is made on purpose.
TEST_CASE("push encoding: golden frames of first pushes, delta pushes and a spectator's first push") {
  Bench bench(scripted_info());
  bench.run(bench.core->join(bench.ann(), 0));
  bench.run(bench.core->join(bench.bob(), 1, true));
  bench.run(bench.core->start(bench.ann()));
  bench.run(bench.core->act(bench.ann(), {{"type", "tap"}}, std::nullopt));
  bench.run(bench.core->watch(bench.cat()));
  std::vector<std::string> pushed;
  for (const auto& [to, text] : bench.raw)
    if (text.find(R"("type":"state")") != std::string::npos)
      pushed.push_back(std::to_string(to) + " " + without_commitments(text));
  const std::vector<std::string> golden = {
      R"(1 {"type":"state","table":"t1","seq":0,"status":"waiting","game":"scripted","host":"ann","clock":{"away_after":2,"bank":0,"seconds":90},"players":[{"away":false,"bot":false,"chips":100,"connected":true,"player":"ann","seat":0}],"seat":0,"invite":"secret-invite","to_act":[],"view":{"options":{"empty_deals":false,"nobody_acts":false,"scored":false,"table_melds":false,"throw_at_act":0},"seats":2},"view_constants":["options","seats"],"legal":[],"log_from":0,"log":[],"chat_from":0,"chat":[]})",
      R"(1 {"type":"state","table":"t1","seq":0,"status":"waiting","players":[{"away":false,"bot":false,"chips":100,"connected":true,"player":"ann","seat":0},{"away":false,"bot":false,"chips":100,"connected":true,"player":"bob","seat":1}],"seat":0,"to_act":[],"view":{},"legal":[],"log_from":0,"log":[]})",
      R"(2 {"type":"state","table":"t1","seq":0,"status":"waiting","game":"scripted","host":"ann","clock":{"away_after":2,"bank":0,"seconds":90},"players":[{"away":false,"bot":false,"chips":100,"connected":true,"player":"ann","seat":0},{"away":false,"bot":false,"chips":100,"connected":true,"player":"bob","seat":1}],"seat":1,"invite":"secret-invite","to_act":[],"view":{"options":{"empty_deals":false,"nobody_acts":false,"scored":false,"table_melds":false,"throw_at_act":0},"seats":2},"view_constants":["options","seats"],"legal":[],"log_from":0,"log":[],"chat_from":0,"chat":[]})",
      R"(1 {"type":"state","table":"t1","seq":1,"status":"playing","seat":0,"to_act":[0],"timer":{"bank":0,"ends_at":1090000,"seat":0,"seconds":90},"fair":{"commitment":"C","deal":1},"view":{"deal":1,"pot":0},"view_constants":[],"legal":[{"type":"tap"}],"log_from":0,"log":["Deal 1 is dealt from a committed deck: sha256 C."]})",
      R"(2 {"type":"state","table":"t1","seq":1,"status":"playing","seat":1,"to_act":[0],"timer":{"bank":0,"ends_at":1090000,"seat":0,"seconds":90},"fair":{"commitment":"C","deal":1},"view":{"deal":1,"pot":0},"view_constants":[],"legal":[],"log_from":0,"log":["Deal 1 is dealt from a committed deck: sha256 C."]})",
      R"(1 {"type":"state","table":"t1","seq":2,"status":"playing","chips":[99,100],"seat":0,"to_act":[1],"timer":{"bank":0,"ends_at":1090000,"seat":1,"seconds":90},"view":{"deal":1,"pot":1},"legal":[],"log_from":1,"log":["tap 1"]})",
      R"(2 {"type":"state","table":"t1","seq":2,"status":"playing","chips":[99,100],"seat":1,"to_act":[1],"timer":{"bank":0,"ends_at":1090000,"seat":1,"seconds":90},"view":{"deal":1,"pot":1},"legal":[{"type":"tap"}],"log_from":1,"log":["tap 1"]})",
      R"(1 {"type":"state","table":"t1","seq":2,"status":"playing","seat":0,"to_act":[1],"timer":{"bank":0,"ends_at":1090000,"seat":1,"seconds":90},"view":{"deal":1,"pot":1},"legal":[],"log_from":2,"log":[]})",
      R"(2 {"type":"state","table":"t1","seq":2,"status":"playing","seat":1,"to_act":[1],"timer":{"bank":0,"ends_at":1090000,"seat":1,"seconds":90},"view":{"deal":1,"pot":1},"legal":[{"type":"tap"}],"log_from":2,"log":[]})",
      R"(3 {"type":"state","table":"t1","seq":2,"status":"playing","game":"scripted","host":"ann","clock":{"away_after":2,"bank":0,"seconds":90},"players":[{"away":false,"bot":false,"chips":99,"connected":true,"player":"ann","seat":0},{"away":false,"bot":false,"chips":100,"connected":true,"player":"bob","seat":1}],"seat":null,"to_act":[1],"timer":{"bank":0,"ends_at":1090000,"seat":1,"seconds":90},"fair":{"commitment":"C","deal":1},"view":{"deal":1,"pot":1},"view_constants":[],"legal":[],"log_from":0,"log":["Deal 1 is dealt from a committed deck: sha256 C.","tap 1"],"chat_from":0,"chat":[]})"};
  REQUIRE(pushed.size() == golden.size());
  for (std::size_t i = 0; i < golden.size(); ++i) {
    CAPTURE(i);
    CHECK(pushed[i] == golden[i]);
  }
}
