#include "storage/sql_store.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <limits>
#include <stdexcept>
#include <unordered_map>

namespace parlour::storage {

namespace {

constexpr int kMaxLedgerPage = 500;

// A step refused for a reason the table acts on; commit() turns each into its
// CommitOutcome kind. Elsewhere (creating a table) they are StorageErrors.
class StepFenced : public StorageError {
 public:
  using StorageError::StorageError;
};
class StepLackedChips : public StorageError {
 public:
  using StorageError::StorageError;
};

template <typename T>
std::vector<T> rows_of(Reader& reader, Query query, const Params& params, T (*from)(const Row&)) {
  std::vector<T> rows;
  reader.each_row(query, params, [&](const Row& row) { rows.push_back(from(row)); });
  return rows;
}

template <typename T>
std::optional<T> first_of(Reader& reader, Query query, const Params& params, T (*from)(const Row&)) {
  std::optional<T> first;
  reader.each_row(query, params, [&](const Row& row) {
    if (!first) first = from(row);
  });
  return first;
}

std::string describe_lease(const std::optional<Fence>& lease) {
  if (!lease) return "nobody";
  return "node " + lease->node + " (generation " + std::to_string(lease->generation) + ")";
}

}  // namespace

// ---------------------------------------------------------------------------

void Guard::raise(const std::string& what, const Fault& fault) {
  const std::string text = "while " + what + ": " + fault.why;
  if (fault.connection_lost) throw ConnectionLost(text);
  throw StorageError(text);
}

Player player_from(const Row& row) { return Player{row.integer(0), row.text(1), row.text(2)}; }

LedgerEntry ledger_entry_from(const Row& row) {
  LedgerEntry entry;
  entry.entry = row.integer(0);
  entry.time = row.text(1);
  entry.amount = row.integer(2);
  entry.balance = row.integer(3);
  entry.table = row.text_or_empty(4);
  entry.game = row.text_or_empty(5);
  entry.memo = row.text(6);
  entry.table_private = row.integer(7) != 0;
  entry.seq = row.integer_or_none(8);
  entry.deal = row.integer_or_none(9);
  return entry;
}

TableRecord table_from(const Row& row) {
  TableRecord table;
  table.id = row.text(0);
  table.game = row.text(1);
  table.options_json = row.text(2);
  table.seed = std::bit_cast<std::uint64_t>(row.integer(3));  // kept as the int64 with the same bits
  table.host = row.text(4);
  table.status = row.text(5);
  table.is_private = row.integer(6) != 0;
  table.invite = row.text_or_empty(7);
  table.deck_json = row.text_or_empty(8);
  table.failure = row.text_or_empty(9);
  table.created_at = row.text(10);
  table.clock_json = row.text_or_empty(11);
  return table;
}

Seat seat_from(const Row& row) {
  return Seat{static_cast<int>(row.integer(0)), row.text_or_empty(1), row.integer(2) != 0,
              static_cast<int>(row.integer(3))};
}

Event event_from(const Row& row) { return Event{row.integer(0), row.text(1)}; }

DealStart deal_start_from(const Row& row) {
  return DealStart{static_cast<int>(row.integer(0)), row.integer(1), row.text(2), "", row.integer(3) != 0};
}

TableNet table_net_from(const Row& row) { return TableNet{row.text(0), row.integer(1)}; }

std::pair<std::string, std::int64_t> balance_from(const Row& row) { return {row.text(0), row.integer(1)}; }

std::int64_t integer_from(const Row& row) { return row.integer(0); }

std::string text_from(const Row& row) { return row.text(0); }

Device device_from(const Row& row) { return Device{row.text(0), row.text(1), row.text(2), row.text(3), row.text(4)}; }

IdentityChange identity_change_from(const Row& row) {
  return IdentityChange{row.integer(0),       row.text(1),         row.text(2),         row.text(3),
                        row.integer(4),       row.text_or_empty(5), row.text_or_empty(6), row.text_or_empty(7),
                        row.text_or_empty(8)};
}

namespace {
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    if (end > start) lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}
}  // namespace

Presence presence_from(const Row& row) { return Presence{row.text(0), lines_of(row.text_or_empty(1)), row.text(2)}; }

std::pair<std::string, std::string> text_pair_from(const Row& row) { return {row.text(0), row.text_or_empty(1)}; }

std::string describe_posting(const Posting& posting) {
  std::string text = "posting " + std::to_string(posting.amount) + " from " + posting.from + " to " + posting.to;
  if (!posting.memo.empty()) text += " (" + posting.memo + ")";
  return text;
}

void check_posting(const Posting& posting) {
  if (posting.amount <= 0) throw StorageError("invalid " + describe_posting(posting) + ": the amount must be positive");
  if (posting.from.empty() || posting.to.empty()) {
    throw StorageError("invalid " + describe_posting(posting) + ": both accounts must be named");
  }
  if (posting.from == posting.to) {
    throw StorageError("invalid " + describe_posting(posting) + ": an account cannot pay itself");
  }
}

std::string utc_now_iso8601() { return utc_iso8601(std::chrono::system_clock::now()); }

// ---------------------------------------------------------------------------

SqlStore::SqlStore(std::unique_ptr<SqlBackend> backend, FaultOf fault_of)
    : sql_(std::move(backend)), guard_(fault_of) {}

