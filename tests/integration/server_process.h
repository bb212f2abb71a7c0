// Starts the real parlour binary on a free loopback port, and a WebSocket client
// that speaks to it, for the integration tests.
#pragma once

#include <utility>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace parlour::test {

using Json = nlohmann::json;

class ServerProcess {
 public:
  ServerProcess(std::string db, std::vector<std::string> extra_args = {});
  ~ServerProcess();
  void start();
  void kill_hard();   // SIGKILL: no goodbye, no flush
  void stop();        // SIGTERM and wait
  unsigned short port() const { return port_; }
  const std::string& db() const { return db_; }

  // A plain HTTP GET; returns status and body.
  std::pair<int, std::string> get(const std::string& target, const std::string& bearer = "") const;
  // Sends `bytes` as they are and returns the response's status and body (0 if none came).
  std::pair<int, std::string> raw_http(const std::string& bytes) const;
  pid_t pid() const { return pid_; }
  // Caps the server's open files (RLIMIT_NOFILE) from its next start.
  void limit_files(int files) { max_files_ = files; }
  // CPU seconds the server has used, and its resident memory in KiB.
  double cpu_seconds() const;
  long rss_kib() const;

 private:
  std::string db_;
  std::vector<std::string> extra_;
  unsigned short port_ = 0;
  pid_t pid_ = -1;
  int max_files_ = 0;
};

class WsClient {
 public:
  // `receive_buffer` > 0 shrinks the socket's receive buffer (a client that
  // stops reading then backs up on the server quickly).
  explicit WsClient(unsigned short port, int receive_buffer = 0);
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
  void drain(int ms = 200);
  // The close code the server sent, after it closed the connection.
  std::optional<int> close_code();

  const std::vector<std::string>& frames() const { return frames_; }
  std::string hello(const std::string& name, const std::string& token = "");

 private:
  boost::asio::io_context io_;
  boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
  std::vector<Json> pending_states_;
  std::vector<std::string> frames_;  // every text frame received
  std::int64_t next_id_ = 1;
};

}  // namespace parlour::test
