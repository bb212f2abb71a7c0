#include "bench/server_bench.h"

// Boost 1.74's Asio with GCC 12 in C++20 needs <utility> before its first header.
#include <utility>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <cstdio>
#include <sched.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "bench/report.h"
#include "bench/ws_player.h"
#include "tests/support/haproxy_process.h"
#include "tests/support/postgres_cluster.h"
#include "tests/support/server_process.h"

namespace parlour::bench {

namespace {

namespace asio = boost::asio;
using support::ServerProcess;
using Player = std::shared_ptr<WsPlayer>;

constexpr auto warm_up = std::chrono::seconds(1);
constexpr auto drain_limit = std::chrono::seconds(5);
constexpr int idle_connections = 1000;

// Pins the calling process (and threads it starts later) to one CPU.
void pin_self(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  sched_setaffinity(0, sizeof set, &set);
}

// As many open files as the system allows: thousands of connections.
int raise_file_limit() {
  rlimit limit{};
  getrlimit(RLIMIT_NOFILE, &limit);
  limit.rlim_cur = limit.rlim_max;
  setrlimit(RLIMIT_NOFILE, &limit);
  return static_cast<int>(std::min<rlim_t>(limit.rlim_max, 1'000'000));
}

// What one measured run gives.
struct Run {
  int tables = 0;
  double seconds = 0;
  PlayStats play;
  double server_cpu_seconds = 0;    // every node's
  double database_cpu_seconds = 0;  // PostgreSQL's (0 on SQLite, which runs inside the node)
  long server_rss_kib = 0;
  std::int64_t steps = 0;
  std::int64_t transactions = 0;
  std::uint64_t write_calls = 0;    // the server's file writes (database pages, logs): /proc/PID/io syscw
  std::uint64_t socket_writes = 0;  // the server's writes to WebSocket connections (its /metrics)
  std::uint64_t frames_out = 0;     // the WebSocket frames they carried

  double actions_per_second() const { return play.actions / seconds; }
  double per_action(std::uint64_t count) const { return play.actions ? double(count) / play.actions : 0; }
  double cpu_us_per_action() const { return play.actions ? 1e6 * server_cpu_seconds / play.actions : 0; }
  double database_us_per_action() const { return play.actions ? 1e6 * database_cpu_seconds / play.actions : 0; }
  double bytes_per_state() const { return play.states ? double(play.state_bytes) / play.states : 0; }
};

// Runs `players` inside a window of `seconds` after the warm-up, on this thread.
PlayStats play_window(asio::io_context& io, std::vector<Player>& players, double seconds,
                      const std::function<void()>& at_start, const std::function<void()>& at_end,
                      double paced_rate = 0) {
  Window window;
  if (paced_rate > 0)
    window.pace = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1.0 / paced_rate));
  window.start = Clock::now() + warm_up;
  window.end = window.start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  for (auto& player : players) player->play(window);
  io.restart();
  io.run_until(window.start);
  at_start();
  io.run_until(window.end);
  at_end();
  const auto drained_by = Clock::now() + drain_limit;
  while (window.in_flight > 0 && Clock::now() < drained_by) io.run_for(std::chrono::milliseconds(10));
  for (auto& player : players) player->stop();
  io.run_for(std::chrono::milliseconds(50));
  PlayStats total;
  for (const auto& player : players) total.add(player->stats());
  return total;
}

std::vector<std::string> server_flags(const Options& options) {
  return {"--starting-chips", "1000000000", "--threads", std::to_string(options.server_threads),
          "--rate-limit", "1000000", "--deal-pause-ms", "0", "--bot-delay-ms", "0",
          "--max-connections-per-ip", "1000000", "--registrations-per-ip-per-hour", "1000000",
          "--max-open-tables", "1000000", "--max-queued-bytes", "67108864"};
}

