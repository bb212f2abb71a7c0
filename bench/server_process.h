// The real `parlour` binary, started for the end-to-end measurement on a free
// loopback port with its own temporary database, and stopped with SIGTERM.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <sys/types.h>
#include <utility>
#include <vector>

namespace parlour::bench {

class ServerProcess {
 public:
  // Starts the server and waits (a few seconds at most) for /healthz.
  ServerProcess(const std::string& binary, std::vector<std::string> extra_args);
  // Stops the server and removes its database folder.
  ~ServerProcess();
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  unsigned short port() const { return port_; }
  // SIGTERM, then waits; SIGKILL if it has not exited within a few seconds.
  void stop();

  // A plain HTTP GET on the server; returns the status and the body.
  std::pair<int, std::string> get(const std::string& target) const;
  // One counter of /metrics, e.g. "parlour_storage_transactions_total".
  std::uint64_t metric(const std::string& name) const;

 private:
  void wait_until_healthy();

  std::string binary_;
  std::filesystem::path folder_;
  unsigned short port_ = 0;
  pid_t pid_ = -1;
};

}  // namespace parlour::bench
