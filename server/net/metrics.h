// The operator's routes beside /healthz (docs/metrics.md): the /metrics page in
// Prometheus's text format, and /readyz's look at the store. Free of Beast; the
// HTTP session calls them.
#pragma once

#include <utility>

#include <boost/asio/any_io_executor.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
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

}  // namespace parlour::server
