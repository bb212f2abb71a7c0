#include "tests/support/haproxy_process.h"

#include <algorithm>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <chrono>
#include <csignal>
#include <fstream>
#include <stdexcept>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "tests/support/server_process.h"

namespace parlour::support {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

namespace {

bool accepts(unsigned short port) {
  asio::io_context io;
  tcp::socket socket(io);
  boost::system::error_code ec;
  socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port), ec);
  return !ec;
}

// Each proxied connection takes two descriptors, and HAProxy refuses to start
// if the open-files limit cannot hold maxconn of them.
long connections_allowed() {
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files) != 0) return 400;
  if (files.rlim_cur < files.rlim_max) {
    files.rlim_cur = files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &files);  // inherited by the child
    getrlimit(RLIMIT_NOFILE, &files);
  }
  const long usable = static_cast<long>(std::min<rlim_t>(files.rlim_cur, 1'000'000)) - 100;
  return std::clamp(usable / 2, 100L, 8000L);
}

}  // namespace

std::string HaproxyProcess::unavailable_reason() {
  if (std::filesystem::exists(binary)) return "";
  return std::string("HAProxy is not installed (") + binary + "); install it with scripts/install-deps.sh --test";
}

HaproxyProcess::HaproxyProcess(const std::vector<unsigned short>& node_ports) : port_(free_port()) {
  if (!unavailable_reason().empty()) throw std::runtime_error(unavailable_reason());
  folder_ = std::filesystem::temp_directory_path() /
            ("parlour-haproxy-" + std::to_string(::getpid()) + "-" + std::to_string(port_));
  std::filesystem::create_directories(folder_);
  const auto config = (folder_ / "haproxy.cfg").string();
  {
    std::ofstream out(config);
    out << "global\n  maxconn " << connections_allowed() << "\n"
           "defaults\n  mode http\n  option redispatch\n  retries 3\n  timeout connect 1s\n"
           "  timeout client 60s\n  timeout server 60s\n  timeout tunnel 1h\n"
           "frontend parlour\n  bind 127.0.0.1:"
        << port_
        << "\n  default_backend nodes\n"
           "backend nodes\n  balance url_param table\n  hash-type consistent\n"
           "  option httpchk GET /healthz\n  http-check expect status 200\n"
           "  default-server inter 200ms fall 2 rise 2\n";
    for (std::size_t i = 0; i < node_ports.size(); ++i)
      out << "  server node" << i << " 127.0.0.1:" << node_ports[i] << " check\n";
  }
  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    execl(binary, "haproxy", "-db", "-q", "-f", config.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  for (int i = 0; !accepts(port_); ++i) {
    if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
      pid_ = -1;
      throw std::runtime_error("HAProxy exited at start; its configuration was " + config);
    }
    if (i == 500) throw std::runtime_error("HAProxy did not listen on port " + std::to_string(port_));
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  // The first health checks mark the nodes up.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
}

HaproxyProcess::~HaproxyProcess() {
  if (pid_ > 0) {
    ::kill(pid_, SIGTERM);
    waitpid(pid_, nullptr, 0);
  }
  std::error_code ignored;
  std::filesystem::remove_all(folder_, ignored);
}

}  // namespace parlour::support
