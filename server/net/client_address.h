// Who a connection's client is: the peer itself, or, when the peer is a
// reverse proxy the host trusts (--trusted-proxy), the client the proxy names
// in `Forwarded: for=` (RFC 7239) or else `X-Forwarded-For`. From any other
// peer those headers are ignored: anyone can write them. Also the key under
// which a client's per-address limits are counted: an IPv4 address, or an IPv6
// client's /64 (one household's or one server's share of addresses). Pure and
// free of Beast, so that it is tested on its own (tests/server/test_client_address.cpp).
#pragma once

#include <utility>  // before Asio: std::exchange in Boost 1.74's awaitable.hpp

#include <boost/asio/ip/address.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace parlour::server {

using IpAddress = boost::asio::ip::address;

// An address block such as 10.0.0.0/8 or 2001:db8::/32 (a bare address is
// the block of that one address).
struct Cidr {
  IpAddress network;
  int prefix = 0;
  bool contains(const IpAddress& address) const;
};
// Throws std::invalid_argument saying what was expected and what came.
Cidr parse_cidr(std::string_view text);

// The peers whose forwarding headers are believed.
class TrustedProxies {
 public:
  TrustedProxies() = default;
  // Each entry one CIDR or several separated by commas (the flag is repeatable
  // and takes lists); throws std::invalid_argument naming a bad one.
  explicit TrustedProxies(const std::vector<std::string>& entries);
  bool contains(const IpAddress& address) const;
  bool empty() const { return blocks_.empty(); }

 private:
  std::vector<Cidr> blocks_;
};

// IPv4-mapped IPv6 (::ffff:192.0.2.1, what a dual-stack socket reports) as the IPv4 it is.
IpAddress unmapped(const IpAddress& address);

// The key of an address's per-address limits: "192.0.2.1", or "2001:db8:1:2::/64".
std::string limit_key(const IpAddress& address);

// One node of a forwarding header: "192.0.2.1", "192.0.2.1:4711",
// "[2001:db8::1]", "[2001:db8::1]:4711" or a bare IPv6 address. False for
// "unknown", obfuscated names ("_hidden") and anything malformed.
bool parse_node(std::string_view text, IpAddress& out);

// The `for=` values of a Forwarded header (every element, in order, quotes
// taken off), or nothing if the header is malformed.
std::vector<std::string> forwarded_for(std::string_view header);

struct ClientAddress {
  IpAddress address;  // the client as best known
  std::string key;    // limit_key(address)
  bool forwarded = false;  // named by a trusted proxy's header, not the peer itself
  std::string text() const { return address.to_string(); }
};

// The client of a request that came from `peer` carrying these headers (each
// header's lines joined by commas; empty when absent). From a trusted peer the
// chain (Forwarded's if it has a for=, else X-Forwarded-For's) is read from
// the right: the first address that is not itself a trusted proxy is the
// client; if every one is trusted, the left-most; an entry that is no address
// (unknown, obfuscated, malformed) ends the walk with the last trusted hop.
ClientAddress client_address(const IpAddress& peer, const TrustedProxies& trusted, std::string_view forwarded,
                             std::string_view x_forwarded_for);
// The peer itself (no headers to read).
ClientAddress peer_address(const IpAddress& peer);

}  // namespace parlour::server
