#include "tests/integration/server_process.h"

#include <boost/beast/http.hpp>
#include <chrono>
#include <csignal>
#include <doctest/doctest.h>
#include <stdexcept>
#include <fstream>
#include <sstream>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace parlour::test {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {
unsigned short free_port() {
  asio::io_context io;
  tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  return acceptor.local_endpoint().port();
}
}  // namespace

ServerProcess::ServerProcess(std::string db, std::vector<std::string> extra_args)
    : db_(std::move(db)), extra_(std::move(extra_args)) {
  port_ = free_port();
  start();
}

ServerProcess::~ServerProcess() { stop(); }

void ServerProcess::start() {
  std::vector<std::string> args = {PARLOUR_BINARY, "--port", std::to_string(port_), "--bind", "127.0.0.1",
                                   "--db", db_, "--log-level", "warn", "--bot-delay-ms", "10"};
  args.insert(args.end(), extra_.begin(), extra_.end());
  pid_ = fork();
  if (pid_ == 0) {
    // A test that crashes must not leave its server running (CTest would wait for it).
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (max_files_ > 0) {
      rlimit files{static_cast<rlim_t>(max_files_), static_cast<rlim_t>(max_files_)};
      setrlimit(RLIMIT_NOFILE, &files);
    }
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  for (int i = 0; i < 200; ++i) {
    try {
      if (get("/healthz").first == 200) return;
    } catch (const std::exception&) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  throw std::runtime_error("the server did not come up on port " + std::to_string(port_));
}

void ServerProcess::kill_hard() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

void ServerProcess::stop() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGTERM);
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
}

std::pair<int, std::string> ServerProcess::get(const std::string& target, const std::string& bearer) const {
  asio::io_context io;
  beast::tcp_stream stream(io);
  stream.expires_after(std::chrono::seconds(5));
  stream.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port_));
  http::request<http::empty_body> req{http::verb::get, target, 11};
  req.set(http::field::host, "127.0.0.1");
  if (!bearer.empty()) req.set(http::field::authorization, "Bearer " + bearer);
  http::write(stream, req);
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  http::read(stream, buffer, res);
  beast::error_code ec;
  stream.socket().shutdown(tcp::socket::shutdown_both, ec);
  return {static_cast<int>(res.result_int()), res.body()};
}

std::pair<int, std::string> ServerProcess::raw_http(const std::string& bytes) const {
  asio::io_context io;
  beast::tcp_stream stream(io);
  stream.expires_after(std::chrono::seconds(5));
  stream.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port_));
  beast::error_code ec;
  asio::write(stream.socket(), asio::buffer(bytes), ec);
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(1 << 20);
  http::read(stream, buffer, parser, ec);
  if (!parser.is_header_done()) return {0, ""};
  return {static_cast<int>(parser.get().result_int()), parser.get().body()};
}

double ServerProcess::cpu_seconds() const {
  std::ifstream in("/proc/" + std::to_string(pid_) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // Fields after the command name (which is in parentheses); utime and stime are the 14th and 15th.
  std::istringstream fields(text.substr(text.rfind(')') + 2));
  std::string field;
  double ticks = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i)
    if (i >= 14) ticks += std::stod(field);
  return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

long ServerProcess::rss_kib() const {
  std::ifstream in("/proc/" + std::to_string(pid_) + "/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  return 0;
}

WsClient::WsClient(unsigned short port, int receive_buffer) : ws_(io_) {
  auto& socket = beast::get_lowest_layer(ws_).socket();
  socket.open(tcp::v4());
  if (receive_buffer > 0) socket.set_option(asio::socket_base::receive_buffer_size(receive_buffer));
  // A server that cannot accept (out of descriptors) must fail the test, not hang it.
  beast::get_lowest_layer(ws_).expires_after(std::chrono::seconds(3));
  beast::get_lowest_layer(ws_).connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  ws_.handshake("127.0.0.1", "/ws");
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
  beast::flat_buffer buffer;
  beast::error_code ec;
  bool done = false;
  ws_.async_read(buffer, [&](beast::error_code e, std::size_t) {
    ec = e;
    done = true;
  });
  io_.restart();
  io_.run_for(std::chrono::milliseconds(ms));
  if (!done) {
    // Timed out: cancel the read and let it finish.
    beast::get_lowest_layer(ws_).cancel();
    io_.restart();
    io_.run();
    if (ec == asio::error::operation_aborted) return std::nullopt;
  }
  if (ec) return std::nullopt;
  std::string text = beast::buffers_to_string(buffer.data());
  frames_.push_back(text);
  return Json::parse(text);
}

Json WsClient::request(Json message) {
  const auto id = next_id_++;
  message["id"] = id;
  send_raw(message.dump());
  for (;;) {
    auto frame = read();
    REQUIRE_MESSAGE(frame.has_value(), "no reply to " << message.dump());
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
    REQUIRE_MESSAGE(frame.has_value(), "no state arrived");
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
  Json message = {{"type", "hello"}, {"name", name}};
  if (!token.empty()) message["token"] = token;
  auto welcome = request(message);
  REQUIRE_MESSAGE(welcome["type"] == "welcome", welcome.dump());
  return welcome["token"];
}

}  // namespace parlour::test
