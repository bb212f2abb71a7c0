// The operator's routes beside /healthz (docs/metrics.md): the /metrics page in
// Prometheus's text format, and /readyz's look at the store. Free of Beast; the
// HTTP session calls them.
#pragma once

#include <utility>

#include <boost/asio/any_io_executor.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>
#include <string>

#include "server/lobby/lobby.h"
#include "server/net/net.h"
#include "server/persistence/reader.h"

namespace parlour::server {

// What the page shows beyond the process's registry (server/common/metrics.h).
struct MetricsSources {
  const Metrics& counters;
  const Lobby& lobby;
  const Writer& writer;
  std::uint64_t queued_bytes;  // unsent bytes of every connection
};
std::string metrics_page(const MetricsSources& sources);

// Ready: the store answers a query through the reader within `timeout`, and
// its schema is the one this server migrates to. `done(ready, reason)` is
// called once, on `executor`; `reason` is one line ("ok", or what is wrong).
using ReadinessDone = std::function<void(bool ready, std::string reason)>;
void probe_readiness(Reader& reader, boost::asio::any_io_executor executor, std::chrono::milliseconds timeout,
                     ReadinessDone done);
inline constexpr std::chrono::milliseconds readiness_timeout{2000};

// /readyz for every connection at once: /readyz is never refused for a client's
// limits, so each request must not cost a read of its own (a flood of them
// would fill the reader's queue that history and ledger reads share). One
// probe at a time: the requests that come while it runs take its answer, so
// a flood costs one read in flight, and each answer is no older than the probe
// (no answer is kept for later, so a change in the store shows at once). Thread-safe.
class Readiness : public std::enable_shared_from_this<Readiness> {
 public:
  explicit Readiness(Reader& reader) : reader_(reader) {}
  // `done(ready, reason)` is called once, on `executor`.
  void check(boost::asio::any_io_executor executor, ReadinessDone done);
  // Probes sent to the reader so far (tests).
  std::uint64_t probes() const;

 private:
  void answered(bool ready, std::string reason);

  struct Waiter {
    boost::asio::any_io_executor executor;
    ReadinessDone done;
  };
  Reader& reader_;
  mutable std::mutex mutex_;
  std::vector<Waiter> waiting_;  // for the probe in flight
  bool probing_ = false;
  std::uint64_t probes_ = 0;
};

}  // namespace parlour::server
