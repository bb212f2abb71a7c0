// The SQL of `parlour check` (storage/check.h). The store's own statements live
// in each backend's file; these are read-only questions asked of a whole
// database at once, in SQL that SQLite and PostgreSQL both speak, so they are
// written once here and run through a small snapshot of either.
#include "storage/check.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <pqxx/pqxx>

#include <filesystem>
#include <functional>
#include <memory>
#include <regex>

#include "storage/schema.h"
#include "storage/store.h"

namespace parlour::storage {

namespace {

using Row = std::vector<std::string>;  // NULL reads as ""
using EachRow = std::function<void(const Row&)>;

// One read-only transaction: every query sees the database as it was when the
// first one ran, even while a server goes on writing.
class Snapshot {
 public:
  virtual ~Snapshot() = default;
  virtual void each_row(const char* sql, const EachRow& each) = 0;

  std::int64_t integer(const char* sql) {
    std::int64_t value = 0;
    each_row(sql, [&](const Row& row) { value = row.at(0).empty() ? 0 : std::stoll(row.at(0)); });
    return value;
  }
};

class SqliteSnapshot final : public Snapshot {
 public:
  explicit SqliteSnapshot(const std::string& path) : db_(open(path)) { db_.exec("BEGIN"); }
  ~SqliteSnapshot() override { db_.tryExec("ROLLBACK"); }

  void each_row(const char* sql, const EachRow& each) override {
    SQLite::Statement query(db_, sql);
    Row row(static_cast<std::size_t>(query.getColumnCount()));
    while (query.executeStep()) {
      for (int i = 0; i < query.getColumnCount(); ++i) row[static_cast<std::size_t>(i)] = query.getColumn(i).getString();
      each(row);
    }
  }

 private:
  static SQLite::Database open(const std::string& path) {
    // Opening read-only never creates a file, but an absent one would read as "cannot open".
    if (!std::filesystem::is_regular_file(path)) throw StorageError("there is no SQLite file at " + path);
    return SQLite::Database(path, SQLite::OPEN_READONLY, 5000);
  }
  SQLite::Database db_;
};

class PostgresSnapshot final : public Snapshot {
 public:
  explicit PostgresSnapshot(const std::string& url) : connection_(url), tx_(connection_) {}

  void each_row(const char* sql, const EachRow& each) override {
    for (const auto& result_row : tx_.exec(sql)) {
      Row row;
      for (const auto& field : result_row) row.push_back(field.is_null() ? std::string() : field.c_str());
      each(row);
    }
  }

 private:
  pqxx::connection connection_;
  pqxx::transaction<pqxx::repeatable_read, pqxx::read_only> tx_;
};

// A URI with its password hidden, for messages.
std::string without_password(const std::string& where) {
  return std::regex_replace(where, std::regex("^(postgres(ql)?://[^:@/]*):[^@/]*@"), "$1:***@");
}

// --- The questions ---------------------------------------------------------

// A transfer holds both legs (schema 13): the database's CHECKs keep its shape,
// and a foreign key each leg's account; asked again here of a file edited by hand.
constexpr const char* kMisshapenTransfers = R"sql(
SELECT id, amount, from_account, to_account, coalesce(table_id, ''), memo FROM transfers
WHERE amount <= 0 OR from_account = to_account
ORDER BY id)sql";

constexpr const char* kLegsWithoutAccount = R"sql(
SELECT l.transfer_id, l.account_id, CASE WHEN l.amount < 0 THEN 'payer' ELSE 'payee' END FROM ledger_entries l
WHERE NOT EXISTS (SELECT 1 FROM accounts a WHERE a.id = l.account_id)
ORDER BY l.entry)sql";

// A leg's pool flag (schema 14) against its account's name: a player's leg
// flagged as a pool's would be missing from his ledger. NULL (written before
// schema 14) is listed either way.
constexpr const char* kMisflaggedLegs = R"sql(
SELECT t.id, a.name, 'payer', t.from_is_pool FROM transfers t JOIN accounts a ON a.id = t.from_account
WHERE t.from_is_pool IS NOT NULL AND t.from_is_pool <> CASE WHEN substr(a.name, 1, 5) = 'pool:' THEN 1 ELSE 0 END
UNION ALL
SELECT t.id, a.name, 'payee', t.to_is_pool FROM transfers t JOIN accounts a ON a.id = t.to_account
WHERE t.to_is_pool IS NOT NULL AND t.to_is_pool <> CASE WHEN substr(a.name, 1, 5) = 'pool:' THEN 1 ELSE 0 END
ORDER BY 1, 3)sql";

constexpr const char* kBalancesOff = R"sql(
SELECT a.name, a.balance, coalesce(legs.total, 0)
FROM accounts a
LEFT JOIN (SELECT account_id, sum(amount) AS total FROM ledger_entries GROUP BY account_id) legs
  ON legs.account_id = a.id
WHERE a.balance <> coalesce(legs.total, 0)
ORDER BY a.name)sql";

