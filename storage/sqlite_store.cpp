// SQLite backend of storage/store.h. Every SQLite statement of the project
// lives in this file: the migrations that build the schema, and the statements,
// which are prepared once per connection and reused.
#include "storage/sqlite_store.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <sqlite3.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <limits>
#include <unordered_map>

#include "storage/schema.h"

namespace parlour::storage {

namespace {

// ---------------------------------------------------------------------------
// Schema. Migrations are applied in order, each in its own transaction, and
// never edited once released: a change to the schema is a new migration.


constexpr Migration kMigrations[] = {
    {1, "initial schema", R"sql(
CREATE TABLE players (
  id          INTEGER PRIMARY KEY,
  name        TEXT NOT NULL UNIQUE COLLATE NOCASE,  -- as first registered
  token_hash  TEXT NOT NULL,
  created_at  TEXT NOT NULL
);

-- balance is the sum of the account's ledger entries, kept here so that a
-- posting needs no SUM. The bank is negative by what it has granted; a player
-- can never be, and this constraint is what stops a posting that would do it.
CREATE TABLE accounts (
  id       INTEGER PRIMARY KEY,
  name     TEXT NOT NULL UNIQUE,
  balance  INTEGER NOT NULL DEFAULT 0,
  CONSTRAINT player_balance_not_negative
    CHECK (balance >= 0 OR substr(name, 1, 7) <> 'player:')
);

-- One row per Posting; its two ledger entries point here.
CREATE TABLE transfers (
  id        INTEGER PRIMARY KEY,
  time      TEXT NOT NULL,
  table_id  TEXT,  -- NULL when not at a table; display only, so no foreign key
  game      TEXT,
  memo      TEXT NOT NULL
);

-- Append-only: entries are never updated or deleted, so the rowid `entry`
-- increases over the whole ledger.
CREATE TABLE ledger_entries (
  entry          INTEGER PRIMARY KEY,
  transfer_id    INTEGER NOT NULL REFERENCES transfers(id),
  account_id     INTEGER NOT NULL REFERENCES accounts(id),
  amount         INTEGER NOT NULL CHECK (amount <> 0),
  balance_after  INTEGER NOT NULL
);

CREATE TABLE tables (
  id            TEXT PRIMARY KEY,
  game          TEXT NOT NULL,
  options_json  TEXT NOT NULL,
  seed          INTEGER NOT NULL,  -- the uint64 seed's bits, read as int64
  host          TEXT NOT NULL,
  status        TEXT NOT NULL CHECK (status IN ('waiting', 'playing', 'finished')),
  is_private    INTEGER NOT NULL DEFAULT 0,
  invite        TEXT UNIQUE,       -- NULL when the table has no invite code
  deck_json     TEXT,              -- NULL when the deck is not stacked
  created_at    TEXT NOT NULL
);

CREATE TABLE table_seats (
  table_id   TEXT NOT NULL REFERENCES tables(id),
  seat       INTEGER NOT NULL,
  player     TEXT,  -- NULL for an empty seat; a bot's name for a bot
  bot        INTEGER NOT NULL DEFAULT 0,
  bot_level  INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;

-- The truth of a table: its state is a pure function of these rows. The
-- primary key makes a replayed or duplicated seq fail instead of forking the log.
CREATE TABLE table_events (
  table_id  TEXT NOT NULL REFERENCES tables(id),
  seq       INTEGER NOT NULL,
  json      TEXT NOT NULL,
  PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;

CREATE TABLE results (
  id        INTEGER PRIMARY KEY,
  table_id  TEXT NOT NULL REFERENCES tables(id),
  time      TEXT NOT NULL,
  json      TEXT NOT NULL
);
)sql"},
    {2, "indexes for ledger pages, results and the lobby", R"sql(
-- ledger(account) reads one account's newest entries: without this it scans
-- every entry of every account.
CREATE INDEX ledger_entries_by_account ON ledger_entries(account_id, entry);
CREATE INDEX results_by_table ON results(table_id, id);
CREATE INDEX tables_by_status ON tables(status);
)sql"},
    {3, "find players by token hash (HTTP bearer tokens)", R"sql(
CREATE INDEX players_by_token_hash ON players(token_hash);
)sql"},
    {4, "a failed table keeps the reason it failed", R"sql(
ALTER TABLE tables ADD COLUMN failure TEXT;  -- NULL unless the table failed (its status is then finished)
)sql"},
    {5, "a table keeps the turn clock chosen at create", R"sql(
ALTER TABLE tables ADD COLUMN clock_json TEXT;  -- NULL: the default clock (docs/protocol.md "Turn clock and away")
)sql"},
    {6, "each movement names the table event and deal that caused it; settle-up reads tables' nets", R"sql(
ALTER TABLE transfers ADD COLUMN seq INTEGER;   -- the table_events seq of the step; NULL when none (a grant, a fault)
ALTER TABLE transfers ADD COLUMN deal INTEGER;  -- the deal number at the table; NULL when none
-- Settle-up adds up one table's movements (table_id) and finds a host's tables
-- active since a time (time); each movement's two entries are found by transfer.
CREATE INDEX transfers_by_table ON transfers(table_id, time);
CREATE INDEX ledger_entries_by_transfer ON ledger_entries(transfer_id);
CREATE INDEX tables_by_host ON tables(host COLLATE NOCASE);
)sql"},
    {7, "the database enforces that every transfer's entries sum to zero", R"sql(
-- A transfer is balanced when it has exactly two ledger entries summing to zero.
-- SQLite has no deferred CHECK or constraint trigger, but it does check deferred
-- foreign keys at COMMIT: each transfer points (balanced, its own id) at its
-- row here, which the trigger below adds only when its second entry balances
-- it. So a transaction that leaves a transfer open, or unbalanced, cannot
-- commit; and a third entry finds the row already there and fails.
CREATE TABLE balanced_transfers (
  transfer_id  INTEGER PRIMARY KEY
);
INSERT INTO balanced_transfers(transfer_id)
  SELECT transfer_id FROM ledger_entries GROUP BY transfer_id HAVING count(*) = 2 AND sum(amount) = 0;
ALTER TABLE transfers ADD COLUMN balanced INTEGER
  REFERENCES balanced_transfers(transfer_id) DEFERRABLE INITIALLY DEFERRED;
UPDATE transfers SET balanced = id WHERE id IN (SELECT transfer_id FROM balanced_transfers);
-- Inserting a balanced_transfers row looks up the transfers pointing at it:
-- without this index, a scan of every transfer.
CREATE INDEX transfers_by_balanced ON transfers(balanced);

-- The store writes `balanced` with the row; a writer that leaves it out gets it here.
CREATE TRIGGER transfer_must_balance AFTER INSERT ON transfers WHEN NEW.balanced IS NULL
BEGIN
  UPDATE transfers SET balanced = NEW.id WHERE id = NEW.id;
END;
CREATE TRIGGER transfer_balance_link_is_its_id BEFORE UPDATE OF balanced ON transfers
WHEN NEW.balanced IS NOT NEW.id
BEGIN
  SELECT RAISE(ABORT, 'a transfer''s balanced link must be its own id');
END;
CREATE TRIGGER transfer_link_on_insert_is_its_id BEFORE INSERT ON transfers
WHEN NEW.balanced IS NOT NULL AND NEW.balanced IS NOT NEW.id
BEGIN
  SELECT RAISE(ABORT, 'a transfer''s balanced link must be its own id');
END;
CREATE TRIGGER transfer_closes_on_second_entry AFTER INSERT ON ledger_entries
WHEN (SELECT count(*) FROM ledger_entries WHERE transfer_id = NEW.transfer_id) >= 2
BEGIN
  INSERT INTO balanced_transfers(transfer_id) VALUES (NEW.transfer_id);
END;
CREATE TRIGGER transfer_sums_to_zero BEFORE INSERT ON balanced_transfers
WHEN (SELECT count(*) <> 2 OR coalesce(sum(amount), 0) <> 0 FROM ledger_entries WHERE transfer_id = NEW.transfer_id)
BEGIN
  SELECT RAISE(ABORT, 'transfer does not sum to zero: expected two ledger entries, +amount and -amount');
END;
-- The ledger is append-only.
CREATE TRIGGER ledger_entries_are_not_updated BEFORE UPDATE ON ledger_entries
BEGIN
  SELECT RAISE(ABORT, 'ledger entries are append-only: no update');
END;
CREATE TRIGGER ledger_entries_are_not_deleted BEFORE DELETE ON ledger_entries
BEGIN
  SELECT RAISE(ABORT, 'ledger entries are append-only: no delete');
END;
CREATE TRIGGER balanced_transfers_are_not_deleted BEFORE DELETE ON balanced_transfers
BEGIN
  SELECT RAISE(ABORT, 'a balanced transfer stays balanced: no delete');
END;
)sql"},
    {8, "the zero-sum check runs once per transfer, written after its two entries", R"sql(
-- Migration 7's check cost a trigger run per entry, a marker row per transfer
-- and an index to find it, about a third of a step's commit. Here the shape
-- does most of the work instead:
--   * a transfer's entries are written first and the transfer row last; each
--     entry's link to its transfer is a deferred foreign key, so an entry whose
--     transfer never comes cannot commit;
--   * a unique index allows one debit and one credit per transfer, so a third
--     entry, or one added to a transfer already written, is refused;
--   * one trigger, when the transfer row is written, requires exactly two
--     entries summing to zero.
-- SQLite changes a column's foreign key only by rebuilding its table, which
-- the migrations do with foreign keys off (checked before they commit).
CREATE TABLE transfers_rebuilt (
  id        INTEGER PRIMARY KEY,
  time      TEXT NOT NULL,
  table_id  TEXT,     -- NULL when not at a table; display only, so no foreign key
  game      TEXT,
  memo      TEXT NOT NULL,
  seq       INTEGER,  -- the table_events seq of the step; NULL when none (a grant, a fault)
  deal      INTEGER   -- the deal number at the table; NULL when none
);
INSERT INTO transfers_rebuilt(id, time, table_id, game, memo, seq, deal)
  SELECT id, time, table_id, game, memo, seq, deal FROM transfers ORDER BY id;
-- Append-only: entries are never updated or deleted, so the rowid `entry`
-- increases over the whole ledger.
CREATE TABLE ledger_entries_rebuilt (
  entry          INTEGER PRIMARY KEY,
  transfer_id    INTEGER NOT NULL REFERENCES transfers(id) DEFERRABLE INITIALLY DEFERRED,
  account_id     INTEGER NOT NULL REFERENCES accounts(id),
  amount         INTEGER NOT NULL CHECK (amount <> 0),
  balance_after  INTEGER NOT NULL
);
INSERT INTO ledger_entries_rebuilt(entry, transfer_id, account_id, amount, balance_after)
  SELECT entry, transfer_id, account_id, amount, balance_after FROM ledger_entries ORDER BY entry;
-- Their indexes and triggers go with them, and migration 7's marker table.
DROP TABLE ledger_entries;
DROP TABLE transfers;
DROP TABLE balanced_transfers;
ALTER TABLE transfers_rebuilt RENAME TO transfers;
ALTER TABLE ledger_entries_rebuilt RENAME TO ledger_entries;

CREATE INDEX transfers_by_table ON transfers(table_id, time);
CREATE INDEX ledger_entries_by_account ON ledger_entries(account_id, entry);
-- One debit (amount < 0) and one credit (amount > 0) per transfer at most.
CREATE UNIQUE INDEX ledger_entries_by_transfer ON ledger_entries(transfer_id, amount > 0);

CREATE TRIGGER transfer_sums_to_zero BEFORE INSERT ON transfers
WHEN (SELECT count(*) <> 2 OR sum(amount) <> 0 FROM ledger_entries WHERE transfer_id = NEW.id)
BEGIN
  SELECT RAISE(ABORT, 'transfer does not sum to zero: expected its two ledger entries, +amount and -amount, written before it');
END;
-- The ledger is append-only.
CREATE TRIGGER ledger_entries_are_not_updated BEFORE UPDATE ON ledger_entries
BEGIN
  SELECT RAISE(ABORT, 'ledger entries are append-only: no update');
END;
CREATE TRIGGER ledger_entries_are_not_deleted BEFORE DELETE ON ledger_entries
BEGIN
  SELECT RAISE(ABORT, 'ledger entries are append-only: no delete');
END;
)sql"},
    {9, "table leases: which node serves each table when several share the database", R"sql(
-- Several nodes share a PostgreSQL database, not a SQLite file; the table is
-- here so that one schema version means one schema in both, and a write
-- carrying a fence is checked against it alike (storage::Fence).
CREATE TABLE table_leases (
  table_id    TEXT PRIMARY KEY REFERENCES tables(id),
  node        TEXT NOT NULL,
  generation  INTEGER NOT NULL CHECK (generation > 0),
  expires_at  TEXT NOT NULL,
  wanted_by   TEXT,
  summary     TEXT
);
CREATE INDEX table_leases_by_node ON table_leases(node);
)sql"},
};

static_assert(migrations_are_numbered_in_order(kMigrations),
              "migrations are numbered 1, 2, 3... alike in both backends (storage/schema.h)");
constexpr int kLatestVersion = kLatestSchemaVersion;

// ---------------------------------------------------------------------------
// Statements, prepared on first use and cached by their text's address.

constexpr const char* kSchemaVersion = "SELECT coalesce(max(version), 0) FROM schema_version";
constexpr const char* kRecordMigration =
    "INSERT INTO schema_version(version, description, applied_at) VALUES (?1, ?2, ?3)";

constexpr const char* kBeginImmediate = "BEGIN IMMEDIATE";
constexpr const char* kCommit = "COMMIT";
constexpr const char* kSavepoint = "SAVEPOINT table_write";
constexpr const char* kRollbackToSavepoint = "ROLLBACK TO table_write";
constexpr const char* kReleaseSavepoint = "RELEASE table_write";

constexpr const char* kFindPlayer = "SELECT id, name, token_hash FROM players WHERE name = ?1";
constexpr const char* kFindPlayerByTokenHash = "SELECT id, name, token_hash FROM players WHERE token_hash = ?1";
constexpr const char* kInsertPlayer =
    "INSERT INTO players(name, token_hash, created_at) VALUES (?1, ?2, ?3)";

constexpr const char* kInsertTransfer =
    "INSERT INTO transfers(time, table_id, game, memo) VALUES (?1, ?2, ?3, ?4)";
// Apart from the plain insert, which so works on a file of any schema version
// (movements without a table event, such as grants, take the plain one).
constexpr const char* kInsertLinkedTransfer =
    "INSERT INTO transfers(time, table_id, game, memo, seq, deal) VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
// From schema 7 on: the row names itself as the transfer that must balance
// (the id a rowid table gives next is the largest plus one), which spares the
// trigger's UPDATE of every new row.
constexpr const char* kInsertBalancedTransfer = R"sql(
INSERT INTO transfers(id, balanced, time, table_id, game, memo, seq, deal)
SELECT next.id, next.id, ?1, ?2, ?3, ?4, ?5, ?6 FROM (SELECT coalesce(max(id), 0) + 1 AS id FROM transfers) next)sql";
// From schema 8 on: the entries come first, naming the transfer written after
// them (the id a rowid table gives next is the largest plus one; one writer
// holds the write lock), and the transfer row last, which the database checks.
constexpr const char* kNextTransferId = "SELECT coalesce(max(id), 0) + 1 FROM transfers";
constexpr const char* kInsertTransferAfterEntries =
    "INSERT INTO transfers(id, time, table_id, game, memo, seq, deal) VALUES (?7, ?1, ?2, ?3, ?4, ?5, ?6)";
constexpr const char* kAddToAccount =
    "UPDATE accounts SET balance = balance + ?2 WHERE name = ?1 RETURNING id, balance";
constexpr const char* kOpenAccount =
    "INSERT INTO accounts(name, balance) VALUES (?1, ?2) RETURNING id, balance";
constexpr const char* kInsertEntry =
    "INSERT INTO ledger_entries(transfer_id, account_id, amount, balance_after) VALUES (?1, ?2, ?3, ?4)";
constexpr const char* kBalance = "SELECT balance FROM accounts WHERE name = ?1";
// ?2 is the prefix followed by byte 0xFF, which never occurs in UTF-8 text, so
// the range is exactly the names starting with the prefix, and uses the index.
constexpr const char* kBalancesWithPrefix =
    "SELECT name, balance FROM accounts WHERE name >= ?1 AND name < ?2 ORDER BY name";
constexpr const char* kTotalOfAllAccounts = "SELECT coalesce(sum(balance), 0) FROM accounts";
constexpr const char* kLedgerPage = R"sql(
SELECT e.entry, t.time, e.amount, e.balance_after, t.table_id, t.game, t.memo, coalesce(tb.is_private, 0),
       t.seq, t.deal
FROM ledger_entries e
JOIN transfers t ON t.id = e.transfer_id
LEFT JOIN tables tb ON tb.id = t.table_id
WHERE e.account_id = (SELECT id FROM accounts WHERE name = ?1) AND e.entry < ?2
ORDER BY e.entry DESC
LIMIT ?3)sql";

// A movement with the bank on either side is a grant, not winnings.
constexpr const char* kTableNets = R"sql(
SELECT a.name, sum(e.amount)
FROM transfers t
JOIN ledger_entries e ON e.transfer_id = t.id
JOIN accounts a ON a.id = e.account_id
WHERE t.table_id = ?1
  AND NOT EXISTS (SELECT 1 FROM ledger_entries g
                  WHERE g.transfer_id = t.id AND g.account_id = (SELECT id FROM accounts WHERE name = 'bank'))
GROUP BY a.name
ORDER BY a.name)sql";
constexpr const char* kTablesHostedSince = R"sql(
SELECT id, game, options_json, seed, host, status, is_private, invite, deck_json, failure, created_at, clock_json
FROM (SELECT rowid AS made, * FROM tables
      WHERE host = ?1 COLLATE NOCASE
        AND (created_at >= ?2 OR EXISTS (SELECT 1 FROM transfers t WHERE t.table_id = tables.id AND t.time >= ?2))
      ORDER BY rowid DESC
      LIMIT ?3)
ORDER BY made)sql";

