// What both SQL backends share, written once: the Store interface implemented
// over a small backend interface (SqlBackend, WriteTransaction) that each
// backend fills with its own SQL and transactions. Here, and only here:
//   * the error guard: a database's exception becomes a StorageError reading
//     "while WHAT: WHY" (ConnectionLost when the connection broke);
//   * the posting checks and the write plan of one TableWrite (which statements
//     in which order), and how a failed step becomes a typed CommitOutcome;
//   * the mapping of result rows to Player, LedgerEntry, TableRecord, ...
//     (each backend adapts its library's row to Row).
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "storage/step_log.h"
#include "storage/store.h"

namespace parlour::storage {

// ---------------------------------------------------------------------------
// Errors

// What a database exception means: why (its text, tidied), and whether the
// connection is gone, so that the whole batch is to be written again.
struct Fault {
  std::string why;
  bool connection_lost = false;
};
// A backend's reading of an exception: nullopt when it is not the database's
// (it then passes through unchanged).
using FaultOf = std::optional<Fault> (*)(const std::exception&);

// Runs a body and turns the database's exceptions into StorageError (or
// ConnectionLost) reading "while WHAT: WHY". A StorageError passes unchanged:
// it already says what failed. `what` is a string, or a callable making one,
// called only on failure (the step statements' descriptions are not built on
// every write).
class Guard {
 public:
  explicit Guard(FaultOf fault_of) : fault_of_(fault_of) {}

  template <typename What, typename Body>
  decltype(auto) operator()(const What& what, Body&& body) const {
    try {
      return body();
    } catch (const StorageError&) {
      throw;
    } catch (const std::exception& e) {
      const std::optional<Fault> fault = fault_of_(e);
      if (!fault) throw;
      raise(text_of(what), *fault);
    }
  }

 private:
  template <typename What>
  static std::string text_of(const What& what) {
    if constexpr (std::is_invocable_v<const What&>) return what();
    else return std::string(what);
  }
  [[noreturn]] static void raise(const std::string& what, const Fault& fault);

  FaultOf fault_of_;
};

// ---------------------------------------------------------------------------
// Rows

// One result row, read by column number; each backend adapts its library's row.
class Row {
 public:
  virtual bool is_null(int column) const = 0;
  virtual std::int64_t integer(int column) const = 0;
  virtual std::string text(int column) const = 0;

  // "" in C++ is NULL in SQL (no invite, not at a table), so that an absent
  // value never collides with a UNIQUE constraint or reads as a value.
  std::string text_or_empty(int column) const { return is_null(column) ? std::string() : text(column); }
  std::optional<std::int64_t> integer_or_none(int column) const {
    if (is_null(column)) return std::nullopt;
    return integer(column);
  }

