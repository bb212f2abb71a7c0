// parlour_echo: the transport's own limit, for the server benchmark to compare
// against. A bare Boost.Beast WebSocket server with no rules, no JSON and no
// database: connections are grouped into rooms in the order they arrive, and an
// act from a room member ("A") is answered "K" to the sender and followed by a
// broadcast of a state-sized frame "T<k>…" to the whole room, k being the member
// whose turn is next — the shape of a Parlour table's act → ok → state pushes.
//
//   parlour_echo --port N --room K --payload BYTES
#include <utility>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <charconv>
#include <cstdio>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

namespace {

class Session;

struct Room {
  explicit Room(int size) : size(size) {}
  int size;
  int handshakes = 0;  // members whose WebSocket handshake is done
  std::vector<std::weak_ptr<Session>> members;
  int turn = 0;

  void broadcast(const std::shared_ptr<const std::string>& frame);
  std::shared_ptr<const std::string> state_frame(std::size_t payload) const {
    auto state = std::make_shared<std::string>("T" + std::to_string(turn) + " ");
    state->resize(std::max(payload, state->size()), 'x');
    return state;
  }
};

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, std::shared_ptr<Room> room, int index, std::size_t payload)
      : ws_(std::move(socket)), room_(std::move(room)), index_(index), payload_(payload) {}

  // A room starts (its first member's turn) once every member's handshake is
  // done: nothing may be written to a socket before its handshake reply.
  void run() {
    ws_.async_accept([self = shared_from_this()](beast::error_code ec) {
      if (ec) return;
      self->read();
      auto& room = *self->room_;
      if (++room.handshakes == room.size) room.broadcast(room.state_frame(self->payload_));
    });
  }

  void send(std::shared_ptr<const std::string> frame) {
    queue_.push_back(std::move(frame));
    if (queue_.size() == 1) write();
  }

 private:
  void read() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return;
      self->buffer_.consume(self->buffer_.size());
      self->on_act();
      self->read();
    });
  }

  void on_act() {
    static const auto ok = std::make_shared<const std::string>("K");
    send(ok);
    auto& room = *room_;
    room.turn = (room.turn + 1) % static_cast<int>(room.members.size());
    room.broadcast(room.state_frame(payload_));
  }

  void write() {
    ws_.text(true);
    ws_.async_write(asio::buffer(*queue_.front()), [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return;
      self->queue_.pop_front();
      if (!self->queue_.empty()) self->write();
    });
  }

  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
  std::shared_ptr<Room> room_;
  int index_;
  std::size_t payload_;
  std::deque<std::shared_ptr<const std::string>> queue_;
};

void Room::broadcast(const std::shared_ptr<const std::string>& frame) {
  for (auto& member : members)
    if (auto session = member.lock()) session->send(frame);
}

class Listener {
 public:
  Listener(asio::io_context& io, unsigned short port, int room_size, std::size_t payload)
      : acceptor_(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), port)), room_size_(room_size),
        payload_(payload) {}

  void accept() {
    acceptor_.async_accept([this](beast::error_code ec, tcp::socket socket) {
      if (!ec) {
        socket.set_option(tcp::no_delay(true));
        if (!room_ || static_cast<int>(room_->members.size()) == room_size_) room_ = std::make_shared<Room>(room_size_);
        auto session = std::make_shared<Session>(std::move(socket), room_, static_cast<int>(room_->members.size()),
                                                 payload_);
        room_->members.push_back(session);
        session->run();
      }
      accept();
    });
  }

 private:
  tcp::acceptor acceptor_;
  int room_size_;
  std::size_t payload_;
  std::shared_ptr<Room> room_;
};

int number(const char* text) {
  int value = 0;
  std::from_chars(text, text + std::char_traits<char>::length(text), value);
  return value;
}

}  // namespace

int main(int argc, char** argv) {
  unsigned short port = 0;
  int room = 4;
  std::size_t payload = 1000;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--port") port = static_cast<unsigned short>(number(argv[i + 1]));
    else if (flag == "--room") room = number(argv[i + 1]);
    else if (flag == "--payload") payload = static_cast<std::size_t>(number(argv[i + 1]));
  }
  if (port == 0 || room < 1) {
    std::fprintf(stderr, "usage: parlour_echo --port N --room K --payload BYTES\n");
    return 2;
  }
  asio::io_context io(1);
  Listener listener(io, port, room, payload);
  listener.accept();
  asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](beast::error_code, int) { io.stop(); });
  io.run();
  return 0;
}
