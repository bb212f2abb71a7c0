// Settle-up over real WebSockets and HTTP: two stacked Red Dog tables hosted by
// alice, each person's net, the fewest payments, bots and pools apart, CSV
// exports, every movement linked to its deal, and the bad inputs refused.
#include <doctest/doctest.h>

#include "rules/registry.h"
#include "tests/integration/server_process.h"

using parlour::test::Json;
using parlour::test::ServerProcess;
using parlour::test::WsClient;

namespace {

// With this seed seat 0 deals first at three seats.
constexpr std::uint64_t seat_0_deals = 2;

// Dealt one card at a time from the dealer's left (seats 1, 2, 0), then the
// three cards turned against them in betting order:
//   seat 1: KC 5D TH 9H 4S against 7H: the 9H beats it;
//   seat 2: 2C 3C 4C 7C 8C against KH: no heart, loses;
//   seat 0: 2S 3S 4D 5C 6C against 3D: the 4D beats it.
Json stacked_deck() {
  const std::vector<std::string> seat1 = {"KC", "5D", "TH", "9H", "4S"};
  const std::vector<std::string> seat2 = {"2C", "3C", "4C", "7C", "8C"};
  const std::vector<std::string> seat0 = {"2S", "3S", "4D", "5C", "6C"};
  Json deck = Json::array();
  for (int i = 0; i < 5; ++i) {
    deck.push_back(seat1[i]);
    deck.push_back(seat2[i]);
    deck.push_back(seat0[i]);
  }
  for (const char* turn : {"7H", "KH", "3D"}) deck.push_back(turn);
  return deck;
}

Json bet(WsClient& client, const std::string& table, std::int64_t amount) {
  return client.request({{"type", "act"}, {"table", table}, {"action", {{"type", "bet"}, {"amount", amount}}}});
}

std::string create_red_dog(WsClient& host) {
  auto created = host.request({{"type", "create"},
                               {"game", "red_dog"},
                               {"options", {{"ante", 5}}},
                               {"seats", 3},
                               {"seed", seat_0_deals},
                               {"deck", stacked_deck()}});
  REQUIRE(created["type"] == "created");
  return created["table"];
}

Json settle(WsClient& client, Json tables = nullptr) {
  Json request = {{"type", "settle"}};
  if (!tables.is_null()) request["tables"] = std::move(tables);
  return client.request(request);
}

}  // namespace

