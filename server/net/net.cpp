#include "server/net/net.h"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <cctype>
#include <charconv>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <spdlog/spdlog.h>
#include <unordered_map>

#include "server/net/api.h"
#include "server/net/connection.h"

namespace parlour::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

namespace {

// HTTP limits: a request line or header block beyond these is answered with
// 414 or 431, a body beyond its limit with 413, and the connection closed.
constexpr std::size_t max_target_bytes = 4096;
constexpr std::size_t max_header_bytes = 16 * 1024;
constexpr std::size_t max_body_bytes = 16 * 1024;
constexpr auto http_read_timeout = std::chrono::seconds(30);

// Open connections per peer address, and the bytes their WebSockets have
// queued unsent: what one address can pin. A slot is held for the life of a
// session and handed from the HTTP session to the WebSocket session it upgrades to.
class AddressCounter : public std::enable_shared_from_this<AddressCounter> {
 public:
  AddressCounter(int limit, std::size_t max_queued_bytes) : limit_(limit), max_queued_bytes_(max_queued_bytes) {}

  class Slot {
   public:
    Slot() = default;
    Slot(std::shared_ptr<AddressCounter> owner, std::string address)
        : owner_(std::move(owner)), address_(std::move(address)) {}
    Slot(Slot&& other) noexcept
        : owner_(std::move(other.owner_)), address_(std::move(other.address_)), queued_(std::exchange(other.queued_, 0)) {}
    Slot& operator=(Slot&&) = delete;
    ~Slot() {
      if (owner_) owner_->release(address_, queued_);
    }
    const std::string& address() const { return address_; }
    // Counts `bytes` more queued for this address, unless that would take the
    // address past its limit: then nothing is counted and false returned.
    bool queue(std::size_t bytes) {
      if (!owner_->queue(address_, bytes)) return false;
      queued_ += bytes;
      return true;
    }
    void unqueue(std::size_t bytes) {
      bytes = std::min(bytes, queued_);
      owner_->unqueue(address_, bytes);
      queued_ -= bytes;
    }
    std::size_t address_queued() const { return owner_->queued(address_); }

   private:
    std::shared_ptr<AddressCounter> owner_;
    std::string address_;
    std::size_t queued_ = 0;  // this session's share of its address's queued bytes
  };

  std::optional<Slot> take(const std::string& address) {
    std::lock_guard lock(mutex_);
    auto& use = use_[address];
    if (use.open >= limit_) return std::nullopt;
    ++use.open;
    return Slot(shared_from_this(), address);
  }

  std::size_t max_queued_bytes() const { return max_queued_bytes_; }
  // Every address's queued bytes together (for /metrics).
  std::size_t total_queued() const { return total_queued_; }

 private:
  struct Use {
    int open = 0;
    std::size_t queued = 0;
  };

  void release(const std::string& address, std::size_t queued) {
    std::lock_guard lock(mutex_);
    auto it = use_.find(address);
    if (it == use_.end()) return;
    it->second.queued -= std::min(queued, it->second.queued);
    total_queued_ -= queued;
    if (--it->second.open <= 0) use_.erase(it);
  }
  bool queue(const std::string& address, std::size_t bytes) {
    std::lock_guard lock(mutex_);
    auto& use = use_[address];
    if (use.queued + bytes > max_queued_bytes_) return false;
    use.queued += bytes;
    total_queued_ += bytes;
    return true;
  }
  void unqueue(const std::string& address, std::size_t bytes) {
    std::lock_guard lock(mutex_);
    auto it = use_.find(address);
    if (it == use_.end()) return;
    it->second.queued -= std::min(bytes, it->second.queued);
    total_queued_ -= bytes;
  }
  std::size_t queued(const std::string& address) const {
    std::lock_guard lock(mutex_);
    auto it = use_.find(address);
    return it == use_.end() ? 0 : it->second.queued;
  }

  const int limit_;
  const std::size_t max_queued_bytes_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Use> use_;
  std::atomic<std::size_t> total_queued_{0};
};

struct Context {
  const Config& config;
  Lobby& lobby;
  Writer& writer;
  Metrics& metrics;
  std::shared_ptr<AddressCounter> addresses;
};

// ------------------------------------------------------------------ WebSocket

class WebSocketSession : public Client, public std::enable_shared_from_this<WebSocketSession> {
 public:
  WebSocketSession(tcp::socket&& socket, Context context, AddressCounter::Slot slot)
      : ws_(std::move(socket)),
        context_(context),
        slot_(std::move(slot)),
        id_(next_client_id()),
        connection_(context.lobby, context.config, slot_.address()) {}

  ~WebSocketSession() override { --context_.metrics.open_connections; }

