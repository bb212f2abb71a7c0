#include "tests/support/postgres_cluster.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <grp.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

namespace parlour::support {

namespace fs = std::filesystem;

namespace {

unsigned short free_loopback_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) throw std::runtime_error("cannot open a socket to find a free port");
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  socklen_t length = sizeof address;
  const bool found = ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
                     ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0;
  ::close(fd);
  if (!found) throw std::runtime_error("cannot find a free loopback port");
  return ntohs(address.sin_port);
}

// PostgreSQL's programs refuse to run as root: as root, they run as nobody.
struct RunAs {
  bool drop = false;
  uid_t uid = 0;
  gid_t gid = 0;
};

RunAs cluster_user() {
  if (::geteuid() != 0) return {};
  const passwd* nobody = ::getpwnam("nobody");
  if (!nobody) throw std::runtime_error("running as root, and there is no user 'nobody' to run PostgreSQL as");
  return {true, nobody->pw_uid, nobody->pw_gid};
}

int version_of(const fs::path& bin) {
  try {
    return std::stoi(bin.parent_path().filename().string());
  } catch (const std::exception&) {
    return 0;
  }
}

double seconds_of_process(const std::string& stat_path, bool with_children, int* parent) {
  std::ifstream in(stat_path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // The command name (field 2) may hold spaces; the fields after it follow ')'.
  const std::size_t close = text.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream fields(text.substr(close + 2));
  std::vector<std::string> field{std::istream_iterator<std::string>(fields), std::istream_iterator<std::string>()};
  // field[0] is stat's field 3 (state); ppid is 4, utime 14, stime 15, cutime 16, cstime 17.
  if (field.size() < 15) return 0;
  if (parent) *parent = std::stoi(field[1]);
  double ticks = std::stod(field[11]) + std::stod(field[12]);
  if (with_children) ticks += std::stod(field[13]) + std::stod(field[14]);
  return ticks / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

}  // namespace

std::optional<std::string> PostgresCluster::find_binaries() {
  if (const char* given = std::getenv("PARLOUR_PG_BIN"); given && *given) {
    if (fs::exists(fs::path(given) / "initdb") && fs::exists(fs::path(given) / "pg_ctl")) return std::string(given);
    return std::nullopt;
  }
  std::optional<fs::path> best;
  std::error_code ignored;
  for (const auto& entry : fs::directory_iterator("/usr/lib/postgresql", ignored)) {
    const fs::path bin = entry.path() / "bin";
    if (!fs::exists(bin / "initdb") || !fs::exists(bin / "pg_ctl")) continue;
    if (!best || version_of(bin) > version_of(*best)) best = bin;
  }
  if (!best) return std::nullopt;
  return best->string();
}

std::string PostgresCluster::unavailable_reason() {
  if (find_binaries()) return "";
  return "PostgreSQL's initdb and pg_ctl were not found under /usr/lib/postgresql/*/bin (or $PARLOUR_PG_BIN); "
         "install them with scripts/install-deps.sh --test (Debian package postgresql)";
}

PostgresCluster::PostgresCluster(std::vector<std::string> settings) {
  const auto bin = find_binaries();
  if (!bin) throw std::runtime_error(unavailable_reason());
  bin_ = *bin;
  // mkdtemp's template: six X's that it replaces.
  std::string pattern = (fs::temp_directory_path() / "parlour-pg-").string() + std::string(6, 'X');
  if (!::mkdtemp(pattern.data())) throw std::runtime_error("cannot make a temporary folder for PostgreSQL");
  folder_ = pattern;
  data_ = folder_ + "/data";
  const RunAs user = cluster_user();
  if (user.drop && ::chown(folder_.c_str(), user.uid, user.gid) != 0) {
    fs::remove_all(folder_);
    throw std::runtime_error("cannot hand " + folder_ + " to user nobody for PostgreSQL");
  }
  try {
    run("initdb", {"-D", data_, "-U", "parlour", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync",
                   "--no-instructions"});
    port_ = free_loopback_port();
    std::string options = "-p " + std::to_string(port_) + " -k " + folder_ + " -c listen_addresses=127.0.0.1";
    for (const std::string& setting : settings) options += " -c " + setting;
    options_ = options;
    run("pg_ctl", {"start", "-w", "-t", "60", "-D", data_, "-l", folder_ + "/server.log", "-o", options});
    running_ = true;
  } catch (...) {
    std::error_code ignored;
    fs::remove_all(folder_, ignored);
    throw;
  }
}

PostgresCluster::~PostgresCluster() {
  try {
    stop();
  } catch (const std::exception&) {
    // The cluster is going anyway: an immediate stop was tried, and the folder goes below.
  }
  // $PARLOUR_KEEP_PG_LOGS keeps the folder (data and server.log) to read after a failure.
  if (std::getenv("PARLOUR_KEEP_PG_LOGS")) return;
  std::error_code ignored;
  fs::remove_all(folder_, ignored);
}

void PostgresCluster::restart() {
  run("pg_ctl", {"restart", "-w", "-t", "60", "-m", "fast", "-D", data_, "-l", folder_ + "/server.log", "-o", options_});
  running_ = true;
}

void PostgresCluster::stop() {
  if (!running_) return;
  running_ = false;
  run("pg_ctl", {"stop", "-w", "-t", "60", "-m", "fast", "-D", data_});
}

void PostgresCluster::run(const std::string& program, const std::vector<std::string>& args) const {
  const std::string path = bin_ + "/" + program;
  const std::string log = folder_ + "/programs.log";
  const RunAs user = cluster_user();
  std::vector<std::string> argv_text{path};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& arg : argv_text) argv.push_back(arg.data());
  argv.push_back(nullptr);

  const pid_t child = ::fork();
  if (child < 0) throw std::runtime_error("cannot fork to run " + program);
  if (child == 0) {
    const int out = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (out >= 0) {
      ::dup2(out, STDOUT_FILENO);
      ::dup2(out, STDERR_FILENO);
      ::close(out);
    }
    // The log was opened as root; the open descriptor stays writable after the drop.
    if (user.drop) {
      if (::setgroups(0, nullptr) != 0 || ::setgid(user.gid) != 0 || ::setuid(user.uid) != 0) ::_exit(126);
    }
    ::execv(path.c_str(), argv.data());
    ::_exit(127);
  }
  int status = 0;
  while (::waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("lost track of " + program);
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw std::runtime_error(program + " failed (status " + std::to_string(status) + "): " + log_tail());
  }
}

