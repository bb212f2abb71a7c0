// Tests of the storage interface (storage/store.h) against both backends: each
// test that says OPEN_EACH_BACKEND runs twice, on a fresh SQLite file in a
// temporary folder and on a fresh database of a real PostgreSQL cluster that
// this process starts (tests/support/postgres_cluster.h). Where PostgreSQL's
// programs are not installed, the PostgreSQL runs are skipped with a message.
// Tests of what only a SQLite file has (WAL mode, upgrading old files) open a
// SqliteStore directly.
#include "storage/postgres_store.h"
#include "storage/sqlite_store.h"
#include "storage/store.h"
#include "tests/support/postgres_cluster.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <doctest/doctest.h>
#include <pqxx/pqxx>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>
#include <random>
#include <regex>
#include <thread>
#include <string>
#include <vector>

namespace {

using namespace parlour::storage;
using parlour::support::PostgresCluster;
namespace fs = std::filesystem;
using Database = SqliteStore;

// A fresh, uniquely named folder under the system temp folder, removed with
// everything in it (the database and its -wal and -shm files) at the end of
// the test. Declare it before the Database so that the Database closes first.
class TempFolder {
 public:
  TempFolder() {
    static std::atomic<int> counter{0};
    std::random_device entropy;
    const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
    path_ = fs::temp_directory_path() / ("parlour-storage-test-" + std::to_string(now) + "-" +
                                         std::to_string(entropy()) + "-" + std::to_string(counter++));
  }
  ~TempFolder() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;

  const fs::path& path() const { return path_; }
  std::string file() const { return (path_ / "parlour.db").string(); }

