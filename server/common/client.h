// A connected client as the lobby and tables see it: something to send frames
// to. Keeps table code free of Beast.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "protocol/messages.h"

namespace parlour::server {

using ClientId = std::uint64_t;

class Client {
 public:
  virtual ~Client() = default;
  // Unique for the life of the process.
  virtual ClientId id() const = 0;
  // Thread-safe; frames are delivered in the order sent.
  virtual void send(std::shared_ptr<const std::string> frame) = 0;
  // The frames one step has for this client, in order, handed over at once so
  // that they can leave in one write (an actor's `ok` and its `state`).
  virtual void send_all(std::vector<std::shared_ptr<const std::string>> frames) {
    for (auto& frame : frames) send(std::move(frame));
  }
  // The signed-in player's name, "" before hello.
  virtual std::string player() const = 0;
  // What its sign-in asked for (docs/protocol.md "Features"): nothing, and it is
  // answered as PROTOCOL.md version 1 has it (every push whole, and so on).
  virtual protocol::Features features() const { return {}; }
  // Several nodes: the table this client spoke to is now served elsewhere. The
  // connection is closed (WebSocket status 1012, "service restart") so that
  // the client reconnects through the proxy, which routes it to the new node.
  virtual void close_for_move() {}
  // The token this client signed in with was revoked (a recovery): closed
  // (WebSocket status 1008) once the frames already sent are written.
  virtual void close_revoked() {}
};

// A fresh id for a new connection.
ClientId next_client_id();

}  // namespace parlour::server