// Where the measured Parlour runs: one node on a SQLite file, or `nodes`
// nodes on one PostgreSQL cluster (behind HAProxy when more than one). Nodes
// are pinned to CPU 0 like the single server; PostgreSQL and HAProxy are not.
class Deployment {
 public:
  Deployment(const Options& options, int files) {
    std::string db = ServerProcess::fresh_db("bench");
    if (options.store == "postgresql") {
      postgres_ = std::make_unique<support::PostgresCluster>();
      static int databases = 0;
      db = postgres_->create_database("bench_" + std::to_string(++databases));
    }
    for (int n = 0; n < options.nodes; ++n) {
      auto flags = server_flags(options);
      if (options.nodes > 1) flags.insert(flags.end(), {"--node", "n" + std::to_string(n)});
      auto node = std::make_unique<ServerProcess>(db, flags, options.server_binary);
      node->limit_files(files);
      // More threads than one get every CPU: pinned to one, they would only take turns.
      if (options.pinned() && options.server_threads == 1) node->pin_to_cpu(0);
      node->stop();
      node->start();
      nodes_.push_back(std::move(node));
    }
    if (options.nodes > 1) {
      std::vector<unsigned short> ports;
      for (const auto& node : nodes_) ports.push_back(node->port());
      proxy_ = std::make_unique<support::HaproxyProcess>(ports);
    }
  }

  unsigned short port() const { return proxy_ ? proxy_->port() : nodes_.front()->port(); }
  double cpu_seconds() const {
    double total = 0;
    for (const auto& node : nodes_) total += node->cpu_seconds();
    return total;
  }
  std::uint64_t write_calls() const {
    std::uint64_t total = 0;
    for (const auto& node : nodes_) total += node->write_calls();
    return total;
  }
  double database_cpu_seconds() const { return postgres_ ? postgres_->cpu_seconds() : 0; }
  long rss_kib() const {
    long total = 0;
    for (const auto& node : nodes_) total += node->rss_kib();
    return total;
  }
  std::uint64_t transactions() const { return summed("parlour_storage_transactions_total"); }
  // 0 from a server built before the metric (--server PATH may name one).
  std::uint64_t socket_writes() const {
    try {
      return summed("parlour_socket_writes_total");
    } catch (const std::exception&) {
      return 0;
    }
  }
  std::uint64_t frames_out() const { return summed("parlour_frames_out_total"); }
  std::uint64_t summed(const std::string& metric) const {
    std::uint64_t total = 0;
    for (const auto& node : nodes_) total += node->metric(metric);
    return total;
  }

 private:
  std::unique_ptr<support::PostgresCluster> postgres_;  // declared first: stopped after the nodes
  std::vector<std::unique_ptr<ServerProcess>> nodes_;
  std::unique_ptr<support::HaproxyProcess> proxy_;
};

std::string describe_deployment(const Options& options) {
  if (options.store == "sqlite") return "one node on a SQLite file";
  if (options.nodes == 1) return "one node on PostgreSQL";
  return std::to_string(options.nodes) + " nodes on PostgreSQL behind HAProxy";
}

