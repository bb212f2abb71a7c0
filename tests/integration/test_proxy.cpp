// Parlour behind Debian's nginx terminating TLS, configured by docker/nginx.conf
// itself (its names, ports and certificate swapped for a self-signed one the
// test makes with the openssl CLI): HTTPS, a WebSocket upgrade and a hello over
// TLS, the client's own address seen by the server, and the per-address
// limit counted per real client. Loopback has all of 127.0.0.0/8, so the
// "friends" are 127.0.0.2 and 127.0.0.3 while nginx is 127.0.0.1.
// nginx or openssl missing FAILS the test: scripts/install-deps.sh --test installs them.
#include <doctest/doctest.h>

#include <boost/asio/connect.hpp>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "tests/integration/server_process.h"
#include "tests/integration/tls_client.h"

using parlour::test::Json;
using parlour::test::ServerProcess;

namespace {

using namespace parlour::test::tls;
using TlsConnection = parlour::test::tls::Connection;

constexpr const char* nginx_binary = "/usr/sbin/nginx";

std::string read_file(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// `from` replaced by `to` in `text`; a `from` that is not there fails the test
// (docker/nginx.conf changed and this test did not follow).
void swap_in(std::string& text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, "docker/nginx.conf has no '" << from << "'");
  text.replace(at, from.size(), to);
}

bool accepts(unsigned short port) {
  asio::io_context io;
  tcp::socket socket(io);
  boost::system::error_code ec;
  socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port), ec);
  return !ec;
}

