// SQLite backend of storage/store.h: its SQL and its transactions, under the
// shared store (storage/sql_store.h). Every SQLite statement of the project
// lives in this file: the migrations that build the schema, and the
// statements, which are prepared once per connection and reused.
#include "storage/sqlite_store.h"

#include "storage/step_filer.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <sqlite3.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <mutex>
#include <stop_token>
#include <thread>
#include <string_view>
#include <unordered_map>

#include <sys/resource.h>
#include <unistd.h>

#include "storage/schema.h"
#include "storage/wal_coalescing_vfs.h"

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
    {10, "each deal's start: the table's state before it, so that a hand history reads one deal", R"sql(
-- A cache of the log, written with the step that deals each deal: the
-- table's state just before that step and the deal's line in the history's
-- list. A history of deal N reads its row and that deal's events only.
CREATE TABLE deal_starts (
  table_id    TEXT NOT NULL REFERENCES tables(id),
  deal        INTEGER NOT NULL CHECK (deal > 0),
  seq         INTEGER NOT NULL,
  entry_json  TEXT NOT NULL,
  state_json  TEXT NOT NULL,
  PRIMARY KEY (table_id, deal)
) WITHOUT ROWID;
)sql"},
    {11, "accounts: recovery code hashes, sign-up links, devices and passphrases", R"sql(
-- One recovery code a player (README "Accounts and recovery"), kept as a
-- salted hash only; replaced when it is used.
CREATE TABLE player_recovery (
  player_id   INTEGER PRIMARY KEY REFERENCES players(id),
  code_hash   TEXT NOT NULL,
  created_at  TEXT NOT NULL
);
-- Sign-up links for --registration invite, by the SHA-256 of their code.
CREATE TABLE signup_links (
  code_hash   TEXT PRIMARY KEY,
  made_by     TEXT NOT NULL,
  uses_left   INTEGER NOT NULL CHECK (uses_left >= 0),
  expires_at  TEXT NOT NULL,
  created_at  TEXT NOT NULL
);
-- A name's other devices, each signed in with its own token (a device link);
-- the first device's token is players.token_hash.
CREATE TABLE devices (
  id          TEXT PRIMARY KEY,
  player_id   INTEGER NOT NULL REFERENCES players(id),
  token_hash  TEXT NOT NULL UNIQUE,
  label       TEXT NOT NULL,
  created_at  TEXT NOT NULL
);
CREATE INDEX devices_by_player ON devices(player_id);
-- An optional passphrase a name, as libsodium's Argon2id string (salt and
-- parameters included).
CREATE TABLE player_passphrases (
  player_id   INTEGER PRIMARY KEY REFERENCES players(id),
  hash        TEXT NOT NULL,
  created_at  TEXT NOT NULL
);
)sql"},
    {12, "identity changes reach every server: the change feed, bans, device codes, claim links, presence", R"sql(
-- Append-only feed of changes to who may sign in as a name (README "Accounts
-- and recovery"), each written in the change's own transaction; every server
-- reads the rows after the last it saw. AUTOINCREMENT: a seq is never used
-- twice, even after old rows are pruned.
CREATE TABLE identity_changes (
  seq         INTEGER PRIMARY KEY AUTOINCREMENT,
  time        TEXT NOT NULL,
  origin      TEXT NOT NULL,
  kind        TEXT NOT NULL,
  player_id   INTEGER NOT NULL,  -- 0 for a change of no player's (a table ended)
  name        TEXT NOT NULL,
  token_hash  TEXT,
  device_id   TEXT,
  detail      TEXT
);
CREATE INDEX identity_changes_by_time ON identity_changes(time);
CREATE TABLE player_bans (
  player_id   INTEGER PRIMARY KEY REFERENCES players(id),
  banned_at   TEXT NOT NULL
);
-- Device codes, by the SHA-256 of their code, so that any node can take one.
CREATE TABLE device_codes (
  code_hash   TEXT PRIMARY KEY,
  player_id   INTEGER NOT NULL REFERENCES players(id),
  expires_at  TEXT NOT NULL,
  created_at  TEXT NOT NULL
);
-- The operator's claim link of a name (parlour admin claim-link): the latest only.
CREATE TABLE claim_links (
  player_id   INTEGER PRIMARY KEY REFERENCES players(id),
  code_hash   TEXT NOT NULL,
  expires_at  TEXT NOT NULL,
  created_at  TEXT NOT NULL
);
-- Who is signed in on each running server, refreshed every few seconds: one
-- row a server, so reading it costs the same however long they have run.
CREATE TABLE node_presence (
  node        TEXT PRIMARY KEY,
  names       TEXT NOT NULL,  -- one name a line
  updated_at  TEXT NOT NULL
);
CREATE TABLE player_seen (
  player_id   INTEGER PRIMARY KEY REFERENCES players(id),
  last_seen   TEXT NOT NULL
);
)sql"},
    {13, "a transfer is one row holding both its legs; the ledger's entries are a view of them", R"sql(
-- Migration 8 wrote a movement as five rows: a transfer, two ledger entries
-- and the indexes tying them together, and the database checked at each
-- transfer that its entries cancel. Here a transfer holds both legs (who pays,
-- who is paid, one positive amount, each side's balance after), so double
-- entry holds by the row's shape, and a movement is one row and three index
-- entries. Each account's legs are read through one index per side.
--
-- A transfer that is not exactly one debit and one credit that cancel cannot
-- be carried over; the migration stops on it (a CHECK on a scratch row) and
-- the file keeps its version.
CREATE TEMP TABLE migration_13_guard (
  transfers_not_one_debit_and_one_credit_that_cancel INTEGER
    CHECK (transfers_not_one_debit_and_one_credit_that_cancel = 0)
);
INSERT INTO migration_13_guard
  SELECT count(*) FROM (
    SELECT t.id FROM transfers t LEFT JOIN ledger_entries e ON e.transfer_id = t.id
    GROUP BY t.id
    HAVING count(e.entry) <> 2 OR coalesce(sum(e.amount), 0) <> 0 OR coalesce(sum(e.amount > 0), 0) <> 1);
DROP TABLE migration_13_guard;

CREATE TABLE transfers_rebuilt (
  id                  INTEGER PRIMARY KEY,
  time                TEXT NOT NULL,
  table_id            TEXT,     -- NULL when not at a table; display only, so no foreign key
  game                TEXT,
  memo                TEXT NOT NULL,
  seq                 INTEGER,  -- the table_events seq of the step; NULL when none (a grant, a fault)
  deal                INTEGER,  -- the deal number at the table; NULL when none
  from_account        INTEGER NOT NULL REFERENCES accounts(id),  -- pays
  to_account          INTEGER NOT NULL REFERENCES accounts(id),  -- is paid
  amount              INTEGER NOT NULL CONSTRAINT transfer_amount_is_positive CHECK (amount > 0),
  from_balance_after  INTEGER NOT NULL,
  to_balance_after    INTEGER NOT NULL,
  CONSTRAINT transfer_is_between_two_accounts CHECK (from_account <> to_account)
);
INSERT INTO transfers_rebuilt(id, time, table_id, game, memo, seq, deal, from_account, to_account, amount,
                              from_balance_after, to_balance_after)
  SELECT t.id, t.time, t.table_id, t.game, t.memo, t.seq, t.deal, debit.account_id, credit.account_id,
         credit.amount, debit.balance_after, credit.balance_after
  FROM transfers t
  JOIN ledger_entries debit ON debit.transfer_id = t.id AND debit.amount < 0
  JOIN ledger_entries credit ON credit.transfer_id = t.id AND credit.amount > 0
  ORDER BY t.id;
DROP TABLE ledger_entries;
DROP TABLE transfers;
ALTER TABLE transfers_rebuilt RENAME TO transfers;

-- By table, account or account, each then by rowid (SQLite keeps an index's
-- rows in rowid order within a key): the newest of each first. By table no
-- longer by time as well: a shorter key, a cheaper insert (a table's latest
-- transfer is its newest).
CREATE INDEX transfers_by_table ON transfers(table_id);
CREATE INDEX transfers_by_payer ON transfers(from_account);
CREATE INDEX transfers_by_payee ON transfers(to_account);

-- The ledger is append-only.
CREATE TRIGGER transfers_are_not_updated BEFORE UPDATE ON transfers
BEGIN
  SELECT RAISE(ABORT, 'the ledger is append-only: a transfer is never updated');
END;
CREATE TRIGGER transfers_are_not_deleted BEFORE DELETE ON transfers
BEGIN
  SELECT RAISE(ABORT, 'the ledger is append-only: a transfer is never deleted');
END;

-- Each leg as the account sees it, numbered as the store wrote entries before
-- (a transfer's debit, then its credit): for reading by hand and by checks.
CREATE VIEW ledger_entries(entry, transfer_id, account_id, amount, balance_after) AS
  SELECT 2 * id - 1, id, from_account, -amount, from_balance_after FROM transfers
  UNION ALL
  SELECT 2 * id, id, to_account, amount, to_balance_after FROM transfers;
)sql"},
    {14, "a step's rows where they cost least: a pool's legs out of the by-account indexes, events and deal starts in commit order", R"sql(
-- Measured on the server's shape (parlour_bench --only storage, ten tables
-- of four players): a step's commit dirtied pages all over the by-account
-- indexes and the table-keyed b-trees.
--
-- A pool's legs (pool:TABLE:NAME, half of a table's legs) leave the
-- by-account indexes: nobody lists a pool's ledger by account (players read
-- their own and each other's, the operator the bank's), and a table's
-- movements are found by table. NULL marks a leg written before this
-- migration, which stays in the index either way.
ALTER TABLE transfers ADD COLUMN from_is_pool INTEGER CHECK (from_is_pool IN (0, 1));
ALTER TABLE transfers ADD COLUMN to_is_pool INTEGER CHECK (to_is_pool IN (0, 1));
DROP INDEX transfers_by_payer;
DROP INDEX transfers_by_payee;
CREATE INDEX transfers_by_payer ON transfers(from_account) WHERE from_is_pool IS NOT 1;
CREATE INDEX transfers_by_payee ON transfers(to_account) WHERE to_is_pool IS NOT 1;

-- Events and deal starts as rowid tables, each new row appended at the end
-- of its b-tree: keyed by table (WITHOUT ROWID), a row went amid its
-- table's rows and split pages it shared with other tables. Their keys stay
-- unique through the index each primary key now makes.
CREATE TABLE table_events_rebuilt (
  table_id  TEXT NOT NULL REFERENCES tables(id),
  seq       INTEGER NOT NULL,
  json      TEXT NOT NULL,
  PRIMARY KEY (table_id, seq)
);
INSERT INTO table_events_rebuilt(table_id, seq, json) SELECT table_id, seq, json FROM table_events ORDER BY table_id, seq;
DROP TABLE table_events;
ALTER TABLE table_events_rebuilt RENAME TO table_events;
CREATE TABLE deal_starts_rebuilt (
  table_id    TEXT NOT NULL REFERENCES tables(id),
  deal        INTEGER NOT NULL CHECK (deal > 0),
  seq         INTEGER NOT NULL,
  entry_json  TEXT NOT NULL,
  state_json  TEXT NOT NULL,
  PRIMARY KEY (table_id, deal)
);
INSERT INTO deal_starts_rebuilt(table_id, deal, seq, entry_json, state_json)
  SELECT table_id, deal, seq, entry_json, state_json FROM deal_starts ORDER BY table_id, deal;
DROP TABLE deal_starts;
ALTER TABLE deal_starts_rebuilt RENAME TO deal_starts;
)sql"},
    {15, "the step log's mark: how far the logged table steps are filed", R"sql(
-- The server's table steps are appended to a log beside the file and filed
-- into the tables above in large transactions (storage/step_filer.h). Each
-- filing records the last batch it filed in the same transaction, so that a
-- batch is filed once however often the log is read again.
CREATE TABLE step_log_filed (
  id   INTEGER PRIMARY KEY CHECK (id = 1),
  lsn  INTEGER NOT NULL CHECK (lsn >= 0)
);
)sql"},
};