// `paced_rate`: acts a second offered in all (0: the closed loop, as fast as the server answers).
Run run_parlour(const Options& options, int tables, int files, double paced_rate = 0) {
  Deployment server(options, files);
  asio::io_context io(1);
  const auto port = server.port();
  std::vector<Player> players;
  std::vector<std::string> table_ids;
  std::uint64_t seed = options.seed;
  // Each table is made from the lobby, then every member connects as the
  // browser client does on a table's page, /ws?table=ID, which a proxy routes
  // to the table's node.
  auto member = [&](const std::string& id, WsPlayer::Role role, Json hello) {
    auto player = std::make_shared<WsPlayer>(io, port, WsPlayer::Protocol::parlour, role, seed++, "/ws?table=" + id);
    player->request(std::move(hello));
    player->set_table(id);
    return player;
  };
  for (int t = 0; t < tables; ++t) {
    const std::string host_name = "h" + std::to_string(t);
    std::string id, token;
    {
      WsPlayer lobby(io, port, WsPlayer::Protocol::parlour, WsPlayer::Role::player, seed++);
      token = lobby.request({{"type", "hello"}, {"features", {"deltas"}}, {"name", host_name}})["token"];
      id = lobby.request({{"type", "create"}, {"game", options.game}, {"seats", options.seats}})["table"];
    }
    auto host = member(id, WsPlayer::Role::player, {{"type", "hello"}, {"features", {"deltas"}}, {"name", host_name}, {"token", token}});
    host->request({{"type", "join"}, {"table", id}, {"seat", 0}});
    players.push_back(host);
    for (int s = 1; s < options.seats; ++s) {
      auto player = member(id, WsPlayer::Role::player,
                           {{"type", "hello"}, {"features", {"deltas"}}, {"name", "p" + std::to_string(t) + "_" + std::to_string(s)}});
      player->request({{"type", "join"}, {"table", id}, {"seat", s}});
      players.push_back(player);
    }
    for (int v = 0; v < options.spectators; ++v) {
      auto watcher = member(id, WsPlayer::Role::spectator,
                            {{"type", "hello"}, {"features", {"deltas"}}, {"name", "w" + std::to_string(t) + "_" + std::to_string(v)}});
      watcher->request({{"type", "watch"}, {"table", id}});
      players.push_back(watcher);
    }
    host->request({{"type", "start"}, {"table", id}});
    table_ids.push_back(id);
  }
  Run run;
  run.tables = tables;
  run.seconds = options.seconds;
  double cpu_at_start = 0;
  double database_cpu_at_start = 0;
  std::uint64_t transactions_at_start = 0;
  std::uint64_t writes_at_start = 0, socket_writes_at_start = 0, frames_at_start = 0;
  run.play = play_window(
      io, players, options.seconds,
      [&] {
        cpu_at_start = server.cpu_seconds();
        writes_at_start = server.write_calls();
        socket_writes_at_start = server.socket_writes();
        frames_at_start = server.frames_out();
        database_cpu_at_start = server.database_cpu_seconds();
        transactions_at_start = server.transactions();
        std::int64_t steps = 0;
        for (const auto& player : players) steps += player->latest_seq();
        run.steps = -steps;
      },
      [&] {
        run.server_cpu_seconds = server.cpu_seconds() - cpu_at_start;
        run.write_calls = server.write_calls() - writes_at_start;
        run.socket_writes = server.socket_writes() - socket_writes_at_start;
        run.frames_out = server.frames_out() - frames_at_start;
        run.database_cpu_seconds = server.database_cpu_seconds() - database_cpu_at_start;
        run.transactions = static_cast<std::int64_t>(server.transactions() - transactions_at_start);
        std::int64_t steps = 0;
        for (const auto& player : players) steps += player->latest_seq();
        run.steps += steps;
        run.server_rss_kib = server.rss_kib();
      },
      paced_rate);
  // Every member of a table saw (about) every step: count steps once per table.
  run.steps /= options.seats + options.spectators;
  players.clear();
  io.run_for(std::chrono::milliseconds(100));
  return run;
}

