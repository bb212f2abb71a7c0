// parlour: the card-table server. Parses flags, opens the database, loads the
// players and balances, rebuilds the unfinished tables from their logs, and
// serves HTTP and WebSocket until SIGINT or SIGTERM (which drain first).
#include <utility>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <functional>
#include <iostream>
#include <memory>
#include <malloc.h>
#include <spdlog/spdlog.h>
#include <thread>

#include "server/admin/admin.h"
#include "server/cluster/cluster.h"
#include "server/common/config.h"
#include "server/common/log_format.h"
#include "server/history/backup.h"
#include "server/lobby/lobby.h"
#include "server/net/client_address.h"
#include "server/net/drain.h"
#include "server/net/net.h"
#include "server/persistence/reader.h"
#include "server/history/verify.h"
#include "server/persistence/writer.h"

using namespace parlour::server;

// jemalloc's options, read at start-up (MALLOC_CONF overrides them). Without a
// background thread jemalloc returns freed pages only as an arena allocates
// again, so memory freed by dropped slow readers stayed resident in an idle
// server (issue 25 item 11); the thread purges dirty pages after a second.
// Unused when the binary is linked without jemalloc.
extern "C" {
// NOLINTNEXTLINE: the name jemalloc looks up.
const char* malloc_conf = "background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0";
}

namespace {

// An io_context whose pending handlers can be let go of before the objects they
// hold on to are: handlers own sessions and tables (shared pointers), whose
// destructors reach the metrics, the balances and the lobby, all of which are
// declared after the io_context and so would die first.
class ServerIo : public boost::asio::io_context {
 public:
  using boost::asio::io_context::io_context;
  // Destroys every handler not yet run; io objects may still be destroyed after.
  void abandon_pending_handlers() { shutdown(); }
};

// No exception may end the process from the event loop: a handler that throws
// is logged and the loop goes on serving everyone else.
void run_loop(boost::asio::io_context& io) {
  for (;;) {
    try {
      io.run();
      return;
    } catch (const std::exception& e) {
      spdlog::critical("an exception reached the event loop and was stopped there: {}", e.what());
    } catch (...) {
      spdlog::critical("an unknown exception reached the event loop and was stopped there");
    }
  }
}

// Memory freed by dropped connections and finished tables goes back to the
// system instead of staying in the allocator's arenas. (Linked with jemalloc,
// whose background thread returns freed pages (malloc_conf above), this only
// trims glibc's few arenas.)
void trim_memory_every(boost::asio::steady_timer& timer, std::chrono::seconds period) {
  timer.expires_after(period);
  timer.async_wait([&timer, period](const boost::system::error_code& ec) {
    if (ec) return;
    malloc_trim(0);
    trim_memory_every(timer, period);
  });
}

}  // namespace