constexpr const char* kInsertTable = R"sql(
INSERT INTO tables(id, game, options_json, seed, host, status, is_private, invite, deck_json, created_at)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10))sql";
// Apart from the insert, which so works on a file of any schema version.
constexpr const char* kSetClock = "UPDATE tables SET clock_json = ?2 WHERE id = ?1";
constexpr const char* kFindTable =
    "SELECT id, game, options_json, seed, host, status, is_private, invite, deck_json, failure, created_at, clock_json "
    "FROM tables WHERE id = ?1";
// rowid order is creation order.
constexpr const char* kTablesWithStatus =
    "SELECT id, game, options_json, seed, host, status, is_private, invite, deck_json, failure, created_at, clock_json "
    "FROM tables WHERE status = ?1 ORDER BY rowid";
constexpr const char* kSetStatus = "UPDATE tables SET status = ?2 WHERE id = ?1";
constexpr const char* kSetFailure = "UPDATE tables SET status = 'finished', failure = ?2 WHERE id = ?1";
constexpr const char* kAllPlayers = "SELECT id, name, token_hash FROM players ORDER BY id";
constexpr const char* kDeleteSeats = "DELETE FROM table_seats WHERE table_id = ?1";
constexpr const char* kInsertSeat =
    "INSERT INTO table_seats(table_id, seat, player, bot, bot_level) VALUES (?1, ?2, ?3, ?4, ?5)";
