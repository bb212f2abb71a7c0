// SIGTERM's graceful drain (docs/metrics.md "Graceful drain") against the real
// binary: mid-deal, every step a client was told "ok" for is in the store
// after a restart, every WebSocket is closed with 1012 ("service restart",
// which the web client takes as "reconnect"), /readyz says "draining" and no
// new player is let in meanwhile, and the process exits 0 within the bound.
#include <doctest/doctest.h>

#include <chrono>
#include <csignal>
#include <optional>
#include <sys/wait.h>
#include <thread>

#include "tests/integration/server_process.h"

using parlour::test::Json;
using parlour::test::ServerProcess;
using parlour::test::WsClient;

namespace {

// With this seed seat 0 deals first at two seats: seat 1 bets first.
constexpr std::uint64_t seat_0_deals = 2;

Json bet_request(const std::string& table, std::int64_t id) {
  return {{"type", "act"}, {"id", id}, {"table", table}, {"action", {{"type", "bet"}, {"amount", 1}}}};
}

// The process's exit status once it has gone, waiting at most `limit`; nullopt if it is still there.
std::optional<int> exit_status_within(pid_t pid, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) return status;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return std::nullopt;
}

// Every frame until the server closes the connection; the seq of the `ok` answering `id`, if one came.
std::optional<std::int64_t> read_until_closed(WsClient& client, std::int64_t id) {
  std::optional<std::int64_t> acked;
  while (auto frame = client.read(5000))
    if (frame->value("re", std::int64_t{-1}) == id && (*frame)["type"] == "ok") acked = (*frame)["seq"].get<std::int64_t>();
  return acked;
}

}  // namespace

TEST_CASE("SIGTERM mid-deal drains: acknowledged steps kept, close 1012, /readyz draining, exit 0 within the bound") {
  const auto db = ServerProcess::fresh_db("drain");
  constexpr int bound_seconds = 5;
  ServerProcess server(db, {"--deal-pause-ms", "600000", "--drain-seconds", std::to_string(bound_seconds)});
  auto alice = std::make_unique<WsClient>(server.port());
  auto bob = std::make_unique<WsClient>(server.port());
  const auto alice_token = alice->hello("alice");
  bob->hello("bob");
  const auto created = alice->request({{"type", "create"}, {"game", "red_dog"}, {"seats", 2}, {"seed", seat_0_deals}});
  REQUIRE(created["type"] == "created");
  const std::string table = created["table"];
  REQUIRE(alice->request({{"type", "join"}, {"table", table}, {"seat", 0}})["seat"] == 0);
  REQUIRE(bob->request({{"type", "join"}, {"table", table}, {"seat", 1}})["seat"] == 1);
  REQUIRE(alice->request({{"type", "start"}, {"table", table}})["type"] == "ok");
  bob->state_where([](const Json& s) { return parlour::test::to_act(s); });
  const auto bob_ok = bob->request(bet_request(table, 0));
  REQUIRE(bob_ok["type"] == "ok");
  const std::int64_t bob_seq = bob_ok["seq"];
  CHECK(server.get("/readyz").first == 200);

  // Alice bets and the server is told to stop at once: her answer may come
  // before the goodbye, or her act may come too late to be taken; either way
  // nothing she was told "ok" for may be lost.
  alice->send_raw(bet_request(table, 77).dump());
  const auto signalled = std::chrono::steady_clock::now();
  REQUIRE(::kill(server.pid(), SIGTERM) == 0);
  // Neither client has read its goodbye yet, so the drain waits for them:
  // not ready (once the signal is handled), and no new player let in.
  auto during = server.get("/readyz");
  for (int i = 0; i < 300 && during.first == 200; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    during = server.get("/readyz");
  }
  CHECK(during.first == 503);
  CHECK(during.second == "draining\n");
  CHECK_THROWS(WsClient(server.port()));
  CHECK(server.get("/index.html").first == 503);
  CHECK(server.get("/healthz").first == 200);

  const auto alice_seq = read_until_closed(*alice, 77);
  read_until_closed(*bob, -1);
  CHECK(alice->close_code() == 1012);
  CHECK(bob->close_code() == 1012);
  const auto status = exit_status_within(server.pid(), std::chrono::seconds(bound_seconds + 5));
  REQUIRE_MESSAGE(status.has_value(), "the server did not exit after SIGTERM");
  const auto took = std::chrono::steady_clock::now() - signalled;
  CHECK(WIFEXITED(*status));
  CHECK(WEXITSTATUS(*status) == 0);
  CHECK(took < std::chrono::seconds(bound_seconds + 1));
  MESSAGE("drained and exited in " << std::chrono::duration_cast<std::chrono::milliseconds>(took).count()
                                   << " ms; alice's bet " << std::string(alice_seq ? "was" : "was not") << " acknowledged");

  // Started again on the same store: the table has every acknowledged step.
  alice.reset();
  bob.reset();
  server.start();
  WsClient again(server.port());
  again.hello("alice", alice_token);
  REQUIRE(again.request({{"type", "watch"}, {"table", table}})["type"] == "watching");
  const auto state = again.next_state();
  CHECK(state["seq"].get<std::int64_t>() >= bob_seq);
  if (alice_seq) CHECK(state["seq"].get<std::int64_t>() >= *alice_seq);
}

TEST_CASE("a drain whose clients never answer the goodbye still exits 0 within --drain-seconds") {
  ServerProcess server(ServerProcess::fresh_db("drain-deaf"), {"--drain-seconds", "1"});
  WsClient deaf(server.port());
  deaf.hello("deaf");
  const auto signalled = std::chrono::steady_clock::now();
  REQUIRE(::kill(server.pid(), SIGTERM) == 0);
  // The client reads nothing until the server is gone.
  const auto status = exit_status_within(server.pid(), std::chrono::seconds(10));
  REQUIRE(status.has_value());
  CHECK(WIFEXITED(*status));
  CHECK(WEXITSTATUS(*status) == 0);
  CHECK(std::chrono::steady_clock::now() - signalled < std::chrono::seconds(4));
  server.start();  // the fixture stops a process of its own at the end
}
