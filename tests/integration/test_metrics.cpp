// /metrics and /readyz (docs/metrics.md), against the real binary: the page is
// read by a strict parser of Prometheus's text format 0.0.4
// (tests/integration/prometheus_text.h), and after a few acts the histograms'
// counts and the per-game and per-code counters have exactly the values the
// test's own frames say they must.
#include <doctest/doctest.h>

#include <SQLiteCpp/SQLiteCpp.h>
#include <boost/asio/write.hpp>
#include <boost/beast/http.hpp>
#include <memory>
#include <thread>

#include "tests/integration/prometheus_text.h"
#include "tests/integration/server_process.h"
#include "tests/support/postgres_cluster.h"

using parlour::test::Json;
using parlour::test::ServerProcess;
using parlour::test::WsClient;
using parlour::support::PostgresCluster;
namespace prometheus = parlour::support::prometheus;

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

// With this seed seat 0 deals first at two seats: seat 1 bets first.
constexpr std::uint64_t seat_0_deals = 2;

Json bet(WsClient& client, const std::string& table, std::int64_t amount) {
  return client.request({{"type", "act"}, {"table", table}, {"action", {{"type", "bet"}, {"amount", amount}}}});
}

prometheus::Page scrape(const ServerProcess& server) {
  std::string type;
  const auto [status, body] = server.get("/metrics", "", &type);
  REQUIRE(status == 200);
  CHECK(type.rfind("text/plain; version=0.0.4", 0) == 0);
  return prometheus::Page(body);
}

double value(const prometheus::Page& page, const std::string& family, const std::string& sample,
             const prometheus::Labels& labels = {}) {
  const auto found = page.family(family).value(sample, labels);
  if (!found) FAIL("no sample " << sample << " in " << family);
  return *found;
}

// State pushes among a client's frames: how many, and their bytes.
std::pair<std::size_t, std::size_t> pushes(const WsClient& client) {
  std::size_t count = 0, bytes = 0;
  for (const auto& frame : client.frames())
    if (Json::parse(frame)["type"] == "state") {
      ++count;
      bytes += frame.size();
    }
  return {count, bytes};
}

// The whole response to `bytes` sent as they are.
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

// A two-seat Red Dog table dealt by seat 0 (seat_0_deals), so bob bets first:
// alice at seat 0 and bob at 1, started; returns when bob is to act.
std::string start_two_seat_red_dog(WsClient& alice, WsClient& bob) {
  const auto created = alice.request({{"type", "create"}, {"game", "red_dog"}, {"seats", 2}, {"seed", seat_0_deals}});
  REQUIRE(created["type"] == "created");
  const std::string table = created["table"];
  REQUIRE(alice.request({{"type", "join"}, {"table", table}, {"seat", 0}})["seat"] == 0);
  REQUIRE(bob.request({{"type", "join"}, {"table", table}, {"seat", 1}})["seat"] == 1);
  REQUIRE(alice.request({{"type", "start"}, {"table", table}})["type"] == "ok");
  bob.state_where([](const Json& s) { return parlour::test::to_act(s); });
  return table;
}

}  // namespace

