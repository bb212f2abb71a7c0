// One benchmark client on one WebSocket: a seated player who acts whenever his
// latest state lists a legal action (a random one, numbers in range), a
// spectator who only reads, or — against the bare Beast baseline server
// (bench/echo_server.cpp) — a client of the same shape speaking its tiny
// protocol. Setup is blocking, before the measurement; then every client plays
// on one io_context (one thread, pinned to its own core when there are two).
#pragma once

// Boost 1.74's Asio with GCC 12 in C++20 needs <utility> before its first header.
#include <utility>

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <deque>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "bench/report.h"

namespace parlour::bench {

using Json = nlohmann::json;

// The measurement window every client shares.
struct Window {
  Clock::time_point start;
  Clock::time_point end;          // acts are sent only inside [start, end)
  std::atomic<int> in_flight{0};  // acts sent and not yet answered
  // Paced: one act in all every `pace` at most, whoever sends it (the clients
  // share one I/O thread); zero, the closed loop: each acts as soon as it may.
  Clock::duration pace{0};
  Clock::time_point next_slot;
  bool open(Clock::time_point now) const { return now >= start && now < end; }
};

// What the clients saw inside the window.
struct PlayStats {
  std::int64_t actions = 0;        // acts answered `ok`
  std::int64_t states = 0;         // state pushes (or baseline broadcasts) received
  std::int64_t state_bytes = 0;
  std::vector<double> act_to_ok_ms;
  std::vector<double> act_to_state_ms;  // act sent → the sender's next state
  std::map<std::string, std::int64_t> errors;
  std::string first_refusal;  // the first error frame, as it came (a refused listed action is a bug)

  void add(const PlayStats& other);
};

class WsPlayer : public std::enable_shared_from_this<WsPlayer> {
 public:
  enum class Role { player, spectator };
  enum class Protocol { parlour, echo };

  // `target`: the WebSocket path, e.g. /ws?table=ID (several nodes behind a proxy route by it).
  WsPlayer(boost::asio::io_context& io, unsigned short port, Protocol protocol, Role role, std::uint64_t seed,
           const std::string& target = "");

  // ---- setup (blocking; only before play())
  Json request(Json message);  // Parlour: sends and returns the reply; throws on an error reply
  void set_table(std::string table) { table_ = std::move(table); }
  void set_room_index(int index) { room_index_ = index; }  // echo: this client's turn number in its room
  std::int64_t latest_seq() const { return latest_seq_; }

  // ---- measurement
  void play(Window& window);
  void stop() { stopping_ = true; }
  const PlayStats& stats() const { return stats_; }

 private:
  void read_next();
  void on_read(boost::beast::error_code ec, std::size_t bytes);
  void on_parlour_frame(std::string_view text);
  void on_echo_frame(std::string_view text);
  void maybe_act_parlour(std::string_view legal);
  void act_on_latest(Clock::time_point now);
  void send(std::string text);
  void write_next();
  void acted(Clock::time_point now);

  void send_act();

  boost::asio::io_context& io_;
  boost::asio::steady_timer pace_timer_;
  boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
  boost::beast::flat_buffer buffer_;
  Protocol protocol_;
  Role role_;
  std::mt19937_64 rng_;
  std::string table_;
  int room_index_ = 0;
  std::int64_t next_id_ = 1;

  Window* window_ = nullptr;
  bool stopping_ = false;
  std::int64_t latest_seq_ = -1;
  std::int64_t pending_id_ = 0;        // the act in flight, 0 if none
  std::int64_t acted_at_seq_ = -1;     // the state the act was chosen at
  bool awaiting_state_ = false;        // act sent, own next state not seen yet
  Clock::time_point sent_at_;
  std::string last_legal_;          // the latest state's legal list, to pick again after a refusal
  std::string last_sent_;           // the last act, for the refusal report
  std::int64_t latest_legal_seq_ = -1;  // the seq last_legal_ came with
  int retries_ = 0;                  // refusals since that state
  std::deque<std::string> outbox_;
  PlayStats stats_;
};

}  // namespace parlour::bench
