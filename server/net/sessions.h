// The network front's sessions, shared by the two translation units that make
// them: net.cpp (the listener, and the sessions over plain TCP) and
// net_tls.cpp (the sessions over TLS). Each instantiates its own stream's
// sessions, so Beast's heaviest templates are compiled half in each, side by
// side on two cores, rather than all in one file. Included by those two alone.
#pragma once

#include <utility>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <cctype>
#include <charconv>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <spdlog/spdlog.h>
#include <unordered_map>

#include "server/net/api.h"
#include "server/net/address_counter.h"
#include "server/net/client_address.h"
#include "server/net/connection.h"
#include "server/net/live_sockets.h"
#include "server/net/metrics.h"
#include "server/net/serial_write_stream.h"
#include "server/net/tls_certificate.h"
#include "server/common/metrics.h"
#include "server/common/serial_executor.h"

namespace parlour::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
namespace ssl = asio::ssl;

namespace net_sessions {

// A connection is one of two streams: plain, or TLS over it (--tls-cert).
using PlainStream = beast::tcp_stream;
using TlsStream = beast::ssl_stream<beast::tcp_stream>;
template <typename Stream>
inline constexpr bool is_tls = std::is_same_v<Stream, TlsStream>;

// HTTP limits: a request line or header block beyond these is answered with
// 414 or 431, a body beyond its limit with 413, and the connection closed.
inline constexpr std::size_t max_target_bytes = 4096;
inline constexpr std::size_t max_header_bytes = 16 * 1024;
inline constexpr std::size_t max_body_bytes = 16 * 1024;
inline constexpr auto http_read_timeout = std::chrono::seconds(30);

struct Context {
  const Config& config;
  Lobby& lobby;
  Writer& writer;
  std::shared_ptr<Readiness> readiness;
  Metrics& metrics;
  std::shared_ptr<LiveSockets> sockets;
  std::shared_ptr<AddressCounter> addresses;
  std::shared_ptr<const TrustedProxies> trusted;
  std::shared_ptr<TlsCertificate> tls;  // null without --tls-cert
};

// The sessions are private to each file that includes this one, as when they
// were all in net.cpp: each file instantiates its own stream's, and the
// compiler may inline them as a file's own.
namespace {

// ------------------------------------------------------------------ WebSocket

template <typename Stream>
class WebSocketSession : public Client,
                         public Restartable,
                         public std::enable_shared_from_this<WebSocketSession<Stream>> {
 public:
  // `tls` is the context the stream's TLS session came from, kept while it lives.
  WebSocketSession(Stream&& stream, std::shared_ptr<ssl::context> tls, Context context, AddressCounter::Slot slot)
      : ws_(std::move(stream)),
        tls_(std::move(tls)),
        context_(context),
        slot_(std::move(slot)),
        id_(next_client_id()),
        connection_(context.lobby, context.config, slot_.address()) {
    ws_.next_layer().count_writes_in(&context_.metrics.socket_writes);
  }

  ~WebSocketSession() override {
    context_.sockets->remove(this);
    --context_.metrics.open_connections;
  }

  void run(http::request<http::string_body> request) {
    ++context_.metrics.connections;
    ++context_.metrics.open_connections;
    context_.sockets->add(this, this->weak_from_this());
    websocket::stream_base::timeout timeouts{};
    timeouts.handshake_timeout = std::chrono::seconds(30);
    timeouts.idle_timeout = std::chrono::seconds(context_.config.idle_timeout_s);
    // Pings at half the idle timeout: a live browser answers them, a dead peer doesn't.
    timeouts.keep_alive_pings = true;
    ws_.set_option(timeouts);
    ws_.read_message_max(protocol::max_frame_bytes);
    ws_.set_option(websocket::stream_base::decorator(
        [](websocket::response_type& res) { res.set(http::field::server, "parlour"); }));
    ws_.next_layer().set_owner(this->weak_from_this());
    ws_.async_accept(request, beast::bind_front_handler(&WebSocketSession::on_accept, this->shared_from_this()));
  }

  ClientId id() const override { return id_; }

  void send(std::shared_ptr<const std::string> frame) override {
    metrics::note_frame_out(*frame);
    asio::dispatch(ws_.get_executor(), [self = this->shared_from_this(), frame = std::move(frame)]() mutable {
      self->queue(std::move(frame));
    });
  }

  void send_all(std::vector<std::shared_ptr<const std::string>> frames) override {
    for (const auto& frame : frames) metrics::note_frame_out(*frame);
    asio::dispatch(ws_.get_executor(), [self = this->shared_from_this(), frames = std::move(frames)]() mutable {
      for (auto& frame : frames) self->queue(std::move(frame));
    });
  }

  std::string player() const override { return connection_.player(); }
  protocol::Features features() const override { return connection_.features(); }

  void close_for_move() override { close_after_queue({websocket::close_code::service_restart, "table moved"}); }
  void close_revoked() override { close_after_queue({websocket::close_code::policy_error, "signed out"}); }
  // The drain: the client reconnects (web-client/js/connection.js reconnects on any close).
  void close_for_restart() override {
    close_after_queue({websocket::close_code::service_restart, "server restarting"}, drain_close_timeout);
  }

 private:
  // `answer_within`: how long the client has to answer the close (else the handshake's 30 s).
  void close_after_queue(websocket::close_reason reason,
                         std::optional<std::chrono::seconds> answer_within = std::nullopt) {
    asio::dispatch(ws_.get_executor(), [self = this->shared_from_this(), reason, answer_within] {
      if (self->closed_ || self->closing_) return;
      self->closing_ = true;
      self->close_reason_ = reason;
      if (answer_within) {
        websocket::stream_base::timeout timeouts{};
        self->ws_.get_option(timeouts);
        timeouts.handshake_timeout = *answer_within;
        self->ws_.set_option(timeouts);
      }
      // Before the handshake has ended, on_accept closes.
      if (self->accepted_ && self->queue_.empty()) self->close_queued();
    });
  }

  // After the frames already queued (the notice) are written.
  void close_queued() {
    ws_.async_close(close_reason_, [self = this->shared_from_this()](beast::error_code) { self->closed(); });
  }

  void on_accept(beast::error_code ec) {
    if (ec) return spdlog::debug("websocket handshake failed: {}", ec.message());
    accepted_ = true;
    do_read();
    write_queued();
    // Told to close during the handshake, or upgraded just as the drain began.
    if (context_.sockets->draining() && !closing_) return close_for_restart();
    if (closing_ && queue_.empty()) close_queued();
  }

  void do_read() { ws_.async_read(buffer_, beast::bind_front_handler(&WebSocketSession::on_read, this->shared_from_this())); }

  void on_read(beast::error_code ec, std::size_t) {
    if (ec) {
      if (ec == websocket::error::message_too_big)
        spdlog::info("closing a connection of {}: frame over 64 KiB", describe());
      else if (ec == beast::error::timeout)
        spdlog::info("closing a connection of {}: silent for {} s", describe(), context_.config.idle_timeout_s);
      else if (ec != websocket::error::closed)
        spdlog::debug("connection of {} ends: {}", describe(), ec.message());
      return closed();
    }
    ++context_.metrics.frames_in;
    if (context_.sockets->draining()) {
      // Told to reconnect: nothing new starts here (the client asks again on the next server).
      buffer_.consume(buffer_.size());
      return do_read();
    }
    if (!ws_.got_text()) {
      spdlog::info("closing a connection of {}: binary frame", describe());
      ws_.async_close(websocket::close_code::unknown_data,
                      [self = this->shared_from_this()](beast::error_code) { self->closed(); });
      return;
    }
    const auto data = buffer_.cdata();
    std::string_view text(static_cast<const char*>(data.data()), data.size());
    try {
      connection_.on_text(this->shared_from_this(), text);
    } catch (const std::exception& e) {
      spdlog::error("a frame from {} could not be handled: {}", describe(), e.what());
    }
    buffer_.consume(buffer_.size());
    do_read();
  }

  // The unsent frames go at once, and their bytes from the address's count, but
  // those being written: the write still reads them.
  void closed() {
    if (closed_) return;
    closed_ = true;
    ws_.next_layer().abandon();
    queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(writing_), queue_.end());
    queue_.shrink_to_fit();
    slot_.unqueue(queued_bytes_);
    queued_bytes_ = 0;
    connection_.on_close(this->shared_from_this());
  }