SqlStore::~SqlStore() = default;

std::string SqlStore::describe() const { return sql_->describe(); }

int SqlStore::schema_version() {
  return guard_("reading the schema version", [&] {
    return static_cast<int>(first_of(*sql_, Query::schema_version, {}, integer_from).value_or(0));
  });
}

std::vector<Player> SqlStore::all_players() {
  return guard_("listing the players", [&] { return rows_of(*sql_, Query::all_players, {}, player_from); });
}

std::optional<Player> SqlStore::find_player(const std::string& name) {
  return guard_([&] { return "looking up player " + name; },
                [&] { return first_of(*sql_, Query::find_player, {name}, player_from); });
}

std::optional<Player> SqlStore::find_player_by_token_hash(const std::string& token_hash) {
  return guard_("looking up a player by token",
                [&] { return first_of(*sql_, Query::find_player_by_token_hash, {token_hash}, player_from); });
}

Player SqlStore::create_player(const std::string& name, const std::string& token_hash,
                               std::int64_t starting_chips) {
  return register_player(Registration{name, token_hash, starting_chips, "", std::nullopt, std::nullopt});
}

Player SqlStore::register_player(const Registration& registration) {
  const std::string& name = registration.name;
  if (name.empty()) throw StorageError("cannot register a player with an empty name");
  if (registration.starting_chips < 0) {
    throw StorageError("cannot register " + name + " with negative starting chips (" +
                       std::to_string(registration.starting_chips) + ")");
  }
  const std::string time = utc_now_iso8601();
  return guard_([&] { return "registering player " + name; }, [&] {
    const std::unique_ptr<WriteTransaction> tx = sql_->begin_write({});
    // Checked inside the write transaction (SQLite: under the write lock; on
    // PostgreSQL the unique index on lower(name) has the last word).
    if (std::optional<Player> existing = first_of(*tx, Query::find_player, {name}, player_from)) {
      throw NameTaken("name taken: '" + name + "' is already registered as '" + existing->name + "'");
    }
    // After the name check too; only an unfinished table's invite, on any node.
    if (registration.invite &&
        !first_of(*tx, Query::unfinished_table_by_invite, {*registration.invite}, text_from)) {
      throw InviteRefused("no unfinished table has that invite");
    }
    // After the name check, so that a taken name does not spend a use.
    if (registration.signup_hash &&
        !first_of(*tx, Query::use_signup_link, {*registration.signup_hash, time}, integer_from)) {
      throw SignupRefused("the sign-up link is unknown, used up or expired");
    }
    const Player player{tx->insert_player(name, registration.token_hash, time), name, registration.token_hash};
    if (!registration.recovery_hash.empty())
      first_of(*tx, Query::set_recovery_hash, {player.id, registration.recovery_hash, time}, integer_from);
    if (registration.starting_chips > 0) {
      post(*tx, Posting{bank_account(), player_account(name), registration.starting_chips, "starting chips", "", "",
                        std::nullopt, std::nullopt},
           time);
    }
    tx->commit();
    return player;
  });
}

std::string SqlStore::recovery_hash(std::int64_t player_id) {
  return guard_("reading a recovery code hash",
                [&] { return first_of(*sql_, Query::recovery_hash, {player_id}, text_from).value_or(""); });
}

bool SqlStore::add_recovery_hash(std::int64_t player_id, const std::string& hash) {
  const std::string time = utc_now_iso8601();
  return guard_([&] { return "adding a recovery code hash of player #" + std::to_string(player_id); }, [&] {
    const std::unique_ptr<WriteTransaction> tx = sql_->begin_write({});
    const bool added = first_of(*tx, Query::add_recovery_hash, {player_id, hash, time}, integer_from).has_value();
    tx->commit();
    return added;
  });
}

bool SqlStore::replace_secrets(std::int64_t player_id, const std::string& used_hash, const std::string& token_hash,
                               const std::string& recovery_hash) {
  const std::string time = utc_now_iso8601();
  return guard_([&] { return "replacing the token of player #" + std::to_string(player_id); }, [&] {
    const std::unique_ptr<WriteTransaction> tx = sql_->begin_write({});
    // The swap is the check: two recoveries with one code, only one swaps it.
    if (!first_of(*tx, Query::swap_recovery_hash, {player_id, used_hash, recovery_hash, time}, integer_from))
      return false;
    if (!first_of(*tx, Query::set_token_hash, {player_id, token_hash}, integer_from))
      throw StorageError("no player #" + std::to_string(player_id) + " to replace the token of");
    rows_of(*tx, Query::delete_devices_of, {player_id}, text_from);
    const Player player = player_by_id(*tx, player_id);
    record_change(*tx, {.kind = IdentityChange::token_replaced, .player_id = player_id, .name = player.name,
                        .token_hash = token_hash, .detail = "devices_cleared"}, time);
    tx->commit();
    return true;
  });
}

void SqlStore::create_signup_link(const SignupLink& link) {
  if (link.uses_left < 1) throw StorageError("a sign-up link needs at least one use");
  const std::string time = utc_now_iso8601();
  guard_([&] { return "storing a sign-up link of " + link.made_by; }, [&] {
    const std::unique_ptr<WriteTransaction> tx = sql_->begin_write({});
    first_of(*tx, Query::insert_signup_link, {link.code_hash, link.made_by, link.uses_left, link.expires_at, time},
             integer_from);
    tx->commit();
  });
}

