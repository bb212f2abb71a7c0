// A WebSocket client that speaks to the real parlour binary (started by
// tests/support/server_process.h), for the integration tests.
#pragma once

#include <utility>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

#include "tests/support/server_process.h"
#include "tests/support/state_keeper.h"

namespace parlour::test {

using Json = nlohmann::json;

using ServerProcess = parlour::support::ServerProcess;

class WsClient {
 public:
  // `receive_buffer` > 0 shrinks the socket's receive buffer (a client that
  // stops reading then backs up on the server quickly).
  explicit WsClient(unsigned short port, int receive_buffer = 0, const std::string& target = "/ws");
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
  // The connection failed or was closed (a read ended in an error, not a timeout).
  bool broken() const { return broken_; }
  // The close code the server sent, after it closed the connection.
  std::optional<int> close_code();

  const std::vector<std::string>& frames() const { return frames_; }
  std::string hello(const std::string& name, const std::string& token = "");

 private:
  boost::asio::io_context io_;
  boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
  // A state push leaves out what this client has had already (docs/protocol.md
  // "State"); every state read is filled in, so tests see whole states.
  support::StateKeeper kept_;
  std::vector<Json> pending_states_;
  std::vector<std::string> frames_;  // every text frame received
  std::int64_t next_id_ = 1;
  bool broken_ = false;
};

}  // namespace parlour::test