static_assert(migrations_are_numbered_in_order(kMigrations),
              "migrations are numbered 1, 2, 3... alike in both backends (storage/schema.h)");
constexpr int kLatestVersion = kLatestSchemaVersion;

// ---------------------------------------------------------------------------
// Statements, prepared on first use and cached by their text's address.

constexpr const char* kRecordMigration =
    "INSERT INTO schema_version(version, description, applied_at) VALUES (?1, ?2, ?3)";

constexpr const char* kBeginImmediate = "BEGIN IMMEDIATE";
constexpr const char* kCommit = "COMMIT";
constexpr const char* kSavepoint = "SAVEPOINT table_write";
constexpr const char* kRollbackToSavepoint = "ROLLBACK TO table_write";
constexpr const char* kReleaseSavepoint = "RELEASE table_write";

// The reads of storage/sql_store.h's Query, with its parameters in its order.
// rowid order is creation order.
constexpr const char* sql_of(Query query) {
  switch (query) {
    case Query::schema_version: return "SELECT coalesce(max(version), 0) FROM schema_version";
    case Query::all_players: return "SELECT " PARLOUR_PLAYER_COLUMNS " FROM players ORDER BY id";
    case Query::find_player: return "SELECT " PARLOUR_PLAYER_COLUMNS " FROM players WHERE name = ?1";
    case Query::find_player_by_token_hash:
      return "SELECT " PARLOUR_PLAYER_COLUMNS " FROM players WHERE token_hash = ?1";
    case Query::balance: return "SELECT balance FROM accounts WHERE name = ?1";
    // The prefix followed by byte 0xFF, which never occurs in UTF-8 text,
    // bounds exactly the names starting with the prefix, and uses the index.
    case Query::balances_with_prefix:
      return "SELECT name, balance FROM accounts WHERE name >= ?1 AND name < ?1 || CAST(x'FF' AS TEXT) ORDER BY name";
    // A player's (or the bank's) legs from either side of its transfers, each
    // side read newest first through its own partial index (schema 14) and cut
    // at the page's size, so a page costs its rows however long the account's
    // history. An entry is 2 * transfer - 1 for the payer's leg, 2 * transfer
    // for the payee's. A pool's legs are in no by-account index: its ledger is
    // read newest first through every transfer, for tests and checks (no
    // request lists a pool's ledger). The test on ?1's prefix is a constant,
    // decided once before any row is read.
    case Query::ledger_page: return R"sql(
SELECT e.entry, e.time, e.amount, e.balance_after, e.table_id, e.game, e.memo, coalesce(tb.is_private, 0),
       e.seq, e.deal
FROM (
  SELECT * FROM (
    SELECT 2 * id - 1 AS entry, time, -amount AS amount, from_balance_after AS balance_after, table_id, game, memo,
           seq, deal
    FROM transfers WHERE from_account = (SELECT id FROM accounts WHERE name = ?1) AND from_is_pool IS NOT 1
                     AND id <= ?2 / 2 AND substr(?1, 1, 5) <> 'pool:'
    ORDER BY id DESC LIMIT ?3)
  UNION ALL
  SELECT * FROM (
    SELECT 2 * id AS entry, time, amount, to_balance_after, table_id, game, memo, seq, deal
    FROM transfers WHERE to_account = (SELECT id FROM accounts WHERE name = ?1) AND to_is_pool IS NOT 1
                     AND id <= (?2 - 1) / 2 AND substr(?1, 1, 5) <> 'pool:'
    ORDER BY id DESC LIMIT ?3)
  UNION ALL
  SELECT * FROM (
    SELECT CASE WHEN t.from_account = a.id THEN 2 * t.id - 1 ELSE 2 * t.id END AS entry, t.time,
           CASE WHEN t.from_account = a.id THEN -t.amount ELSE t.amount END,
           CASE WHEN t.from_account = a.id THEN t.from_balance_after ELSE t.to_balance_after END,
           t.table_id, t.game, t.memo, t.seq, t.deal
    FROM accounts a JOIN transfers t ON t.from_account = a.id OR t.to_account = a.id
    WHERE a.name = ?1 AND substr(?1, 1, 5) = 'pool:'
      AND CASE WHEN t.from_account = a.id THEN 2 * t.id - 1 ELSE 2 * t.id END < ?2
    ORDER BY t.id DESC LIMIT ?3)
) e
LEFT JOIN tables tb ON tb.id = e.table_id
ORDER BY e.entry DESC
LIMIT ?3)sql";
    case Query::total_of_all_accounts: return "SELECT coalesce(sum(balance), 0) FROM accounts";
    // A movement with the bank on either side is a grant, not winnings.
    case Query::table_nets: return R"sql(
SELECT a.name, sum(leg.amount)
FROM (
  SELECT from_account AS account, -amount AS amount, from_account AS payer, to_account AS payee
  FROM transfers WHERE table_id = ?1
  UNION ALL
  SELECT to_account, amount, from_account, to_account FROM transfers WHERE table_id = ?1
) leg
JOIN accounts a ON a.id = leg.account
WHERE coalesce((SELECT id FROM accounts WHERE name = 'bank'), 0) NOT IN (leg.payer, leg.payee)
GROUP BY a.name
ORDER BY a.name)sql";
    case Query::find_table: return "SELECT " PARLOUR_TABLE_COLUMNS " FROM tables WHERE id = ?1";
    case Query::tables_with_status:
      return "SELECT " PARLOUR_TABLE_COLUMNS " FROM tables WHERE status = ?1 ORDER BY rowid";
    case Query::tables_hosted_since: return "SELECT " PARLOUR_TABLE_COLUMNS R"sql(
