// The real parlour binary on a loopback port, real WebSocket clients, a whole
// Red Dog deal with a stacked deck, the ledger over HTTP, hidden cards never
// leaking, recovery after SIGKILL, and every kind of bad input.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <set>
#include <thread>

#include "rules/registry.h"
#include "tests/integration/server_process.h"

using parlour::test::Json;
using parlour::test::ServerProcess;
using parlour::test::WsClient;

namespace {

// The first dealer is drawn from the table's seed; with this seed seat 0 deals
// first at two or three seats, as the tests below are written.
constexpr std::uint64_t seat_0_deals = 2;

Json act(WsClient& client, const std::string& table, std::int64_t amount) {
  return client.request({{"type", "act"}, {"table", table}, {"action", {{"type", "bet"}, {"amount", amount}}}});
}

Json state_at(WsClient& client, std::int64_t seq) {
  return client.state_where([&](const Json& s) { return s["seq"] == seq; });
}

// Does any frame about deal 1 mention one of these cards?
bool deal_one_frames_mention(const WsClient& client, const std::set<std::string>& cards) {
  for (const auto& text : client.frames()) {
    auto frame = Json::parse(text);
    if (frame["type"] == "state" && frame["view"].value("deal", 1) != 1) continue;
    for (const auto& card : cards)
      if (text.find('"' + card + '"') != std::string::npos) return true;
  }
  return false;
}

}  // namespace