// nginx on loopback in a folder of its own (-p, -c, -e: nothing under /etc or
// /var), with docker/nginx.conf as its site; stopped when the object goes.
class Nginx {
 public:
  Nginx(const fs::path& folder, unsigned short parlour_port) : folder_(folder) {
    std::string site = read_file(fs::path(PARLOUR_SOURCE_DIR) / "docker/nginx.conf");
    REQUIRE_MESSAGE(!site.empty(), "docker/nginx.conf is missing");
    swap_in(site, "listen 80;", "listen 127.0.0.1:" + std::to_string(http_port_) + ";");
    swap_in(site, "listen [::]:80;", "");
    swap_in(site, "listen 443 ssl http2;", "listen 127.0.0.1:" + std::to_string(tls_port_) + " ssl http2;");
    swap_in(site, "listen [::]:443 ssl http2;", "");
    swap_in(site, "/etc/letsencrypt/live/cards.example.org/fullchain.pem", (folder / "cert.pem").string());
    swap_in(site, "/etc/letsencrypt/live/cards.example.org/privkey.pem", (folder / "cert.key").string());
    swap_in(site, "root /var/www/html;", "root " + folder.string() + ";");
    swap_in(site, "proxy_pass http://127.0.0.1:8080;", "proxy_pass http://127.0.0.1:" + std::to_string(parlour_port) + ";");
    std::ofstream(folder / "site.conf") << site;
    const auto at = [&](const char* name) { return (folder / name).string(); };
    std::ofstream(folder / "nginx.conf")
        << "daemon off;\nmaster_process off;\npid " << at("nginx.pid") << ";\nerror_log " << at("error.log")
        << " warn;\nevents { worker_connections 256; }\nhttp {\n  access_log " << at("access.log") << ";\n"
        << "  client_body_temp_path " << at("body") << ";\n  proxy_temp_path " << at("proxy") << ";\n"
        << "  fastcgi_temp_path " << at("fastcgi") << ";\n  uwsgi_temp_path " << at("uwsgi") << ";\n"
        << "  scgi_temp_path " << at("scgi") << ";\n  include " << at("site.conf") << ";\n}\n";
    pid_ = fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      execl(nginx_binary, "nginx", "-p", (folder.string() + "/").c_str(), "-c", at("nginx.conf").c_str(), "-e",
            at("error.log").c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    for (int i = 0; i < 100 && !accepts(tls_port_); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    REQUIRE_MESSAGE(accepts(tls_port_), "nginx did not start: " << read_file(folder / "error.log"));
  }
  ~Nginx() {
    kill(pid_, SIGTERM);
    waitpid(pid_, nullptr, 0);
  }
  unsigned short tls_port() const { return tls_port_; }
  unsigned short http_port() const { return http_port_; }

 private:
  fs::path folder_;
  unsigned short http_port_ = parlour::support::free_port();
  unsigned short tls_port_ = parlour::support::free_port();
  pid_t pid_ = -1;
};

}  // namespace

TEST_CASE("behind nginx with TLS (docker/nginx.conf): https, WebSocket and hello, and limits per real client") {
  REQUIRE_MESSAGE(fs::exists(nginx_binary), "nginx is missing: run scripts/install-deps.sh --test");
  REQUIRE_MESSAGE(fs::exists(openssl_binary), "the openssl CLI is missing: run scripts/install-deps.sh --test");
  const fs::path folder = fs::temp_directory_path() / ("parlour-nginx-" + std::to_string(getpid()));
  fs::remove_all(folder);
  fs::create_directories(folder);
  make_certificate(folder, "cert", "localhost");
  const auto certificate = folder / "cert.pem";

  ServerProcess server(ServerProcess::fresh_db("proxy-nginx"),
                       {"--trusted-proxy", "127.0.0.1/32", "--max-connections-per-ip", "2", "--public-url",
                        "https://localhost"});
  Nginx nginx(folder, server.port());

  SUBCASE("https: the client's files with the site's headers, HSTS from nginx, health checks") {
    TlsConnection browser(certificate, nginx.tls_port(), "127.0.0.2");
    const auto page = browser.get("/");
    CHECK(page.result_int() == 200);
    CHECK(page.body().find("<script type=\"module\" src=") != std::string::npos);
    CHECK(std::string(page["Content-Security-Policy"]).find("script-src 'self'") != std::string::npos);
    CHECK(std::string(page["Strict-Transport-Security"]).rfind("max-age=", 0) == 0);
    CHECK(browser.get("/healthz").result_int() == 200);
  }

  SUBCASE("WebSockets over TLS: hello works, forged headers are not believed, each real client has its budget") {
    const std::vector<std::pair<std::string, std::string>> forged = {{"X-Forwarded-For", "203.0.113.9"},
                                                                      {"Forwarded", "for=198.51.100.1"}};
    std::vector<std::unique_ptr<TlsConnection>> open;
    for (int i = 0; i < 2; ++i) {
      open.push_back(std::make_unique<TlsConnection>(certificate, nginx.tls_port(), "127.0.0.2"));
      REQUIRE(open.back()->upgrade(forged).result_int() == 101);
    }
    CHECK(open[0]->request({{"type", "hello"}, {"name", "ann"}})["type"] == "welcome");
    // The third from 127.0.0.2 is refused, whatever it claims, and the server
    // names the address it saw: the friend's, not nginx's nor the forged ones.
    TlsConnection third(certificate, nginx.tls_port(), "127.0.0.2");
    const auto refused = third.refused_upgrade(forged);
    CHECK(refused.result_int() == 429);
    CHECK(refused.body().find("too many connections from 127.0.0.2 ") != std::string::npos);
    // Another friend behind the same nginx has a budget of her own.
    for (int i = 0; i < 2; ++i) {
      open.push_back(std::make_unique<TlsConnection>(certificate, nginx.tls_port(), "127.0.0.3"));
      REQUIRE(open.back()->upgrade({}).result_int() == 101);
    }
    CHECK(open[2]->request({{"type", "hello"}, {"name", "bob"}})["type"] == "welcome");
    CHECK(open[1]->request({{"type", "ping"}})["type"] == "pong");
    // nginx's own checks and the friends' pages still pass.
    TlsConnection fourth(certificate, nginx.tls_port(), "127.0.0.2");
    CHECK(fourth.get("/healthz").result_int() == 200);
    CHECK(server.get("/healthz").first == 200);
  }

  SUBCASE("plain HTTP is sent to https") {
    asio::io_context io;
    beast::tcp_stream stream(io);
    stream.expires_after(std::chrono::seconds(5));
    stream.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), nginx.http_port()));
    http::request<http::empty_body> request{http::verb::get, "/", 11};
    request.set(http::field::host, "localhost");
    http::write(stream, request);
    beast::flat_buffer buffer;
    http::response<http::string_body> response;
    http::read(stream, buffer, response);
    CHECK(response.result_int() == 301);
    CHECK(std::string(response[http::field::location]).rfind("https://localhost", 0) == 0);
  }
  fs::remove_all(folder);
}