FROM (SELECT rowid AS made, * FROM tables
      WHERE host = ?1 COLLATE NOCASE
        AND (created_at >= ?2
             OR (SELECT t.time FROM transfers t WHERE t.table_id = tables.id ORDER BY t.id DESC LIMIT 1) >= ?2)
      ORDER BY rowid DESC
      LIMIT ?3)
ORDER BY made)sql";
    case Query::seats: return "SELECT seat, player, bot, bot_level FROM table_seats WHERE table_id = ?1 ORDER BY seat";
    case Query::events_after: return "SELECT seq, json FROM table_events WHERE table_id = ?1 AND seq > ?2 ORDER BY seq";
    case Query::results: return "SELECT json FROM results WHERE table_id = ?1 ORDER BY id";
    case Query::events_between:
      return "SELECT seq, json FROM table_events WHERE table_id = ?1 AND seq > ?2 AND seq <= ?3 ORDER BY seq";
    case Query::deal_starts: return "SELECT deal, seq, entry_json, CASE WHEN state_json = '' THEN 0 ELSE 1 END FROM deal_starts WHERE table_id = ?1 ORDER BY deal";
    case Query::deal_state: return "SELECT state_json FROM deal_starts WHERE table_id = ?1 AND deal = ?2";
    case Query::recovery_hash: return "SELECT code_hash FROM player_recovery WHERE player_id = ?1";
    case Query::set_recovery_hash: return R"sql(
INSERT INTO player_recovery(player_id, code_hash, created_at) VALUES (?1, ?2, ?3)
ON CONFLICT (player_id) DO UPDATE SET code_hash = excluded.code_hash, created_at = excluded.created_at
RETURNING player_id)sql";
    case Query::all_devices: return R"sql(
SELECT d.id, p.name, d.token_hash, d.label, d.created_at FROM devices d JOIN players p ON p.id = d.player_id
ORDER BY d.created_at, d.id)sql";
    case Query::insert_device: return R"sql(
INSERT INTO devices(id, player_id, token_hash, label, created_at)
SELECT ?1, id, ?3, ?4, ?5 FROM players WHERE id = ?2
RETURNING id)sql";
    case Query::delete_device: return "DELETE FROM devices WHERE player_id = ?1 AND id = ?2 RETURNING token_hash";
    case Query::delete_devices_of: return "DELETE FROM devices WHERE player_id = ?1 RETURNING id";
    case Query::passphrase_hash: return "SELECT hash FROM player_passphrases WHERE player_id = ?1";
    case Query::set_passphrase_hash: return R"sql(
INSERT INTO player_passphrases(player_id, hash, created_at) VALUES (?1, ?2, ?3)
ON CONFLICT (player_id) DO UPDATE SET hash = excluded.hash, created_at = excluded.created_at
RETURNING player_id)sql";
    case Query::add_recovery_hash: return R"sql(
INSERT INTO player_recovery(player_id, code_hash, created_at) SELECT id, ?2, ?3 FROM players WHERE id = ?1
ON CONFLICT (player_id) DO NOTHING
RETURNING player_id)sql";
    case Query::swap_recovery_hash: return R"sql(
UPDATE player_recovery SET code_hash = ?3, created_at = ?4 WHERE player_id = ?1 AND code_hash = ?2
RETURNING player_id)sql";
    case Query::set_token_hash: return "UPDATE players SET token_hash = ?2 WHERE id = ?1 RETURNING id";
    case Query::insert_signup_link: return R"sql(
INSERT INTO signup_links(code_hash, made_by, uses_left, expires_at, created_at) VALUES (?1, ?2, ?3, ?4, ?5)
RETURNING uses_left)sql";
    case Query::use_signup_link: return R"sql(
UPDATE signup_links SET uses_left = uses_left - 1
WHERE code_hash = ?1 AND uses_left > 0 AND expires_at > ?2
RETURNING uses_left)sql";
    case Query::lock_identity_feed: return "SELECT 1";
    case Query::append_identity_change: return R"sql(
INSERT INTO identity_changes(time, origin, kind, player_id, name, token_hash, device_id, detail)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) RETURNING seq)sql";
    case Query::identity_changes_after: return R"sql(
SELECT seq, time, origin, kind, player_id, name, token_hash, device_id, detail FROM identity_changes
WHERE seq > ?1 ORDER BY seq LIMIT ?2)sql";
    case Query::last_identity_change: return "SELECT coalesce(max(seq), 0) FROM identity_changes";
    case Query::prune_identity_changes: return "DELETE FROM identity_changes WHERE time < ?1 RETURNING seq";
    case Query::prune_device_codes: return "DELETE FROM device_codes WHERE expires_at < ?1 RETURNING code_hash";
    case Query::prune_claim_links: return "DELETE FROM claim_links WHERE expires_at < ?1 RETURNING player_id";
    case Query::banned_names: return "SELECT p.name FROM player_bans b JOIN players p ON p.id = b.player_id ORDER BY p.id";
    case Query::ban_player: return R"sql(
INSERT INTO player_bans(player_id, banned_at) VALUES (?1, ?2) ON CONFLICT (player_id) DO NOTHING
RETURNING player_id)sql";
    case Query::unban_player: return "DELETE FROM player_bans WHERE player_id = ?1 RETURNING player_id";
    case Query::insert_device_code: return R"sql(
INSERT INTO device_codes(code_hash, player_id, expires_at, created_at) VALUES (?1, ?2, ?3, ?4)
RETURNING code_hash)sql";
    case Query::use_device_code: return "DELETE FROM device_codes WHERE code_hash = ?1 RETURNING player_id, expires_at";
    case Query::set_claim_link: return R"sql(
INSERT INTO claim_links(player_id, code_hash, expires_at, created_at) SELECT id, ?2, ?3, ?4 FROM players WHERE id = ?1
ON CONFLICT (player_id) DO UPDATE SET code_hash = excluded.code_hash, expires_at = excluded.expires_at,
  created_at = excluded.created_at
RETURNING player_id)sql";
    case Query::claim_link_hash: return "SELECT code_hash FROM claim_links WHERE player_id = ?1 AND expires_at > ?2";
    case Query::use_claim_link: return "DELETE FROM claim_links WHERE player_id = ?1 AND code_hash = ?2 RETURNING player_id";
    case Query::find_player_by_id: return "SELECT " PARLOUR_PLAYER_COLUMNS " FROM players WHERE id = ?1";
    case Query::rename_player: return "UPDATE players SET name = ?2 WHERE id = ?1 RETURNING id";
    case Query::rename_account: return "UPDATE accounts SET name = ?2 WHERE name = ?1 RETURNING id";
    case Query::unfinished_table_by_invite: return "SELECT id FROM tables WHERE invite = ?1 AND status <> 'finished'";
    case Query::publish_presence: return R"sql(
