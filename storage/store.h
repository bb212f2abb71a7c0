// Parlour's storage interface: players and token hashes, tables and their
// seats, each table's event log, the double-entry chip ledger, and results.
// Two backends implement it: SqliteStore (storage/sqlite_store.h), the embedded
// default, and PostgresStore (storage/postgres_store.h), a shared server that
// several nodes can use. open_store() picks one from a --db value. Each backend
// owns its SQL; both enforce in the database itself that no player's balance
// goes negative, that every transfer has two entries summing to zero (from
// schema 8 on, written before the transfer row, which is where it is checked),
// and that ledger entries are never changed or removed.
//
// One Store is one connection, used by one thread at a time: the server has
// one writer and gives each reader thread its own.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <functional>
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
// Whether an account is a table's pool (pool_account's form).
bool is_pool_account(const std::string& account);

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

// Who may write a table's steps when several nodes share one database: the
// node holding the table's lease, at the lease's generation (storage/table_leases.h).
// A write carrying a fence commits only if the lease is still that node's at
// that generation; otherwise its outcome is `fenced`.
struct Fence {
  std::string node;
  std::int64_t generation = 0;
};

// Everything one table step writes, committed atomically.
// A deal's start, written with the step that deals it, so that a hand history
// of deal N reads little before it (server/history/history.h): the deal's line
// in the history's list of deals, and for some deals (the table's first, then
// one every so many events) the table's whole state just before that step
// (TableState::snapshot). A cache of the log, never the truth: a table is a pure
// function of its events.
struct DealStart {
  int deal = 0;             // 1, 2, 3...
  std::int64_t seq = 0;     // the step that dealt it
  std::string entry_json;   // {"deal","from_seq","commitment","shuffle"?}
  std::string state_json;   // the table before that step; "" where none was kept, or not read
  bool state_kept = false;  // Store::deal_starts: whether a state was kept (it is not read there)

  // This start as Store::deal_starts lists it (for logs kept elsewhere than a Store).
  DealStart listed() const { return {deal, seq, entry_json, "", state_kept || !state_json.empty()}; }
};

struct TableWrite {
  std::string table;
  std::optional<Fence> fence;        // several nodes: the lease this write needs
  std::optional<Event> event;        // appended to the table's log
  std::vector<Posting> postings;     // chips moved by the step
  std::optional<std::string> status; // new table status
  std::optional<std::vector<Seat>> seats;
  std::optional<std::string> result_json;  // a settled deal's or the game's result
  std::optional<std::string> failure;      // the table failed: why (its status is set to finished)
  std::optional<DealStart> deal_start;     // the step deals a new deal
};

// What became of one table write in a commit: a kind the server acts on, and
// for a write that was refused, why, as "what failed: why" for logs and users.
struct CommitOutcome {
  enum class Kind {
    committed,
    fenced,        // the table's lease is another node's, or another generation's: this node must let it go
    lacked_chips,  // a posting's payer could not pay (another table spent the chips first)
    failed,        // anything else: a broken constraint, a lost connection, a full disk...
  };
  Kind kind = Kind::committed;
  std::string detail;  // "" when committed

  bool committed() const { return kind == Kind::committed; }
  static CommitOutcome failure(std::string why) { return {Kind::failed, std::move(why)}; }
};

// A table step that SQLite's step log made durable and the database then
// refused when it was filed into its tables (storage/step_filer.h): a payer
// short of the chips because another process moved them meanwhile, or a broken
// constraint. The table is stopped there: marked failed, its later steps not
// filed. Its chips are where the steps filed before left them.
struct RefusedStep {
  std::string table;
  std::optional<std::int64_t> seq;  // the refused step's event, when it had one
  std::string why;
};

// "committed", "fenced", "lacked_chips", "failed".
const char* name_of(CommitOutcome::Kind kind);

class StorageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The connection to the database server was lost (it restarted, or the
// network failed) before the work was known to be committed. The store
// reconnects on its next use; whatever the lost work wrote is either all in
// the database or not at all.
class ConnectionLost : public StorageError {
 public:
  using StorageError::StorageError;
};

// create_player's name is already registered (case-insensitively); lets the
// server answer `name_taken` rather than `internal`.
class NameTaken : public StorageError {
 public:
  using StorageError::StorageError;
};

// register_player's sign-up link is unknown, used up or past its expiry.
class SignupRefused : public StorageError {
 public:
  using StorageError::StorageError;
};

// A new name and what it is registered with (docs/playing.md "Accounts and recovery").
struct Registration {
  std::string name;
  std::string token_hash;
  std::int64_t starting_chips = 0;
  std::string recovery_hash;               // "" for none
  std::optional<std::string> signup_hash;  // a sign-up link's code hash: one of its uses is taken
  // A table's invite (--registration invite): the name is taken only if an
  // unfinished table has it, checked in the name's own transaction (InviteRefused).
  std::optional<std::string> invite;
};

// register_player's table invite is no unfinished table's.
class InviteRefused : public StorageError {
 public:
  using StorageError::StorageError;
};

// One row of the identity change feed (migration 12, README "Accounts and
// recovery"): every change to who may sign in as a name, written in the
// change's own transaction, with a sequence number that grows in commit order,
// so that every server applies the changes other processes made by reading
// the rows after the last one it saw.
struct IdentityChange {
  // What changed; the other fields it uses:
  static constexpr const char* device_added = "device_added";      // token_hash, device_id, detail (label)
  static constexpr const char* device_revoked = "device_revoked";  // token_hash, device_id
  // The first device's token replaced (a recovery, a claim link, the first device
  // revoked): token_hash is the new one; detail "devices_cleared" when every
  // other device went with it.
  static constexpr const char* token_replaced = "token_replaced";
  static constexpr const char* banned = "banned";
  static constexpr const char* unbanned = "unbanned";
  static constexpr const char* renamed = "renamed";          // name is the new name, detail the old
  static constexpr const char* table_ended = "table_ended";  // player_id 0, detail the table id (admin end-table)
  // The name's chips moved outside any table (admin adjust): servers read the balance again.
  static constexpr const char* balance_changed = "balance_changed";

  // Every field has its initializer, so that a change names only what it uses.
  std::int64_t seq = 0;   // set by the store
  std::string time{};     // set by the store
  std::string origin{};   // the process that made it (Store::set_change_origin)
  std::string kind{};
  std::int64_t player_id = 0;
  std::string name{};
  std::string token_hash{};
  std::string device_id{};
  std::string detail{};
};

// Who is signed in on one running server (a presence row, refreshed every few
// seconds; `parlour admin online` reads the fresh ones).
struct Presence {
  std::string node;
  std::vector<std::string> names;
  std::string updated_at;
};

// A sign-up link (--registration invite): `uses_left` new names until `expires_at`.
struct SignupLink {
  std::string code_hash;
  std::string made_by;
  std::int64_t uses_left = 1;
  std::string expires_at;  // utc_iso8601
};

// One of a name's other devices (a device link), signed in with its own token.
struct Device {
  std::string id;
  std::string player;  // the name, as registered
  std::string token_hash;
  std::string label;
  std::string created_at;  // utc_iso8601
};

// How long a SQLite WAL may grow (in frames, a page each) under commits that
// never pause: past the first, the background thread holds commits off for
// a moment (two fsyncs) so that the WAL starts over; past the second, a writer
// that outpaces that thread checkpoints by itself. A hold costs about 10 ms
// (a small copy and two fsyncs): at 16 MiB the bench's act->ok p99 at half
// load was 8-11 ms (a hold every tenth of a second at full load), at 64 MiB
// 3-15 ms; at 256 MiB a busy server holds commits about once in seven seconds.
struct WalLimits {
  int restart_after_frames = 131072;                // 256 MiB of 2 KiB pages
  int writer_checkpoints_after_frames = 2 * 131072;  // 512 MiB
};

class Store {
 public:
  virtual ~Store() = default;
  Store() = default;
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // For the store that commits the server's table steps: the database's own
  // housekeeping leaves the thread that commits. SQLite: the WAL's checkpoints
  // (copying its pages into the file, with an fsync) ran inside a commit every
  // 4,000 pages and held up every act behind it (act->ok p99 21-45 ms at half
  // load, 2-4 ms without); they run on a thread and connection of their own,
  // and `limits` bound the WAL they leave. `report` hears what failed there,
  // from that thread. Other backends: nothing.
  using Report = std::function<void(const std::string& what)>;
  virtual void housekeep_in_background(Report report, WalLimits limits = {}) {
    (void)report;
    (void)limits;
  }

  // Both backends have the same migrations, numbered alike, so one number says
  // how far a database has come whichever backend holds it.
  static int latest_schema_version();
  virtual int schema_version() = 0;
  // What this store is: "SQLite file PATH" or "PostgreSQL database NAME on HOST:PORT".
  virtual std::string describe() const = 0;

  // Players
  virtual std::vector<Player> all_players() = 0;
  virtual std::optional<Player> find_player(const std::string& name) = 0;  // case-insensitive
  virtual std::optional<Player> find_player_by_token_hash(const std::string& token_hash) = 0;
  // Registers a player and grants the starting chips from the bank, atomically.
  // Throws NameTaken if the name is taken (in any case), StorageError otherwise.
  virtual Player create_player(const std::string& name, const std::string& token_hash,
                               std::int64_t starting_chips) = 0;
  // create_player with the recovery code's hash, taking one use of the sign-up
  // link when one is given (SignupRefused: unknown, used up or expired), all in
  // one transaction: a refused link registers nothing.
  virtual Player register_player(const Registration& registration) = 0;
  // The player's recovery code hash, "" when it has none.
  virtual std::string recovery_hash(std::int64_t player_id) = 0;
  // A name registered before recovery codes gets its first one; false (and
  // nothing changed) when it has one already.
  virtual bool add_recovery_hash(std::int64_t player_id, const std::string& hash) = 0;
  // Recovery: the player's token and recovery code hash are replaced, and his
  // other devices removed, together, if the recovery hash is still `used_hash`
  // (false: it was used meanwhile, and nothing changed).
  virtual bool replace_secrets(std::int64_t player_id, const std::string& used_hash, const std::string& token_hash,
                               const std::string& recovery_hash) = 0;
  virtual void create_signup_link(const SignupLink& link) = 0;
  // Every player's other devices, oldest first.
  virtual std::vector<Device> all_devices() = 0;
  virtual void add_device(std::int64_t player_id, const Device& device) = 0;
  // False when the player has no such device.
  virtual bool remove_device(std::int64_t player_id, const std::string& device_id) = 0;
  // The first device's token (players.token_hash) replaced: revoking that device.
  virtual void replace_token(std::int64_t player_id, const std::string& token_hash) = 0;
  // --- Identity changes reaching every server (migration 12) ---
  // The changes this store writes are marked as made by `origin`, so that the
  // process that made them can pass over its own rows in the feed.
  void set_change_origin(std::string origin) { origin_ = std::move(origin); }
  const std::string& change_origin() const { return origin_; }
  // The feed after `after_seq`, in order, at most `limit` rows; the last seq (0: none).
  virtual std::vector<IdentityChange> identity_changes_after(std::int64_t after_seq, int limit) = 0;
  virtual std::int64_t last_identity_change() = 0;
  // Removes the feed rows older than `before` (utc_iso8601), and the device
  // codes and claim links that expired before it; how many feed rows.
  virtual std::int64_t prune_identity_changes(const std::string& before) = 0;
  // Appends a change that is not a store write of its own (table_ended).
  virtual void record_identity_change(const IdentityChange& change) = 0;
  // Device codes: made on one node, used up (once) on any. use_device_code
  // consumes the code and, if it was unexpired at `now`, adds `device` to its
  // name, all in one transaction; the name, or nullopt (nothing added).
  virtual void create_device_code(std::int64_t player_id, const std::string& code_hash,
                                  const std::string& expires_at) = 0;
  virtual std::optional<Player> use_device_code(const std::string& code_hash, const std::string& now,
                                                Device device) = 0;
  // Claim links (parlour admin claim-link): one per name, the latest made;
  // the unexpired one's code hash, "" when none.
  virtual void create_claim_link(std::int64_t player_id, const std::string& code_hash,
                                 const std::string& expires_at) = 0;
  virtual std::string claim_link_hash(std::int64_t player_id, const std::string& now) = 0;
  // Uses the claim link whose hash is `used_hash`: the token and recovery hash
  // replaced, every other device removed, the link gone; false (nothing
  // changed) when it was used meanwhile.
  virtual bool use_claim_link(std::int64_t player_id, const std::string& used_hash, const std::string& token_hash,
                              const std::string& recovery_hash) = 0;
  // Bans: a banned name cannot sign in. False when it was already so.
  virtual std::vector<std::string> banned_names() = 0;
  virtual bool set_banned(std::int64_t player_id, bool banned) = 0;
  // A new name for a player (NameTaken when another has it in any case). His
  // ledger account moves with him (README "parlour admin").
  virtual void rename_player(std::int64_t player_id, const std::string& new_name) = 0;
  // One movement of chips outside any table (parlour admin adjust), through
  // the same posting path as a table step, with `change` in the same
  // transaction; StorageError when the payer lacks the chips (nothing written).
  virtual void transfer(const Posting& posting, const IdentityChange& change) = 0;
  // Presence: `node`'s signed-in names now; the rows refreshed at or after `since`.
  virtual void publish_presence(const Presence& presence) = 0;
  virtual std::vector<Presence> presence_since(const std::string& since) = 0;
  // When each name was last seen signed in on a server that published it ("" when never).
  virtual void mark_seen(const std::vector<std::string>& names) = 0;
  virtual std::vector<std::pair<std::string, std::string>> last_seen() = 0;  // name, time

  // The player's passphrase hash (an Argon2id string), "" when he has none; set or changed.
  virtual std::string passphrase_hash(std::int64_t player_id) = 0;
  virtual void set_passphrase_hash(std::int64_t player_id, const std::string& hash) = 0;

  // Ledger
  virtual std::int64_t balance(const std::string& account) = 0;  // 0 for an unknown account
  // Every account's balance whose name starts with `prefix`, by name (byte order).
  virtual std::vector<std::pair<std::string, std::int64_t>> balances(const std::string& prefix) = 0;
  // One account's entries, newest first: at most `limit` (clamped to 1..500),
  // those before entry `before` when given.
  virtual std::vector<LedgerEntry> ledger(const std::string& account, int limit,
                                          std::optional<std::int64_t> before) = 0;
  // The sum over all accounts; always 0 (the bank is negative by what it granted).
  virtual std::int64_t total_of_all_accounts() = 0;
  // Every account's net over the movements at `table` that did not come from or
  // go to the bank, by account name (an account that came out square included).
  virtual std::vector<TableNet> table_nets(const std::string& table) = 0;

  // Tables
  virtual void create_table(const TableRecord& table) = 0;
  // Creates the table and commits `steps` in the same transaction: its first
  // step (its first event, chips granted to its bots) and, for a rematch, the
  // old table's event naming it: a rematch is made whole or not at all.
  virtual void create_table(const TableRecord& table, const std::vector<TableWrite>& steps) = 0;
  virtual std::optional<TableRecord> find_table(const std::string& id) = 0;
  // In creation order.
  virtual std::vector<TableRecord> tables_with_status(const std::string& status) = 0;
  // The tables `host` (any case) created, created at or after `since` or with a
  // chip movement at or after it (ISO 8601 UTC, as utc_iso8601 writes), the
  // newest `limit` of them, oldest first.
  virtual std::vector<TableRecord> tables_hosted_since(const std::string& host, const std::string& since,
                                                       int limit) = 0;
  std::vector<Event> events(const std::string& table) { return events_after(table, 0); }
  // The events of `table` with a seq above `after_seq`, in order: what a replay
  // standing at `after_seq` still has to apply (server/history/history.h).
  virtual std::vector<Event> events_after(const std::string& table, std::int64_t after_seq) = 0;
  // The events of `table` with a seq in (after_seq, upto_seq], in order: one deal's.
  virtual std::vector<Event> events_between(const std::string& table, std::int64_t after_seq,
                                            std::int64_t upto_seq) = 0;
  virtual std::vector<std::string> results(const std::string& table) = 0;
  // Every deal the table has dealt, by deal number, without their states
  // (state_json "", state_kept set where one was kept): the index a hand history lists.
  virtual std::vector<DealStart> deal_starts(const std::string& table) = 0;
  // The table's state before deal `deal`, as written with it; nullopt when none was kept.
  virtual std::optional<std::string> deal_state(const std::string& table, int deal) = 0;

  // Group commit: one transaction for the batch, in which one failing step
  // does not undo the others, and each step is all or nothing. A batch whose
  // steps all commit is written as one plan (few statements); one with a step
  // that does not is written a step at a time, each in its own savepoint
  // (storage/sql_store.h, BatchPlan). Returns one outcome per write, in order. Throws StorageError
  // (ConnectionLost when the connection broke), having written nothing, if the
  // transaction itself cannot begin or commit.
  // On a SQLite file whose store keeps house in the background (the server's
  // writer), a batch is made durable by one append to the file's step log
  // instead, and filed into the tables behind it (storage/step_filer.h): each
  // outcome is then `committed`, or `failed` for all when the append failed;
  // what the database refuses at filing reaches when_steps_are_refused.
  virtual std::vector<CommitOutcome> commit(const std::vector<TableWrite>& writes) = 0;
  // Who hears of a logged step refused at filing, on the thread that filed it.
  // Set before the first commit. Stores without a step log never call it.
  using RefusedSteps = std::function<void(const RefusedStep&)>;
  virtual void when_steps_are_refused(RefusedSteps hear) { (void)hear; }

 private:
  std::string origin_ = "admin";
};

// True for "postgresql://..." and "postgres://..." (libpq's connection URIs).
bool is_postgres_url(const std::string& where);

// Opens the store a --db value names: a PostgreSQL connection URI, or else a
// SQLite file path (created, with its folder, if missing). Runs the migrations
// the database has not had yet. Throws StorageError saying what failed.
std::unique_ptr<Store> open_store(const std::string& where);

}  // namespace parlour::storage
