// The real `parlour` binary on a free loopback port with its own database, for
// the integration tests, the crash torture and the benchmark alike.
#pragma once

#include <utility>  // before Asio: std::exchange in Boost 1.74's awaitable.hpp

#include <cstdint>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace parlour::support {

// The parlour binary the tests start (and run `verify` with): the environment's
// PARLOUR_BINARY when it is set, else the one built in this tree (the compile
// definition). scripts/sanitize.sh sets it so that the plain tree's client tests
// (test_integration, test_torture) drive a sanitized server, and the sanitized
// trees need not compile those clients again. Throws when the file named is not
// an executable.
std::string parlour_binary();

// A loopback TCP port that is free now.
unsigned short free_port();

// CPU seconds (user and system) a process has used, from /proc.
double process_cpu_seconds(pid_t pid);
// The write system calls a process has made (write, sendmsg, pwrite...: /proc/PID/io's syscw).
std::uint64_t process_write_calls(pid_t pid);

class ServerProcess {
 public:
  // Starts the server on `db` (a file path) and waits for /healthz.
  explicit ServerProcess(std::string db, std::vector<std::string> extra_args = {},
                         std::string binary = parlour_binary());
  ~ServerProcess();
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  // A database path in a fresh temporary folder named after `name`.
  static std::string fresh_db(const std::string& name);

  void start();
  // Flags added to the next start's command line (after those given at construction).
  void add_args(const std::vector<std::string>& args) { extra_.insert(extra_.end(), args.begin(), args.end()); }
  void kill_hard();  // SIGKILL: no goodbye, no flush
  void stop();       // SIGTERM and wait (SIGKILL after 10 s)
  unsigned short port() const { return port_; }
  pid_t pid() const { return pid_; }
  const std::string& db() const { return db_; }

  // Take effect at the next start: the open-files limit, and the one CPU the
  // server may run on (for measurements).
  void limit_files(int files) { max_files_ = files; }
  void pin_to_cpu(int cpu) { cpu_ = cpu; }

  // A plain HTTP GET; returns status and body (and the Content-Type into `content_type` when given).
  std::pair<int, std::string> get(const std::string& target, const std::string& bearer = "",
                                  std::string* content_type = nullptr) const;
  // Sends `bytes` as they are and returns the response's status and body (0 if none came).
  std::pair<int, std::string> raw_http(const std::string& bytes) const;
  // One counter of /metrics, e.g. "parlour_storage_transactions_total".
  std::uint64_t metric(const std::string& name) const;
  // CPU seconds the server has used, and its resident memory in KiB.
  double cpu_seconds() const;
  std::uint64_t write_calls() const;
  long rss_kib() const;

 private:
  std::string binary_;
  std::string db_;
  std::vector<std::string> extra_;
  unsigned short port_ = 0;
  pid_t pid_ = -1;
  int max_files_ = 0;
  std::optional<int> cpu_;
};

}  // namespace parlour::support
