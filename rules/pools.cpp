#include "rules/pools.h"

namespace parlour::rules {

Effects share_out_pool(const std::string& pool, std::int64_t amount, const std::vector<int>& seats,
                       const std::string& why, const std::string& odd_chips_from) {
  Effects effects;
  if (amount <= 0 || seats.empty()) return effects;
  const auto count = static_cast<std::int64_t>(seats.size());
  const std::int64_t share = amount / count;
  std::int64_t remainder = amount % count;
  const std::string whole = why + ": the " + pool + " of " + std::to_string(amount);
  const std::string memo = count == 1 ? whole
                                      : whole + " is shared equally among " + std::to_string(count) +
                                            (remainder > 0 ? ", odd chips from " + odd_chips_from : "");
  for (int seat : seats) {
    std::int64_t due = share + (remainder > 0 ? 1 : 0);
    if (remainder > 0) --remainder;
    effects.move(Account::of_pool(pool), Account::of_seat(seat), due, memo);
  }
  effects.say("The " + pool + " of " + std::to_string(amount) + " is shared out among " +
              std::to_string(count) + " players.");
  return effects;
}

}  // namespace parlour::rules
