// A timer armed lazily. A table's turn clock moves its deadline later at
// every step; re-arming an Asio timer each time cancels a wait (a handler run
// for nothing) and, when it is the loop's earliest, costs a timerfd system
// call. Here a deadline that moves later leaves the wait as it is: it wakes
// at the old deadline and sleeps on to the new one. A delay of zero needs no
// wait at all, only a post.
#pragma once

#include <utility>  // before Asio: std::exchange in Boost 1.74's awaitable.hpp

#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

namespace parlour::server {

class LazyTimer {
 public:
  using Clock = std::chrono::steady_clock;

  explicit LazyTimer(const boost::asio::any_io_executor& executor) : timer_(executor) {}

  // Calls `ring` on the timer's executor once `after` has passed, never from
  // here, unless set again or cleared first. A wait holds `keep` (the owner).
  void set(std::chrono::milliseconds after, std::shared_ptr<void> keep, std::function<void()> ring);
  // Nothing rings for what was set; a wait armed is cancelled, letting `keep` go.
  void clear();
  bool armed() const { return due_.has_value(); }
  // How many waits were armed on the Asio timer (for tests).
  std::uint64_t waits() const { return waits_; }

 private:
  void wait_until_due(std::shared_ptr<void> keep);
  void woke(std::uint64_t wait, std::shared_ptr<void> keep);
  void ring_now(std::shared_ptr<void> keep);

  boost::asio::steady_timer timer_;
  std::function<void()> ring_;
  std::optional<Clock::time_point> due_;            // when it rings, if set
  std::optional<Clock::time_point> waiting_until_;  // the wait armed, if any
  std::uint64_t waits_ = 0;  // numbers the waits (and the posts): one replaced after it had rung is ignored
};

}  // namespace parlour::server
