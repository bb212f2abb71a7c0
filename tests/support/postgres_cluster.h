// A real, throwaway PostgreSQL cluster for tests and benchmarks: initdb and
// pg_ctl (Debian's, under /usr/lib/postgresql/*/bin) in a fresh temporary
// folder, listening on a free loopback port with its socket in that folder,
// stopped and removed when the object goes. When the test runs as root, the
// cluster's programs run as `nobody` (initdb refuses root) and the folder is
// handed to it. No mock: the store tests and the two-node test use this.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace parlour::support {

class PostgresCluster {
 public:
  // The folder holding initdb and pg_ctl: $PARLOUR_PG_BIN if set, else the
  // newest /usr/lib/postgresql/VERSION/bin that has both; nullopt if none.
  static std::optional<std::string> find_binaries();
  // Why a cluster cannot be started here ("" when it can), for skip messages.
  static std::string unavailable_reason();

  // initdb + pg_ctl start; waits until it accepts connections. `settings` are
  // extra `-c NAME=VALUE` server settings. Throws std::runtime_error with the
  // programs' output when either fails.
  explicit PostgresCluster(std::vector<std::string> settings = {});
  ~PostgresCluster();
  PostgresCluster(const PostgresCluster&) = delete;
  PostgresCluster& operator=(const PostgresCluster&) = delete;

  // Creates an empty database and returns its URI, postgresql://parlour@127.0.0.1:PORT/NAME.
  std::string create_database(const std::string& name);
  std::string url(const std::string& database) const;
  unsigned short port() const { return port_; }
  // The postmaster's process id (its children are the backends), for CPU figures.
  int postmaster_pid() const;
  // CPU seconds (user + system) the postmaster and every backend have used so far.
  double cpu_seconds() const;
  void stop();
  // Stops the server (fast: clients are cut off) and starts it again on the same port.
  void restart();

 private:
  // Runs `program` from the cluster's bin folder with `args`, as the cluster's
  // user, output appended to the folder's log; throws if it exits non-zero.
  void run(const std::string& program, const std::vector<std::string>& args) const;
  std::string log_tail() const;

  std::string bin_;
  std::string folder_;
  std::string data_;
  unsigned short port_ = 0;
  std::string options_;  // pg_ctl start -o
  bool running_ = false;
};

}  // namespace parlour::support