// On one I/O thread a table's and a connection's handlers run on the loop
// itself, on more on strands of their own (server/common/serial_executor.h):
// the tests that play whole games run both ways.
TEST_CASE("three players play a stacked Red Dog deal; hidden cards stay hidden; the table survives SIGKILL") {
  std::string threads;
  SUBCASE("one I/O thread") { threads = "1"; }
  SUBCASE("two I/O threads") { threads = "2"; }
  CAPTURE(threads);
  ServerProcess server(ServerProcess::fresh_db("it-red-dog-" + threads), {"--allow-stacked-deck", "--threads", threads});
  WsClient alice(server.port()), bob(server.port()), carol(server.port()), dave(server.port());
  const auto alice_token = alice.hello("alice");
  const auto bob_token = bob.hello("bob");
  carol.hello("carol");
  dave.hello("dave");

  REQUIRE(parlour::rules::draw_first_dealer(seat_0_deals, 3) == 0);
  // Dealt one at a time from the dealer's (alice's) left: bob, carol, alice.
  const std::vector<std::string> bob_hand = {"KC", "5D", "TH", "9H", "4S"};
  const std::vector<std::string> carol_hand = {"2C", "3C", "4C", "7C", "8C"};
  const std::vector<std::string> alice_hand = {"2S", "3S", "4D", "5C", "6C"};
  Json deck = Json::array();
  for (int i = 0; i < 5; ++i) {
    deck.push_back(bob_hand[i]);
    deck.push_back(carol_hand[i]);
    deck.push_back(alice_hand[i]);
  }
  for (const char* turn : {"7H", "KH", "3D"}) deck.push_back(turn);

  auto created = alice.request(
      {{"type", "create"}, {"game", "red_dog"}, {"options", {{"ante", 5}}}, {"seats", 3}, {"seed", seat_0_deals},
       {"deck", deck}});
  REQUIRE(created["type"] == "created");
  const std::string table = created["table"];
  CHECK(alice.request({{"type", "join"}, {"table", table}, {"seat", 0}})["seat"] == 0);
  CHECK(bob.request({{"type", "join"}, {"table", table}, {"seat", 1}})["seat"] == 1);
  CHECK(carol.request({{"type", "join"}, {"invite", created["invite"]}})["seat"] == 2);
  CHECK(dave.request({{"type", "watch"}, {"table", table}})["type"] == "watching");

  auto tables = dave.request({{"type", "tables"}});
  CHECK(tables["tables"].size() == 1);
  CHECK(tables["tables"][0]["seats"][2]["player"] == "carol");

  REQUIRE(alice.request({{"type", "start"}, {"table", table}})["type"] == "ok");
  auto bob_view = state_at(bob, 1);
  CHECK(bob_view["status"] == "playing");
  CHECK(bob_view["view"]["pools"]["pot"] == 15);
  CHECK(bob_view["view"]["seats"][1]["cards"] == bob_hand);
  CHECK(bob_view["view"]["seats"][2]["cards"] == Json::array({"??", "??", "??", "??", "??"}));
  CHECK(bob_view["to_act"] == Json::array({1}));
  CHECK(bob_view["legal"] == Json::array({{{"type", "bet"}, {"amount", {{"min", 1}, {"max", 15}}}}}));
  CHECK(state_at(carol, 1)["legal"].empty());

  CHECK(act(carol, table, 1)["code"] == "not_your_turn");
  CHECK(act(bob, table, 16)["code"] == "illegal_action");
  CHECK(act(bob, table, 5)["seq"] == 2);  // 7H: bob's 9H wins
  auto after_bob = state_at(carol, 2);
  CHECK(after_bob["view"]["seats"][1]["shown"] == "9H");
  CHECK(after_bob["view"]["pools"]["pot"] == 10);
  CHECK(act(carol, table, 4)["seq"] == 3);  // KH: carol holds no heart
  CHECK(act(alice, table, 2)["seq"] == 4);  // 3D: alice's 4D wins
  auto settled = state_at(dave, 4);
  CHECK(settled["result"]["deal"] == 1);
  CHECK(settled["result"]["seats"][2]["chips"] == -9);
  auto chips_of = [](const Json& state) {
    std::vector<std::int64_t> out;
    for (const auto& p : state["players"]) out.push_back(p["chips"]);
    return out;
  };
  CHECK(chips_of(settled) == std::vector<std::int64_t>{997, 1000, 991});

  // Deal 2 starts by itself: bob deals, carol bets first, the pot of 12 carries over.
  auto deal_two = state_at(carol, 5);
  CHECK(deal_two["view"]["deal"] == 2);
  CHECK(deal_two["view"]["dealer"] == 1);
  CHECK(deal_two["view"]["pools"]["pot"] == 12);
  CHECK(deal_two["to_act"] == Json::array({2}));

  // No frame about deal 1 ever showed a player another's unshown cards.
  CHECK_FALSE(deal_one_frames_mention(bob, {"2C", "3C", "4C", "7C", "8C", "2S", "3S", "5C", "6C"}));
  CHECK_FALSE(deal_one_frames_mention(carol, {"KC", "5D", "TH", "4S", "2S", "3S", "5C", "6C"}));
  CHECK_FALSE(deal_one_frames_mention(alice, {"KC", "5D", "TH", "4S", "2C", "3C", "4C", "7C", "8C"}));
  CHECK_FALSE(deal_one_frames_mention(dave, {"KC", "5D", "TH", "4S", "2C", "3C", "4C", "7C", "8C", "2S", "3S", "5C", "6C"}));

  // The ledger over HTTP, newest first.
  CHECK(server.get("/api/players/carol/ledger").first == 401);
  auto [status, body] = server.get("/api/players/carol/ledger?limit=10", alice_token);
  REQUIRE(status == 200);
  auto ledger = Json::parse(body);
  CHECK(ledger["balance"] == 991);
  REQUIRE(ledger["entries"].size() == 3);
  CHECK(ledger["entries"][0]["amount"] == -4);
  CHECK(ledger["entries"][0]["table"] == table);
  CHECK(ledger["entries"][1]["amount"] == -5);
  CHECK(ledger["entries"][2]["amount"] == 1000);
  CHECK(ledger["entries"][2]["balance"] == 1000);
  auto over_ws = dave.request({{"type", "ledger"}, {"player", "carol"}});
  CHECK(over_ws["balance"] == 991);
  CHECK(over_ws["entries"] == ledger["entries"]);

  // Mid-deal: carol bets, then the server is killed without warning.
  const auto carol_bet = act(carol, table, 1);
  REQUIRE(carol_bet["seq"] == 6);
  auto before_kill = state_at(alice, 6);
  const auto ledger_before = server.get("/api/players/alice/ledger", alice_token).second;
  server.kill_hard();

  server.start();
  WsClient alice_again(server.port());
  alice_again.hello("alice", alice_token);
  auto rejoined = alice_again.request({{"type", "join"}, {"table", table}});
  CHECK(rejoined["type"] == "joined");
  CHECK(rejoined["seat"] == 0);
  auto resumed = alice_again.next_state();
  CHECK(resumed["seq"] == 6);
  CHECK(resumed["view"] == before_kill["view"]);
  CHECK(chips_of(resumed) == chips_of(before_kill));
  CHECK(resumed["to_act"] == Json::array({0}));
  CHECK(server.get("/api/players/alice/ledger", alice_token).second == ledger_before);
  CHECK(act(alice_again, table, 1)["seq"] == 7);

  // The host ends the table after the deal; the pot is shared out.
  // The end is logged (seq 8), so that a restart before the deal is over still ends the table.
  const auto ended = alice_again.request({{"type", "end"}, {"table", table}});
  CHECK(ended["type"] == "ok");
  CHECK(ended["seq"] == 8);
  WsClient bob_again(server.port());
  CHECK(bob_again.request({{"type", "hello"}, {"name", "bob"}})["code"] == "unauthorized");
  bob_again.hello("bob", bob_token);
  CHECK(bob_again.request({{"type", "join"}, {"table", table}})["seat"] == 1);
  CHECK(act(bob_again, table, 1)["seq"] == 9);
  auto finished = bob_again.state_where([](const Json& s) { return s["status"] == "finished"; });
  CHECK(finished["view"]["pools"]["pot"] == 0);
  std::int64_t total = 0;
  for (auto chips : chips_of(finished)) total += chips;
  CHECK(total == 3000);
  CHECK(bob_again.request({{"type", "tables"}})["tables"].empty());
}

