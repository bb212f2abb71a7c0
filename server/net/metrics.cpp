#include "server/net/metrics.h"

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <memory>

#include "server/common/metrics.h"
#include "server/history/history.h"

#ifndef PARLOUR_VERSION
#define PARLOUR_VERSION "unknown"
#endif
#ifndef PARLOUR_COMMIT
#define PARLOUR_COMMIT "unknown"
#endif

namespace parlour::server {

namespace {

void counter(metrics::Exposition& out, const char* name, const char* help, std::uint64_t value) {
  out.family(name, "counter", help);
  out.sample(name, static_cast<double>(value));
}

void gauge(metrics::Exposition& out, const char* name, const char* help, std::uint64_t value) {
  out.family(name, "gauge", help);
  out.sample(name, static_cast<double>(value));
}

// A family with one sample per label value.
void labelled(metrics::Exposition& out, const char* name, const char* type, const char* help, const char* label,
              const std::vector<std::pair<std::string, std::uint64_t>>& values) {
  out.family(name, type, help);
  for (const auto& [value, count] : values) out.sample(name, {{label, value}}, static_cast<double>(count));
}

}  // namespace

std::string metrics_page(const MetricsSources& sources) {
  const auto& m = sources.counters;
  metrics::Exposition out;
  out.family("parlour_build_info", "gauge", "The running server's version and the commit it was built from; always 1.");
  out.sample("parlour_build_info", {{"version", PARLOUR_VERSION}, {"commit", PARLOUR_COMMIT}}, 1);

  // The ten counters /metrics had before, under their old names.
  counter(out, "parlour_connections_total", "WebSocket connections accepted since start.", m.connections);
  gauge(out, "parlour_connections_open", "WebSocket connections open now.", m.open_connections);
  counter(out, "parlour_connections_refused_total",
          "Connections and proxied requests refused for their address's connection limit.", m.connections_refused);
  counter(out, "parlour_slow_clients_dropped_total", "Connections dropped for leaving too many bytes unread.",
          m.slow_clients_dropped);
  counter(out, "parlour_accept_errors_total", "Failed accepts (e.g. out of file descriptors).", m.accept_errors);
  counter(out, "parlour_frames_in_total", "WebSocket frames received.", m.frames_in);
  counter(out, "parlour_frames_out_total", "WebSocket frames written.", m.frames_out);
  counter(out, "parlour_socket_writes_total",
          "Writes handed to WebSocket connections' sockets: the frames one connection is sent in a step leave in one.",
          m.socket_writes);
  counter(out, "parlour_http_requests_total", "HTTP requests read (WebSocket upgrades included).", m.http_requests);
  const auto tables = sources.lobby.table_counts();
  gauge(out, "parlour_tables", "Tables in memory: every unfinished one and the finished ones still held.",
        tables.open + tables.finished);
  gauge(out, "parlour_tables_open", "Unfinished tables served here.", tables.open);
  gauge(out, "parlour_tables_finished_in_memory", "Finished tables still held in memory.", tables.finished);
  gauge(out, "parlour_queued_bytes", "Bytes queued for clients and not yet written.", sources.queued_bytes);
  counter(out, "parlour_storage_transactions_total", "Transactions the writer committed.",
          sources.writer.transactions());
  counter(out, "parlour_history_events_replayed_total", "Events replayed to answer hand-history requests.",
          history_events_replayed());

  labelled(out, "parlour_tables_by_state", "gauge", "Tables in memory by state.", "state",
           {{"waiting", tables.waiting}, {"playing", tables.playing}, {"finished", tables.finished}});
  gauge(out, "parlour_players_connected", "Names with a signed-in WebSocket connection here.",
        sources.lobby.players_online());

  auto& registry = metrics::registry();
  registry.act_seconds.write(out, "parlour_act_seconds",
                             "From an act's arrival at its table to its ok, for acts whose step was committed.");
  registry.commit_seconds.write(out, "parlour_commit_seconds",
                                "The writer's transaction of a batch of table steps, from begin to durable.");
  registry.commit_batch_steps.write(out, "parlour_commit_batch_steps", "Table steps in one writer transaction.");
  registry.push_bytes.write(out, "parlour_push_bytes", "Bytes of each state push frame sent to a connection.");
  labelled(out, "parlour_actions_total", "counter", "Acts committed, by game.", "game",
           registry.actions_by_game.values());
  labelled(out, "parlour_errors_total", "counter", "Error messages sent to WebSocket clients, by code.", "code",
           registry.errors_by_code.values());
  return out.text();
}

void probe_readiness(Reader& reader, boost::asio::any_io_executor executor, std::chrono::milliseconds timeout,
                     ReadinessDone done) {
  // Touched only on `executor`: whichever of the answer and the timer comes first answers.
  struct Probe {
    explicit Probe(boost::asio::any_io_executor executor, ReadinessDone done)
        : timer(executor), done(std::move(done)) {}
    boost::asio::steady_timer timer;
    ReadinessDone done;
    bool answered = false;
    void answer(bool ready, std::string reason) {
      if (answered) return;
      answered = true;
      timer.cancel();
      done(ready, std::move(reason));
    }
  };
  auto probe = std::make_shared<Probe>(executor, std::move(done));
  probe->timer.expires_after(timeout);
  probe->timer.async_wait([probe, timeout](const boost::system::error_code& ec) {
    if (!ec)
      probe->answer(false, "the store did not answer within " + std::to_string(timeout.count()) + " ms");
  });
  const bool queued = reader.run([probe, executor](storage::Store& db) {
    bool ready = false;
    std::string reason;
    try {
      const int version = db.schema_version();
      const int wanted = storage::Store::latest_schema_version();
      ready = version == wanted;
      reason = ready ? "ok"
                     : "the store's schema is at migration " + std::to_string(version) + ", this server needs " +
                           std::to_string(wanted);
    } catch (const std::exception& e) {
      reason = std::string("the store cannot be read: ") + e.what();
    }
    boost::asio::post(executor, [probe, ready, reason = std::move(reason)]() mutable {
      probe->answer(ready, std::move(reason));
    });
  });
  if (!queued)
    boost::asio::post(executor, [probe] { probe->answer(false, "the store's reader has too many reads waiting"); });
}

void Readiness::check(boost::asio::any_io_executor executor, ReadinessDone done) {
  std::unique_lock lock(mutex_);
  waiting_.push_back({executor, std::move(done)});
  if (probing_) return;
  probing_ = true;
  ++probes_;
  lock.unlock();
  probe_readiness(reader_, executor, readiness_timeout,
                  [self = shared_from_this()](bool ready, std::string reason) { self->answered(ready, std::move(reason)); });
}

void Readiness::answered(bool ready, std::string reason) {
  std::vector<Waiter> waiting;
  {
    std::lock_guard lock(mutex_);
    probing_ = false;
    waiting.swap(waiting_);
  }
  for (auto& waiter : waiting)
    boost::asio::post(waiter.executor, [done = std::move(waiter.done), ready, reason]() mutable {
      done(ready, std::move(reason));
    });
}

std::uint64_t Readiness::probes() const {
  std::lock_guard lock(mutex_);
  return probes_;
}

}  // namespace parlour::server
