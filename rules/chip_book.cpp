#include "rules/chip_book.h"

#include <algorithm>
#include <stdexcept>

namespace parlour::rules {

Json ChipBook::account_json(const Account& account) {
  if (account.is_seat()) return {{"seat", account.seat}};
  return {{"pool", account.pool}};
}

void ChipBook::record(const Account& from, const Account& to, std::int64_t amount, const std::string& memo,
                      Effects& fx) {
  if (amount <= 0) return;
  fx.move(from, to, amount, memo);
  movements_.push_back({{"from", account_json(from)}, {"to", account_json(to)}, {"amount", amount}, {"memo", memo}});
  if (from.is_seat()) {
    chips_[from.seat] -= amount;
    net_[from.seat] -= amount;
  }
  if (to.is_seat()) {
    chips_[to.seat] += amount;
    net_[to.seat] += amount;
  }
}

void ChipBook::shortfall(int seat, const Account& to, std::int64_t amount, const std::string& memo) {
  if (amount <= 0) return;
  unpaid_.push_back({{"seat", seat}, {"to", account_json(to)}, {"amount", amount}, {"memo", memo}});
}

std::int64_t ChipBook::seat_to_seat(int from, int to, std::int64_t amount, const std::string& memo, Effects& fx) {
  const auto paid = std::max<std::int64_t>(0, std::min(amount, chips_[from]));
  record(Account::of_seat(from), Account::of_seat(to), paid, memo, fx);
  shortfall(from, Account::of_seat(to), amount - paid, memo);
  return paid;
}

std::int64_t ChipBook::seat_to_pool(int from, std::int64_t amount, std::int64_t& pool, const std::string& memo,
                                    Effects& fx) {
  const auto paid = std::max<std::int64_t>(0, std::min(amount, chips_[from]));
  record(Account::of_seat(from), Account::of_pool(pool_name_), paid, memo, fx);
  shortfall(from, Account::of_pool(pool_name_), amount - paid, memo);
  pool += paid;
  return paid;
}

void ChipBook::pool_to_seat(int to, std::int64_t amount, std::int64_t& pool, const std::string& memo, Effects& fx) {
  if (amount > pool) throw std::logic_error("chip book: paying out more than the pool holds");
  record(Account::of_pool(pool_name_), Account::of_seat(to), amount, memo, fx);
  pool -= amount;
}

std::int64_t ChipBook::unpaid(int seat) const {
  std::int64_t sum = 0;
  for (const auto& line : unpaid_)
    if (line["seat"] == seat) sum += line["amount"].get<std::int64_t>();
  return sum;
}

}  // namespace parlour::rules
