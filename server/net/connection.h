// What one WebSocket connection does with the frames it receives: rate limiting,
// sign-in, and routing each request to the lobby or a table. Free of Beast so it
// can be tested and read on its own; the session calls it on its strand.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>

#include "server/common/client.h"
#include "server/lobby/lobby.h"

namespace parlour::server {

// A token bucket: `rate` messages a second on average, bursts up to `burst`.
class RateLimiter {
 public:
  RateLimiter(double rate, double burst) : rate_(rate), burst_(burst), tokens_(burst) {}
  bool allow(std::chrono::steady_clock::time_point now);

 private:
  double rate_;
  double burst_;
  double tokens_;
  std::chrono::steady_clock::time_point last_{};
};

class Connection {
 public:
  // `address` is the peer's IP address, for per-address limits.
  Connection(Lobby& lobby, const Config& config, std::string address)
      : lobby_(lobby), limiter_(config.rate_per_second, config.rate_burst), address_(std::move(address)) {}

  // One text frame from the client. `self` is the client to answer.
  void on_text(const std::shared_ptr<Client>& self, std::string_view text);
  // The socket is gone: the tables mark the player disconnected.
  void on_close(const std::shared_ptr<Client>& self);

  std::string player() const {
    std::lock_guard lock(mutex_);
    return player_;
  }
  const std::string& address() const { return address_; }
  // What the client asked for in its first sign-in (protocol::Features).
  protocol::Features features() const {
    std::lock_guard lock(mutex_);
    return features_;
  }

 private:
  void handle(const std::shared_ptr<Client>& self, const protocol::Request& request);
  void dispatch(const std::shared_ptr<Client>& self, const protocol::Request& request);
  // dispatch() from a callback, where no caller catches its errors.
  void run_guarded(const std::shared_ptr<Client>& self, const protocol::Request& request);
  void hello(const std::shared_ptr<Client>& self, std::optional<std::int64_t> re, const protocol::Hello& hello);
  void recover(const std::shared_ptr<Client>& self, std::optional<std::int64_t> re, const protocol::Recover& recover);
  void device_sign_in(const std::shared_ptr<Client>& self, std::optional<std::int64_t> re,
                      const protocol::DeviceSignIn& request);
  void passphrase_sign_in(const std::shared_ptr<Client>& self, std::optional<std::int64_t> re,
                          const protocol::PassphraseSignIn& request);
  // The answer to a sign-in (`hello`, `recover`, `device_sign_in`, `passphrase_sign_in`):
  // `welcome`, or the error; answer_sign_in_to makes the lobby's callback for it.
  // `asked` is what the sign-in's `features` asked for.
  Lobby::HelloDone answer_sign_in_to(const std::shared_ptr<Client>& self, std::optional<std::int64_t> re,
                                     protocol::Features asked);
  void answer_sign_in(const std::shared_ptr<Client>& self, std::optional<std::int64_t> re, protocol::Features asked,
                      std::optional<Lobby::Welcome> welcome, std::optional<ProtocolError> error);
  // A table request (protocol::TableRequest): to its table's actor.
  void to_table(const std::shared_ptr<Client>& self, std::optional<std::int64_t> re, protocol::TableRequest body);
  // The table, or a not_found error to `self`; remembered so that it hears of the close.
  std::shared_ptr<TableActor> table(const std::string& id);
  void touch(const std::shared_ptr<TableActor>& table);
  void send(const std::shared_ptr<Client>& self, const Json& message);

  Lobby& lobby_;
  RateLimiter limiter_;
  const std::string address_;
  mutable std::mutex mutex_;
  std::string player_;
  // Set by the first sign-in that succeeds, and kept: the tables joined since
  // push in its shape, so a later `hello` cannot change it.
  protocol::Features features_;
  // Every table this connection spoke to, to tell on close. Not held: a finished
  // table leaves memory when the lobby lets it go, however many one connection made.
  std::map<const TableActor*, std::weak_ptr<TableActor>> tables_;
  std::size_t tables_swept_size_ = 0;
};

}  // namespace parlour::server
