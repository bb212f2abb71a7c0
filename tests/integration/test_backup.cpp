// `parlour backup`, `restore` and `check` against a real server under load
// (docs/operations.md): a backup taken while bots and random clients play a
// table of every game restores to a store that `check` finds sound and whose
// every table replays; a live store is not restored over; and each bad input
// (a backup path that exists or cannot be written, a file that is not a store,
// an existing store without --force, a corrupt config file) is a clear message,
// a non-zero exit, and nothing changed.
#include <doctest/doctest.h>

#include <SQLiteCpp/SQLiteCpp.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>

#include "storage/sqlite_store.h"
#include "storage/step_log.h"
#include "tests/integration/server_process.h"
#include "tests/support/random_play.h"

using parlour::test::Json;
using parlour::test::ServerProcess;
using parlour::test::WsClient;
namespace fs = std::filesystem;

namespace {

struct Run {
  int status = -1;  // the exit status; -1 when the program did not exit (a crash)
  std::string output;
};

// `parlour ARGS` (each argument quoted for the shell), its exit status and what it printed.
Run run_parlour(const std::vector<std::string>& args) {
  std::string command = parlour::support::parlour_binary();
  for (const auto& arg : args) command += " '" + arg + "'";
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  REQUIRE(pipe != nullptr);
  Run run;
  char buffer[4096];
  while (const auto got = std::fread(buffer, 1, sizeof buffer, pipe)) run.output.append(buffer, got);
  const int status = ::pclose(pipe);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::int64_t count(const std::string& db, const std::string& sql) {
  SQLite::Database raw(db, SQLite::OPEN_READONLY);
  return raw.execAndGet(sql).getInt64();
}

// A player who sits at one table with bots and plays random legal actions
// until stopped (the crash torture's clients, without the crashes).
class RandomPlayer {
 public:
  RandomPlayer(unsigned short port, std::string name, std::string token, std::string table, std::uint64_t seed)
      : thread_([=, this] { play(port, name, token, table, seed); }) {}
  ~RandomPlayer() {
    stopping_ = true;
    thread_.join();
  }
  int acted() const { return acted_; }

 private:
  void play(unsigned short port, const std::string& name, const std::string& token, const std::string& table,
            std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    try {
      WsClient ws(port);
      ws.hello(name, token);
      ws.request({{"type", "join"}, {"table", table}});
      while (!stopping_) {
        const auto state = ws.state_within([&](const Json& s) { return s["table"] == table; }, 500);
        if (!state || !parlour::test::to_act(*state) || (*state)["legal"].empty()) continue;
        ws.send_raw(Json({{"type", "act"},
                          {"table", table},
                          {"action", parlour::support::random_legal_action((*state)["legal"], rng)},
                          {"id", 1000 + acted_++}})
                        .dump());
      }
    } catch (const std::exception&) {
      // The server went away: the test's own checks say whether that was wrong.
    }
  }

  std::atomic<bool> stopping_{false};
  std::atomic<int> acted_{0};
  std::thread thread_;
};

// A table of bots for every game, and two where a random client plays a seat.
std::vector<std::unique_ptr<RandomPlayer>> load(const ServerProcess& server) {
  std::vector<std::unique_ptr<RandomPlayer>> players;
  WsClient host(server.port());
  host.hello("host");
  const Json games = host.request({{"type", "games"}})["games"];  // kept: a loop over a temporary's member dangles
  int index = 0;
  for (const auto& game : games) {
    const int seats = game["min_players"].get<int>();
    const auto created = host.request({{"type", "create"}, {"game", game["id"]}, {"seats", seats}});
    REQUIRE_MESSAGE(created["type"] == "created", created.dump());
    const std::string table = created["table"];
    const bool with_player = index++ < 2;
    if (with_player) {
      const std::string name = "p" + std::to_string(index);
      WsClient seat(server.port());
      const auto token = seat.hello(name);
      REQUIRE(seat.request({{"type", "join"}, {"table", table}})["type"] == "joined");
      players.push_back(std::make_unique<RandomPlayer>(server.port(), name, token, table, 20261127u + index));
    }
    for (int bot = with_player ? 1 : 0; bot < seats; ++bot)
      REQUIRE(host.request({{"type", "bot"}, {"table", table}})["type"] == "ok");
    REQUIRE_MESSAGE(host.request({{"type", "start"}, {"table", table}})["type"] == "ok", game["id"]);
  }
  return players;
}

// A folder of its own for the test's files, removed at the end.
struct Folder {
  Folder() : path(fs::path(ServerProcess::fresh_db("backup-files")).parent_path()) { fs::create_directories(path); }
  ~Folder() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
  std::string file(const std::string& name) const { return (path / name).string(); }
  fs::path path;
};

}  // namespace

TEST_CASE("backup under load restores to a store that check finds sound, every table replayed; a live store is not restored over") {
  const Folder files;
  const std::string live = ServerProcess::fresh_db("backup-live");
  ServerProcess server(live, {"--bot-delay-ms", "2", "--deal-pause-ms", "0", "--max-open-tables", "100"});
  auto players = load(server);
  const auto written = [&] { return server.metric("parlour_storage_transactions_total"); };
  for (int waited = 0; written() < 300; ++waited) {
    REQUIRE_MESSAGE(waited < 1200, "the tables wrote " << written() << " transactions in a minute");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }

  // Two backups while every table plays on.
  const auto before = written();
  const Run first = run_parlour({"backup", files.file("first.db"), "--db", live});
  REQUIRE_MESSAGE(first.status == 0, first.output);
  CHECK(first.output.find("copied to " + files.file("first.db")) != std::string::npos);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const Run second = run_parlour({"backup", files.file("second.db"), "--db", live});
  REQUIRE_MESSAGE(second.status == 0, second.output);
  const auto after = written();
  MESSAGE("the server committed " << after - before << " transactions while the two backups were taken");
  CHECK(after > before);
  CHECK(count(files.file("second.db"), "SELECT count(*) FROM table_events") >
        count(files.file("first.db"), "SELECT count(*) FROM table_events"));
  // One self-contained file, even once read.
  CHECK(fs::exists(files.file("second.db")));
  CHECK_FALSE(fs::exists(files.file("second.db") + "-wal"));
  CHECK_FALSE(fs::exists(files.file("second.db") + "-shm"));

  // Not over the store the running server holds: refused, and the server plays on.
  const Run onto_live = run_parlour({"restore", files.file("first.db"), "--db", live, "--force"});
  CHECK(onto_live.status == 2);
  CHECK_MESSAGE(onto_live.output.find(live + " is in use by process " + std::to_string(server.pid())) !=
                    std::string::npos,
                onto_live.output);
  CHECK(server.get("/healthz").first == 200);

  // Restored to a new place, the backup is a store that `check` finds sound, every table replayed.
  const std::string restored = files.file("restored/parlour.db");
  const Run restore = run_parlour({"restore", files.file("second.db"), "--db", restored});
  REQUIRE_MESSAGE(restore.status == 0, restore.output);
  const Run check = run_parlour({"check", "--db", restored});
  CHECK_MESSAGE(check.status == 0, check.output);
  const auto tables = count(restored, "SELECT count(DISTINCT table_id) FROM table_events");
  CHECK(tables >= 10);
  CHECK_MESSAGE(check.output.find(" " + std::to_string(tables) + " tables with events replayed") != std::string::npos,
                check.output);
  CHECK(check.output.find("sound: ") != std::string::npos);

  int acted = 0;
  for (const auto& player : players) acted += player->acted();
  players.clear();
  MESSAGE("random clients acted " << acted << " times; " << tables << " tables in the backup");
  server.stop();
  // The live store, stopped, is sound too.
  const Run live_check = run_parlour({"check", "--db", live});
  CHECK_MESSAGE(live_check.status == 0, live_check.output);
}

TEST_CASE("check names a table whose log does not replay, and exits 1") {
  const Folder files;
  const std::string live = ServerProcess::fresh_db("backup-replay");
  {
    ServerProcess server(live, {"--bot-delay-ms", "2", "--deal-pause-ms", "0"});
    WsClient host(server.port());
    host.hello("host");
    const auto created = host.request({{"type", "create"}, {"game", "red_dog"}, {"seats", 2}});
    const std::string table = created["table"];
    for (int bot = 0; bot < 2; ++bot) REQUIRE(host.request({{"type", "bot"}, {"table", table}})["type"] == "ok");
    REQUIRE(host.request({{"type", "start"}, {"table", table}})["type"] == "ok");
    while (count(live, "SELECT count(*) FROM table_events") < 20) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    server.stop();
  }
  const std::string table = [&] {
    SQLite::Database raw(live, SQLite::OPEN_READONLY);
    return raw.execAndGet("SELECT table_id FROM table_events LIMIT 1").getString();
  }();
  // An action in the log that its table never allowed.
  {
    SQLite::Database raw(live, SQLite::OPEN_READWRITE);
    raw.exec("UPDATE table_events SET json = json_set(json, '$.action', json('{\"type\":\"no_such_action\"}')) "
             "WHERE table_id = '" + table + "' AND seq = (SELECT min(seq) FROM table_events WHERE table_id = '" +
             table + "' AND json_extract(json, '$.action') IS NOT NULL)");
  }
  const Run check = run_parlour({"check", "--db", live});
  CHECK(check.status == 1);
  CHECK_MESSAGE(check.output.find("WRONG: table " + table + " (red_dog, ") != std::string::npos, check.output);
  CHECK_MESSAGE(check.output.find("events do not replay") != std::string::npos, check.output);
  CHECK(check.output.find("NOT SOUND: 1 thing is wrong") != std::string::npos);
}

TEST_CASE("backup, restore, check and --config refuse bad input with a message and a non-zero exit, changing nothing") {
  const Folder files;
  const std::string db = ServerProcess::fresh_db("backup-bad-input");
  { ServerProcess server(db); }  // a store with its schema, stopped
  const Run made = run_parlour({"backup", files.file("made.db"), "--db", db});
  REQUIRE_MESSAGE(made.status == 0, made.output);

  // A backup path that exists is never replaced.
  std::ofstream(files.file("precious.txt")) << "keep me";
  const Run exists = run_parlour({"backup", files.file("precious.txt"), "--db", db});
  CHECK(exists.status == 2);
  CHECK(exists.output == "parlour backup: " + files.file("precious.txt") +
                             " exists; a backup never replaces a file: name a new one\n");
  CHECK(contents(files.file("precious.txt")) == "keep me");
  // A path that cannot be written: its folder is missing, or is a file, or refuses files (/proc).
  const Run no_folder = run_parlour({"backup", files.file("missing/b.db"), "--db", db});
  CHECK(no_folder.status == 2);
  CHECK(no_folder.output.find("the folder " + files.file("missing") + " does not exist") != std::string::npos);
  const Run file_folder = run_parlour({"backup", files.file("precious.txt/b.db"), "--db", db});
  CHECK(file_folder.status == 2);
  CHECK(file_folder.output.find(files.file("precious.txt") + " is not a folder") != std::string::npos);
  const Run proc = run_parlour({"backup", "/proc/parlour-backup.db", "--db", db});
  CHECK(proc.status != 0);
  CHECK_MESSAGE(proc.output.find("parlour backup: ") == 0, proc.output);
  CHECK_FALSE(fs::exists("/proc/parlour-backup.db"));
  CHECK(fs::directory_iterator(files.path) != fs::directory_iterator());
  for (const auto& entry : fs::directory_iterator(files.path))
    CHECK_MESSAGE(entry.path().filename().string().find("partial") == std::string::npos, entry.path());
  // A store that is not there, and PostgreSQL, are sent elsewhere.
  const Run no_store = run_parlour({"backup", files.file("c.db"), "--db", files.file("none.db")});
  CHECK(no_store.status == 2);
  CHECK(no_store.output.find("there is no SQLite store at " + files.file("none.db")) != std::string::npos);
  const Run postgres = run_parlour({"backup", files.file("c.db"), "--db", "postgresql://u:secret@127.0.0.1:1/p"});
  CHECK(postgres.status == 2);
  CHECK(postgres.output.find("pg_dump") != std::string::npos);
  CHECK(postgres.output.find("secret") == std::string::npos);
  CHECK_FALSE(fs::exists(files.file("c.db")));

  // Restore: only a Parlour store, and over an existing one only with --force.
  const std::string target = files.file("target.db");
  const Run not_a_store = run_parlour({"restore", files.file("precious.txt"), "--db", target});
  CHECK(not_a_store.status == 2);
  CHECK(not_a_store.output.find(files.file("precious.txt") + " is not a Parlour store") != std::string::npos);
  CHECK_FALSE(fs::exists(target));
  const Run over = run_parlour({"restore", files.file("made.db"), "--db", db});
  CHECK(over.status == 2);
  CHECK(over.output == "parlour restore: " + db + " exists; restore replaces a store only when given --force\n");
  const Run forced = run_parlour({"restore", files.file("made.db"), "--db", db, "--force"});
  CHECK_MESSAGE(forced.status == 0, forced.output);
  CHECK(run_parlour({"check", "--db", db}).status == 0);
  CHECK(run_parlour({"restore", files.file("made.db")}).status == 2);  // which store?

  // check on what is not a store, and makes none.
  const Run check_none = run_parlour({"check", "--db", files.file("none.db")});
  CHECK(check_none.status == 2);
  CHECK(check_none.output.find("there is no SQLite file at") != std::string::npos);
  CHECK_FALSE(fs::exists(files.file("none.db")));

  // A corrupt config file: the server does not start.
  std::ofstream(files.file("parlour.conf")) << "port = 0\ndb = " << files.file("from-config.db") << "\nport: 8080\n";
  const Run config = run_parlour({"--config", files.file("parlour.conf")});
  CHECK(config.status == 2);
  CHECK(config.output == files.file("parlour.conf") + " line 3: expected `key = value`, found 'port: 8080'\n");
  CHECK_FALSE(fs::exists(files.file("from-config.db")));
}

// A server killed with steps still in its step log (architecture.md "The step
// log"): a backup taken before any server opens the store again has them, and
// a restore over a store takes that store's log away with it.
TEST_CASE("backup files what a crashed server's step log holds first; restore removes the replaced store's log") {
  const fs::path folder = fs::temp_directory_path() / ("parlour-backup-log-" + std::to_string(::getpid()));
  fs::remove_all(folder);
  fs::create_directories(folder);
  const std::string db = (folder / "parlour.db").string();
  {
    parlour::storage::SqliteStore store(db);
    store.create_player("ann", "hash-ann", 100);
    parlour::storage::TableRecord table;
    table.id = "t1";
    table.game = "red_dog";
    table.options_json = "{}";
    table.host = "ann";
    table.status = "playing";
    table.seats = {{0, "ann", false, 0}};
    store.create_table(table);
  }
  {
    // What the server had told its players was committed when it was killed.
    parlour::storage::TableWrite step;
    step.table = "t1";
    step.event = parlour::storage::Event{1, R"({"kind":"act"})"};
    step.postings = {{"player:ann", "pool:t1:pot", 10, "a bet", "t1", "red_dog", 1, 1}};
    const auto log = parlour::storage::StepLog::open(db);
    REQUIRE(log);
    log->append(1, parlour::storage::encode_batch({1, "2026-11-29T12:00:00.000Z", {step}}));
  }
  CHECK(count(db, "SELECT count(*) FROM table_events") == 0);
  const std::string copy = (folder / "copy.db").string();
  const Run backup = run_parlour({"backup", copy, "--db", db});
  INFO(backup.output);
  REQUIRE(backup.status == 0);
  CHECK(count(copy, "SELECT count(*) FROM table_events") == 1);
  CHECK(count(copy, "SELECT balance FROM accounts WHERE name = 'player:ann'") == 90);
  CHECK_FALSE(parlour::storage::StepLog::has_records(db));

  // A log beside the store a restore replaces is not filed into the restored one.
  {
    const auto log = parlour::storage::StepLog::open(db);
    parlour::storage::TableWrite step;
    step.table = "t1";
    step.event = parlour::storage::Event{2, R"({"kind":"act"})"};
    log->append(2, parlour::storage::encode_batch({2, "2026-11-29T12:00:01.000Z", {step}}));
  }
  const Run restore = run_parlour({"restore", copy, "--db", db, "--force"});
  INFO(restore.output);
  REQUIRE(restore.status == 0);
  CHECK_FALSE(fs::exists(db + "-steps-0"));
  CHECK(parlour::storage::SqliteStore(db).events("t1").size() == 1);
  fs::remove_all(folder);
}