constexpr const char* kSeats =
    "SELECT seat, player, bot, bot_level FROM table_seats WHERE table_id = ?1 ORDER BY seat";
constexpr const char* kInsertEvent = "INSERT INTO table_events(table_id, seq, json) VALUES (?1, ?2, ?3)";
constexpr const char* kEvents = "SELECT seq, json FROM table_events WHERE table_id = ?1 AND seq > ?2 ORDER BY seq";
constexpr const char* kInsertResult = "INSERT INTO results(table_id, time, json) VALUES (?1, ?2, ?3)";
constexpr const char* kResults = "SELECT json FROM results WHERE table_id = ?1 ORDER BY id";

constexpr int kBusyTimeoutMs = 5000;
constexpr int kMaxLedgerPage = 500;

std::string utc_now_iso8601() { return utc_iso8601(std::chrono::system_clock::now()); }

std::optional<std::int64_t> integer_or_none(const SQLite::Column& column) {
  if (column.isNull()) return std::nullopt;
  return column.getInt64();
}

// Optional text columns: "" in C++ is NULL in SQL, so that "no invite" or
// "not at a table" never collides with a UNIQUE constraint or reads as a value.
void bind_text_or_null(SQLite::Statement& statement, int index, const std::string& text) {
  if (text.empty()) {
    statement.bind(index);
  } else {
    statement.bind(index, text);
  }
}

