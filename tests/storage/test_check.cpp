// `parlour check`'s SQL half (storage/check.h) on both backends: a sound store
// passes, and each of a handful of corruptions planted behind the store's
// back (the schema's own guards dropped first, as a hand edit would) is named
// in the findings with what was expected and what was found. The PostgreSQL
// runs use a cluster this file starts, and are skipped with a message where
// PostgreSQL is not installed.
#include "storage/check.h"
#include "storage/postgres_store.h"
#include "storage/sqlite_store.h"
#include "storage/store.h"
#include "tests/support/postgres_cluster.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <doctest/doctest.h>
#include <pqxx/pqxx>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <string>

namespace {

using namespace parlour::storage;
using parlour::support::PostgresCluster;
namespace fs = std::filesystem;

struct TempFolder {
  TempFolder() {
    static std::atomic<int> counter{0};
    path = fs::temp_directory_path() /
           ("parlour-check-test-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()) + "-" +
            std::to_string(counter++));
    fs::create_directories(path);
  }
  ~TempFolder() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
  fs::path path;
};

std::string fresh_postgres_database() {
  static std::unique_ptr<PostgresCluster> cluster = []() -> std::unique_ptr<PostgresCluster> {
    if (const auto missing = PostgresCluster::unavailable_reason(); !missing.empty()) {
      std::cout << "test_check: skipping the PostgreSQL runs: " << missing << "\n";
      return nullptr;
    }
    return std::make_unique<PostgresCluster>(std::vector<std::string>{"fsync=off", "full_page_writes=off"});
  }();
  static int counter = 0;
  return cluster ? cluster->create_database("parlour_check_" + std::to_string(++counter)) : "";
}

// SQL run on a connection of its own, as a hand edit would be.
void raw_exec(const std::string& where, const std::string& sql) {
  if (is_postgres_url(where)) {
    pqxx::connection connection(where);
    pqxx::work tx(connection);
    tx.exec(sql);
    tx.commit();
    return;
  }
  SQLite::Database raw(where, SQLite::OPEN_READWRITE);
  raw.exec(sql);
}

std::int64_t raw_integer(const std::string& where, const std::string& sql) {
  if (is_postgres_url(where)) {
    pqxx::connection connection(where);
    pqxx::nontransaction tx(connection);
    return tx.exec(sql)[0][0].as<std::int64_t>();
  }
  SQLite::Database raw(where, SQLite::OPEN_READONLY);
  return raw.execAndGet(sql).getInt64();
}

// The schema's guards that a hand edit would have to get past.
void drop_ledger_guards(const std::string& where) {
  if (is_postgres_url(where))
    raw_exec(where, "DROP TRIGGER transfers_are_append_only ON transfers");
  else
    raw_exec(where, "DROP TRIGGER transfers_are_not_updated; DROP TRIGGER transfers_are_not_deleted");
}

Posting move(const std::string& from, const std::string& to, std::int64_t amount, const std::string& memo) {
  return Posting{from, to, amount, memo, "t1", "red_dog", std::nullopt, std::nullopt};
}

TableWrite step(std::int64_t seq, std::vector<Posting> postings = {}) {
  TableWrite write;
  write.table = "t1";
  write.event = Event{seq, R"({"seq":)" + std::to_string(seq) + "}"};
  write.postings = std::move(postings);
  return write;
}

// Two players (1,000 chips each), a table with five events and four movements.
void fill(Store& db) {
  db.create_player("ann", "h1", 1000);
  db.create_player("bob", "h2", 1000);
  TableRecord table;
  table.id = "t1";
  table.game = "red_dog";
  table.options_json = "{}";
  table.seed = 7;
  table.host = "ann";
  table.status = "playing";
  table.seats = {Seat{0, "ann", false, 0}, Seat{1, "bob", false, 0}};
  db.create_table(table);
  const std::string pot = pool_account("t1", "pot");
  const auto outcomes = db.commit({step(1, {move(player_account("ann"), pot, 30, "ante ann")}),
                                   step(2, {move(player_account("bob"), pot, 30, "ante bob")}), step(3),
                                   step(4, {move(pot, player_account("ann"), 50, "pot to ann")}),
                                   step(5, {move(player_account("bob"), pot, 5, "raise bob")})});
  for (const auto& outcome : outcomes) REQUIRE_MESSAGE(outcome.committed(), outcome.detail);
}

bool names(const LedgerCheck& check, const std::string& words) {
  for (const auto& problem : check.problems)
    if (problem.find(words) != std::string::npos) return true;
  return false;
}

std::string all_of(const LedgerCheck& check) {
  std::string text;
  for (const auto& problem : check.problems) text += problem + "\n";
  return text;
}

// On a fresh SQLite file, then on a fresh PostgreSQL database: `where`, or ""
// when the backend cannot run here.
std::string each_backend(const TempFolder& temp) {
  std::string where;
  SUBCASE("SQLite") { where = (temp.path / "parlour.db").string(); }
  SUBCASE("PostgreSQL") {
    where = fresh_postgres_database();
    if (where.empty()) MESSAGE("PostgreSQL is not installed: this test ran on SQLite only");
  }
  return where;
}

}  // namespace

