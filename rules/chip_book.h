// One chip book for every game: pays between seats and the table's pools
// without ever overdrawing a seat (GAMES.md: a debtor pays what he has; the rest
// is named in the result as `unpaid`), and keeps every movement, each seat's net
// and each unpaid rest for the deal's result.
#pragma once

#include <string>

#include "rules/game.h"

namespace parlour::rules {

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

 private:
  static Json account_json(const Account& account);
  void record(const Account& from, const Account& to, std::int64_t amount, const std::string& memo, Effects& fx);
  void shortfall(int seat, const Account& to, std::int64_t amount, const std::string& memo);

  std::string pool_name_;
  Balances chips_;
  std::vector<std::int64_t> net_;
  Json movements_ = Json::array();
  Json unpaid_ = Json::array();
};

}  // namespace parlour::rules
