// The tables' lazy timer (server/table/lazy_timer.h): a deadline that moves
// later re-arms nothing, and it still rings on time, once, and never after a clear.
#include <utility>  // before Asio: std::exchange in Boost 1.74's awaitable.hpp

#include <doctest/doctest.h>

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <memory>

#include "server/table/lazy_timer.h"

using parlour::server::LazyTimer;
using namespace std::chrono_literals;

namespace {

struct Rig {
  boost::asio::io_context io;
  LazyTimer timer{io.get_executor()};
  std::shared_ptr<int> owner = std::make_shared<int>(0);
  int rang = 0;
  LazyTimer::Clock::time_point rang_at{};

  void set(std::chrono::milliseconds after) {
    timer.set(after, owner, [this] {
      ++rang;
      rang_at = LazyTimer::Clock::now();
    });
  }
  void run_for(std::chrono::milliseconds time) {
    io.restart();
    io.run_for(time);
  }
};

}  // namespace

TEST_CASE("lazy timer: a deadline moved later arms no second wait, and rings at the later deadline, once") {
  Rig rig;
  const auto start = LazyTimer::Clock::now();
  rig.set(30ms);
  CHECK(rig.timer.waits() == 1);
  for (int i = 0; i < 5; ++i) rig.set(60ms);  // a turn clock, pushed on at each step
  CHECK(rig.timer.waits() == 1);
  rig.run_for(200ms);
  CHECK(rig.rang == 1);
  CHECK(rig.rang_at - start >= 60ms);
  CHECK(rig.timer.waits() == 2);  // woke at 30 ms and waited on once
  CHECK_FALSE(rig.timer.armed());
}

TEST_CASE("lazy timer: a deadline moved earlier replaces the wait, and the old one rings nothing") {
  Rig rig;
  const auto start = LazyTimer::Clock::now();
  rig.set(500ms);
  rig.set(20ms);
  CHECK(rig.timer.waits() == 2);
  rig.run_for(150ms);
  CHECK(rig.rang == 1);
  CHECK(rig.rang_at - start >= 20ms);
  CHECK(rig.rang_at - start < 500ms);
}

TEST_CASE("lazy timer: a delay of zero rings from the loop, not from set, and arms no wait") {
  Rig rig;
  rig.set(0ms);
  CHECK(rig.rang == 0);
  CHECK(rig.timer.waits() == 1);  // numbered, never armed on the Asio timer
  rig.run_for(50ms);
  CHECK(rig.rang == 1);
}

TEST_CASE("lazy timer: cleared, nothing rings, the wait lets its owner go, and it can be set again") {
  Rig rig;
  rig.set(20ms);
  CHECK(rig.owner.use_count() == 2);  // the wait holds the owner
  rig.timer.clear();
  rig.run_for(60ms);
  CHECK(rig.rang == 0);
  CHECK(rig.owner.use_count() == 1);

  rig.set(0ms);
  rig.timer.clear();  // before the post runs
  rig.run_for(20ms);
  CHECK(rig.rang == 0);

  rig.set(10ms);
  rig.run_for(100ms);
  CHECK(rig.rang == 1);
}

TEST_CASE("lazy timer: a zero delay set over a pending wait rings once, and the wait rings nothing") {
  Rig rig;
  rig.set(20ms);
  rig.set(0ms);
  rig.run_for(80ms);
  CHECK(rig.rang == 1);
  rig.set(30ms);  // set again after ringing: rings again
  rig.run_for(120ms);
  CHECK(rig.rang == 2);
}