TEST_CASE("/metrics is Prometheus text format with HELP and TYPE for every family, and counts exactly") {
  // No next deal for ten minutes: once the deal is over, nothing more is pushed.
  ServerProcess server(ServerProcess::fresh_db("metrics"), {"--deal-pause-ms", "600000"});
  WsClient alice(server.port()), bob(server.port()), alice_again(server.port()), stranger(server.port());
  const auto token = alice.hello("alice");
  bob.hello("bob");
  alice_again.hello("alice", token);  // one name, two connections
  CHECK(stranger.request({{"type", "ping"}})["type"] == "pong");  // never signs in

  const std::string table = start_two_seat_red_dog(alice, bob);

  // Two refusals, then the deal's two bets.
  CHECK(bet(alice, table, 1)["code"] == "not_your_turn");
  CHECK(alice.request({{"type", "no_such_request"}})["code"] == "bad_request");
  CHECK(bet(bob, table, 1)["type"] == "ok");
  CHECK(bet(alice, table, 1)["type"] == "ok");
  // And a table nobody starts.
  REQUIRE(bob.request({{"type", "create"}, {"game", "red_dog"}, {"seats", 2}})["type"] == "created");
  // Every push of those steps has come (the deal is over; nothing else moves).
  for (auto* client : {&alice, &bob, &alice_again, &stranger}) client->drain(500);

  const auto page = scrape(server);
  for (const auto& [name, family] : page.families()) {
    INFO(name);
    CHECK(family.declared);
    CHECK(!family.help.empty());
    CHECK(name.rfind("parlour_", 0) == 0);
  }
  // Build info: its version and commit as labels, always 1.
  const auto& build = page.family("parlour_build_info");
  REQUIRE(build.samples.size() == 1);
  CHECK(build.samples[0].value == 1);
  CHECK(build.samples[0].labels.count("version") == 1);
  CHECK(build.samples[0].labels.count("commit") == 1);

  // The two acts answered ok, of the game red_dog; the refusals by their codes.
  CHECK(value(page, "parlour_act_seconds", "parlour_act_seconds_count") == 2);
  CHECK(value(page, "parlour_act_seconds", "parlour_act_seconds_sum") > 0);
  CHECK(value(page, "parlour_actions_total", "parlour_actions_total", {{"game", "red_dog"}}) == 2);
  CHECK(value(page, "parlour_errors_total", "parlour_errors_total", {{"code", "not_your_turn"}}) == 1);
  CHECK(value(page, "parlour_errors_total", "parlour_errors_total", {{"code", "bad_request"}}) == 1);
  for (const auto& sample : page.family("parlour_errors_total").samples) {
    const auto& code = sample.labels.at("code");
    if (code != "not_your_turn" && code != "bad_request") CHECK_MESSAGE(sample.value == 0, code);
  }
  // Every state push the clients read, frame by frame and byte by byte.
  const auto [alice_pushes, alice_bytes] = pushes(alice);
  const auto [bob_pushes, bob_bytes] = pushes(bob);
  CHECK(alice_pushes > 0);
  CHECK(value(page, "parlour_push_bytes", "parlour_push_bytes_count") == alice_pushes + bob_pushes);
  CHECK(value(page, "parlour_push_bytes", "parlour_push_bytes_sum") == alice_bytes + bob_bytes);
  // Each commit's time and its batch's size are one observation each; the
  // joins, the start and the two bets are table steps.
  const auto commits = value(page, "parlour_commit_seconds", "parlour_commit_seconds_count");
  CHECK(commits >= 1);
  CHECK(value(page, "parlour_commit_batch_steps", "parlour_commit_batch_steps_count") == commits);
  CHECK(value(page, "parlour_commit_batch_steps", "parlour_commit_batch_steps_sum") >= 5);

  // Tables by state; names and connections.
  CHECK(value(page, "parlour_tables_by_state", "parlour_tables_by_state", {{"state", "playing"}}) == 1);
  CHECK(value(page, "parlour_tables_by_state", "parlour_tables_by_state", {{"state", "waiting"}}) == 1);
  CHECK(value(page, "parlour_tables_by_state", "parlour_tables_by_state", {{"state", "finished"}}) == 0);
  CHECK(value(page, "parlour_players_connected", "parlour_players_connected") == 2);
  CHECK(value(page, "parlour_connections_open", "parlour_connections_open") == 4);
  // Today's counters keep their names.
  for (const char* name : {"parlour_connections_total", "parlour_connections_refused_total",
                           "parlour_slow_clients_dropped_total", "parlour_accept_errors_total", "parlour_frames_in_total",
                           "parlour_frames_out_total", "parlour_socket_writes_total", "parlour_http_requests_total", "parlour_tables",
                           "parlour_tables_open", "parlour_tables_finished_in_memory", "parlour_queued_bytes",
                           "parlour_storage_transactions_total", "parlour_history_events_replayed_total"})
    CHECK_MESSAGE(page.has(name), name);
  CHECK(value(page, "parlour_connections_total", "parlour_connections_total") == 4);
}

// Issue 30: one connection's frames of a step leave in one write.
TEST_CASE("an actor's ok and its state leave in one socket write; the other player's state in another") {
  ServerProcess server(ServerProcess::fresh_db("one-write"), {"--deal-pause-ms", "600000"});
  WsClient alice(server.port()), bob(server.port());
  alice.hello("alice");
  bob.hello("bob");
  const std::string table = start_two_seat_red_dog(alice, bob);
  for (auto* client : {&alice, &bob}) client->drain(300);
  auto counted = [&] {
    const auto page = scrape(server);
    return std::pair{value(page, "parlour_frames_out_total", "parlour_frames_out_total"),
                     value(page, "parlour_socket_writes_total", "parlour_socket_writes_total")};
  };
  const auto [frames_before, writes_before] = counted();
  CHECK(bet(bob, table, 1)["type"] == "ok");
  for (auto* client : {&alice, &bob}) client->drain(300);
  const auto [frames_after, writes_after] = counted();
  // Bob: ok and state; Alice: state.
  CHECK(frames_after - frames_before == 3);
  CHECK(writes_after - writes_before == 2);
}