std::vector<Device> SqlStore::all_devices() {
  return guard_("listing the devices", [&] {
    return rows_of(*sql_, Query::all_devices, {}, device_from);
  });
}

void SqlStore::add_device(std::int64_t player_id, const Device& device) {
  const std::string time = device.created_at.empty() ? utc_now_iso8601() : device.created_at;
  guard_([&] { return "adding a device of " + device.player; }, [&] {
    const std::unique_ptr<WriteTransaction> tx = sql_->begin_write({});
    if (!first_of(*tx, Query::insert_device, {device.id, player_id, device.token_hash, device.label, time}, text_from))
      throw StorageError("no player #" + std::to_string(player_id) + " to add a device to");
    record_change(*tx, {.kind = IdentityChange::device_added, .player_id = player_id, .name = device.player,
                        .token_hash = device.token_hash, .device_id = device.id, .detail = device.label}, time);
    tx->commit();
  });
}

bool SqlStore::remove_device(std::int64_t player_id, const std::string& device_id) {
  const std::string time = utc_now_iso8601();
  return guard_([&] { return "removing device " + device_id; }, [&] {
    const std::unique_ptr<WriteTransaction> tx = sql_->begin_write({});
    const std::optional<std::string> token_hash = first_of(*tx, Query::delete_device, {player_id, device_id}, text_from);
    if (!token_hash) return false;
    record_change(*tx, {.kind = IdentityChange::device_revoked, .player_id = player_id,
                        .name = player_by_id(*tx, player_id).name, .token_hash = *token_hash, .device_id = device_id},
                  time);
    tx->commit();
    return true;
  });
}

void SqlStore::replace_token(std::int64_t player_id, const std::string& token_hash) {
  const std::string time = utc_now_iso8601();
  guard_([&] { return "replacing the token of player #" + std::to_string(player_id); }, [&] {
    const std::unique_ptr<WriteTransaction> tx = sql_->begin_write({});
    if (!first_of(*tx, Query::set_token_hash, {player_id, token_hash}, integer_from))
      throw StorageError("no player #" + std::to_string(player_id) + " to replace the token of");
    record_change(*tx, {.kind = IdentityChange::token_replaced, .player_id = player_id,
                        .name = player_by_id(*tx, player_id).name, .token_hash = token_hash}, time);
    tx->commit();
  });
}

// ---------------------------------------------------------------------------
// Identity changes reaching every server (migration 12)

Player SqlStore::player_by_id(Reader& reader, std::int64_t player_id) {
  std::optional<Player> player = first_of(reader, Query::find_player_by_id, {player_id}, player_from);
  if (!player) throw StorageError("no player #" + std::to_string(player_id));
  return *player;
}

void SqlStore::record_change(WriteTransaction& tx, IdentityChange change, const std::string& time) {
  guard_([&] { return "recording an identity change (" + change.kind + " of " + change.name + ")"; }, [&] {
    tx.each_row(Query::lock_identity_feed, {}, [](const Row&) {});
    first_of(tx, Query::append_identity_change,
             {time, change_origin(), change.kind, change.player_id, change.name, change.token_hash, change.device_id,
              change.detail},
             integer_from);
  });
}

std::vector<IdentityChange> SqlStore::identity_changes_after(std::int64_t after_seq, int limit) {
  return guard_("reading the identity changes", [&] {
    return rows_of(*sql_, Query::identity_changes_after, {after_seq, std::int64_t{std::max(limit, 1)}},
                   identity_change_from);
  });
}

std::int64_t SqlStore::last_identity_change() {
  return guard_("reading the last identity change",
                [&] { return first_of(*sql_, Query::last_identity_change, {}, integer_from).value_or(0); });
}

std::int64_t SqlStore::prune_identity_changes(const std::string& before) {
  return guard_("pruning the identity changes", [&] {
    const std::unique_ptr<WriteTransaction> tx = sql_->begin_write({});
    const auto removed = static_cast<std::int64_t>(rows_of(*tx, Query::prune_identity_changes, {before}, integer_from).size());
    rows_of(*tx, Query::prune_device_codes, {before}, text_from);
    rows_of(*tx, Query::prune_claim_links, {before}, integer_from);
    tx->commit();
    return removed;
  });
}

void SqlStore::record_identity_change(const IdentityChange& change) {
  const std::string time = utc_now_iso8601();
  guard_("recording an identity change", [&] {
    const std::unique_ptr<WriteTransaction> tx = sql_->begin_write({});
    record_change(*tx, change, time);
    tx->commit();
  });
}

void SqlStore::create_device_code(std::int64_t player_id, const std::string& code_hash, const std::string& expires_at) {
  const std::string time = utc_now_iso8601();
  guard_([&] { return "storing a device code of player #" + std::to_string(player_id); }, [&] {
    const std::unique_ptr<WriteTransaction> tx = sql_->begin_write({});
    first_of(*tx, Query::insert_device_code, {code_hash, player_id, expires_at, time}, text_from);
    tx->commit();
  });
}