 private:
  fs::path path_;
};

// One cluster for the whole run, started on first use and stopped (its folder
// removed) when the process exits. Null when PostgreSQL is not installed; a
// cluster that is installed but fails to start fails the tests.
PostgresCluster* shared_cluster() {
  static std::unique_ptr<PostgresCluster> cluster = []() -> std::unique_ptr<PostgresCluster> {
    const std::string missing = PostgresCluster::unavailable_reason();
    if (!missing.empty()) {
      std::cout << "test_storage: skipping the PostgreSQL runs: " << missing << "\n";
      return nullptr;
    }
    return std::make_unique<PostgresCluster>(std::vector<std::string>{"fsync=off", "full_page_writes=off"});
  }();
  return cluster.get();
}

// A fresh, empty PostgreSQL database's URI, or "" when PostgreSQL is not installed.
std::string fresh_postgres_database() {
  static int counter = 0;
  PostgresCluster* cluster = shared_cluster();
  if (!cluster) return "";
  return cluster->create_database("parlour_test_" + std::to_string(++counter));
}

// Doctest runs the calling test once per subcase: on a fresh SQLite file in
// `temp`, then on a fresh PostgreSQL database. Sets `where` to what
// open_store() takes; returns null when the backend cannot run here.
std::unique_ptr<Store> open_each_backend(const TempFolder& temp, std::string& where) {
  std::unique_ptr<Store> store;
  SUBCASE("SQLite") {
    where = temp.file();
    store = std::make_unique<SqliteStore>(where);
  }
  SUBCASE("PostgreSQL") {
    where = fresh_postgres_database();
    if (where.empty()) {
      MESSAGE("PostgreSQL is not installed: this test ran on SQLite only");
    } else {
      store = std::make_unique<PostgresStore>(where);
    }
  }
  return store;
}

#define OPEN_EACH_BACKEND(db)                                            \
  TempFolder temp;                                                       \
  std::string where;                                                     \
  const std::unique_ptr<Store> db##_store = open_each_backend(temp, where); \
  if (!db##_store) return;                                               \
  Store& db = *db##_store

bool on_postgres(const std::string& where) { return is_postgres_url(where); }

// Runs `sql` in one transaction on a second connection, as another client of
// the database would (a SQLite connection enables foreign keys, as every
// Parlour connection does). Throws what the database says.
void raw_exec(const std::string& where, const std::string& sql) {
  if (on_postgres(where)) {
    pqxx::connection connection(where);
    pqxx::work tx(connection);
    tx.exec(sql);
    tx.commit();
    return;
  }
  SQLite::Database raw(where, SQLite::OPEN_READWRITE);
  raw.exec("PRAGMA foreign_keys=ON");
  SQLite::Transaction transaction(raw);
  raw.exec(sql);
  transaction.commit();
}

std::int64_t raw_count(const std::string& where, const std::string& sql) {
  if (on_postgres(where)) {
    pqxx::connection connection(where);
    pqxx::nontransaction tx(connection);
    return tx.exec(sql)[0][0].as<std::int64_t>();
  }
  SQLite::Database raw(where, SQLite::OPEN_READONLY);
  return raw.execAndGet(sql).getInt64();
}

// The two backends word a broken constraint differently.
bool says_unique_violated(const std::string& error) {
  return error.find("UNIQUE constraint failed") != std::string::npos ||
         error.find("violates unique constraint") != std::string::npos;
}
bool says_foreign_key_violated(const std::string& error) {
  return error.find("FOREIGN KEY constraint failed") != std::string::npos ||
         error.find("violates foreign key constraint") != std::string::npos;
}

// A batch's outcomes as flags (committed or not), and with `errors` the
// detail of each ("" when committed): what most tests here check.
std::vector<bool> commit(Store& db, const std::vector<TableWrite>& writes, std::vector<std::string>* errors = nullptr) {
  const std::vector<CommitOutcome> outcomes = db.commit(writes);
  std::vector<bool> committed;
  if (errors) errors->clear();
  for (const CommitOutcome& outcome : outcomes) {
    committed.push_back(outcome.committed());
    if (errors) errors->push_back(outcome.detail);
  }
  return committed;
}

Posting transfer(const std::string& from, const std::string& to, std::int64_t amount, const std::string& memo = "bet") {
  return Posting{from, to, amount, memo, "t1", "red_dog", std::nullopt, std::nullopt};
}

TableWrite step(const std::string& table, std::int64_t seq, std::vector<Posting> postings = {}) {
  TableWrite write;
  write.table = table;
  write.event = Event{seq, R"({"seq":)" + std::to_string(seq) + "}"};
  write.postings = std::move(postings);
  return write;
}

TableRecord make_table(const std::string& id, const std::string& invite = "") {
  TableRecord table;
  table.id = id;
  table.game = "red_dog";
  table.options_json = R"({"decks":6})";
  table.seed = 42;
  table.host = "ann";
  table.status = "waiting";
  table.invite = invite;
  table.seats = {Seat{0, "ann", false, 0}, Seat{1, "", false, 0}};
  return table;
}

std::vector<std::int64_t> amounts(const std::vector<LedgerEntry>& entries) {
  std::vector<std::int64_t> result;
  for (const LedgerEntry& entry : entries) result.push_back(entry.amount);
  return result;
}

std::vector<std::int64_t> seqs(const std::vector<Event>& events) {
  std::vector<std::int64_t> result;
  for (const Event& event : events) result.push_back(event.seq);
  return result;
}

bool has_index(const std::string& file, const std::string& index) {
  SQLite::Database raw(file, SQLite::OPEN_READONLY);
  SQLite::Statement query(raw, "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ?1");
  query.bind(1, index);
  query.executeStep();
  return query.getColumn(0).getInt() == 1;
}

int migrations_recorded(const std::string& file) {
  SQLite::Database raw(file, SQLite::OPEN_READONLY);
  return raw.execAndGet("SELECT count(*) FROM schema_version").getInt();
}

void check_same_seats(const std::vector<Seat>& actual, const std::vector<Seat>& expected) {
  REQUIRE(actual.size() == expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i) {
    CAPTURE(i);
    CHECK(actual[i].seat == expected[i].seat);
    CHECK(actual[i].player == expected[i].player);
    CHECK(actual[i].bot == expected[i].bot);
    CHECK(actual[i].bot_level == expected[i].bot_level);
  }
}

}  // namespace

TEST_CASE("open_store picks PostgreSQL for a postgresql:// or postgres:// URI and SQLite for anything else") {
  TempFolder temp;
  CHECK(open_store(temp.file())->describe() == "SQLite file " + temp.file());
  CHECK_THROWS_WITH_AS(open_store(""), doctest::Contains("expected a SQLite file path or a postgresql:// URI"),
                       StorageError);
  // Port 1 on loopback: nobody listens, so the connection is refused, and the
  // error names the database without the password.
  CHECK_THROWS_WITH_AS(open_store("postgresql://ann:secret@127.0.0.1:1/parlour"),
                       doctest::Contains("while opening PostgreSQL database postgresql://ann:***@127.0.0.1:1/parlour"),
                       StorageError);
  CHECK_THROWS_WITH_AS(open_store("postgres://127.0.0.1:1/parlour"), doctest::Contains("PostgreSQL"), StorageError);
  CHECK_FALSE(is_postgres_url("postgresql:/x"));
  CHECK_FALSE(is_postgres_url("./data/postgresql://x.db"));

  const std::string url = fresh_postgres_database();
  if (url.empty()) return;
  const auto store = open_store(url);
  CHECK(store->describe().rfind("PostgreSQL database parlour_test_", 0) == 0);
  CHECK(store->schema_version() == Store::latest_schema_version());
}

TEST_CASE("opening a database creates its file and missing folders") {
  TempFolder temp;
  const fs::path file = temp.path() / "nested" / "deeper" / "parlour.db";
  REQUIRE_FALSE(fs::exists(file.parent_path()));

  Database db(file.string());

  CHECK(fs::exists(file));
  CHECK(db.schema_version() == Store::latest_schema_version());
}

TEST_CASE("a SQLite file is in WAL journal mode") {
  TempFolder temp;
  Database db(temp.file());

  // Seen from a second connection: WAL is a property of the file, not just ours.
  SQLite::Database raw(temp.file(), SQLite::OPEN_READONLY);
  CHECK(raw.execAndGet("PRAGMA journal_mode").getString() == "wal");
}

// Store::housekeep_in_background: the server's writer leaves the WAL's
// checkpoints to a thread of their own. A few hundred steps are far below the
// 4,000 pages at which a connection checkpoints by itself, so only that thread
// can have copied them into the database file.
TEST_CASE("with housekeeping in the background, the WAL is checkpointed by another thread, not by a commit") {
  TempFolder temp;
  auto wal_checkpointed_in = [&](bool housekeeping) {
    const std::string file = (temp.path() / (housekeeping ? "kept.db" : "plain.db")).string();
    Database db(file);
    std::vector<std::string> reports;
    if (housekeeping) db.housekeep_in_background([&](const std::string& what) { reports.push_back(what); });
    db.create_table(make_table("t1"));
    const auto size_before = fs::file_size(file);
    for (std::int64_t seq = 1; seq <= 300; ++seq) REQUIRE(commit(db, {step("t1", seq)}) == std::vector<bool>{true});
    // Ten of the checkpointer's periods, and more.
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    CHECK(reports.empty());
    return fs::file_size(file) > size_before;
  };
  CHECK(wal_checkpointed_in(true));
  CHECK_FALSE(wal_checkpointed_in(false));
}

// A passive checkpoint copies what was committed when it began; under commits
// that never pause, the WAL is never all copied, and the writer starts it over
// only when it is. The background checkpointer then holds commits off for a
// moment, and a writer that outpaces it checkpoints by itself past the second
// limit, so the WAL stays bounded however long the stream lasts. Here about
// 200 MiB of frames (each event a page and an overflow page) go through without
// a pause, against limits of 4 and 16 MiB.
TEST_CASE("with housekeeping in the background, a stream of commits without a pause keeps the WAL bounded") {
  TempFolder temp;
  const std::string file = (temp.path() / "busy.db").string();
  Database db(file);
  std::vector<std::string> reports;
  db.housekeep_in_background([&](const std::string& what) { reports.push_back(what); }, {2048, 8192});
  db.create_table(make_table("t1"));
  const std::string padding(1900, 'x');  // about one 2 KiB page an event
  std::uintmax_t largest_wal = 0;
  std::int64_t seq = 0;
  for (int batch = 0; batch < 3200; ++batch) {
    std::vector<TableWrite> writes;
    for (int i = 0; i < 16; ++i) {
      ++seq;
      auto write = step("t1", seq);
      write.event->json = R"({"seq":)" + std::to_string(seq) + R"(,"pad":")" + padding + R"("})";
      writes.push_back(std::move(write));
    }
    REQUIRE(commit(db, writes) == std::vector<bool>(16, true));
    largest_wal = std::max(largest_wal, fs::file_size(file + "-wal"));
  }
  CHECK(reports.empty());
  INFO("largest WAL: " << largest_wal / (1024 * 1024) << " MiB");
  CHECK(largest_wal < 24u * 1024 * 1024);
}

// The writer's connection hands a commit's WAL frames to the kernel in one
// write (storage/wal_coalescing_vfs.h): they must be in the file by the time
// the commit is seen, by another connection as much as by a reopened file.
// Commits of one step and of about 300 KiB (more than one write can carry).
TEST_CASE("every commit is in the WAL file when it returns: another connection reads it at once") {
  TempFolder temp;
  const std::string file = (temp.path() / "seen.db").string();
  std::int64_t seq = 0;
  {
    Database db(file);
    db.create_table(make_table("t1"));
    SQLite::Database other(file, SQLite::OPEN_READONLY);
    SQLite::Statement count(other, "SELECT count(*), coalesce(max(seq), 0) FROM table_events WHERE table_id = 't1'");
    const std::string padding(1900, 'x');
    for (int batch = 0; batch < 60; ++batch) {
      const int steps = batch % 10 == 9 ? 150 : 1 + batch % 3;
      std::vector<TableWrite> writes;
      for (int i = 0; i < steps; ++i) {
        auto write = step("t1", ++seq);
        write.event->json = R"({"seq":)" + std::to_string(seq) + R"(,"pad":")" + padding + R"("})";
        writes.push_back(std::move(write));
      }
      REQUIRE(commit(db, writes) == std::vector<bool>(static_cast<std::size_t>(steps), true));
      REQUIRE(count.executeStep());
      CHECK(count.getColumn(0).getInt64() == seq);
      CHECK(count.getColumn(1).getInt64() == seq);
      count.reset();
    }
  }
  Database reopened(file);
  SQLite::Database raw(file, SQLite::OPEN_READONLY);
  CHECK(raw.execAndGet("SELECT count(*) FROM table_events").getInt64() == seq);
  CHECK(raw.execAndGet("PRAGMA integrity_check").getString() == "ok");
}

TEST_CASE("create_player grants the starting chips with one ledger entry") {
  OPEN_EACH_BACKEND(db);

  const Player ann = db.create_player("Ann", "hash-of-token", 1000);

  CHECK(ann.id > 0);
  CHECK(ann.name == "Ann");
  CHECK(ann.token_hash == "hash-of-token");
  CHECK(player_account("Ann") == "player:ann");
  CHECK(db.balance(player_account("Ann")) == 1000);
  CHECK(db.balance(bank_account()) == -1000);
  CHECK(db.total_of_all_accounts() == 0);

  const std::vector<LedgerEntry> ledger = db.ledger(player_account("ann"), 50, std::nullopt);
  REQUIRE(ledger.size() == 1);
  CHECK(ledger[0].amount == 1000);
  CHECK(ledger[0].balance == 1000);
  CHECK(ledger[0].memo == "starting chips");
  CHECK(ledger[0].table.empty());
  CHECK(ledger[0].game.empty());
  CHECK(std::regex_match(ledger[0].time, std::regex(R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)")));

  const std::optional<Player> found = db.find_player("ANN");
  REQUIRE(found);
  CHECK(found->id == ann.id);
  CHECK(found->name == "Ann");
  CHECK_FALSE(db.find_player("bob"));
}

TEST_CASE("a name already taken in another case is rejected and changes nothing") {
  OPEN_EACH_BACKEND(db);
  db.create_player("ann", "first", 1000);

  CHECK_THROWS_AS(db.create_player("ANN", "second", 1000), NameTaken);
  CHECK_THROWS_WITH_AS(db.create_player("Ann", "second", 1000), doctest::Contains("name taken"), StorageError);

  CHECK(db.find_player("ann")->token_hash == "first");
  CHECK(db.balance(player_account("ann")) == 1000);
  CHECK(db.balance(bank_account()) == -1000);
  CHECK(db.ledger(player_account("ann"), 50, std::nullopt).size() == 1);
}

TEST_CASE("postings move chips between a player and a pool and both ledgers show it") {
  OPEN_EACH_BACKEND(db);
  db.create_player("ann", "h", 100);
  db.create_table(make_table("t1"));
  const std::string pot = pool_account("t1", "pot");
  CHECK(pot == "pool:t1:pot");

  const std::vector<bool> committed = commit(db, {step("t1", 1, {transfer(player_account("ann"), pot, 30, "ante")})});
  CHECK(committed == std::vector<bool>{true});

  CHECK(db.balance(player_account("ann")) == 70);
  CHECK(db.balance(pot) == 30);

  const std::vector<LedgerEntry> ann = db.ledger(player_account("ann"), 10, std::nullopt);
  REQUIRE(ann.size() == 2);
  CHECK(ann[0].amount == -30);
  CHECK(ann[0].balance == 70);
  CHECK(ann[0].memo == "ante");
  CHECK(ann[0].table == "t1");
  CHECK(ann[0].game == "red_dog");

  const std::vector<LedgerEntry> pool = db.ledger(pot, 10, std::nullopt);
  REQUIRE(pool.size() == 1);
  CHECK(pool[0].amount == 30);
  CHECK(pool[0].balance == 30);
  CHECK(pool[0].entry == ann[0].entry + 1);  // both sides of one transfer
  CHECK(pool[0].time == ann[0].time);

  CHECK(commit(db, {step("t1", 2, {transfer(pot, player_account("ann"), 30, "win")})}) == std::vector<bool>{true});
  CHECK(db.balance(player_account("ann")) == 100);
  CHECK(db.balance(pot) == 0);
  CHECK(amounts(db.ledger(pot, 10, std::nullopt)) == std::vector<std::int64_t>{-30, 30});
}

TEST_CASE("balances lists every account starting with a prefix") {
  OPEN_EACH_BACKEND(db);
  db.create_player("ann", "h", 100);
  db.create_player("bob", "h", 100);
  db.create_table(make_table("t1"));
  db.create_table(make_table("t10"));
  commit(db, {step("t1", 1, {transfer(player_account("ann"), pool_account("t1", "pot"), 5),
                            transfer(player_account("bob"), pool_account("t1", "side"), 7)}),
             step("t10", 1, {transfer(player_account("bob"), pool_account("t10", "pot"), 9)})});

  using Balances = std::vector<std::pair<std::string, std::int64_t>>;
  CHECK(db.balances("pool:t1:") == Balances{{"pool:t1:pot", 5}, {"pool:t1:side", 7}});
  CHECK(db.balances("player:") == Balances{{"player:ann", 95}, {"player:bob", 84}});
  CHECK(db.balances("nobody").empty());
  CHECK(db.balances("").size() == 6);  // bank, two players, three pools
}

TEST_CASE("the total of all accounts stays 0 after many random postings") {
  OPEN_EACH_BACKEND(db);
  db.create_player("ann", "h", 500);
  db.create_player("bob", "h", 500);
  db.create_table(make_table("t1"));
  const std::vector<std::string> accounts = {bank_account(), player_account("ann"), player_account("bob"),
                                             pool_account("t1", "pot"), pool_account("t1", "side")};

  std::mt19937 random(20261122);
  std::uniform_int_distribution<std::size_t> pick(0, accounts.size() - 1);
  std::uniform_int_distribution<std::int64_t> amount(1, 200);
  std::int64_t seq = 0;
  int committed = 0;
  for (int batch = 0; batch < 30; ++batch) {
    std::vector<TableWrite> writes;
    for (int i = 0; i < 10; ++i) {
      const std::size_t from = pick(random);
      const std::size_t to = (from + 1 + pick(random) % (accounts.size() - 1)) % accounts.size();
      writes.push_back(step("t1", ++seq, {transfer(accounts[from], accounts[to], amount(random))}));
    }
    for (bool ok : commit(db, writes)) committed += ok ? 1 : 0;
    REQUIRE(db.total_of_all_accounts() == 0);
  }

  CHECK(committed > 0);
  CHECK(committed < 300);  // some postings overdrew a player and were refused
  for (const std::string& account : accounts) {
    CAPTURE(account);
    const std::vector<LedgerEntry> ledger = db.ledger(account, 500, std::nullopt);
    std::int64_t sum = 0;
    for (const LedgerEntry& entry : ledger) sum += entry.amount;
    CHECK(sum == db.balance(account));
    if (!ledger.empty()) CHECK(ledger.front().balance == db.balance(account));
  }
  CHECK(db.balance(player_account("ann")) >= 0);
  CHECK(db.balance(player_account("bob")) >= 0);
}

TEST_CASE("a player cannot go negative: that write changes nothing while the rest of its batch commits") {
  OPEN_EACH_BACKEND(db);
  db.create_player("ann", "h", 100);
  db.create_player("bob", "h", 100);
  db.create_table(make_table("t1"));
  const std::string pot = pool_account("t1", "pot");

  TableWrite overdraw = step("t1", 2, {transfer(player_account("bob"), pot, 10), transfer(player_account("bob"), pot, 500)});
  overdraw.status = "finished";
  overdraw.seats = std::vector<Seat>{};
  overdraw.result_json = R"({"winner":"bob"})";
  TableWrite first = step("t1", 1, {transfer(player_account("ann"), pot, 30)});
  first.status = "playing";

  std::vector<std::string> errors;
  const std::vector<bool> committed =
      commit(db, {first, overdraw, step("t1", 3, {transfer(player_account("bob"), pot, 20)})}, &errors);

  CHECK(committed == std::vector<bool>{true, false, true});
  REQUIRE(errors.size() == 3);
  CHECK(errors[0].empty());
  CHECK(errors[1].find("insufficient chips") != std::string::npos);
  CHECK(errors[1].find("player:bob has 90") != std::string::npos);
  CHECK(errors[2].empty());

  // Nothing of the failed write remains: not its event, its first posting,
  // its status, its seats or its result.
  CHECK(seqs(db.events("t1")) == std::vector<std::int64_t>{1, 3});
  CHECK(db.balance(player_account("ann")) == 70);
  CHECK(db.balance(player_account("bob")) == 80);
  CHECK(db.balance(pot) == 50);
  CHECK(amounts(db.ledger(player_account("bob"), 10, std::nullopt)) == std::vector<std::int64_t>{-20, 100});
  CHECK(db.find_table("t1")->status == "playing");
  CHECK(db.find_table("t1")->seats.size() == 2);
  CHECK(db.results("t1").empty());
  CHECK(db.total_of_all_accounts() == 0);
}

TEST_CASE("postings with a non-positive amount or to the same account are rejected") {
  OPEN_EACH_BACKEND(db);
  db.create_player("ann", "h", 100);
  db.create_table(make_table("t1"));
  const std::string ann = player_account("ann");

  std::vector<std::string> errors;
  const std::vector<bool> committed = commit(db, {step("t1", 1, {transfer(ann, pool_account("t1", "pot"), 0)}),
                                                 step("t1", 2, {transfer(ann, pool_account("t1", "pot"), -5)}),
                                                 step("t1", 3, {transfer(ann, ann, 5)})},
                                                &errors);

  CHECK(committed == std::vector<bool>{false, false, false});
  CHECK(errors[0].find("amount must be positive") != std::string::npos);
  CHECK(errors[1].find("amount must be positive") != std::string::npos);
  CHECK(errors[2].find("cannot pay itself") != std::string::npos);
  CHECK(db.events("t1").empty());
  CHECK(db.balance(ann) == 100);
}

// Pages read each side of an account's transfers through its own index and cut
// them at an entry number (2t-1 the payer's leg, 2t the payee's); the view
// ledger_entries numbers the same legs by its own SQL. The two must agree, at
// every cursor of either parity.
TEST_CASE("ledger pages over an account that pays and is paid in turn agree with the ledger_entries view") {
  OPEN_EACH_BACKEND(db);
  db.create_player("ann", "h", 1000);
  db.create_player("bob", "h2", 1000);
  db.create_table(make_table("t1"));
  const std::string ann = player_account("ann");
  const std::string bob = player_account("bob");
  for (int seq = 1; seq <= 9; ++seq) {
    const bool ann_pays = seq % 3 != 0;
    REQUIRE(commit(db, {step("t1", seq, {transfer(ann_pays ? ann : bob, ann_pays ? bob : ann, seq)})}) ==
            std::vector<bool>{true});
  }
  for (const int limit : {1, 2, 3}) {
    CAPTURE(limit);
    std::vector<LedgerEntry> all;
    std::optional<std::int64_t> before;
    for (int page = 0; page < 20; ++page) {
      const auto got = db.ledger(ann, limit, before);
      if (got.empty()) break;
      all.insert(all.end(), got.begin(), got.end());
      before = got.back().entry;
    }
    REQUIRE(all.size() == 10);  // the grant and nine movements
    std::int64_t entries = 0, amounts_weighted = 0, balances_weighted = 0;
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (i > 0) CHECK(all[i - 1].entry > all[i].entry);
      entries += all[i].entry;
      amounts_weighted += all[i].amount * all[i].entry;
      balances_weighted += all[i].balance * all[i].entry;
    }
    CHECK(all.front().balance == db.balance(ann));
    const std::string of_ann = " FROM ledger_entries WHERE account_id = (SELECT id FROM accounts WHERE name = 'player:ann')";
    CHECK(raw_count(where, "SELECT count(*)" + of_ann) == 10);
    CHECK(raw_count(where, "SELECT sum(entry)" + of_ann) == entries);
    CHECK(raw_count(where, "SELECT sum(amount * entry)" + of_ann) == amounts_weighted);
    CHECK(raw_count(where, "SELECT sum(balance_after * entry)" + of_ann) == balances_weighted);
  }
}

TEST_CASE("ledger pages newest first with limit and before") {
  OPEN_EACH_BACKEND(db);
  db.create_player("ann", "h", 1000);
  db.create_table(make_table("t1"));
  const std::string ann = player_account("ann");
  for (int amount = 1; amount <= 7; ++amount) {
    REQUIRE(commit(db, {step("t1", amount, {transfer(ann, pool_account("t1", "pot"), amount)})}) ==
            std::vector<bool>{true});
  }

  const std::vector<LedgerEntry> first = db.ledger(ann, 3, std::nullopt);
  CHECK(amounts(first) == std::vector<std::int64_t>{-7, -6, -5});
  CHECK(first[0].balance == db.balance(ann));
  CHECK(first[0].entry > first[1].entry);
  CHECK(first[1].entry > first[2].entry);

  const std::vector<LedgerEntry> second = db.ledger(ann, 3, first.back().entry);
  CHECK(amounts(second) == std::vector<std::int64_t>{-4, -3, -2});
  CHECK(second[0].balance == first[2].balance + 5);

  const std::vector<LedgerEntry> last = db.ledger(ann, 3, second.back().entry);
  CHECK(amounts(last) == std::vector<std::int64_t>{-1, 1000});
  CHECK(db.ledger(ann, 3, last.back().entry).empty());

  // The limit is clamped to 1..500.
  CHECK(db.ledger(ann, 0, std::nullopt).size() == 1);
  CHECK(db.ledger(ann, -4, std::nullopt).size() == 1);
  TableWrite many = step("t1", 8);
  for (int i = 0; i < 510; ++i) many.postings.push_back(transfer(pool_account("t1", "pot"), ann, 1, "refund"));
  REQUIRE(commit(db, {many}) == std::vector<bool>{true});
  CHECK(db.ledger(ann, 10000, std::nullopt).size() == 500);
  CHECK(db.ledger("player:nobody", 10, std::nullopt).empty());
}

// Schema 14: nobody lists a pool's ledger by account, so a pool's legs are
// flagged and left out of the by-account indexes; the store still reads a
// pool's ledger whole (for tests and checks), newest first, page by page.
TEST_CASE("a pool's legs are flagged out of the by-account indexes, and its ledger still lists every leg") {
  OPEN_EACH_BACKEND(db);
  db.create_player("ann", "h", 1000);
  db.create_player("bob", "h2", 1000);
  db.create_table(make_table("t1"));
  const std::string ann = player_account("ann");
  const std::string bob = player_account("bob");
  const std::string pot = pool_account("t1", "pot");
  const std::string side = pool_account("t1", "side");
  REQUIRE(commit(db, {step("t1", 1, {transfer(ann, pot, 10), transfer(bob, pot, 20)}),
                      step("t1", 2, {transfer(pot, side, 5), transfer(pot, ann, 25)}),
                      step("t1", 3, {transfer(ann, bob, 3)})}) == std::vector<bool>{true, true, true});
  REQUIRE(commit(db, {step("t1", 4, {transfer(side, bob, 5)})}) == std::vector<bool>{true});

  // Each side flagged by its account: the grants (bank to player) and the
  // players' own transfer carry no pool side.
  CHECK(raw_count(where, "SELECT count(*) FROM transfers WHERE from_is_pool = 1") == 3);
  CHECK(raw_count(where, "SELECT count(*) FROM transfers WHERE to_is_pool = 1") == 3);
  CHECK(raw_count(where, "SELECT count(*) FROM transfers WHERE from_is_pool = 0") == 5);
  CHECK(raw_count(where, "SELECT count(*) FROM transfers WHERE to_is_pool = 0") == 5);
  CHECK(raw_count(where, "SELECT count(*) FROM transfers WHERE from_is_pool IS NULL OR to_is_pool IS NULL") == 0);

  CHECK(amounts(db.ledger(ann, 10, std::nullopt)) == std::vector<std::int64_t>{-3, 25, -10, 1000});
  CHECK(amounts(db.ledger(bob, 10, std::nullopt)) == std::vector<std::int64_t>{5, 3, -20, 1000});
  CHECK(amounts(db.ledger(pot, 10, std::nullopt)) == std::vector<std::int64_t>{-25, -5, 20, 10});
  CHECK(amounts(db.ledger(side, 10, std::nullopt)) == std::vector<std::int64_t>{-5, 5});
  // Page by page, at each cursor the page before ends on.
  std::vector<std::int64_t> paged;
  std::optional<std::int64_t> before;
  for (int page = 0; page < 10; ++page) {
    const auto got = db.ledger(pot, 1, before);
    if (got.empty()) break;
    paged.push_back(got.front().amount);
    before = got.front().entry;
  }
  CHECK(paged == std::vector<std::int64_t>{-25, -5, 20, 10});
  for (const std::string& account : {ann, bob, pot, side}) {
    std::vector<LedgerEntry> entries = db.ledger(account, 500, std::nullopt);
    std::reverse(entries.begin(), entries.end());
    std::int64_t running = 0;
    for (const LedgerEntry& entry : entries) CHECK(entry.balance == (running += entry.amount));
    CHECK(running == db.balance(account));
  }
  CHECK(db.total_of_all_accounts() == 0);
}

// Each entry's balance is the running sum of the account's entries up to it.
void check_running_balances(Store& db, const std::string& account) {
  CAPTURE(account);
  std::vector<LedgerEntry> entries = db.ledger(account, 500, std::nullopt);
  std::reverse(entries.begin(), entries.end());
  std::int64_t running = 0;
  for (const LedgerEntry& entry : entries) {
    running += entry.amount;
    CAPTURE(entry.entry);
    CHECK(entry.balance == running);
  }
  CHECK(running == db.balance(account));
}

TEST_CASE("a batch's steps moving the same accounts: each entry's balance exact, a new account opened once") {
  OPEN_EACH_BACKEND(db);
  db.create_player("ann", "h", 1000);
  db.create_player("bob", "h", 1000);
  db.create_table(make_table("t1"));
  const std::string ann = player_account("ann");
  const std::string bob = player_account("bob");
  const std::string pot = pool_account("t1", "pot");  // no account yet: the batch opens it

  std::vector<TableWrite> writes;
  for (std::int64_t seq = 1; seq <= 20; ++seq)
    writes.push_back(step("t1", seq, {transfer(ann, pot, 10), transfer(pot, bob, 7), transfer(bob, ann, 3)}));
  CHECK(commit(db, writes) == std::vector<bool>(20, true));

  CHECK(db.balance(ann) == 1000 - 20 * 7);
  CHECK(db.balance(bob) == 1000 + 20 * 4);
  CHECK(db.balance(pot) == 20 * 3);
  CHECK(db.balances("pool:").size() == 1);
  for (const std::string& account : {ann, bob, pot}) check_running_balances(db, account);
  CHECK(seqs(db.events("t1")).size() == 20);
  CHECK(db.total_of_all_accounts() == 0);
}

TEST_CASE("a step the database refuses undoes only itself, its chips included, while the batch's others commit") {
  OPEN_EACH_BACKEND(db);
  db.create_player("ann", "h", 100);
  db.create_table(make_table("t1"));
  const std::string ann = player_account("ann");
  const std::string pot = pool_account("t1", "pot");
  REQUIRE(commit(db, {step("t1", 1, {transfer(ann, pot, 1)})}) == std::vector<bool>{true});

  // Nothing predicts the third one's failure: its seq is taken, which only the
  // database knows.
  std::vector<std::string> errors;
  const std::vector<bool> committed =
      commit(db,
             {step("t1", 2, {transfer(ann, pot, 10)}), step("t1", 3, {transfer(pot, ann, 4)}),
              step("t1", 1, {transfer(ann, pot, 50)}), step("t1", 4, {transfer(ann, pot, 20)})},
             &errors);

  CHECK(committed == std::vector<bool>{true, true, false, true});
  CHECK(says_unique_violated(errors[2]));
  CHECK(seqs(db.events("t1")) == std::vector<std::int64_t>{1, 2, 3, 4});
  CHECK(db.balance(ann) == 100 - 1 - 10 + 4 - 20);
  CHECK(db.balance(pot) == 1 + 10 - 4 + 20);
  CHECK(amounts(db.ledger(ann, 10, std::nullopt)) == std::vector<std::int64_t>{-20, 4, -10, -1, 100});
  check_running_balances(db, ann);
  check_running_balances(db, pot);
  CHECK(db.total_of_all_accounts() == 0);
}

TEST_CASE("an event with a seq the table already has is rejected with context") {
  OPEN_EACH_BACKEND(db);
  db.create_table(make_table("t1"));
  db.create_table(make_table("t2"));
  REQUIRE(commit(db, {step("t1", 1)}) == std::vector<bool>{true});

  TableWrite replay = step("t1", 1);
  replay.event->json = R"({"replayed":true})";
  std::vector<std::string> errors;
  const std::vector<bool> committed = commit(db, {replay, step("t2", 1), step("t2", 1)}, &errors);

  CHECK(committed == std::vector<bool>{false, true, false});
  CHECK(errors[0].find("while appending event 1 of table t1") != std::string::npos);
  CHECK(says_unique_violated(errors[0]));
  const std::vector<Event> events = db.events("t1");
  REQUIRE(events.size() == 1);
  CHECK(events[0].json == R"({"seq":1})");
  CHECK(seqs(db.events("t2")) == std::vector<std::int64_t>{1});
}

namespace {

// One batch of six writes, each ending differently: what the outcome test
// and the two-backends test both commit. t2 is leased to node b at generation
// 2; ann has 100 chips.
void prepare_outcomes(Store& db, const std::string& where) {
  db.create_player("ann", "h", 100);
  db.create_table(make_table("t1"));
  db.create_table(make_table("t2"));
  raw_exec(where,
           "INSERT INTO table_leases(table_id, node, generation, expires_at) VALUES ('t2', 'b', 2, '2999-01-01T00:00:00Z')");
}

std::vector<TableWrite> writes_with_every_outcome() {
  TableWrite stale = step("t2", 1);
  stale.fence = Fence{"a", 1};
  TableWrite unleased = step("t1", 4);
  unleased.fence = Fence{"a", 1};
  return {step("t1", 1, {transfer(player_account("ann"), pool_account("t1", "pot"), 30)}),
          stale,
          step("t1", 2, {transfer(player_account("ann"), pool_account("t1", "pot"), 500)}),
          step("t1", 1),
          unleased,
          step("t1", 3, {transfer(player_account("ann"), pool_account("t1", "pot"), 0)})};
}

using Kind = CommitOutcome::Kind;

std::vector<Kind> kinds(const std::vector<CommitOutcome>& outcomes) {
  std::vector<Kind> result;
  for (const CommitOutcome& outcome : outcomes) result.push_back(outcome.kind);
  return result;
}

}  // namespace

namespace doctest {
template <>
struct StringMaker<Kind> {
  static String convert(Kind kind) { return name_of(kind); }
};
}  // namespace doctest

TEST_CASE("commit says what became of each write: committed, fenced, lacked chips, or failed with why") {
  OPEN_EACH_BACKEND(db);
  prepare_outcomes(db, where);

  const std::vector<CommitOutcome> outcomes = db.commit(writes_with_every_outcome());

  REQUIRE(outcomes.size() == 6);
  CHECK(kinds(outcomes) ==
        std::vector<Kind>{Kind::committed, Kind::fenced, Kind::lacked_chips, Kind::failed, Kind::fenced, Kind::failed});
  CHECK(outcomes[0].detail.empty());
  CHECK(outcomes[1].detail == "fenced: table t2 is leased to node b (generation 2), not to node a (generation 1)");
  CHECK(outcomes[2].detail ==
        "insufficient chips for posting 500 from player:ann to pool:t1:pot (bet): player:ann has 70");
  CHECK(outcomes[3].detail.rfind("while appending event 1 of table t1: ", 0) == 0);
  CHECK(says_unique_violated(outcomes[3].detail));
  CHECK(outcomes[4].detail == "fenced: table t1 is leased to nobody, not to node a (generation 1)");
  CHECK(outcomes[5].detail ==
        "invalid posting 0 from player:ann to pool:t1:pot (bet): the amount must be positive");
  // Only the first write is in the database.
  CHECK(seqs(db.events("t1")) == std::vector<std::int64_t>{1});
  CHECK(db.events("t2").empty());
  CHECK(db.balance(player_account("ann")) == 70);
}

TEST_CASE("SQLite and PostgreSQL give the same outcome, in the same words, for the same failing writes") {
  TempFolder temp;
  const std::string postgres = fresh_postgres_database();
  if (postgres.empty()) {
    MESSAGE("PostgreSQL is not installed: nothing to compare SQLite with");
    return;
  }
  SqliteStore sqlite(temp.file());
  PostgresStore postgresql(postgres);
  prepare_outcomes(sqlite, temp.file());
  prepare_outcomes(postgresql, postgres);

  const std::vector<CommitOutcome> on_sqlite = sqlite.commit(writes_with_every_outcome());
  const std::vector<CommitOutcome> on_postgres = postgresql.commit(writes_with_every_outcome());

  REQUIRE(on_sqlite.size() == on_postgres.size());
  for (std::size_t i = 0; i < on_sqlite.size(); ++i) {
    CAPTURE(i);
    CHECK(on_sqlite[i].kind == on_postgres[i].kind);
    // The database's own words for a broken constraint differ; what the store
    // says before them does not.
    const std::string& detail = on_sqlite[i].detail;
    const std::size_t own_words = detail.find("UNIQUE constraint failed");
    if (own_words == std::string::npos) {
      CHECK(detail == on_postgres[i].detail);
    } else {
      CHECK(on_postgres[i].detail.rfind(detail.substr(0, own_words), 0) == 0);
    }
  }
}

TEST_CASE("an event for a table that does not exist is rejected") {
  OPEN_EACH_BACKEND(db);
  std::vector<std::string> errors;

  CHECK(commit(db, {step("ghost", 1)}, &errors) == std::vector<bool>{false});
  CHECK(says_foreign_key_violated(errors[0]));
  CHECK(db.events("ghost").empty());
}

TEST_CASE("tables round-trip with their seats, status, events and results") {
  OPEN_EACH_BACKEND(db);

  TableRecord stacked = make_table("t1", "INVITE1");
  stacked.seed = 0xFEDCBA9876543210ULL;  // high bit set: stored through an int64 bit-cast
  stacked.is_private = true;
  stacked.deck_json = R"(["AS","KH"])";
  stacked.clock_json = R"({"away_after":3,"bank":60,"seconds":20})";
  stacked.seats = {Seat{2, "robo", true, 3}, Seat{0, "ann", false, 0}, Seat{1, "", false, 0}};
  db.create_table(stacked);
  db.create_table(make_table("t2"));
  db.create_table(make_table("t3"));  // a second table without invite: NULLs never collide

  const std::optional<TableRecord> found = db.find_table("t1");
  REQUIRE(found);
  CHECK(found->id == "t1");
  CHECK(found->game == "red_dog");
  CHECK(found->options_json == R"({"decks":6})");
  CHECK(found->seed == 0xFEDCBA9876543210ULL);
  CHECK(found->host == "ann");
  CHECK(found->status == "waiting");
  CHECK(found->is_private);
  CHECK(found->invite == "INVITE1");
  CHECK(found->deck_json == R"(["AS","KH"])");
  CHECK(found->clock_json == R"({"away_after":3,"bank":60,"seconds":20})");
  check_same_seats(found->seats, {Seat{0, "ann", false, 0}, Seat{1, "", false, 0}, Seat{2, "robo", true, 3}});

  CHECK(db.find_table("t2")->invite.empty());
  CHECK(db.find_table("t2")->deck_json.empty());
  CHECK(db.find_table("t2")->clock_json.empty());
  CHECK_FALSE(db.find_table("nope"));
  CHECK_THROWS_AS(db.create_table(make_table("t1")), StorageError);
  CHECK_THROWS_WITH(db.create_table(make_table("t4", "INVITE1")), doctest::Contains("while creating table t4"));

  TableWrite start = step("t2", 1);
  start.status = "playing";
  start.seats = std::vector<Seat>{Seat{1, "bob", false, 0}, Seat{0, "ann", false, 0}};
  start.result_json = R"({"deal":1})";
  TableWrite next = step("t2", 2);
  next.result_json = R"({"deal":2})";
  REQUIRE(commit(db, {start, next}) == std::vector<bool>{true, true});

  std::vector<std::string> waiting;
  for (const TableRecord& table : db.tables_with_status("waiting")) waiting.push_back(table.id);
  CHECK(waiting == std::vector<std::string>{"t1", "t3"});
  const std::vector<TableRecord> playing = db.tables_with_status("playing");
  REQUIRE(playing.size() == 1);
  CHECK(playing[0].id == "t2");
  check_same_seats(playing[0].seats, {Seat{0, "ann", false, 0}, Seat{1, "bob", false, 0}});
  CHECK(db.results("t2") == std::vector<std::string>{R"({"deal":1})", R"({"deal":2})"});
  CHECK(seqs(db.events("t2")) == std::vector<std::int64_t>{1, 2});

  TableWrite bad_status = step("t2", 3);
  bad_status.status = "paused";
  CHECK(commit(db, {bad_status}) == std::vector<bool>{false});
  CHECK(db.find_table("t2")->status == "playing");
}

TEST_CASE("a deal's start is kept with its step: the list without states, one deal's state, one deal's events") {
  OPEN_EACH_BACKEND(db);
  db.create_table(make_table("t1"));
  db.create_table(make_table("t2"));
  std::vector<TableWrite> writes;
  for (std::int64_t seq = 1; seq <= 9; ++seq) writes.push_back(step("t1", seq));
  writes[0].deal_start = DealStart{1, 1, R"({"deal":1,"from_seq":1})", R"({"seq":0})"};
  writes[4].deal_start = DealStart{2, 5, R"({"deal":2,"from_seq":5})", R"({"seq":4})"};
  writes[6].deal_start = DealStart{3, 7, R"({"deal":3,"from_seq":7})", ""};  // no state kept with it
  REQUIRE(commit(db, writes) == std::vector<bool>(9, true));

  const auto starts = db.deal_starts("t1");
  REQUIRE(starts.size() == 3);
  CHECK(starts[0].deal == 1);
  CHECK(starts[0].seq == 1);
  CHECK(starts[0].entry_json == R"({"deal":1,"from_seq":1})");
  CHECK(starts[0].state_json.empty());  // the list never carries the states
  CHECK(starts[0].state_kept);
  CHECK(starts[1].deal == 2);
  CHECK(starts[1].seq == 5);
  CHECK(starts[1].state_kept);
  CHECK(starts[2].deal == 3);
  CHECK(starts[2].entry_json == R"({"deal":3,"from_seq":7})");
  CHECK_FALSE(starts[2].state_kept);
  CHECK(db.deal_state("t1", 2) == std::optional<std::string>(R"({"seq":4})"));
  CHECK_FALSE(db.deal_state("t1", 3));  // a start without a state
  CHECK_FALSE(db.deal_state("t1", 4));  // no such deal
  CHECK(db.deal_starts("t2").empty());
  CHECK(seqs(db.events_between("t1", 0, 4)) == std::vector<std::int64_t>{1, 2, 3, 4});
  CHECK(seqs(db.events_between("t1", 4, 100)) == std::vector<std::int64_t>{5, 6, 7, 8, 9});

  // A deal kept twice is a broken write: that step is undone whole, its event too.
  TableWrite again = step("t1", 10);
  again.deal_start = DealStart{2, 10, "{}", "{}"};
  CHECK(commit(db, {again}) == std::vector<bool>{false});
  CHECK(seqs(db.events_after("t1", 9)).empty());
  // And a start for a table that does not exist is refused.
  TableWrite stranger = step("t2", 1);
  stranger.table = "t9";
  stranger.event.reset();
  stranger.deal_start = DealStart{1, 1, "{}", "{}"};
  CHECK(commit(db, {stranger}) == std::vector<bool>{false});
}

// A batch writes its results and deal starts with its other rows (on
// PostgreSQL in its one statement): they keep the order of the steps.
TEST_CASE("a batch's results and deal starts, of two tables interleaved, read back in their steps' order") {
  OPEN_EACH_BACKEND(db);
  db.create_table(make_table("t1"));
  db.create_table(make_table("t2"));
  std::vector<TableWrite> writes;
  for (std::int64_t seq = 1; seq <= 6; ++seq) {
    for (const char* table : {"t1", "t2"}) {
      TableWrite write = step(table, seq);
      write.result_json = std::string(R"({"deal":)") + std::to_string(seq) + R"(,"table":")" + table + R"("})";
      if (seq % 2 == 1)
        write.deal_start = DealStart{static_cast<int>(seq / 2 + 1), seq, R"({"seq":)" + std::to_string(seq) + "}", "{}"};
      writes.push_back(write);
    }
  }
  REQUIRE(commit(db, writes) == std::vector<bool>(12, true));
  for (const char* table : {"t1", "t2"}) {
    std::vector<std::string> expected;
    for (int seq = 1; seq <= 6; ++seq)
      expected.push_back(std::string(R"({"deal":)") + std::to_string(seq) + R"(,"table":")" + table + R"("})");
    CHECK(db.results(table) == expected);
    const auto starts = db.deal_starts(table);
    REQUIRE(starts.size() == 3);
    for (std::size_t i = 0; i < starts.size(); ++i) {
      CHECK(starts[i].deal == static_cast<int>(i + 1));
      CHECK(starts[i].seq == static_cast<std::int64_t>(2 * i + 1));
    }
  }
}

TEST_CASE("migrations upgrade a version 1 file and keep its data") {
  TempFolder temp;
  REQUIRE(Store::latest_schema_version() >= 2);
  {
    Database old(temp.file(), 1);
    CHECK(old.schema_version() == 1);
    old.create_player("ann", "h", 1000);
    old.create_table(make_table("t1"));
    REQUIRE(commit(old, {step("t1", 1, {transfer(player_account("ann"), pool_account("t1", "pot"), 40)})}) ==
            std::vector<bool>{true});
  }
  CHECK_FALSE(has_index(temp.file(), "ledger_entries_by_account"));
  CHECK_FALSE(has_index(temp.file(), "transfers_by_payer"));
  CHECK(migrations_recorded(temp.file()) == 1);

  Database db(temp.file());

  CHECK(db.schema_version() == Store::latest_schema_version());
  CHECK(has_index(temp.file(), "transfers_by_payer"));
  CHECK(has_index(temp.file(), "transfers_by_payee"));
  CHECK(migrations_recorded(temp.file()) == Store::latest_schema_version());
  CHECK(db.find_player("ann"));
  CHECK(db.balance(player_account("ann")) == 960);
  CHECK(amounts(db.ledger(player_account("ann"), 10, std::nullopt)) == std::vector<std::int64_t>{-40, 1000});
  CHECK(seqs(db.events("t1")) == std::vector<std::int64_t>{1});
  CHECK(db.find_table("t1")->seats.size() == 2);
  CHECK(db.total_of_all_accounts() == 0);
}

// From schema 13 on, a transfer is one row holding both its legs. A raw one
// between two named accounts; `ids` names them by id instead (no lookup).
std::string raw_transfer(std::int64_t amount, const std::string& from, const std::string& to,
                         const std::string& time = "2026-01-01T00:00:00.000Z", const std::string& table = "t1") {
  return "INSERT INTO transfers(time, table_id, game, memo, from_account, to_account, amount, from_balance_after, "
         "to_balance_after) SELECT '" + time + "', '" + table + "', 'red_dog', 'x', payer.id, payee.id, " +
         std::to_string(amount) + ", 0, 0 FROM accounts payer, accounts payee WHERE payer.name = '" + from +
         "' AND payee.name = '" + to + "';\n";
}

std::string raw_transfer_between_ids(std::int64_t amount, const std::string& from_id, const std::string& to_id) {
  return "INSERT INTO transfers(time, table_id, game, memo, from_account, to_account, amount, from_balance_after, "
         "to_balance_after) VALUES ('2026-01-01T00:00:00.000Z', 't1', 'red_dog', 'x', " + from_id + ", " + to_id +
         ", " + std::to_string(amount) + ", 0, 0);\n";
}

TEST_CASE("the database refuses a transfer that is not one positive payment between two accounts, and any change to one") {
  OPEN_EACH_BACKEND(db);
  db.create_player("ann", "h", 1000);
  const std::int64_t transfers = raw_count(where, "SELECT count(*) FROM transfers");
  const std::int64_t entries = raw_count(where, "SELECT count(*) FROM ledger_entries");
  const std::string ann = "player:ann";
  const std::string bank = "bank";
  const std::string ann_id = "(SELECT id FROM accounts WHERE name = 'player:ann')";

  // Not SUBCASEs: the test already runs once per backend through them.
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"no chips", raw_transfer(0, ann, bank)},
      {"a negative amount", raw_transfer(-5, ann, bank)},
      {"an account paying itself", raw_transfer(5, ann, ann)},
      {"a payer that is no account", raw_transfer_between_ids(5, "987654", ann_id)},
      {"a payee that is no account", raw_transfer_between_ids(5, ann_id, "987654")},
      {"no payee", raw_transfer_between_ids(5, ann_id, "NULL")},
      {"an entry written by itself", "INSERT INTO ledger_entries(transfer_id, account_id, amount, balance_after) "
                                     "VALUES (1, 1, 5, 0)"},
      {"changing an amount after the fact", "UPDATE transfers SET amount = 999"},
      {"changing who was paid after the fact", "UPDATE transfers SET to_account = from_account + to_account"},
      {"removing transfers", "DELETE FROM transfers"},
  };
  for (const auto& refusal : refused) {
    CAPTURE(refusal.first);  // not a structured binding: clang 14 cannot capture one
    CHECK_THROWS(raw_exec(where, refusal.second));
  }