TEST_CASE("bad input gets its error code and changes nothing") {
  ServerProcess server(ServerProcess::fresh_db("it-bad-input"), {"--starting-chips", "10"});
  WsClient alice(server.port());

  CHECK(alice.request({{"type", "games"}})["code"] == "unauthorized");
  const auto token = alice.hello("alice");
  WsClient intruder(server.port());
  CHECK(intruder.request({{"type", "hello"}, {"name", "ALICE"}})["code"] == "unauthorized");
  CHECK(intruder.request({{"type", "hello"}, {"name", "alice"}, {"token", "nope"}})["code"] == "unauthorized");
  CHECK(intruder.request({{"type", "hello"}, {"name", "bot-x"}})["code"] == "name_taken");
  WsClient bob(server.port()), carol(server.port());
  bob.hello("bob");
  carol.hello("carol");

  alice.send_raw("{not json");
  CHECK(alice.read()->at("code") == "bad_request");
  alice.send_raw("[1,2]");
  CHECK(alice.read()->at("code") == "bad_request");
  CHECK(alice.request({{"type", "teleport"}})["code"] == "bad_request");
  CHECK(alice.request({{"type", "tables"}, {"colour", "red"}})["code"] == "bad_request");
  CHECK(alice.request({{"type", "join"}, {"table", 5}})["code"] == "bad_request");
  CHECK(alice.request({{"type", "create"}, {"game", "red_dog"}, {"options", {{"colour", 1}}}})["code"] == "bad_request");
  CHECK(alice.request({{"type", "create"}, {"game", "red_dog"}, {"options", {{"hand_size", 7}}}})["code"] == "bad_request");
  CHECK(alice.request({{"type", "create"}, {"game", "snap"}})["code"] == "not_found");
  CHECK(alice.request({{"type", "create"}, {"game", "red_dog"}, {"deck", {"AS"}}})["code"] == "forbidden");
  CHECK(alice.request({{"type", "join"}, {"table", "t-none"}})["code"] == "not_found");
  CHECK(alice.request({{"type", "ledger"}, {"player", "nobody"}})["code"] == "not_found");

  REQUIRE(parlour::rules::draw_first_dealer(seat_0_deals, 2) == 0);
  auto created = alice.request(
      {{"type", "create"}, {"game", "red_dog"}, {"options", {{"ante", 4}}}, {"seats", 2}, {"seed", seat_0_deals}});
  const std::string table = created["table"];
  CHECK(alice.request({{"type", "start"}, {"table", table}})["code"] == "conflict");
  CHECK(bob.request({{"type", "start"}, {"table", table}})["code"] == "forbidden");
  CHECK(bob.request({{"type", "bot"}, {"table", table}})["code"] == "forbidden");
  alice.request({{"type", "join"}, {"table", table}});
  bob.request({{"type", "join"}, {"table", table}});
  CHECK(carol.request({{"type", "join"}, {"table", table}})["code"] == "table_full");
  CHECK(act(bob, table, 1)["code"] == "conflict");  // not started
  REQUIRE(alice.request({{"type", "start"}, {"table", table}})["type"] == "ok");
  CHECK(alice.request({{"type", "start"}, {"table", table}})["code"] == "conflict");
  CHECK(act(carol, table, 1)["code"] == "forbidden");  // not seated
  CHECK(act(alice, table, 1)["code"] == "not_your_turn");
  // Pot 8, bob has 6 chips left after the ante.
  CHECK(act(bob, table, 7)["code"] == "insufficient_chips");
  CHECK(act(bob, table, 9)["code"] == "illegal_action");
  CHECK(bob.request({{"type", "act"}, {"table", table}, {"action", {{"type", "fold"}}}})["code"] == "illegal_action");
  const auto seq_before = bob.state_where([](const Json& s) { return s["status"] == "playing"; })["seq"];
  const auto ledger_before = server.get("/api/players/bob/ledger", token).second;

  // A flood: the server answers rate_limited and stays up.
  std::string ping = Json({{"type", "ping"}}).dump();
  for (int i = 0; i < 1000; ++i) carol.send_raw(ping);
  int limited = 0, pongs = 0;
  while (auto frame = carol.read(1000)) {
    if ((*frame)["type"] == "pong") ++pongs;
    if (frame->value("code", "") == "rate_limited") ++limited;
    if (pongs + limited == 1000) break;
  }
  CHECK(limited > 0);
  CHECK(pongs > 0);

  // A frame over 64 KiB closes with 1009; a binary frame with 1003.
  WsClient big(server.port());
  big.send_raw(std::string(70 * 1024, ' '));
  CHECK(big.close_code() == 1009);
  WsClient binary(server.port());
  binary.send_raw("{\"type\":\"ping\"}", true);
  CHECK(binary.close_code() == 1003);

  // Nothing changed: same seq, same ledger; the server still answers.
  CHECK(bob.request({{"type", "ping"}})["type"] == "pong");
  CHECK(server.get("/api/players/bob/ledger", token).second == ledger_before);
  CHECK(act(bob, table, 1)["seq"] == seq_before.get<int>() + 1);
  CHECK(server.get("/healthz").first == 200);
}