  // A client that does not read its frames is dropped once they pile up past
  // the connection's byte limit, or past its address's (all its connections
  // together), before it costs the server more memory.
  void queue(std::shared_ptr<const std::string> frame) {
    if (closed_) return;
    const bool within_connection = queued_bytes_ + frame->size() <= context_.config.max_queued_bytes;
    if (!within_connection || !slot_.queue(frame->size())) {
      if (within_connection)
        spdlog::warn("dropping {}: {} bytes in {} frames unread, and its address has {} bytes unsent in all "
                     "(at most {})",
                     describe(), queued_bytes_, queue_.size(), slot_.address_queued(),
                     context_.addresses->max_queued_bytes());
      else
        spdlog::warn("dropping {}: {} bytes in {} frames unread (at most {} a connection)", describe(), queued_bytes_,
                     queue_.size(), context_.config.max_queued_bytes);
      ++context_.metrics.slow_clients_dropped;
      beast::error_code ignored;
      beast::get_lowest_layer(ws_).socket().close(ignored);
      closed();
      return;
    }
    queued_bytes_ += frame->size();
    queue_.push_back(std::move(frame));
    if (queue_.size() == 1) begin_writes();
  }

  // A table hands a client its frames of a step in one send_all (an actor's
  // `ok` and its `state`); other frames come one send at a time, some several
  // in one handler. The writes begin after the sends already posted here, and
  // every frame queued by then leaves in one write.
  void begin_writes() {
    asio::post(ws_.get_executor(), [self = this->shared_from_this()] { self->write_queued(); });
  }

