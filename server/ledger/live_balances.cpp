#include "server/ledger/live_balances.h"

#include <algorithm>

namespace parlour::server {

LiveBalances::LiveBalances(const std::vector<std::pair<std::string, std::int64_t>>& accounts) {
  for (const auto& [account, balance] : accounts) balances_[account] = balance;
}

std::int64_t LiveBalances::balance(const std::string& account, const Lock&) const {
  const auto it = balances_.find(account);
  return it == balances_.end() ? 0 : it->second;
}

bool LiveBalances::affordable(const std::vector<storage::Posting>& postings, const Lock& held) const {
  std::unordered_map<std::string, std::int64_t> after;
  for (const auto& p : postings) {
    if (!after.count(p.from)) after[p.from] = balance(p.from, held);
    if (!after.count(p.to)) after[p.to] = balance(p.to, held);
    after[p.from] -= p.amount;
    after[p.to] += p.amount;
  }
  for (const auto& [account, balance] : after)
    if (balance < 0 && account.rfind("player:", 0) == 0) return false;
  return true;
}

void LiveBalances::apply(const std::vector<storage::Posting>& postings, const Lock& held) {
  apply_committed(postings, held);
  if (!tracking_) return;
  for (const auto& p : postings) {
    uncommitted_[p.from] -= p.amount;
    uncommitted_[p.to] += p.amount;
  }
}

void LiveBalances::apply_committed(const std::vector<storage::Posting>& postings, const Lock&) {
  for (const auto& p : postings) {
    balances_[p.from] -= p.amount;
    balances_[p.to] += p.amount;
  }
  wake_watchers(postings);
}

void LiveBalances::revert(const std::vector<storage::Posting>& postings) {
  auto held = lock();
  for (auto it = postings.rbegin(); it != postings.rend(); ++it) {
    balances_[it->from] += it->amount;
    balances_[it->to] -= it->amount;
  }
  if (tracking_) settle_locked(postings);
  wake_watchers(postings);
}

void LiveBalances::settled(const std::vector<storage::Posting>& postings) {
  if (!tracking_) return;
  auto held = lock();
  settle_locked(postings);
}

void LiveBalances::settle_locked(const std::vector<storage::Posting>& postings) {
  for (const auto& p : postings) {
    for (const auto& [account, delta] : {std::pair{&p.from, p.amount}, std::pair{&p.to, -p.amount}}) {
      auto it = uncommitted_.find(*account);
      if (it == uncommitted_.end()) continue;
      it->second += delta;
      if (it->second == 0) uncommitted_.erase(it);
    }
  }
}

void LiveBalances::refresh(const std::vector<std::pair<std::string, std::int64_t>>& committed) {
  auto held = lock();
  std::vector<std::string> moved;
  for (const auto& [account, balance] : committed) {
    const auto pending = uncommitted_.find(account);
    auto& live = balances_[account];
    const auto fresh = balance + (pending == uncommitted_.end() ? 0 : pending->second);
    if (live != fresh) moved.push_back(account);
    live = fresh;
  }
  wake_watchers(moved);
}

void LiveBalances::watch(const std::string& account, const void* watcher, Wake wake) {
  std::lock_guard held(watchers_mutex_);
  watchers_[account][watcher] = std::move(wake);
}

void LiveBalances::unwatch(const std::string& account, const void* watcher) {
  std::lock_guard held(watchers_mutex_);
  const auto it = watchers_.find(account);
  if (it == watchers_.end()) return;
  it->second.erase(watcher);
  if (it->second.empty()) watchers_.erase(it);
}

void LiveBalances::wake_watchers(const std::vector<storage::Posting>& postings) {
  std::vector<std::string> accounts;
  accounts.reserve(postings.size() * 2);
  for (const auto& p : postings) {
    accounts.push_back(p.from);
    accounts.push_back(p.to);
  }
  wake_watchers(accounts);
}

void LiveBalances::wake_watchers(const std::vector<std::string>& accounts) {
  std::lock_guard held(watchers_mutex_);
  if (watchers_.empty()) return;
  // A table watching two accounts a step moved is woken once.
  std::map<const void*, const Wake*> due;
  for (const auto& account : accounts)
    if (const auto it = watchers_.find(account); it != watchers_.end())
      for (const auto& [watcher, wake] : it->second) due.emplace(watcher, &wake);
  for (const auto& [watcher, wake] : due) (*wake)();
}

std::vector<std::pair<std::string, std::int64_t>> LiveBalances::holding(const std::string& prefix, const Lock&) const {
  std::vector<std::pair<std::string, std::int64_t>> out;
  for (const auto& [account, balance] : balances_)
    if (balance != 0 && account.rfind(prefix, 0) == 0) out.emplace_back(account, balance);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace parlour::server
