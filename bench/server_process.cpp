#include "bench/server_process.h"

// Boost 1.74's Asio with GCC 12 in C++20 needs <utility> before its first header.
#include <utility>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <csignal>
#include <sstream>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace parlour::bench {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

// The kernel picks a port that is free now; the server binds it a moment later.
unsigned short free_loopback_port() {
  asio::io_context io;
  tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  return acceptor.local_endpoint().port();
}

pid_t spawn(std::vector<std::string> args) {
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    std::vector<char*> argv;
    for (auto& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  return pid;
}

// waitpid with a deadline; true once the child has exited.
bool reaped_within(pid_t pid, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (waitpid(pid, nullptr, WNOHANG) == pid) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

}  // namespace

ServerProcess::ServerProcess(const std::string& binary, std::vector<std::string> extra_args)
    : binary_(binary),
      folder_(std::filesystem::temp_directory_path() / ("parlour-bench-server-" + std::to_string(::getpid()))),
      port_(free_loopback_port()) {
  std::filesystem::remove_all(folder_);
  std::filesystem::create_directories(folder_);
  std::vector<std::string> args = {binary_, "--port", std::to_string(port_), "--bind", "127.0.0.1", "--db",
                                   (folder_ / "parlour.db").string(), "--log-level", "warn"};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  pid_ = spawn(std::move(args));
  try {
    wait_until_healthy();
  } catch (...) {
    stop();
    std::filesystem::remove_all(folder_);
    throw;
  }
}

ServerProcess::~ServerProcess() {
  stop();
  std::error_code ignored;
  std::filesystem::remove_all(folder_, ignored);
}

void ServerProcess::wait_until_healthy() {
  for (int attempt = 0; attempt < 200; ++attempt) {
    try {
      if (get("/healthz").first == 200) return;
    } catch (const std::exception&) {
      // Not listening yet.
    }
    if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
      pid_ = -1;
      throw std::runtime_error("the server exited at start: " + binary_);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  throw std::runtime_error("the server did not answer /healthz on port " + std::to_string(port_));
}

void ServerProcess::stop() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGTERM);
  if (!reaped_within(pid_, std::chrono::seconds(10))) {
    ::kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  pid_ = -1;
}

std::pair<int, std::string> ServerProcess::get(const std::string& target) const {
  asio::io_context io;
  beast::tcp_stream stream(io);
  stream.expires_after(std::chrono::seconds(5));
  stream.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port_));
  http::request<http::empty_body> request{http::verb::get, target, 11};
  request.set(http::field::host, "127.0.0.1");
  http::write(stream, request);
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  http::read(stream, buffer, response);
  beast::error_code ignored;
  stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
  return {static_cast<int>(response.result_int()), response.body()};
}

std::uint64_t ServerProcess::metric(const std::string& name) const {
  const auto [status, body] = get("/metrics");
  if (status != 200) throw std::runtime_error("/metrics answered " + std::to_string(status));
  std::istringstream lines(body);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind(name + " ", 0) == 0) return std::stoull(line.substr(name.size() + 1));
  }
  throw std::runtime_error("/metrics has no " + name);
}

}  // namespace parlour::bench