TEST_CASE("settle-up over WebSockets and HTTP: nets, fewest payments, bots and pools apart, CSV, deal links") {
  REQUIRE(parlour::rules::draw_first_dealer(seat_0_deals, 3) == 0);
  ServerProcess server(ServerProcess::fresh_db("it-settle"),
                       {"--allow-stacked-deck", "--deal-pause-ms", "60000", "--bot-delay-ms", "20"});
  WsClient alice(server.port()), bob(server.port()), carol(server.port()), dave(server.port());
  const auto alice_token = alice.hello("alice");
  bob.hello("bob");
  const auto carol_token = carol.hello("carol");
  dave.hello("dave");

  // Nothing hosted yet: tonight is empty, and nobody owes anybody.
  auto empty = settle(alice);
  REQUIRE(empty["type"] == "settled");
  CHECK(empty["tables"].empty());
  CHECK(empty["payments"].empty());
  CHECK(empty["since"].is_string());

  // Table 1: alice (seat 0, dealer), bob, carol; ante 5 each, pot 15.
  // bob bets 5 and wins (+5 from the pot), carol bets 4 and loses, alice bets 2
  // and wins. Ended between deals, the pot of 12 is shared out: 4 each.
  // alice -5 +2 +4 = +1, bob -5 +5 +4 = +4, carol -5 -4 +4 = -5.
  const auto first = create_red_dog(alice);
  REQUIRE(alice.request({{"type", "join"}, {"table", first}, {"seat", 0}})["seat"] == 0);
  REQUIRE(bob.request({{"type", "join"}, {"table", first}, {"seat", 1}})["seat"] == 1);
  REQUIRE(carol.request({{"type", "join"}, {"table", first}, {"seat", 2}})["seat"] == 2);
  REQUIRE(alice.request({{"type", "start"}, {"table", first}})["type"] == "ok");
  CHECK(bet(bob, first, 5)["seq"] == 2);
  CHECK(bet(carol, first, 4)["seq"] == 3);
  CHECK(bet(alice, first, 2)["seq"] == 4);
  REQUIRE(alice.request({{"type", "end"}, {"table", first}})["type"] == "ok");
  alice.state_where([&](const Json& s) { return s["table"] == first && s["status"] == "finished"; });

  auto one = settle(alice, Json::array({first}));
  REQUIRE(one["type"] == "settled");
  CHECK(one["nets"] == Json::parse(R"([{"player":"bob","net":4},{"player":"alice","net":1},
                                         {"player":"carol","net":-5}])"));
  // One group of three: two payments.
  CHECK(one["payments"] == Json::parse(R"([{"from":"carol","to":"bob","amount":4},
                                             {"from":"carol","to":"alice","amount":1}])"));
  CHECK(one["bots"].empty());
  CHECK(one["pools"].empty());
  CHECK(one["pools_left"] == 0);
  CHECK(one["method"] == "exact");
  REQUIRE(one["tables"].size() == 1);
  CHECK(one["tables"][0]["table"] == first);
  CHECK(one["tables"][0]["game"] == "red_dog");
  CHECK(one["tables"][0]["status"] == "finished");
  CHECK_FALSE(one.contains("since"));

  // Table 2: alice (seat 0, dealer), dave, a bot; the same stacked deal. dave
  // bets 5 and wins, the bot bets what it likes and loses, alice bets 2 and wins.
  // The table goes on: the pot stays in the pool.
  // alice -5 +2 = -3, dave -5 +5 = 0; the bot -5 - b; the pot 15 -5 + b -2 = 8 + b.
  const auto second = create_red_dog(alice);
  REQUIRE(alice.request({{"type", "join"}, {"table", second}, {"seat", 0}})["seat"] == 0);
  REQUIRE(dave.request({{"type", "join"}, {"table", second}, {"seat", 1}})["seat"] == 1);
  const auto seated_bot = alice.request({{"type", "bot"}, {"table", second}, {"seat", 2}});
  REQUIRE(seated_bot["type"] == "ok");
  REQUIRE(alice.request({{"type", "start"}, {"table", second}})["type"] == "ok");
  CHECK(bet(dave, second, 5)["seq"] == 2);
  alice.state_where([&](const Json& s) { return s["table"] == second && s["to_act"] == Json::array({0}); });
  CHECK(bet(alice, second, 2)["seq"] == 4);
  alice.state_where([&](const Json& s) { return s["table"] == second && s.value("view", Json::object()).value("phase", "") == "deal_over"; });

  // Tonight: both of alice's tables. Persons: alice +1 -3 = -2, bob +4,
  // carol -5, dave 0; they are 3 short: what the bot lost stayed in the pot.
  // With "the house" (bots and pools) at +3 there is one zero-sum group of four,
  // so three lines: carol pays bob 4, and alice's 2 and carol's 1 went to the house.
  auto tonight = settle(alice);
  REQUIRE(tonight["type"] == "settled");
  REQUIRE(tonight["tables"].size() == 2);
  CHECK(tonight["tables"][0]["table"] == first);
  CHECK(tonight["tables"][1]["table"] == second);
  CHECK(tonight["nets"] == Json::parse(R"([{"player":"bob","net":4},{"player":"dave","net":0},
                                             {"player":"alice","net":-2},{"player":"carol","net":-5}])"));
  CHECK(tonight["payments"] == Json::parse(R"([{"from":"carol","to":"bob","amount":4}])"));
  CHECK(tonight["to_bots_and_pools"] ==
        Json::parse(R"([{"player":"alice","amount":2},{"player":"carol","amount":1}])"));
  CHECK(tonight["from_bots_and_pools"].empty());
  REQUIRE(tonight["bots"].size() == 1);
  CHECK(tonight["bots"][0]["player"] == seated_bot["player"]);
  const auto bot_lost = -tonight["bots_net"].get<std::int64_t>() - 5;
  CHECK(bot_lost >= 1);
  CHECK(tonight["pools"] == Json::array({{{"table", second}, {"pool", "pot"}, {"left", 8 + bot_lost}}}));
  CHECK(tonight["pools_left"] == 8 + bot_lost);
  // Somebody else's tonight is his own tables only: bob hosted none.
  CHECK(settle(bob)["tables"].empty());

  // The same over HTTP, as JSON and as CSV.
  auto [status, body] = server.get("/api/settle?tables=" + first, alice_token);
  REQUIRE(status == 200);
  CHECK(Json::parse(body)["payments"] == one["payments"]);
  CHECK(Json::parse(server.get("/api/settle", carol_token).second)["tables"].empty());
  std::string content_type;
  auto [csv_status, csv] = server.get("/api/settle?tables=" + first + "," + first + "&format=csv", alice_token,
                                      &content_type);
  CHECK(csv_status == 200);
  CHECK(content_type == "text/csv; charset=utf-8");
  CHECK(csv == "kind,from,to,amount,table,game\r\n"
               "table,alice,,," + first + ",red_dog\r\n"
               "net,bob,,4,,\r\n"
               "net,alice,,1,,\r\n"
               "net,carol,,-5,,\r\n"
               "payment,carol,bob,4,,\r\n"
               "payment,carol,alice,1,,\r\n");

  // Carol's ledger links each movement to the step and deal that caused it:
  // her ante at the start (seq 1), her lost bet (seq 3), her share at the close (seq 5).
  auto ledger = carol.request({{"type", "ledger"}});
  REQUIRE(ledger["entries"].size() == 4);
  CHECK(ledger["entries"][0]["amount"] == 4);
  CHECK(ledger["entries"][0]["seq"] == 5);
  CHECK(ledger["entries"][0]["deal"] == 1);
  CHECK(ledger["entries"][0]["memo"] == "Red Dog: the table ends: the pot of 12 is shared equally among 3");
  CHECK(ledger["entries"][1]["amount"] == -4);
  CHECK(ledger["entries"][1]["memo"] == "Red Dog: no card of carol's beat the K♥: the bet of 4 goes into the pot");
  CHECK(ledger["entries"][1]["seq"] == 3);
  CHECK(ledger["entries"][1]["deal"] == 1);
  CHECK(ledger["entries"][2]["amount"] == -5);
  CHECK(ledger["entries"][2]["seq"] == 1);
  CHECK(ledger["entries"][2]["memo"] == "Red Dog: carol's ante of 5 into the pot");
  // The winner's side names the card that beat: bob's 9♥ against the 7♥.
  auto bobs = bob.request({{"type", "ledger"}, {"limit", 3}});
  REQUIRE(bobs["entries"].size() == 3);
  CHECK(bobs["entries"][1]["memo"] == "Red Dog: bob's 9♥ beat the 7♥: the pot pays the bet of 5");
  CHECK(ledger["entries"][3]["memo"] == "starting chips");
  CHECK(ledger["entries"][3]["seq"].is_null());
  CHECK(ledger["entries"][3]["deal"].is_null());
  auto [ledger_status, ledger_csv] = server.get("/api/players/carol/ledger?format=csv", alice_token, &content_type);
  CHECK(ledger_status == 200);
  CHECK(content_type == "text/csv; charset=utf-8");
  CHECK(ledger_csv.rfind("entry,time,amount,balance,table,game,deal,seq,memo\r\n", 0) == 0);
  CHECK(std::count(ledger_csv.begin(), ledger_csv.end(), '\n') >= 5);

  // Bad input: refused, with its code, and nothing changes.
  CHECK(settle(alice, Json::array({"t-nowhere"}))["code"] == "not_found");
  CHECK(settle(alice, Json::array({first, "t-nowhere"}))["code"] == "not_found");
  CHECK(settle(alice, Json::array())["code"] == "bad_request");
  Json too_many = Json::array();
  for (int i = 0; i < 51; ++i) too_many.push_back("t" + std::to_string(i));
  CHECK(settle(alice, too_many)["code"] == "bad_request");
  CHECK(settle(alice, "t1")["code"] == "bad_request");
  CHECK(settle(alice, Json::array({5}))["code"] == "bad_request");
  CHECK(alice.request({{"type", "settle"}, {"players", Json::array({"bob"})}})["code"] == "bad_request");
  // A private table is nobody else's business: to them it does not exist.
  auto hidden = bob.request({{"type", "create"}, {"game", "red_dog"}, {"private", true}});
  REQUIRE(hidden["type"] == "created");
  CHECK(settle(alice, Json::array({hidden["table"]}))["code"] == "not_found");
  CHECK(settle(bob, Json::array({hidden["table"]}))["type"] == "settled");
  CHECK(server.get("/api/settle").first == 401);
  CHECK(server.get("/api/settle?tables=t-nowhere", alice_token).first == 404);
  CHECK(server.get("/api/settle?tables=", alice_token).first == 400);
  CHECK(server.get("/api/settle?tables=" + first + ",", alice_token).first == 400);
  CHECK(server.get("/api/settle?tables=," + first, alice_token).first == 400);
  CHECK(server.get("/api/settle?format=xml", alice_token).first == 400);
  CHECK(server.get("/api/players/carol/ledger?format=pdf", alice_token).first == 400);
  std::string many;
  for (int i = 0; i < 51; ++i) many += (i ? "," : "") + std::string("t") + std::to_string(i);
  CHECK(server.get("/api/settle?tables=" + many, alice_token).first == 400);
  CHECK(settle(alice, Json::array({first}))["payments"] == one["payments"]);
}