TEST_CASE("check: a sound store passes, with its figures") {
  TempFolder temp;
  const std::string where = each_backend(temp);
  if (where.empty()) return;
  fill(*open_store(where));
  const LedgerCheck check = check_ledger(where);
  CHECK_MESSAGE(check.ok(), all_of(check));
  CHECK(check.transfers == 6);  // two grants, four movements
  CHECK(check.entries == 12);
  CHECK(check.accounts == 4);  // bank, ann, bob, the pot
  CHECK(check.tables == 1);
  CHECK(check.events == 5);
  CHECK(check.chips_held == 2000);
  CHECK(check.chips_granted == 2000);
}

// One corruption planted in a fresh store of each backend (no SUBCASE of its
// own: doctest's subcases here would nest under the backends' and never run).
// `plant` gets the store and the id of a transfer by its memo; returns the findings.
void with_corruption(const std::function<void(const std::string& where, LedgerCheck& check,
                                              const std::function<std::string(const std::string&)>& transfer_of)>& plant) {
  TempFolder temp;
  const std::string where = each_backend(temp);
  if (where.empty()) return;
  fill(*open_store(where));
  drop_ledger_guards(where);
  const auto transfer_of = [&](const std::string& memo) {
    return std::to_string(raw_integer(where, "SELECT id FROM transfers WHERE memo = '" + memo + "'"));
  };
  LedgerCheck check;
  plant(where, check, transfer_of);
}

TEST_CASE("check: a transfer's amount changed is named by the accounts on both its sides") {
  with_corruption([](const std::string& where, LedgerCheck& check, const auto& transfer_of) {
    raw_exec(where, "UPDATE transfers SET amount = 37 WHERE id = " + transfer_of("ante bob"));
    check = check_ledger(where);
    CHECK_MESSAGE(names(check, "account player:bob: its balance is 965, but its ledger entries sum to 958"),
                  all_of(check));
    CHECK_MESSAGE(names(check, "account pool:t1:pot: its balance is 15, but its ledger entries sum to 22"),
                  all_of(check));
    CHECK(check.problems.size() == 2);
  });
}

// Schema 14 leaves a pool's legs out of the by-account indexes by a flag on
// each side of a transfer: a player's leg flagged as a pool's would drop out
// of his ledger, a pool's flagged as not one would only cost an index entry.
TEST_CASE("check: a leg whose pool flag disagrees with its account is named, with its side") {
  with_corruption([](const std::string& where, LedgerCheck& check, const auto& transfer_of) {
    const std::string ante = transfer_of("ante ann");  // ann pays the pot
    raw_exec(where, "UPDATE transfers SET from_is_pool = 1, to_is_pool = 0 WHERE id = " + ante);
    check = check_ledger(where);
    CHECK_MESSAGE(names(check, "transfer " + ante + ": its payer, account player:ann, is marked a pool's (left out of "
                               "its ledger's index), expected not a pool's"),
                  all_of(check));
    CHECK_MESSAGE(names(check, "transfer " + ante + ": its payee, account pool:t1:pot, is marked not a pool's, "
                               "expected a pool's"),
                  all_of(check));
    CHECK(check.problems.size() == 2);
  });
}

TEST_CASE("check: a balance changed is named, and the chips held no longer match those granted") {
  with_corruption([](const std::string& where, LedgerCheck& check, const auto&) {
    raw_exec(where, "UPDATE accounts SET balance = balance + 100 WHERE name = 'player:ann'");
    check = check_ledger(where);
    CHECK_MESSAGE(names(check, "account player:ann: its balance is 1120, but its ledger entries sum to 1020"),
                  all_of(check));
    CHECK_MESSAGE(names(check, "chips: the players and pools hold 2100, but the bank has granted 2000"),
                  all_of(check));
    CHECK(check.problems.size() == 2);
  });
}