 protected:
  ~Row() = default;
};

// Each mapping reads the columns its query selects, in the order given; the
// backends' SELECTs name them so (PARLOUR_*_COLUMNS where a list is shared).
#define PARLOUR_PLAYER_COLUMNS "id, name, token_hash"
Player player_from(const Row& row);
// entry, time, amount, balance_after, table_id, game, memo, is_private (0/1), seq, deal
LedgerEntry ledger_entry_from(const Row& row);
#define PARLOUR_TABLE_COLUMNS \
  "id, game, options_json, seed, host, status, is_private, invite, deck_json, failure, created_at, clock_json"
// Without its seats, which are rows of their own.
TableRecord table_from(const Row& row);
// seat, player, bot, bot_level
Seat seat_from(const Row& row);
// seq, json
Event event_from(const Row& row);
// deal, seq, entry json (the state is read apart)
DealStart deal_start_from(const Row& row);
// account name, amount
TableNet table_net_from(const Row& row);
// account name, balance
std::pair<std::string, std::int64_t> balance_from(const Row& row);
std::int64_t integer_from(const Row& row);  // column 0
std::string text_from(const Row& row);      // column 0
// id, player name, token hash, label, created at
Device device_from(const Row& row);
// seq, time, origin, kind, player id, name, token hash, device id, detail
IdentityChange identity_change_from(const Row& row);
// node, names (one per line), updated at
Presence presence_from(const Row& row);
// two texts
std::pair<std::string, std::string> text_pair_from(const Row& row);

// ---------------------------------------------------------------------------
// The backend interface

// The reads the store makes; each backend has one statement for each, taking
// the parameters named here in this order.
enum class Query {
  schema_version,             // -> integer
  all_players,                // -> players by id
  find_player,                // name, any case -> player
  find_player_by_token_hash,  // token hash -> player
  balance,                    // account -> balance
  balances_with_prefix,       // prefix -> (account, balance) by name in byte order
  ledger_page,                // account, before entry, limit -> entries, newest first
  total_of_all_accounts,      // -> integer
  table_nets,                 // table -> (account, net) by name in byte order, bank movements left out
  find_table,                 // id -> table
  tables_with_status,         // status -> tables in creation order
  tables_hosted_since,        // host, since, limit -> the newest `limit`, oldest first
  seats,                      // table -> seats by number
  events_after,               // table, seq -> events by seq
  results,                    // table -> result json by id
  events_between,             // table, after seq, up to seq -> events by seq
  deal_starts,                // table -> deal, seq, entry json, state kept (0/1) by deal
  deal_state,                 // table, deal -> state json
  // Accounts (migration 11); the writes return a row for each row they change.
  recovery_hash,              // player id -> code hash
  set_recovery_hash,          // player id, code hash, time -> player id
  swap_recovery_hash,         // player id, old code hash, new code hash, time -> player id
  set_token_hash,             // player id, token hash -> player id
  insert_signup_link,         // code hash, made by, uses, expires at, time -> uses
  use_signup_link,            // code hash, now -> uses left
  all_devices,                // -> devices (id, player name, token hash, label, created at) oldest first
  insert_device,              // id, player id, token hash, label, time -> id
  delete_device,              // player id, device id -> its token hash
  delete_devices_of,          // player id -> ids
  passphrase_hash,            // player id -> hash
  set_passphrase_hash,        // player id, hash, time -> player id
  add_recovery_hash,          // player id, code hash, time -> player id, if it had none
  // Identity changes, bans, device codes, claim links, presence (migration 12).
  lock_identity_feed,         // -> one row; PostgreSQL: feed writers queue here until commit, so seqs grow in commit order
  append_identity_change,     // time, origin, kind, player id, name, token hash, device id, detail -> seq
  identity_changes_after,     // seq, limit -> seq, time, origin, kind, player id, name, token hash, device id, detail
  last_identity_change,       // -> seq
  prune_identity_changes,     // time -> seq of each row removed
  prune_device_codes,         // time -> code hash of each device code expired before it, removed
  prune_claim_links,          // time -> player id of each claim link expired before it, removed
  banned_names,               // -> names by id
  ban_player,                 // player id, time -> player id, if not banned
  unban_player,               // player id -> player id, if banned
  insert_device_code,         // code hash, player id, expires at, time -> code hash
  use_device_code,            // code hash -> player id, expires at (the code removed)
  set_claim_link,             // player id, code hash, expires at, time -> player id
  claim_link_hash,            // player id, now -> code hash, if unexpired
  use_claim_link,             // player id, code hash -> player id (the link removed)
  find_player_by_id,          // player id -> player
  rename_player,              // player id, new name -> player id
  rename_account,             // old account, new account -> account id
  unfinished_table_by_invite, // invite -> table id, if its table is unfinished
  publish_presence,           // node, names (one per line), time -> node
  presence_since,             // time -> node, names (one per line), updated at, by node
  mark_seen,                  // name, time -> player id
  last_seen,                  // -> name, time by name
  // The step log (migration 15, SQLite's: storage/step_filer.h).
  steps_filed_through,        // -> the last lsn filed (0: none)
  file_steps_through,         // lsn -> lsn (the mark set)
  table_failure,              // table -> why it failed, if it did
};
inline constexpr int kQueryCount = static_cast<int>(Query::table_failure) + 1;

using Param = std::variant<std::monostate, std::int64_t, std::string>;  // monostate: NULL
using Params = std::vector<Param>;
using EachRow = std::function<void(const Row&)>;

class Reader {
 public:
  // Runs `query` and calls `each` on every row it returns, in order.
  virtual void each_row(Query query, const Params& params, const EachRow& each) = 0;