INSERT INTO node_presence(node, names, updated_at) VALUES (?1, ?2, ?3)
ON CONFLICT (node) DO UPDATE SET names = excluded.names, updated_at = excluded.updated_at
RETURNING node)sql";
    case Query::presence_since: return "SELECT node, names, updated_at FROM node_presence WHERE updated_at >= ?1 ORDER BY node";
    case Query::mark_seen: return R"sql(
INSERT INTO player_seen(player_id, last_seen) SELECT id, ?2 FROM players WHERE name = ?1
ON CONFLICT (player_id) DO UPDATE SET last_seen = excluded.last_seen
RETURNING player_id)sql";
    case Query::last_seen: return "SELECT p.name, s.last_seen FROM players p JOIN player_seen s ON s.player_id = p.id ORDER BY p.name";
    case Query::steps_filed_through: return "SELECT coalesce(max(lsn), 0) FROM step_log_filed";
    case Query::file_steps_through: return R"sql(
INSERT INTO step_log_filed(id, lsn) VALUES (1, ?1) ON CONFLICT (id) DO UPDATE SET lsn = excluded.lsn RETURNING lsn)sql";
    case Query::table_failure: return "SELECT failure FROM tables WHERE id = ?1 AND failure IS NOT NULL";
  }
  return "";
}

constexpr const char* kInsertPlayer = "INSERT INTO players(name, token_hash, created_at) VALUES (?1, ?2, ?3)";
constexpr const char* kLease = "SELECT node, generation FROM table_leases WHERE table_id = ?1";

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
// From schema 13 on: one row, both legs.
#define PARLOUR_TRANSFER_WITH_LEGS                                                                            \
  "INSERT INTO transfers(time, table_id, game, memo, seq, deal, from_account, to_account, amount, "          \
  "from_balance_after, to_balance_after) VALUES "
constexpr const char* kInsertTransferWithLegs = PARLOUR_TRANSFER_WITH_LEGS "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)";
// From schema 14 on: and whether each side is a pool's (which no by-account index lists).
#define PARLOUR_TRANSFER_WITH_FLAGGED_LEGS                                                                    \
  "INSERT INTO transfers(time, table_id, game, memo, seq, deal, from_account, to_account, amount, "          \
  "from_balance_after, to_balance_after, from_is_pool, to_is_pool) VALUES "
constexpr const char* kInsertTransferWithFlaggedLegs =
    PARLOUR_TRANSFER_WITH_FLAGGED_LEGS "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)";
constexpr const char* kAddToAccount =
    "UPDATE accounts SET balance = balance + ?2 WHERE name = ?1 RETURNING id, balance";
constexpr const char* kOpenAccount = "INSERT INTO accounts(name, balance) VALUES (?1, ?2) RETURNING id, balance";
// A batch (storage/sql_store.h, BatchPlan): balances read once, without
// RETURNING (SQLite answers RETURNING through a temporary b-tree with a page
// cache of its own, made and freed on every call), and moved once; its
// events, ledger entries and transfers each in multi-row INSERTs.
constexpr const char* kReadAccount = "SELECT id, balance FROM accounts WHERE name = ?1";
constexpr const char* kOpenEmptyAccount = "INSERT INTO accounts(name, balance) VALUES (?1, 0)";
constexpr const char* kMoveBalance = "UPDATE accounts SET balance = balance + ?2 WHERE id = ?1";

// The rows a batch writes many of at once: a multi-row INSERT of each kind,
// prepared for 1, 2, 4 ... kMostRowsAStatement rows, so that a batch of n
// rows takes one statement for each bit of n.
enum class RowKind { event, entry, transfer, transfer_with_legs, transfer_with_flagged_legs };
constexpr int kRowKinds = 5;
constexpr int kMostRowsAStatement = 64;
constexpr int kRowSizes = 7;  // 1, 2, 4 ... 64

struct RowInsert {
  const char* head;
  const char* row;  // one row's parameters
};
constexpr RowInsert kRowInserts[kRowKinds] = {
    {"INSERT INTO table_events(table_id, seq, json) VALUES ", "(?,?,?)"},
    {"INSERT INTO ledger_entries(transfer_id, account_id, amount, balance_after) VALUES ", "(?,?,?,?)"},
    // After its entries: the trigger of migration 8 checks them for each row.
    {"INSERT INTO transfers(id, time, table_id, game, memo, seq, deal) VALUES ", "(?,?,?,?,?,?,?)"},
    // From schema 13 on, the whole movement.
    {PARLOUR_TRANSFER_WITH_LEGS, "(?,?,?,?,?,?,?,?,?,?,?)"},
    // From schema 14 on, with each side's pool flag.
    {PARLOUR_TRANSFER_WITH_FLAGGED_LEGS, "(?,?,?,?,?,?,?,?,?,?,?,?,?)"},
};
#undef PARLOUR_TRANSFER_WITH_LEGS
#undef PARLOUR_TRANSFER_WITH_FLAGGED_LEGS

std::string multi_row_insert(RowKind kind, int rows) {
  const RowInsert& insert = kRowInserts[static_cast<int>(kind)];
  std::string sql = insert.head;
  for (int row = 0; row < rows; ++row) {
    if (row > 0) sql += ',';
    sql += insert.row;
  }
  return sql;
}

constexpr const char* kInsertEntry =
    "INSERT INTO ledger_entries(transfer_id, account_id, amount, balance_after) VALUES (?1, ?2, ?3, ?4)";

constexpr const char* kInsertTable = R"sql(
INSERT INTO tables(id, game, options_json, seed, host, status, is_private, invite, deck_json, created_at)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10))sql";
// Apart from the insert, which so works on a file of any schema version.
constexpr const char* kSetClock = "UPDATE tables SET clock_json = ?2 WHERE id = ?1";
constexpr const char* kSetStatus = "UPDATE tables SET status = ?2 WHERE id = ?1";
constexpr const char* kSetFailure = "UPDATE tables SET status = 'finished', failure = ?2 WHERE id = ?1";
constexpr const char* kDeleteSeats = "DELETE FROM table_seats WHERE table_id = ?1";
constexpr const char* kInsertSeat =
    "INSERT INTO table_seats(table_id, seat, player, bot, bot_level) VALUES (?1, ?2, ?3, ?4, ?5)";
constexpr const char* kInsertEvent = "INSERT INTO table_events(table_id, seq, json) VALUES (?1, ?2, ?3)";
constexpr const char* kInsertResult = "INSERT INTO results(table_id, time, json) VALUES (?1, ?2, ?3)";
constexpr const char* kInsertDealStart =
    "INSERT INTO deal_starts(table_id, deal, seq, entry_json, state_json) VALUES (?1, ?2, ?3, ?4, ?5)";

constexpr int kBusyTimeoutMs = 5000;

// The WAL's checkpoints on a thread and a connection of their own (Store::
// housekeep_in_background): PASSIVE ten times a second, so the writer does not
// wait on them.
//
// The writer starts the WAL over only when a checkpoint has copied all of it,
// which a passive one never does while commits keep coming (each adds frames
// during the copy): under a steady load the WAL grew without end (650 MB in a
// ten-second bench). So past WalLimits::restart_after_frames the Checkpointer
// closes the commit gate (every write transaction passes it) and copies the
// little that came in during its last pass: with nothing left to copy, the
// writer's next transaction starts the WAL over. Commits wait that long (a
// small copy and two fsyncs, about 10 ms) once per restart_after_frames of WAL.
// A RESTART or TRUNCATE checkpoint would do the same under SQLite's own locks,
// but its writer waits in the busy handler's sleeps (1, 2, 5, 10 ms...): 60-110
// ms in the bench.
class Checkpointer {
 public:
  static constexpr auto kEvery = std::chrono::milliseconds(100);
  static constexpr int kFewFrames = 64;
  static constexpr int kPassesBeforeTheGate = 3;
  static constexpr int kNice = 10;

