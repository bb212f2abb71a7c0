// One seated player on one WebSocket connection to the server under test.
// Setup (sign in, create, join, start) is a series of blocking requests made
// before the measurement; then the client plays by itself on its strand:
// whenever its latest state says it is to act, it bets the minimum and times
// the act until the server's `ok`.
#pragma once

// Boost 1.74's Asio with GCC 12 in C++20 needs <utility> before its first header.
#include <utility>

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "bench/report.h"

namespace parlour::bench {

using Json = nlohmann::json;

// The measurement window every client shares.
struct Window {
  Clock::time_point start;
  Clock::time_point end;             // no act is sent at or after this instant
  std::atomic<int> in_flight{0};     // acts sent and not yet answered
  std::atomic<int> open_clients{0};  // connections still reading
};

// What one client saw inside the window.
struct ClientStats {
  std::int64_t actions = 0;  // acts answered `ok` inside the window
  std::int64_t states = 0;   // state frames received inside the window
  std::vector<double> latencies_ms;  // act sent → ok received
  std::vector<double> handovers_ms;  // an act's ok → the state giving the next turn
  std::map<std::string, std::int64_t> errors;  // by error code
};

// The turn handover of one table: from the `ok` of an act to the state that
// gives the next player (or the same one, after the server deals again) its
// turn. act→ok alone misses the time the state push takes to arrive. Shared
// by the table's two clients, which may run on different threads.
class Handover {
 public:
  void accepted(std::int64_t seq, Clock::time_point at);
  // The milliseconds since the act that led to state `seq`, once per act;
  // nothing if that act's ok has not been seen yet.
  std::optional<double> turn_reached(std::int64_t seq, Clock::time_point at);

 private:
  std::mutex mutex_;
  bool pending_ = false;
  std::int64_t seq_ = 0;
  Clock::time_point at_;
};

class TableClient : public std::enable_shared_from_this<TableClient> {
 public:
  TableClient(boost::asio::io_context& io, unsigned short port);

  // ---- setup: blocking, on the thread that owns `io`, before it runs
  // Sends a request and returns its reply; throws on an error reply or when
  // nothing comes within a few seconds.
  Json request(Json message);
  std::string table() const { return table_; }
  void set_table(std::string table, std::shared_ptr<Handover> handover) {
    table_ = std::move(table);
    handover_ = std::move(handover);
  }
  std::int64_t latest_seq() const { return latest_seq_; }

  // ---- measurement: runs on the client's strand once `io` runs
  void play(Window& window);
  // Ends the connection with a close handshake (after any act in flight).
  void close();

  const ClientStats& stats() const { return stats_; }

 private:
  Json read_frame_blocking();
  void read_next();
  void on_read(boost::beast::error_code ec);
  void on_frame(const Json& frame);
  void on_state(const Json& state);
  void on_reply(const Json& reply);
  void maybe_act();
  void send_act();
  void on_write(boost::beast::error_code ec);
  void retry_later();
  void close_now();

  boost::asio::io_context& io_;
  boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
  boost::beast::flat_buffer buffer_;
  boost::asio::steady_timer retry_timer_;
  std::int64_t next_id_ = 1;
  std::string table_;
  std::shared_ptr<Handover> handover_;

  // The latest state of the table this client has seen.
  std::int64_t latest_seq_ = -1;
  bool my_turn_ = false;
  std::int64_t bet_amount_ = 1;

  Window* window_ = nullptr;
  std::int64_t acted_seq_ = -1;  // the state seq the last act answered
  std::int64_t pending_id_ = 0;  // 0 when no act is in flight
  Clock::time_point sent_at_;
  bool writing_ = false;
  bool retrying_ = false;
  bool close_requested_ = false;
  bool closed_ = false;
  std::string outgoing_;
  ClientStats stats_;
};

}  // namespace parlour::bench
