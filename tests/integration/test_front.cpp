// The network front as a public site needs it (issue "Friends over the
// internet"): behind a trusted reverse proxy every client has its own
// per-address budget, a spoofed header from anyone else changes nothing, the
// proxy's health checks are never refused, and every response carries the
// headers of a public site. Against the real binary on loopback; the proxy is
// played by the test, writing the headers nginx writes.
#include <doctest/doctest.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http.hpp>
#include <memory>
#include <thread>
#include <vector>

#include "tests/integration/server_process.h"

using parlour::test::Json;
using parlour::test::ServerProcess;
using parlour::test::WsClient;

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

using Headers = std::vector<std::pair<std::string, std::string>>;

// The whole response (headers too) to `bytes` sent as they are.
http::response<http::string_body> exchange(unsigned short port, const std::string& bytes) {
  asio::io_context io;
  beast::tcp_stream stream(io);
  stream.expires_after(std::chrono::seconds(5));
  stream.connect(asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  asio::write(stream.socket(), asio::buffer(bytes));
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  http::read(stream, buffer, response);
  return response;
}

Headers forwarded_for(const std::string& client) { return {{"X-Forwarded-For", client}}; }

// A WebSocket as a proxy opens it for `client` ("" for one with no header).
std::unique_ptr<WsClient> socket_for(const ServerProcess& server, const std::string& client) {
  return std::make_unique<WsClient>(server.port(), 0, "/ws", client.empty() ? Headers{} : forwarded_for(client));
}

std::string upgrade_request(const std::string& extra_headers) {
  return "GET /ws HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
         "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n" +
         extra_headers + "\r\n";
}

// A WebSocket that must be admitted: the server may not yet have seen the
// start-up health check's connection close (it counts until then), so tried
// for up to 5 s. A refusal checked after these is certain: the budget is full.
template <typename Open>
std::unique_ptr<WsClient> admitted(Open open) {
  for (int attempt = 0;; ++attempt) {
    try {
      return open();
    } catch (const std::exception&) {
      if (attempt == 50) throw;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
}

// What a new name's hello from `client` is answered: "welcome", or the error's code.
std::string sign_up(const ServerProcess& server, const std::string& client, const std::string& name) {
  auto socket = socket_for(server, client);
  const auto reply = socket->request({{"type", "hello"}, {"name", name}});
  return reply["type"] == "welcome" ? "welcome" : reply.value("code", reply.dump());
}

}  // namespace

TEST_CASE("behind a trusted proxy each client has its own connection budget, and health checks are never refused") {
  ServerProcess server(ServerProcess::fresh_db("front-budget"),
                       {"--trusted-proxy", "127.0.0.1/32", "--max-connections-per-ip", "2"});
  std::vector<std::unique_ptr<WsClient>> open;
  open.push_back(socket_for(server, "203.0.113.1"));
  open.push_back(socket_for(server, "203.0.113.1"));
  CHECK_THROWS(socket_for(server, "203.0.113.1"));
  // Another client through the same proxy has a budget of its own.
  open.push_back(socket_for(server, "203.0.113.2"));
  open.push_back(socket_for(server, "198.51.100.9, 203.0.113.2"));  // a spoofed left part names nobody
  CHECK_THROWS(socket_for(server, "203.0.113.2"));
  // The refusal is an answer naming the client, so the proxy passes it on
  // instead of failing with 502.
  const auto refused = exchange(server.port(), upgrade_request("X-Forwarded-For: 203.0.113.1\r\n"));
  CHECK(refused.result_int() == 429);
  CHECK(refused.body().find("203.0.113.1") != std::string::npos);
  // The proxy's own requests (no header) are counted as the proxy's, and its
  // health checks need no slot at all.
  open.push_back(socket_for(server, ""));
  open.push_back(socket_for(server, ""));
  CHECK_THROWS(socket_for(server, ""));
  for (int i = 0; i < 5; ++i) CHECK(server.get("/healthz").first == 200);
  CHECK(exchange(server.port(), "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.1\r\n\r\n").result_int() == 200);
  // Every one of them still works.
  for (auto& socket : open) CHECK(socket->request({{"type", "ping"}})["type"] == "pong");
  // /metrics is no health check: the proxy asks it for a client with room.
  const auto metrics = exchange(server.port(), "GET /metrics HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 192.0.2.1\r\n\r\n");
  CHECK(metrics.body().find("parlour_connections_refused_total 4\n") != std::string::npos);
  CHECK(exchange(server.port(), "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n").result_int() == 429);
}

TEST_CASE("without --trusted-proxy a spoofed X-Forwarded-For changes nothing: one budget for the peer") {
  ServerProcess server(ServerProcess::fresh_db("front-spoof"), {"--max-connections-per-ip", "2"});
  std::vector<std::unique_ptr<WsClient>> open;
  open.push_back(admitted([&] { return socket_for(server, "203.0.113.1"); }));
  open.push_back(admitted([&] { return socket_for(server, "203.0.113.2"); }));
  CHECK_THROWS(socket_for(server, "203.0.113.3"));
  CHECK_THROWS(socket_for(server, ""));
  // Nor does Forwarded, nor a proxy trusted elsewhere.
  ServerProcess other(ServerProcess::fresh_db("front-spoof-other"),
                      {"--max-connections-per-ip", "1", "--trusted-proxy", "10.0.0.0/8"});
  auto first = admitted([&] { return std::make_unique<WsClient>(other.port(), 0, "/ws", Headers{{"Forwarded", "for=203.0.113.1"}}); });
  CHECK_THROWS(WsClient(other.port(), 0, "/ws", Headers{{"Forwarded", "for=203.0.113.2"}}));
}

TEST_CASE("behind a trusted proxy the sign-up limit counts each real client, and an IPv6 client per /64") {
  ServerProcess server(ServerProcess::fresh_db("front-signup"),
                       {"--trusted-proxy", "127.0.0.1", "--registrations-per-ip-per-hour", "1"});
  CHECK(sign_up(server, "203.0.113.1", "ann") == "welcome");
  CHECK(sign_up(server, "203.0.113.1", "bob") == "rate_limited");
  CHECK(sign_up(server, "203.0.113.2", "bob") == "welcome");
  // Forwarded (RFC 7239) names the client as well, IPv6 in quotes and brackets.
  CHECK(sign_up(server, "", "cy") == "welcome");  // the proxy's own budget
  auto forwarded = [&](const std::string& node, const std::string& name) {
    WsClient socket(server.port(), 0, "/ws", Headers{{"Forwarded", "for=\"" + node + "\";proto=https"}});
    const auto reply = socket.request({{"type", "hello"}, {"name", name}});
    return reply["type"] == "welcome" ? std::string("welcome") : reply.value("code", reply.dump());
  };
  CHECK(forwarded("[2001:db8:1:2::1]:4711", "dee") == "welcome");
  CHECK(forwarded("[2001:db8:1:2:ffff::9]", "eve") == "rate_limited");  // the same /64
  CHECK(forwarded("[2001:db8:1:3::1]", "eve") == "welcome");
}

TEST_CASE("without --trusted-proxy the sign-up limit is the peer's, whatever the headers say") {
  ServerProcess server(ServerProcess::fresh_db("front-signup-spoof"), {"--registrations-per-ip-per-hour", "1"});
  CHECK(sign_up(server, "203.0.113.1", "ann") == "welcome");
  CHECK(sign_up(server, "203.0.113.2", "bob") == "rate_limited");
}

TEST_CASE("every HTTP answer carries the headers of a public site; no HSTS over plain HTTP") {
  ServerProcess server(ServerProcess::fresh_db("front-headers"));
  for (const char* target : {"/", "/js/app.js", "/healthz", "/api/settle", "/no-such-file"}) {
    CAPTURE(target);
    const auto response = exchange(server.port(), std::string("GET ") + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    const std::string policy(response["Content-Security-Policy"]);
    CHECK(policy.find("script-src 'self'") != std::string::npos);
    CHECK(policy.find("default-src 'self'") != std::string::npos);
    CHECK(policy.find("unsafe-inline") == std::string::npos);
    CHECK(policy.find("frame-ancestors 'none'") != std::string::npos);
    CHECK(response["X-Content-Type-Options"] == "nosniff");
    CHECK(response["Referrer-Policy"] == "no-referrer");
    CHECK(response["Strict-Transport-Security"].empty());
  }
  // A request refused before it is read whole too.
  const auto oversize = exchange(server.port(), "GET /" + std::string(5000, 'a') + " HTTP/1.1\r\nHost: x\r\n\r\n");
  CHECK(oversize.result_int() == 414);
  CHECK(oversize["X-Content-Type-Options"] == "nosniff");
}