TEST_CASE("the browser client is served at / and bots play Red Dog to the end") {
  ServerProcess server(ServerProcess::fresh_db("it-bots"));
  auto [status, body] = server.get("/");
  CHECK(status == 200);
  CHECK(body.find("<html") != std::string::npos);
  CHECK(server.get("/metrics").second.find("parlour_connections_total") != std::string::npos);

  WsClient host(server.port());
  host.hello("host");
  auto created = host.request({{"type", "create"}, {"game", "red_dog"}, {"options", {{"deals", 3}}}, {"seats", 3}});
  const std::string table = created["table"];
  for (int i = 0; i < 3; ++i) CHECK(host.request({{"type", "bot"}, {"table", table}})["type"] == "ok");
  CHECK(host.request({{"type", "watch"}, {"table", table}})["type"] == "watching");
  REQUIRE(host.request({{"type", "start"}, {"table", table}})["type"] == "ok");
  auto final_state = host.state_where([](const Json& s) { return s["status"] == "finished"; }, 20000);
  std::int64_t total = 0;
  for (const auto& p : final_state["players"]) total += p["chips"].get<std::int64_t>();
  CHECK(total == 3 * 1000);  // the pot was shared out: no chip lost or made
  CHECK(final_state["view"]["pools"]["pot"] == 0);
}