// The bare Beast server: the same clients, the same rooms, frames of the size
// Parlour's state pushes had.
class EchoProcess {
 public:
  EchoProcess(const std::string& binary, int room, std::size_t payload, bool pinned) {
    asio::io_context io;
    asio::ip::tcp::acceptor probe(io, {asio::ip::make_address("127.0.0.1"), 0});
    port_ = probe.local_endpoint().port();
    probe.close();
    pid_ = fork();
    if (pid_ == 0) {
      if (pinned) pin_self(0);
      const std::string port = std::to_string(port_), size = std::to_string(room), bytes = std::to_string(payload);
      execl(binary.c_str(), binary.c_str(), "--port", port.c_str(), "--room", size.c_str(), "--payload", bytes.c_str(),
            static_cast<char*>(nullptr));
      _exit(127);
    }
    for (int i = 0; i < 200; ++i) {
      asio::ip::tcp::socket socket(io);
      boost::system::error_code ec;
      socket.connect({asio::ip::make_address("127.0.0.1"), port_}, ec);
      if (!ec) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    throw std::runtime_error("parlour_echo did not start");
  }
  ~EchoProcess() {
    ::kill(pid_, SIGTERM);
    waitpid(pid_, nullptr, 0);
  }
  unsigned short port() const { return port_; }
  double cpu_seconds() const { return support::process_cpu_seconds(pid_); }

 private:
  unsigned short port_ = 0;
  pid_t pid_ = -1;
};

Run run_echo(const Options& options, int tables, std::size_t payload) {
  const int room = options.seats + options.spectators;
  EchoProcess echo(options.echo_binary, room, payload, options.pinned());
  asio::io_context io(1);
  std::vector<Player> players;
  std::uint64_t seed = options.seed;
  for (int t = 0; t < tables; ++t)
    for (int m = 0; m < room; ++m) {
      const auto role = m < options.seats ? WsPlayer::Role::player : WsPlayer::Role::spectator;
      auto player = std::make_shared<WsPlayer>(io, echo.port(), WsPlayer::Protocol::echo, role, seed++);
      player->set_room_index(m);
      players.push_back(player);
    }
  Run run;
  run.tables = tables;
  run.seconds = options.seconds;
  double cpu_at_start = 0;
  run.play = play_window(
      io, players, options.seconds, [&] { cpu_at_start = echo.cpu_seconds(); },
      [&] { run.server_cpu_seconds = echo.cpu_seconds() - cpu_at_start; });
  players.clear();
  io.run_for(std::chrono::milliseconds(100));
  return run;
}

// Idle connections, signed in: what each costs the server in resident memory.
// The server's RSS growth per idle signed-in connection, two ways:
// - new names: each connection registers a name (its player, account and
//   starting chips, and the SQLite pages they fill, are in the figure);
// - returning names: the names were registered by an earlier run of the
//   server on the same database, so what grows is the connection alone (and
//   the player's session): what a host's month-old server pays for a friend
//   who keeps a tab open.
struct IdleRss {
  double new_names = 0;
  double returning_names = 0;
};

IdleRss rss_per_idle_connection(const Options& options, int files) {
  ServerProcess server(ServerProcess::fresh_db("bench-idle"), server_flags(options), options.server_binary);
  server.limit_files(files);
  server.stop();
  server.start();
  IdleRss out;
  std::vector<std::string> tokens;
  const auto sign_in = [&](asio::io_context& io, std::vector<Player>& into, const std::string& prefix, int count,
                           bool returning) {
    for (int i = 0; i < count; ++i) {
      into.push_back(std::make_shared<WsPlayer>(io, server.port(), WsPlayer::Protocol::parlour, WsPlayer::Role::spectator, i));
      Json hello = {{"type", "hello"}, {"features", {"deltas"}}, {"name", prefix + std::to_string(i)}};
      if (returning) hello["token"] = tokens.at(static_cast<std::size_t>(prefix == "warm" ? i : 20 + i));
      const auto welcome = into.back()->request(hello);
      if (!returning) tokens.push_back(welcome.at("token").get<std::string>());
    }
  };
  const auto measure = [&](bool returning) {
    asio::io_context io(1);
    std::vector<Player> warm;
    sign_in(io, warm, "warm", 20, returning);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const long before = server.rss_kib();
    std::vector<Player> idle;
    sign_in(io, idle, "idle", idle_connections, returning);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const long after = server.rss_kib();
    return 1024.0 * static_cast<double>(after - before) / idle_connections;
  };
  out.new_names = measure(false);
  // A fresh process on the same database: the names are known from its start.
  server.stop();
  server.start();
  out.returning_names = measure(true);
  return out;
}

std::string ratio(double parlour, double baseline) {
  return baseline > 0 ? fixed(parlour / baseline, 3) : "-";
}

void print_run(const char* what, const Run& run) {
  auto ok = run.play.act_to_ok_ms;
  auto own = run.play.act_to_state_ms;
  std::printf("%-8s %6d %10.0f %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f %9.1f %8.0f %8.2f %9ld\n", what, run.tables,
              run.actions_per_second(), percentile(ok, 0.5), percentile(ok, 0.99), percentile(ok, 0.999),
              percentile(own, 0.5), percentile(own, 0.99), percentile(own, 0.999), run.cpu_us_per_action(),
              run.bytes_per_state(), run.transactions ? double(run.steps) / run.transactions : 0.0,
              run.server_rss_kib);
  if (run.database_cpu_seconds > 0)
    std::printf("         and PostgreSQL's own CPU: %.1f us an action\n", run.database_us_per_action());
  if (run.socket_writes > 0)
    std::printf("         an action: %.2f frames sent in %.2f socket writes; %.2f file writes (database pages, logs)\n",
                run.per_action(run.frames_out), run.per_action(run.socket_writes), run.per_action(run.write_calls));
  std::fflush(stdout);
  for (const auto& [code, count] : run.play.errors) std::printf("         refused or failed: %s × %lld\n", code.c_str(), static_cast<long long>(count));
  if (!run.play.first_refusal.empty()) std::printf("         first refusal: %s\n", run.play.first_refusal.c_str());
}

// -- the boardgame.io peer (bench/peers/boardgameio, its README.md) ------------
//
// Its driver (driver.mjs) starts boardgame.io's server, plays the same game
// with the same closed loop, and prints one JSON line of figures.

// The path of `name` on PATH, or "" when it is not there.
std::string find_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const auto candidate = (dir.empty() ? std::string(".") : dir) + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

// 'text' quoted for sh -c.
std::string shell_quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

struct Peer {
  std::string node;     // the node binary
  std::string modules;  // the peer's node_modules
  std::string why_not;  // why it cannot run here; "" when it can
};

// Whether the peer can run: the same game (red_dog, no spectators), node on
// PATH and its npm packages installed, by `make bench` into the build tree
// (PARLOUR_BGIO_MODULES) or by hand beside the driver.
Peer find_peer(const Options& options) {
  Peer peer;
  if (options.game != "red_dog") peer.why_not = "it plays red_dog only, not " + options.game;
  else if (options.spectators > 0) peer.why_not = "its driver seats no spectators";
  else if (options.seats < 2 || options.seats > 10) peer.why_not = "Red Dog seats 2 to 10";
  else if ((peer.node = find_on_path("node")).empty()) peer.why_not = "node is not on PATH";
  else {
    for (const std::string& dir : {std::string(PARLOUR_BGIO_MODULES), std::string(PARLOUR_BGIO_DIR) + "/node_modules"})
      if (std::filesystem::is_directory(dir + "/boardgame.io")) {
        peer.modules = dir;
        break;
      }
    if (peer.modules.empty())
      peer.why_not = "its npm packages are not installed (make bench installs them into " PARLOUR_BGIO_MODULES ")";
  }
  return peer;
}

// Runs the driver for `tables` tables; its JSON line, or throws saying what went wrong.
Json run_bgio(const Options& options, const Peer& peer, int tables) {
  // Its stderr is the bench's; its stdout ends with the JSON line.
  const std::string command = "PARLOUR_NODE_MODULES=" + shell_quoted(peer.modules) + " " + shell_quoted(peer.node) +
                              " " + shell_quoted(std::string(PARLOUR_BGIO_DIR) + "/driver.mjs") + " --tables " +
                              std::to_string(tables) + " --seconds " + fixed(options.seconds, 3) + " --seats " +
                              std::to_string(options.seats) + (options.pinned() ? "" : " --no-pin");
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) throw std::runtime_error("could not start " + command);
  std::string output;
  char chunk[4096];
  for (std::size_t n; (n = std::fread(chunk, 1, sizeof chunk, pipe)) > 0;) output.append(chunk, n);
  const int status = ::pclose(pipe);
  if (status != 0)
    throw std::runtime_error("driver.mjs exited with status " + std::to_string(status) + " (its stderr is above)");
  const auto line_start = output.find_last_of('\n', output.size() >= 2 ? output.size() - 2 : 0);
  const auto line = output.substr(line_start == std::string::npos ? 0 : line_start + 1);
  Json figures = Json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (!figures.is_object() || !figures.contains("actions"))
    throw std::runtime_error("expected one JSON line of figures from driver.mjs, got '" + line.substr(0, 300) + "'");
  return figures;
}