std::string PostgresCluster::log_tail() const {
  std::string text;
  for (const char* name : {"/programs.log", "/server.log"}) {
    std::ifstream in(folder_ + name);
    std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (content.size() > 2000) content = "..." + content.substr(content.size() - 2000);
    if (!content.empty()) text += std::string("\n--- ") + (name + 1) + " ---\n" + content;
  }
  return text;
}

std::string PostgresCluster::url(const std::string& database) const {
  return "postgresql://parlour@127.0.0.1:" + std::to_string(port_) + "/" + database;
}

std::string PostgresCluster::create_database(const std::string& name) {
  run("createdb", {"-h", "127.0.0.1", "-p", std::to_string(port_), "-U", "parlour", name});
  return url(name);
}

int PostgresCluster::postmaster_pid() const {
  std::ifstream in(data_ + "/postmaster.pid");
  int pid = 0;
  in >> pid;
  return pid;
}

double PostgresCluster::cpu_seconds() const {
  const int postmaster = postmaster_pid();
  if (postmaster <= 0) return 0;
  // The postmaster with its reaped children, and each backend still running.
  double total = seconds_of_process("/proc/" + std::to_string(postmaster) + "/stat", true, nullptr);
  std::error_code ignored;
  for (const auto& entry : fs::directory_iterator("/proc", ignored)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || !std::all_of(name.begin(), name.end(), ::isdigit)) continue;
    int parent = 0;
    const double seconds = seconds_of_process(entry.path().string() + "/stat", false, &parent);
    if (parent == postmaster) total += seconds;
  }
  return total;
}

}  // namespace parlour::support