  Checkpointer(std::string path, std::mutex& commit_gate, int restart_after_frames,
               std::function<void(const std::string&)> report)
      : commit_gate_(commit_gate),
        restart_after_frames_(restart_after_frames),
        thread_([this, path = std::move(path), report = std::move(report)](std::stop_token stop) {
          run(path, report, stop);
        }) {}
  ~Checkpointer() {
    thread_.request_stop();
    wake_.notify_all();
  }

 private:
  void run(const std::string& path, const std::function<void(const std::string&)>& report, std::stop_token stop) {
    // Behind the I/O threads on a busy CPU: a pass is copying, not answering
    // anyone (at full priority, passes every half second held a core's actions
    // back for their length: act -> ok p99 at half load 4-6 -> 5-11 ms).
    // Lowering a thread's own priority needs no privilege; if it fails, the
    // checkpoints still run.
    setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), kNice);
    std::string failed;
    try {
      SQLite::Database db(path, SQLite::OPEN_READWRITE, kBusyTimeoutMs);
      // A connection learns the file is in WAL mode when it first reads it;
      // until then a checkpoint does nothing.
      db.exec("SELECT count(*) FROM sqlite_master");
      std::unique_lock lock(mutex_);
      for (;;) {
        wake_.wait_for(lock, stop, kEvery, [] { return false; });  // woken early only by the stop
        if (stop.stop_requested()) break;
        lock.unlock();
        int frames = 0;
        int rc = sqlite3_wal_checkpoint_v2(db.getHandle(), nullptr, SQLITE_CHECKPOINT_PASSIVE, &frames, nullptr);
        if (rc == SQLITE_OK && frames > restart_after_frames_) {
          // Each pass copies what was committed during the last, a shorter time: after a few, the gate
          // holds commits off for one small copy (and its fsync) only.
          for (int pass = 0, before = frames; rc == SQLITE_OK && pass < kPassesBeforeTheGate; ++pass, before = frames) {
            rc = sqlite3_wal_checkpoint_v2(db.getHandle(), nullptr, SQLITE_CHECKPOINT_PASSIVE, &frames, nullptr);
            if (frames - before < kFewFrames) break;
          }
          const std::lock_guard hold_commits(commit_gate_);
          if (rc == SQLITE_OK)
            rc = sqlite3_wal_checkpoint_v2(db.getHandle(), nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
        }
        // BUSY: another checkpoint (a backup, `parlour check`) is running; the next try will do.
        if (rc != SQLITE_OK && rc != SQLITE_BUSY && report)
          report("a WAL checkpoint of " + path + " failed: " + sqlite3_errstr(rc));
        lock.lock();
      }
    } catch (const std::exception& e) {
      failed = e.what();
    }
    if (!failed.empty() && report) report("the WAL checkpoints of " + path + " stopped: " + failed);
  }

  std::mutex& commit_gate_;
  const int restart_after_frames_;
  std::mutex mutex_;
  std::condition_variable_any wake_;
  std::jthread thread_;  // last: it stops and is joined before the rest goes
};

// Optional text columns: "" in C++ is NULL in SQL (storage/sql_store.h, Row).
// `copy` false: the text outlives the statement's run, and is not copied.
void bind_text_or_null(SQLite::Statement& statement, int index, const std::string& text, bool copy = true) {
  if (text.empty()) {
    statement.bind(index);
  } else if (copy) {
    statement.bind(index, text);
  } else {
    statement.bindNoCopy(index, text);
  }
}

void bind_integer_or_null(SQLite::Statement& statement, int index, std::optional<std::int64_t> value) {
  if (value) {
    statement.bind(index, *value);
  } else {
    statement.bind(index);
  }
}

void bind_params(SQLite::Statement& statement, const Params& params) {
  for (std::size_t i = 0; i < params.size(); ++i) {
    const int index = static_cast<int>(i) + 1;
    if (const auto* integer = std::get_if<std::int64_t>(&params[i])) statement.bind(index, *integer);
    else if (const auto* text = std::get_if<std::string>(&params[i])) statement.bind(index, *text);
    else statement.bind(index);
  }
}

// The statement's current row, as storage/sql_store.h reads rows.
class SqliteRow final : public Row {
 public:
  explicit SqliteRow(SQLite::Statement& statement) : statement_(statement) {}
  bool is_null(int column) const override { return statement_.getColumn(column).isNull(); }
  std::int64_t integer(int column) const override { return statement_.getColumn(column).getInt64(); }
  std::string text(int column) const override { return statement_.getColumn(column).getString(); }

 private:
  SQLite::Statement& statement_;
};

