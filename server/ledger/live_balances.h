// Chip balances as the tables see them: the ledger's balances plus the steps
// applied but not yet committed. Loaded from the ledger once at start and kept
// in step with every posting since, so no table ever reads the database for a balance.
// A table holds the lock while it reads balances, runs the rules and applies the
// resulting postings, so two tables can never both spend the same chips; a step
// whose commit fails is reverted.
//
// A player's chips are his across tables, so a table must hear when they move
// elsewhere: each table watches the accounts of the people seated at it, and
// every change to a watched balance (this node's other tables, a registration,
// a reverted step, or another node's writes read by refresh()) wakes it.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "storage/store.h"

namespace parlour::server {

class LiveBalances {
 public:
  using Lock = std::unique_lock<std::mutex>;

  LiveBalances() = default;
  explicit LiveBalances(const std::vector<std::pair<std::string, std::int64_t>>& accounts);

  Lock lock() { return Lock(mutex_); }
  // Has this account ever moved a chip?
  bool known(const std::string& account, const Lock&) const { return balances_.count(account) != 0; }
  // 0 for an account that has never moved a chip.
  std::int64_t balance(const std::string& account, const Lock&) const;
  // True if no player account would go below zero.
  bool affordable(const std::vector<storage::Posting>& postings, const Lock&) const;
  // A table step's postings, before its commit.
  void apply(const std::vector<storage::Posting>& postings, const Lock&);
  // Postings already committed (a registration's grant, a rematch's first step).
  void apply_committed(const std::vector<storage::Posting>& postings, const Lock&);
  // A step whose commit failed.
  void revert(const std::vector<storage::Posting>& postings);

  // Several nodes share the ledger, so the database's balances move under this
  // node's feet. With tracking on, the postings applied but not yet committed
  // are kept apart, and refresh() sets each account to the database's balance
  // plus them. settled() and refresh() must run on the writer's thread, between
  // its transactions, so that "committed" means the same to both.
  void track_uncommitted() { tracking_ = true; }
  void settled(const std::vector<storage::Posting>& postings);
  void refresh(const std::vector<std::pair<std::string, std::int64_t>>& committed);
  // Calls `wake` whenever `account`'s balance changes, until unwatch() with the
  // same `watcher` (any key unique to the caller, such as its address). `wake`
  // may run on any thread, under this object's lock: it must only post work
  // elsewhere, never call back in or block.
  using Wake = std::function<void()>;
  void watch(const std::string& account, const void* watcher, Wake wake);
  void unwatch(const std::string& account, const void* watcher);

  // Every account whose name starts with `prefix` and holds chips (a table's pools).
  std::vector<std::pair<std::string, std::int64_t>> holding(const std::string& prefix, const Lock&) const;

  std::int64_t balance(const std::string& account) {
    auto held = lock();
    return balance(account, held);
  }

 private:
  void settle_locked(const std::vector<storage::Posting>& postings);
  // Wakes the watchers of the accounts the postings touch.
  void wake_watchers(const std::vector<storage::Posting>& postings);
  void wake_watchers(const std::vector<std::string>& accounts);

  std::mutex mutex_;
  std::unordered_map<std::string, std::int64_t> balances_;
  bool tracking_ = false;
  std::unordered_map<std::string, std::int64_t> uncommitted_;  // net of applied, uncommitted postings

  // Its own lock, taken after mutex_ (never before), so that watching and
  // unwatching never wait on a table holding the balances.
  std::mutex watchers_mutex_;
  std::unordered_map<std::string, std::map<const void*, Wake>> watchers_;  // by account
};

}  // namespace parlour::server