  CHECK(raw_count(where, "SELECT count(*) FROM transfers") == transfers);
  CHECK(raw_count(where, "SELECT count(*) FROM ledger_entries") == entries);
  CHECK(amounts(db.ledger(player_account("ann"), 10, std::nullopt)) == std::vector<std::int64_t>{1000});
  // One positive payment between two accounts is what the store itself writes, and passes: two legs.
  raw_exec(where, raw_transfer(5, ann, bank));
  CHECK(raw_count(where, "SELECT count(*) FROM transfers") == transfers + 1);
  CHECK(raw_count(where, "SELECT count(*) FROM ledger_entries") == entries + 2);
  CHECK(amounts(db.ledger(player_account("ann"), 10, std::nullopt)) == std::vector<std::int64_t>{-5, 1000});
}

TEST_CASE("the database refuses a player balance below zero, whoever writes it") {
  OPEN_EACH_BACKEND(db);
  db.create_player("ann", "h", 10);
  CHECK_THROWS(raw_exec(where, "UPDATE accounts SET balance = -1 WHERE name = 'player:ann'"));
  CHECK_THROWS(raw_exec(where, "INSERT INTO accounts(name, balance) VALUES ('player:zed', -3)"));
  // The bank and the pools may be negative.
  raw_exec(where, "INSERT INTO accounts(name, balance) VALUES ('pool:t1:pot', -3)");
  CHECK(db.balance(player_account("ann")) == 10);
  CHECK(db.balance("pool:t1:pot") == -3);
  CHECK(db.balance(bank_account()) == -10);
}

