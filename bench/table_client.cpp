#include "bench/table_client.h"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <stdexcept>

namespace parlour::bench {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

namespace {

// A setup step that takes longer than this means the server is stuck; the
// benchmark gives up rather than hang.
constexpr auto setup_timeout = std::chrono::seconds(10);
// How long a client waits before resending an act the server rate-limited.
constexpr auto rate_limited_pause = std::chrono::milliseconds(20);

// Parses a frame, leaving out the parts of a state the client never reads (the
// view, the log, the players): the benchmark shares the machine with the
// server, and every cycle it spends on parsing is one the server does not get.
Json parse_frame(const std::string& text) {
  static const Json::parser_callback_t skip_unread = [](int depth, Json::parse_event_t event, Json& parsed) {
    if (depth != 1 || event != Json::parse_event_t::key) return true;
    const auto& key = parsed.get_ref<const std::string&>();
    return key != "view" && key != "log" && key != "players" && key != "result";
  };
  return Json::parse(text, skip_unread);
}

// Setup runs `io` on the calling thread for one operation at a time, so that a
// silent server times out instead of blocking forever. `start` begins the
// operation with the completion handler it is given.
template <typename Start>
void run_one(asio::io_context& io, const std::string& what, Start start) {
  bool done = false;
  beast::error_code result;
  start([&](beast::error_code ec, auto&&...) {
    result = ec;
    done = true;
  });
  io.restart();
  io.run_for(setup_timeout);
  if (!done) throw std::runtime_error("timed out after " + std::to_string(setup_timeout.count()) + " s: " + what);
  if (result) throw beast::system_error(result, what);
}

}  // namespace

void Handover::accepted(std::int64_t seq, Clock::time_point at) {
  std::lock_guard lock(mutex_);
  pending_ = true;
  seq_ = seq;
  at_ = at;
}

std::optional<double> Handover::turn_reached(std::int64_t seq, Clock::time_point at) {
  std::lock_guard lock(mutex_);
  if (!pending_ || seq < seq_) return std::nullopt;
  pending_ = false;
  return std::chrono::duration<double, std::milli>(at - at_).count();
}

// ---------------------------------------------------------------- setup

TableClient::TableClient(asio::io_context& io, unsigned short port)
    : io_(io), ws_(asio::make_strand(io)), retry_timer_(ws_.get_executor()) {
  const tcp::endpoint server(asio::ip::make_address("127.0.0.1"), port);
  run_one(io_, "connecting", [&](auto handler) { beast::get_lowest_layer(ws_).async_connect(server, handler); });
  run_one(io_, "the WebSocket handshake", [&](auto handler) { ws_.async_handshake("127.0.0.1", "/ws", handler); });
  // Acts and replies are small frames: send each at once rather than batching.
  beast::get_lowest_layer(ws_).socket().set_option(tcp::no_delay(true));
}

Json TableClient::request(Json message) {
  const auto id = next_id_++;
  message["id"] = id;
  ws_.write(asio::buffer(message.dump()));
  for (;;) {
    Json frame = read_frame_blocking();
    if (frame.value("re", std::int64_t{-1}) != id) {
      on_frame(frame);  // a state push that came first
      continue;
    }
    if (frame.value("type", "") == "error") throw std::runtime_error(message.dump() + " was refused: " + frame.dump());
    return frame;
  }
}

Json TableClient::read_frame_blocking() {
  run_one(io_, "waiting for a reply", [&](auto handler) { ws_.async_read(buffer_, handler); });
  Json frame = parse_frame(beast::buffers_to_string(buffer_.data()));
  buffer_.consume(buffer_.size());
  return frame;
}

// ---------------------------------------------------------------- measurement

void TableClient::play(Window& window) {
  window_ = &window;
  ++window.open_clients;
  asio::post(ws_.get_executor(), [self = shared_from_this()] {
    self->read_next();
    self->maybe_act();  // the state that says "your turn" may have come during setup
  });
}

void TableClient::read_next() {
  ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_read(ec); });
}

