#include "server/net/client_address.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <stdexcept>

namespace parlour::server {

namespace {

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t");
  return text.substr(first, last - first + 1);
}

bool parse_address(std::string_view text, IpAddress& out) {
  boost::system::error_code ec;
  auto parsed = boost::asio::ip::make_address(std::string(text), ec);
  if (ec) return false;
  out = unmapped(parsed);
  return true;
}

bool parse_port(std::string_view text) {
  unsigned port = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), port);
  return !text.empty() && ec == std::errc() && end == text.data() + text.size() && port <= 65535;
}

// The first `bits` bits of the bytes, the rest zero.
template <typename Bytes>
Bytes masked(Bytes bytes, int bits) {
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const int keep = std::clamp(bits - static_cast<int>(i) * 8, 0, 8);
    bytes[i] &= static_cast<unsigned char>(0xff00u >> keep);
  }
  return bytes;
}

bool is_tchar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (;;) {
    const auto at = text.find(separator, start);
    parts.push_back(trim(text.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start)));
    if (at == std::string_view::npos) return parts;
    start = at + 1;
  }
}

}  // namespace

IpAddress unmapped(const IpAddress& address) {
  if (address.is_v6() && address.to_v6().is_v4_mapped())
    return boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, address.to_v6());
  return address;
}

bool Cidr::contains(const IpAddress& candidate) const {
  const auto address = unmapped(candidate);
  if (address.is_v4() != network.is_v4()) return false;
  if (address.is_v4()) return masked(address.to_v4().to_bytes(), prefix) == network.to_v4().to_bytes();
  return masked(address.to_v6().to_bytes(), prefix) == network.to_v6().to_bytes();
}

Cidr parse_cidr(std::string_view text) {
  const auto fail = [&] {
    return std::invalid_argument("expected an address block such as 10.0.0.0/8, 127.0.0.1 or fd00::/8, got '" +
                                 std::string(text) + "'");
  };
  const auto slash = text.find('/');
  Cidr cidr;
  if (!parse_address(text.substr(0, slash), cidr.network)) throw fail();
  const int bits = cidr.network.is_v4() ? 32 : 128;
  cidr.prefix = bits;
  if (slash != std::string_view::npos) {
    const auto digits = text.substr(slash + 1);
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), cidr.prefix);
    if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || cidr.prefix < 0 ||
        cidr.prefix > bits)
      throw fail();
  }
  // 10.1.2.3/8 means the block 10.0.0.0/8, as everyone writes it.
  if (cidr.network.is_v4())
    cidr.network = boost::asio::ip::address_v4(masked(cidr.network.to_v4().to_bytes(), cidr.prefix));
  else
    cidr.network = boost::asio::ip::address_v6(masked(cidr.network.to_v6().to_bytes(), cidr.prefix));
  return cidr;
}

TrustedProxies::TrustedProxies(const std::vector<std::string>& entries) {
  for (const auto& entry : entries)
    for (const auto part : split(entry, ','))
      if (!part.empty()) blocks_.push_back(parse_cidr(part));
}

bool TrustedProxies::contains(const IpAddress& address) const {
  return std::any_of(blocks_.begin(), blocks_.end(), [&](const Cidr& block) { return block.contains(address); });
}

std::string limit_key(const IpAddress& candidate) {
  const auto address = unmapped(candidate);
  if (address.is_v4()) return address.to_string();
  return boost::asio::ip::address_v6(masked(address.to_v6().to_bytes(), 64)).to_string() + "/64";
}

bool parse_node(std::string_view text, IpAddress& out) {
  text = trim(text);
  if (text.empty()) return false;
  if (text.front() == '[') {
    const auto close = text.find(']');
    if (close == std::string_view::npos) return false;
    const auto rest = text.substr(close + 1);
    if (!rest.empty() && (rest.front() != ':' || !parse_port(rest.substr(1)))) return false;
    IpAddress inside;
    if (!parse_address(text.substr(1, close - 1), inside)) return false;
    out = inside;
    return true;
  }
  if (parse_address(text, out)) return true;  // IPv4, or bare IPv6
  // IPv4 with a port; a bare IPv6 address has more than one colon and was taken above.
  const auto colon = text.find(':');
  if (colon == std::string_view::npos || text.find(':', colon + 1) != std::string_view::npos) return false;
  IpAddress v4;
  if (!parse_port(text.substr(colon + 1)) || !parse_address(text.substr(0, colon), v4) || !v4.is_v4()) return false;
  out = v4;
  return true;
}

std::vector<std::string> forwarded_for(std::string_view header) {
  // forwarded-element *( "," forwarded-element ), each pair *( ";" pair ),
  // pair = token "=" ( token / quoted-string ). Walked by hand because a
  // quoted string may hold the separators.
  std::vector<std::string> found;
  std::size_t at = 0;
  const auto skip_spaces = [&] {
    while (at < header.size() && (header[at] == ' ' || header[at] == '\t')) ++at;
  };
  while (at < header.size()) {
    skip_spaces();
    if (at < header.size() && (header[at] == ',' || header[at] == ';')) {  // empty element or pair
      ++at;
      continue;
    }
    if (at >= header.size()) break;
    std::string name;
    while (at < header.size() && is_tchar(header[at])) name += static_cast<char>(std::tolower(header[at++]));
    if (name.empty() || at >= header.size() || header[at] != '=') return {};
    ++at;
    std::string value;
    if (at < header.size() && header[at] == '"') {
      ++at;
      for (;;) {
        if (at >= header.size()) return {};  // unterminated
        const char c = header[at++];
        if (c == '"') break;
        if (c == '\\') {
          if (at >= header.size()) return {};
          value += header[at++];
        } else {
          value += c;
        }
      }
    } else {
      while (at < header.size() && is_tchar(header[at])) value += header[at++];
      if (value.empty()) return {};
    }
    skip_spaces();
    if (at < header.size() && header[at] != ',' && header[at] != ';') return {};
    if (name == "for") found.push_back(std::move(value));
  }
  return found;
}

ClientAddress peer_address(const IpAddress& peer) {
  const auto address = unmapped(peer);
  return ClientAddress{address, limit_key(address), false};
}

ClientAddress client_address(const IpAddress& peer, const TrustedProxies& trusted, std::string_view forwarded,
                             std::string_view x_forwarded_for) {
  auto client = peer_address(peer);
  if (!trusted.contains(client.address)) return client;
  std::vector<std::string> chain = forwarded_for(forwarded);
  if (chain.empty())
    for (const auto entry : split(x_forwarded_for, ','))
      if (!entry.empty()) chain.emplace_back(entry);
  for (auto hop = chain.rbegin(); hop != chain.rend(); ++hop) {
    IpAddress named;
    if (!parse_node(*hop, named)) break;
    client = ClientAddress{named, limit_key(named), true};
    if (!trusted.contains(named)) break;
  }
  return client;
}

}  // namespace parlour::server