TEST_CASE("CSV exports: a name a spreadsheet would take for a formula is text; chip amounts stay numbers") {
  ServerProcess server(ServerProcess::fresh_db("settle-csv-formula"), {"--deal-pause-ms", "0"});
  // Names are letters, digits, _ and -, so a leading - is what one can start a formula with.
  WsClient minus(server.port()), cell(server.port());
  const auto token = minus.hello("-2-3");
  cell.hello("-A1");
  auto created = minus.request({{"type", "create"}, {"game", "red_dog"}, {"options", {{"ante", 5}}}, {"seats", 2}});
  REQUIRE(created["type"] == "created");
  const std::string table = created["table"];
  REQUIRE(minus.request({{"type", "join"}, {"table", table}, {"seat", 0}})["type"] == "joined");
  REQUIRE(cell.request({{"type", "join"}, {"table", table}, {"seat", 1}})["type"] == "joined");
  REQUIRE(minus.request({{"type", "start"}, {"table", table}})["type"] == "ok");  // both ante 5 into the pot
  auto [status, csv] = server.get("/api/settle?tables=" + table + "&format=csv", token);
  REQUIRE(status == 200);
  CHECK(csv.find("\r\ntable,'-2-3,,," + table + ",red_dog\r\n") != std::string::npos);
  CHECK(csv.find("\r\nnet,'-2-3,,-5,,\r\n") != std::string::npos);
  CHECK(csv.find("\r\nnet,'-A1,,-5,,\r\n") != std::string::npos);
  CHECK(csv.find(",-2-3,") == std::string::npos);
  CHECK(csv.find(",-A1,") == std::string::npos);
  auto [ledger_status, ledger] = server.get("/api/players/-2-3/ledger?format=csv", token);
  REQUIRE(ledger_status == 200);
  CHECK(ledger.find(",-5,995,") != std::string::npos);  // the ante and the balance after it, as numbers
}
