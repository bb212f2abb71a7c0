// Per-seat bookkeeping shared by the games: play order, the next seat, and who
// is still seated, so that every game walks the table the same way.
#pragma once

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace parlour::rules {

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

// For games whose per-seat state has `left` (the player has gone from the table;
// his seat stays, so seat numbers never shift).
template <typename SeatStates>
auto still_seated(const SeatStates& seats) {
  return [&seats](int seat) { return !seats[seat].left; };
}

template <typename SeatStates>
int seated_count(const SeatStates& seats) {
  return static_cast<int>(std::count_if(seats.begin(), seats.end(), [](const auto& s) { return !s.left; }));
}

// The next seat after `from` whose player is still seated.
template <typename SeatStates>
int next_seated(int from, const SeatStates& seats) {
  return next_seat(from, static_cast<int>(seats.size()), still_seated(seats));
}

// The players still seated, from the dealer's left round to the dealer.
template <typename SeatStates>
std::vector<int> seated_from_dealers_left(int dealer, const SeatStates& seats) {
  const int players = static_cast<int>(seats.size());
  return seats_from((dealer + 1) % players, players, still_seated(seats));
}

// GameState::seat_taken for games whose per-seat state starts afresh
// default-constructed: between deals only, the seat (empty, or changing hands)
// gets a clean state, as a newcomer's.
template <typename SeatStates>
void seat_afresh(SeatStates& seats, int seat, bool between_deals, const std::string& game) {
  if (!between_deals) throw std::logic_error(game + ": a seat changes hands only between deals");
  if (seat < 0 || seat >= static_cast<int>(seats.size()))
    throw std::logic_error(game + ": there is no seat " + std::to_string(seat));
  seats[seat] = {};
}

}  // namespace parlour::rules
