// Running as one of several nodes that share a PostgreSQL database (README
// "Running several nodes"). Each unfinished table is served by exactly one
// node, the holder of its lease (storage/table_leases.h). This node's cluster
// thread, with its own database connections:
//   - renews this node's leases, and stops serving any table whose lease it
//     lost (a node paused past its lease finds its tables moved on);
//   - hands a table over when another node's clients ask for it;
//   - claims tables nobody serves (their node died) and resumes them from
//     their logs;
//   - brings a table here when a client asks this node for it (the proxy
//     routes each table's clients to one node; see docker/haproxy.cfg);
//   - publishes this node's lobby lines and reads the others', so the lobby
//     of any node lists every table;
//   - keeps players and chip balances in step with the other nodes' writes.
#pragma once

#include <utility>

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "server/common/config.h"
#include "server/ledger/live_balances.h"
#include "server/ledger/player_directory.h"
#include "server/persistence/writer.h"
#include "storage/store.h"
#include "storage/table_leases.h"

namespace parlour::server {

// A table this node serves under a lease (several nodes: server/cluster/cluster.h).
struct ServedTable {
  std::string id;
  std::int64_t generation = 0;
  std::string status;
  nlohmann::json summary;
};

// The tables this node serves, as the cluster reaches them: the lobby
// (server/lobby/lobby.h) is the one implementation, and the cluster, a layer
// below it, knows it only through this.
class ServedTables {
 public:
  virtual ~ServedTables() = default;
  // Serves an unfinished table whose lease this node now holds.
  virtual void serve(storage::TableRecord record, const std::vector<storage::Event>& events,
                     std::int64_t generation) = 0;
  virtual bool serves(const std::string& table) const = 0;
  virtual std::vector<ServedTable> served_tables() const = 0;
  // The lease generation a table is served here under, while it is unfinished.
  virtual std::optional<std::int64_t> served_unfinished(const std::string& table) const = 0;
  // Stops serving a table that another node serves now.
  virtual void retire(const std::string& table, const std::string& why) = 0;
  // The lobby lines of the tables other nodes serve.
  virtual void set_tables_elsewhere(std::vector<nlohmann::json> lines) = 0;
};

class Cluster {
 public:
  // Where a table asked for is served after acquire().
  enum class Where { here, nowhere, elsewhere };
  using Acquired = std::function<void(Where)>;

  Cluster(boost::asio::io_context& io, const Config& config, ServedTables& lobby, Writer& writer, LiveBalances& balances,
          PlayerDirectory& players);
  ~Cluster();
  Cluster(const Cluster&) = delete;
  Cluster& operator=(const Cluster&) = delete;

  // Claims what nobody serves and starts the thread.
  void start();
  void stop();

  // Brings an unfinished table to this node: claims it if its lease is free or
  // expired, else asks its holder to hand it over and waits up to a lease's
  // life. `done` runs on an I/O thread: `here` (served here now), `nowhere`
  // (no such table, or finished: nothing to serve) or `elsewhere` (its holder
  // did not let go).
  void acquire(const std::string& table, Acquired done);
  // The table an invite opens, from the database (not only this node's).
  void table_of_invite(const std::string& invite, std::function<void(std::optional<std::string>)> done);

 private:
  struct Wanted {
    std::vector<Acquired> waiting;
    std::chrono::steady_clock::time_point deadline;
    bool asked = false;
  };
  struct InviteQuery {
    std::string invite;
    std::function<void(std::optional<std::string>)> done;
  };

  void loop();
  void serve_requests();
  void tick();
  // Claims `table` and serves it here; false if another node holds it.
  bool claim_and_serve(const std::string& table);
  void hand_over(const storage::HeldLease& lease);
  void hand_over_asked();
  void refresh_balances();
  void answer(std::vector<Acquired> waiting, Where where);

  boost::asio::io_context& io_;
  const Config& config_;
  ServedTables& lobby_;
  Writer& writer_;
  LiveBalances& balances_;
  PlayerDirectory& players_;
  std::unique_ptr<storage::TableLeases> leases_;
  std::unique_ptr<storage::Store> store_;  // this thread's: tables, logs, players
  std::map<std::string, std::string> published_;  // table → the lobby line last published

  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::map<std::string, Wanted> wanted_;
  std::vector<InviteQuery> invites_;
  std::thread thread_;
};

}  // namespace parlour::server
