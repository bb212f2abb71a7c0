// Crash torture: tables of every game, played by bots and by clients that act
// with action ids, while the server is SIGKILLed at random moments and started
// again. After every kill the database must show every acknowledged action in
// its place, no table behind where it was, and chips that add up to what was
// granted; after every restart every unfinished table must move on by itself.
//
// ctest runs a short round (PARLOUR_TORTURE_KILLS, default 10). A long run by hand:
//   PARLOUR_TORTURE_KILLS=200 ./build/tests/test_torture
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "storage/sqlite_store.h"
#include "tests/integration/server_process.h"
#include "tests/support/random_play.h"

using parlour::test::Json;
using parlour::test::ServerProcess;
using parlour::test::WsClient;
namespace storage = parlour::storage;

namespace {

constexpr std::int64_t starting_chips = 400;

int env_int(const char* name, int fallback) {
  const char* text = std::getenv(name);
  return text ? std::atoi(text) : fallback;
}

void sleep_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

struct Ack {
  std::string table;
  std::int64_t seq;
  std::string action_id;
};

// What the clients were told, shared between their threads and the checker.
class Acks {
 public:
  void add(Ack ack) {
    std::lock_guard lock(mutex_);
    acks_.push_back(std::move(ack));
  }
  std::vector<Ack> all() const {
    std::lock_guard lock(mutex_);
    return acks_;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<Ack> acks_;
};

// A player who sits at one table with bots and plays random legal actions,
// each with an action id; when the connection drops he reconnects, and resends
// the act whose answer he never got with the same id.
class Player {
 public:
  Player(unsigned short port, std::string name, std::string table, Acks& acks, std::uint64_t seed)
      : port_(port), name_(std::move(name)), table_(std::move(table)), acks_(acks), rng_(seed) {}

  void set_token(std::string token) { token_ = std::move(token); }
  void start() { thread_ = std::thread([this] { run(); }); }
  void stop() {
    stopping_ = true;
    if (thread_.joinable()) thread_.join();
  }
  int acted() const { return acted_; }
  int resent() const { return resent_; }
  int took_up_held() const { return took_up_held_; }

 private:
  void run() {
    while (!stopping_) {
      try {
        WsClient ws(port_);
        held_state_.reset();
        ws.send_raw(Json({{"type", "hello"}, {"name", name_}, {"token", token_}, {"id", 1}}).dump());
        ws.send_raw(Json({{"type", "join"}, {"table", table_}, {"id", 2}}).dump());
        if (unanswered_) {
          ++resent_;
          send_act(ws, *unanswered_);
        }
        play(ws);
      } catch (const std::exception&) {
        sleep_ms(30);  // the server is down: try again soon
      }
    }
  }

  void play(WsClient& ws) {
    while (!stopping_) {
      const auto asked = std::chrono::steady_clock::now();
      auto frame = ws.read(1000);
      if (!frame) {
        // A read that fails before its timeout is a dead connection.
        if (std::chrono::steady_clock::now() - asked < std::chrono::milliseconds(900)) return;
        continue;
      }
      auto message = std::move(*frame);
      const bool answers_act = unanswered_ && message.value("re", -1) == (*unanswered_)["id"];
      if (message["type"] == "ok" && answers_act) {
        unanswered_.reset();
        if (message.contains("action_id"))
          acks_.add({table_, message["seq"].get<std::int64_t>(), message["action_id"]});
        // An applied act's own state follows its ok; a duplicate's does not.
        if (!message.value("duplicate", false)) held_state_.reset();
        if (!take_up_held_state(message)) continue;
      } else if (message["type"] == "error" && answers_act) {
        unanswered_.reset();  // refused (e.g. the turn moved on): nothing to resend
        if (!take_up_held_state(message)) continue;
      } else if (message["type"] == "state" && message["table"] == table_ && unanswered_) {
        held_state_ = std::move(message);  // act on it once the act in flight is answered
        continue;
      }
      if (message["type"] != "state" || message["table"] != table_) continue;
      held_state_.reset();
      if (message["status"] == "finished") return finish();
      const auto& legal = message["legal"];
      if (legal.empty()) continue;
      const Json action = parlour::support::random_legal_action(legal, rng_);
      Json act = {{"type", "act"}, {"table", table_}, {"action", action},
                  {"action_id", name_ + "-" + std::to_string(++acted_)}, {"id", 100 + acted_}};
      unanswered_ = act;
      send_act(ws, act);
    }
  }

  // A state that came while an act was in flight is the latest the player has
  // seen when the answer brings none: a refusal, or a resent act that had been
  // applied before the kill, answered `ok` with `duplicate` and no new state.
  // After a crash the rejoin's state arrives before that answer. A player who
  // dropped it never acted again, and his table stood still until the turn clock
  // (90 s) ran out: the torture's "tables stuck after restart".
  bool take_up_held_state(Json& message) {
    if (!held_state_) return false;
    message = std::move(*held_state_);
    held_state_.reset();
    if (message["type"] == "state") ++took_up_held_;
    return true;
  }

  void send_act(WsClient& ws, const Json& act) { ws.send_raw(act.dump()); }
  void finish() {
    while (!stopping_) sleep_ms(50);
  }

