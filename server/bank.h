// Chip balances as the tables see them: the ledger's balances plus the steps
// applied but not yet committed. Tables hold the lock while they read balances,
// run the rules and apply the resulting postings, so two tables can never both
// spend the same chips; a step whose commit fails is reverted.
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "storage/database.h"

namespace parlour::server {

class Bank {
 public:
  using Loader = std::function<std::int64_t(const std::string& account)>;
  using Lock = std::unique_lock<std::mutex>;

  explicit Bank(Loader loader) : loader_(std::move(loader)) {}

  Lock lock() { return Lock(mutex_); }
  std::int64_t balance(const std::string& account, const Lock&);
  // True if no player account would go below zero.
  bool affordable(const std::vector<storage::Posting>& postings, const Lock&);
  void apply(const std::vector<storage::Posting>& postings, const Lock&);
  void revert(const std::vector<storage::Posting>& postings);
  // Reloads the account from the ledger at next use (after a write outside tables).
  void forget(const std::string& account);

  std::int64_t balance(const std::string& account) {
    auto held = lock();
    return balance(account, held);
  }

 private:
  std::int64_t& slot(const std::string& account);

  Loader loader_;
  std::mutex mutex_;
  std::unordered_map<std::string, std::int64_t> balances_;
};

}  // namespace parlour::server