void TableClient::on_read(beast::error_code ec) {
  if (ec) {
    --window_->open_clients;
    const bool expected = close_requested_ && (ec == websocket::error::closed || ec == asio::error::operation_aborted ||
                                               ec == asio::error::eof);
    if (!expected) ++stats_.errors["connection lost: " + ec.message()];
    if (pending_id_ != 0) {
      pending_id_ = 0;
      --window_->in_flight;
    }
    return;
  }
  try {
    on_frame(parse_frame(beast::buffers_to_string(buffer_.data())));
  } catch (const Json::exception& e) {
    ++stats_.errors[std::string("unreadable frame: ") + e.what()];
  }
  buffer_.consume(buffer_.size());
  read_next();
}

void TableClient::on_frame(const Json& frame) {
  const std::string type = frame.value("type", "");
  if (type == "state") return on_state(frame);
  if (frame.contains("re") && frame["re"].is_number_integer()) on_reply(frame);
}

void TableClient::on_state(const Json& state) {
  if (state.value("table", "") != table_) return;
  const auto now = Clock::now();
  const bool in_window = window_ && now >= window_->start && now < window_->end;
  if (in_window) ++stats_.states;
  const auto seq = state.value("seq", std::int64_t{-1});
  if (seq < latest_seq_) return;  // an older push, overtaken
  latest_seq_ = seq;
  const Json& legal = state.at("legal");
  const Json& to_act = state.at("to_act");
  const Json& seat = state.at("seat");
  my_turn_ = !legal.empty() && std::find(to_act.begin(), to_act.end(), seat) != to_act.end();
  // Red Dog's only action is a bet; the smallest one keeps the pot and chips going.
  if (my_turn_) bet_amount_ = legal.at(0).at("amount").at("min").get<std::int64_t>();
  if (my_turn_ && in_window && handover_)
    if (auto waited = handover_->turn_reached(seq, now)) stats_.handovers_ms.push_back(*waited);
  maybe_act();
}

void TableClient::on_reply(const Json& reply) {
  if (pending_id_ == 0 || reply["re"].get<std::int64_t>() != pending_id_) return;
  const auto now = Clock::now();
  pending_id_ = 0;
  --window_->in_flight;
  if (reply.value("type", "") == "ok") {
    if (handover_) handover_->accepted(reply.value("seq", std::int64_t{0}), now);
    stats_.latencies_ms.push_back(std::chrono::duration<double, std::milli>(now - sent_at_).count());
    if (now < window_->end) ++stats_.actions;
    return maybe_act();
  }
  const std::string code = reply.value("code", "unknown");
  ++stats_.errors[code];
  if (code == "rate_limited") {
    // The act changed nothing; send it again once the server's bucket refills.
    acted_seq_ = -1;
    retry_later();
  }
  // Any other refusal waits for the next state rather than repeating itself.
}

void TableClient::maybe_act() {
  if (!window_ || pending_id_ != 0 || writing_ || retrying_ || close_requested_) return;
  if (!my_turn_ || latest_seq_ <= acted_seq_) return;
  if (Clock::now() >= window_->end) return;
  send_act();
}

void TableClient::send_act() {
  pending_id_ = next_id_++;
  acted_seq_ = latest_seq_;
  const Json act = {
      {"type", "act"}, {"id", pending_id_}, {"table", table_}, {"action", {{"type", "bet"}, {"amount", bet_amount_}}}};
  outgoing_ = act.dump();
  ++window_->in_flight;
  writing_ = true;
  sent_at_ = Clock::now();
  ws_.async_write(asio::buffer(outgoing_),
                  [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_write(ec); });
}

void TableClient::on_write(beast::error_code ec) {
  writing_ = false;
  if (ec) {
    ++stats_.errors["write failed: " + ec.message()];
    if (pending_id_ != 0) {
      pending_id_ = 0;
      --window_->in_flight;
    }
  }
  if (close_requested_) close_now();
}

void TableClient::retry_later() {
  retrying_ = true;
  retry_timer_.expires_after(rate_limited_pause);
  retry_timer_.async_wait([self = shared_from_this()](beast::error_code) {
    self->retrying_ = false;
    self->maybe_act();
  });
}

void TableClient::close() {
  asio::post(ws_.get_executor(), [self = shared_from_this()] {
    self->close_requested_ = true;
    self->retry_timer_.cancel();
    // A close frame may not be written while an act is being written.
    if (!self->writing_) self->close_now();
  });
}

void TableClient::close_now() {
  if (closed_) return;
  closed_ = true;
  ws_.async_close(websocket::close_code::normal, [self = shared_from_this()](beast::error_code) {});
}

}  // namespace parlour::bench
