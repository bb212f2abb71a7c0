#include "server/net/net.h"

#include "server/net/sessions.h"

namespace parlour::server {

namespace {

using namespace net_sessions;

// On the TLS port: the first bytes say whether the client speaks TLS (a
// browser sent to http:// is answered, with a redirect, instead of garbage).
class DetectSession : public std::enable_shared_from_this<DetectSession> {
 public:
  DetectSession(tcp::socket&& socket, Context context, IpAddress peer, std::optional<AddressCounter::Slot> slot)
      : stream_(std::move(socket)), context_(context), peer_(peer), slot_(std::move(slot)) {}

  void run() {
    stream_.expires_after(http_read_timeout);
    beast::async_detect_ssl(stream_, buffer_, beast::bind_front_handler(&DetectSession::on_detect, shared_from_this()));
  }

 private:
  void on_detect(beast::error_code ec, bool tls) {
    if (ec) return;
    if (tls)
      start_tls_session(std::move(stream_), context_.tls->current(), std::move(buffer_), context_, peer_,
                        std::move(slot_));
    else
      std::make_shared<HttpSession<PlainStream>>(std::move(stream_), nullptr, std::move(buffer_), context_, peer_,
                                                 std::move(slot_))
          ->run();
  }

  PlainStream stream_;
  beast::flat_buffer buffer_;
  Context context_;
  const IpAddress peer_;
  std::optional<AddressCounter::Slot> slot_;
};

// ------------------------------------------------------------------ Listener

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(asio::io_context& io, tcp::endpoint endpoint, Context context)
      : io_(io), acceptor_(asio::make_strand(io)), backoff_timer_(acceptor_.get_executor()), context_(context) {
    acceptor_.open(endpoint.protocol());
    acceptor_.set_option(asio::socket_base::reuse_address(true));
    acceptor_.bind(endpoint);
    acceptor_.listen(asio::socket_base::max_listen_connections);
  }

  unsigned short port() const { return acceptor_.local_endpoint().port(); }
  void run() { do_accept(); }

 private:
  void do_accept() {
    acceptor_.async_accept(serial_executor(io_), beast::bind_front_handler(&Listener::on_accept, this->shared_from_this()));
  }

  void on_accept(beast::error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted) return;
    if (ec) return back_off(ec);
    backoff_ = std::chrono::milliseconds(0);
    try {
      accepted(std::move(socket));
    } catch (const std::exception& e) {
      spdlog::error("a new connection could not be set up: {}", e.what());
    }
    do_accept();
  }

  void accepted(tcp::socket socket) {
    beast::error_code ignored;
    const auto peer = socket.remote_endpoint(ignored);
    if (ignored) return;
    const auto client = peer_address(peer.address());
    // A trusted proxy's connection is counted against the client each of its
    // requests names (HttpSession::admit), not against the proxy.
    std::optional<AddressCounter::Slot> slot;
    if (!context_.trusted->contains(client.address)) {
      if (auto taken = context_.addresses->take(client)) slot.emplace(std::move(*taken));
      if (!slot) {
        ++context_.metrics.connections_refused;
        spdlog::debug("refusing a connection from {}: {} already open", client.text(),
                      context_.config.max_connections_per_ip);
        socket.close(ignored);
        return;
      }
    }
    // Replies and state pushes are small writes in quick succession; Nagle's
    // algorithm would hold the second until the first is acknowledged.
    socket.set_option(tcp::no_delay(true), ignored);
    if (context_.tls)
      std::make_shared<DetectSession>(std::move(socket), context_, client.address, std::move(slot))->run();
    else
      std::make_shared<HttpSession<PlainStream>>(PlainStream(std::move(socket)), nullptr, beast::flat_buffer(), context_,
                                                 client.address, std::move(slot))
          ->run();
  }

  // Out of descriptors (or memory), accepting again at once would spin: wait,
  // longer each time, and say so in the log (once a while, not per attempt).
  void back_off(const beast::error_code& ec) {
    ++context_.metrics.accept_errors;
    backoff_ = std::min<std::chrono::milliseconds>(std::max(backoff_ * 2, std::chrono::milliseconds(10)),
                                                  std::chrono::milliseconds(1000));
    const auto now = std::chrono::steady_clock::now();
    if (now - last_warning_ > std::chrono::seconds(10)) {
      last_warning_ = now;
      spdlog::warn("cannot accept connections: {}; retrying in {} ms", ec.message(), backoff_.count());
    }
    backoff_timer_.expires_after(backoff_);
    backoff_timer_.async_wait([self = this->shared_from_this()](const boost::system::error_code& wait_error) {
      if (!wait_error) self->do_accept();
    });
  }

  asio::io_context& io_;
  tcp::acceptor acceptor_;
  asio::steady_timer backoff_timer_;
  Context context_;
  std::chrono::milliseconds backoff_{0};
  std::chrono::steady_clock::time_point last_warning_{};
};

}  // namespace

Front listen(asio::io_context& io, const Config& config, Lobby& lobby, Writer& writer, Reader& reader,
             Metrics& metrics) {
  auto addresses = std::make_shared<AddressCounter>(config.max_connections_per_ip, config.max_queued_bytes_per_ip);
  tcp::endpoint endpoint{asio::ip::make_address(config.bind), config.port};
  auto trusted = std::make_shared<const TrustedProxies>(config.trusted_proxies);
  std::shared_ptr<TlsCertificate> tls;
  if (config.tls()) tls = std::make_shared<TlsCertificate>(config.tls_cert, config.tls_key);
  auto sockets = std::make_shared<LiveSockets>();
  auto listener = std::make_shared<Listener>(
      io, endpoint, Context{config, lobby, writer, std::make_shared<Readiness>(reader), metrics, sockets, addresses, trusted, tls});
  listener->run();
  Front front{listener->port(), {}, [sockets] { sockets->stop_taking(); }, [sockets] { return sockets->say_goodbye(); }};
  if (tls) front.reload_certificate = [tls] { tls->reload(); };
  return front;
}

}  // namespace parlour::server