std::optional<Player> SqlStore::use_device_code(const std::string& code_hash, const std::string& now, Device device) {
  return guard_("signing in with a device code", [&]() -> std::optional<Player> {
    const std::unique_ptr<WriteTransaction> tx = sql_->begin_write({});
    std::optional<std::pair<std::int64_t, std::string>> code;
    tx->each_row(Query::use_device_code, {code_hash}, [&](const Row& row) { code.emplace(row.integer(0), row.text(1)); });
    // Used up by this try, whatever comes of it.
    if (!code || code->second <= now) {
      tx->commit();
      return std::nullopt;
    }
    const Player player = player_by_id(*tx, code->first);
    device.player = player.name;
    if (device.created_at.empty()) device.created_at = now;
    first_of(*tx, Query::insert_device, {device.id, player.id, device.token_hash, device.label, device.created_at},
             text_from);
    record_change(*tx, {.kind = IdentityChange::device_added, .player_id = player.id, .name = player.name,
                        .token_hash = device.token_hash, .device_id = device.id, .detail = device.label}, now);
    tx->commit();
    return player;
  });
}

void SqlStore::create_claim_link(std::int64_t player_id, const std::string& code_hash, const std::string& expires_at) {
  const std::string time = utc_now_iso8601();
  guard_([&] { return "storing a claim link of player #" + std::to_string(player_id); }, [&] {
    const std::unique_ptr<WriteTransaction> tx = sql_->begin_write({});
    if (!first_of(*tx, Query::set_claim_link, {player_id, code_hash, expires_at, time}, integer_from))
      throw StorageError("no player #" + std::to_string(player_id) + " to make a claim link for");
    tx->commit();
  });
}

std::string SqlStore::claim_link_hash(std::int64_t player_id, const std::string& now) {
  return guard_("reading a claim link", [&] {
    return first_of(*sql_, Query::claim_link_hash, {player_id, now}, text_from).value_or("");
  });
}

bool SqlStore::use_claim_link(std::int64_t player_id, const std::string& used_hash, const std::string& token_hash,
                              const std::string& recovery_hash) {
  const std::string time = utc_now_iso8601();
  return guard_([&] { return "claiming player #" + std::to_string(player_id); }, [&] {
    const std::unique_ptr<WriteTransaction> tx = sql_->begin_write({});
    // Removing the link is the check: two claims with one link, only one removes it.
    if (!first_of(*tx, Query::use_claim_link, {player_id, used_hash}, integer_from)) return false;
    if (!first_of(*tx, Query::set_token_hash, {player_id, token_hash}, integer_from))
      throw StorageError("no player #" + std::to_string(player_id) + " to replace the token of");
    first_of(*tx, Query::set_recovery_hash, {player_id, recovery_hash, time}, integer_from);
    rows_of(*tx, Query::delete_devices_of, {player_id}, text_from);
    record_change(*tx, {.kind = IdentityChange::token_replaced, .player_id = player_id,
                        .name = player_by_id(*tx, player_id).name, .token_hash = token_hash,
                        .detail = "devices_cleared"}, time);
    tx->commit();
    return true;
  });
}

std::vector<std::string> SqlStore::banned_names() {
  return guard_("listing the banned names", [&] { return rows_of(*sql_, Query::banned_names, {}, text_from); });
}

bool SqlStore::set_banned(std::int64_t player_id, bool banned) {
  const std::string time = utc_now_iso8601();
  return guard_([&] { return (banned ? "banning player #" : "unbanning player #") + std::to_string(player_id); }, [&] {
    const std::unique_ptr<WriteTransaction> tx = sql_->begin_write({});
    const Player player = player_by_id(*tx, player_id);
    const bool changed =
        banned ? first_of(*tx, Query::ban_player, {player_id, time}, integer_from).has_value()
               : first_of(*tx, Query::unban_player, {player_id}, integer_from).has_value();
    if (!changed) return false;
    record_change(*tx, {.kind = banned ? IdentityChange::banned : IdentityChange::unbanned, .player_id = player_id,
                        .name = player.name}, time);
    tx->commit();
    return true;
  });
}

void SqlStore::rename_player(std::int64_t player_id, const std::string& new_name) {
  if (new_name.empty()) throw StorageError("cannot rename a player to an empty name");
  const std::string time = utc_now_iso8601();
  guard_([&] { return "renaming player #" + std::to_string(player_id) + " to " + new_name; }, [&] {
    const std::unique_ptr<WriteTransaction> tx = sql_->begin_write({});
    tx->each_row(Query::lock_identity_feed, {}, [](const Row&) {});
    const Player player = player_by_id(*tx, player_id);
    if (std::optional<Player> other = first_of(*tx, Query::find_player, {new_name}, player_from);
        other && other->id != player_id) {
      throw NameTaken("name taken: '" + new_name + "' is already registered as '" + other->name + "'");
    }
    first_of(*tx, Query::rename_player, {player_id, new_name}, integer_from);
    // The chips and their history go with the name (a case change keeps the account).
    if (player_account(player.name) != player_account(new_name))
      first_of(*tx, Query::rename_account, {player_account(player.name), player_account(new_name)}, integer_from);
    record_change(*tx, {.kind = IdentityChange::renamed, .player_id = player_id, .name = new_name,
                        .detail = player.name}, time);
    tx->commit();
  });
}

