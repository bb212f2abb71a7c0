// The server's TLS certificate, reloadable. Included by sessions.h alone (Beast
// and Asio's SSL are compiled in net.cpp and net_tls.cpp only).
#pragma once

#include <boost/asio/ssl.hpp>
#include <filesystem>
#include <memory>
#include <mutex>
#include <spdlog/spdlog.h>
#include <stdexcept>
#include <string>
#include <system_error>

namespace parlour::server {

// The certificate and key of --tls-cert and --tls-key, read again on SIGHUP:
// each new handshake takes the context current then, and a connection keeps
// the one it began with for its life, so a reload drops nothing.
class TlsCertificate {
 public:
  TlsCertificate(std::string certificate, std::string key)
      : certificate_(std::move(certificate)), key_(std::move(key)), current_(load()) {}

  std::shared_ptr<boost::asio::ssl::context> current() const {
    std::lock_guard lock(mutex_);
    return current_;
  }

  // A certificate that cannot be read leaves the old one in use, and says why.
  void reload() {
    try {
      auto next = load();
      std::lock_guard lock(mutex_);
      current_ = std::move(next);
      spdlog::info("TLS certificate reloaded from {}", certificate_);
    } catch (const std::exception& e) {
      spdlog::error("TLS certificate not reloaded, the one in use stays: {}", e.what());
    }
  }

 private:
  std::shared_ptr<boost::asio::ssl::context> load() const {
    for (const auto& file : {certificate_, key_}) {
      std::error_code missing;
      if (!std::filesystem::is_regular_file(file, missing))
        throw std::runtime_error("no such file: " + file + " (expected a PEM file)");
    }
    auto context = std::make_shared<boost::asio::ssl::context>(boost::asio::ssl::context::tls_server);
    context->set_options(boost::asio::ssl::context::default_workarounds | boost::asio::ssl::context::no_sslv2 | boost::asio::ssl::context::no_sslv3 |
                         boost::asio::ssl::context::no_tlsv1 | boost::asio::ssl::context::no_tlsv1_1 | boost::asio::ssl::context::single_dh_use);
    boost::system::error_code ec;
    context->use_certificate_chain_file(certificate_, ec);
    if (ec) throw std::runtime_error("cannot read the certificate chain " + certificate_ + ": " + reason(ec));
    context->use_private_key_file(key_, boost::asio::ssl::context::pem, ec);
    if (ec) throw std::runtime_error("cannot read the private key " + key_ + ": " + reason(ec));
    if (SSL_CTX_check_private_key(context->native_handle()) != 1)
      throw std::runtime_error("the private key " + key_ + " is not the certificate's (" + certificate_ + ")");
    return context;
  }

  // OpenSSL's words for an error (Asio's own say only "asio.ssl error").
  static std::string reason(const boost::system::error_code& ec) {
    const char* text = ERR_reason_error_string(static_cast<unsigned long>(ec.value()));
    return text ? text : ec.message();
  }

  const std::string certificate_;
  const std::string key_;
  mutable std::mutex mutex_;
  std::shared_ptr<boost::asio::ssl::context> current_;
};

}  // namespace parlour::server