TEST_CASE("check: an event row deleted is named by its table and the seqs missing") {
  with_corruption([](const std::string& where, LedgerCheck& check, const auto&) {
    raw_exec(where, "DELETE FROM table_events WHERE table_id = 't1' AND seq = 3");
    check = check_ledger(where);
    CHECK_MESSAGE(names(check, "table t1: its events go from seq 2 to seq 4 (seq 3 missing)"), all_of(check));
    CHECK(check.problems.size() == 1);
    raw_exec(where, "DELETE FROM table_events WHERE table_id = 't1' AND seq IN (1, 4)");
    check = check_ledger(where);
    CHECK_MESSAGE(names(check, "table t1: its events go from seq 0 to seq 2 (seq 1 missing)"), all_of(check));
    CHECK_MESSAGE(names(check, "table t1: its events go from seq 2 to seq 5 (seqs 3 to 4 missing)"), all_of(check));
  });
}

TEST_CASE("check: a transfer paid to another account is named by the account that lost it and the one that gained") {
  with_corruption([](const std::string& where, LedgerCheck& check, const auto& transfer_of) {
    raw_exec(where, "UPDATE transfers SET to_account = (SELECT id FROM accounts WHERE name = 'player:ann') WHERE id = " +
                        transfer_of("raise bob"));
    check = check_ledger(where);
    CHECK_MESSAGE(names(check, "account pool:t1:pot: its balance is 15, but its ledger entries sum to 10"),
                  all_of(check));
    CHECK_MESSAGE(names(check, "account player:ann: its balance is 1020, but its ledger entries sum to 1025"),
                  all_of(check));
    // The leg still carries the pot's pool flag, which would leave it out of ann's ledger.
    CHECK_MESSAGE(names(check, "transfer " + transfer_of("raise bob") + ": its payee, account player:ann, is marked a "
                               "pool's (left out of its ledger's index), expected not a pool's"),
                  all_of(check));
    CHECK(check.problems.size() == 3);
  });
}

TEST_CASE("check: a transfer of no positive amount, written past the database's checks, is named") {
  with_corruption([](const std::string& where, LedgerCheck& check, const auto& transfer_of) {
    const auto transfer = transfer_of("raise bob");
    const std::string negative = "UPDATE transfers SET amount = -5 WHERE id = " + transfer;
    if (is_postgres_url(where))
      raw_exec(where, "ALTER TABLE transfers DROP CONSTRAINT transfer_amount_is_positive; " + negative);
    else
      raw_exec(where, "PRAGMA ignore_check_constraints = ON; " + negative);
    check = check_ledger(where);
    CHECK_MESSAGE(names(check, "transfer " + transfer + " (raise bob at table t1): expected a positive amount from one "
                                "account to another, found -5 from account "),
                  all_of(check));
    CHECK_MESSAGE(names(check, "account player:bob: its balance is 965, but its ledger entries sum to 975"),
                  all_of(check));
    CHECK_MESSAGE(names(check, "account pool:t1:pot: its balance is 15, but its ledger entries sum to 5"),
                  all_of(check));
    CHECK(check.problems.size() == 3);
  });
}

TEST_CASE("check: transfers naming an account that is gone are named, with the side it was on") {
  with_corruption([](const std::string& where, LedgerCheck& check, const auto& transfer_of) {
    const std::string gone = "DELETE FROM accounts WHERE name = 'pool:t1:pot'";
    if (is_postgres_url(where))
      raw_exec(where, "SET session_replication_role = replica; " + gone);
    else
      raw_exec(where, "PRAGMA foreign_keys = OFF; " + gone);
    check = check_ledger(where);
    CHECK_MESSAGE(names(check, "transfer " + transfer_of("ante ann") + " names account "), all_of(check));
    CHECK_MESSAGE(names(check, "as its payee, which does not exist"), all_of(check));
    CHECK_MESSAGE(names(check, "transfer " + transfer_of("pot to ann") + " names account "), all_of(check));
    CHECK_MESSAGE(names(check, "as its payer, which does not exist"), all_of(check));
    CHECK_MESSAGE(names(check, "chips: the players and pools hold 1985, but the bank has granted 2000"), all_of(check));
    CHECK(check.problems.size() == 5);  // four transfers touched the pot, and the chips
  });
}

TEST_CASE("check: what is not a store at this schema is refused, and nothing is made") {
  TempFolder temp;
  const std::string absent = (temp.path / "absent.db").string();
  CHECK_THROWS_WITH_AS(check_ledger(absent), doctest::Contains("there is no SQLite file at"), StorageError);
  CHECK_FALSE(fs::exists(absent));
  const std::string empty = (temp.path / "empty.db").string();
  SQLite::Database(empty, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE).exec("CREATE TABLE x (y INTEGER)");
  CHECK_THROWS_WITH_AS(check_ledger(empty), doctest::Contains("is not a Parlour store"), StorageError);
  const std::string old = (temp.path / "old.db").string();
  SqliteStore(old, 9);
  CHECK_THROWS_WITH_AS(check_ledger(old), doctest::Contains("has schema version 9; this build checks version"),
                       StorageError);
}