  void run(http::request<http::string_body> request) {
    ++context_.metrics.connections;
    ++context_.metrics.open_connections;
    websocket::stream_base::timeout timeouts{};
    timeouts.handshake_timeout = std::chrono::seconds(30);
    timeouts.idle_timeout = std::chrono::seconds(context_.config.idle_timeout_s);
    // Pings at half the idle timeout: a live browser answers them, a dead peer doesn't.
    timeouts.keep_alive_pings = true;
    ws_.set_option(timeouts);
    ws_.read_message_max(protocol::max_frame_bytes);
    ws_.set_option(websocket::stream_base::decorator(
        [](websocket::response_type& res) { res.set(http::field::server, "parlour"); }));
    ws_.async_accept(request, beast::bind_front_handler(&WebSocketSession::on_accept, shared_from_this()));
  }

  ClientId id() const override { return id_; }

  void send(std::shared_ptr<const std::string> frame) override {
    asio::dispatch(ws_.get_executor(), [self = shared_from_this(), frame = std::move(frame)]() mutable {
      self->queue(std::move(frame));
    });
  }

  std::string player() const override { return connection_.player(); }

  void close_for_move() override { close_after_queue({websocket::close_code::service_restart, "table moved"}); }
  void close_revoked() override { close_after_queue({websocket::close_code::policy_error, "signed out"}); }

 private:
  void close_after_queue(websocket::close_reason reason) {
    asio::dispatch(ws_.get_executor(), [self = shared_from_this(), reason] {
      if (self->closed_ || self->closing_) return;
      self->closing_ = true;
      self->close_reason_ = reason;
      if (self->queue_.empty()) self->close_queued();
    });
  }

  // After the frames already queued (the notice) are written.
  void close_queued() {
    ws_.async_close(close_reason_, [self = shared_from_this()](beast::error_code) { self->closed(); });
  }

  void on_accept(beast::error_code ec) {
    if (ec) return spdlog::debug("websocket handshake failed: {}", ec.message());
    do_read();
  }

  void do_read() { ws_.async_read(buffer_, beast::bind_front_handler(&WebSocketSession::on_read, shared_from_this())); }

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
    if (!ws_.got_text()) {
      spdlog::info("closing a connection of {}: binary frame", describe());
      ws_.async_close(websocket::close_code::unknown_data,
                      [self = shared_from_this()](beast::error_code) { self->closed(); });
      return;
    }
    const auto data = buffer_.cdata();
    std::string_view text(static_cast<const char*>(data.data()), data.size());
    try {
      connection_.on_text(shared_from_this(), text);
    } catch (const std::exception& e) {
      spdlog::error("a frame from {} could not be handled: {}", describe(), e.what());
    }
    buffer_.consume(buffer_.size());
    do_read();
  }

  // The unsent frames go at once (and their bytes from the address's count),
  // but the one being written, whose buffer the write still holds.
  void closed() {
    if (closed_) return;
    closed_ = true;
    if (queue_.size() > 1) queue_.erase(std::next(queue_.begin()), queue_.end());
    queue_.shrink_to_fit();
    slot_.unqueue(queued_bytes_);
    queued_bytes_ = 0;
    connection_.on_close(shared_from_this());
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
    if (queue_.size() == 1) do_write();
  }

  void do_write() {
    ws_.text(true);
    ws_.async_write(asio::buffer(*queue_.front()),
                    beast::bind_front_handler(&WebSocketSession::on_write, shared_from_this()));
  }

  void on_write(beast::error_code ec, std::size_t) {
    if (ec || queue_.empty() || closed_) return closed();
    ++context_.metrics.frames_out;
    queued_bytes_ -= queue_.front()->size();
    slot_.unqueue(queue_.front()->size());
    queue_.pop_front();
    if (!queue_.empty()) do_write();
    else if (closing_) close_queued();
  }

  std::string describe() const {
    auto name = connection_.player();
    return (name.empty() ? std::string("an unnamed client") : name) + " (" + slot_.address() + ")";
  }

  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
  Context context_;
  AddressCounter::Slot slot_;
  const ClientId id_;
  Connection connection_;
  std::deque<std::shared_ptr<const std::string>> queue_;
  std::size_t queued_bytes_ = 0;
  bool closed_ = false;
  bool closing_ = false;  // close_after_queue: closes once the queue is written
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

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(tcp::socket&& socket, Context context, AddressCounter::Slot slot)
      : stream_(std::move(socket)), context_(context), slot_(std::move(slot)) {}

  void run() { asio::dispatch(stream_.get_executor(), beast::bind_front_handler(&HttpSession::do_read, shared_from_this())); }

 private:
  using Request = http::request<http::string_body>;
  using Response = http::response<http::string_body>;

  void do_read() {
    parser_.emplace();
    parser_->header_limit(max_header_bytes);
    parser_->body_limit(max_body_bytes);
    stream_.expires_after(http_read_timeout);
    http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
  }