void SqlStore::transfer(const Posting& posting, const IdentityChange& change) {
  const std::string time = utc_now_iso8601();
  guard_([&] { return describe_posting(posting); }, [&] {
    const std::unique_ptr<WriteTransaction> tx = sql_->begin_write({});
    tx->begin_step();
    post(*tx, posting, time);
    if (!tx->end_step()) throw StorageError(describe_posting(posting) + " does not balance");
    record_change(*tx, change, time);
    tx->commit();
  });
}

void SqlStore::publish_presence(const Presence& presence) {
  std::string names;
  for (const std::string& name : presence.names) names += name + "\n";
  const std::string time = presence.updated_at.empty() ? utc_now_iso8601() : presence.updated_at;
  guard_([&] { return "publishing the presence of node " + presence.node; }, [&] {
    const std::unique_ptr<WriteTransaction> tx = sql_->begin_write({});
    first_of(*tx, Query::publish_presence, {presence.node, names, time}, text_from);
    tx->commit();
  });
}

std::vector<Presence> SqlStore::presence_since(const std::string& since) {
  return guard_("reading who is online", [&] { return rows_of(*sql_, Query::presence_since, {since}, presence_from); });
}

void SqlStore::mark_seen(const std::vector<std::string>& names) {
  if (names.empty()) return;
  const std::string time = utc_now_iso8601();
  guard_("marking names seen", [&] {
    const std::unique_ptr<WriteTransaction> tx = sql_->begin_write({});
    for (const std::string& name : names) first_of(*tx, Query::mark_seen, {name, time}, integer_from);
    tx->commit();
  });
}

std::vector<std::pair<std::string, std::string>> SqlStore::last_seen() {
  return guard_("reading when names were last seen",
                [&] { return rows_of(*sql_, Query::last_seen, {}, text_pair_from); });
}

std::string SqlStore::passphrase_hash(std::int64_t player_id) {
  return guard_("reading a passphrase hash",
                [&] { return first_of(*sql_, Query::passphrase_hash, {player_id}, text_from).value_or(""); });
}

void SqlStore::set_passphrase_hash(std::int64_t player_id, const std::string& hash) {
  const std::string time = utc_now_iso8601();
  guard_([&] { return "setting the passphrase of player #" + std::to_string(player_id); }, [&] {
    const std::unique_ptr<WriteTransaction> tx = sql_->begin_write({});
    first_of(*tx, Query::set_passphrase_hash, {player_id, hash, time}, integer_from);
    tx->commit();
  });
}

std::int64_t SqlStore::balance(const std::string& account) {
  return guard_([&] { return "reading the balance of " + account; },
                [&] { return first_of(*sql_, Query::balance, {account}, integer_from).value_or(0); });
}

std::vector<std::pair<std::string, std::int64_t>> SqlStore::balances(const std::string& prefix) {
  return guard_([&] { return "reading the balances of accounts starting with '" + prefix + "'"; },
                [&] { return rows_of(*sql_, Query::balances_with_prefix, {prefix}, balance_from); });
}

std::vector<LedgerEntry> SqlStore::ledger(const std::string& account, int limit, std::optional<std::int64_t> before) {
  const Params params{account, before.value_or(std::numeric_limits<std::int64_t>::max()),
                      std::int64_t{std::clamp(limit, 1, kMaxLedgerPage)}};
  return guard_([&] { return "reading the ledger of " + account; },
                [&] { return rows_of(*sql_, Query::ledger_page, params, ledger_entry_from); });
}

std::int64_t SqlStore::total_of_all_accounts() {
  return guard_("adding up all accounts",
                [&] { return first_of(*sql_, Query::total_of_all_accounts, {}, integer_from).value_or(0); });
}

std::vector<TableNet> SqlStore::table_nets(const std::string& table) {
  return guard_([&] { return "adding up the movements at table " + table; },
                [&] { return rows_of(*sql_, Query::table_nets, {table}, table_net_from); });
}

void SqlStore::create_table(const TableRecord& table) { create_table(table, std::vector<TableWrite>{}); }

void SqlStore::create_table(const TableRecord& table, const std::vector<TableWrite>& steps) {
  guard_([&] { return "creating table " + table.id; }, [&] {
    const std::unique_ptr<WriteTransaction> tx = sql_->begin_write(steps);
    const std::string now = utc_now_iso8601();
    tx->insert_table(table, now);
    insert_seats(*tx, table.id, table.seats);
    for (const TableWrite& step : steps) write_step(*tx, step, now);
    tx->commit();
  });
}

std::vector<TableRecord> SqlStore::tables_with_seats(Query query, const Params& params) {
  std::vector<TableRecord> tables = rows_of(*sql_, query, params, table_from);
  // Seats are read after the tables, so that one statement steps at a time.
  for (TableRecord& table : tables) table.seats = rows_of(*sql_, Query::seats, {table.id}, seat_from);
  return tables;
}

std::optional<TableRecord> SqlStore::find_table(const std::string& id) {
  return guard_([&] { return "reading table " + id; }, [&]() -> std::optional<TableRecord> {
    std::vector<TableRecord> tables = tables_with_seats(Query::find_table, {id});
    if (tables.empty()) return std::nullopt;
    return std::move(tables.front());
  });
}

std::vector<TableRecord> SqlStore::tables_with_status(const std::string& status) {
  return guard_([&] { return "listing the " + status + " tables"; },
                [&] { return tables_with_seats(Query::tables_with_status, {status}); });
}