int main(int argc, char** argv) {
  // `parlour verify …` checks a finished table's deals against its revealed seed (docs/playing.md "Provably fair deals").
  if (argc >= 2 && std::string(argv[1]) == "verify") return verify_main(std::vector<std::string>(argv + 2, argv + argc));
  // `parlour signup-link …` makes a sign-up link for an invite-only server (docs/playing.md "Accounts and recovery").
  if (argc >= 2 && std::string(argv[1]) == "signup-link")
    return signup_link_main(std::vector<std::string>(argv + 2, argv + argc));
  // `parlour backup|restore|check …`: the store's tools (docs/operations.md).
  if (const auto status = run_store_tool(std::vector<std::string>(argv + 1, argv + argc))) return *status;
  // `parlour admin …`: the operator's commands on the live store (docs/admin.md).
  if (argc >= 2 && std::string(argv[1]) == "admin") return admin_main(std::vector<std::string>(argv + 2, argv + argc));
  auto parsed = parse_args(std::vector<std::string>(argv + 1, argv + argc));
  if (!parsed.config) {
    (parsed.help ? std::cout : std::cerr) << parsed.message;
    return parsed.help ? 0 : 2;
  }
  const Config config = *parsed.config;
  try {
    TrustedProxies{config.trusted_proxies};  // a bad CIDR is a bad flag, said before anything opens
  } catch (const std::invalid_argument& e) {
    std::cerr << "bad value for --trusted-proxy: " << e.what() << "\n";
    return 2;
  }
  spdlog::set_level(spdlog::level::from_str(config.log_level));
  spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ %v");
  use_log_format(config.log_format);

  try {
    ServerIo io(config.threads);
    Writer writer(config.db);
    writer.gather_steps_with([&io](std::function<void()> flush) { boost::asio::post(io, std::move(flush)); });
    Reader reader(config.db);
    auto startup_db = parlour::storage::open_store(config.db);
    // Before the players are read: a change made meanwhile is then applied from the feed.
    const auto identity_changes_seen = startup_db->last_identity_change();
    PlayerDirectory players(startup_db->all_players());
    for (const auto& device : startup_db->all_devices()) players.add_device(device);
    for (const auto& name : startup_db->banned_names()) players.set_banned(name, true);
    LiveBalances balances(startup_db->balances(""));
    // Named by the store, not by --db, which may carry a password.
    const std::string database = startup_db->describe();
    startup_db.reset();
    Lobby lobby(io, config, writer, reader, balances, players);
    // Alone, this node restores every unfinished table; one of several, it
    // serves those it claims (server/cluster/cluster.h).
    std::unique_ptr<Cluster> cluster;
    if (config.clustered()) {
      cluster = std::make_unique<Cluster>(io, config, lobby, writer, balances, players);
      lobby.attach(*cluster);
      cluster->start();
    } else {
      lobby.restore();
    }
    lobby.start_housekeeping();
    // Identity changes other processes make reach this one (docs/playing.md "Accounts and recovery").
    lobby.follow_identity_changes(identity_changes_seen);
    Metrics metrics;
    const auto front = listen(io, config, lobby, writer, reader, metrics);
    const auto port = front.port;
    const auto local_url = browse_url(config.bind, port);
    const auto open_url = !config.public_url.empty() ? config.public_url
                          : config.tls()             ? "https" + local_url.substr(4)
                                                     : local_url;
    spdlog::info("parlour listening on {} port {}: open {} ({}, web client {}, {} players{})", config.bind, port,
                 open_url, database, config.web_root, players.size(),
                 config.clustered() ? ", node " + config.node : std::string());

    // SIGTERM or SIGINT: the graceful drain (docs/metrics.md), then the stop below.
    Drain drain(io, front, writer, metrics, std::chrono::seconds(config.drain_seconds));
    drain.start();
    // SIGHUP: a renewed TLS certificate for new connections; nothing else stops.
    boost::asio::signal_set hangup(io);
    std::function<void(const boost::system::error_code&, int)> on_hangup = [&](const boost::system::error_code& ec, int) {
      if (ec) return;
      front.reload_certificate();
      hangup.async_wait(on_hangup);
    };
    if (front.reload_certificate) {
      hangup.add(SIGHUP);
      hangup.async_wait(on_hangup);
    }
    boost::asio::steady_timer trim_timer(io);
    trim_memory_every(trim_timer, std::chrono::seconds(30));

    std::vector<std::thread> threads;
    for (int i = 1; i < config.threads; ++i) threads.emplace_back([&io] { run_loop(io); });
    run_loop(io);
    for (auto& t : threads) t.join();
    lobby.stop_following_identity_changes();
    if (cluster) cluster->stop();
    writer.stop();
    reader.stop();
    // While the lobby, the balances and the metrics still live (ASan found a
    // session's and a table's destructors running after them at shutdown).
    io.abandon_pending_handlers();
    spdlog::info("parlour stopped; every committed step is on disk");
  } catch (const std::exception& e) {
    spdlog::critical("parlour cannot run: {}", e.what());
    return 1;
  }
  return 0;
}
