// One chip book for every game: pays between seats and the table's pools
// without ever overdrawing a seat (GAMES.md: a debtor pays what he has; the rest
// is named in the result as `unpaid`), and keeps every movement, each seat's net
// and each unpaid rest for the deal's result.
#pragma once

#include <string>

#include "rules/game.h"

namespace parlour::rules {

// One payment owed by a seat, as it came out: what the seat had of it is
// `paid`, the rest `unpaid` (GAMES.md: never invented, never charged later).
struct Payment {
  std::int64_t paid = 0;
  std::int64_t unpaid = 0;
};

// The one place a seat pays what it has: up to `amount`, never more than
// `chips[from]`. The move goes into `fx` and into `chips` (the creditor's too
// when `to` is a seat); the caller keeps its own nets and names the rest.
Payment pay_what_you_have(int from, const Account& to, std::int64_t amount, const std::string& memo,
                          Balances& chips, Effects& fx);

// As pay_what_you_have, and says so in the log: "A pays B n." (or "A puts n into
// the pool.") and "A cannot cover r of it." for a rest. Rummy says nothing when
// nothing was paid, Red and Black does: `say_nothing_paid` keeps both logs as
// they were recorded.
Payment pay_and_announce(int from, const Account& to, std::int64_t amount, const std::string& memo,
                         Balances& chips, Effects& fx, bool say_nothing_paid);

// An entry of a result's "unpaid", the one shape in which every game names a
// rest (docs/protocol.md "Results, game by game"): {"seat": the debtor, "to":
// {"seat": n} or {"pool": name}, "amount", "memo": the payment's memo}.
Json unpaid_entry(int from, const Account& to, std::int64_t amount, const std::string& memo);

class ChipBook {
 public:
  ChipBook() = default;
  ChipBook(int players, std::string pool) : pool_name_(std::move(pool)), net_(players, 0) {}

  // The table's balances before the call being applied.
  void sync(const Balances& balances) { chips_ = balances; }
  std::int64_t chips(int seat) const { return chips_[seat]; }

  // Pays up to `amount` (what the seat has); returns what was paid.
  std::int64_t seat_to_seat(int from, int to, std::int64_t amount, const std::string& memo, Effects& fx);
  std::int64_t seat_to_pool(int from, std::int64_t amount, std::int64_t& pool, const std::string& memo, Effects& fx);
  void pool_to_seat(int to, std::int64_t amount, std::int64_t& pool, const std::string& memo, Effects& fx);

  std::int64_t net(int seat) const { return net_[seat]; }
  std::int64_t unpaid(int seat) const;
  Json movements() const { return movements_; }
  Json unpaid_json() const { return unpaid_; }

  // The games on a chip book report a deal the same way: each seat's line has its
  // net "chips" and its "unpaid" sum, the result the "movements" and "unpaid"
  // lists; `facts` are the game's own keys beside them.
  // Everything the book holds (rules/snapshot.h).
  Json snapshot() const;
  // Refuses a book whose per-seat lists are not `players` long (or empty: never opened).
  static ChipBook restore(const Json& snapshot, int players);

  Json seat_result(int seat, Json facts) const;
  Json deal_result(Json facts) const;

 // An account as results name it: {"seat": n} or {"pool": name}.
  static Json account_json(const Account& account);

 private:
  std::int64_t from_seat(int from, const Account& to, std::int64_t amount, const std::string& memo, Effects& fx);
  // Keeps a move already made in the movements and the nets.
  void note(const Account& from, const Account& to, std::int64_t amount, const std::string& memo);
  void shortfall(int seat, const Account& to, std::int64_t amount, const std::string& memo);

  std::string pool_name_;
  Balances chips_;
  std::vector<std::int64_t> net_;
  Json movements_ = Json::array();
  Json unpaid_ = Json::array();
};

}  // namespace parlour::rules
