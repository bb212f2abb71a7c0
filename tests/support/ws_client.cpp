#include "tests/support/ws_client.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <unordered_set>

#include <fcntl.h>
#include <unistd.h>

namespace parlour::support {

namespace asio = boost::asio;
namespace beast = boost::beast;
using tcp = asio::ip::tcp;

namespace {

// One per process, shared by every client (the soak and the torture run clients on
// several threads). Lines are whole: a line that would pass the cap is not written.
class FrameLog {
 public:
  static FrameLog& instance() {
    static FrameLog log;
    return log;
  }

  void append(const std::string& line) {
    if (fd_ < 0) return;
    std::lock_guard lock(mutex_);
    if (written_ + line.size() + 1 > cap_bytes_) return;
    // A hash stands for the line: a clash only leaves out a frame from the check.
    if (!seen_.insert(std::hash<std::string>{}(line)).second) return;
    // One write() a line, with O_APPEND: the two halves of test_integration append
    // to one log side by side, and a line cut by a buffered flush could be split
    // by the other's. Unbuffered, a test that crashes still leaves what it read.
    std::string whole = line + '\n';
    for (std::size_t done = 0; done < whole.size();) {
      const auto wrote = ::write(fd_, whole.data() + done, whole.size() - done);
      if (wrote < 0 && errno == EINTR) continue;
      if (wrote <= 0) return;
      done += static_cast<std::size_t>(wrote);
    }
    written_ += whole.size();
  }

 private:
  FrameLog() {
    const char* path = std::getenv("PARLOUR_FRAME_LOG");
    if (!path || !*path) return;
    if (const char* mb = std::getenv("PARLOUR_FRAME_LOG_MB")) cap_bytes_ = std::strtoull(mb, nullptr, 10) << 20;
    fd_ = ::open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd_ < 0) throw std::runtime_error(std::string("PARLOUR_FRAME_LOG: cannot open ") + path);
    const auto size = ::lseek(fd_, 0, SEEK_END);
    written_ = size > 0 ? static_cast<std::size_t>(size) : 0;
  }
  ~FrameLog() {
    if (fd_ >= 0) ::close(fd_);
  }

  std::mutex mutex_;
  int fd_ = -1;
  std::size_t written_ = 0;
  std::size_t cap_bytes_ = std::size_t{64} << 20;
  std::unordered_set<std::size_t> seen_;
};

}  // namespace

void log_frame(const std::string& text) { FrameLog::instance().append(text); }

void log_http_body(const std::string& target, int status, const std::string& content_type, const std::string& body) {
  if (target.rfind("/api/", 0) != 0 || content_type.find("json") == std::string::npos) return;
  Json parsed = Json::parse(body, nullptr, false);
  if (parsed.is_discarded()) return;  // the check would have nothing to read; the test sees its own body
  const std::string path = target.substr(0, target.find('?'));
  log_frame(Json{{"http", path}, {"status", status}, {"body", std::move(parsed)}}.dump());
}

WsClient::WsClient(unsigned short port, int receive_buffer, const std::string& target,
                   const std::vector<std::pair<std::string, std::string>>& headers)
    : ws_(io_) {
  auto& socket = beast::get_lowest_layer(ws_).socket();
  socket.open(tcp::v4());
  if (receive_buffer > 0) socket.set_option(asio::socket_base::receive_buffer_size(receive_buffer));
  // A server that cannot accept (out of descriptors) must fail the test, not hang it.
  beast::get_lowest_layer(ws_).expires_after(std::chrono::seconds(3));
  beast::get_lowest_layer(ws_).connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  if (!headers.empty())
    ws_.set_option(boost::beast::websocket::stream_base::decorator([headers](boost::beast::websocket::request_type& req) {
      for (const auto& [name, value] : headers) req.insert(name, value);
    }));
  ws_.handshake("127.0.0.1", target);
  beast::get_lowest_layer(ws_).expires_never();
}

WsClient::~WsClient() {
  beast::error_code ec;
  beast::get_lowest_layer(ws_).socket().close(ec);
}

void WsClient::send_raw(const std::string& text, bool binary) {
  ws_.binary(binary);
  ws_.write(asio::buffer(text));
}

std::optional<Json> WsClient::read(int ms) {
  // A read that times out stays pending and the next call carries on with it:
  // cancelling it could cut a frame that was arriving, and a WebSocket stream
  // whose read was cancelled mid-frame fails every later call ("Operation canceled").
  if (!reading_) {
    reading_ = true;
    read_done_ = false;
    read_buffer_.clear();
    ws_.async_read(read_buffer_, [this](beast::error_code e, std::size_t) {
      read_error_ = e;
      read_done_ = true;
    });
  }
  io_.restart();
  io_.run_for(std::chrono::milliseconds(ms));
  if (!read_done_) return std::nullopt;
  reading_ = false;
  if (read_error_) {
    broken_ = true;
    return std::nullopt;
  }
  std::string text = beast::buffers_to_string(read_buffer_.data());
  if (ws_.got_text()) log_frame(text);
  if (keep_frames_) frames_.push_back(text);
  Json frame = Json::parse(text);
  if (frame.value("type", "") == "state") kept_.complete(frame);
  return frame;
}

Json WsClient::request(Json message) {
  const auto id = next_id_++;
  message["id"] = id;
  send_raw(message.dump());
  for (;;) {
    auto frame = read();
    if (!frame) throw std::runtime_error("no reply to " + message.dump());
    if (frame->value("re", Json()) == id) return *frame;
    if ((*frame)["type"] == "state") pending_states_.push_back(*frame);
  }
}

Json WsClient::next_state(int ms) {
  if (!pending_states_.empty()) {
    Json s = pending_states_.front();
    pending_states_.erase(pending_states_.begin());
    return s;
  }
  for (;;) {
    auto frame = read(ms);
    if (!frame) throw std::runtime_error("no state arrived");
    if ((*frame)["type"] == "state") return *frame;
  }
}

void WsClient::drain(int ms) {
  while (auto frame = read(ms))
    if ((*frame)["type"] == "state") pending_states_.push_back(*frame);
}

std::optional<int> WsClient::close_code() {
  while (read(3000)) {
  }
  auto reason = ws_.reason();
  return static_cast<int>(reason.code);
}

std::string WsClient::hello(const std::string& name, const std::string& token) {
  // Like the browser, the test client asks for pushes of what changed only
  // (tests/support/state_keeper.cpp completes them); a hello written by hand
  // without `features` gets whole pushes.
  Json message = {{"type", "hello"}, {"name", name}, {"features", {"deltas"}}};
  if (!token.empty()) message["token"] = token;
  auto welcome = request(message);
  if (welcome["type"] != "welcome") throw std::runtime_error("hello as " + name + " answered " + welcome.dump());
  return welcome["token"];
}

}  // namespace parlour::support
