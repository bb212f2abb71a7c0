#include "server/bank.h"

namespace parlour::server {

std::int64_t& Bank::slot(const std::string& account) {
  auto it = balances_.find(account);
  if (it == balances_.end()) it = balances_.emplace(account, loader_(account)).first;
  return it->second;
}

std::int64_t Bank::balance(const std::string& account, const Lock&) { return slot(account); }

bool Bank::affordable(const std::vector<storage::Posting>& postings, const Lock&) {
  std::unordered_map<std::string, std::int64_t> after;
  for (const auto& p : postings) {
    if (!after.count(p.from)) after[p.from] = slot(p.from);
    if (!after.count(p.to)) after[p.to] = slot(p.to);
    after[p.from] -= p.amount;
    after[p.to] += p.amount;
  }
  for (const auto& [account, balance] : after)
    if (balance < 0 && account.rfind("player:", 0) == 0) return false;
  return true;
}

void Bank::apply(const std::vector<storage::Posting>& postings, const Lock&) {
  for (const auto& p : postings) {
    slot(p.from) -= p.amount;
    slot(p.to) += p.amount;
  }
}

void Bank::revert(const std::vector<storage::Posting>& postings) {
  auto held = lock();
  for (auto it = postings.rbegin(); it != postings.rend(); ++it) {
    slot(it->from) += it->amount;
    slot(it->to) -= it->amount;
  }
}

void Bank::forget(const std::string& account) {
  auto held = lock();
  balances_.erase(account);
}

}  // namespace parlour::server
