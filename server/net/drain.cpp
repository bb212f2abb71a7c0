#include "server/net/drain.h"

#include <spdlog/spdlog.h>

namespace parlour::server {

namespace {
// How often the drain looks whether every connection has closed.
constexpr auto poll_every = std::chrono::milliseconds(20);
}  // namespace

Drain::Drain(boost::asio::io_context& io, const Front& front, const Metrics& metrics, std::chrono::seconds bound)
    : io_(io),
      front_(front),
      metrics_(metrics),
      bound_(bound),
      strand_(boost::asio::make_strand(io)),
      signals_(strand_, SIGINT, SIGTERM),
      poll_(strand_) {}

void Drain::start() {
  signals_.async_wait([this](const boost::system::error_code& ec, int signal) { on_signal(ec, signal); });
}

void Drain::on_signal(const boost::system::error_code& ec, int signal) {
  if (ec) return;
  if (draining_) return stop(signal == SIGINT ? "SIGINT during the drain" : "a second SIGTERM during the drain");
  if (bound_.count() == 0) {
    spdlog::info("signal {}: shutting down (--drain-seconds 0)", signal);
    return stop("no drain asked");
  }
  draining_ = true;
  began_ = std::chrono::steady_clock::now();
  const auto told = front_.drain ? front_.drain() : 0;
  spdlog::info("signal {}: draining: taking no new players, {} connections told to reconnect (close 1012); "
               "stopping within {} s (another signal stops at once)",
               signal, told, bound_.count());
  start();  // a second signal
  watch();
}

void Drain::watch() {
  const auto elapsed = std::chrono::steady_clock::now() - began_;
  if (metrics_.open_connections == 0) {
    spdlog::info("drained in {} ms: every connection closed",
                 std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count());
    return stop("drained");
  }
  if (elapsed >= bound_) {
    spdlog::warn("drain: {} connections still open after {} s; stopping now", metrics_.open_connections.load(),
                 bound_.count());
    return stop("the drain's bound");
  }
  poll_.expires_after(poll_every);
  poll_.async_wait([this](const boost::system::error_code& ec) {
    if (!ec) watch();
  });
}

void Drain::stop(const char* why) {
  spdlog::info("stopping ({}); the writer's queue is flushed before exit", why);
  signals_.cancel();
  poll_.cancel();
  io_.stop();
}

}  // namespace parlour::server