TEST_CASE("a PostgreSQL database is migrated like a SQLite file: versions, indexes, and newer ones refused") {
  const std::string url = fresh_postgres_database();
  if (url.empty()) {
    MESSAGE("PostgreSQL is not installed: skipped");
    return;
  }
  {
    PostgresStore old(url, 1);
    CHECK(old.schema_version() == 1);
  }
  const std::string index_count = "SELECT count(*) FROM pg_indexes WHERE indexname = 'transfers_by_payer'";
  CHECK(raw_count(url, index_count) == 0);
  CHECK(raw_count(url, "SELECT count(*) FROM schema_version") == 1);
  {
    PostgresStore db(url);
    CHECK(db.schema_version() == Store::latest_schema_version());
  }
  CHECK(raw_count(url, index_count) == 1);
  CHECK(raw_count(url, "SELECT count(*) FROM schema_version") == Store::latest_schema_version());
  CHECK_THROWS_AS(PostgresStore(url, Store::latest_schema_version() + 1), StorageError);
  CHECK_THROWS_AS(PostgresStore(url, -1), StorageError);
  raw_exec(url, "INSERT INTO schema_version(version, description, applied_at) VALUES (999, 'future', 'later')");
  CHECK_THROWS_WITH_AS(PostgresStore{url}, doctest::Contains("newer than this build"), StorageError);
}