std::vector<TableRecord> SqlStore::tables_hosted_since(const std::string& host, const std::string& since, int limit) {
  return guard_([&] { return "listing the tables " + host + " hosted since " + since; }, [&] {
    return tables_with_seats(Query::tables_hosted_since, {host, since, std::int64_t{std::max(limit, 0)}});
  });
}

std::vector<Event> SqlStore::events_after(const std::string& table, std::int64_t after_seq) {
  return guard_([&] { return "reading the events of table " + table; },
                [&] { return rows_of(*sql_, Query::events_after, {table, after_seq}, event_from); });
}

std::vector<Event> SqlStore::events_between(const std::string& table, std::int64_t after_seq,
                                           std::int64_t upto_seq) {
  return guard_([&] { return "reading the events of table " + table; },
                [&] { return rows_of(*sql_, Query::events_between, {table, after_seq, upto_seq}, event_from); });
}

std::vector<DealStart> SqlStore::deal_starts(const std::string& table) {
  return guard_([&] { return "reading the deals of table " + table; },
                [&] { return rows_of(*sql_, Query::deal_starts, {table}, deal_start_from); });
}

std::optional<std::string> SqlStore::deal_state(const std::string& table, int deal) {
  return guard_([&] { return "reading the state before deal " + std::to_string(deal) + " of table " + table; },
                [&]() -> std::optional<std::string> {
                  auto state = first_of(*sql_, Query::deal_state, {table, std::int64_t{deal}}, text_from);
                  if (state && state->empty()) return std::nullopt;  // that deal's start kept no state
                  return state;
                });
}

std::vector<std::string> SqlStore::results(const std::string& table) {
  return guard_([&] { return "reading the results of table " + table; },
                [&] { return rows_of(*sql_, Query::results, {table}, text_from); });
}

std::vector<CommitOutcome> SqlStore::commit(const std::vector<TableWrite>& writes) {
  if (writes.empty()) return {};
  // One timestamp for the batch: its writes become visible at the same instant.
  const std::string time = utc_now_iso8601();
  const std::vector<const std::string*> times(writes.size(), &time);
  return guard_([&] { return "committing a batch of " + std::to_string(writes.size()) + " table writes"; },
                [&] { return write_steps(writes, times, false, [](WriteTransaction&, const auto&) {}); });
}

std::vector<CommitOutcome> SqlStore::write_steps(const std::vector<TableWrite>& writes,
                                                 const std::vector<const std::string*>& times, bool stop_tables,
                                                 const Finish& finish) {
  std::vector<CommitOutcome> outcomes;
  std::unique_ptr<WriteTransaction> tx = sql_->begin_write(writes);
  // The common case, every step committing, is written as one plan; a batch
  // with a step that will not, or that the database refuses, goes step by
  // step, each in a savepoint, which says what became of each.
  if (!writes.empty() && tx->writes_batches()) {
    if (std::optional<BatchPlan> plan = plan_batch(*tx, writes, times)) {
      if (write_planned(*tx, writes, *plan, times)) {
        outcomes.assign(writes.size(), CommitOutcome{});
        finish(*tx, outcomes);
        tx->commit();
        return outcomes;
      }
      tx.reset();  // rolled back whole
      tx = sql_->begin_write(writes);
    }
  }
  std::vector<const std::string*> stopped;
  for (std::size_t i = 0; i < writes.size(); ++i) {
    const TableWrite& write = writes[i];
    const bool after_refusal = std::any_of(stopped.begin(), stopped.end(),
                                           [&](const std::string* table) { return *table == write.table; });
    if (after_refusal) {
      outcomes.push_back(CommitOutcome::failure("not written: an earlier step of table " + write.table +
                                                " was refused"));
      continue;
    }
    outcomes.push_back(write_in_savepoint(*tx, write, *times[i]));
    if (stop_tables && !outcomes.back().committed()) stopped.push_back(&write.table);
  }
  finish(*tx, outcomes);
  tx->commit();
  return outcomes;
}

std::int64_t SqlStore::steps_filed_through() {
  return guard_("reading how far the step log is filed",
                [&] { return first_of(*sql_, Query::steps_filed_through, {}, integer_from).value_or(0); });
}

namespace {

// About what a step's rows hold, for sizing a transaction's room: its texts
// and about 100 bytes of keys and numbers a row.
std::size_t rows_bytes(const std::vector<TableWrite>& writes) {
  constexpr std::size_t kRow = 100;
  std::size_t bytes = 0;
  for (const TableWrite& write : writes) {
    if (write.event) bytes += kRow + write.event->json.size();
    for (const Posting& posting : write.postings) bytes += kRow + posting.memo.size();
    if (write.deal_start) bytes += kRow + write.deal_start->entry_json.size() + write.deal_start->state_json.size();
    if (write.result_json) bytes += kRow + write.result_json->size();
  }
  return bytes;
}

}  // namespace