 protected:
  ~Reader() = default;
};

// A batch of table steps planned in C++ before anything is written
// (SqlStore::commit): every step is expected to commit, each account touched
// was read once, and each posting's balances after it are known. A backend
// that writes batches writes it with few statements; the database's own
// checks still have the last word (a broken one fails the whole batch, which
// is then written again one step at a time, each in its own savepoint).
struct PlannedAccount {
  std::int64_t id = 0;       // 0: not in the database yet (opened by write_batch, balance 0)
  std::int64_t balance = 0;  // before the batch
};
struct PlannedPosting {
  const Posting* posting = nullptr;
  const std::string* time = nullptr;  // its step's time: a batch of logged steps has several
  std::size_t from = 0;  // index into BatchPlan::accounts
  std::size_t to = 0;
  std::int64_t from_balance_after = 0;
  std::int64_t to_balance_after = 0;
};
struct BatchPlan {
  std::vector<std::string> account_names;  // each account the batch moves chips of, once
  std::vector<PlannedAccount> accounts;    // alike, as read before the batch
  std::vector<std::int64_t> deltas;        // alike: what the batch adds to each
  // Each step's postings, in order; steps[i] belongs to the batch's writes[i].
  std::vector<std::vector<PlannedPosting>> steps;
};

// An open write transaction of a backend: the statements a table step, a new
// table or a new player writes, in the backend's SQL. Destroyed without
// commit(), it rolls back.
class WriteTransaction : public Reader {
 public:
  virtual ~WriteTransaction() = default;
  virtual void commit() = 0;

  // Who holds the table's lease, as this transaction sees it; nullopt: nobody.
  virtual std::optional<Fence> lease_of(const std::string& table) = 0;
  // The new player's id. PostgreSQL may throw NameTaken (another node, just now).
  virtual std::int64_t insert_player(const std::string& name, const std::string& token_hash,
                                     const std::string& time) = 0;
  virtual void insert_table(const TableRecord& table, const std::string& time) = 0;
  virtual void insert_seat(const std::string& table, const Seat& seat) = 0;
  virtual void delete_seats(const std::string& table) = 0;
  virtual void append_event(const std::string& table, const Event& event) = 0;
  // The transfer and its two ledger entries, each account opened on first use.
  // False when the payer is a player who cannot pay: what it wrote is undone
  // with its step (the posting is checked before: check_posting).
  virtual bool apply_posting(const Posting& posting, const std::string& time) = 0;
  virtual std::int64_t set_status(const std::string& table, const std::string& status) = 0;  // rows changed
  virtual void set_failure(const std::string& table, const std::string& failure) = 0;
  virtual void append_result(const std::string& table, const std::string& json, const std::string& time) = 0;
  virtual void insert_deal_start(const std::string& table, const DealStart& start) = 0;

  // Each step of a batch in its own savepoint: begin_step(), then end_step()
  // if it was written, which checks the ledger's deferred constraints for it
  // and releases the savepoint (false: a transfer does not balance; then
  // undo_step follows), or undo_step(why) to roll back to it and release it.
  virtual void begin_step() = 0;
  virtual bool end_step() = 0;
  virtual void undo_step(const std::string& why) = 0;