  void on_read(beast::error_code ec, std::size_t) {
    if (ec == http::error::end_of_stream) return close();
    if (ec == http::error::header_limit) return refuse(http::status::request_header_fields_too_large, "headers too large\n");
    if (ec == http::error::body_limit) return refuse(http::status::payload_too_large, "request body too large\n");
    if (ec) return;
    ++context_.metrics.http_requests;
    Request request = parser_->release();
    if (request.target().size() > max_target_bytes) return refuse(http::status::uri_too_long, "URI too long\n");
    if (websocket::is_upgrade(request)) {
      const auto target = std::string(request.target());
      if (target != "/ws" && target.rfind("/ws?", 0) != 0)
        return respond(error(request, http::status::not_found, "WebSocket is at /ws\n"));
      stream_.expires_never();
      std::make_shared<WebSocketSession>(stream_.release_socket(), context_, std::move(slot_))->run(std::move(request));
      return;
    }
    auto shared_request = std::make_shared<Request>(std::move(request));
    try {
      handle(shared_request);
    } catch (const std::exception& e) {
      spdlog::error("HTTP {} {} failed: {}", std::string(shared_request->method_string()),
                    std::string(shared_request->target()).substr(0, 200), e.what());
      respond(error(*shared_request, http::status::internal_server_error, "internal error\n"));
    }
  }

  // Answers a request that could not be read whole, and closes.
  void refuse(http::status status, std::string message) {
    Response res{status, 11};
    res.set(http::field::server, "parlour");
    res.set(http::field::content_type, "text/plain; charset=utf-8");
    res.keep_alive(false);
    res.body() = std::move(message);
    res.prepare_payload();
    respond(std::move(res));
  }

  Response text(const Request& req, http::status status, std::string body, const std::string& type) {
    Response res{status, req.version()};
    res.set(http::field::server, "parlour");
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
    if (path == "/metrics") return respond(metrics(*req));
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
    serve_api(context_.lobby, asked, [self = shared_from_this(), version, keep_alive, head](ApiResponse answer) {
      asio::post(self->stream_.get_executor(), [self, version, keep_alive, head, answer = std::move(answer)]() mutable {
        Response res{static_cast<http::status>(answer.status), version};
        res.set(http::field::server, "parlour");
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
    const auto& m = context_.metrics;
    std::string body;
    auto line = [&](const char* name, std::uint64_t value) { body += std::string(name) + " " + std::to_string(value) + "\n"; };
    line("parlour_connections_total", m.connections);
    line("parlour_connections_open", m.open_connections);
    line("parlour_connections_refused_total", m.connections_refused);
    line("parlour_slow_clients_dropped_total", m.slow_clients_dropped);
    line("parlour_accept_errors_total", m.accept_errors);
    line("parlour_frames_in_total", m.frames_in);
    line("parlour_frames_out_total", m.frames_out);
    line("parlour_http_requests_total", m.http_requests);
    const auto tables = context_.lobby.table_counts();
    line("parlour_tables", tables.open + tables.finished);
    line("parlour_tables_open", tables.open);
    line("parlour_tables_finished_in_memory", tables.finished);
    line("parlour_queued_bytes", context_.addresses->total_queued());
    line("parlour_storage_transactions_total", context_.writer.transactions());
    line("parlour_history_events_replayed_total", history_events_replayed());
    return text(req, http::status::ok, body, "text/plain; version=0.0.4");
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
                      [self = shared_from_this(), shared, keep_alive](beast::error_code ec, std::size_t) {
                        if (ec) return;
                        if (!keep_alive) return self->close();
                        self->do_read();
                      });
  }

  void close() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  Context context_;
  AddressCounter::Slot slot_;
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
    acceptor_.async_accept(asio::make_strand(io_), beast::bind_front_handler(&Listener::on_accept, shared_from_this()));
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
    const auto address = peer.address().to_string();
    auto slot = context_.addresses->take(address);
    if (!slot) {
      ++context_.metrics.connections_refused;
      spdlog::debug("refusing a connection from {}: {} already open", address, context_.config.max_connections_per_ip);
      socket.close(ignored);
      return;
    }
    // Replies and state pushes are small writes in quick succession; Nagle's
    // algorithm would hold the second until the first is acknowledged.
    socket.set_option(tcp::no_delay(true), ignored);
    std::make_shared<HttpSession>(std::move(socket), context_, std::move(*slot))->run();
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
    backoff_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& wait_error) {
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

unsigned short listen(asio::io_context& io, const Config& config, Lobby& lobby, Writer& writer, Metrics& metrics) {
  auto addresses = std::make_shared<AddressCounter>(config.max_connections_per_ip, config.max_queued_bytes_per_ip);
  tcp::endpoint endpoint{asio::ip::make_address(config.bind), config.port};
  auto listener = std::make_shared<Listener>(io, endpoint, Context{config, lobby, writer, metrics, addresses});
  listener->run();
  return listener->port();
}

}  // namespace parlour::server
