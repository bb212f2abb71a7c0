// HAProxy in front of Parlour nodes on loopback, configured as
// docker/haproxy.cfg is (a table's clients, /ws?table=ID, go to one node by a
// consistent hash; health checks on /healthz), with quicker checks. For the
// two-node test and the benchmark. Stopped when the object goes.
#pragma once

#include <filesystem>
#include <string>
#include <sys/types.h>
#include <vector>

namespace parlour::support {

class HaproxyProcess {
 public:
  // Debian's haproxy binary.
  static constexpr const char* binary = "/usr/sbin/haproxy";
  // Why HAProxy cannot run here ("" when it can), for skip messages.
  static std::string unavailable_reason();

  // Listens on a free loopback port, in front of `node_ports`; waits until it answers.
  explicit HaproxyProcess(const std::vector<unsigned short>& node_ports);
  ~HaproxyProcess();
  HaproxyProcess(const HaproxyProcess&) = delete;
  HaproxyProcess& operator=(const HaproxyProcess&) = delete;

  unsigned short port() const { return port_; }
  pid_t pid() const { return pid_; }

 private:
  unsigned short port_ = 0;
  pid_t pid_ = -1;
  std::filesystem::path folder_;
};

}  // namespace parlour::support