std::vector<RefusedStep> SqlStore::file_steps(std::vector<LoggedBatch> batches) {
  std::vector<RefusedStep> refused;
  if (batches.empty()) return refused;
  guard_([&] { return "filing " + std::to_string(batches.size()) + " batches of logged table steps"; }, [&] {
    const std::int64_t filed = steps_filed_through();
    // The steps not filed yet, but those of tables that failed before them.
    std::vector<TableWrite> writes;
    std::vector<const std::string*> times;
    std::unordered_map<std::string, bool> failed_before;  // each table of the batches: failed before them?
    for (LoggedBatch& batch : batches) {
      if (batch.lsn <= filed) continue;
      for (TableWrite& write : batch.writes) {
        const auto [known, first_seen] = failed_before.try_emplace(write.table, false);
        if (first_seen) known->second = first_of(*sql_, Query::table_failure, {write.table}, text_from).has_value();
        // Its refusal was told when the table failed; a step logged after it has nothing to go on.
        if (known->second) continue;
        writes.push_back(std::move(write));
        times.push_back(&batch.time);
      }
    }
    const std::int64_t last = batches.back().lsn;
    if (last <= filed) return;
    sql_->make_room_for_writing(rows_bytes(writes), failed_before.size());
    const auto mark_and_stop = [&](WriteTransaction& tx, const std::vector<CommitOutcome>& outcomes) {
      for (std::size_t i = 0; i < outcomes.size(); ++i) {
        if (outcomes[i].committed()) continue;
        const TableWrite& write = writes[i];
        const bool first_of_table = std::none_of(refused.begin(), refused.end(),
                                                 [&](const RefusedStep& step) { return step.table == write.table; });
        if (!first_of_table) continue;
        refused.push_back({write.table, write.event ? std::optional(write.event->seq) : std::nullopt,
                           outcomes[i].detail});
        const std::string failure = "the database refused a step when it was filed: " + outcomes[i].detail;
        guard_([&] { return "marking table " + write.table + " failed"; }, [&] {
          tx.set_failure(write.table, failure);
          tx.set_status(write.table, "finished");
        });
      }
      first_of(tx, Query::file_steps_through, {last}, integer_from);
    };
    write_steps(writes, times, true, mark_and_stop);
  });
  return refused;
}

// ---------------------------------------------------------------------------
// Batches written as one plan

namespace {

bool posting_is_valid(const Posting& posting) {
  return posting.amount > 0 && !posting.from.empty() && !posting.to.empty() && posting.from != posting.to;
}

// The accounts the database keeps from going negative (the other side of its
// CHECK constraint and of PostgreSQL's debit statement).
bool is_player_account(const std::string& account) { return account.rfind("player:", 0) == 0; }

// Where each account is in a plan, adding it on first sight. A commit's batch
// touches few accounts (a table's pot and its players), where a scan beats a
// hash; a filing of the step log touches thousands (every table's), where a
// scan a posting cost more than the filing's statements.
class AccountIndex {
 public:
  explicit AccountIndex(BatchPlan& plan) : plan_(plan) {}

  std::size_t operator()(const std::string& name) {
    if (!by_name_.empty()) {
      const auto [at, added] = by_name_.try_emplace(name, plan_.account_names.size());
      if (added) plan_.account_names.push_back(name);
      return at->second;
    }
    for (std::size_t i = 0; i < plan_.account_names.size(); ++i)
      if (plan_.account_names[i] == name) return i;
    plan_.account_names.push_back(name);
    if (plan_.account_names.size() > kMostScanned)
      for (std::size_t i = 0; i < plan_.account_names.size(); ++i) by_name_.emplace(plan_.account_names[i], i);
    return plan_.account_names.size() - 1;
  }

 private:
  static constexpr std::size_t kMostScanned = 32;
  BatchPlan& plan_;
  std::unordered_map<std::string, std::size_t> by_name_;  // once past kMostScanned
};

}  // namespace

std::optional<BatchPlan> SqlStore::plan_batch(WriteTransaction& tx, const std::vector<TableWrite>& writes,
                                              const std::vector<const std::string*>& times) {
  BatchPlan plan;
  AccountIndex account_index(plan);
  plan.steps.resize(writes.size());
  for (std::size_t i = 0; i < writes.size(); ++i) {
    const TableWrite& write = writes[i];
    if (write.fence) {
      const std::optional<Fence> lease = tx.lease_of(write.table);
      if (!lease || lease->node != write.fence->node || lease->generation != write.fence->generation)
        return std::nullopt;
    }
    plan.steps[i].reserve(write.postings.size());
    for (const Posting& posting : write.postings) {
      if (!posting_is_valid(posting)) return std::nullopt;
      plan.steps[i].push_back(
          PlannedPosting{&posting, times[i], account_index(posting.from), account_index(posting.to), 0, 0});
    }
  }
  const std::size_t count = plan.account_names.size();
  plan.accounts.assign(count, PlannedAccount{});
  if (count > 0) {
    for (const auto& [name, account] : tx.read_accounts(plan.account_names))
      plan.accounts[account_index(name)] = account;
  }
  // Each posting in order, as the database would see it: a payer that is a
  // player short of the chips means a step that will not commit.
  std::vector<std::int64_t> balances(count);
  for (std::size_t a = 0; a < count; ++a) balances[a] = plan.accounts[a].balance;
  for (std::vector<PlannedPosting>& step : plan.steps) {
    for (PlannedPosting& planned : step) {
      const std::int64_t amount = planned.posting->amount;
      if (is_player_account(planned.posting->from) && balances[planned.from] < amount) return std::nullopt;
      planned.from_balance_after = balances[planned.from] -= amount;
      planned.to_balance_after = balances[planned.to] += amount;
    }
  }
  plan.deltas.resize(count);
  for (std::size_t a = 0; a < count; ++a) plan.deltas[a] = balances[a] - plan.accounts[a].balance;
  return plan;
}