  // The queue's frames, up to the stream's batch, framed here and handed to the
  // stream in one call: the bytes of one write (serial_write_stream.h says why
  // not through Beast's writes). The frames leave the queue when they are on
  // the socket.
  void write_queued() {
    if (closed_ || writing_ || queue_.empty() || !accepted_) return;
    // Beast has sent or answered a close: nothing more may follow it; the
    // close's end (or the read's) ends the connection.
    if (!ws_.is_open()) return;
    using Layer = SerialWriteStream<Stream>;
    // The batch: at least one frame, and no more than the stream's batch.
    std::size_t bytes = 0;
    std::size_t frames = 0;
    for (const auto& frame : queue_) {
      if (frames > 0 && bytes + frame->size() > Layer::kMostFramed) break;
      bytes += frame->size();
      ++frames;
    }
    if (headers_.size() < frames) headers_.resize(frames);
    pieces_.clear();
    for (std::size_t i = 0; i < frames; ++i) {
      const auto& frame = *queue_[i];
      pieces_.emplace_back(headers_[i].data(), text_frame_header(frame.size(), headers_[i]));
      pieces_.emplace_back(frame.data(), frame.size());
    }
    writing_ = frames;
    ws_.next_layer().async_write_some(BufferList(pieces_),
                                      beast::bind_front_handler(&WebSocketSession::on_written, this->shared_from_this()));
  }