void print_bgio(const Run& parlour, const Json& bgio) {
  const double seconds = bgio.value("seconds", 0.0);
  const double actions_per_second = seconds > 0 ? bgio.value("actions", 0.0) / seconds : 0;
  const double p50 = bgio.value("p50_ms", 0.0), p99 = bgio.value("p99_ms", 0.0), p999 = bgio.value("p999_ms", 0.0);
  const double cpu = bgio.value("server_cpu_us_per_action", 0.0);
  std::printf("%-8s %6d %10.0f %8s %8s %8s %8.2f %8.2f %8.2f %9.1f %8.0f %8s %9ld\n", "bgio", bgio.value("tables", 0),
              actions_per_second, "-", "-", "-", p50, p99, p999, cpu, bgio.value("bytes_per_state", 0.0), "-",
              bgio.value("server_rss_kib", 0L));
  auto own = parlour.play.act_to_state_ms;
  std::printf("%-8s %6d %10s %8s %8s %8s %8s %8s %8s %9s   (parlour / bgio)\n", "ratio", bgio.value("tables", 0),
              ratio(parlour.actions_per_second(), actions_per_second).c_str(), "", "", "",
              ratio(percentile(own, 0.5), p50).c_str(), ratio(percentile(own, 0.99), p99).c_str(),
              ratio(percentile(own, 0.999), p999).c_str(), ratio(parlour.cpu_us_per_action(), cpu).c_str());
  if (const auto stalls = bgio.value("stalls", 0L) + bgio.value("server_errors", 0L)) {
    const std::string first =
        bgio.contains("first_server_error") ? ": " + bgio["first_server_error"].get<std::string>() : "";
    std::printf("         bgio dropped or refused %ld moves%s\n", stalls, first.c_str());
  }
  // The driver is one Node process on one CPU: say when it, not the server, may have been the limit.
  const double driver = bgio.value("driver_cpu_percent", 0.0);
  std::printf("         bgio: %.1f s of warm-up; its driver used %.0f %% of a CPU%s\n",
              bgio.value("warm_up_seconds", 0.0), driver, driver > 85 ? ": it may have limited the rate" : "");
  std::fflush(stdout);
}

}  // namespace