// SQLiteCpp's exceptions, and the folder a new file is made in.
std::optional<Fault> sqlite_fault(const std::exception& e) {
  if (dynamic_cast<const SQLite::Exception*>(&e) || dynamic_cast<const std::filesystem::filesystem_error*>(&e))
    return Fault{e.what(), false};
  return std::nullopt;
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

// Sets a statement's parameters back to NULL when it is done: what a batch
// binds without copying is the batch's, and must not outlive it, even unused.
class UnboundAfter {
 public:
  explicit UnboundAfter(SQLite::Statement& statement) : statement_(statement) {}
  ~UnboundAfter() {
    try {
      statement_.clearBindings();  // cannot fail: SQLite's returns SQLITE_OK always
    } catch (const SQLite::Exception&) {
    }
  }
  UnboundAfter(const UnboundAfter&) = delete;
  UnboundAfter& operator=(const UnboundAfter&) = delete;

 private:
  SQLite::Statement& statement_;
};

// Rolls back a transaction begun with kBeginImmediate unless commit() was
// reached; SQLite::Transaction would re-prepare BEGIN and COMMIT every time.
class ImmediateTransaction {
 public:
  // `gate`: held from BEGIN to COMMIT or ROLLBACK (see Checkpointer).
  ImmediateTransaction(SQLite::Statement& begin, SQLite::Statement& commit, SQLite::Database& db, std::mutex& gate)
      : gate_(gate), commit_(commit), db_(db) {
    Borrowed(begin)->exec();
  }
  ~ImmediateTransaction() {
    if (!committed_) db_.tryExec("ROLLBACK");
  }
  ImmediateTransaction(const ImmediateTransaction&) = delete;
  ImmediateTransaction& operator=(const ImmediateTransaction&) = delete;

  void commit() {
    Borrowed(commit_)->exec();
    committed_ = true;
  }

 private:
  std::unique_lock<std::mutex> gate_;
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

// ---------------------------------------------------------------------------

// One SQLite file, open on one connection, migrated.
class SqliteDatabase final : public SqlBackend {
 public:
  SqliteDatabase(const std::string& file_path, int migrate_up_to) : path(file_path), db(open(file_path)) {
    configure();
    migrate(migrate_up_to);
  }

  std::string describe() const override { return "SQLite file " + path; }

  void each_row(Query query, const Params& params, const EachRow& each) override {
    catch_up();
    Borrowed statement(cached(sql_of(query)));
    bind_params(*statement, params);
    const SqliteRow row(*statement);
    while (statement->executeStep()) each(row);
  }

  std::unique_ptr<WriteTransaction> begin_write(const std::vector<TableWrite>& writes) override;

  SQLite::Statement& cached(const char* sql) {
    std::unique_ptr<SQLite::Statement>& slot = statements[sql];
    if (!slot) slot = std::make_unique<SQLite::Statement>(db, sql);
    return *slot;
  }

  ImmediateTransaction begin_immediate() {
    catch_up();
    return ImmediateTransaction(cached(kBeginImmediate), cached(kCommit), db, commit_gate);
  }

  // A filing writes each page it changes once, if its cache holds them all
  // until the commit: the appended rows' pages, and a few pages of each
  // table's keys in the indexes (events, transfers and their by-table and
  // by-account indexes), which at a thousand tables are thousands of pages.
  // SQLite's default of 2 MiB then wrote pages to the WAL before the commit
  // and read them back (bench: storage/logged commit at 1,000 tables, 44 -> 30
  // us of CPU a step with 16 MiB or more). Only a filing asks (the filer's
  // connection, or a store filing what a crash left); the cache grows no
  // larger than a filing needs, so that a few tables keep the default's
  // memory.
  void make_room_for_writing(std::size_t bytes, std::size_t tables) override {
    constexpr std::int64_t kLeastKib = 2 * 1024;  // SQLite's default
    constexpr std::int64_t kMostKib = 32 * 1024;
    constexpr std::int64_t kKibATable = 16;  // eight 2 KiB pages
    const std::int64_t wanted = static_cast<std::int64_t>(2 * bytes / 1024) + kKibATable * static_cast<std::int64_t>(tables);
    const std::int64_t kib = std::clamp(wanted, kLeastKib, kMostKib);
    if (kib == cache_kib_) return;
    db.exec("PRAGMA cache_size=-" + std::to_string(kib));
    cache_kib_ = kib;
  }

  // A Checkpointer copies the WAL into the file (an in-memory database has no
  // WAL to checkpoint). The writer still checkpoints past the second of
  // `limits`: a writer that outpaces the Checkpointer's copying (or one whose
  // Checkpointer failed) then waits on a TRUNCATE checkpoint of its own rather
  // than grow the WAL without end (SQLite's own autocheckpoint, being passive,
  // gives up whenever it finds the Checkpointer's running).
  void housekeep_in_background(std::function<void(const std::string&)> report, WalLimits limits) override {
    if (path.empty() || path == ":memory:" || checkpointer) return;
    writer_checkpoints_after_frames = limits.writer_checkpoints_after_frames;
    sqlite3_wal_hook(db.getHandle(), &SqliteDatabase::checkpoint_when_too_long, this);
    checkpointer = std::make_unique<Checkpointer>(path, commit_gate, limits.restart_after_frames, std::move(report));
  }

  // Called after each commit with the WAL's length; a failed checkpoint here is
  // not the commit's failure, and the next commit tries again.
  static int checkpoint_when_too_long(void* self, sqlite3* handle, const char* name, int frames) {
    if (frames <= static_cast<SqliteDatabase*>(self)->writer_checkpoints_after_frames) return SQLITE_OK;
    // Only one checkpoint runs at a time, and a second is refused at once
    // (SQLITE_BUSY, no busy handler): wait out the Checkpointer's.
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::milliseconds(kBusyTimeoutMs);
    while (sqlite3_wal_checkpoint_v2(handle, name, SQLITE_CHECKPOINT_TRUNCATE, nullptr, nullptr) == SQLITE_BUSY &&
           std::chrono::steady_clock::now() < give_up)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return SQLITE_OK;
  }

  // The multi-row INSERT of `rows` rows of a kind, `rows` a power of two up to kMostRowsAStatement.
  SQLite::Statement& row_insert(RowKind kind, int rows) {
    const int size = std::countr_zero(static_cast<unsigned>(rows));
    std::unique_ptr<SQLite::Statement>& slot = row_inserts[static_cast<int>(kind)][size];
    if (!slot) slot = std::make_unique<SQLite::Statement>(db, multi_row_insert(kind, rows));
    return *slot;
  }

  // Before a read or a transaction of this connection's own: the steps this
  // process logged are filed first (storage/step_filer.h). Not inside a
  // transaction, which sees its own snapshot (and whose write lock a filing
  // would wait on).
  void catch_up() {
    if (filing_point && sqlite3_get_autocommit(db.getHandle()) != 0) filing_point->catch_up();
  }

  std::string path;
  SQLite::Database db;
  std::int64_t cache_kib_ = 0;  // the page cache make_room_for_writing set (0: SQLite's default)
  // Where this process's step filer is found; null for the filer's own connection and in-memory files.
  std::shared_ptr<FilingPoint> filing_point;
  // Declared after db so that they are finalized before the connection closes.
  std::unordered_map<const char*, std::unique_ptr<SQLite::Statement>> statements;
  std::unique_ptr<SQLite::Statement> row_inserts[kRowKinds][kRowSizes];
  // The schema the writes are shaped for: how a posting is written changed at
  // versions 6, 7, 8 and 13 (insert_transfer, apply_posting); a file opened at an
  // older version (the migration tests) keeps its own shape.
  int schema = 0;
  // Passed by every write transaction; the Checkpointer closes it now and then.
  std::mutex commit_gate;
  int writer_checkpoints_after_frames = 0;
  // Last: stopped before the writer's connection closes (whose close checkpoints the rest).
  std::unique_ptr<Checkpointer> checkpointer;

 private:
  static SQLite::Database open(const std::string& path) {
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    if (!parent.empty()) {
      Guard{sqlite_fault}([&] { return "creating the folder of database " + path; },
                          [&] { std::filesystem::create_directories(parent); });
    }
    stop_counting_memory();
    // The one connection that writes: its commits reach the WAL in one write each.
    return SQLite::Database(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE, kBusyTimeoutMs, wal_coalescing_vfs());
  }

  // SQLite counts every allocation for sqlite3_status() under a process-wide
  // mutex; nothing here reads those counts. Settable only before SQLite first
  // initializes (a process that opened a connection another way keeps counting).
  static void stop_counting_memory() {
    static std::once_flag once;
    std::call_once(once, [] { sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); });
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
    // by many commits is copied to the database once (the server's writer
    // leaves them to a Checkpointer). The WAL is cut back to 512 MiB after a
    // checkpoint so that it does not keep a peak size; no lower, for the
    // server's WAL grows to about 256 MiB (WalLimits) under a steady load, and
    // cutting it back each time cost the writer tens of ms (bench).
    db.exec("PRAGMA wal_autocheckpoint=4000");
    db.exec("PRAGMA journal_size_limit=536870912");
    db.exec("PRAGMA foreign_keys=ON");
    // A statement that writes several rows keeps the pages it changes in a
    // statement journal, to undo itself on a broken constraint. On a file's
    // default temp store, that journal takes a 64 KiB buffer a statement,
    // which glibc hands back to the kernel when it is freed (a heap trim and
    // a TLB flush each time: a quarter of a batch's CPU). In memory, it grows
    // by small chunks instead. Sorts and temporary tables also stay in memory:
    // the server's are small.
    db.exec("PRAGMA temp_store=MEMORY");
  }

  // --- Migrations ---

  int current_version() {
    Borrowed query(cached(sql_of(Query::schema_version)));
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
    Guard{sqlite_fault}(
        [&] {
          return "applying migration " + std::to_string(migration.version) + " (" + migration.description + ") to " +
                 path;
        },
        [&] {
          ImmediateTransaction transaction = begin_immediate();
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
        });
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
};

// A write transaction on the file: BEGIN IMMEDIATE takes the write lock.
class SqliteWrite final : public WriteTransaction {
 public:
  explicit SqliteWrite(SqliteDatabase& database) : database_(database), transaction_(database.begin_immediate()) {}

  void commit() override { transaction_.commit(); }

  void each_row(Query query, const Params& params, const EachRow& each) override {
    database_.each_row(query, params, each);
  }

  std::optional<Fence> lease_of(const std::string& table) override {
    Borrowed lease(cached(kLease));
    lease->bind(1, table);
    if (!lease->executeStep()) return std::nullopt;
    return Fence{lease->getColumn(0).getString(), lease->getColumn(1).getInt64()};
  }

  std::int64_t insert_player(const std::string& name, const std::string& token_hash,
                             const std::string& time) override {
    exec(kInsertPlayer, name, token_hash, time);
    return database_.db.getLastInsertRowid();
  }

  void insert_table(const TableRecord& table, const std::string& time) override {
    Borrowed insert(cached(kInsertTable));
    insert->bind(1, table.id);
    insert->bind(2, table.game);
    insert->bind(3, table.options_json);
    insert->bind(4, std::bit_cast<std::int64_t>(table.seed));
    insert->bind(5, table.host);
    insert->bind(6, table.status);
    insert->bind(7, table.is_private ? 1 : 0);
    bind_text_or_null(*insert, 8, table.invite);
    bind_text_or_null(*insert, 9, table.deck_json);
    insert->bind(10, time);
    insert->exec();
    if (!table.clock_json.empty()) exec(kSetClock, table.id, table.clock_json);
  }

  void insert_seat(const std::string& table, const Seat& seat) override {
    Borrowed insert(cached(kInsertSeat));
    insert->bind(1, table);
    insert->bind(2, seat.seat);
    bind_text_or_null(*insert, 3, seat.player);
    insert->bind(4, seat.bot ? 1 : 0);
    insert->bind(5, seat.bot_level);
    insert->exec();
  }

  void delete_seats(const std::string& table) override { exec(kDeleteSeats, table); }

  void insert_deal_start(const std::string& table, const DealStart& start) override {
    exec(kInsertDealStart, table, std::int64_t{start.deal}, start.seq, start.entry_json, start.state_json);
  }
  void append_event(const std::string& table, const Event& event) override {
    if (batch_) {
      held_events_.push_back({&table, &event});  // written with the batch's others (finish_batch)
      return;
    }
    exec(kInsertEvent, table, event.seq, event.json);
  }

  std::int64_t set_status(const std::string& table, const std::string& status) override {
    return exec(kSetStatus, table, status);
  }

  void set_failure(const std::string& table, const std::string& failure) override {
    exec(kSetFailure, table, failure);
  }

  void append_result(const std::string& table, const std::string& json, const std::string& time) override {
    exec(kInsertResult, table, time, json);
  }

  // Before schema 13, five rows that only make sense together, in the order the schema checks.
  bool apply_posting(const Posting& posting, const std::string& time) override {
    if (database_.schema >= 13) {
      const std::optional<AccountChange> debit = debit_account(posting);
      if (!debit) return false;
      const AccountChange credit = add_to_account(posting.to, posting.amount);
      Borrowed insert(cached(flags_pools() ? kInsertTransferWithFlaggedLegs : kInsertTransferWithLegs));
      UnboundAfter unbound(*insert);
      bind_transfer_with_legs(*insert, 1, posting, time, *debit, credit, flags_pools());
      insert->exec();
      return true;
    }
    if (database_.schema >= 8) {
      const std::int64_t transfer_id = next_transfer_id();
      const std::optional<AccountChange> debit = debit_account(posting);
      if (!debit) return false;
      const AccountChange credit = add_to_account(posting.to, posting.amount);
      insert_entry(transfer_id, *debit, -posting.amount);
      insert_entry(transfer_id, credit, posting.amount);
      insert_transfer(posting, time, transfer_id);
      return true;
    }
    const std::int64_t transfer_id = insert_transfer(posting, time, std::nullopt);
    const std::optional<AccountChange> debit = debit_account(posting);
    if (!debit) return false;
    const AccountChange credit = add_to_account(posting.to, posting.amount);
    insert_entry(transfer_id, *debit, -posting.amount);
    insert_entry(transfer_id, credit, posting.amount);
    return true;
  }

  // Batches are written by the shape of schema 8 on (entries, then their transfer) and of 13 (a row a transfer).
  bool writes_batches() const override { return database_.schema >= 8; }

  std::vector<std::pair<std::string, PlannedAccount>> read_accounts(const std::vector<std::string>& names) override {
    std::vector<std::pair<std::string, PlannedAccount>> found;
    Borrowed read(cached(kReadAccount));
    for (const std::string& name : names) {
      read->bind(1, name);
      if (read->executeStep()) found.emplace_back(name, PlannedAccount{read->getColumn(0).getInt64(), read->getColumn(1).getInt64()});
      read->reset();
    }
    return found;
  }

  void start_batch(BatchPlan& plan) override {
    for (std::size_t a = 0; a < plan.accounts.size(); ++a) {
      if (plan.accounts[a].id != 0) continue;
      exec(kOpenEmptyAccount, plan.account_names[a]);
      plan.accounts[a].id = database_.db.getLastInsertRowid();
    }
    batch_ = true;
  }

  // The rows are bound without copies: the writes and the plan outlive the statements' runs.
  // Each posting at its own step's time (PlannedPosting::time).
  void finish_batch(const BatchPlan& plan, const std::string&) override {
    batch_ = false;
    insert_rows(RowKind::event, held_events_.size(), [&](SQLite::Statement& insert, int index, std::size_t row) {
      const auto& [table, event] = held_events_[row];
      insert.bindNoCopy(index, *table);
      insert.bind(index + 1, event->seq);
      insert.bindNoCopy(index + 2, event->json);
    });
    std::vector<const PlannedPosting*> postings;
    for (const std::vector<PlannedPosting>& step : plan.steps)
      for (const PlannedPosting& planned : step) postings.push_back(&planned);
    if (database_.schema >= 13) {
      const RowKind kind = flags_pools() ? RowKind::transfer_with_flagged_legs : RowKind::transfer_with_legs;
      insert_rows(kind, postings.size(), [&](SQLite::Statement& insert, int index, std::size_t row) {
        const PlannedPosting& planned = *postings[row];
        bind_transfer_with_legs(insert, index, *planned.posting, *planned.time,
                                {plan.accounts[planned.from].id, planned.from_balance_after},
                                {plan.accounts[planned.to].id, planned.to_balance_after}, flags_pools());
      });
    } else {
      write_entries_then_transfers(plan, postings);
    }
    for (std::size_t a = 0; a < plan.accounts.size(); ++a)
      if (plan.deltas[a] != 0) exec(kMoveBalance, plan.accounts[a].id, plan.deltas[a]);
    if (deferred_checks_outstanding())
      throw StorageError("a transfer does not balance (expected two ledger entries summing to zero)");
  }

  // Schema 8 to 12: each transfer's two entries, then the transfer rows.
  void write_entries_then_transfers(const BatchPlan& plan, const std::vector<const PlannedPosting*>& postings) {
    const std::int64_t first_transfer = next_transfer_id();
    // Each posting's debit, then its credit.
    insert_rows(RowKind::entry, 2 * postings.size(), [&](SQLite::Statement& insert, int index, std::size_t row) {
      const PlannedPosting& planned = *postings[row / 2];
      const bool debit = row % 2 == 0;
      insert.bind(index, first_transfer + static_cast<std::int64_t>(row / 2));
      insert.bind(index + 1, plan.accounts[debit ? planned.from : planned.to].id);
      insert.bind(index + 2, debit ? -planned.posting->amount : planned.posting->amount);
      insert.bind(index + 3, debit ? planned.from_balance_after : planned.to_balance_after);
    });
    insert_rows(RowKind::transfer, postings.size(), [&](SQLite::Statement& insert, int index, std::size_t row) {
      const Posting& posting = *postings[row]->posting;
      insert.bind(index, first_transfer + static_cast<std::int64_t>(row));
      insert.bindNoCopy(index + 1, *postings[row]->time);
      bind_text_or_null(insert, index + 2, posting.table, false);
      bind_text_or_null(insert, index + 3, posting.game, false);
      insert.bindNoCopy(index + 4, posting.memo);
      bind_integer_or_null(insert, index + 5, posting.seq);
      bind_integer_or_null(insert, index + 6, posting.deal);
    });
  }

  void begin_step() override { Borrowed(cached(kSavepoint))->exec(); }

  // SQLite checks the deferred foreign keys of migrations 7 and 8 only at
  // COMMIT, where a violation would fail the whole batch: checked here
  // instead, so that only the write that left a transfer unbalanced is undone.
  bool end_step() override {
    if (deferred_checks_outstanding()) return false;
    Borrowed(cached(kReleaseSavepoint))->exec();
    return true;
  }

  void undo_step(const std::string& why) override {
    // Some errors (disk full, I/O) make SQLite roll back the whole transaction,
    // not just the failed statement. Carrying on would commit the remaining
    // writes one by one and report earlier ones as committed when they were not.
    if (sqlite3_get_autocommit(database_.db.getHandle()) != 0) {
      throw StorageError("SQLite abandoned the whole batch after this error: " + why);
    }
    Borrowed(cached(kRollbackToSavepoint))->exec();
    // ROLLBACK TO keeps the savepoint open; RELEASE closes it.
    Borrowed(cached(kReleaseSavepoint))->exec();
  }

 private:
  SQLite::Statement& cached(const char* sql) { return database_.cached(sql); }

  bool deferred_checks_outstanding() {
    int outstanding = 0;
    int highest = 0;
    sqlite3_db_status(database_.db.getHandle(), SQLITE_DBSTATUS_DEFERRED_FKS, &outstanding, &highest, 0);
    return outstanding != 0;
  }

  // `count` rows of a kind in as few statements as its prepared sizes allow;
  // bind_row(statement, first parameter index, row) binds one row.
  template <typename BindRow>
  void insert_rows(RowKind kind, std::size_t count, const BindRow& bind_row) {
    const int per_row = parameters_per_row(kind);
    std::size_t done = 0;
    while (done < count) {
      const int rows = static_cast<int>(std::bit_floor(std::min<std::size_t>(count - done, kMostRowsAStatement)));
      Borrowed insert(database_.row_insert(kind, rows));
      UnboundAfter unbound(*insert);
      for (int row = 0; row < rows; ++row) bind_row(*insert, 1 + row * per_row, done + static_cast<std::size_t>(row));
      insert->exec();
      done += static_cast<std::size_t>(rows);
    }
  }

  static int parameters_per_row(RowKind kind) {
    const std::string_view row = kRowInserts[static_cast<int>(kind)].row;
    return static_cast<int>(std::count(row.begin(), row.end(), '?'));
  }

  // Runs a statement whose parameters are all given (none NULL); returns the rows it changed.
  template <typename... Args>
  int exec(const char* sql, const Args&... args) {
    Borrowed statement(cached(sql));
    int index = 0;
    (statement->bind(++index, args), ...);
    return statement->exec();
  }

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

  // nullopt when the payer is a player the debit would take below zero (the
  // failed statement changed nothing).
  std::optional<AccountChange> debit_account(const Posting& posting) {
    try {
      return add_to_account(posting.from, -posting.amount);
    } catch (const SQLite::Exception& e) {
      if (e.getExtendedErrorCode() != SQLITE_CONSTRAINT_CHECK) throw;
      return std::nullopt;
    }
  }

  // A transfer row of schema 13 from parameter `index` on, bound without copies.
  // Schema 14 on: a transfer says which of its sides are pools'.
  bool flags_pools() const { return database_.schema >= 14; }

  static void bind_transfer_with_legs(SQLite::Statement& insert, int index, const Posting& posting,
                                      const std::string& time, const AccountChange& from, const AccountChange& to,
                                      bool flags_pools) {
    insert.bindNoCopy(index, time);
    bind_text_or_null(insert, index + 1, posting.table, false);
    bind_text_or_null(insert, index + 2, posting.game, false);
    insert.bindNoCopy(index + 3, posting.memo);
    bind_integer_or_null(insert, index + 4, posting.seq);
    bind_integer_or_null(insert, index + 5, posting.deal);
    insert.bind(index + 6, from.account_id);
    insert.bind(index + 7, to.account_id);
    insert.bind(index + 8, posting.amount);
    insert.bind(index + 9, from.balance_after);
    insert.bind(index + 10, to.balance_after);
    if (flags_pools) {
      insert.bind(index + 11, is_pool_account(posting.from) ? 1 : 0);
      insert.bind(index + 12, is_pool_account(posting.to) ? 1 : 0);
    }
  }

  void insert_entry(std::int64_t transfer_id, const AccountChange& change, std::int64_t amount) {
    exec(kInsertEntry, transfer_id, change.account_id, amount, change.balance_after);
  }

  std::int64_t next_transfer_id() {
    Borrowed query(cached(kNextTransferId));
    query->executeStep();
    return query->getColumn(0).getInt64();
  }

  // `id` is the transfer's id, chosen by next_transfer_id() (from schema 8 on),
  // or nullopt to let the database choose it (before).
  std::int64_t insert_transfer(const Posting& posting, const std::string& time, std::optional<std::int64_t> id) {
    const int schema = database_.schema;
    const bool linked = posting.seq || posting.deal || schema >= 7;
    Borrowed insert(cached(id              ? kInsertTransferAfterEntries
                           : schema >= 7   ? kInsertBalancedTransfer
                           : linked        ? kInsertLinkedTransfer
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
    return database_.db.getLastInsertRowid();
  }

  SqliteDatabase& database_;
  ImmediateTransaction transaction_;
  bool batch_ = false;  // between start_batch and finish_batch: events are held back
  std::vector<std::pair<const std::string*, const Event*>> held_events_;
};

std::unique_ptr<WriteTransaction> SqliteDatabase::begin_write(const std::vector<TableWrite>&) {
  return std::make_unique<SqliteWrite>(*this);
}

bool is_file(const std::string& path) { return !path.empty() && path != ":memory:"; }

// `catches_up`: the connection asks this process's step filer, if any, to
// file what it holds before each read and transaction; the filer's own does not.
std::unique_ptr<SqlBackend> open_database(const std::string& path, int migrate_up_to, bool catches_up) {
  return Guard{sqlite_fault}([&] { return "opening database " + path; }, [&] {
    auto database = std::make_unique<SqliteDatabase>(path, migrate_up_to);
    if (catches_up && is_file(path)) database->filing_point = FilingPoint::of(path);
    return database;
  });
}

// The step log needs the filing mark of migration 15.
bool logs_steps(const std::string& path, int schema) { return is_file(path) && schema >= 15; }

}  // namespace

SqliteStore::SqliteStore(const std::string& path, int migrate_up_to)
    : SqlStore(open_database(path, migrate_up_to, true), sqlite_fault), path_(path) {
  // What a server that stopped without filing its log left, unless a server holds it now.
  // A refusal here marks its table failed, which `parlour admin tables` lists.
  if (logs_steps(path_, schema_version())) file_leftover_steps(path_, *this);
}

SqliteStore::SqliteStore(const std::string& path, ForFiling)
    : SqlStore(open_database(path, latest_schema_version(), false), sqlite_fault), path_(path) {}

SqliteStore::~SqliteStore() {
  if (!filer_) return;
  filer_->stop();  // files everything; a reader meanwhile still asks it
  FilingPoint::of(path_)->detach();
}

void SqliteStore::housekeep_in_background(Report report, WalLimits limits) {
  std::lock_guard lock(filer_mutex_);
  if (filer_ || !logs_steps(path_, schema_version())) return SqlStore::housekeep_in_background(std::move(report), limits);
  // Another process holds the log while it files what a crash left there (a
  // moment); a server holds it for as long as it runs. Without the log, steps
  // are committed into the tables as they come, as before it.
  std::unique_ptr<StepLog> log;
  try {
    log = StepLog::open(path_);
    for (int tries = 0; !log && tries < 40; ++tries) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      log = StepLog::open(path_);
    }
    if (!log)
      throw StorageError("the step log of " + path_ +
                         " is held by another process (is another Parlour server using this database?)");
  } catch (const StorageError& e) {
    report(std::string(e.what()) + "; table steps are committed without it");
    return SqlStore::housekeep_in_background(std::move(report), limits);
  }
  // The filing connection does the file's writing now: the WAL's housekeeping goes with it.
  auto filing = std::unique_ptr<SqliteStore>(new SqliteStore(path_, ForFiling{}));
  filing->SqlStore::housekeep_in_background(report, limits);
  filer_ = std::make_shared<StepFiler>(std::move(log), std::move(filing), std::move(report), filing_limits_);
  filer_->when_refused(hear_);
  FilingPoint::of(path_)->attach(filer_);
  filer_->start();
}

void SqliteStore::when_steps_are_refused(RefusedSteps hear) {
  std::lock_guard lock(filer_mutex_);
  hear_ = std::move(hear);
  if (filer_) filer_->when_refused(hear_);
}

std::vector<CommitOutcome> SqliteStore::commit(const std::vector<TableWrite>& writes) {
  if (filer_) return filer_->append(writes);
  return SqlStore::commit(writes);
}

}  // namespace parlour::storage