TEST_CASE("a schema version outside what this build knows is refused") {
  TempFolder temp;
  CHECK_THROWS_AS(Database(temp.file(), Store::latest_schema_version() + 1), StorageError);
  CHECK_THROWS_AS(Database(temp.file(), -1), StorageError);

  { Database db(temp.file()); }
  {
    SQLite::Database raw(temp.file(), SQLite::OPEN_READWRITE);
    raw.exec("INSERT INTO schema_version(version, description, applied_at) VALUES (999, 'future', 'later')");
  }
  CHECK_THROWS_WITH_AS(Database(temp.file()), doctest::Contains("newer than this build"), StorageError);
}

TEST_CASE("reopening a database is idempotent") {
  OPEN_EACH_BACKEND(first);
  first.create_player("ann", "h", 1000);
  first.create_table(make_table("t1"));
  for (int reopen = 0; reopen < 3; ++reopen) {
    CAPTURE(reopen);
    const std::unique_ptr<Store> store = open_store(where);
    Store& db = *store;
    CHECK(db.schema_version() == Store::latest_schema_version());
    CHECK(db.ledger(player_account("ann"), 10, std::nullopt).size() == 1);
    CHECK(db.balance(player_account("ann")) == 1000);
    CHECK(db.tables_with_status("waiting").size() == 1);
  }
  CHECK(raw_count(where, "SELECT count(*) FROM schema_version") == Store::latest_schema_version());
}

TEST_CASE("a table created with its first step (a rematch) has its first event and its bots' chips, or nothing") {
  OPEN_EACH_BACKEND(db);
  db.create_table(make_table("t1"), {step("t1", 1, {transfer(bank_account(), player_account("bot-t1-1"), 1000, "starting chips (bot)")})});
  REQUIRE(db.find_table("t1"));
  REQUIRE(db.events("t1").size() == 1);
  CHECK(db.events("t1")[0].seq == 1);
  CHECK(db.balance(player_account("bot-t1-1")) == 1000);
  CHECK(db.total_of_all_accounts() == 0);
  // A first step that cannot be written (a player paying chips he does not have) leaves no table behind.
  CHECK_THROWS(db.create_table(make_table("t2", "inv2"), {step("t2", 1, {transfer(player_account("nobody"), bank_account(), 5)})}));
  CHECK_FALSE(db.find_table("t2"));
  CHECK(db.events("t2").empty());
}

TEST_CASE("a rematch is one transaction: the new table and the old table's event naming it, or neither") {
  OPEN_EACH_BACKEND(db);
  db.create_table(make_table("t1"));
  commit(db, {step("t1", 1)});
  const auto names = [](const std::string& table) {
    TableWrite write = step("t1", 2);
    write.event->json = R"({"kind":"rematch","table":")" + table + R"(","same_seed":false})";
    return write;
  };
  const auto bots_chips = [](const std::string& table) {
    return step(table, 1, {transfer(bank_account(), player_account("bot-" + table + "-1"), 1000, "starting chips (bot)")});
  };
  db.create_table(make_table("t2", "inv2"), {bots_chips("t2"), names("t2")});
  REQUIRE(db.find_table("t2"));
  REQUIRE(db.events("t1").size() == 2);
  CHECK(db.events("t1")[1].json.find("\"t2\"") != std::string::npos);
  // A second rematch whose old-table part cannot be written (its seq is taken):
  // no new table, no bot's chips, the old table's log as it was.
  CHECK_THROWS(db.create_table(make_table("t3", "inv3"), {bots_chips("t3"), names("t3")}));
  CHECK_FALSE(db.find_table("t3"));
  CHECK(db.balance(player_account("bot-t3-1")) == 0);
  CHECK(db.events("t1").size() == 2);
  CHECK(db.total_of_all_accounts() == 0);
}

TEST_CASE("a movement keeps the table event and deal that caused it, and the ledger returns them") {
  OPEN_EACH_BACKEND(db);
  db.create_player("ann", "h", 1000);
  db.create_table(make_table("t1"));
  Posting bet = transfer(player_account("ann"), pool_account("t1", "pot"), 10, "Red Dog: ann's bet of 10 lost");
  bet.seq = 7;
  bet.deal = 3;
  Posting unlinked = transfer(player_account("ann"), pool_account("t1", "pot"), 5, "fault share");
  REQUIRE(commit(db, {step("t1", 7, {bet, unlinked})}) == std::vector<bool>{true});

  const auto ledger = db.ledger(player_account("ann"), 10, std::nullopt);
  REQUIRE(ledger.size() == 3);
  CHECK(ledger[0].memo == "fault share");
  CHECK_FALSE(ledger[0].seq.has_value());
  CHECK_FALSE(ledger[0].deal.has_value());
  CHECK(ledger[1].memo == "Red Dog: ann's bet of 10 lost");
  CHECK(ledger[1].seq == std::optional<std::int64_t>(7));
  CHECK(ledger[1].deal == std::optional<std::int64_t>(3));
  CHECK(ledger[2].memo == "starting chips");
  CHECK_FALSE(ledger[2].seq.has_value());
  // The pool's side of the same movement carries the same link.
  const auto pot = db.ledger(pool_account("t1", "pot"), 10, std::nullopt);
  REQUIRE(pot.size() == 2);
  CHECK(pot[1].seq == std::optional<std::int64_t>(7));
  CHECK(pot[1].deal == std::optional<std::int64_t>(3));
}

TEST_CASE("migration 6 keeps a version 5 file's movements, with no deal link") {
  TempFolder temp;
  {
    Database old(temp.file(), 5);
    old.create_player("ann", "h", 1000);
    old.create_table(make_table("t1"));
    REQUIRE(commit(old, {step("t1", 1, {transfer(player_account("ann"), pool_account("t1", "pot"), 40)})}) ==
            std::vector<bool>{true});
  }
  Database db(temp.file());
  CHECK(db.schema_version() == Store::latest_schema_version());
  const auto ledger = db.ledger(player_account("ann"), 10, std::nullopt);
  REQUIRE(ledger.size() == 2);
  CHECK(ledger[0].amount == -40);
  CHECK_FALSE(ledger[0].seq.has_value());
  CHECK_FALSE(ledger[0].deal.has_value());
  CHECK(db.table_nets("t1").size() == 2);
}

