#include "server/net.h"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <cctype>
#include <deque>
#include <map>
#include <filesystem>
#include <fstream>
#include <spdlog/spdlog.h>

#include "server/connection.h"

namespace parlour::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

namespace {

constexpr std::size_t max_queued_frames = 4096;  // a client this far behind is dropped

struct Context {
  const Config& config;
  Lobby& lobby;
  Writer& writer;
  Metrics& metrics;
};

// ------------------------------------------------------------------ WebSocket

class WebSocketSession : public Client, public std::enable_shared_from_this<WebSocketSession> {
 public:
  WebSocketSession(tcp::socket&& socket, Context context)
      : ws_(std::move(socket)), context_(context), connection_(context.lobby, context.config) {}

  ~WebSocketSession() override { --context_.metrics.open_connections; }

  void run(http::request<http::string_body> request) {
    ++context_.metrics.connections;
    ++context_.metrics.open_connections;
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.read_message_max(protocol::max_frame_bytes);
    ws_.set_option(websocket::stream_base::decorator(
        [](websocket::response_type& res) { res.set(http::field::server, "parlour"); }));
    ws_.async_accept(request, beast::bind_front_handler(&WebSocketSession::on_accept, shared_from_this()));
  }

  void send(std::shared_ptr<const std::string> frame) override {
    asio::dispatch(ws_.get_executor(), [self = shared_from_this(), frame = std::move(frame)]() mutable {
      self->queue(std::move(frame));
    });
  }

  std::string player() const override { return connection_.player(); }

 private:
  void on_accept(beast::error_code ec) {
    if (ec) return spdlog::debug("websocket handshake failed: {}", ec.message());
    do_read();
  }

  void do_read() { ws_.async_read(buffer_, beast::bind_front_handler(&WebSocketSession::on_read, shared_from_this())); }