void bind_integer_or_null(SQLite::Statement& statement, int index, std::optional<std::int64_t> value) {
  if (value) {
    statement.bind(index, *value);
  } else {
    statement.bind(index);
  }
}

std::string text_or_empty(const SQLite::Column& column) {
  return column.isNull() ? std::string() : column.getString();
}

// Lends a cached statement and resets it when the borrower is done, even on an
// exception, so that it can be rebound next time and a half-read SELECT holds
// no read lock into the next transaction.
class Borrowed {
 public:
  explicit Borrowed(SQLite::Statement& statement) : statement_(statement) {}
  ~Borrowed() { statement_.tryReset(); }
  Borrowed(const Borrowed&) = delete;
  Borrowed& operator=(const Borrowed&) = delete;

  SQLite::Statement* operator->() const { return &statement_; }
  SQLite::Statement& operator*() const { return statement_; }

 private:
  SQLite::Statement& statement_;
};

// Rolls back a transaction begun with kBeginImmediate unless commit() was
// reached; SQLite::Transaction would re-prepare BEGIN and COMMIT every time.
class WriteTransaction {
 public:
  WriteTransaction(SQLite::Statement& begin, SQLite::Statement& commit, SQLite::Database& db)
      : commit_(commit), db_(db) {
    Borrowed(begin)->exec();
  }
  ~WriteTransaction() {
    if (!committed_) db_.tryExec("ROLLBACK");
  }
  WriteTransaction(const WriteTransaction&) = delete;
  WriteTransaction& operator=(const WriteTransaction&) = delete;

  void commit() {
    Borrowed(commit_)->exec();
    committed_ = true;
  }

 private:
  SQLite::Statement& commit_;
  SQLite::Database& db_;
  bool committed_ = false;
};

// SQLite changes a column's constraints only by rebuilding its table, and the
// way it documents (https://sqlite.org/lang_altertable.html, "other kinds of
// table schema changes") is with foreign keys off. The pragma has no effect
// inside a transaction, so it is set around the migrations, and back on
// whichever way they end.
class ForeignKeysOffWhileMigrating {
 public:
  explicit ForeignKeysOffWhileMigrating(SQLite::Database& db) : db_(db) { db_.exec("PRAGMA foreign_keys=OFF"); }
  ~ForeignKeysOffWhileMigrating() { db_.tryExec("PRAGMA foreign_keys=ON"); }
  ForeignKeysOffWhileMigrating(const ForeignKeysOffWhileMigrating&) = delete;
  ForeignKeysOffWhileMigrating& operator=(const ForeignKeysOffWhileMigrating&) = delete;

 private:
  SQLite::Database& db_;
};

struct AccountChange {
  std::int64_t account_id = 0;
  std::int64_t balance_after = 0;
};

std::string describe_posting(const Posting& posting) {
  std::string text = "posting " + std::to_string(posting.amount) + " from " + posting.from + " to " + posting.to;
  if (!posting.memo.empty()) text += " (" + posting.memo + ")";
  return text;
}

}  // namespace

// ---------------------------------------------------------------------------

struct SqliteStore::Impl {
  std::string path;
  SQLite::Database db;
  // Declared after db so that they are finalized before the connection closes.
  std::unordered_map<const char*, std::unique_ptr<SQLite::Statement>> statements;
  // The schema the writes are shaped for: how a posting is written changed at
  // versions 6, 7 and 8 (insert_transfer, apply_posting); a file opened at an
  // older version (the migration tests) keeps its own shape.
  int schema = 0;

  explicit Impl(const std::string& file_path) : path(file_path), db(open(file_path)) { configure(); }

  static SQLite::Database open(const std::string& path) {
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    if (!parent.empty()) std::filesystem::create_directories(parent);
    return SQLite::Database(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE, kBusyTimeoutMs);
  }

  void configure() {
    // Every commit writes each page it touched to the WAL whole, and a step
    // touches the right-hand leaf of a few append-only b-trees (events,
    // transfers, ledger entries and their indexes): 2 KiB pages halve those
    // writes, about a third of a step's CPU (bench: storage/commit). Only a new
    // file takes it; an existing one keeps its page size.
    db.exec("PRAGMA page_size=2048");
    // WAL lets readers on other connections run while the one writer commits;
    // NORMAL is durable across process crashes in WAL mode and avoids an fsync
    // per commit. Both journal_mode and foreign_keys are per-connection settings
    // (journal_mode=WAL persists in the file, but setting it again is harmless).
    SQLite::Statement journal(db, "PRAGMA journal_mode=WAL");
    const std::string mode = journal.executeStep() ? journal.getColumn(0).getString() : "";
    if (mode != "wal" && path != ":memory:" && !path.empty()) {
      throw StorageError("could not switch " + path + " to WAL journal mode (it stays in '" + mode + "' mode)");
    }
    db.exec("PRAGMA synchronous=NORMAL");
    // Checkpoints (the only fsyncs under synchronous=NORMAL) every 4,000 pages
    // (8 MiB) rather than 1,000: fewer stalls of the writer, and a page written
    // by many commits is copied to the database once. The WAL is cut back to
    // 16 MiB after a checkpoint so that it does not keep its peak size.
    db.exec("PRAGMA wal_autocheckpoint=4000");
    db.exec("PRAGMA journal_size_limit=16777216");
    db.exec("PRAGMA foreign_keys=ON");
  }

