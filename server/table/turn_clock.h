// A table's turn clocks (docs/protocol.md "Turn clock and away"): the table's
// own clock, which runs for each human seat to act (its seconds a move plus
// what is left of its bank), or a game's own turn limit (Carousel's), which
// replaces it while it runs. Table memory, not log: a restart starts every
// clock in full. Pure arithmetic on the wall clock it is given; the table arms
// the one timer it asks for.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "protocol/messages.h"
#include "rules/game.h"

namespace parlour::server {

class TurnClock {
 public:
  explicit TurnClock(protocol::Clock settings);

  const protocol::Clock& settings() const { return settings_; }
  // The settings as JSON, for a member's first push (they never change).
  const std::string& settings_text() const { return settings_text_; }
  bool on() const { return settings_.seconds > 0; }

  // What the table's one turn timer should do now.
  struct Order {
    enum class What { keep, arm, cancel } what = What::keep;
    std::chrono::milliseconds after{0};
  };
  // Given the game's own limit for the turn in play (if it has one), the seats
  // the table's clock is due for and whether the timer is armed: a new turn of
  // the game gets a new deadline, a step within it keeps it; otherwise seats no
  // longer due stop their clocks, newly due seats start theirs, and the timer
  // is for the earliest deadline.
  Order schedule(const std::optional<rules::TurnTimer>& game_limit, const std::set<int>& due, bool armed,
                 std::int64_t now_ms);
  // The seat moved: its clock stops, time beyond the move's seconds comes out of its bank.
  void stop(int seat, std::int64_t now_ms);
  // The table is not in play (or a write is in flight: `keep_clocks`).
  void pause(bool keep_clocks);
  // The table was made again from its log: no clock is running.
  void clear_running();
  // A new person has the seat: a full bank.
  void seat_changed_hands(int seat) { bank_used_ms_.erase(seat); }

  // The timer fired for the game's limit: the turn it was armed for (taken).
  std::optional<rules::TurnTimer> take_game_limit();
  bool runs_game_limit() const { return game_limit_.has_value(); }
  // The timer fired for the table's clock: the seat whose clock ran out, if it
  // is still due (taken off, its bank spent).
  std::optional<int> take_ran_out(const std::set<int>& due);

  // The push's `,"timer":…` (and `,"timers":…`), "" when no clock runs.
  std::string push_text(bool armed) const;

 private:
  struct SeatClock {
    std::int64_t started_ms = 0;
    std::int64_t ends_ms = 0;  // the move's seconds and what is left of the bank
  };
  std::int64_t bank_left_ms(int seat) const;
  std::optional<std::pair<int, SeatClock>> earliest() const;
  void write_clock(rules::JsonWriter& out, int seat, const SeatClock& clock) const;

  protocol::Clock settings_;
  std::string settings_text_;
  std::optional<rules::TurnTimer> game_limit_;  // the game's own turn limit running now
  std::int64_t game_deadline_ms_ = 0;
  std::map<int, SeatClock> clocks_;             // the table's clock, by seat
  std::optional<std::pair<int, std::int64_t>> armed_for_;  // the seat and deadline the timer is armed for
  std::map<int, std::int64_t> bank_used_ms_;    // by seat
};

}  // namespace parlour::server