constexpr const char* kChipsHeld = "SELECT coalesce(sum(balance), 0) FROM accounts WHERE name <> 'bank'";
constexpr const char* kChipsGranted = R"sql(
SELECT -coalesce(sum(e.amount), 0) FROM ledger_entries e JOIN accounts a ON a.id = e.account_id
WHERE a.name = 'bank')sql";

// Each event whose seq is not the one before it plus one (the first: not 1).
constexpr const char* kEventGaps = R"sql(
SELECT table_id, previous, seq FROM (
  SELECT table_id, seq, lag(seq, 1, 0) OVER (PARTITION BY table_id ORDER BY seq) AS previous FROM table_events
) numbered
WHERE seq <> previous + 1
ORDER BY table_id, seq)sql";

constexpr const char* kSchemaVersion = "SELECT coalesce(max(version), 0) FROM schema_version";

std::string missing_seqs(std::int64_t previous, std::int64_t next) {
  if (next <= previous) return "seq " + std::to_string(next) + " repeated";
  if (next == previous + 2) return "seq " + std::to_string(previous + 1) + " missing";
  return "seqs " + std::to_string(previous + 1) + " to " + std::to_string(next - 1) + " missing";
}

void check_transfers(Snapshot& db, LedgerCheck& check) {
  db.each_row(kMisshapenTransfers, [&](const Row& row) {
    const std::string at = row[4].empty() ? "" : " at table " + row[4];
    check.problems.push_back("transfer " + row[0] + " (" + row[5] + at +
                             "): expected a positive amount from one account to another, found " + row[1] +
                             " from account " + row[2] + " to account " + row[3]);
  });
  db.each_row(kLegsWithoutAccount, [&](const Row& row) {
    check.problems.push_back("transfer " + row[0] + " names account " + row[1] + " as its " + row[2] +
                             ", which does not exist");
  });
  db.each_row(kMisflaggedLegs, [&](const Row& row) {
    const bool flagged_pool = row[3] == "1";
    check.problems.push_back("transfer " + row[0] + ": its " + row[2] + ", account " + row[1] + ", is marked " +
                             (flagged_pool ? "a pool's (left out of its ledger's index)" : "not a pool's") +
                             ", expected " + (flagged_pool ? "not a pool's" : "a pool's"));
  });
}

void check_balances(Snapshot& db, LedgerCheck& check) {
  db.each_row(kBalancesOff, [&](const Row& row) {
    check.problems.push_back("account " + row[0] + ": its balance is " + row[1] + ", but its ledger entries sum to " +
                             row[2]);
  });
  check.chips_held = db.integer(kChipsHeld);
  check.chips_granted = db.integer(kChipsGranted);
  if (check.chips_held != check.chips_granted)
    check.problems.push_back("chips: the players and pools hold " + std::to_string(check.chips_held) +
                             ", but the bank has granted " + std::to_string(check.chips_granted));
}

void check_event_numbers(Snapshot& db, LedgerCheck& check) {
  db.each_row(kEventGaps, [&](const Row& row) {
    const std::int64_t previous = std::stoll(row[1]);
    const std::int64_t seq = std::stoll(row[2]);
    check.problems.push_back("table " + row[0] + ": its events go from seq " + std::to_string(previous) + " to seq " +
                             std::to_string(seq) + " (" + missing_seqs(previous, seq) + ")");
  });
}

void count(Snapshot& db, LedgerCheck& check) {
  check.transfers = db.integer("SELECT count(*) FROM transfers");
  check.entries = db.integer("SELECT count(*) FROM ledger_entries");
  check.accounts = db.integer("SELECT count(*) FROM accounts");
  check.tables = db.integer("SELECT count(*) FROM tables");
  check.events = db.integer("SELECT count(*) FROM table_events");
}

void require_latest_schema(Snapshot& db, const std::string& what) {
  std::int64_t version = 0;
  try {
    version = db.integer(kSchemaVersion);
  } catch (const std::exception& e) {
    throw StorageError(what + " is not a Parlour store: it has no schema_version table (" + e.what() + ")");
  }
  if (version != kLatestSchemaVersion)
    throw StorageError(what + " has schema version " + std::to_string(version) + "; this build checks version " +
                       std::to_string(kLatestSchemaVersion) +
                       (version < kLatestSchemaVersion ? " (start this build's server on it once to migrate it)" : ""));
}

}  // namespace

LedgerCheck check_ledger(const std::string& where) {
  const std::string what = is_postgres_url(where) ? "PostgreSQL database " + without_password(where)
                                                  : "SQLite file " + where;
  try {
    std::unique_ptr<Snapshot> db;
    if (is_postgres_url(where)) db = std::make_unique<PostgresSnapshot>(where);
    else db = std::make_unique<SqliteSnapshot>(where);
    require_latest_schema(*db, what);
    LedgerCheck check;
    count(*db, check);
    check_transfers(*db, check);
    check_balances(*db, check);
    check_event_numbers(*db, check);
    return check;
  } catch (const StorageError&) {
    throw;
  } catch (const std::exception& e) {
    throw StorageError("while checking " + what + ": " + without_password(e.what()));
  }
}

}  // namespace parlour::storage
