// A TLS client of the real server or of a proxy in front of it, and the
// self-signed certificates the TLS tests make with the openssl CLI
// (test_proxy.cpp, test_tls.cpp).
#pragma once

#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace parlour::test::tls {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace ssl = asio::ssl;
namespace fs = std::filesystem;
using tcp = asio::ip::tcp;

constexpr const char* openssl_binary = "/usr/bin/openssl";

// Runs a program to its end; its exit status (-1 if it did not exit).
inline int run(const std::vector<std::string>& args) {
  const pid_t pid = fork();
  if (pid == 0) {
    std::vector<char*> argv;
    for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// A self-signed certificate for localhost and 127.0.0.1 named `common_name`,
// as NAME.pem and NAME.key in `folder`; throws if openssl is missing or fails.
inline void make_certificate(const fs::path& folder, const std::string& name, const std::string& common_name) {
  if (!fs::exists(openssl_binary))
    throw std::runtime_error("the openssl CLI is missing: run scripts/install-deps.sh --test");
  const int status = run({openssl_binary, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                          "-nodes", "-keyout", (folder / (name + ".key")).string(), "-out",
                          (folder / (name + ".pem")).string(), "-days", "2", "-subj", "/CN=" + common_name, "-addext",
                          "subjectAltName=DNS:localhost,IP:127.0.0.1"});
  if (status != 0) throw std::runtime_error("openssl req failed with status " + std::to_string(status));
}

// A TLS connection from the loopback address `source` to 127.0.0.1:`port`
// that trusts only `certificate` and checks the name localhost. Throws when
// the handshake fails (another certificate, or no TLS).
class Connection {
 public:
  Connection(const fs::path& certificate, unsigned short port, const std::string& source)
      : context_(ssl::context::tls_client), ws_(io_, context_) {
    context_.load_verify_file(certificate.string());
    auto& stream = ws_.next_layer();
    // On the stream: it took the context's mode when it was made, above.
    stream.set_verify_mode(ssl::verify_peer);
    if (!SSL_set_tlsext_host_name(stream.native_handle(), "localhost")) throw std::runtime_error("SNI");
    stream.set_verify_callback(ssl::host_name_verification("localhost"));
    auto& socket = beast::get_lowest_layer(ws_).socket();
    socket.open(tcp::v4());
    socket.bind(tcp::endpoint(asio::ip::make_address(source), 0));
    beast::get_lowest_layer(ws_).expires_after(std::chrono::seconds(5));
    socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
    stream.handshake(ssl::stream_base::client);
  }

  http::response<http::string_body> get(const std::string& target) {
    http::request<http::empty_body> request{http::verb::get, target, 11};
    request.set(http::field::host, "localhost");
    http::write(ws_.next_layer(), request);
    http::response<http::string_body> response;
    http::read(ws_.next_layer(), buffer_, response);
    return response;
  }

  // The upgrade, with headers a client might forge; the server's answer.
  websocket::response_type upgrade(const std::vector<std::pair<std::string, std::string>>& headers) {
    ws_.set_option(websocket::stream_base::decorator([headers](websocket::request_type& request) {
      for (const auto& [name, value] : headers) request.set(name, value);
    }));
    websocket::response_type response;
    beast::error_code ec;
    ws_.handshake(response, "localhost", "/ws", ec);
    return response;
  }

  // An upgrade request written by hand, for an answer that is no upgrade
  // (Boost 1.74's synchronous handshake keeps a refusal's response to itself).
  http::response<http::string_body> refused_upgrade(const std::vector<std::pair<std::string, std::string>>& headers) {
    http::request<http::empty_body> request{http::verb::get, "/ws", 11};
    request.set(http::field::host, "localhost");
    request.set(http::field::connection, "Upgrade");
    request.set(http::field::upgrade, "websocket");
    request.set(http::field::sec_websocket_version, "13");
    request.set(http::field::sec_websocket_key, "dGhlIHNhbXBsZSBub25jZQ==");
    for (const auto& [name, value] : headers) request.set(name, value);
    http::write(ws_.next_layer(), request);
    http::response<http::string_body> response;
    http::read(ws_.next_layer(), buffer_, response);
    return response;
  }

  nlohmann::json request(nlohmann::json message) {
    message["id"] = ++next_id_;
    ws_.text(true);
    ws_.write(asio::buffer(message.dump()));
    for (;;) {
      beast::flat_buffer frame;
      ws_.read(frame);
      auto reply = nlohmann::json::parse(beast::buffers_to_string(frame.data()));
      if (reply.value("re", Json()) == next_id_) return reply;
    }
  }

 private:
  asio::io_context io_;
  ssl::context context_;
  websocket::stream<beast::ssl_stream<beast::tcp_stream>> ws_;
  beast::flat_buffer buffer_;
  int next_id_ = 0;
};

}  // namespace parlour::test::tls