// PROTOCOL.md version 1 for a client that asks for nothing; the smaller pushes
// only for one that asks for `deltas` (docs/protocol.md "Features").
TEST_CASE("a client that asks for no features gets every state push whole; one that asks for deltas gets them") {
  ServerProcess server(ServerProcess::fresh_db("it-features"));
  WsClient v1(server.port());
  const auto welcome = v1.request({{"type", "hello"}, {"name", "vera"}});
  REQUIRE(welcome["type"] == "welcome");
  CHECK(welcome["protocol"] == 1);
  CHECK(welcome["features"] == Json::array());
  WsClient modern(server.port());
  const auto modern_welcome = modern.request({{"type", "hello"}, {"name", "milo"}, {"features", {"deltas", "later"}}});
  CHECK(modern_welcome["features"] == Json::array({"deltas"}));
  // A second hello on the connection cannot change what its tables push.
  CHECK(v1.request({{"type", "hello"}, {"name", "vera"}, {"token", welcome["token"]}, {"features", {"deltas"}}})["features"] ==
        Json::array());

  auto created = v1.request({{"type", "create"}, {"game", "red_dog"}, {"options", {{"deals", 2}}}, {"seats", 3}});
  const std::string table = created["table"];
  REQUIRE(v1.request({{"type", "join"}, {"table", table}})["type"] == "joined");
  REQUIRE(modern.request({{"type", "join"}, {"table", table}})["type"] == "joined");
  REQUIRE(v1.request({{"type", "bot"}, {"table", table}})["type"] == "ok");
  REQUIRE(v1.request({{"type", "start"}, {"table", table}})["type"] == "ok");
  // Both people play their least bet (or continue) from the newest state each
  // has, until the table ends; an act on a state already gone is refused, harmlessly.
  bool finished = false;
  for (int rounds = 0; rounds < 2000 && !finished; ++rounds) {
    for (auto* client : {&v1, &modern}) {
      std::optional<Json> newest;
      while (auto state = client->state_within([](const Json&) { return true; }, 20)) newest = std::move(state);
      if (!newest) continue;
      if ((*newest)["status"] == "finished") finished = true;
      if ((*newest)["legal"].empty()) continue;
      Json action = (*newest)["legal"][0];
      for (auto& [key, value] : action.items())
        if (value.is_object() && value.contains("min")) value = value["min"];
      client->request({{"type", "act"}, {"table", table}, {"action", action}});
    }
  }
  REQUIRE(finished);
  v1.drain(300);
  modern.drain(300);
  std::size_t v1_states = 0, modern_states = 0, modern_lean = 0;
  for (const auto& text : v1.frames()) {
    const auto frame = Json::parse(text);
    if (frame["type"] != "state") continue;
    ++v1_states;
    CAPTURE(text);
    for (const auto& key : {"table", "game", "seq", "status", "seat", "host", "players", "view", "to_act", "legal", "log"})
      REQUIRE_MESSAGE(frame.contains(key), key);
    CHECK_FALSE(frame.contains("chips"));
    if (frame["status"] != "waiting") CHECK(frame["players"].size() == 3);
    for (const auto& player : frame["players"]) CHECK(player.contains("chips"));
    CHECK(frame["view"].contains(frame["status"] == "waiting" ? "options" : "ante"));  // its constants, always
  }
  for (const auto& text : modern.frames()) {
    const auto frame = Json::parse(text);
    if (frame["type"] != "state") continue;
    ++modern_states;
    if (!frame.contains("game")) ++modern_lean;
  }
  CHECK(v1_states > 5);
  CHECK(modern_lean + 1 == modern_states);  // the first push alone is whole
  // The last whole push says what the ledger says.
  Json last;
  for (const auto& text : v1.frames())
    if (auto frame = Json::parse(text); frame["type"] == "state") last = std::move(frame);
  REQUIRE(last["status"] == "finished");
  for (const auto& player : last["players"]) {
    if (player["bot"] == true) continue;
    const auto ledger = v1.request({{"type", "ledger"}, {"player", player["player"]}});
    CHECK(player["chips"] == ledger["balance"]);
  }
}

