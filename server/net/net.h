// The network front: one port for HTTP (client files, /healthz, /metrics, /api)
// and the WebSocket at /ws. Beast is compiled in net.cpp and net_tls.cpp alone
// (sessions.h).
#pragma once

#include <utility>

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <functional>
#include <memory>

#include "server/common/config.h"
#include "server/lobby/lobby.h"

namespace parlour::server {

struct Metrics {
  std::atomic<std::uint64_t> connections{0};
  std::atomic<std::uint64_t> open_connections{0};
  std::atomic<std::uint64_t> frames_in{0};
  std::atomic<std::uint64_t> frames_out{0};
  std::atomic<std::uint64_t> socket_writes{0};  // WebSocket writes handed to the socket (frames gathered per step)
  std::atomic<std::uint64_t> http_requests{0};
  std::atomic<std::uint64_t> connections_refused{0};   // over the per-address limit
  std::atomic<std::uint64_t> slow_clients_dropped{0};  // over the unsent-bytes limit
  std::atomic<std::uint64_t> accept_errors{0};         // e.g. out of file descriptors
};

struct Front {
  unsigned short port = 0;                   // the bound port (useful with --port 0)
  std::function<void()> reload_certificate;  // reads --tls-cert/--tls-key again; empty without TLS
  // The drain (server/net/drain.h): from stop_taking() on, no new players and
  // /readyz 503; say_goodbye() closes every WebSocket with 1012 after its
  // queued frames and returns how many.
  std::function<void()> stop_taking;
  std::function<std::size_t()> say_goodbye;
};

// Starts accepting. Throws when the TLS certificate or key cannot be read.
// `reader` answers /readyz's look at the store.
Front listen(boost::asio::io_context& io, const Config& config, Lobby& lobby, Writer& writer, Reader& reader,
             Metrics& metrics);

}  // namespace parlour::server