  void on_written(beast::error_code ec, std::size_t) {
    const std::size_t frames = std::exchange(writing_, 0);
    if (ec || closed_) return closed();
    for (std::size_t i = 0; i < frames; ++i) {
      queued_bytes_ -= queue_.front()->size();
      slot_.unqueue(queue_.front()->size());
      queue_.pop_front();
    }
    context_.metrics.frames_out += frames;
    // A batch of many small frames (a slow reader's backlog) leaves no large lists behind.
    if (pieces_.capacity() > 128) {
      std::vector<asio::const_buffer>().swap(pieces_);
      std::vector<std::array<char, 10>>().swap(headers_);
    }
    if (!queue_.empty()) return write_queued();
    if (closing_) close_queued();
  }

  std::string describe() const {
    auto name = connection_.player();
    return (name.empty() ? std::string("an unnamed client") : name) + " (" + slot_.shown() + ")";
  }

  websocket::stream<SerialWriteStream<Stream>> ws_;
  std::shared_ptr<ssl::context> tls_;
  beast::flat_buffer buffer_;
  Context context_;
  AddressCounter::Slot slot_;
  const ClientId id_;
  Connection connection_;
  std::deque<std::shared_ptr<const std::string>> queue_;
  std::size_t queued_bytes_ = 0;
  std::size_t writing_ = 0;  // frames at the queue's front whose write is out
  std::vector<std::array<char, 10>> headers_;  // their headers, read by the write until it ends
  std::vector<asio::const_buffer> pieces_;     // each frame's header and bytes, in order, likewise
  bool closed_ = false;
  bool closing_ = false;  // close_after_queue: closes once the queue is written
  bool accepted_ = false;  // the WebSocket handshake has ended
  websocket::close_reason close_reason_;
};

// ------------------------------------------------------------------ HTTP

std::string mime_type(const std::filesystem::path& path) {
  const auto ext = path.extension().string();
  if (ext == ".html") return "text/html; charset=utf-8";
  if (ext == ".js" || ext == ".mjs") return "text/javascript; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".json") return "application/json";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".ico") return "image/x-icon";
  return "application/octet-stream";
}

// The file under `root` that `path` names, or nullopt: never a folder, never
// outside the root, never a throw.
std::optional<std::filesystem::path> file_under(const std::string& root, const std::string& path) {
  namespace fs = std::filesystem;
  if (path.find('\0') != std::string::npos) return std::nullopt;
  std::error_code ec;
  const fs::path base = fs::weakly_canonical(fs::path(root), ec);
  if (ec) return std::nullopt;
  const fs::path wanted = fs::weakly_canonical(base / fs::path(path).relative_path(), ec);
  if (ec) return std::nullopt;
  const auto [root_end, wanted_at] = std::mismatch(base.begin(), base.end(), wanted.begin(), wanted.end());
  if (root_end != base.end()) return std::nullopt;
  if (!fs::is_regular_file(wanted, ec) || ec) return std::nullopt;
  return wanted;
}

// Every HTTP response: the headers a public site sends (README "Hosting for
// friends on the internet"), HSTS when over TLS. The client is files of its own, no inline script
// or style, talking to its own origin (CSP 'self' covers ws: and wss: there).
template <typename Response>
void secure(Response& res, bool tls) {
  if (tls) res.set("Strict-Transport-Security", "max-age=31536000");
  res.set("Content-Security-Policy",
          "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
          "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'");
  res.set("X-Content-Type-Options", "nosniff");
  res.set("Referrer-Policy", "no-referrer");
}

// A target as the logs show it: the path, never the query (whatever a client
// put there, a token included, stays out of the logs), at most 200 bytes.
std::string path_of(std::string_view target) { return std::string(target.substr(0, std::min<std::size_t>(target.find('?'), 200))); }

// A header's every line joined by commas (a proxy may add a line of its own).
template <typename Request>
std::string joined(const Request& req, std::string_view name) {
  std::string all;
  for (auto [it, end] = req.equal_range(beast::string_view(name.data(), name.size())); it != end; ++it) {
    if (!all.empty()) all += ", ";
    all += std::string(it->value());
  }
  return all;
}

// A session from a client, or from a trusted proxy speaking for its clients:
// then the client, and so the slot of its limits, is learnt from each
// request's headers, and /healthz (the proxy's own checks) takes no slot.
//
// On a TLS port (--tls-cert) a session is TLS, or a plain one that sends every
// request but /healthz to https. `buffer` holds the bytes read to tell which.
template <typename Stream>
class HttpSession : public std::enable_shared_from_this<HttpSession<Stream>> {
 public:
  HttpSession(PlainStream&& stream, std::shared_ptr<ssl::context> tls, beast::flat_buffer buffer, Context context,
              IpAddress peer, std::optional<AddressCounter::Slot> slot)
      : stream_(wrap(std::move(stream), tls.get())),
        tls_(std::move(tls)),
        buffer_(std::move(buffer)),
        context_(context),
        peer_(peer),
        slot_(std::move(slot)) {}

