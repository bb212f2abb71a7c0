#include "server/ledger/live_balances.h"

#include <algorithm>
#include <stdexcept>
#include <string_view>

namespace parlour::server {

LiveBalances::LiveBalances(const std::vector<std::pair<std::string, std::int64_t>>& accounts) {
  for (const auto& [account, balance] : accounts) stripes_[stripe_of(account)].balances[account] = balance;
}

// A pool account ("pool:TABLE:NAME") goes by its table, so that a table locks
// all its pools with one stripe whatever pools its game opens.
std::size_t LiveBalances::stripe_of(const std::string& account) {
  std::string_view key = account;
  if (key.rfind("pool:", 0) == 0) key = key.substr(0, key.rfind(':'));
  return std::hash<std::string_view>{}(key) % kStripes;
}

LiveBalances::Lock LiveBalances::lock() { return lock_stripes(std::bitset<kStripes>().set()); }

LiveBalances::Lock LiveBalances::lock(const std::vector<std::string>& accounts) {
  std::bitset<kStripes> stripes;
  for (const auto& account : accounts) stripes.set(stripe_of(account));
  return lock_stripes(stripes);
}

LiveBalances::Lock LiveBalances::lock_stripes(const std::bitset<kStripes>& stripes) {
  Lock held;
  held.owner_ = this;
  // Each stripe is marked held once its mutex is: a throw part-way (a mutex
  // that cannot lock) lets go of exactly those taken.
  for (std::size_t i = 0; i < kStripes; ++i) {
    if (!stripes.test(i)) continue;
    stripes_[i].mutex.lock();
    held.held_.set(i);
  }
  return held;
}

// In the reverse of the order taken.
void LiveBalances::Lock::unlock() noexcept {
  if (owner_)
    for (std::size_t i = kStripes; i-- > 0;)
      if (held_.test(i)) owner_->stripes_[i].mutex.unlock();
  held_.reset();
  owner_ = nullptr;
}

std::bitset<LiveBalances::kStripes> LiveBalances::stripes_of(const std::vector<storage::Posting>& postings) {
  std::bitset<kStripes> stripes;
  for (const auto& p : postings) {
    stripes.set(stripe_of(p.from));
    stripes.set(stripe_of(p.to));
  }
  return stripes;
}

LiveBalances::Stripe& LiveBalances::stripe(const std::string& account, const Lock& held) {
  return const_cast<Stripe&>(std::as_const(*this).stripe(account, held));
}

const LiveBalances::Stripe& LiveBalances::stripe(const std::string& account, const Lock& held) const {
  const auto index = stripe_of(account);
  if (!held.holds(index))
    throw std::logic_error("the balance of " + account + " was used without its lock (stripe " +
                           std::to_string(index) + ")");
  return stripes_[index];
}

bool LiveBalances::known(const std::string& account, const Lock& held) const {
  return stripe(account, held).balances.count(account) != 0;
}

std::int64_t LiveBalances::balance(const std::string& account, const Lock& held) const {
  const auto& balances = stripe(account, held).balances;
  const auto it = balances.find(account);
  return it == balances.end() ? 0 : it->second;
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

void LiveBalances::apply(const std::vector<storage::Posting>& postings, const Lock& held, const void* mover) {
  move_chips(postings, held, mover);
  if (!tracking_) return;
  for (const auto& p : postings) {
    stripe(p.from, held).uncommitted[p.from] -= p.amount;
    stripe(p.to, held).uncommitted[p.to] += p.amount;
  }
}

void LiveBalances::apply_committed(const std::vector<storage::Posting>& postings, const Lock& held) {
  move_chips(postings, held, nullptr);
}

void LiveBalances::move_chips(const std::vector<storage::Posting>& postings, const Lock& held, const void* mover) {
  // Every account checked before any moves: a refused posting changes nothing.
  for (const auto& p : postings) {
    stripe(p.from, held);
    stripe(p.to, held);
  }
  for (const auto& p : postings) {
    stripe(p.from, held).balances[p.from] -= p.amount;
    stripe(p.to, held).balances[p.to] += p.amount;
  }
  wake_watchers(postings, mover);
}

void LiveBalances::revert(const std::vector<storage::Posting>& postings) {
  auto held = lock_stripes(stripes_of(postings));
  for (auto it = postings.rbegin(); it != postings.rend(); ++it) {
    stripe(it->from, held).balances[it->from] += it->amount;
    stripe(it->to, held).balances[it->to] -= it->amount;
  }
  if (tracking_) settle_locked(postings, held);
  wake_watchers(postings);
}

void LiveBalances::settled(const std::vector<storage::Posting>& postings) {
  if (!tracking_) return;
  auto held = lock_stripes(stripes_of(postings));
  settle_locked(postings, held);
}

void LiveBalances::settle_locked(const std::vector<storage::Posting>& postings, const Lock& held) {
  for (const auto& p : postings) {
    for (const auto& [account, delta] : {std::pair{&p.from, p.amount}, std::pair{&p.to, -p.amount}}) {
      auto& uncommitted = stripe(*account, held).uncommitted;
      auto it = uncommitted.find(*account);
      if (it == uncommitted.end()) continue;
      it->second += delta;
      if (it->second == 0) uncommitted.erase(it);
    }
  }
}

void LiveBalances::refresh(const std::vector<std::pair<std::string, std::int64_t>>& committed) {
  std::vector<std::string> accounts;
  accounts.reserve(committed.size());
  for (const auto& entry : committed) accounts.push_back(entry.first);
  auto held = lock(accounts);
  std::vector<std::string> moved;
  for (const auto& [account, balance] : committed) {
    auto& in = stripe(account, held);
    const auto pending = in.uncommitted.find(account);
    auto& live = in.balances[account];
    const auto fresh = balance + (pending == in.uncommitted.end() ? 0 : pending->second);
    if (live != fresh) moved.push_back(account);
    live = fresh;
  }
  wake_watchers(moved);
}

void LiveBalances::watch(const std::string& account, const void* watcher, Wake wake) {
  auto& in = stripes_[stripe_of(account)];
  std::lock_guard held(in.watchers_mutex);
  in.watchers[account][watcher] = std::move(wake);
}

void LiveBalances::unwatch(const std::string& account, const void* watcher) {
  auto& in = stripes_[stripe_of(account)];
  std::lock_guard held(in.watchers_mutex);
  const auto it = in.watchers.find(account);
  if (it == in.watchers.end()) return;
  it->second.erase(watcher);
  if (it->second.empty()) in.watchers.erase(it);
}

void LiveBalances::wake_watchers(const std::vector<storage::Posting>& postings, const void* mover) {
  wake_watchers_of(
      [&](const auto& visit) {
        for (const auto& p : postings) {
          visit(p.from);
          visit(p.to);
        }
      },
      mover);
}

void LiveBalances::wake_watchers(const std::vector<std::string>& accounts, const void* mover) {
  wake_watchers_of(
      [&](const auto& visit) {
        for (const auto& account : accounts) visit(account);
      },
      mover);
}

// Runs on every step that moves chips: nothing is allocated unless someone
// besides the mover is to be woken.
template <class EachAccount>
void LiveBalances::wake_watchers_of(const EachAccount& each_account, const void* mover) {
  std::bitset<kStripes> stripes;
  each_account([&](const std::string& account) { stripes.set(stripe_of(account)); });
  // In stripe order, like the balances' locks; all held at once, so that a
  // table watching two accounts a step moved is woken once. (Let go in the
  // reverse order: an array's elements are destroyed last first.)
  std::array<std::unique_lock<std::mutex>, kStripes> held;
  for (std::size_t i = 0; i < kStripes; ++i)
    if (stripes.test(i)) held[i] = std::unique_lock(stripes_[i].watchers_mutex);
  std::vector<std::pair<const void*, const Wake*>> due;
  each_account([&](const std::string& account) {
    const auto& watchers = stripes_[stripe_of(account)].watchers;
    const auto it = watchers.find(account);
    if (it == watchers.end()) return;
    for (const auto& entry : it->second)
      if (entry.first != mover) due.emplace_back(entry.first, &entry.second);
  });
  // Each watcher once, however many of its accounts moved; sorted rather than
  // searched, since a refresh from another node may wake thousands of tables.
  std::sort(due.begin(), due.end(), [](const auto& a, const auto& b) { return std::less<>{}(a.first, b.first); });
  due.erase(std::unique(due.begin(), due.end(), [](const auto& a, const auto& b) { return a.first == b.first; }),
            due.end());
  for (const auto& [watcher, wake] : due) (*wake)();
}

std::vector<std::pair<std::string, std::int64_t>> LiveBalances::holding(const std::string& prefix, const Lock& held) const {
  if (!held.held_.all()) throw std::logic_error("holding(" + prefix + ") needs every stripe's lock");
  std::vector<std::pair<std::string, std::int64_t>> out;
  for (const auto& in : stripes_)
    for (const auto& [account, balance] : in.balances)
      if (balance != 0 && account.rfind(prefix, 0) == 0) out.emplace_back(account, balance);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace parlour::server