TEST_CASE("the Prometheus parser of these tests refuses what the format does not allow") {
  CHECK_NOTHROW(prometheus::Page("# HELP a_total A.\n# TYPE a_total counter\na_total{x=\"q\\\"\\\\\\n\"} 3\n"));
  CHECK_THROWS(prometheus::Page("a 1"));                                          // no final line feed
  CHECK_THROWS(prometheus::Page("1a 1\n"));                                       // a bad name
  CHECK_THROWS(prometheus::Page("a{x=\"\\t\"} 1\n"));                            // a bad escape
  CHECK_THROWS(prometheus::Page("a one\n"));                                      // a bad value
  CHECK_THROWS(prometheus::Page("# TYPE a gauge\n# TYPE a gauge\na 1\n"));        // TYPE twice
  CHECK_THROWS(prometheus::Page("a 1\nb 1\na{x=\"y\"} 2\n"));                     // a family split
  CHECK_THROWS(prometheus::Page("a 1\na 2\n"));                                   // a series twice
  CHECK_THROWS(prometheus::Page("# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\nh_sum 1\n"
                                "h_count 1\n"));                                  // not cumulative
  CHECK_THROWS(prometheus::Page("# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_sum 1\nh_count 1\n"));  // no +Inf
}

TEST_CASE("/readyz: ready while the store answers at the latest migration, never refused by a client's limits") {
  const auto db = ServerProcess::fresh_db("readyz");
  ServerProcess server(db, {"--trusted-proxy", "127.0.0.1/32", "--max-connections-per-ip", "1"});
  auto ready = server.get("/readyz");
  CHECK(ready.first == 200);
  CHECK(ready.second == "ready\n");

  // A store migrated past this server (a newer server's database): not ready, and why.
  {
    SQLite::Database raw(db, SQLite::OPEN_READWRITE);
    raw.setBusyTimeout(5000);
    raw.exec("INSERT INTO schema_version(version, description, applied_at) VALUES (99, 'from a newer server', 'now')");
  }
  ready = server.get("/readyz");
  CHECK(ready.first == 503);
  CHECK(ready.second.find("migration 99") != std::string::npos);
  CHECK(std::count(ready.second.begin(), ready.second.end(), '\n') == 1);
  {
    SQLite::Database raw(db, SQLite::OPEN_READWRITE);
    raw.setBusyTimeout(5000);
    raw.exec("DELETE FROM schema_version WHERE version = 99");
  }
  CHECK(server.get("/readyz").first == 200);

  // A client whose budget (one connection) is spent, and the proxy's own: its
  // readiness checks are answered all the same.
  std::unique_ptr<WsClient> held;
  for (int attempt = 0; !held; ++attempt) {
    try {
      held = std::make_unique<WsClient>(server.port(), 0, "/ws",
                                        std::vector<std::pair<std::string, std::string>>{{"X-Forwarded-For", "203.0.113.1"}});
    } catch (const std::exception&) {
      REQUIRE(attempt < 50);
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  const auto refused = exchange(server.port(), "GET /metrics HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.1\r\n\r\n");
  CHECK(refused.result_int() == 429);
  const auto probe = exchange(server.port(), "GET /readyz HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.1\r\n\r\n");
  CHECK(probe.result_int() == 200);
  CHECK(probe.body() == "ready\n");
}

TEST_CASE("/readyz on PostgreSQL: ready, then 503 and why while the database is down") {
  const std::string missing = PostgresCluster::unavailable_reason();
  if (!missing.empty()) {
    MESSAGE("skipped: " << missing);
    return;
  }
  PostgresCluster cluster({"fsync=off"});
  ServerProcess server(cluster.create_database("parlour_readyz"));
  CHECK(server.get("/readyz") == std::pair<int, std::string>{200, "ready\n"});
  cluster.stop();
  const auto down = server.get("/readyz");
  CHECK(down.first == 503);
  CHECK(down.second.rfind("the store ", 0) == 0);
  CHECK(std::count(down.second.begin(), down.second.end(), '\n') == 1);
  MESSAGE("with the database down: " << down.second);
  CHECK(server.get("/healthz").first == 200);  // up, not ready
}
