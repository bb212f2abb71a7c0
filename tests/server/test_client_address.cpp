// Who the client is behind a reverse proxy (server/net/client_address.h):
// forwarding headers believed from trusted proxies only, chains read from the
// right, malformed headers, and the limit keys of IPv4 and IPv6 clients.
#include <doctest/doctest.h>

#include <stdexcept>

#include "server/common/config.h"
#include "server/net/client_address.h"

using namespace parlour::server;

namespace {

IpAddress ip(const std::string& text) { return boost::asio::ip::make_address(text); }

// The client's address as text, for a request from `peer` with these headers.
std::string client(const std::string& peer, const TrustedProxies& trusted, const std::string& forwarded,
                   const std::string& x_forwarded_for = "") {
  return client_address(ip(peer), trusted, forwarded, x_forwarded_for).text();
}

const TrustedProxies local_proxy({"127.0.0.1/32", "::1"});

}  // namespace

TEST_CASE("client address: CIDRs parse, contain what they should, and bad ones are named") {
  const auto block = parse_cidr("10.1.2.3/8");
  CHECK(block.network.to_string() == "10.0.0.0");
  CHECK(block.contains(ip("10.200.0.1")));
  CHECK_FALSE(block.contains(ip("11.0.0.1")));
  CHECK(block.contains(ip("::ffff:10.9.9.9")));  // a dual-stack socket's view of an IPv4 peer
  CHECK_FALSE(block.contains(ip("2001:db8::1")));
  CHECK(parse_cidr("192.0.2.7").contains(ip("192.0.2.7")));
  CHECK_FALSE(parse_cidr("192.0.2.7").contains(ip("192.0.2.8")));
  CHECK(parse_cidr("2001:db8::/32").contains(ip("2001:db8:ffff::1")));
  CHECK_FALSE(parse_cidr("2001:db8::/32").contains(ip("2001:db9::1")));
  CHECK(parse_cidr("0.0.0.0/0").contains(ip("203.0.113.9")));
  for (const char* bad : {"", "10.0.0.0/33", "10.0.0.0/", "10.0.0.0/x", "::/129", "example.org", "10.0.0/8", "1.2.3.4/8/8"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(parse_cidr(bad), std::invalid_argument);
  }
  try {
    parse_cidr("10.0.0.0/33");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).find("'10.0.0.0/33'") != std::string::npos);
  }
  const TrustedProxies listed({"10.0.0.0/8, 192.168.1.1", "fd00::/8"});
  CHECK(listed.contains(ip("10.3.3.3")));
  CHECK(listed.contains(ip("192.168.1.1")));
  CHECK(listed.contains(ip("fd12::1")));
  CHECK_FALSE(listed.contains(ip("192.168.1.2")));
  CHECK_THROWS_AS(TrustedProxies({"10.0.0.0/8,nonsense"}), std::invalid_argument);
  CHECK(TrustedProxies().empty());
}

TEST_CASE("client address: limit keys are IPv4 addresses and IPv6 /64s; IPv4-mapped IPv6 is IPv4") {
  CHECK(limit_key(ip("203.0.113.9")) == "203.0.113.9");
  CHECK(limit_key(ip("::ffff:203.0.113.9")) == "203.0.113.9");
  CHECK(limit_key(ip("2001:db8:1:2:aaaa:bbbb:cccc:dddd")) == "2001:db8:1:2::/64");
  CHECK(limit_key(ip("2001:db8:1:2::1")) == limit_key(ip("2001:db8:1:2:ffff::9")));
  CHECK(limit_key(ip("2001:db8:1:2::1")) != limit_key(ip("2001:db8:1:3::1")));
  CHECK(peer_address(ip("::ffff:198.51.100.1")).text() == "198.51.100.1");
  CHECK(peer_address(ip("2001:db8::5")).key == "2001:db8::/64");
}

