// The real parlour binary on a real PostgreSQL cluster (started by this test,
// tests/support/postgres_cluster.h): players sign up, a Red Dog deal is played
// with a bot over WebSockets, and after a restart the table and the ledger are
// as they were. Skipped, with a message, where PostgreSQL is not installed.
#include <doctest/doctest.h>

#include <memory>

#include "rules/registry.h"
#include "tests/integration/server_process.h"
#include "tests/support/postgres_cluster.h"

using parlour::support::PostgresCluster;
using parlour::test::Json;
using parlour::test::ServerProcess;
using parlour::test::WsClient;

namespace {

// With this seed seat 0 deals first at three seats (as test_integration.cpp).
constexpr std::uint64_t seat_0_deals = 2;

Json bet(WsClient& client, const std::string& table, std::int64_t amount) {
  return client.request({{"type", "act"}, {"table", table}, {"action", {{"type", "bet"}, {"amount", amount}}}});
}

std::int64_t chips_of(const Json& state, const std::string& player) {
  for (const auto& p : state["players"])
    if (p["player"] == player) return p["chips"];
  FAIL("no player " << player << " in " << state["players"].dump());
  return 0;
}

}  // namespace

TEST_CASE("parlour on PostgreSQL: sign-ups, a Red Dog deal with a bot, and a restart keep the table and the ledger") {
  const std::string missing = PostgresCluster::unavailable_reason();
  if (!missing.empty()) {
    MESSAGE("skipped: " << missing);
    return;
  }
  PostgresCluster cluster({"fsync=off"});
  const std::string url = cluster.create_database("parlour_it");
  ServerProcess server(url, {"--allow-stacked-deck", "--deal-pause-ms", "200"});

  WsClient alice(server.port()), bob(server.port());
  const std::string alice_token = alice.hello("alice");
  bob.hello("bob");

  REQUIRE(parlour::rules::draw_first_dealer(seat_0_deals, 3) == 0);
  // Dealt from the dealer's (alice's) left: bob, the bot, alice; then the turned cards.
  const std::vector<std::string> bob_hand = {"KC", "5D", "TH", "9H", "4S"};
  const std::vector<std::string> bot_hand = {"2C", "3C", "4C", "7C", "8C"};
  const std::vector<std::string> alice_hand = {"2S", "3S", "4D", "5C", "6C"};
  Json deck = Json::array();
  for (int i = 0; i < 5; ++i) {
    deck.push_back(bob_hand[i]);
    deck.push_back(bot_hand[i]);
    deck.push_back(alice_hand[i]);
  }
  for (const char* turn : {"7H", "KH", "3D"}) deck.push_back(turn);
  const Json created = alice.request({{"type", "create"}, {"game", "red_dog"}, {"options", {{"ante", 5}}},
                                      {"seats", 3}, {"seed", seat_0_deals}, {"deck", deck}});
  REQUIRE(created["type"] == "created");
  const std::string table = created["table"];
  REQUIRE(alice.request({{"type", "join"}, {"table", table}, {"seat", 0}})["seat"] == 0);
  REQUIRE(bob.request({{"type", "join"}, {"table", table}, {"seat", 1}})["seat"] == 1);
  REQUIRE(alice.request({{"type", "bot"}, {"table", table}})["type"] == "ok");
  REQUIRE(alice.request({{"type", "start"}, {"table", table}})["type"] == "ok");

  CHECK(bet(bob, table, 5)["seq"] == 2);  // 7H: bob's 9H wins 5
  // The bot (seat 2) bets on its own; then it is alice's turn.
  const Json alice_turn = alice.state_where([](const Json& s) { return s["to_act"] == Json::array({0}); });
  CHECK(alice_turn["seq"] == 3);
  CHECK(bet(alice, table, 2)["seq"] == 4);  // 3D: alice's 4D wins 2
  const Json settled = alice.state_where([](const Json& s) { return s["seq"] == 4; });
  CHECK(settled["result"]["deal"] == 1);
  CHECK(chips_of(settled, "alice") == 997);
  CHECK(chips_of(settled, "bob") == 1000);
  std::int64_t chips_and_pot = settled["view"]["pools"]["pot"];
  for (const auto& p : settled["players"]) chips_and_pot += p["chips"].get<std::int64_t>();
  CHECK(chips_and_pot == 3 * 1000);

  // Deal 2 begins by itself; bob deals, so the bot bets first, then alice.
  const Json before = alice.state_where(
      [](const Json& s) { return s.value("view", Json::object()).value("deal", 0) == 2 && s["to_act"] == Json::array({0}); });
  const auto alice_ledger = server.get("/api/players/alice/ledger?limit=10", alice_token);
  const auto bob_ledger = server.get("/api/players/bob/ledger?limit=10", alice_token);
  REQUIRE(alice_ledger.first == 200);
  const Json alice_entries = Json::parse(alice_ledger.second)["entries"];
  REQUIRE(alice_entries.size() == 3);  // starting chips, the ante, the bet won
  CHECK(alice_entries[0]["amount"] == 2);
  CHECK(alice_entries[1]["amount"] == -5);
  CHECK(alice_entries[2]["amount"] == 1000);

  server.stop();
  server.start();

  WsClient alice_again(server.port());
  alice_again.hello("alice", alice_token);
  const Json rejoined = alice_again.request({{"type", "join"}, {"table", table}});
  CHECK(rejoined["type"] == "joined");
  CHECK(rejoined["seat"] == 0);
  const Json resumed = alice_again.next_state();
  CHECK(resumed["seq"] == before["seq"]);
  CHECK(resumed["view"] == before["view"]);
  // Everything about the players but who is connected now (bob is not, yet).
  Json players_then = before["players"];
  Json players_now = resumed["players"];
  for (Json* players : {&players_then, &players_now})
    for (Json& p : *players) p.erase("connected");
  CHECK(players_now == players_then);
  CHECK(server.get("/api/players/alice/ledger?limit=10", alice_token) == alice_ledger);
  CHECK(server.get("/api/players/bob/ledger?limit=10", alice_token) == bob_ledger);
  // Play goes on where it stopped, and names stay taken.
  CHECK(bet(alice_again, table, 1)["seq"] == before["seq"].get<std::int64_t>() + 1);
  WsClient bob_again(server.port());
  CHECK(bob_again.request({{"type", "hello"}, {"name", "BOB"}})["code"] == "unauthorized");
}
