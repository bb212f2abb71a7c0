// A connected client as the lobby and tables see it: something to send frames
// to. Keeps table code free of Beast.
#pragma once

#include <memory>
#include <string>

namespace parlour::server {

class Client {
 public:
  virtual ~Client() = default;
  // Thread-safe; frames are delivered in the order sent.
  virtual void send(std::shared_ptr<const std::string> frame) = 0;
  // The signed-in player's name, "" before hello. Set once, on the client's strand.
  virtual std::string player() const = 0;
};

}  // namespace parlour::server