  // Batches (BatchPlan). A backend that does not write them says so, and its
  // batches go one step at a time in savepoints.
  // The write of a plan: start_batch, each step's rows but its postings in
  // order, then finish_batch with every posting. A backend may hold the rows
  // of a batch back and write them together (each kind in a few multi-row
  // statements) by the end of finish_batch. Any of them throws the database's
  // error when one of its checks refuses, leaving the transaction to be
  // rolled back whole.
  virtual bool writes_batches() const { return false; }
  // The named accounts that exist, as this transaction sees them, locked
  // against other writers until it ends: name -> id and balance before the batch.
  virtual std::vector<std::pair<std::string, PlannedAccount>> read_accounts(const std::vector<std::string>& names);
  // Opens the plan's accounts that are not in the database yet (their ids set).
  virtual void start_batch(BatchPlan& plan);
  // Every step's transfers and their ledger entries, in order, with the
  // balances planned, each at its step's time (PlannedPosting::time); each
  // account's balance moved by its delta, once; then the checks the database
  // defers to the commit (a transfer's entries), made now. `time` is the first
  // step's: a backend that writes one time for a whole batch (PostgreSQL,
  // which has no step log) checks that every posting's is the same.
  virtual void finish_batch(const BatchPlan& plan, const std::string& time);
};

// One connection to one database, with its SQL.
class SqlBackend : public Reader {
 public:
  virtual ~SqlBackend() = default;
  virtual std::string describe() const = 0;
  // Begins a write transaction. `writes` are the steps it will write: the
  // leases of the fenced ones may be read (and locked) here, once.
  virtual std::unique_ptr<WriteTransaction> begin_write(const std::vector<TableWrite>& writes) = 0;
  // Store::housekeep_in_background.
  virtual void housekeep_in_background(std::function<void(const std::string&)> report, WalLimits limits) {
    (void)report;
    (void)limits;
  }
  // A transaction about to write about `bytes` of rows, to the rows of
  // `tables` tables: room for the pages it changes, where the backend keeps
  // them (SQLite's page cache). Others: nothing.
  virtual void make_room_for_writing(std::size_t bytes, std::size_t tables) {
    (void)bytes;
    (void)tables;
  }
};

// ---------------------------------------------------------------------------
// The store, written once

// "posting 5 from player:ann to pool:t1:pot (ante)"
std::string describe_posting(const Posting& posting);
// Throws StorageError saying why a posting can never be written (amount, accounts).
void check_posting(const Posting& posting);
std::string utc_now_iso8601();

class SqlStore : public Store {
 public:
  int schema_version() override;
  std::string describe() const override;
  void housekeep_in_background(Report report, WalLimits limits = {}) override {
    sql_->housekeep_in_background(std::move(report), limits);
  }

  std::vector<Player> all_players() override;
  std::optional<Player> find_player(const std::string& name) override;
  std::optional<Player> find_player_by_token_hash(const std::string& token_hash) override;
  Player create_player(const std::string& name, const std::string& token_hash, std::int64_t starting_chips) override;
  Player register_player(const Registration& registration) override;
  std::string recovery_hash(std::int64_t player_id) override;
  bool add_recovery_hash(std::int64_t player_id, const std::string& hash) override;
  bool replace_secrets(std::int64_t player_id, const std::string& used_hash, const std::string& token_hash,
                       const std::string& recovery_hash) override;
  void create_signup_link(const SignupLink& link) override;
  std::vector<Device> all_devices() override;
  void add_device(std::int64_t player_id, const Device& device) override;
  bool remove_device(std::int64_t player_id, const std::string& device_id) override;
  void replace_token(std::int64_t player_id, const std::string& token_hash) override;
  std::string passphrase_hash(std::int64_t player_id) override;
  void set_passphrase_hash(std::int64_t player_id, const std::string& hash) override;

  std::vector<IdentityChange> identity_changes_after(std::int64_t after_seq, int limit) override;
  std::int64_t last_identity_change() override;
  std::int64_t prune_identity_changes(const std::string& before) override;
  void record_identity_change(const IdentityChange& change) override;
  void create_device_code(std::int64_t player_id, const std::string& code_hash, const std::string& expires_at) override;
  std::optional<Player> use_device_code(const std::string& code_hash, const std::string& now, Device device) override;
  void create_claim_link(std::int64_t player_id, const std::string& code_hash, const std::string& expires_at) override;
  std::string claim_link_hash(std::int64_t player_id, const std::string& now) override;
  bool use_claim_link(std::int64_t player_id, const std::string& used_hash, const std::string& token_hash,
                      const std::string& recovery_hash) override;
  std::vector<std::string> banned_names() override;
  bool set_banned(std::int64_t player_id, bool banned) override;
  void rename_player(std::int64_t player_id, const std::string& new_name) override;
  void transfer(const Posting& posting, const IdentityChange& change) override;
  void publish_presence(const Presence& presence) override;
  std::vector<Presence> presence_since(const std::string& since) override;
  void mark_seen(const std::vector<std::string>& names) override;
  std::vector<std::pair<std::string, std::string>> last_seen() override;