void run_server_bench(const Options& options) {
  const int files = raise_file_limit();
  if (options.pinned()) pin_self(1);
  std::printf("server: %s, %d seats%s per table, %.0f s per run after %lld s of warm-up; %s; %s\n",
              options.game.c_str(), options.seats, options.spectators ? " + 1 spectator" : "", options.seconds,
              static_cast<long long>(warm_up.count()), describe_deployment(options).c_str(),
              options.pinned() ? "server pinned to CPU 0, clients to CPU 1" : "not pinned (one CPU)");
  std::printf("%-8s %6s %10s %8s %8s %8s %8s %8s %8s %9s %8s %8s %9s\n", "", "tables", "actions/s", "ok p50",
              "ok p99", "ok p999", "own p50", "own p99", "own p999", "cpu us/a", "B/state", "steps/tx", "rss KiB");
  std::printf("%-8s %6s %10s %8s %8s %8s %8s %8s %8s %9s %8s %8s %9s\n", "", "", "", "ms", "ms", "ms", "ms", "ms",
              "ms", "", "", "", "");
  const Peer peer = options.peers ? find_peer(options) : Peer{};
  const bool with_bgio = options.peers && peer.why_not.empty();
  if (with_bgio)
    std::printf("bgio: boardgame.io 0.50 in memory, same game and loop, pinned alike; warmed up until its server's "
                "CPU per move settles (Node's JIT: 3-20 s); own = move -> its new state\n");
  else if (options.peers)
    std::printf("bgio: left out, %s\n", peer.why_not.c_str());
  for (int tables : options.table_counts) {
    const Run parlour = run_parlour(options, tables, files);
    print_run("parlour", parlour);
    // Latency at half the rate just measured, the load a server is sized for.
    if (options.half_rate) print_run("half", run_parlour(options, tables, files, parlour.actions_per_second() / 2));
    const Run baseline = run_echo(options, tables, static_cast<std::size_t>(parlour.bytes_per_state()));
    print_run("beast", baseline);
    auto pok = parlour.play.act_to_ok_ms, bok = baseline.play.act_to_ok_ms;
    std::printf("%-8s %6d %10s %8s %8s %8s %8s %8s %8s %9s   (parlour / beast)\n", "ratio", tables,
                ratio(parlour.actions_per_second(), baseline.actions_per_second()).c_str(),
                ratio(percentile(pok, 0.5), percentile(bok, 0.5)).c_str(),
                ratio(percentile(pok, 0.99), percentile(bok, 0.99)).c_str(),
                ratio(percentile(pok, 0.999), percentile(bok, 0.999)).c_str(), "", "", "",
                ratio(parlour.cpu_us_per_action(), baseline.cpu_us_per_action()).c_str());
    if (with_bgio) {
      std::fflush(stdout);
      try {
        print_bgio(parlour, run_bgio(options, peer, tables));
      } catch (const std::exception& e) {
        std::printf("bgio     %6d failed: %s\n", tables, e.what());
      }
    }
    for (std::size_t i = 1; i < options.server_thread_counts.size(); ++i) {
      Options more = options;
      more.server_threads = options.server_thread_counts[i];
      const Run threaded = run_parlour(more, tables, files);
      print_run((std::to_string(more.server_threads) + " thr").c_str(), threaded);
      std::printf("%-8s %6d %10s   (%d threads / %d)\n", "ratio", tables,
                  ratio(threaded.actions_per_second(), parlour.actions_per_second()).c_str(), more.server_threads,
                  options.server_threads);
    }
  }
  const auto idle = rss_per_idle_connection(options, files);
  print_line("server/rss per idle connection",
             fixed(idle.new_names / 1024.0, 1) + " KiB (" + std::to_string(idle_connections) +
                 " signed-in WebSockets, each a new name)");
  print_line("server/rss per idle connection",
             fixed(idle.returning_names / 1024.0, 1) + " KiB (" + std::to_string(idle_connections) +
                 " signed-in WebSockets of names registered before the server started)");
}

}  // namespace parlour::bench
