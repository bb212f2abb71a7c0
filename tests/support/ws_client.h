// A blocking WebSocket client of the real parlour binary, for the integration
// tests, the crash torture and the soak. A failure (no reply, no state) throws
// std::runtime_error saying what was awaited; a doctest case reports it.
#pragma once

#include <utility>  // before Asio: std::exchange in Boost 1.74's awaitable.hpp

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tests/support/state_keeper.h"

namespace parlour::support {

using Json = nlohmann::json;

// The frame log (tests/schema/validate_frames.mjs checks it against
// protocol/schema/parlour.schema.json): when PARLOUR_FRAME_LOG names a file, every
// text frame any WsClient of this process receives is appended to it, one a line,
// and every JSON body of an /api/ route ServerProcess::get reads, as
// {"http":PATH,"status":N,"body":…}. Exact duplicates are written once; the file
// stops growing at PARLOUR_FRAME_LOG_MB (default 64) MiB.
void log_frame(const std::string& text);
void log_http_body(const std::string& target, int status, const std::string& content_type, const std::string& body);

class WsClient {
 public:
  // `receive_buffer` > 0 shrinks the socket's receive buffer (a client that
  // stops reading then backs up on the server quickly).
  // `headers` go with the upgrade request (e.g. X-Forwarded-For, as a proxy would send it).
  explicit WsClient(unsigned short port, int receive_buffer = 0, const std::string& target = "/ws",
                    const std::vector<std::pair<std::string, std::string>>& headers = {});
  ~WsClient();

  // Sends a request with a fresh id and returns the reply carrying that id;
  // state pushes read meanwhile are kept.
  Json request(Json message);
  void send_raw(const std::string& text, bool binary = false);
  // Reads one frame (waits up to `ms`); nullopt on timeout or close.
  std::optional<Json> read(int ms = 5000);
  // The next state push for `table` (already read or still to come).
  Json next_state(int ms = 5000);
  // Waits for a state push satisfying `pred`.
  template <typename Pred>
  Json state_where(Pred pred, int ms = 10000) {
    for (;;) {
      Json s = next_state(ms);
      if (pred(s)) return s;
    }
  }
  // The first state push satisfying `pred` within `ms` in all (pushes that do
  // not, of any table, may keep coming meanwhile, and are kept for later
  // reads); nullopt if none came.
  template <typename Pred>
  std::optional<Json> state_within(Pred pred, int ms) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    std::size_t seen = 0;  // pending states already tried
    for (;;) {
      for (; seen < pending_states_.size(); ++seen) {
        if (!pred(pending_states_[seen])) continue;
        Json s = std::move(pending_states_[seen]);
        pending_states_.erase(pending_states_.begin() + static_cast<std::ptrdiff_t>(seen));
        return s;
      }
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
      if (left <= 0) return std::nullopt;
      auto frame = read(static_cast<int>(left));
      if (!frame) return std::nullopt;
      if ((*frame)["type"] == "state") pending_states_.push_back(std::move(*frame));
    }
  }
  void drain(int ms = 200);
  // The state pushes request() read and kept, handed over (a caller that reads
  // frames itself after a request must not miss the push that came before its reply).
  std::vector<Json> take_kept_states() { return std::exchange(pending_states_, {}); }
  // The connection failed or was closed (a read ended in an error, not a timeout).
  bool broken() const { return broken_; }
  // The close code the server sent, after it closed the connection.
  std::optional<int> close_code();

  const std::vector<std::string>& frames() const { return frames_; }
  // A long-lived client (the soak) keeps no copy of each frame, and lets go of
  // a table it has left.
  void keep_frames(bool keep) { keep_frames_ = keep; }
  void forget(const std::string& table) { kept_.forget(table); }
  std::string hello(const std::string& name, const std::string& token = "");

 private:
  boost::asio::io_context io_;
  boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
  // A state push leaves out what this client has had already (docs/protocol.md
  // "State"); every state read is filled in, so callers see whole states.
  StateKeeper kept_;
  std::vector<Json> pending_states_;
  std::vector<std::string> frames_;  // every text frame received
  std::int64_t next_id_ = 1;
  // The read in progress (it outlives a read() that timed out).
  boost::beast::flat_buffer read_buffer_;
  bool reading_ = false;
  bool read_done_ = false;
  boost::beast::error_code read_error_;
  bool broken_ = false;
  bool keep_frames_ = true;
};

}  // namespace parlour::support