  std::int64_t balance(const std::string& account) override;
  std::vector<std::pair<std::string, std::int64_t>> balances(const std::string& prefix) override;
  std::vector<LedgerEntry> ledger(const std::string& account, int limit, std::optional<std::int64_t> before) override;
  std::int64_t total_of_all_accounts() override;
  std::vector<TableNet> table_nets(const std::string& table) override;

  void create_table(const TableRecord& table) override;
  void create_table(const TableRecord& table, const std::vector<TableWrite>& steps) override;
  std::optional<TableRecord> find_table(const std::string& id) override;
  std::vector<TableRecord> tables_with_status(const std::string& status) override;
  std::vector<TableRecord> tables_hosted_since(const std::string& host, const std::string& since, int limit) override;
  using Store::events;
  std::vector<Event> events_after(const std::string& table, std::int64_t after_seq) override;
  std::vector<Event> events_between(const std::string& table, std::int64_t after_seq, std::int64_t upto_seq) override;
  std::vector<std::string> results(const std::string& table) override;
  std::vector<DealStart> deal_starts(const std::string& table) override;
  std::optional<std::string> deal_state(const std::string& table, int deal) override;

  std::vector<CommitOutcome> commit(const std::vector<TableWrite>& writes) override;

  // Files logged steps (storage/step_filer.h) in one transaction, each batch's
  // writes at the batch's time, and records the last batch's lsn in it. A
  // batch at or below the lsn recorded before is passed over: it was filed.
  // A step the database refuses is not filed, nor any later step of its
  // table, which is marked failed (finished, with why); so is every step of
  // a table already marked failed. Returns the steps refused, in order.
  std::vector<RefusedStep> file_steps(std::vector<LoggedBatch> batches);
  // The last lsn filed (0: none).
  std::int64_t steps_filed_through();

  ~SqlStore() override;

 protected:
  SqlStore(std::unique_ptr<SqlBackend> backend, FaultOf fault_of);

 private:
  // The write plan: what one TableWrite writes, in this order. The event goes
  // first: if any later part fails, the whole write is undone, so the log and
  // the ledger never disagree.
  // `planned`: the postings are left to WriteTransaction::finish_batch, and
  // the fence was checked with the plan.
  void write_step(WriteTransaction& tx, const TableWrite& write, const std::string& time, bool planned = false);
  // One transaction: `writes`, each at times[i], as one plan when every step
  // commits, else step by step. `stop_tables`: after a step that did not
  // commit, the later steps of its table are not tried (failed: not written).
  // `finish` runs last in the transaction, told each step's outcome.
  using Finish = std::function<void(WriteTransaction&, const std::vector<CommitOutcome>&)>;
  std::vector<CommitOutcome> write_steps(const std::vector<TableWrite>& writes,
                                         const std::vector<const std::string*>& times, bool stop_tables,
                                         const Finish& finish);
  CommitOutcome write_in_savepoint(WriteTransaction& tx, const TableWrite& write, const std::string& time);
  void check_fence(WriteTransaction& tx, const TableWrite& write);
  // The plan of a batch in which every step is expected to commit; nullopt when
  // one is not (fenced, an invalid posting, a payer short of chips): that batch
  // goes step by step, which says what became of each.
  std::optional<BatchPlan> plan_batch(WriteTransaction& tx, const std::vector<TableWrite>& writes,
                                      const std::vector<const std::string*>& times);
  // Writes the batch as planned; false (nothing written, the transaction
  // rolled back) when the database refused part of it.
  bool write_planned(WriteTransaction& tx, const std::vector<TableWrite>& writes, BatchPlan& plan,
                     const std::vector<const std::string*>& times);
  // Appends a change to the identity feed, in the transaction of the change.
  void record_change(WriteTransaction& tx, IdentityChange change, const std::string& time);
  Player player_by_id(Reader& reader, std::int64_t player_id);
  void post(WriteTransaction& tx, const Posting& posting, const std::string& time);
  void insert_seats(WriteTransaction& tx, const std::string& table, const std::vector<Seat>& seats);
  std::vector<TableRecord> tables_with_seats(Query query, const Params& params);

  std::unique_ptr<SqlBackend> sql_;
  Guard guard_;
};

}  // namespace parlour::storage
