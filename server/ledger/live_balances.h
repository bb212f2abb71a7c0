// Chip balances as the tables see them: the ledger's balances plus the steps
// applied but not yet committed. Loaded from the ledger once at start and kept
// in step with every posting since, so no table ever reads the database for a balance.
// A table locks the accounts a step may touch (its seats' and its pools') while
// it reads balances, runs the rules and applies the resulting postings, so two
// tables can never both spend the same chips; a step whose commit fails is
// reverted. The accounts are spread over kStripes locks by name (a table's
// pools all on one), so tables of different players never wait on each other:
// no lock of the whole process is on the path of an action.
//
// A player's chips are his across tables, so a table must hear when they move
// elsewhere: each table watches the accounts of the people seated at it, and
// every change to a watched balance (this node's other tables, a registration,
// a reverted step, or another node's writes read by refresh()) wakes it.
#pragma once

#include <array>
#include <bitset>
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
  // 32: a lock of every stripe, and the watchers' locks a wake takes with it,
  // stay within the 64 locks a thread may hold under ThreadSanitizer (at 64
  // stripes, a registration's wake was the 65th and stopped the server).
  static constexpr std::size_t kStripes = 32;

  // The locks of some accounts' stripes (or of all), taken in stripe order so
  // that two Locks never wait on each other in a cycle. Every call that takes
  // a Lock throws std::logic_error for an account whose stripe it does not hold.
  class Lock {
   public:
    Lock() = default;
    Lock(Lock&& other) noexcept : owner_(std::exchange(other.owner_, nullptr)), held_(std::exchange(other.held_, {})) {}
    Lock& operator=(Lock&& other) noexcept {
      if (this != &other) {
        unlock();
        owner_ = std::exchange(other.owner_, nullptr);
        held_ = std::exchange(other.held_, {});
      }
      return *this;
    }
    Lock(const Lock&) = delete;
    Lock& operator=(const Lock&) = delete;
    ~Lock() { unlock(); }

    bool holds(std::size_t stripe) const { return held_.test(stripe); }
    // Lets every stripe go (a Lock also does when it goes).
    void unlock() noexcept;

   private:
    friend class LiveBalances;
    // The stripes' mutexes are the owner's: a Lock keeps no list of them, so
    // taking one allocates nothing (a table takes several a step).
    LiveBalances* owner_ = nullptr;
    std::bitset<kStripes> held_;
  };

  LiveBalances() = default;
  explicit LiveBalances(const std::vector<std::pair<std::string, std::int64_t>>& accounts);

  // Every account: for what may touch any (registrations, seating, a failed table).
  Lock lock();
  // These accounts only; a pool account names all of its table's pools.
  Lock lock(const std::vector<std::string>& accounts);
  // These stripes only (stripe_of each account): for a caller that knows its
  // accounts without a list of their names at hand.
  Lock lock_stripes(const std::bitset<kStripes>& stripes);
  // Has this account ever moved a chip?
  bool known(const std::string& account, const Lock& held) const;
  // 0 for an account that has never moved a chip.
  std::int64_t balance(const std::string& account, const Lock& held) const;
  // True if no player account would go below zero.
  bool affordable(const std::vector<storage::Posting>& postings, const Lock&) const;
  // A table step's postings, before its commit. `mover`, the key the table
  // watches under, is not woken by them: after its own step a table pushes and
  // looks again at everyone's chips anyway, and a wake of its own was a second
  // look (and a handler) on every step that moved chips.
  void apply(const std::vector<storage::Posting>& postings, const Lock&, const void* mover = nullptr);
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
  // may run on any thread, under this object's locks: it must only post work
  // elsewhere, never call back in or block.
  using Wake = std::function<void()>;
  void watch(const std::string& account, const void* watcher, Wake wake);
  void unwatch(const std::string& account, const void* watcher);

  // Every account whose name starts with `prefix` and holds chips (a table's
  // pools); `held` must hold every stripe.
  std::vector<std::pair<std::string, std::int64_t>> holding(const std::string& prefix, const Lock& held) const;

  std::int64_t balance(const std::string& account) {
    auto held = lock({account});
    return balance(account, held);
  }

  // The stripe an account's lock and balance are kept in.
  static std::size_t stripe_of(const std::string& account);

 private:
  // std::hash<std::string> under another name. libstdc++ finds a key in a map
  // of up to 20 keys hashed by std::hash<std::string> by comparing it with
  // each in turn; a stripe holds a dozen accounts at 100 tables, whose names
  // differ only at the end, and that scan was 2-3 % of the server's CPU. A
  // hasher of its own is hashed at every size.
  struct AccountHash {
    std::size_t operator()(const std::string& account) const noexcept { return std::hash<std::string>{}(account); }
  };
  template <class Value>
  using ByAccount = std::unordered_map<std::string, Value, AccountHash>;

  struct Stripe {
    std::mutex mutex;
    ByAccount<std::int64_t> balances;
    ByAccount<std::int64_t> uncommitted;  // net of applied, uncommitted postings
    // Its own lock, taken after balance locks (never before), so that watching
    // and unwatching never wait on a table holding balances.
    std::mutex watchers_mutex;
    ByAccount<std::map<const void*, Wake>> watchers;  // by account
  };

  // The stripe of `account`, which `held` must hold.
  Stripe& stripe(const std::string& account, const Lock& held);
  const Stripe& stripe(const std::string& account, const Lock& held) const;
  static std::bitset<kStripes> stripes_of(const std::vector<storage::Posting>& postings);
  void settle_locked(const std::vector<storage::Posting>& postings, const Lock& held);
  void move_chips(const std::vector<storage::Posting>& postings, const Lock& held, const void* mover);
  // Wakes the watchers of the accounts the postings touch, but `mover`.
  void wake_watchers(const std::vector<storage::Posting>& postings, const void* mover = nullptr);
  void wake_watchers(const std::vector<std::string>& accounts, const void* mover = nullptr);
  // `each_account(visit)` calls visit(account) for every account moved.
  template <class EachAccount>
  void wake_watchers_of(const EachAccount& each_account, const void* mover);

  std::array<Stripe, kStripes> stripes_;
  bool tracking_ = false;
};

}  // namespace parlour::server