bool SqlStore::write_planned(WriteTransaction& tx, const std::vector<TableWrite>& writes, BatchPlan& plan,
                             const std::vector<const std::string*>& times) {
  try {
    guard_("writing a planned batch", [&] {
      tx.start_batch(plan);
      for (std::size_t i = 0; i < writes.size(); ++i) write_step(tx, writes[i], *times[i], true);
      tx.finish_batch(plan, *times.front());
    });
    return true;
  } catch (const ConnectionLost&) {
    throw;
  } catch (const StorageError&) {
    return false;  // the steps, one at a time, will say which and why
  }
}

std::vector<std::pair<std::string, PlannedAccount>> WriteTransaction::read_accounts(const std::vector<std::string>&) {
  throw std::logic_error("this backend does not write batches");
}
void WriteTransaction::start_batch(BatchPlan&) { throw std::logic_error("this backend does not write batches"); }
void WriteTransaction::finish_batch(const BatchPlan&, const std::string&) {
  throw std::logic_error("this backend does not write batches");
}

// ---------------------------------------------------------------------------
// The write plan

void SqlStore::write_step(WriteTransaction& tx, const TableWrite& write, const std::string& time, bool planned) {
  const std::string& table = write.table;
  if (write.fence && !planned) check_fence(tx, write);
  if (write.event) {
    guard_([&] { return "appending event " + std::to_string(write.event->seq) + " of table " + table; },
           [&] { tx.append_event(table, *write.event); });
  }
  if (!planned)
    for (const Posting& posting : write.postings) post(tx, posting, time);
  if (write.status) {
    const std::int64_t changed =
        guard_([&] { return "setting the status of table " + table + " to '" + *write.status + "'"; },
               [&] { return tx.set_status(table, *write.status); });
    if (changed == 0) throw StorageError("cannot set the status of table " + table + ": no such table");
  }
  if (write.seats) {
    guard_([&] { return "clearing the seats of table " + table; }, [&] { tx.delete_seats(table); });
    insert_seats(tx, table, *write.seats);
  }
  if (write.result_json) {
    guard_([&] { return "recording a result of table " + table; },
           [&] { tx.append_result(table, *write.result_json, time); });
  }
  if (write.failure) {
    guard_([&] { return "marking table " + table + " failed"; }, [&] { tx.set_failure(table, *write.failure); });
  }
  if (write.deal_start) {
    guard_([&] { return "keeping the start of deal " + std::to_string(write.deal_start->deal) + " of table " + table; },
           [&] { tx.insert_deal_start(table, *write.deal_start); });
  }
}

void SqlStore::check_fence(WriteTransaction& tx, const TableWrite& write) {
  const Fence& fence = *write.fence;
  const std::optional<Fence> lease = tx.lease_of(write.table);
  if (lease && lease->node == fence.node && lease->generation == fence.generation) return;
  throw StepFenced("fenced: table " + write.table + " is leased to " + describe_lease(lease) + ", not to node " +
                   fence.node + " (generation " + std::to_string(fence.generation) + ")");
}

void SqlStore::post(WriteTransaction& tx, const Posting& posting, const std::string& time) {
  check_posting(posting);
  const bool paid =
      guard_([&] { return describe_posting(posting); }, [&] { return tx.apply_posting(posting, time); });
  if (paid) return;
  // What the refused debit left is the balance before it.
  const std::int64_t has = first_of(tx, Query::balance, {posting.from}, integer_from).value_or(0);
  throw StepLackedChips("insufficient chips for " + describe_posting(posting) + ": " + posting.from + " has " +
                        std::to_string(has));
}

void SqlStore::insert_seats(WriteTransaction& tx, const std::string& table, const std::vector<Seat>& seats) {
  for (const Seat& seat : seats) {
    guard_(
        [&] {
          return "seating " + (seat.player.empty() ? std::string("nobody") : seat.player) + " at seat " +
                 std::to_string(seat.seat) + " of table " + table;
        },
        [&] { tx.insert_seat(table, seat); });
  }
}

CommitOutcome SqlStore::write_in_savepoint(WriteTransaction& tx, const TableWrite& write, const std::string& time) {
  tx.begin_step();
  CommitOutcome outcome;
  try {
    const bool balanced = guard_([&] { return "writing table " + write.table; }, [&] {
      write_step(tx, write, time);
      return tx.end_step();
    });
    if (balanced) return outcome;
    outcome = CommitOutcome::failure("while writing table " + write.table +
                                     ": a transfer does not balance (expected two ledger entries summing to zero)");
  } catch (const ConnectionLost&) {
    throw;  // the whole batch is lost, not this step
  } catch (const StepFenced& e) {
    outcome = {CommitOutcome::Kind::fenced, e.what()};
  } catch (const StepLackedChips& e) {
    outcome = {CommitOutcome::Kind::lacked_chips, e.what()};
  } catch (const StorageError& e) {
    outcome = CommitOutcome::failure(e.what());
  }
  tx.undo_step(outcome.detail);
  return outcome;
}

}  // namespace parlour::storage