  SQLite::Statement& cached(const char* sql) {
    std::unique_ptr<SQLite::Statement>& slot = statements[sql];
    if (!slot) slot = std::make_unique<SQLite::Statement>(db, sql);
    return *slot;
  }

  WriteTransaction begin_write() { return WriteTransaction(cached(kBeginImmediate), cached(kCommit), db); }

  // --- Migrations ---

  int current_version() {
    Borrowed query(cached(kSchemaVersion));
    query->executeStep();
    return query->getColumn(0).getInt();
  }

  void migrate(int up_to) {
    if (up_to < 0 || up_to > kLatestVersion) {
      throw StorageError("cannot migrate " + path + " to schema version " + std::to_string(up_to) +
                         ": versions run from 0 to " + std::to_string(kLatestVersion));
    }
    db.exec(kCreateSchemaVersion);
    const int found = current_version();
    if (found > kLatestVersion) {
      throw StorageError(path + " has schema version " + std::to_string(found) + ", newer than this build's " +
                         std::to_string(kLatestVersion) + "; refusing to use it");
    }
    {
      ForeignKeysOffWhileMigrating off(db);
      for (const Migration& migration : kMigrations) {
        if (migration.version > up_to) break;
        if (migration.version > found) apply(migration);
      }
    }
    // Every write from here on counts on them.
    if (db.execAndGet("PRAGMA foreign_keys").getInt() != 1) {
      throw StorageError("could not turn foreign keys back on for " + path + " after migrating it");
    }
    schema = std::max(found, up_to);
  }

  void apply(const Migration& migration) {
    try {
      WriteTransaction transaction = begin_write();
      // Re-read under the write lock: another process opening the same file
      // may have applied this migration since we looked.
      if (current_version() >= migration.version) return;
      db.exec(migration.sql);
      require_foreign_keys_hold(migration);
      Borrowed record(cached(kRecordMigration));
      record->bind(1, migration.version);
      record->bind(2, migration.description);
      record->bind(3, utc_now_iso8601());
      record->exec();
      transaction.commit();
    } catch (const SQLite::Exception& e) {
      throw StorageError("while applying migration " + std::to_string(migration.version) + " (" +
                         migration.description + ") to " + path + ": " + e.what());
    }
  }

  // Foreign keys are off while migrating (a rebuilt table would otherwise
  // take its rows' links with it); this is the check they would have made.
  void require_foreign_keys_hold(const Migration& migration) {
    SQLite::Statement check(db, "PRAGMA foreign_key_check");
    if (!check.executeStep()) return;
    throw StorageError("migration " + std::to_string(migration.version) + " (" + migration.description +
                       ") would leave a row of " + check.getColumn(0).getString() + " (rowid " +
                       check.getColumn(1).getString() + ") pointing at a missing row of " +
                       check.getColumn(2).getString() + "; nothing was changed");
  }

  // --- Ledger ---

  // Adds `delta` to an account, opening it on first use, and returns its id and
  // new balance. A player's account going negative fails the CHECK constraint.
  AccountChange add_to_account(const std::string& account, std::int64_t delta) {
    {
      Borrowed update(cached(kAddToAccount));
      update->bind(1, account);
      update->bind(2, delta);
      if (update->executeStep()) return {update->getColumn(0).getInt64(), update->getColumn(1).getInt64()};
    }
    Borrowed insert(cached(kOpenAccount));
    insert->bind(1, account);
    insert->bind(2, delta);
    insert->executeStep();
    return {insert->getColumn(0).getInt64(), insert->getColumn(1).getInt64()};
  }

  void insert_entry(std::int64_t transfer_id, const AccountChange& change, std::int64_t amount) {
    Borrowed insert(cached(kInsertEntry));
    insert->bind(1, transfer_id);
    insert->bind(2, change.account_id);
    insert->bind(3, amount);
    insert->bind(4, change.balance_after);
    insert->exec();
  }

  std::int64_t next_transfer_id() {
    Borrowed query(cached(kNextTransferId));
    query->executeStep();
    return query->getColumn(0).getInt64();
  }

  // `id` is the transfer's id, chosen by next_transfer_id() (from schema 8 on),
  // or nullopt to let the database choose it (before).
  std::int64_t insert_transfer(const Posting& posting, const std::string& time, std::optional<std::int64_t> id) {
    const bool linked = posting.seq || posting.deal || schema >= 7;
    Borrowed insert(cached(id                ? kInsertTransferAfterEntries
                           : schema >= 7     ? kInsertBalancedTransfer
                           : linked          ? kInsertLinkedTransfer
                                             : kInsertTransfer));
    if (id) insert->bind(7, *id);
    insert->bind(1, time);
    bind_text_or_null(*insert, 2, posting.table);
    bind_text_or_null(*insert, 3, posting.game);
    insert->bind(4, posting.memo);
    if (linked) {
      bind_integer_or_null(*insert, 5, posting.seq);
      bind_integer_or_null(*insert, 6, posting.deal);
    }
    insert->exec();
    return db.getLastInsertRowid();
  }

  // Must run inside a transaction: it writes five rows that only make sense together.
  void apply_posting(const Posting& posting, const std::string& time) {
    if (posting.amount <= 0) throw StorageError("invalid " + describe_posting(posting) + ": the amount must be positive");
    if (posting.from.empty() || posting.to.empty()) {
      throw StorageError("invalid " + describe_posting(posting) + ": both accounts must be named");
    }
    if (posting.from == posting.to) {
      throw StorageError("invalid " + describe_posting(posting) + ": an account cannot pay itself");
    }
    try {
      if (schema >= 8) {
        const std::int64_t transfer_id = next_transfer_id();
        const AccountChange debit = debit_account(posting);
        const AccountChange credit = add_to_account(posting.to, posting.amount);
        insert_entry(transfer_id, debit, -posting.amount);
        insert_entry(transfer_id, credit, posting.amount);
        insert_transfer(posting, time, transfer_id);
        return;
      }
      const std::int64_t transfer_id = insert_transfer(posting, time, std::nullopt);
      const AccountChange debit = debit_account(posting);
      const AccountChange credit = add_to_account(posting.to, posting.amount);
      insert_entry(transfer_id, debit, -posting.amount);
      insert_entry(transfer_id, credit, posting.amount);
    } catch (const SQLite::Exception& e) {
      throw StorageError("while " + describe_posting(posting) + ": " + e.what());
    }
  }