TEST_CASE("bots play two deals of Rummy over WebSockets; chips are conserved and hands stay hidden") {
  ServerProcess server(ServerProcess::fresh_db("it-rummy"));
  WsClient host(server.port());
  host.hello("host");
  auto created = host.request({{"type", "create"}, {"game", "rummy"}, {"options", {{"deals", 2}}}, {"seats", 3}});
  REQUIRE(created["type"] == "created");
  const std::string table = created["table"];
  for (int i = 0; i < 3; ++i) REQUIRE(host.request({{"type", "bot"}, {"table", table}})["type"] == "ok");
  REQUIRE(host.request({{"type", "watch"}, {"table", table}})["type"] == "watching");
  REQUIRE(host.request({{"type", "start"}, {"table", table}})["type"] == "ok");
  int states = 0;
  auto final_state = host.state_where(
      [&](const Json& s) {
        ++states;
        // A spectator sees no card of any hand while a deal is on.
        if (s["status"] == "playing" && s["view"].contains("seats"))
          for (const auto& hand : s["view"]["seats"])
            for (const auto& card : hand["cards"]) CHECK(card == "??");
        return s["status"] == "finished";
      },
      60000);
  CHECK(states > 20);
  std::int64_t total = 0;
  for (const auto& p : final_state["players"]) total += p["chips"].get<std::int64_t>();
  CHECK(total == 3 * 1000);
  CHECK(final_state["result"]["deal"] == 2);
}

namespace {

// Options that make a game short: few deals, the lowest target.
Json short_game_options(const Json& game) {
  Json options = Json::object();
  for (const auto& option : game["options"]) {
    const std::string name = option["name"];
    if (name == "deals") options[name] = std::min<std::int64_t>(2, option.value("max", 2));
    if (name == "target" && option.contains("min")) options[name] = option["min"];
  }
  return options;
}

}  // namespace

