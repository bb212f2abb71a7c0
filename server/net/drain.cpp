#include "server/net/drain.h"

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

namespace parlour::server {

namespace {
// How often the drain looks whether every connection has closed.
constexpr auto poll_every = std::chrono::milliseconds(20);
}  // namespace

Drain::Drain(boost::asio::io_context& io, const Front& front, Writer& writer, const Metrics& metrics,
             std::chrono::seconds bound)
    : io_(io),
      front_(front),
      writer_(writer),
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
  if (front_.stop_taking) front_.stop_taking();
  spdlog::info("signal {}: draining: taking no new players; stopping within {} s (another signal stops at once)",
               signal, bound_.count());
  start();  // a second signal
  // The steps queued so far commit before the goodbye (the writer runs its
  // queue in order), so the answers to requests in flight go out first.
  writer_.run([](storage::Store&) {},
              [this](std::exception_ptr) { boost::asio::post(strand_, [this] { say_goodbye(); }); });
  watch();  // the bound holds even if the writer is slow (a database away)
}

void Drain::say_goodbye() {
  if (!draining_ || io_.stopped()) return;
  const auto told = front_.say_goodbye ? front_.say_goodbye() : 0;
  spdlog::info("drain: the writer's queue is committed; {} connections told to reconnect (close 1012)", told);
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