  AccountChange debit_account(const Posting& posting) {
    try {
      return add_to_account(posting.from, -posting.amount);
    } catch (const SQLite::Exception& e) {
      if (e.getExtendedErrorCode() != SQLITE_CONSTRAINT_CHECK) throw;
      // The failed statement changed nothing, so this reads the balance before it.
      throw StorageError(std::string(kInsufficientChipsError) + " for " + describe_posting(posting) + ": " + posting.from + " has " +
                         std::to_string(balance(posting.from)));
    }
  }

  std::int64_t balance(const std::string& account) {
    Borrowed query(cached(kBalance));
    query->bind(1, account);
    return query->executeStep() ? query->getColumn(0).getInt64() : 0;
  }

  // --- Tables ---

  void insert_seats(const std::string& table, const std::vector<Seat>& seats) {
    for (const Seat& seat : seats) {
      try {
        Borrowed insert(cached(kInsertSeat));
        insert->bind(1, table);
        insert->bind(2, seat.seat);
        bind_text_or_null(*insert, 3, seat.player);
        insert->bind(4, seat.bot ? 1 : 0);
        insert->bind(5, seat.bot_level);
        insert->exec();
      } catch (const SQLite::Exception& e) {
        throw StorageError("while seating " + (seat.player.empty() ? std::string("nobody") : seat.player) +
                           " at seat " + std::to_string(seat.seat) + " of table " + table + ": " + e.what());
      }
    }
  }

  void replace_seats(const std::string& table, const std::vector<Seat>& seats) {
    try {
      Borrowed remove(cached(kDeleteSeats));
      remove->bind(1, table);
      remove->exec();
    } catch (const SQLite::Exception& e) {
      throw StorageError("while clearing the seats of table " + table + ": " + e.what());
    }
    insert_seats(table, seats);
  }

  std::vector<Seat> seats(const std::string& table) {
    Borrowed query(cached(kSeats));
    query->bind(1, table);
    std::vector<Seat> result;
    while (query->executeStep()) {
      Seat seat;
      seat.seat = query->getColumn(0).getInt();
      seat.player = text_or_empty(query->getColumn(1));
      seat.bot = query->getColumn(2).getInt() != 0;
      seat.bot_level = query->getColumn(3).getInt();
      result.push_back(std::move(seat));
    }
    return result;
  }

  // Reads the tables a query selects (the columns of kFindTable), with their seats.
  std::vector<TableRecord> read_tables(SQLite::Statement& query) {
    std::vector<TableRecord> tables;
    while (query.executeStep()) {
      TableRecord table;
      table.id = query.getColumn(0).getString();
      table.game = query.getColumn(1).getString();
      table.options_json = query.getColumn(2).getString();
      table.seed = std::bit_cast<std::uint64_t>(query.getColumn(3).getInt64());
      table.host = query.getColumn(4).getString();
      table.status = query.getColumn(5).getString();
      table.is_private = query.getColumn(6).getInt() != 0;
      table.invite = text_or_empty(query.getColumn(7));
      table.deck_json = text_or_empty(query.getColumn(8));
      table.failure = text_or_empty(query.getColumn(9));
      table.created_at = query.getColumn(10).getString();
      table.clock_json = text_or_empty(query.getColumn(11));
      tables.push_back(std::move(table));
    }
    // Seats are read after the loop so that only one statement is stepping at a time.
    for (TableRecord& table : tables) table.seats = seats(table.id);
    return tables;
  }

  void append_event(const std::string& table, const Event& event) {
    try {
      Borrowed insert(cached(kInsertEvent));
      insert->bind(1, table);
      insert->bind(2, event.seq);
      insert->bind(3, event.json);
      insert->exec();
    } catch (const SQLite::Exception& e) {
      throw StorageError("while appending event " + std::to_string(event.seq) + " of table " + table + ": " +
                         e.what());
    }
  }

  void set_status(const std::string& table, const std::string& status) {
    int changed = 0;
    try {
      Borrowed update(cached(kSetStatus));
      update->bind(1, table);
      update->bind(2, status);
      changed = update->exec();
    } catch (const SQLite::Exception& e) {
      throw StorageError("while setting the status of table " + table + " to '" + status + "': " + e.what());
    }
    if (changed == 0) throw StorageError("cannot set the status of table " + table + ": no such table");
  }

  void set_failure(const std::string& table, const std::string& failure) {
    try {
      Borrowed update(cached(kSetFailure));
      update->bind(1, table);
      update->bind(2, failure);
      update->exec();
    } catch (const SQLite::Exception& e) {
      throw StorageError("while marking table " + table + " failed: " + e.what());
    }
  }

  void append_result(const std::string& table, const std::string& json, const std::string& time) {
    try {
      Borrowed insert(cached(kInsertResult));
      insert->bind(1, table);
      insert->bind(2, time);
      insert->bind(3, json);
      insert->exec();
    } catch (const SQLite::Exception& e) {
      throw StorageError("while recording a result of table " + table + ": " + e.what());
    }
  }

  // The event goes first: if any later part fails, the whole write is undone,
  // so the log and the ledger never disagree.
  void check_fence(const TableWrite& write) {
    const Fence& fence = *write.fence;
    Borrowed lease(cached("SELECT node, generation FROM table_leases WHERE table_id = ?"));
    lease->bind(1, write.table);
    if (lease->executeStep() && lease->getColumn(0).getString() == fence.node &&
        lease->getColumn(1).getInt64() == fence.generation)
      return;
    throw StorageError(std::string(kFencedError) + " table " + write.table + " is not leased to node " + fence.node +
                       " at generation " + std::to_string(fence.generation));
  }

  void apply_write(const TableWrite& write, const std::string& time) {
    if (write.fence) check_fence(write);
    if (write.event) append_event(write.table, *write.event);
    for (const Posting& posting : write.postings) apply_posting(posting, time);
    if (write.status) set_status(write.table, *write.status);
    if (write.seats) replace_seats(write.table, *write.seats);
    if (write.result_json) append_result(write.table, *write.result_json, time);
    if (write.failure) set_failure(write.table, *write.failure);
  }