  void run() {
    if constexpr (is_tls<Stream>) {
      beast::get_lowest_layer(stream_).expires_after(http_read_timeout);
      stream_.async_handshake(ssl::stream_base::server, buffer_.data(),
                              [self = this->shared_from_this()](beast::error_code ec, std::size_t used) {
                                if (ec) return spdlog::debug("TLS handshake of {} failed: {}", self->client_shown(), ec.message());
                                self->buffer_.consume(used);
                                self->do_read();
                              });
    } else {
      asio::dispatch(stream_.get_executor(), beast::bind_front_handler(&HttpSession::do_read, this->shared_from_this()));
    }
  }

 private:
  using Request = http::request<http::string_body>;
  using Response = http::response<http::string_body>;

  void do_read() {
    parser_.emplace();
    parser_->header_limit(max_header_bytes);
    parser_->body_limit(max_body_bytes);
    beast::get_lowest_layer(stream_).expires_after(http_read_timeout);
    http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&HttpSession::on_read, this->shared_from_this()));
  }

  void on_read(beast::error_code ec, std::size_t) {
    if (ec == http::error::end_of_stream) return close();
    if (ec == http::error::header_limit) return refuse(http::status::request_header_fields_too_large, "headers too large\n");
    if (ec == http::error::body_limit) return refuse(http::status::payload_too_large, "request body too large\n");
    if (ec) return;
    ++context_.metrics.http_requests;
    Request request = parser_->release();
    if (request.target().size() > max_target_bytes) return refuse(http::status::uri_too_long, "URI too long\n");
    if constexpr (!is_tls<Stream>)
      if (context_.tls && !is_health_check(request)) return respond(to_https(request));
    if (!admit(request)) return;
    if (websocket::is_upgrade(request)) {
      if (context_.sockets->draining()) return respond(restarting(request));
      const auto target = std::string(request.target());
      if (target != "/ws" && target.rfind("/ws?", 0) != 0)
        return respond(error(request, http::status::not_found, "WebSocket is at /ws\n"));
      beast::get_lowest_layer(stream_).expires_never();
      std::make_shared<WebSocketSession<Stream>>(std::move(stream_), tls_, context_, std::move(*slot_))
          ->run(std::move(request));
      return;
    }
    auto shared_request = std::make_shared<Request>(std::move(request));
    try {
      handle(shared_request);
    } catch (const std::exception& e) {
      spdlog::error("HTTP {} {} from {} failed: {}", std::string(shared_request->method_string()),
                    path_of(std::string(shared_request->target())), client_shown(), e.what());
      respond(error(*shared_request, http::status::internal_server_error, "internal error\n"));
    }
  }

  // Whether the request may be served: a proxied request takes the slot of the
  // client its headers name (the session's slot, if it already holds that
  // client's); a health check needs none. Refused with 429 and a close.
  bool admit(const Request& request) {
    if (!proxied()) return true;
    if (is_health_check(request)) return true;
    const auto client = client_address(peer_, *context_.trusted, joined(request, "Forwarded"),
                                       joined(request, "X-Forwarded-For"));
    if (slot_ && slot_->address() == client.key) return true;
    slot_.reset();
    if (auto taken = context_.addresses->take(client)) {
      slot_.emplace(std::move(*taken));
      return true;
    }
    ++context_.metrics.connections_refused;
    spdlog::debug("refusing a request from {} through {}: {} connections already open", client.text(),
                  peer_.to_string(), context_.addresses->limit());
    refuse(http::status::too_many_requests, "too many connections from " + client.text() + " (at most " +
                                                std::to_string(context_.addresses->limit()) + ")\n");
    return false;
  }
  bool proxied() const { return !context_.trusted->empty() && context_.trusted->contains(peer_); }
  static bool is_health_check(const Request& request) {
    const auto target = request.target();
    const auto path = target.substr(0, target.find('?'));
    return (path == "/healthz" || path == "/readyz") && !websocket::is_upgrade(request);
  }
  std::string client_shown() const { return slot_ ? slot_->shown() : peer_.to_string(); }

  // Answers a request that could not be read whole, and closes.
  void refuse(http::status status, std::string message) {
    Response res{status, 11};
    res.set(http::field::server, "parlour");
    secure(res, is_tls<Stream>);
    res.set(http::field::content_type, "text/plain; charset=utf-8");
    res.keep_alive(false);
    res.body() = std::move(message);
    res.prepare_payload();
    respond(std::move(res));
  }

  Response text(const Request& req, http::status status, std::string body, const std::string& type) {
    Response res{status, req.version()};
    res.set(http::field::server, "parlour");
    secure(res, is_tls<Stream>);
    res.set(http::field::content_type, type);
    res.keep_alive(req.keep_alive());
    res.body() = std::move(body);
    res.prepare_payload();
    if (req.method() == http::verb::head) res.body().clear();
    return res;
  }
  Response error(const Request& req, http::status status, std::string message) {
    return text(req, status, std::move(message), "text/plain; charset=utf-8");
  }
  Response json(const Request& req, http::status status, const Json& body) {
    return text(req, status, body.dump(-1, ' ', false, Json::error_handler_t::replace), "application/json");
  }

  void handle(const std::shared_ptr<Request>& req) {
    const std::string target(req->target());
    const auto question = target.find('?');
    const std::string path = target.substr(0, question);
    const std::string query = question == std::string::npos ? "" : target.substr(question + 1);
    if (req->method() != http::verb::get && req->method() != http::verb::head)
      return respond(error(*req, http::status::method_not_allowed, "only GET is served here\n"));
    if (path == "/healthz") return respond(error(*req, http::status::ok, "ok"));
    if (path == "/readyz") return ready(req);
    if (path == "/metrics") return respond(metrics(*req));
    if (context_.sockets->draining()) return respond(restarting(*req));
    if (path.rfind("/api/", 0) == 0) return api(*req, path, query);
    respond(file(*req, url_decode(path)));
  }

  // The API's routes (server/net/api.h) answer later, from the lobby's threads:
  // the answer comes back to this session's strand.
  void api(const Request& req, const std::string& path, const std::string& query) {
    const auto version = req.version();
    const bool keep_alive = req.keep_alive();
    const bool head = req.method() == http::verb::head;
    ApiRequest asked{path, query, std::string(req[http::field::authorization])};
    serve_api(context_.lobby, asked, [self = this->shared_from_this(), version, keep_alive, head](ApiResponse answer) {
      asio::post(self->stream_.get_executor(), [self, version, keep_alive, head, answer = std::move(answer)]() mutable {
        Response res{static_cast<http::status>(answer.status), version};
        res.set(http::field::server, "parlour");
        secure(res, is_tls<Stream>);
        res.set(http::field::content_type, answer.content_type);
        if (!answer.attachment.empty())
          res.set(http::field::content_disposition, "attachment; filename=\"" + answer.attachment + "\"");
        res.keep_alive(keep_alive);
        res.body() = std::move(answer.body);
        res.prepare_payload();
        if (head) res.body().clear();
        self->respond(std::move(res));
      });
    });
  }

  Response metrics(const Request& req) {
    const auto body = metrics_page({context_.metrics, context_.lobby, context_.writer, context_.addresses->total_queued()});
    return text(req, http::status::ok, body, "text/plain; version=0.0.4; charset=utf-8");
  }

  // 200 "ready", or 503 and the one-line reason (docs/metrics.md "/readyz").
  void ready(const std::shared_ptr<Request>& req) {
    if (context_.sockets->draining()) return respond(error(*req, http::status::service_unavailable, "draining\n"));
    context_.readiness->check(stream_.get_executor(),
                    [self = this->shared_from_this(), req](bool ready, std::string reason) {
                      std::replace(reason.begin(), reason.end(), '\n', ' ');
                      self->respond(self->error(*req, ready ? http::status::ok : http::status::service_unavailable,
                                                ready ? "ready\n" : reason + "\n"));
                    });
  }

  // While draining: nothing new is served here; the client tries again shortly.
  Response restarting(const Request& req) {
    auto res = error(req, http::status::service_unavailable, "the server is restarting; try again in a moment\n");
    res.set(http::field::retry_after, "5");
    return res;
  }

  Response file(const Request& req, std::string path) {
    if (path.empty() || path == "/") path = "/index.html";
    const auto found = file_under(context_.config.web_root, path);
    if (!found) return error(req, http::status::not_found, "not found\n");
    std::ifstream in(*found, std::ios::binary);
    if (!in) return error(req, http::status::not_found, "not found\n");
    std::string body((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto res = text(req, http::status::ok, std::move(body), mime_type(*found));
    res.set(http::field::cache_control, "no-cache");
    return res;
  }

  void respond(Response res) {
    const bool keep_alive = res.keep_alive();
    auto shared = std::make_shared<Response>(std::move(res));
    http::async_write(stream_, *shared,
                      [self = this->shared_from_this(), shared, keep_alive](beast::error_code ec, std::size_t) {
                        if (ec) return;
                        // A proxy's connection kept open between requests may
                        // carry another client's next: nobody's slot is held idle.
                        if (self->proxied()) self->slot_.reset();
                        if (!keep_alive) return self->close();
                        self->do_read();
                      });
  }

  // A plain request on the TLS port: the same address over https.
  Response to_https(const Request& req) {
    const std::string host = context_.config.public_url.empty() ? "https://" + std::string(req[http::field::host])
                                                                : context_.config.public_url;
    auto res = error(req, http::status::permanent_redirect, "this server speaks https\n");
    res.set(http::field::location, host + std::string(req.target()));
    return res;
  }

  void close() {
    if constexpr (is_tls<Stream>) {
      beast::get_lowest_layer(stream_).expires_after(std::chrono::seconds(5));
      stream_.async_shutdown([self = this->shared_from_this()](beast::error_code) {});
    } else {
      beast::error_code ec;
      stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    }
  }

  static Stream wrap(PlainStream&& plain, ssl::context* tls) {
    if constexpr (is_tls<Stream>) return Stream(std::move(plain), *tls);
    else return std::move(plain);
  }

  Stream stream_;
  std::shared_ptr<ssl::context> tls_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  Context context_;
  const IpAddress peer_;
  std::optional<AddressCounter::Slot> slot_;  // none yet for a proxy's session
};

}  // namespace

// An HTTP session over TLS on a connection whose first bytes were a TLS
// handshake (net_tls.cpp, where the TLS sessions are compiled).
void start_tls_session(PlainStream&& stream, std::shared_ptr<ssl::context> tls, beast::flat_buffer buffer,
                       Context context, IpAddress peer, std::optional<AddressCounter::Slot> slot);

}  // namespace net_sessions

}  // namespace parlour::server