  unsigned short port_;
  std::string name_;
  std::string token_;
  std::string table_;
  Acks& acks_;
  std::mt19937_64 rng_;
  std::optional<Json> unanswered_;
  std::optional<Json> held_state_;
  std::atomic<bool> stopping_{false};
  std::atomic<int> acted_{0};
  std::atomic<int> resent_{0};
  std::atomic<int> took_up_held_{0};
  std::thread thread_;
};

struct TableFacts {
  std::int64_t seq = 0;
  std::string status;
};

std::map<std::string, TableFacts> read_tables(storage::Store& db) {
  std::map<std::string, TableFacts> out;
  for (const char* status : {"waiting", "playing", "finished"})
    for (const auto& table : db.tables_with_status(status)) {
      const auto events = db.events(table.id);
      out[table.id] = {events.empty() ? 0 : events.back().seq, table.status};
    }
  return out;
}

}  // namespace

TEST_CASE("torture: SIGKILL at random moments; nothing acknowledged is lost, nothing goes back or gets stuck, chips add up") {
  const int kills = env_int("PARLOUR_TORTURE_KILLS", 10);
  const auto seed = static_cast<std::uint64_t>(env_int("PARLOUR_TORTURE_SEED", 20261123));
  std::mt19937_64 rng(seed);
  const std::string db_path = ServerProcess::fresh_db("torture");
  ServerProcess server(db_path, {"--bot-delay-ms", "2", "--deal-pause-ms", "0", "--starting-chips",
                                 std::to_string(starting_chips), "--max-open-tables", "100"});

  // A table of bots for every game, and for every other game a table where a
  // client plays one seat.
  Acks acks;
  std::vector<std::unique_ptr<Player>> players;
  int grants = 0;
  {
    WsClient host(server.port());
    host.hello("host");
    ++grants;
    const auto games = host.request({{"type", "games"}})["games"];
    int index = 0;
    for (const auto& game : games) {
      const bool with_player = index++ % 2 == 0;
      const int seats = game["min_players"].get<int>() == 2 && game["max_players"].get<int>() >= 3 ? 3
                                                                                                  : game["min_players"].get<int>();
      auto created = host.request({{"type", "create"}, {"game", game["id"]}, {"seats", seats}});
      REQUIRE_MESSAGE(created["type"] == "created", created.dump());
      const std::string table = created["table"];
      if (with_player) {
        const std::string name = "p" + std::to_string(index);
        WsClient seat(server.port());
        const auto token = seat.hello(name);
        ++grants;
        REQUIRE(seat.request({{"type", "join"}, {"table", table}})["type"] == "joined");
        players.push_back(std::make_unique<Player>(server.port(), name, table, acks, rng()));
        players.back()->set_token(token);
      }
      for (int bot = with_player ? 1 : 0; bot < seats; ++bot) {
        REQUIRE(host.request({{"type", "bot"}, {"table", table}})["type"] == "ok");
        ++grants;
      }
      REQUIRE_MESSAGE(host.request({{"type", "start"}, {"table", table}})["type"] == "ok", game["id"]);
    }
  }
  for (auto& player : players) player->start();

  std::map<std::string, TableFacts> before;
  int stuck_checks = 0;
  for (int kill = 1; kill <= kills; ++kill) {
    sleep_ms(150 + static_cast<int>(rng() % 700));
    server.kill_hard();
    {
      storage::SqliteStore db(db_path);
      CAPTURE(kill);
      // Chips: nothing created or lost; the bank is short exactly what it granted.
      CHECK(db.total_of_all_accounts() == 0);
      CHECK(db.balance(storage::bank_account()) == -starting_chips * grants);
      // Every acknowledged action is in the log, where the client was told.
      // (Each table's log is read once per kill: the check stays linear in the log.)
      std::map<std::string, std::map<std::int64_t, std::string>> logs;
      for (const auto& ack : acks.all()) {
        auto [log, fresh] = logs.try_emplace(ack.table);
        if (fresh)
          for (auto& event : db.events(ack.table)) log->second.emplace(event.seq, std::move(event.json));
        const auto at = log->second.find(ack.seq);
        REQUIRE_MESSAGE(at != log->second.end(), "acknowledged seq " << ack.seq << " of " << ack.table << " is missing");
        CHECK(Json::parse(at->second).value("action_id", "") == ack.action_id);
      }
      // No table went back.
      const auto now = read_tables(db);
      for (const auto& [table, facts] : before) {
        const std::string& named = table;  // clang 14 cannot capture a structured binding
        CAPTURE(named);
        CHECK(now.at(table).seq >= facts.seq);
      }
      before = now;
    }
    server.start();
    // Every unfinished table moves on by itself (or finishes) after the restart.
    std::set<std::string> waiting_for;
    for (const auto& [table, facts] : before)
      if (facts.status == "playing") waiting_for.insert(table);
    for (int tries = 0; tries < 100 && !waiting_for.empty(); ++tries) {
      sleep_ms(100);
      storage::SqliteStore db(db_path);
      const auto now = read_tables(db);
      for (auto it = waiting_for.begin(); it != waiting_for.end();) {
        const auto& facts = now.at(*it);
        if (facts.seq > before.at(*it).seq || facts.status == "finished") it = waiting_for.erase(it);
        else ++it;
      }
    }
    CHECK_MESSAGE(waiting_for.empty(), "tables stuck after restart " << kill << ": " << waiting_for.size());
    ++stuck_checks;
  }
  for (auto& player : players) player->stop();
  int acted = 0, resent = 0, took_up_held = 0;
  for (const auto& player : players) {
    acted += player->acted();
    resent += player->resent();
    took_up_held += player->took_up_held();
  }
  storage::SqliteStore db(db_path);
  std::int64_t events = 0;
  for (const auto& [table, facts] : read_tables(db)) events += facts.seq;
  MESSAGE("torture: " << kills << " kills, " << before.size() << " tables, " << events << " events, "
                      << acks.all().size() << " acknowledged client actions (" << acted << " sent, " << resent
                      << " resent after a crash, " << took_up_held
                      << " held states acted on after a refusal or a duplicate ok), " << stuck_checks << " restarts checked for stuck tables");
  CHECK(db.total_of_all_accounts() == 0);
}