// What an older database holds before migrations 8 and 13 rebuild its ledger:
// two players' grants and one table step moving chips with its links. Returns
// the numbers of ann's two entries, newest first, as the old schema holds them.
std::vector<std::int64_t> fill_old_ledger(Store& old, const std::string& where) {
  old.create_player("ann", "h", 1000);
  old.create_player("bob", "h2", 500);
  old.create_table(make_table("t1"));
  Posting bet = transfer(player_account("ann"), pool_account("t1", "pot"), 40, "ann's bet");
  bet.seq = 1;
  bet.deal = 1;
  Posting win = transfer(pool_account("t1", "pot"), player_account("bob"), 40, "bob's win");
  win.seq = 1;
  win.deal = 1;
  REQUIRE(commit(old, {step("t1", 1, {bet, win})}) == std::vector<bool>{true});
  const std::string anns = "FROM ledger_entries WHERE account_id = (SELECT id FROM accounts WHERE name = 'player:ann')";
  return {raw_count(where, "SELECT max(entry) " + anns), raw_count(where, "SELECT min(entry) " + anns)};
}

// The same database after them: every movement kept with its links and its
// entry numbers, the guarantees still held, and the store writing in the new shape.
void check_migrated_ledger(Store& db, const std::string& where, const std::vector<std::int64_t>& before) {
  CHECK(db.schema_version() == Store::latest_schema_version());
  CHECK(raw_count(where, "SELECT count(*) FROM transfers") == 4);
  CHECK(raw_count(where, "SELECT count(*) FROM ledger_entries") == 8);
  CHECK(db.balance(player_account("ann")) == 960);
  CHECK(db.balance(player_account("bob")) == 540);
  CHECK(db.total_of_all_accounts() == 0);
  const auto ledger = db.ledger(player_account("ann"), 10, std::nullopt);
  REQUIRE(ledger.size() == 2);
  CHECK(ledger[0].amount == -40);
  CHECK(ledger[0].balance == 960);
  CHECK(ledger[0].memo == "ann's bet");
  CHECK(ledger[0].seq == std::optional<std::int64_t>(1));
  CHECK(ledger[0].deal == std::optional<std::int64_t>(1));
  CHECK(ledger[1].amount == 1000);
  REQUIRE(before.size() == 2);
  CHECK(ledger[0].entry == before[0]);
  CHECK(ledger[1].entry == before[1]);
  CHECK(db.ledger(player_account("ann"), 10, ledger[0].entry).size() == 1);
  CHECK(db.table_nets("t1").size() == 3);

  // A transfer written before the migration cannot be changed or removed.
  CHECK_THROWS(raw_exec(where, "UPDATE transfers SET amount = amount + 1 WHERE id = (SELECT min(id) FROM transfers)"));
  CHECK_THROWS(raw_exec(where, "DELETE FROM transfers"));
  CHECK_THROWS(raw_exec(where, raw_transfer(5, "player:ann", "player:ann")));

  REQUIRE(commit(db, {step("t1", 2, {transfer(player_account("bob"), player_account("ann"), 15)})}) ==
          std::vector<bool>{true});
  CHECK(db.balance(player_account("ann")) == 975);
  CHECK(raw_count(where, "SELECT count(*) FROM transfers") == 5);
  CHECK(raw_count(where, "SELECT count(*) FROM ledger_entries") == 10);
  // A player still cannot go below zero.
  CHECK(commit(db, {step("t1", 3, {transfer(player_account("bob"), player_account("ann"), 10'000)})}) ==
        std::vector<bool>{false});
  CHECK(db.balance(player_account("bob")) == 525);
}

TEST_CASE("migration 8 keeps a version 7 SQLite file's ledger, rebuilt, and its guarantees") {
  TempFolder temp;
  std::vector<std::int64_t> before;
  {
    Database old(temp.file(), 7);
    before = fill_old_ledger(old, temp.file());
  }
  Database db(temp.file());
  check_migrated_ledger(db, temp.file(), before);
  // Migration 7's marker table and link are gone with the rebuild, and migration 8's entries with 13's.
  CHECK(raw_count(temp.file(), "SELECT count(*) FROM sqlite_master WHERE name = 'balanced_transfers'") == 0);
  CHECK(raw_count(temp.file(), "SELECT count(*) FROM pragma_table_info('transfers') WHERE name = 'balanced'") == 0);
  CHECK(raw_count(temp.file(), "SELECT count(*) FROM sqlite_master WHERE name = 'ledger_entries' AND type = 'view'") == 1);
  CHECK_FALSE(has_index(temp.file(), "ledger_entries_by_transfer"));
  CHECK(has_index(temp.file(), "transfers_by_payer"));
  CHECK(has_index(temp.file(), "transfers_by_payee"));
  CHECK(has_index(temp.file(), "transfers_by_table"));
}

TEST_CASE("migration 13 keeps a version 12 SQLite file's ledger, one row a transfer, and its guarantees") {
  TempFolder temp;
  std::vector<std::int64_t> before;
  {
    Database old(temp.file(), 12);
    before = fill_old_ledger(old, temp.file());
  }
  Database db(temp.file());
  check_migrated_ledger(db, temp.file(), before);
}

TEST_CASE("migration 13 refuses a ledger whose transfer is not one debit and one credit, and the file keeps its version") {
  TempFolder temp;
  {
    Database old(temp.file(), 12);
    fill_old_ledger(old, temp.file());
  }
  {
    // Only a hand edit past migration 8's trigger can leave a transfer with one entry.
    SQLite::Database raw(temp.file(), SQLite::OPEN_READWRITE);
    raw.exec("DROP TRIGGER ledger_entries_are_not_deleted; DELETE FROM ledger_entries WHERE entry = 6");
  }
  CHECK_THROWS_WITH_AS(Database(temp.file()), doctest::Contains("transfers_not_one_debit_and_one_credit_that_cancel"),
                       StorageError);
  CHECK(raw_count(temp.file(), "SELECT max(version) FROM schema_version") == 12);
  CHECK(raw_count(temp.file(), "SELECT count(*) FROM ledger_entries") == 7);
}

// Before migration 14 every leg was in the by-account indexes, with no pool
// flag. A version 13 store's legs stay listed (NULL is listed), a pool's
// too; after it, a pool's ledger still reads each of its legs once, old and new.
void fill_version_13(Store& old) {
  old.create_player("ann", "h", 1000);
  old.create_table(make_table("t1"));
  TableWrite dealt = step("t1", 1, {transfer(player_account("ann"), pool_account("t1", "pot"), 40, "ann's ante")});
  dealt.deal_start = DealStart{1, 1, R"({"deal":1})", R"({"state":"before deal 1"})"};
  REQUIRE(commit(old, {dealt, step("t1", 2, {transfer(pool_account("t1", "pot"), player_account("ann"), 15, "refund")})}) ==
          std::vector<bool>{true, true});
}

void check_version_14(Store& db, const std::string& where) {
  CHECK(db.schema_version() == Store::latest_schema_version());
  CHECK(raw_count(where, "SELECT count(*) FROM transfers WHERE from_is_pool IS NULL AND to_is_pool IS NULL") == 3);
  REQUIRE(commit(db, {step("t1", 3, {transfer(player_account("ann"), pool_account("t1", "pot"), 7, "ann's bet")})}) ==
          std::vector<bool>{true});
  CHECK(amounts(db.ledger(player_account("ann"), 10, std::nullopt)) == std::vector<std::int64_t>{-7, 15, -40, 1000});
  CHECK(amounts(db.ledger(pool_account("t1", "pot"), 10, std::nullopt)) == std::vector<std::int64_t>{7, -15, 40});
  CHECK(seqs(db.events("t1")) == std::vector<std::int64_t>{1, 2, 3});
  const auto starts = db.deal_starts("t1");
  REQUIRE(starts.size() == 1);
  CHECK(starts[0].seq == 1);
  CHECK(db.deal_state("t1", 1) == std::optional<std::string>(R"({"state":"before deal 1"})"));
  // The keys are still unique: a repeated seq or deal is refused, nothing written.
  TableWrite again = step("t1", 3);
  CHECK(commit(db, {again}) == std::vector<bool>{false});
  TableWrite dealt_again = step("t1", 4);
  dealt_again.deal_start = DealStart{1, 4, R"({"deal":1})", "{}"};
  CHECK(commit(db, {dealt_again}) == std::vector<bool>{false});
  CHECK(seqs(db.events("t1")) == std::vector<std::int64_t>{1, 2, 3});
  CHECK(db.total_of_all_accounts() == 0);
}

TEST_CASE("migration 14 keeps a version 13 SQLite file's legs listed, events, deal starts and their unique keys") {
  TempFolder temp;
  {
    Database old(temp.file(), 13);
    fill_version_13(old);
  }
  Database db(temp.file());
  check_version_14(db, temp.file());
  CHECK(raw_count(temp.file(), "SELECT count(*) FROM sqlite_master WHERE name IN ('table_events', 'deal_starts') "
                               "AND sql LIKE '%WITHOUT ROWID%'") == 0);
}

TEST_CASE("migration 14 keeps a version 13 PostgreSQL database's legs listed, events and deal starts") {
  const std::string url = fresh_postgres_database();
  if (url.empty()) {
    MESSAGE("PostgreSQL is not installed: skipped");
    return;
  }
  {
    PostgresStore old(url, 13);
    fill_version_13(old);
  }
  PostgresStore db(url);
  check_version_14(db, url);
}

TEST_CASE("migration 8 keeps a version 7 PostgreSQL database's ledger and its guarantees") {
  const std::string url = fresh_postgres_database();
  if (url.empty()) {
    MESSAGE("PostgreSQL is not installed: skipped");
    return;
  }
  std::vector<std::int64_t> before;
  {
    PostgresStore old(url, 7);
    before = fill_old_ledger(old, url);
  }
  PostgresStore db(url);
  check_migrated_ledger(db, url, before);
}

TEST_CASE("migration 13 keeps a version 12 PostgreSQL database's ledger, and refuses one it cannot carry over") {
  const std::string url = fresh_postgres_database();
  if (url.empty()) {
    MESSAGE("PostgreSQL is not installed: skipped");
    return;
  }
  std::vector<std::int64_t> before;
  {
    PostgresStore old(url, 12);
    before = fill_old_ledger(old, url);
  }
  // A transfer with a third entry, past migration 8's checks, stops the migration.
  raw_exec(url, "ALTER TABLE ledger_entries DISABLE TRIGGER USER; DROP INDEX ledger_entries_by_transfer; "
                "INSERT INTO ledger_entries(transfer_id, account_id, amount, balance_after) "
                "SELECT max(transfer_id), min(account_id), 1, 0 FROM ledger_entries");
  CHECK_THROWS_WITH_AS(PostgresStore{url}, doctest::Contains("cannot carry over 1 transfers"), StorageError);
  CHECK(raw_count(url, "SELECT max(version) FROM schema_version") == 12);
  raw_exec(url, "DELETE FROM ledger_entries WHERE entry = (SELECT max(entry) FROM ledger_entries)");
  PostgresStore db(url);
  check_migrated_ledger(db, url, before);
}

TEST_CASE("a migration that would leave a row pointing at a missing one is refused, and the file keeps its version") {
  TempFolder temp;
  { Database old(temp.file(), 7); }
  {
    // Only a connection with foreign keys off (not Parlour's) can write this.
    SQLite::Database raw(temp.file(), SQLite::OPEN_READWRITE);
    raw.exec("INSERT INTO table_seats(table_id, seat, player) VALUES ('ghost', 0, 'ann')");
  }
  CHECK_THROWS_WITH_AS(Database(temp.file()), doctest::Contains("pointing at a missing row of tables"), StorageError);
  CHECK(raw_count(temp.file(), "SELECT max(version) FROM schema_version") == 7);
  CHECK(raw_count(temp.file(), "SELECT count(*) FROM sqlite_master WHERE name = 'balanced_transfers'") == 1);
}

TEST_CASE("a table's nets add up its movements by account, leaving out grants") {
  OPEN_EACH_BACKEND(db);
  db.create_player("ann", "h", 1000);
  db.create_player("bob", "h2", 1000);
  db.create_player("cy", "h3", 1000);
  db.create_table(make_table("t1"));
  db.create_table(make_table("t2"));
  Posting bot_grant{bank_account(), player_account("bot-t1-1"), 1000, "starting chips (bot)", "t1", "red_dog",
                    std::nullopt, std::nullopt};
  REQUIRE(commit(db, {step("t1", 1,
                          {bot_grant, transfer(player_account("ann"), pool_account("t1", "pot"), 10),
                           transfer(player_account("bob"), pool_account("t1", "pot"), 10),
                           transfer(pool_account("t1", "pot"), player_account("bob"), 17),
                           transfer(player_account("bot-t1-1"), player_account("ann"), 4),
                           transfer(player_account("cy"), player_account("ann"), 6),
                           transfer(player_account("ann"), player_account("cy"), 6)})}) ==
          std::vector<bool>{true});
  Posting at_t2 = transfer(player_account("cy"), player_account("bob"), 8);
  at_t2.table = "t2";
  REQUIRE(commit(db, {step("t2", 1, {at_t2})}) == std::vector<bool>{true});

  const auto nets = db.table_nets("t1");
  std::vector<std::pair<std::string, std::int64_t>> got;
  for (const auto& net : nets) got.emplace_back(net.account, net.amount);
  // By account name: ann -10 +4 +6 -6 = -6; bob -10 +17 = +7; the bot -4 (its
  // grant left out); cy -6 +6, square; the pot 10 + 10 - 17 = 3. The movement
  // at t2 is not t1's.
  CHECK(got == std::vector<std::pair<std::string, std::int64_t>>{
                   {"player:ann", -6}, {"player:bob", 7}, {"player:bot-t1-1", -4}, {"player:cy", 0}, {"pool:t1:pot", 3}});
  const auto t2 = db.table_nets("t2");
  REQUIRE(t2.size() == 2);
  CHECK(t2[0].account == "player:bob");
  CHECK(t2[0].amount == 8);
  CHECK(t2[1].account == "player:cy");
  CHECK(t2[1].amount == -8);
  CHECK(db.table_nets("nowhere").empty());
}

TEST_CASE("a host's tables since a time: created since, or moving chips since, newest kept, oldest first") {
  OPEN_EACH_BACKEND(db);
  db.create_player("ann", "h", 1000);
  for (const char* id : {"t1", "t2", "t3"}) db.create_table(make_table(id));
  TableRecord bobs = make_table("t4");
  bobs.host = "bob";
  db.create_table(bobs);

  const auto ids = [](const std::vector<TableRecord>& tables) {
    std::vector<std::string> out;
    for (const auto& t : tables) out.push_back(t.id);
    return out;
  };
  const auto long_ago = utc_iso8601(std::chrono::system_clock::now() - std::chrono::hours(24));
  const auto later = utc_iso8601(std::chrono::system_clock::now() + std::chrono::hours(1));
  CHECK(ids(db.tables_hosted_since("ANN", long_ago, 50)) == std::vector<std::string>{"t1", "t2", "t3"});
  CHECK(ids(db.tables_hosted_since("ann", long_ago, 2)) == std::vector<std::string>{"t2", "t3"});
  CHECK(ids(db.tables_hosted_since("bob", long_ago, 50)) == std::vector<std::string>{"t4"});
  CHECK(db.tables_hosted_since("nobody", long_ago, 50).empty());
  // Nothing was created after `later`; a movement stamped now is not after it either.
  CHECK(db.tables_hosted_since("ann", later, 50).empty());
  // A movement at t2 stamped after the cutoff makes t2 "tonight's" though it was made before.
  raw_exec(where, raw_transfer(1, "bank", "player:ann", "9999-01-01T00:00:00.000Z", "t2"));
  CHECK(ids(db.tables_hosted_since("ann", later, 50)) == std::vector<std::string>{"t2"});
}

TEST_CASE("two connections spending one player's chips at once on PostgreSQL: one commits, the other is refused") {
  const std::string url = fresh_postgres_database();
  if (url.empty()) {
    MESSAGE("PostgreSQL is not installed: skipped");
    return;
  }
  PostgresStore setup(url);
  setup.create_player("ann", "h", 100);
  setup.create_table(make_table("t1"));
  setup.create_table(make_table("t2"));
  PostgresStore node_a(url);
  PostgresStore node_b(url);

  // Both spend 80 of ann's 100 at once, at two tables, as two nodes would.
  std::atomic<int> ready{0};
  auto spend = [&ready](Store& db, const std::string& table, std::vector<std::string>& errors) {
    ++ready;
    while (ready.load() < 2) std::this_thread::yield();
    Posting bet = transfer(player_account("ann"), pool_account(table, "pot"), 80);
    bet.table = table;
    return commit(db, {step(table, 1, {bet})}, &errors);
  };
  std::vector<std::string> errors_a, errors_b;
  std::vector<bool> committed_a, committed_b;
  std::thread a([&] { committed_a = spend(node_a, "t1", errors_a); });
  std::thread b([&] { committed_b = spend(node_b, "t2", errors_b); });
  a.join();
  b.join();

  REQUIRE(committed_a.size() == 1);
  REQUIRE(committed_b.size() == 1);
  CHECK(committed_a[0] != committed_b[0]);
  const std::string& refusal = committed_a[0] ? errors_b[0] : errors_a[0];
  CHECK(refusal.find("insufficient chips") != std::string::npos);
  CHECK(refusal.find("player:ann has 20") != std::string::npos);
  CHECK(setup.balance(player_account("ann")) == 20);
  CHECK(setup.events("t1").size() + setup.events("t2").size() == 1);
  CHECK(setup.total_of_all_accounts() == 0);
}

TEST_CASE("two connections registering one name at once on PostgreSQL: one gets it, the other NameTaken") {
  const std::string url = fresh_postgres_database();
  if (url.empty()) {
    MESSAGE("PostgreSQL is not installed: skipped");
    return;
  }
  { PostgresStore setup(url); }
  PostgresStore node_a(url);
  PostgresStore node_b(url);
  std::atomic<int> ready{0};
  std::atomic<int> taken{0};
  auto register_ann = [&](Store& db, const std::string& spelling) {
    ++ready;
    while (ready.load() < 2) std::this_thread::yield();
    try {
      db.create_player(spelling, "h", 1000);
    } catch (const NameTaken&) {
      ++taken;
    }
  };
  std::thread a([&] { register_ann(node_a, "Ann"); });
  std::thread b([&] { register_ann(node_b, "ANN"); });
  a.join();
  b.join();
  CHECK(taken == 1);
  CHECK(node_a.all_players().size() == 1);
  CHECK(node_a.balance(player_account("ann")) == 1000);
  CHECK(node_a.total_of_all_accounts() == 0);
}

TEST_CASE("accounts: a sign-up link's uses and expiry, a registration with a recovery hash, and the secrets swapped once") {
  OPEN_EACH_BACKEND(db);
  db.create_signup_link({"link-hash", "host", 2, "2999-01-01T00:00:00.000Z"});
  db.create_signup_link({"old-link", "host", 5, "2000-01-01T00:00:00.000Z"});
  CHECK_THROWS_AS(db.create_signup_link({"no-uses", "host", 0, "2999-01-01T00:00:00.000Z"}), StorageError);

  const Player ann = db.register_player({"ann", "token-1", 1000, "salt:recovery-1", "link-hash", std::nullopt});
  CHECK(db.recovery_hash(ann.id) == "salt:recovery-1");
  CHECK(db.balance(player_account("ann")) == 1000);
  // A taken name spends no use: the link still has one.
  CHECK_THROWS_AS(db.register_player({"ANN", "token-x", 1000, "", "link-hash", std::nullopt}), NameTaken);
  db.register_player({"bob", "token-2", 1000, "", "link-hash", std::nullopt});
  CHECK(db.recovery_hash(db.find_player("bob")->id).empty());
  // A name without a code gets one once; one with a code keeps it.
  CHECK(db.add_recovery_hash(db.find_player("bob")->id, "salt:bob-1"));
  CHECK_FALSE(db.add_recovery_hash(db.find_player("bob")->id, "salt:bob-2"));
  CHECK(db.recovery_hash(db.find_player("bob")->id) == "salt:bob-1");
  CHECK_FALSE(db.add_recovery_hash(ann.id, "salt:other"));
  CHECK_FALSE(db.add_recovery_hash(12345, "salt:nobody"));

  // Used up, expired, unknown: refused, nothing written.
  const auto refused = [&](const std::string& name, const std::string& link) {
    CHECK_THROWS_AS(db.register_player({name, "token-" + name, 1000, "", link, std::nullopt}), SignupRefused);
    CHECK_FALSE(db.find_player(name));
    CHECK(db.balance(player_account(name)) == 0);
  };
  refused("carl", "link-hash");
  refused("dora", "old-link");
  refused("emil", "no-such-link");
  CHECK(db.total_of_all_accounts() == 0);
  CHECK(db.balance(bank_account()) == -2000);

  // Recovery: swapped only from the hash it was read with, token and hash together.
  CHECK(db.replace_secrets(ann.id, "salt:recovery-1", "token-new", "salt:recovery-2"));
  CHECK(db.find_player("ann")->token_hash == "token-new");
  CHECK(db.recovery_hash(ann.id) == "salt:recovery-2");
  CHECK_FALSE(db.replace_secrets(ann.id, "salt:recovery-1", "token-other", "salt:recovery-3"));
  CHECK(db.find_player("ann")->token_hash == "token-new");
  CHECK(db.recovery_hash(ann.id) == "salt:recovery-2");
  CHECK(db.find_player_by_token_hash("token-new")->name == "ann");
  CHECK_FALSE(db.find_player_by_token_hash("token-1"));
}

TEST_CASE("devices: added with their own token, listed, removed one at a time, and all removed by a recovery; passphrases") {
  OPEN_EACH_BACKEND(db);
  const Player ann = db.register_player({"ann", "token-1", 1000, "salt:r1", std::nullopt, std::nullopt});
  const Player bob = db.create_player("bob", "token-b", 1000);
  db.add_device(ann.id, {"d1", "ann", "token-2", "phone", "2026-01-01T00:00:00.000Z"});
  db.add_device(ann.id, {"d2", "ann", "token-3", "tablet", "2026-01-02T00:00:00.000Z"});
  db.add_device(bob.id, {"d3", "bob", "token-b2", "laptop", "2026-01-03T00:00:00.000Z"});
  // A token is one device's only.
  CHECK_THROWS_AS(db.add_device(bob.id, {"d4", "bob", "token-2", "again", ""}), StorageError);
  CHECK_THROWS_AS(db.add_device(12345, {"d5", "nobody", "token-x", "x", ""}), StorageError);

  auto devices = db.all_devices();
  REQUIRE(devices.size() == 3);
  CHECK(devices[0].id == "d1");
  CHECK(devices[0].player == "ann");
  CHECK(devices[0].token_hash == "token-2");
  CHECK(devices[0].label == "phone");
  CHECK(devices[0].created_at == "2026-01-01T00:00:00.000Z");

  // Only the player's own device is removed.
  CHECK_FALSE(db.remove_device(bob.id, "d1"));
  CHECK(db.remove_device(ann.id, "d1"));
  CHECK_FALSE(db.remove_device(ann.id, "d1"));
  CHECK(db.all_devices().size() == 2);

  // The first device's token replaced.
  db.replace_token(bob.id, "token-b-new");
  CHECK(db.find_player("bob")->token_hash == "token-b-new");
  CHECK_THROWS_AS(db.replace_token(12345, "x"), StorageError);

  // A passphrase hash: none, set, changed.
  CHECK(db.passphrase_hash(ann.id).empty());
  db.set_passphrase_hash(ann.id, "$argon2id$one");
  db.set_passphrase_hash(ann.id, "$argon2id$two");
  CHECK(db.passphrase_hash(ann.id) == "$argon2id$two");
  CHECK(db.passphrase_hash(bob.id).empty());

  // A recovery removes the name's other devices with its old token.
  REQUIRE(db.replace_secrets(ann.id, "salt:r1", "token-new", "salt:r2"));
  devices = db.all_devices();
  REQUIRE(devices.size() == 1);
  CHECK(devices[0].player == "bob");
}

// --- Identity changes (migration 12): the feed, bans, device codes, claim links, renames, presence.

namespace {
std::vector<std::string> kinds_of(const std::vector<IdentityChange>& changes) {
  std::vector<std::string> kinds;
  for (const auto& change : changes) kinds.push_back(change.kind + " " + change.name);
  return kinds;
}
}  // namespace

TEST_CASE("identity feed: every identity write adds its row, in order, read by seq from any point, pruned by age") {
  OPEN_EACH_BACKEND(db);
  CHECK(db.last_identity_change() == 0);
  CHECK(db.identity_changes_after(0, 100).empty());
  db.set_change_origin("node a");
  const Player ann = db.register_player({"ann", "token-1", 1000, "salt:r1", std::nullopt, std::nullopt});
  const Player bob = db.create_player("bob", "token-b", 1000);
  db.add_device(ann.id, {"d1", "ann", "token-2", "phone", ""});
  CHECK(db.remove_device(ann.id, "d1"));
  CHECK_FALSE(db.remove_device(ann.id, "d1"));  // nothing removed, no row
  db.replace_token(bob.id, "token-b2");
  REQUIRE(db.replace_secrets(ann.id, "salt:r1", "token-3", "salt:r2"));
  db.set_change_origin("admin");
  CHECK(db.set_banned(bob.id, true));
  CHECK_FALSE(db.set_banned(bob.id, true));  // already: no row
  CHECK(db.banned_names() == std::vector<std::string>{"bob"});
  CHECK(db.set_banned(bob.id, false));
  CHECK(db.banned_names().empty());

  const auto changes = db.identity_changes_after(0, 100);
  CHECK(kinds_of(changes) == std::vector<std::string>{"device_added ann", "device_revoked ann", "token_replaced bob",
                                                       "token_replaced ann", "banned bob", "unbanned bob"});
  REQUIRE(changes.size() == 6);
  for (std::size_t i = 1; i < changes.size(); ++i) CHECK(changes[i].seq > changes[i - 1].seq);
  CHECK(changes[0].origin == "node a");
  CHECK(changes[0].token_hash == "token-2");
  CHECK(changes[0].device_id == "d1");
  CHECK(changes[0].detail == "phone");
  CHECK(changes[1].token_hash == "token-2");  // the revoked device's token
  CHECK(changes[2].token_hash == "token-b2");
  CHECK(changes[2].detail.empty());
  CHECK(changes[3].detail == "devices_cleared");
  CHECK(changes[4].origin == "admin");
  CHECK(db.last_identity_change() == changes.back().seq);
  // Read from any point, a page at a time.
  CHECK(kinds_of(db.identity_changes_after(changes[3].seq, 1)) == std::vector<std::string>{"banned bob"});

  // Pruned by age; the seq goes on growing after.
  CHECK(db.prune_identity_changes("2000-01-01T00:00:00.000Z") == 0);
  CHECK(db.prune_identity_changes("2999-01-01T00:00:00.000Z") == 6);
  CHECK(db.identity_changes_after(0, 100).empty());
  CHECK(db.set_banned(ann.id, true));
  const auto after = db.identity_changes_after(0, 100);
  REQUIRE(after.size() == 1);
  CHECK(after[0].seq > changes.back().seq);
}

TEST_CASE("device codes live in the store: used once, on any connection, not after expiry, for the name that made it") {
  OPEN_EACH_BACKEND(db);
  const Player ann = db.register_player({"ann", "token-1", 1000, "", std::nullopt, std::nullopt});
  db.create_device_code(ann.id, "code-hash", "2999-01-01T00:00:00.000Z");
  db.create_device_code(ann.id, "old-code", "2000-01-01T00:00:00.000Z");
  const auto other = open_store(where);  // another node's connection
  const auto now = "2026-11-27T12:00:00.000Z";
  const auto used = other->use_device_code("code-hash", now, Device{"d1", "", "token-2", "phone", ""});
  REQUIRE(used);
  CHECK(used->name == "ann");
  REQUIRE(db.all_devices().size() == 1);
  CHECK(db.all_devices()[0].player == "ann");
  CHECK(db.find_player_by_token_hash("token-2") == std::nullopt);  // a device's token is not the first device's
  // Used once; expired or unknown: nothing added, the expired one used up as well.
  CHECK_FALSE(db.use_device_code("code-hash", now, Device{"d2", "", "token-3", "again", ""}));
  CHECK_FALSE(db.use_device_code("old-code", now, Device{"d3", "", "token-4", "late", ""}));
  CHECK_FALSE(db.use_device_code("nonsense", now, Device{"d4", "", "token-5", "guess", ""}));
  CHECK(db.all_devices().size() == 1);
  CHECK(kinds_of(db.identity_changes_after(0, 100)) == std::vector<std::string>{"device_added ann"});
  // Codes never used go with the feed's pruning, once expired; the unexpired stay.
  db.create_device_code(ann.id, "never-used", "2026-11-01T00:00:00.000Z");
  db.create_device_code(ann.id, "still-good", "2999-01-01T00:00:00.000Z");
  db.create_claim_link(ann.id, "claim", "2026-11-01T00:00:00.000Z");
  CHECK(raw_count(where, "SELECT count(*) FROM device_codes") == 2);
  db.prune_identity_changes("2026-11-26T00:00:00.000Z");
  CHECK(raw_count(where, "SELECT count(*) FROM device_codes") == 1);
  CHECK(raw_count(where, "SELECT count(*) FROM claim_links") == 0);
  CHECK(db.identity_changes_after(0, 100).size() == 1);  // a day old only when older than `before`
}

TEST_CASE("claim links: the latest one, unexpired, used once, replacing the token, the recovery code and every device") {
  OPEN_EACH_BACKEND(db);
  const Player ann = db.register_player({"ann", "token-1", 1000, "salt:r1", std::nullopt, std::nullopt});
  db.add_device(ann.id, {"d1", "ann", "token-2", "phone", ""});
  const auto now = "2026-11-27T12:00:00.000Z";
  CHECK(db.claim_link_hash(ann.id, now).empty());
  CHECK_THROWS_AS(db.create_claim_link(12345, "x", "2999-01-01T00:00:00.000Z"), StorageError);
  db.create_claim_link(ann.id, "first", "2999-01-01T00:00:00.000Z");
  db.create_claim_link(ann.id, "second", "2999-01-01T00:00:00.000Z");
  CHECK(db.claim_link_hash(ann.id, now) == "second");
  CHECK_FALSE(db.use_claim_link(ann.id, "first", "token-x", "salt:x"));  // replaced by the second
  CHECK(db.find_player("ann")->token_hash == "token-1");
  CHECK(db.use_claim_link(ann.id, "second", "token-new", "salt:new"));
  CHECK(db.find_player("ann")->token_hash == "token-new");
  CHECK(db.recovery_hash(ann.id) == "salt:new");
  CHECK(db.all_devices().empty());
  CHECK_FALSE(db.use_claim_link(ann.id, "second", "token-again", "salt:again"));
  CHECK(db.claim_link_hash(ann.id, now).empty());
  db.create_claim_link(ann.id, "expired", "2000-01-01T00:00:00.000Z");
  CHECK(db.claim_link_hash(ann.id, now).empty());
  const auto changes = db.identity_changes_after(0, 100);
  REQUIRE(changes.size() == 2);
  CHECK(changes[1].kind == IdentityChange::token_replaced);
  CHECK(changes[1].token_hash == "token-new");
  CHECK(changes[1].detail == "devices_cleared");
}

TEST_CASE("a rename keeps the player, his chips and his ledger; a taken name (any case) is refused, nothing changed") {
  OPEN_EACH_BACKEND(db);
  const Player ann = db.register_player({"ann", "token-1", 1000, "", std::nullopt, std::nullopt});
  db.create_player("bob", "token-b", 1000);
  CHECK_THROWS_AS(db.rename_player(ann.id, "BOB"), NameTaken);
  CHECK(db.find_player("ann")->id == ann.id);
  db.rename_player(ann.id, "Anna");
  CHECK_FALSE(db.find_player("ann"));
  CHECK(db.find_player("anna")->id == ann.id);
  CHECK(db.find_player("anna")->name == "Anna");
  CHECK(db.balance(player_account("Anna")) == 1000);
  CHECK(db.balance(player_account("ann")) == 0);
  CHECK(db.ledger(player_account("anna"), 10, std::nullopt).size() == 1);  // the starting chips
  db.rename_player(ann.id, "ANNA");  // a change of case keeps the account
  CHECK(db.balance(player_account("anna")) == 1000);
  CHECK(db.total_of_all_accounts() == 0);
  const auto changes = db.identity_changes_after(0, 100);
  REQUIRE(changes.size() == 2);
  CHECK(changes[0].kind == IdentityChange::renamed);
  CHECK(changes[0].name == "Anna");
  CHECK(changes[0].detail == "ann");
}

TEST_CASE("an operator's transfer goes through the ledger with its feed row; one past a player's chips changes nothing") {
  OPEN_EACH_BACKEND(db);
  const Player ann = db.register_player({"ann", "token-1", 1000, "", std::nullopt, std::nullopt});
  const IdentityChange note{.kind = IdentityChange::balance_changed, .player_id = ann.id, .name = "ann"};
  db.transfer({bank_account(), player_account("ann"), 250, "admin: prize", "", "", std::nullopt, std::nullopt}, note);
  CHECK(db.balance(player_account("ann")) == 1250);
  const auto entries = db.ledger(player_account("ann"), 10, std::nullopt);
  REQUIRE(entries.size() == 2);
  CHECK(entries[0].amount == 250);
  CHECK(entries[0].memo == "admin: prize");
  CHECK(db.ledger(bank_account(), 10, std::nullopt)[0].amount == -250);
  CHECK_THROWS_AS(
      db.transfer({player_account("ann"), bank_account(), 5000, "admin: too much", "", "", std::nullopt, std::nullopt},
                  note),
      StorageError);
  CHECK(db.balance(player_account("ann")) == 1250);
  CHECK(db.ledger(player_account("ann"), 10, std::nullopt).size() == 2);
  CHECK(db.identity_changes_after(0, 100).size() == 1);
  CHECK(db.total_of_all_accounts() == 0);
}

TEST_CASE("an invite lets a name in only while its table is unfinished, checked in the name's transaction") {
  OPEN_EACH_BACKEND(db);
  TableRecord table;
  table.id = "t1";
  table.game = "red_dog";
  table.options_json = "{}";
  table.host = "host";
  table.status = "playing";
  table.invite = "inv1";
  db.create_table(table);
  Registration with_invite{"ann", "token-1", 1000, "", std::nullopt, "inv1"};
  db.register_player(with_invite);
  CHECK(db.find_player("ann"));
  CHECK_THROWS_AS(db.register_player({"bob", "token-b", 1000, "", std::nullopt, "nosuch"}), InviteRefused);
  TableWrite finish;
  finish.table = "t1";
  finish.status = "finished";
  REQUIRE(db.commit({finish})[0].committed());
  CHECK_THROWS_AS(db.register_player({"bob", "token-b", 1000, "", std::nullopt, "inv1"}), InviteRefused);
  CHECK_FALSE(db.find_player("bob"));
  CHECK(db.balance(player_account("bob")) == 0);
}

TEST_CASE("presence: one row a server, the fresh ones read; last seen kept by name") {
  OPEN_EACH_BACKEND(db);
  db.create_player("ann", "token-1", 1000);
  db.create_player("bob", "token-b", 1000);
  db.publish_presence({"n1", {"ann", "bob"}, "2026-11-27T12:00:00.000Z"});
  db.publish_presence({"n2", {}, "2026-11-27T12:00:00.000Z"});
  db.publish_presence({"n1", {"ann"}, "2026-11-27T12:00:03.000Z"});
  const auto fresh = db.presence_since("2026-11-27T12:00:01.000Z");
  REQUIRE(fresh.size() == 1);
  CHECK(fresh[0].node == "n1");
  CHECK(fresh[0].names == std::vector<std::string>{"ann"});
  CHECK(db.presence_since("2026-11-27T11:00:00.000Z").size() == 2);
  db.mark_seen({"ANN", "nobody"});
  const auto seen = db.last_seen();
  REQUIRE(seen.size() == 1);
  CHECK(seen[0].first == "ann");
}
