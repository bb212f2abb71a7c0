#include "bench/ws_player.h"

#include <boost/asio/post.hpp>
#include <charconv>
#include <stdexcept>

#include "bench/frame_scan.h"

namespace parlour::bench {

namespace asio = boost::asio;
namespace beast = boost::beast;
using tcp = asio::ip::tcp;

namespace {

// A setup step that takes longer than this means the server is stuck.
constexpr auto setup_timeout = std::chrono::seconds(20);

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
  if (!done) throw std::runtime_error("timed out: " + what);
  if (result) throw beast::system_error(result, what);
}

double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

}  // namespace

void PlayStats::add(const PlayStats& other) {
  actions += other.actions;
  states += other.states;
  state_bytes += other.state_bytes;
  act_to_ok_ms.insert(act_to_ok_ms.end(), other.act_to_ok_ms.begin(), other.act_to_ok_ms.end());
  act_to_state_ms.insert(act_to_state_ms.end(), other.act_to_state_ms.begin(), other.act_to_state_ms.end());
  for (const auto& [code, count] : other.errors) errors[code] += count;
  if (first_refusal.empty()) first_refusal = other.first_refusal;
}

WsPlayer::WsPlayer(asio::io_context& io, unsigned short port, Protocol protocol, Role role, std::uint64_t seed,
                   const std::string& target)
    : io_(io), pace_timer_(io), ws_(io), protocol_(protocol), role_(role), rng_(seed) {
  const tcp::endpoint server(asio::ip::make_address("127.0.0.1"), port);
  run_one(io_, "connecting", [&](auto handler) { beast::get_lowest_layer(ws_).async_connect(server, handler); });
  beast::get_lowest_layer(ws_).socket().set_option(tcp::no_delay(true));
  run_one(io_, "the WebSocket handshake", [&](auto handler) {
    ws_.async_handshake("127.0.0.1", !target.empty() ? target : protocol_ == Protocol::parlour ? "/ws" : "/", handler);
  });
}

Json WsPlayer::request(Json message) {
  const auto id = next_id_++;
  message["id"] = id;
  const std::string text = message.dump();
  run_one(io_, "sending " + text, [&](auto handler) { ws_.async_write(asio::buffer(text), handler); });
  for (;;) {
    run_one(io_, "waiting for the reply to " + text, [&](auto handler) { ws_.async_read(buffer_, handler); });
    const std::string frame = beast::buffers_to_string(buffer_.data());
    buffer_.consume(buffer_.size());
    if (top_level_int(frame, "re") != id) {
      if (auto seq = top_level_int(frame, "seq")) latest_seq_ = std::max(latest_seq_, *seq);
      continue;  // a state push that came first
    }
    Json reply = Json::parse(frame);
    if (reply.value("type", "") == "error") throw std::runtime_error(text + " was refused: " + frame);
    return reply;
  }
}

void WsPlayer::play(Window& window) {
  window_ = &window;
  asio::post(io_, [self = shared_from_this()] { self->read_next(); });
}

void WsPlayer::read_next() {
  ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t bytes) {
    self->on_read(ec, bytes);
  });
}

void WsPlayer::on_read(beast::error_code ec, std::size_t bytes) {
  if (ec) {
    if (!stopping_) ++stats_.errors["connection lost: " + ec.message()];
    if (pending_id_) --window_->in_flight, pending_id_ = 0;
    return;
  }
  const auto data = buffer_.cdata();
  const std::string_view text(static_cast<const char*>(data.data()), bytes);
  if (protocol_ == Protocol::parlour) on_parlour_frame(text);
  else on_echo_frame(text);
  buffer_.consume(buffer_.size());
  if (!stopping_) read_next();
}

void WsPlayer::on_parlour_frame(std::string_view text) {
  const auto now = Clock::now();
  const bool in_window = window_->open(now);
  if (const auto re = top_level_int(text, "re"); re && *re == pending_id_) {
    const auto type = top_level_field(text, "type");
    if (type && *type == "\"ok\"") {
      if (in_window) {
        ++stats_.actions;
        stats_.act_to_ok_ms.push_back(ms_between(sent_at_, now));
      }
    } else {
      const auto code = top_level_field(text, "code");
      ++stats_.errors[code ? std::string(*code) : "error"];
      if (stats_.first_refusal.empty())
        stats_.first_refusal = std::string(text.substr(0, 300)) + " for " + last_sent_.substr(0, 300) + " at seq " +
                               std::to_string(acted_at_seq_) + " from " + last_legal_.substr(0, 600);
    }
    pending_id_ = 0;
    --window_->in_flight;
    const bool refused = !(type && *type == "\"ok\"");
    // A state may have come while the act was in flight (another seat's move at a
    // table where two may act): act on it now. A refusal at the latest state
    // changes nothing, so no state follows: pick again, a few times.
    if (latest_legal_seq_ > acted_at_seq_ || (refused && ++retries_ <= 3)) act_on_latest(now);
    return;
  }
  const auto seq = top_level_int(text, "seq");
  if (!seq || top_level_field(text, "view") == std::nullopt) return;  // not a state
  if (in_window) {
    ++stats_.states;
    stats_.state_bytes += static_cast<std::int64_t>(text.size());
  }
  if (*seq < latest_seq_) return;
  latest_seq_ = *seq;
  if (awaiting_state_ && *seq > acted_at_seq_) {
    awaiting_state_ = false;
    if (in_window) stats_.act_to_state_ms.push_back(ms_between(sent_at_, now));
  }
  // Players act from the start (the warm-up included) until the window closes;
  // only what happens inside the window is counted.
  if (const auto legal = top_level_field(text, "legal")) {
    last_legal_ = *legal;
    latest_legal_seq_ = *seq;
    retries_ = 0;
  }
  if (pending_id_ == 0) act_on_latest(now);
}

