// The server's own TLS (--tls-cert, --tls-key): HTTPS and WSS on its one port,
// a plain request there sent to https (health checks still answered), and a
// renewed certificate read on SIGHUP for new connections while the open ones
// and the tables go on. Self-signed certificates made by the openssl CLI.
#include <doctest/doctest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include "tests/integration/server_process.h"
#include "tests/integration/tls_client.h"

using parlour::test::Json;
using parlour::test::ServerProcess;

namespace {

using namespace parlour::test::tls;
using TlsConnection = parlour::test::tls::Connection;

// A connection that trusts only `certificate`, once the server presents it
// (a reload is asynchronous: tried for up to 10 s); nullptr if it never did.
std::unique_ptr<TlsConnection> connect_trusting(const fs::path& certificate, unsigned short port) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    try {
      return std::make_unique<TlsConnection>(certificate, port, "127.0.0.1");
    } catch (const std::exception&) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  return nullptr;
}

}  // namespace

TEST_CASE("--tls-cert: HTTPS and WSS on one port, plain HTTP sent to https, a SIGHUP reload keeps connections") {
  const fs::path folder = fs::temp_directory_path() / ("parlour-certificates-" + std::to_string(getpid()));
  fs::remove_all(folder);
  fs::create_directories(folder);
  make_certificate(folder, "first", "parlour-first");
  make_certificate(folder, "second", "parlour-second");
  fs::copy_file(folder / "first.pem", folder / "live.pem");
  fs::copy_file(folder / "first.key", folder / "live.key");

  ServerProcess server(ServerProcess::fresh_db("tls"), {"--tls-cert", (folder / "live.pem").string(), "--tls-key",
                                                        (folder / "live.key").string()});
  // The test harness's health check came over plain HTTP: still answered there.
  CHECK(server.get("/healthz").first == 200);
  CHECK(server.get("/").first == 308);

  TlsConnection browser(folder / "first.pem", server.port(), "127.0.0.1");
  const auto page = browser.get("/");
  CHECK(page.result_int() == 200);
  CHECK(std::string(page["Strict-Transport-Security"]).rfind("max-age=", 0) == 0);
  CHECK(std::string(page["Content-Security-Policy"]).find("script-src 'self'") != std::string::npos);

  TlsConnection old_socket(folder / "first.pem", server.port(), "127.0.0.1");
  REQUIRE(old_socket.upgrade({}).result_int() == 101);
  REQUIRE(old_socket.request({{"type", "hello"}, {"name", "ann"}})["type"] == "welcome");
  const auto created = old_socket.request({{"type", "create"}, {"game", "red_dog"}});
  REQUIRE(created["type"] == "created");
  // Only the first certificate is served yet.
  CHECK_THROWS(TlsConnection(folder / "second.pem", server.port(), "127.0.0.1"));

  // The renewal: new files in place (as certbot's rename does), then SIGHUP.
  fs::copy_file(folder / "second.pem", folder / "live.pem.new");
  fs::copy_file(folder / "second.key", folder / "live.key.new");
  fs::rename(folder / "live.pem.new", folder / "live.pem");
  fs::rename(folder / "live.key.new", folder / "live.key");
  REQUIRE(kill(server.pid(), SIGHUP) == 0);
  auto renewed = connect_trusting(folder / "second.pem", server.port());
  REQUIRE_MESSAGE(renewed, "no connection was offered the second certificate after SIGHUP");
  REQUIRE(renewed->upgrade({}).result_int() == 101);
  CHECK(renewed->request({{"type", "hello"}, {"name", "bob"}})["type"] == "welcome");
  CHECK_THROWS(TlsConnection(folder / "first.pem", server.port(), "127.0.0.1"));
  // The WebSocket opened before the reload goes on, and its table with it.
  CHECK(old_socket.request({{"type", "ping"}})["type"] == "pong");
  const auto tables = old_socket.request({{"type", "tables"}});
  REQUIRE(tables["type"] == "tables");
  CHECK(tables["tables"].size() == 1);
  CHECK(renewed->request({{"type", "join"}, {"table", created["table"]}})["type"] != "error");

  // A certificate that cannot be read leaves the one in use.
  fs::resize_file(folder / "live.pem", 10);
  REQUIRE(kill(server.pid(), SIGHUP) == 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CHECK(connect_trusting(folder / "second.pem", server.port()) != nullptr);
  CHECK(server.get("/healthz").first == 200);
  fs::remove_all(folder);
}

TEST_CASE("--tls-cert: a missing or mismatched key is refused at start with its reason") {
  const fs::path folder = fs::temp_directory_path() / ("parlour-certificates-bad-" + std::to_string(getpid()));
  fs::remove_all(folder);
  fs::create_directories(folder);
  make_certificate(folder, "first", "parlour-first");
  make_certificate(folder, "second", "parlour-second");
  // The exit status, and what the server printed (its log is on stdout).
  const auto run_with = [&](const std::vector<std::string>& args) {
    const auto output = folder / "output.txt";
    std::vector<std::string> all = {"/bin/sh", "-c", "exec \"$0\" \"$@\" >" + output.string() + " 2>&1",
                                    parlour::support::parlour_binary(), "--port", "0", "--db",
                                    ServerProcess::fresh_db("tls-start")};
    all.insert(all.end(), args.begin(), args.end());
    const int status = run(all);
    std::ifstream in(output);
    return std::make_pair(status, std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()));
  };
  const auto no_key = run_with({"--tls-cert", (folder / "first.pem").string()});
  CHECK(no_key.first == 2);
  CHECK(no_key.second.find("--tls-cert and --tls-key go together") != std::string::npos);
  const auto mismatched = run_with({"--tls-cert", (folder / "first.pem").string(), "--tls-key", (folder / "second.key").string()});
  CHECK(mismatched.first == 1);
  CHECK(mismatched.second.find("second.key") != std::string::npos);
  CHECK(mismatched.second.find("mismatch") != std::string::npos);
  const auto missing = run_with({"--tls-cert", (folder / "none.pem").string(), "--tls-key", (folder / "first.key").string()});
  CHECK(missing.first == 1);
  CHECK(missing.second.find("no such file: " + (folder / "none.pem").string()) != std::string::npos);
  fs::remove_all(folder);
}