  void on_read(beast::error_code ec, std::size_t) {
    if (ec) {
      if (ec == websocket::error::message_too_big)
        spdlog::info("closing a connection of {}: frame over 64 KiB", describe());
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
    auto self = shared_from_this();
    connection_.on_text(self, text);
    buffer_.consume(buffer_.size());
    do_read();
  }

  void closed() {
    if (closed_) return;
    closed_ = true;
    connection_.on_close(shared_from_this());
  }

  void queue(std::shared_ptr<const std::string> frame) {
    if (closed_) return;
    if (queue_.size() >= max_queued_frames) {
      spdlog::warn("dropping {}: {} frames unread", describe(), queue_.size());
      beast::get_lowest_layer(ws_).close();
      return;
    }
    queue_.push_back(std::move(frame));
    if (queue_.size() == 1) do_write();
  }

  void do_write() {
    ws_.text(true);
    ws_.async_write(asio::buffer(*queue_.front()),
                    beast::bind_front_handler(&WebSocketSession::on_write, shared_from_this()));
  }

  void on_write(beast::error_code ec, std::size_t) {
    if (ec) {
      queue_.clear();
      return closed();
    }
    ++context_.metrics.frames_out;
    queue_.pop_front();
    if (!queue_.empty()) do_write();
  }

  std::string describe() const {
    auto name = connection_.player();
    return name.empty() ? "an unnamed client" : name;
  }

  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
  Context context_;
  Connection connection_;
  std::deque<std::shared_ptr<const std::string>> queue_;
  bool closed_ = false;
};

// ------------------------------------------------------------------ HTTP

std::string mime_type(const std::string& path) {
  auto ext = std::filesystem::path(path).extension().string();
  if (ext == ".html") return "text/html; charset=utf-8";
  if (ext == ".js" || ext == ".mjs") return "text/javascript; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".json") return "application/json";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".ico") return "image/x-icon";
  return "application/octet-stream";
}

std::string url_decode(std::string_view in) {
  std::string out;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i] == '%' && i + 2 < in.size() && std::isxdigit(static_cast<unsigned char>(in[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(in[i + 2]))) {
      out.push_back(static_cast<char>(std::stoi(std::string(in.substr(i + 1, 2)), nullptr, 16)));
      i += 2;
    } else {
      out.push_back(in[i] == '+' ? ' ' : in[i]);
    }
  }
  return out;
}

std::map<std::string, std::string> query_params(std::string_view query) {
  std::map<std::string, std::string> out;
  while (!query.empty()) {
    auto amp = query.find('&');
    auto pair = query.substr(0, amp);
    auto eq = pair.find('=');
    if (eq != std::string_view::npos) out[std::string(pair.substr(0, eq))] = url_decode(pair.substr(eq + 1));
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return out;
}

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(tcp::socket&& socket, Context context) : stream_(std::move(socket)), context_(context) {}

  void run() { asio::dispatch(stream_.get_executor(), beast::bind_front_handler(&HttpSession::do_read, shared_from_this())); }

 private:
  void do_read() {
    parser_.emplace();
    parser_->body_limit(16 * 1024);
    stream_.expires_after(std::chrono::seconds(30));
    http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
  }

  void on_read(beast::error_code ec, std::size_t) {
    if (ec == http::error::end_of_stream) return close();
    if (ec) return;
    ++context_.metrics.http_requests;
    auto request = parser_->release();
    if (websocket::is_upgrade(request)) {
      if (request.target() != "/ws") return respond(error(request, http::status::not_found, "WebSocket is at /ws\n"));
      stream_.expires_never();
      std::make_shared<WebSocketSession>(stream_.release_socket(), context_)->run(std::move(request));
      return;
    }
    respond(handle(request));
  }

  using Request = http::request<http::string_body>;
  using Response = http::response<http::string_body>;

  Response text(const Request& req, http::status status, std::string body, const std::string& type) {
    Response res{status, req.version()};
    res.set(http::field::server, "parlour");
    res.set(http::field::content_type, type);
    res.keep_alive(req.keep_alive());
    res.body() = std::move(body);
    res.prepare_payload();
    return res;
  }
  Response error(const Request& req, http::status status, std::string message) {
    return text(req, status, std::move(message), "text/plain; charset=utf-8");
  }
  Response json(const Request& req, http::status status, const Json& body) {
    return text(req, status, body.dump(), "application/json");
  }

  Response handle(const Request& req) {
    const std::string target(req.target());
    const auto question = target.find('?');
    const std::string path = target.substr(0, question);
    const std::string query = question == std::string::npos ? "" : target.substr(question + 1);
    if (req.method() != http::verb::get && req.method() != http::verb::head)
      return error(req, http::status::method_not_allowed, "only GET is served here\n");
    if (path == "/healthz") return error(req, http::status::ok, "ok");
    if (path == "/metrics") return metrics(req);
    if (path.rfind("/api/", 0) == 0) return api(req, path, query);
    return file(req, path);
  }

  Response metrics(const Request& req) {
    const auto& m = context_.metrics;
    std::string body;
    auto line = [&](const char* name, std::uint64_t value) { body += std::string(name) + " " + std::to_string(value) + "\n"; };
    line("parlour_connections_total", m.connections);
    line("parlour_connections_open", m.open_connections);
    line("parlour_frames_in_total", m.frames_in);
    line("parlour_frames_out_total", m.frames_out);
    line("parlour_http_requests_total", m.http_requests);
    line("parlour_tables", context_.lobby.table_count());
    line("parlour_storage_transactions_total", context_.writer.transactions());
    return text(req, http::status::ok, body, "text/plain; version=0.0.4");
  }

  Response api(const Request& req, const std::string& path, const std::string& query) {
    const std::string auth(req[http::field::authorization]);
    const std::string_view bearer = "Bearer ";
    if (auth.size() <= bearer.size() || auth.substr(0, bearer.size()) != bearer)
      return json(req, http::status::unauthorized,
                  protocol::error_message(std::nullopt, protocol::code::unauthorized, "send Authorization: Bearer TOKEN"));
    if (!context_.lobby.player_for_bearer(auth.substr(bearer.size())))
      return json(req, http::status::unauthorized,
                  protocol::error_message(std::nullopt, protocol::code::unauthorized, "unknown token"));
    // /api/players/NAME/ledger
    const std::string prefix = "/api/players/";
    const std::string suffix = "/ledger";
    if (path.rfind(prefix, 0) != 0 || path.size() <= prefix.size() + suffix.size() ||
        path.compare(path.size() - suffix.size(), suffix.size(), suffix) != 0)
      return json(req, http::status::not_found,
                  protocol::error_message(std::nullopt, protocol::code::not_found, "no such endpoint: " + path));
    const auto name = url_decode(path.substr(prefix.size(), path.size() - prefix.size() - suffix.size()));
    auto params = query_params(query);
    int limit = 50;
    std::optional<std::int64_t> before;
    try {
      if (params.count("limit") && !params["limit"].empty()) limit = std::stoi(params["limit"]);
      if (params.count("before") && !params["before"].empty()) before = std::stoll(params["before"]);
    } catch (const std::exception&) {
      return json(req, http::status::bad_request,
                  protocol::error_message(std::nullopt, protocol::code::bad_request, "limit and before are integers"));
    }
    if (limit < 1 || limit > 500)
      return json(req, http::status::bad_request,
                  protocol::error_message(std::nullopt, protocol::code::bad_request, "limit must be 1 to 500"));
    try {
      return json(req, http::status::ok, context_.lobby.ledger(name, limit, before));
    } catch (const protocol::ProtocolError& e) {
      return json(req, http::status::not_found, protocol::error_message(std::nullopt, e.code(), e.what()));
    }
  }

  Response file(const Request& req, std::string path) {
    if (path.empty() || path == "/") path = "/index.html";
    if (path.find("..") != std::string::npos || path.find('\0') != std::string::npos)
      return error(req, http::status::bad_request, "bad path\n");
    const std::string full = context_.config.web_root + path;
    std::ifstream in(full, std::ios::binary);
    if (!in) return error(req, http::status::not_found, "not found: " + path + "\n");
    std::string body((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto res = text(req, http::status::ok, std::move(body), mime_type(full));
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
};

// ------------------------------------------------------------------ Listener

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(asio::io_context& io, tcp::endpoint endpoint, Context context)
      : io_(io), acceptor_(asio::make_strand(io)), context_(context) {
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
    if (!ec) {
      // Replies and state pushes are small writes in quick succession; Nagle's
      // algorithm would hold the second until the first is acknowledged.
      beast::error_code ignored;
      socket.set_option(tcp::no_delay(true), ignored);
      std::make_shared<HttpSession>(std::move(socket), context_)->run();
    }
    do_accept();
  }

  asio::io_context& io_;
  tcp::acceptor acceptor_;
  Context context_;
};

}  // namespace

unsigned short listen(asio::io_context& io, const Config& config, Lobby& lobby, Writer& writer, Metrics& metrics) {
  tcp::endpoint endpoint{asio::ip::make_address(config.bind), config.port};
  auto listener = std::make_shared<Listener>(io, endpoint, Context{config, lobby, writer, metrics});
  listener->run();
  return listener->port();
}

}  // namespace parlour::server
