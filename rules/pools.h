// Shared chip mechanics for games with a pool or pot (the seating they count
// from is in rules/seating.h).
#pragma once

#include <string>
#include <vector>

#include "rules/game.h"
#include "rules/seating.h"

namespace parlour::rules {

// GAMES.md: a pool left when a table ends is shared equally among the players
// seated last, the remainder one chip each starting from the dealer's left.
// `seats` are those players, in order from the dealer's left; `why` starts each
// movement's memo ("the table ends").
// `odd_chips_from` names where the first of `seats` sits, for the memo.
Effects share_out_pool(const std::string& pool, std::int64_t amount, const std::vector<int>& seats,
                       const std::string& why, const std::string& odd_chips_from = "the dealer's left");

// The table is closing: shares out the pool among the players still seated (all
// players if none is), counting from the dealer's left, and empties it.
template <typename Seated>
Effects close_pool(const std::string& pool, std::int64_t& amount, int dealer, int players, Seated seated) {
  auto last_seated = seats_from((dealer + 1) % players, players, seated);
  if (last_seated.empty()) last_seated = seats_from((dealer + 1) % players, players, [](int) { return true; });
  Effects effects = share_out_pool(pool, amount, last_seated, "the table ends");
  amount = 0;
  return effects;
}

}  // namespace parlour::rules