void WsPlayer::act_on_latest(Clock::time_point now) {
  if (role_ != Role::player || now >= window_->end || stopping_) return;
  if (last_legal_.empty() || last_legal_ == "[]") return;
  maybe_act_parlour(std::string(last_legal_));
}

void WsPlayer::maybe_act_parlour(std::string_view legal_text) {
  Json legal = Json::parse(legal_text);
  // `continue` only ends the pause after a deal; the benchmark runs without one.
  Json choices = Json::array();
  for (auto& entry : legal)
    if (entry.value("type", "") != "continue") choices.push_back(std::move(entry));
  if (choices.empty()) return;
  Json action = choices[std::uniform_int_distribution<std::size_t>(0, choices.size() - 1)(rng_)];
  for (auto& item : action.items()) {
    auto& value = item.value();
    if (value.is_object() && value.contains("min") && value.contains("max"))
      value = std::uniform_int_distribution<std::int64_t>(value["min"].get<std::int64_t>(),
                                                          value["max"].get<std::int64_t>())(rng_);
  }
  pending_id_ = next_id_++;
  acted_at_seq_ = latest_legal_seq_;
  last_sent_ = Json({{"type", "act"}, {"id", pending_id_}, {"table", table_}, {"action", std::move(action)}}).dump();
  if (window_->pace == Clock::duration::zero()) return send_act();
  // Paced: the act waits for the next free slot; its latency counts from when it is sent.
  const auto now = Clock::now();
  const auto slot = std::max(now, window_->next_slot);
  window_->next_slot = slot + window_->pace;
  if (slot <= now) return send_act();
  pace_timer_.expires_at(slot);
  pace_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
    if (!ec && !self->stopping_) self->send_act();
  });
}

void WsPlayer::send_act() {
  send(last_sent_);
  acted(Clock::now());
}

// Baseline protocol: the server answers an act "A" with "K" to the sender and
// broadcasts "T<k>…padding…" to the room, k being whose turn is next.
void WsPlayer::on_echo_frame(std::string_view text) {
  const auto now = Clock::now();
  const bool in_window = window_->open(now);
  if (!text.empty() && text[0] == 'K') {
    if (pending_id_ && in_window) {
      ++stats_.actions;
      stats_.act_to_ok_ms.push_back(ms_between(sent_at_, now));
    }
    if (pending_id_) --window_->in_flight;
    pending_id_ = 0;
    return;
  }
  if (text.empty() || text[0] != 'T') return;
  if (in_window) {
    ++stats_.states;
    stats_.state_bytes += static_cast<std::int64_t>(text.size());
  }
  if (awaiting_state_) {
    awaiting_state_ = false;
    if (in_window) stats_.act_to_state_ms.push_back(ms_between(sent_at_, now));
  }
  int turn = 0;
  std::from_chars(text.data() + 1, text.data() + std::min<std::size_t>(text.size(), 6), turn);
  if (role_ == Role::player && turn == room_index_ && pending_id_ == 0 && now < window_->end && !stopping_) {
    pending_id_ = next_id_++;
    send("A");
    acted(Clock::now());
  }
}

void WsPlayer::acted(Clock::time_point now) {
  sent_at_ = now;
  awaiting_state_ = true;
  ++window_->in_flight;
}

void WsPlayer::send(std::string text) {
  outbox_.push_back(std::move(text));
  if (outbox_.size() == 1) write_next();
}

void WsPlayer::write_next() {
  ws_.async_write(asio::buffer(outbox_.front()), [self = shared_from_this()](beast::error_code ec, std::size_t) {
    if (ec) {
      ++self->stats_.errors["write failed: " + ec.message()];
      self->outbox_.clear();
      return;
    }
    self->outbox_.pop_front();
    if (!self->outbox_.empty()) self->write_next();
  });
}

}  // namespace parlour::bench
