// One table as the network sees it: a TableCore driven on its own strand. The
// actor carries the core's effects out (frames to clients, the write to the
// writer thread, timers), holds commands back while a write is in flight, and is
// the fault barrier: an exception from the core fails this table alone — it is
// stopped with a logged reason, its players are told and its pools shared out —
// and never reaches io_context::run.
#pragma once

#include <utility>  // before Asio: std::exchange in Boost 1.74's awaitable.hpp

#include <array>
#include <chrono>
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>

#include "server/common/client.h"
#include "server/common/metrics.h"
#include "server/table/lazy_timer.h"
#include "server/table/table_core.h"
#include "server/persistence/writer.h"

namespace parlour::server {

// What the lobby reads of a table from any thread.
struct TableSnapshot {
  std::string id;
  std::string host;
  std::string invite;
  std::string status;
  bool is_private = false;
  Json summary;
  // The people who hold a seat here: seated, not gone, bots aside ("Your tables").
  std::vector<std::string> holders;
};

class TableActor : public std::enable_shared_from_this<TableActor> {
 public:
  TableActor(boost::asio::io_context& io, Writer& writer, std::unique_ptr<TableCore> core);
  ~TableActor();
  TableActor(const TableActor&) = delete;
  TableActor& operator=(const TableActor&) = delete;

  // Several nodes: every write carries this node's lease (storage::Fence). If
  // the database refuses one because the lease moved, the table stops here at
  // once: `lost` is called (the lobby forgets it) and its clients are moved.
  void serve_under_lease(storage::Fence fence, std::function<void(const std::string& table)> lost);
  // Stops serving here (the table moved to another node): requests are refused
  // and every client is told `told` (by default, that it moved) and moved.
  void retire(std::string why, std::string told = "");

  // Runs what is due by itself (after creation or a restart: the next deal,
  // bots, turn clocks).
  void wake();
  // Stops the table with `reason` (a log that cannot be replayed).
  void quarantine(std::string reason, std::string told = TableCore::fault_told);

  TableSnapshot snapshot() const;
  // Called (on the table's strand) each time the snapshot changes, so that the
  // lobby keeps its indexes without walking the tables. Set before the table runs.
  using Listener = std::function<void(const TableActor&, const TableSnapshot&)>;
  void listen(Listener listener) { listener_ = std::move(listener); }
  const std::string& id() const { return id_; }
  // How long since the table last did anything.
  std::chrono::steady_clock::duration idle_for() const;
  // Ends a table still waiting for players that nobody has used for long.
  void expire();

  // A client's request to this table, answered to that client (TableCore::handle).
  void request(std::shared_ptr<Client> client, std::optional<std::int64_t> re, protocol::TableRequest body);
  // How a rematch's new table is made (the lobby's job): `done` with its
  // `table` and `invite`, or the error that refused it. Set once, before the table runs.
  using RematchDone = std::function<void(Json created, std::optional<protocol::ProtocolError> error)>;
  using RematchMaker = std::function<void(RematchPlan plan, RematchDone done)>;
  void make_rematches_with(RematchMaker make);
  void disconnected(ClientId client);

  // Commands held while a write is in flight; beyond this, a client's request
  // is refused (the table's own timers and goodbyes are always held).
  static constexpr std::size_t max_held_commands = 4096;

 private:
  using Command = std::function<Outbox(TableCore&)>;

  // Runs `command` on the strand once no write is in flight. `from` (if any) is
  // told `rate_limited` when the table's queue is full.
  void submit(std::shared_ptr<Client> from, std::optional<std::int64_t> re, Command command);
  void run_held();
  void make_rematch(TableCore& core, const Caller& who, RematchPlan plan, Outbox& out);
  // `use`: the step counts as someone using the table (idle_for()).
  void step(const char* what, const Command& command, bool use = true);
  void carry_out(Outbox out, bool use = true);
  void set_timer(const TimerOrder& order);
  void on_committed(const storage::CommitOutcome& outcome);
  void retire_here(const std::string& why, const std::string& told = "");
  void register_client(const std::shared_ptr<Client>& client);
  // Watches the balances of whoever is seated now (LiveBalances::watch), so
  // that chips moving anywhere else wake this table (TableCore::balances_changed).
  void watch_seated_balances();
  void unwatch_balances();
  void balances_changed();
  void refresh_snapshot(bool use = true);
  static Caller caller(const std::shared_ptr<Client>& client, std::optional<std::int64_t> re);
  // /metrics: the act whose write is in flight answered ok now.
  void act_answered(std::chrono::steady_clock::time_point arrived);

  boost::asio::any_io_executor serial_;  // the table's strand (serial_executor)
  Writer& writer_;
  std::unique_ptr<TableCore> core_;
  const std::string id_;
  bool poisoned_ = false;  // the core failed even to fail: it is never called again
  bool retired_ = false;   // served by another node now
  std::optional<storage::Fence> fence_;
  std::function<void(const std::string&)> lost_;
  std::deque<Command> held_;
  std::array<std::unique_ptr<LazyTimer>, timer_kind_count> timers_;  // the core's (TimerOrder)
  std::unordered_map<ClientId, std::weak_ptr<Client>> clients_;
  std::set<std::string> watched_;  // accounts whose balance changes wake this table

  Listener listener_;
  RematchMaker make_rematch_;
  mutable std::mutex snapshot_mutex_;
  TableSnapshot snapshot_;
  std::uint64_t snapshot_version_ = 0;
  std::chrono::steady_clock::time_point last_step_ = std::chrono::steady_clock::now();
  // /metrics: when the act whose write is in flight arrived (none when the
  // write is another step's); this table's game's count of committed acts.
  std::optional<std::chrono::steady_clock::time_point> act_arrived_;
  std::atomic<std::uint64_t>& game_actions_;
};

}  // namespace parlour::server