  // Some errors (disk full, I/O) make SQLite roll back the whole transaction,
  // not just the failed statement. Carrying on would commit the remaining writes
  // one by one and report earlier ones as committed when they were not.
  void require_open_transaction(const std::string& after) {
    if (sqlite3_get_autocommit(db.getHandle()) != 0) {
      throw StorageError("SQLite abandoned the whole batch after this error: " + after);
    }
  }

  // SQLite checks the deferred foreign key of migration 7 only at COMMIT, where
  // a violation would fail the whole batch: checked here instead, so that only
  // the write that left a transfer unbalanced is undone.
  std::string unbalanced_transfer_error(const TableWrite& write) {
    int outstanding = 0;
    int highest = 0;
    sqlite3_db_status(db.getHandle(), SQLITE_DBSTATUS_DEFERRED_FKS, &outstanding, &highest, 0);
    if (outstanding == 0) return "";
    return "while writing table " + write.table +
           ": a transfer does not balance (expected two ledger entries summing to zero)";
  }

  // Runs one write inside its own savepoint; returns "" or why it was undone.
  std::string apply_in_savepoint(const TableWrite& write, const std::string& time) {
    Borrowed(cached(kSavepoint))->exec();
    std::string error;
    try {
      apply_write(write, time);
    } catch (const StorageError& e) {
      error = e.what();
    } catch (const SQLite::Exception& e) {
      error = "while writing table " + write.table + ": " + e.what();
    }
    if (error.empty()) error = unbalanced_transfer_error(write);
    if (!error.empty()) {
      require_open_transaction(error);
      Borrowed(cached(kRollbackToSavepoint))->exec();
    }
    // ROLLBACK TO keeps the savepoint open; RELEASE closes it either way.
    Borrowed(cached(kReleaseSavepoint))->exec();
    return error;
  }
};

// ---------------------------------------------------------------------------

SqliteStore::SqliteStore(const std::string& path) : SqliteStore(path, kLatestVersion) {}

SqliteStore::SqliteStore(const std::string& path, int migrate_up_to) {
  try {
    impl_ = std::make_unique<Impl>(path);
    impl_->migrate(migrate_up_to);
  } catch (const SQLite::Exception& e) {
    throw StorageError("while opening database " + path + ": " + e.what());
  } catch (const std::filesystem::filesystem_error& e) {
    throw StorageError("while creating the folder of database " + path + ": " + e.what());
  }
}

SqliteStore::~SqliteStore() = default;

std::string SqliteStore::describe() const { return "SQLite file " + impl_->path; }

int SqliteStore::schema_version() {
  try {
    return impl_->current_version();
  } catch (const SQLite::Exception& e) {
    throw StorageError(std::string("while reading the schema version: ") + e.what());
  }
}

// Both look-ups select (id, name, token_hash) by one text key.
std::optional<Player> SqliteStore::find_player_where(const char* sql, const std::string& key, const std::string& what) {
  try {
    Borrowed query(impl_->cached(sql));
    query->bind(1, key);
    if (!query->executeStep()) return std::nullopt;
    return Player{query->getColumn(0).getInt64(), query->getColumn(1).getString(),
                  query->getColumn(2).getString()};
  } catch (const SQLite::Exception& e) {
    throw StorageError("while looking up " + what + ": " + e.what());
  }
}

std::vector<Player> SqliteStore::all_players() {
  try {
    Borrowed query(impl_->cached(kAllPlayers));
    std::vector<Player> players;
    while (query->executeStep())
      players.push_back(
          Player{query->getColumn(0).getInt64(), query->getColumn(1).getString(), query->getColumn(2).getString()});
    return players;
  } catch (const SQLite::Exception& e) {
    throw StorageError(std::string("while listing the players: ") + e.what());
  }
}

std::optional<Player> SqliteStore::find_player(const std::string& name) {
  return find_player_where(kFindPlayer, name, "player " + name);
}

std::optional<Player> SqliteStore::find_player_by_token_hash(const std::string& token_hash) {
  return find_player_where(kFindPlayerByTokenHash, token_hash, "a player by token");
}

Player SqliteStore::create_player(const std::string& name, const std::string& token_hash,
                               std::int64_t starting_chips) {
  if (name.empty()) throw StorageError("cannot register a player with an empty name");
  if (starting_chips < 0) {
    throw StorageError("cannot register " + name + " with negative starting chips (" +
                       std::to_string(starting_chips) + ")");
  }
  const std::string time = utc_now_iso8601();
  try {
    WriteTransaction transaction = impl_->begin_write();
    // Checked under the write lock, so no other connection can register the
    // name between this check and the insert.
    if (std::optional<Player> existing = find_player(name)) {
      throw NameTaken("name taken: '" + name + "' is already registered as '" + existing->name + "'");
    }
    {
      Borrowed insert(impl_->cached(kInsertPlayer));
      insert->bind(1, name);
      insert->bind(2, token_hash);
      insert->bind(3, time);
      insert->exec();
    }
    Player player{impl_->db.getLastInsertRowid(), name, token_hash};
    if (starting_chips > 0) {
      impl_->apply_posting(Posting{bank_account(), player_account(name), starting_chips, "starting chips", "", "", std::nullopt, std::nullopt},
                           time);
    }
    transaction.commit();
    return player;
  } catch (const SQLite::Exception& e) {
    throw StorageError("while registering player " + name + ": " + e.what());
  }
}

std::int64_t SqliteStore::balance(const std::string& account) {
  try {
    return impl_->balance(account);
  } catch (const SQLite::Exception& e) {
    throw StorageError("while reading the balance of " + account + ": " + e.what());
  }
}

std::vector<std::pair<std::string, std::int64_t>> SqliteStore::balances(const std::string& prefix) {
  try {
    Borrowed query(impl_->cached(kBalancesWithPrefix));
    query->bind(1, prefix);
    query->bind(2, prefix + '\xFF');
    std::vector<std::pair<std::string, std::int64_t>> result;
    while (query->executeStep()) {
      result.emplace_back(query->getColumn(0).getString(), query->getColumn(1).getInt64());
    }
    return result;
  } catch (const SQLite::Exception& e) {
    throw StorageError("while reading the balances of accounts starting with '" + prefix + "': " + e.what());
  }
}

