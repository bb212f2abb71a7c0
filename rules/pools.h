// Shared chip mechanics for games with a pool or pot.
#pragma once

#include <string>
#include <vector>

#include "rules/game.h"

namespace parlour::rules {

// GAMES.md: a pool left when a table ends is shared equally among the players
// seated last, the remainder one chip each starting from the dealer's left.
// `seats` are those players, in order from the dealer's left.
Effects share_out_pool(const std::string& pool, std::int64_t amount, const std::vector<int>& seats);

// Seats in play order starting at `first` (wrapping), keeping those `included`.
template <typename Pred>
std::vector<int> seats_from(int first, int players, Pred included) {
  std::vector<int> out;
  for (int i = 0; i < players; ++i) {
    int seat = (first + i) % players;
    if (included(seat)) out.push_back(seat);
  }
  return out;
}

// The first seat after `from` (wrapping) that is `included`; `from` if none is.
template <typename Pred>
int next_seat(int from, int players, Pred included) {
  for (int i = 1; i <= players; ++i) {
    const int seat = (from + i) % players;
    if (included(seat)) return seat;
  }
  return from;
}

// The table is closing: shares out the pool among the players still seated (all
// players if none is), counting from the dealer's left, and empties it.
template <typename Seated>
Effects close_pool(const std::string& pool, std::int64_t& amount, int dealer, int players, Seated seated) {
  auto last_seated = seats_from((dealer + 1) % players, players, seated);
  if (last_seated.empty()) last_seated = seats_from((dealer + 1) % players, players, [](int) { return true; });
  Effects effects = share_out_pool(pool, amount, last_seated);
  amount = 0;
  return effects;
}

}  // namespace parlour::rules
