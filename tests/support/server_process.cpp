#include "tests/support/server_process.h"

#include "tests/support/ws_client.h"  // log_http_body: the frame log

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sched.h>
#include <sstream>
#include <stdexcept>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#ifndef PARLOUR_BINARY
#error "define PARLOUR_BINARY as the path of the parlour binary"
#endif

namespace parlour::support {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

bool reaped_within(pid_t pid, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (waitpid(pid, nullptr, WNOHANG) == pid) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

}  // namespace

std::string parlour_binary() {
  const char* given = std::getenv("PARLOUR_BINARY");
  if (given == nullptr || *given == '\0') return PARLOUR_BINARY;
  if (::access(given, X_OK) != 0)
    throw std::runtime_error(std::string("PARLOUR_BINARY is set to ") + given +
                             ", which is not an executable file (expected the path of a parlour server binary)");
  return given;
}

unsigned short free_port() {
  asio::io_context io;
  tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  return acceptor.local_endpoint().port();
}

ServerProcess::ServerProcess(std::string db, std::vector<std::string> extra_args, std::string binary)
    : binary_(std::move(binary)), db_(std::move(db)), extra_(std::move(extra_args)), port_(free_port()) {
  start();
}

ServerProcess::~ServerProcess() { stop(); }

std::string ServerProcess::fresh_db(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("parlour-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  return (dir / "parlour.db").string();
}

void ServerProcess::start() {
  std::vector<std::string> args = {binary_, "--port", std::to_string(port_), "--bind", "127.0.0.1",
                                   "--db", db_, "--log-level", "warn", "--bot-delay-ms", "10"};
  args.insert(args.end(), extra_.begin(), extra_.end());
  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    // A test that crashes must not leave its server running (CTest would wait for it).
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (max_files_ > 0) {
      rlimit files{static_cast<rlim_t>(max_files_), static_cast<rlim_t>(max_files_)};
      setrlimit(RLIMIT_NOFILE, &files);
    }
    if (cpu_) {
      cpu_set_t set;
      CPU_ZERO(&set);
      CPU_SET(*cpu_, &set);
      sched_setaffinity(0, sizeof set, &set);
    }
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  for (int i = 0; i < 400; ++i) {
    try {
      if (get("/healthz").first == 200) return;
    } catch (const std::exception&) {
    }
    if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
      pid_ = -1;
      throw std::runtime_error("the server exited at start: " + binary_);
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
  if (!reaped_within(pid_, std::chrono::seconds(10))) {
    ::kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  pid_ = -1;
}

std::pair<int, std::string> ServerProcess::get(const std::string& target, const std::string& bearer,
                                               std::string* content_type) const {
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
  if (content_type) *content_type = std::string(res[http::field::content_type]);
  log_http_body(target, static_cast<int>(res.result_int()), std::string(res[http::field::content_type]), res.body());
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

std::uint64_t ServerProcess::metric(const std::string& name) const {
  const auto [status, body] = get("/metrics");
  if (status != 200) throw std::runtime_error("/metrics answered " + std::to_string(status));
  std::istringstream lines(body);
  std::string line;
  while (std::getline(lines, line))
    if (line.rfind(name + " ", 0) == 0) return std::stoull(line.substr(name.size() + 1));
  throw std::runtime_error("/metrics has no " + name);
}

double process_cpu_seconds(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // Fields after the command name (in parentheses); utime and stime are the 14th and 15th.
  std::istringstream fields(text.substr(text.rfind(')') + 2));
  std::string field;
  double ticks = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i)
    if (i >= 14) ticks += std::stod(field);
  return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

std::uint64_t process_write_calls(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/io");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("syscw:", 0) == 0) return std::stoull(line.substr(6));
  return 0;
}

double ServerProcess::cpu_seconds() const { return process_cpu_seconds(pid_); }
std::uint64_t ServerProcess::write_calls() const { return process_write_calls(pid_); }

long ServerProcess::rss_kib() const {
  std::ifstream in("/proc/" + std::to_string(pid_) + "/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  return 0;
}

}  // namespace parlour::support
