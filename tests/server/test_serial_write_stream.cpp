// The layer under the server's WebSockets (server/net/serial_write_stream.h):
// the frames the session frames itself read in Beast's own WebSocket client as
// the messages they were, at every header length; a batch leaves in one write;
// Beast's own writes (the handshake's reply, a ping) keep their order with them.
#include <utility>  // before Asio: std::exchange in Boost 1.74's awaitable.hpp

#include <doctest/doctest.h>

#include <boost/asio/io_context.hpp>
#include <boost/beast/_experimental/test/stream.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/websocket.hpp>
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "server/net/serial_write_stream.h"

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using Layer = parlour::server::SerialWriteStream<beast::test::stream>;

// Each payload's header and bytes, as the session hands them over; `headers`
// holds the headers the pieces point into.
std::vector<asio::const_buffer> framed(const std::vector<std::string>& payloads,
                                       std::vector<std::array<char, 10>>& headers) {
  headers.assign(payloads.size(), {});
  std::vector<asio::const_buffer> pieces;
  for (std::size_t i = 0; i < payloads.size(); ++i) {
    pieces.emplace_back(headers[i].data(), parlour::server::text_frame_header(payloads[i].size(), headers[i]));
    pieces.emplace_back(payloads[i].data(), payloads[i].size());
  }
  return pieces;
}

// A server's WebSocket over the layer and a client's over the other end, the handshake done.
struct Pair {
  asio::io_context io;
  std::shared_ptr<int> owner = std::make_shared<int>(0);
  std::atomic<std::uint64_t> writes{0};
  websocket::stream<Layer> server;
  websocket::stream<beast::test::stream> client;

  Pair() : server(beast::test::stream(io)), client(beast::test::stream(io)) {
    server.next_layer().next_layer().connect(client.next_layer());
    server.next_layer().set_owner(owner);
    server.next_layer().count_writes_in(&writes);
    beast::error_code accepted = asio::error::would_block, shaken = asio::error::would_block;
    server.async_accept([&](beast::error_code ec) { accepted = ec; });
    client.async_handshake("localhost", "/", [&](beast::error_code ec) { shaken = ec; });
    io.run();
    io.restart();
    REQUIRE_MESSAGE(!accepted, accepted.message());
    REQUIRE_MESSAGE(!shaken, shaken.message());
  }

  // The frames as the session hands them over: header and bytes of each, in one call.
  beast::error_code write_frames(const std::vector<std::string>& payloads) {
    std::vector<std::array<char, 10>> headers;
    const auto pieces = framed(payloads, headers);
    beast::error_code result = asio::error::would_block;
    server.next_layer().async_write_some(pieces, [&](beast::error_code ec, std::size_t) { result = ec; });
    io.run();
    io.restart();
    return result;
  }

  std::string read_text() {
    beast::flat_buffer buffer;
    client.read(buffer);
    CHECK(client.got_text());
    return beast::buffers_to_string(buffer.data());
  }
};

std::string payload_of(std::size_t size) {
  std::string text(size, ' ');
  for (std::size_t i = 0; i < size; ++i) text[i] = static_cast<char>('a' + i % 26);
  return text;
}

}  // namespace

TEST_CASE("serial write stream: a frame of every header length reads back as the same text message") {
  // 2-byte headers up to 125 bytes, 4-byte up to 65,535, 10-byte beyond.
  for (const std::size_t size : {0u, 1u, 125u, 126u, 127u, 1000u, 65535u, 65536u, 70000u}) {
    CAPTURE(size);
    Pair pair;
    const auto payload = payload_of(size);
    REQUIRE(!pair.write_frames({payload}));
    CHECK(pair.read_text() == payload);
  }
}

TEST_CASE("serial write stream: the frames of one call leave in one write and read as separate messages") {
  Pair pair;
  const auto before = pair.writes.load();
  REQUIRE(!pair.write_frames({R"({"type":"ok"})", payload_of(900), payload_of(200)}));
  CHECK(pair.writes.load() == before + 1);
  CHECK(pair.read_text() == R"({"type":"ok"})");
  CHECK(pair.read_text() == payload_of(900));
  CHECK(pair.read_text() == payload_of(200));
}

TEST_CASE("serial write stream: Beast's ping, asked for while frames are being written, follows them whole") {
  Pair pair;
  std::vector<std::string> payloads{payload_of(3000), payload_of(40)};
  std::vector<std::array<char, 10>> headers;
  const auto pieces = framed(payloads, headers);
  beast::error_code written = asio::error::would_block, pinged = asio::error::would_block;
  pair.server.next_layer().async_write_some(pieces, [&](beast::error_code ec, std::size_t) { written = ec; });
  pair.server.async_ping("beat", [&](beast::error_code ec) { pinged = ec; });
  std::string seen_ping;
  pair.client.control_callback([&](websocket::frame_type kind, beast::string_view data) {
    if (kind == websocket::frame_type::ping) seen_ping = std::string(data);
  });
  pair.io.run();
  pair.io.restart();
  REQUIRE(!written);
  REQUIRE(!pinged);
  CHECK(pair.writes.load() >= 2);
  CHECK(pair.read_text() == payloads[0]);
  CHECK(pair.read_text() == payloads[1]);
  CHECK(seen_ping.empty());  // a control frame is seen when the read that meets it runs
  // The ping is read (and answered) on the way to the next message.
  REQUIRE(!pair.write_frames({"after"}));
  CHECK(pair.read_text() == "after");
  CHECK(seen_ping == "beat");
}

TEST_CASE("serial write stream: once its session is gone, or the stream abandoned, a write fails and sends nothing") {
  SUBCASE("session gone") {
    Pair pair;
    pair.owner.reset();
    CHECK(pair.write_frames({"late"}) == asio::error::operation_aborted);
  }
  SUBCASE("abandoned") {
    Pair pair;
    pair.server.next_layer().abandon();
    const auto before = pair.writes.load();
    CHECK(pair.write_frames({"late"}) == asio::error::operation_aborted);
    CHECK(pair.writes.load() == before);
  }
}

TEST_CASE("serial write stream: writes that come while one is out leave together after it, in their order") {
  Pair pair;
  const std::vector<std::string> payloads{payload_of(500), payload_of(20), payload_of(300)};
  // One call a payload, each with its own header.
  std::vector<std::vector<std::string>> singles;
  for (const auto& payload : payloads) singles.push_back({payload});
  std::vector<std::vector<std::array<char, 10>>> headers(payloads.size());
  std::vector<std::vector<asio::const_buffer>> calls;
  for (std::size_t i = 0; i < payloads.size(); ++i) calls.push_back(framed(singles[i], headers[i]));
  std::vector<beast::error_code> results(payloads.size(), asio::error::would_block);
  const auto before = pair.writes.load();
  for (std::size_t i = 0; i < payloads.size(); ++i)
    pair.server.next_layer().async_write_some(calls[i], [&, i](beast::error_code ec, std::size_t) { results[i] = ec; });
  pair.io.run();
  pair.io.restart();
  for (const auto& result : results) CHECK(!result);
  CHECK(pair.writes.load() == before + 2);  // the first at once, the other two gathered behind it
  for (const auto& payload : payloads) CHECK(pair.read_text() == payload);
}