std::vector<LedgerEntry> SqliteStore::ledger(const std::string& account, int limit,
                                          std::optional<std::int64_t> before) {
  try {
    Borrowed query(impl_->cached(kLedgerPage));
    query->bind(1, account);
    query->bind(2, before.value_or(std::numeric_limits<std::int64_t>::max()));
    query->bind(3, std::clamp(limit, 1, kMaxLedgerPage));
    std::vector<LedgerEntry> entries;
    while (query->executeStep()) {
      LedgerEntry entry;
      entry.entry = query->getColumn(0).getInt64();
      entry.time = query->getColumn(1).getString();
      entry.amount = query->getColumn(2).getInt64();
      entry.balance = query->getColumn(3).getInt64();
      entry.table = text_or_empty(query->getColumn(4));
      entry.game = text_or_empty(query->getColumn(5));
      entry.memo = query->getColumn(6).getString();
      entry.table_private = query->getColumn(7).getInt() != 0;
      entry.seq = integer_or_none(query->getColumn(8));
      entry.deal = integer_or_none(query->getColumn(9));
      entries.push_back(std::move(entry));
    }
    return entries;
  } catch (const SQLite::Exception& e) {
    throw StorageError("while reading the ledger of " + account + ": " + e.what());
  }
}

std::int64_t SqliteStore::total_of_all_accounts() {
  try {
    Borrowed query(impl_->cached(kTotalOfAllAccounts));
    query->executeStep();
    return query->getColumn(0).getInt64();
  } catch (const SQLite::Exception& e) {
    throw StorageError(std::string("while adding up all accounts: ") + e.what());
  }
}

std::vector<TableNet> SqliteStore::table_nets(const std::string& table) {
  try {
    Borrowed query(impl_->cached(kTableNets));
    query->bind(1, table);
    std::vector<TableNet> nets;
    while (query->executeStep()) nets.push_back({query->getColumn(0).getString(), query->getColumn(1).getInt64()});
    return nets;
  } catch (const SQLite::Exception& e) {
    throw StorageError("while adding up the movements at table " + table + ": " + e.what());
  }
}

void SqliteStore::create_table(const TableRecord& table) { create_table(table, std::vector<TableWrite>{}); }

void SqliteStore::create_table(const TableRecord& table, const std::vector<TableWrite>& steps) {
  try {
    WriteTransaction transaction = impl_->begin_write();
    {
      Borrowed insert(impl_->cached(kInsertTable));
      insert->bind(1, table.id);
      insert->bind(2, table.game);
      insert->bind(3, table.options_json);
      insert->bind(4, std::bit_cast<std::int64_t>(table.seed));
      insert->bind(5, table.host);
      insert->bind(6, table.status);
      insert->bind(7, table.is_private ? 1 : 0);
      bind_text_or_null(*insert, 8, table.invite);
      bind_text_or_null(*insert, 9, table.deck_json);
      insert->bind(10, utc_now_iso8601());
      insert->exec();
    }
    if (!table.clock_json.empty()) {
      Borrowed set_clock(impl_->cached(kSetClock));
      set_clock->bind(1, table.id);
      set_clock->bind(2, table.clock_json);
      set_clock->exec();
    }
    impl_->insert_seats(table.id, table.seats);
    const std::string now = utc_now_iso8601();
    for (const TableWrite& step : steps) impl_->apply_write(step, now);
    transaction.commit();
  } catch (const SQLite::Exception& e) {
    throw StorageError("while creating table " + table.id + ": " + e.what());
  }
}

std::optional<TableRecord> SqliteStore::find_table(const std::string& id) {
  try {
    Borrowed query(impl_->cached(kFindTable));
    query->bind(1, id);
    std::vector<TableRecord> tables = impl_->read_tables(*query);
    if (tables.empty()) return std::nullopt;
    return std::move(tables.front());
  } catch (const SQLite::Exception& e) {
    throw StorageError("while reading table " + id + ": " + e.what());
  }
}

std::vector<TableRecord> SqliteStore::tables_with_status(const std::string& status) {
  try {
    Borrowed query(impl_->cached(kTablesWithStatus));
    query->bind(1, status);
    return impl_->read_tables(*query);
  } catch (const SQLite::Exception& e) {
    throw StorageError("while listing the " + status + " tables: " + e.what());
  }
}

std::vector<TableRecord> SqliteStore::tables_hosted_since(const std::string& host, const std::string& since, int limit) {
  try {
    Borrowed query(impl_->cached(kTablesHostedSince));
    query->bind(1, host);
    query->bind(2, since);
    query->bind(3, std::max(limit, 0));
    return impl_->read_tables(*query);
  } catch (const SQLite::Exception& e) {
    throw StorageError("while listing the tables " + host + " hosted since " + since + ": " + e.what());
  }
}

std::vector<Event> SqliteStore::events_after(const std::string& table, std::int64_t after_seq) {
  try {
    Borrowed query(impl_->cached(kEvents));
    query->bind(1, table);
    query->bind(2, after_seq);
    std::vector<Event> events;
    while (query->executeStep()) {
      events.push_back(Event{query->getColumn(0).getInt64(), query->getColumn(1).getString()});
    }
    return events;
  } catch (const SQLite::Exception& e) {
    throw StorageError("while reading the events of table " + table + ": " + e.what());
  }
}

std::vector<std::string> SqliteStore::results(const std::string& table) {
  try {
    Borrowed query(impl_->cached(kResults));
    query->bind(1, table);
    std::vector<std::string> results;
    while (query->executeStep()) results.push_back(query->getColumn(0).getString());
    return results;
  } catch (const SQLite::Exception& e) {
    throw StorageError("while reading the results of table " + table + ": " + e.what());
  }
}

std::vector<bool> SqliteStore::commit(const std::vector<TableWrite>& writes, std::vector<std::string>* errors) {
  std::vector<bool> committed(writes.size(), false);
  if (errors) errors->assign(writes.size(), std::string());
  if (writes.empty()) return committed;
  // One timestamp for the batch: its writes become visible at the same instant.
  const std::string time = utc_now_iso8601();
  try {
    WriteTransaction transaction = impl_->begin_write();
    for (std::size_t i = 0; i < writes.size(); ++i) {
      std::string error = impl_->apply_in_savepoint(writes[i], time);
      committed[i] = error.empty();
      if (errors) (*errors)[i] = std::move(error);
    }
    transaction.commit();
  } catch (const SQLite::Exception& e) {
    throw StorageError("while committing a batch of " + std::to_string(writes.size()) + " table writes: " +
                       e.what());
  }
  return committed;
}

}  // namespace parlour::storage