TEST_CASE("client address: from an untrusted peer the forwarding headers are ignored") {
  CHECK(client("198.51.100.7", local_proxy, "for=203.0.113.1", "203.0.113.2") == "198.51.100.7");
  CHECK(client("198.51.100.7", TrustedProxies(), "", "203.0.113.2") == "198.51.100.7");
  CHECK_FALSE(client_address(ip("198.51.100.7"), local_proxy, "", "203.0.113.2").forwarded);
  // 127.0.0.2 is not 127.0.0.1/32.
  CHECK(client("127.0.0.2", local_proxy, "", "203.0.113.2") == "127.0.0.2");
}

TEST_CASE("client address: X-Forwarded-For from a trusted proxy, read from the right") {
  CHECK(client("127.0.0.1", local_proxy, "", "203.0.113.2") == "203.0.113.2");
  CHECK(client_address(ip("127.0.0.1"), local_proxy, "", "203.0.113.2").forwarded);
  CHECK(client("::1", local_proxy, "", "203.0.113.2") == "203.0.113.2");
  CHECK(client("::ffff:127.0.0.1", local_proxy, "", "203.0.113.2") == "203.0.113.2");
  // A client that writes its own header cannot pick its name: the proxy appends
  // the address it saw, and that right-most untrusted entry is the client.
  CHECK(client("127.0.0.1", local_proxy, "", "1.1.1.1, 203.0.113.2") == "203.0.113.2");
  // A chain of trusted proxies is walked through.
  const TrustedProxies two_hops({"127.0.0.1", "10.0.0.0/8"});
  CHECK(client("127.0.0.1", two_hops, "", "1.1.1.1, 203.0.113.2, 10.0.0.5") == "203.0.113.2");
  // All trusted: the left-most (the first hop) is the client.
  CHECK(client("127.0.0.1", two_hops, "", "10.0.0.9, 10.0.0.5") == "10.0.0.9");
  // Ports, spaces and empty entries, as proxies write them.
  CHECK(client("127.0.0.1", local_proxy, "", " 203.0.113.2:5555 ") == "203.0.113.2");
  CHECK(client("127.0.0.1", local_proxy, "", "[2001:db8::7]:443") == "2001:db8::7");
  CHECK(client("127.0.0.1", local_proxy, "", "2001:db8::7, ") == "2001:db8::7");
  // A trusted request with no header at all is the proxy's own (its health checks).
  CHECK(client("127.0.0.1", local_proxy, "", "") == "127.0.0.1");
  CHECK_FALSE(client_address(ip("127.0.0.1"), local_proxy, "", "").forwarded);
}

TEST_CASE("client address: malformed or unknown entries end the walk at the last trusted hop") {
  CHECK(client("127.0.0.1", local_proxy, "", "not-an-address") == "127.0.0.1");
  CHECK(client("127.0.0.1", local_proxy, "", "203.0.113.2, garbage") == "127.0.0.1");
  CHECK(client("127.0.0.1", local_proxy, "", "unknown") == "127.0.0.1");
  CHECK(client("127.0.0.1", local_proxy, "", "203.0.113.2:99999") == "127.0.0.1");
  CHECK(client("127.0.0.1", local_proxy, "", "[2001:db8::7") == "127.0.0.1");
  CHECK(client("127.0.0.1", local_proxy, "", "2001:db8::7]:80") == "127.0.0.1");
  const TrustedProxies two_hops({"127.0.0.1", "10.0.0.0/8"});
  CHECK(client("127.0.0.1", two_hops, "", "garbage, 10.0.0.5") == "10.0.0.5");
}