TEST_CASE("every game in the catalogue is played to the end by bots over WebSockets, chips conserved") {
  // One connection sends ~6 messages per game for 20+ games, many of which end
  // in well under a second: the default rate limit would (rightly) refuse it.
  std::string threads;
  SUBCASE("one I/O thread") { threads = "1"; }
  SUBCASE("two I/O threads") { threads = "2"; }
  CAPTURE(threads);
  ServerProcess server(ServerProcess::fresh_db("it-catalogue-" + threads),
                       {"--bot-delay-ms", "0", "--rate-limit", "1000", "--threads", threads});
  WsClient host(server.port());
  host.hello("host");
  const auto games = host.request({{"type", "games"}})["games"];
  REQUIRE(games.size() >= 2);
  for (const auto& game : games) {
    const std::string id = game["id"];
    CAPTURE(id);
    const int players = std::min(3, game["max_players"].get<int>()) < game["min_players"].get<int>()
                            ? game["min_players"].get<int>()
                            : std::max(game["min_players"].get<int>(), std::min(3, game["max_players"].get<int>()));
    auto created = host.request(
        {{"type", "create"}, {"game", id}, {"options", short_game_options(game)}, {"seats", players}});
    REQUIRE_MESSAGE(created["type"] == "created", created.dump());
    const std::string table = created["table"];
    for (int i = 0; i < players; ++i) {
      const auto seated = host.request({{"type", "bot"}, {"table", table}});
      REQUIRE_MESSAGE(seated["type"] == "ok", seated.dump());
    }
    REQUIRE(host.request({{"type", "watch"}, {"table", table}})["type"] == "watching");
    const auto started = host.request({{"type", "start"}, {"table", table}});
    REQUIRE_MESSAGE(started["type"] == "ok", started.dump());
    auto final_state = host.state_where(
        [&](const Json& s) { return s["table"] == table && s["status"] == "finished"; }, 60000);
    std::int64_t total = 0;
    for (const auto& p : final_state["players"]) total += p["chips"].get<std::int64_t>();
    CHECK(total == players * 1000);
    host.request({{"type", "leave"}, {"table", table}});
  }
}

TEST_CASE("a Carousel turn that outlasts turn_time_limit_s: the server withdraws the player, and play goes on") {
  ServerProcess server(ServerProcess::fresh_db("it-turn-timer"), {"--bot-delay-ms", "0"});
  WsClient ann(server.port());
  ann.hello("ann");
  REQUIRE(parlour::rules::draw_first_dealer(seat_0_deals, 2) == 0);
  auto created = ann.request({{"type", "create"},
                              {"game", "carousel"},
                              {"options", {{"turn_time_limit_s", 1}}},
                              {"seats", 2},
                              {"seed", seat_0_deals}});
  REQUIRE(created["type"] == "created");
  const std::string table = created["table"];
  // Seat 0 deals; seat 1 (Ann) is first to play, and she never acts.
  REQUIRE(ann.request({{"type", "join"}, {"table", table}, {"seat", 1}})["seat"] == 1);
  REQUIRE(ann.request({{"type", "bot"}, {"table", table}})["type"] == "ok");
  REQUIRE(ann.request({{"type", "start"}, {"table", table}})["type"] == "ok");

  const auto now_ms = [] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch()).count();
  };
  auto timed = ann.state_where([](const Json& s) { return s["status"] == "playing" && s.contains("timer"); });
  CHECK(timed["timer"]["seat"] == 1);
  CHECK(timed["timer"]["seconds"] == 1);
  const std::int64_t ends_at = timed["timer"]["ends_at"];
  CHECK(ends_at > now_ms() - 2000);
  CHECK(ends_at <= now_ms() + 1000);
  CHECK(timed["legal"].size() > 0);

  // view.withdrawn lists the seats withdrawn from the deal.
  const auto ann_withdrawn = [](const Json& s) {
    const auto& view = s["view"];
    if (!view.contains("withdrawn")) return false;
    const auto& seats = view["withdrawn"];
    return std::find(seats.begin(), seats.end(), Json(1)) != seats.end();
  };
  auto withdrawn = ann.state_where(ann_withdrawn, 10000);
  CHECK(now_ms() >= ends_at);
  bool logged = false;
  for (const auto& line : withdrawn["log"]) logged = logged || line.get<std::string>().find("ann") != std::string::npos;
  CHECK(logged);
  // Ann is out of this deal; the bot plays it to its end and the next deal deals her in again.
  auto next_deal = ann.state_where(
      [&](const Json& s) { return s.value("view", Json::object()).value("deal", 0) == 2 && !ann_withdrawn(s); }, 20000);
  CHECK(next_deal["status"] == "playing");
}
