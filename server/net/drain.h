// SIGTERM's graceful drain (docs/metrics.md "Graceful drain"): the server stops
// taking players (new WebSockets and pages are answered 503, /readyz says
// "draining"), lets the writer commit every step queued so far (their answers
// go out first), tells every connected client to reconnect (WebSocket close
// 1012, "service restart", after the frames already queued for it), and stops the
// event loop once every connection has closed or `bound` has passed. main then
// flushes the writer's queue as at any stop, so every step acknowledged, or
// queued, is durable. A second SIGTERM or SIGINT stops at once (still flushing).
#pragma once

#include <utility>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <chrono>

#include "server/net/net.h"
#include "server/persistence/writer.h"

namespace parlour::server {

class Drain {
 public:
  // `bound` 0: the first signal stops at once, as before drains existed.
  Drain(boost::asio::io_context& io, const Front& front, Writer& writer, const Metrics& metrics,
        std::chrono::seconds bound);
  // Waits for SIGTERM and SIGINT.
  void start();

 private:
  void on_signal(const boost::system::error_code& ec, int signal);
  void say_goodbye();
  void watch();
  void stop(const char* why);

  boost::asio::io_context& io_;
  const Front& front_;
  Writer& writer_;
  const Metrics& metrics_;
  const std::chrono::seconds bound_;
  // Signals and timers on one strand: the loop runs on several threads.
  boost::asio::strand<boost::asio::io_context::executor_type> strand_;
  boost::asio::signal_set signals_;
  boost::asio::steady_timer poll_;
  std::chrono::steady_clock::time_point began_{};
  bool draining_ = false;
};

}  // namespace parlour::server