TEST_CASE("client address: Forwarded (RFC 7239) first, with quotes, ports, IPv6 and several elements") {
  CHECK(client("127.0.0.1", local_proxy, "for=203.0.113.60;proto=https;by=203.0.113.43", "198.51.100.1") ==
        "203.0.113.60");
  CHECK(client("127.0.0.1", local_proxy, "For=\"[2001:db8:cafe::17]:4711\"") == "2001:db8:cafe::17");
  CHECK(client("127.0.0.1", local_proxy, "for=\"203.0.113.60:8080\"") == "203.0.113.60");
  CHECK(client("127.0.0.1", local_proxy, "for=192.0.2.43, for=198.51.100.17") == "198.51.100.17");
  CHECK(client("127.0.0.1", local_proxy, "for=192.0.2.43, for=127.0.0.1") == "192.0.2.43");
  CHECK(client("127.0.0.1", local_proxy, "proto=https;for=192.0.2.43 ,for=\"[::1]\"") == "192.0.2.43");
  // Quoted separators do not split, escapes are taken off.
  CHECK(forwarded_for("for=\"a,b;c\";by=x, for=\"\\[::1\\]\"") == std::vector<std::string>{"a,b;c", "[::1]"});
  // Obfuscated and unknown nodes name nobody.
  CHECK(client("127.0.0.1", local_proxy, "for=_hidden") == "127.0.0.1");
  CHECK(client("127.0.0.1", local_proxy, "for=unknown") == "127.0.0.1");
  // Malformed Forwarded is ignored as a whole: X-Forwarded-For is read instead.
  for (const char* bad : {"for=\"203.0.113.60", "for", "=1.2.3.4", "for=1.2.3.4 junk", "for=\"[::1]\"x", "for=[::1]"}) {
    CAPTURE(bad);
    CHECK(forwarded_for(bad).empty());
    CHECK(client("127.0.0.1", local_proxy, bad, "198.51.100.1") == "198.51.100.1");
  }
  // Forwarded without a for= leaves the choice to X-Forwarded-For.
  CHECK(client("127.0.0.1", local_proxy, "proto=https", "198.51.100.1") == "198.51.100.1");
  // Ignored from an untrusted peer, as X-Forwarded-For is.
  CHECK(client("198.51.100.7", local_proxy, "for=203.0.113.60") == "198.51.100.7");
}

TEST_CASE("flags: --trusted-proxy repeats, --public-url must be an absolute http(s) URL") {
  auto parsed = parse_args({"--trusted-proxy", "127.0.0.1/32", "--trusted-proxy", "10.0.0.0/8,fd00::/8",
                            "--public-url", "https://cards.example.org/"});
  REQUIRE(parsed.config);
  CHECK(parsed.config->trusted_proxies == std::vector<std::string>{"127.0.0.1/32", "10.0.0.0/8,fd00::/8"});
  CHECK(parsed.config->public_url == "https://cards.example.org");
  CHECK(parse_args({"--public-url", "http://192.0.2.1:8080/cards"}).config->public_url == "http://192.0.2.1:8080/cards");
  for (const char* bad : {"cards.example.org", "ftp://x", "https://", "https:///x", "https://x/?a=1", "https://x/#y"}) {
    CAPTURE(bad);
    const auto refused = parse_args({"--public-url", bad});
    CHECK_FALSE(refused.config);
    CHECK(refused.message.find("--public-url") != std::string::npos);
  }
  CHECK(usage().find("--trusted-proxy") != std::string::npos);
  CHECK(usage().find("--public-url") != std::string::npos);
}

TEST_CASE("flags: --tls-cert and --tls-key go together") {
  const auto both = parse_args({"--tls-cert", "c.pem", "--tls-key", "k.pem"});
  REQUIRE(both.config);
  CHECK(both.config->tls());
  CHECK(both.config->tls_cert == "c.pem");
  CHECK(both.config->tls_key == "k.pem");
  CHECK_FALSE(parse_args({}).config->tls());
  for (const auto& half : {std::vector<std::string>{"--tls-cert", "c.pem"}, std::vector<std::string>{"--tls-key", "k.pem"}}) {
    const auto refused = parse_args(half);
    CHECK_FALSE(refused.config);
    CHECK(refused.message.find("--tls-cert and --tls-key go together") != std::string::npos);
  }
  CHECK(usage().find("--tls-cert FILE") != std::string::npos);
}
