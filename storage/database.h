// Parlour's SQLite store: players and token hashes, tables and their seats, each
// table's event log, the double-entry chip ledger, and results. Owns every SQL
// string in the project. One Database is one connection: use one writer and, in
// WAL mode, any number of readers on their own connections.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace parlour::storage {

// Accounts are named by strings:
//   "bank"                 grants starting chips (its balance goes negative)
//   "player:NAME"          NAME in lower case
//   "pool:TABLE:POOL"      a table's pool, e.g. "pool:t1:pot"
std::string bank_account();
std::string player_account(const std::string& name);
std::string pool_account(const std::string& table, const std::string& pool);

// "2026-11-22T22:30:00.123Z": the format of every time the database keeps, so
// that times compare as text.
std::string utc_iso8601(std::chrono::system_clock::time_point when);

struct Player {
  std::int64_t id = 0;
  std::string name;  // as first registered
  std::string token_hash;
};

// One movement of chips: leaves `from`, enters `to`, in one transaction.
struct Posting {
  std::string from;
  std::string to;
  std::int64_t amount = 0;  // > 0
  std::string memo;
  std::string table;  // "" when not at a table
  std::string game;   // "" when not at a table
  // The table event that moved the chips (its seq in the table's log) and the
  // deal it was part of, where there is one: the ledger links each movement to it.
  std::optional<std::int64_t> seq;
  std::optional<std::int64_t> deal;
};

// A line of one account's ledger, newest first when listed.
struct LedgerEntry {
  std::int64_t entry = 0;    // increasing over the whole ledger
  std::string time;          // ISO 8601 UTC, e.g. "2026-11-22T22:30:00.123Z"
  std::int64_t amount = 0;   // signed: + enters the account, - leaves it
  std::int64_t balance = 0;  // the account's balance after this entry
  std::string table;
  std::string game;
  std::string memo;
  bool table_private = false;  // the table is private: its id is not for everyone's eyes
  std::optional<std::int64_t> seq;   // the table event that moved the chips, when known
  std::optional<std::int64_t> deal;  // the deal it was part of, when known
};

// What one account gained (+) or lost (-) at one table, grants from the bank
// left out (they are not winnings).
struct TableNet {
  std::string account;
  std::int64_t amount = 0;
};

struct Seat {
  int seat = 0;
  std::string player;  // "" for an empty seat; a bot's name for a bot
  bool bot = false;
  int bot_level = 0;
};

struct TableRecord {
  std::string id;
  std::string game;
  std::string options_json;
  std::uint64_t seed = 0;
  std::string host;
  std::string status;  // waiting | playing | finished
  bool is_private = false;
  std::string invite;
  std::string deck_json;  // "" when not stacked
  std::vector<Seat> seats;
  std::string failure;     // why the table failed ("" unless it did); its status is then finished
  std::string created_at;  // ISO 8601 UTC, set by the database
  std::string clock_json;  // the turn clock chosen at create; "" for the default (tables made before it was kept)
};

struct Event {
  std::int64_t seq = 0;
  std::string json;
};

// Everything one table step writes, committed atomically.
struct TableWrite {
  std::string table;
  std::optional<Event> event;        // appended to the table's log
  std::vector<Posting> postings;     // chips moved by the step
  std::optional<std::string> status; // new table status
  std::optional<std::vector<Seat>> seats;
  std::optional<std::string> result_json;  // a settled deal's or the game's result
  std::optional<std::string> failure;      // the table failed: why (its status is set to finished)
};

class StorageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// create_player's name is already registered (case-insensitively); lets the
// server answer `name_taken` rather than `internal`.
class NameTaken : public StorageError {
 public:
  using StorageError::StorageError;
};

class Database {
 public:
  // Opens (creating the file and its folder if needed), sets WAL, and runs every
  // migration the file has not had yet.
  explicit Database(const std::string& path);
  // Same, but stops after migration `migrate_up_to` (0..latest_schema_version()),
  // so tests can build an old file and check that a later open upgrades it.
  Database(const std::string& path, int migrate_up_to);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  int schema_version();
  static int latest_schema_version();

  // Players
  std::vector<Player> all_players();
  std::optional<Player> find_player(const std::string& name);  // case-insensitive
  std::optional<Player> find_player_by_token_hash(const std::string& token_hash);
  // Registers a player and grants the starting chips from the bank, atomically.
  // Throws StorageError if the name is taken.
  Player create_player(const std::string& name, const std::string& token_hash, std::int64_t starting_chips);

  // Ledger
  std::int64_t balance(const std::string& account);  // 0 for an unknown account
  // Every account's balance whose name starts with `prefix`.
  std::vector<std::pair<std::string, std::int64_t>> balances(const std::string& prefix);
  std::vector<LedgerEntry> ledger(const std::string& account, int limit, std::optional<std::int64_t> before);
  // The sum over all accounts; always 0 (the bank is negative by what it granted).
  std::int64_t total_of_all_accounts();
  // Every account's net over the movements at `table` that did not come from or
  // go to the bank, by account name (an account that came out square included).
  std::vector<TableNet> table_nets(const std::string& table);

  // Tables
  void create_table(const TableRecord& table);
  // Creates the table and commits its first step (its first event, chips granted
  // to its bots) in the same transaction: a rematch is made whole or not at all.
  void create_table(const TableRecord& table, const TableWrite& first_step);
  std::optional<TableRecord> find_table(const std::string& id);
  std::vector<TableRecord> tables_with_status(const std::string& status);
  // The tables `host` (any case) created, created at or after `since` or with a
  // chip movement at or after it (ISO 8601 UTC, as utc_iso8601 writes), the
  // newest `limit` of them, oldest first.
  std::vector<TableRecord> tables_hosted_since(const std::string& host, const std::string& since, int limit);
  std::vector<Event> events(const std::string& table);
  std::vector<std::string> results(const std::string& table);

  // Writes each step in its own savepoint inside one transaction, so that one
  // failing step (returned false, with its error logged by the caller) does not
  // undo the others. Returns one flag per write: true if it was committed.
  // Throws StorageError, having written nothing, if the transaction itself
  // cannot begin or commit.
  std::vector<bool> commit(const std::vector<TableWrite>& writes, std::vector<std::string>* errors = nullptr);

 private:
  std::optional<Player> find_player_where(const char* sql, const std::string& key, const std::string& what);

  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace parlour::storage
