// Table chat and the end of a table over real WebSockets (issue 16, items 3
// and 4): chat delivered to everyone at the table and kept across a restart,
// its limits and the host's mute; the standings of a finished table and its
// rematch, the same deals again with the same seed.
#include <doctest/doctest.h>

#include <string>

#include "tests/integration/server_process.h"

using parlour::test::Json;
using parlour::test::ServerProcess;
using parlour::test::WsClient;

namespace {

Json chat(WsClient& client, const std::string& table, const std::string& text) {
  return client.request({{"type", "chat"}, {"table", table}, {"text", text}});
}

// The chat lines a client has seen at a table, as "player: text" (or ":reaction").
std::vector<std::string> chat_lines(const Json& state) {
  std::vector<std::string> out;
  for (const auto& line : state["chat"])
    out.push_back(line["player"].get<std::string>() + ": " +
                  (line.contains("text") ? line["text"].get<std::string>() : ":" + line["reaction"].get<std::string>()));
  return out;
}

// The host's `end`, and again to stop a deal in progress at once (the second
// is refused with conflict if the first ended the table between deals).
void end_table(WsClient& host, const std::string& table) {
  REQUIRE(host.request({{"type", "end"}, {"table", table}})["type"] == "ok");
  const auto again = host.request({{"type", "end"}, {"table", table}});
  CHECK((again["type"] == "ok" || again["code"] == "conflict"));
}

Json state_of(WsClient& client, const std::string& table, std::function<bool(const Json&)> pred) {
  return client.state_where([&](const Json& s) { return s["table"] == table && pred(s); });
}

}  // namespace

TEST_CASE("table chat: delivered to the others, flood and oversize refused, the host's mute, kept across a restart") {
  ServerProcess server(ServerProcess::fresh_db("it-chat"));
  WsClient alice(server.port()), bob(server.port()), carol(server.port());
  const auto alice_token = alice.hello("alice");
  bob.hello("bob");
  const auto carol_token = carol.hello("carol");
  auto created = alice.request({{"type", "create"}, {"game", "red_dog"}, {"seats", 2}, {"clock", {{"seconds", 0}}}});
  const std::string table = created["table"];
  REQUIRE(alice.request({{"type", "join"}, {"table", table}})["type"] == "joined");
  REQUIRE(bob.request({{"type", "join"}, {"table", table}})["type"] == "joined");
  REQUIRE(carol.request({{"type", "watch"}, {"table", table}})["type"] == "watching");
  REQUIRE(alice.request({{"type", "start"}, {"table", table}})["type"] == "ok");

  // A line from a seated player and a reaction from a watcher reach everyone.
  CHECK(chat(alice, table, "  good luck, all  ")["type"] == "ok");
  CHECK(carol.request({{"type", "chat"}, {"table", table}, {"reaction", "thumbs_up"}})["type"] == "ok");
  const std::vector<std::string> both = {"alice: good luck, all", "carol: :thumbs_up"};
  CHECK(chat_lines(state_of(bob, table, [](const Json& s) { return s["chat"].size() == 2; })) == both);
  CHECK(chat_lines(state_of(alice, table, [](const Json& s) { return s["chat"].size() == 2; })) == both);

  // Flooding: the sixth line within ten seconds is refused, saying when to retry.
  for (int i = 1; i <= 5; ++i) REQUIRE(chat(bob, table, "line " + std::to_string(i))["type"] == "ok");
  auto flood = chat(bob, table, "line 6");
  CHECK(flood["code"] == "rate_limited");
  CHECK(flood["retry_after_ms"].get<std::int64_t>() > 0);
  CHECK(flood["retry_after_ms"].get<std::int64_t>() <= 10'000);

  // Oversize: 201 characters.
  CHECK(chat(carol, table, std::string(201, 'x'))["code"] == "bad_request");

  // Only the host mutes; the muted watcher's chat is refused with a clear error.
  CHECK(bob.request({{"type", "mute"}, {"table", table}, {"player", "carol"}, {"muted", true}})["code"] == "forbidden");
  CHECK(alice.request({{"type", "mute"}, {"table", table}, {"player", "carol"}, {"muted", true}})["type"] == "ok");
  auto muted = chat(carol, table, "hello?");
  CHECK(muted["code"] == "forbidden");
  CHECK(muted["message"] == "the host, alice, has muted you at this table");
  const auto before = state_of(carol, table, [](const Json& s) { return s.contains("muted"); });
  CHECK(before["muted"] == Json::array({"carol"}));
  CHECK(before["chat"].size() == 7);

  // After a restart the chat is still in the table's log, and carol still muted.
  server.kill_hard();
  server.start();
  WsClient dave(server.port()), carol_again(server.port());
  dave.hello("dave");
  carol_again.hello("carol", carol_token);
  REQUIRE(dave.request({{"type", "watch"}, {"table", table}})["type"] == "watching");
  const auto after = state_of(dave, table, [](const Json&) { return true; });
  CHECK(after["chat"] == before["chat"]);
  CHECK(after["muted"] == Json::array({"carol"}));
  REQUIRE(carol_again.request({{"type", "watch"}, {"table", table}})["type"] == "watching");
  CHECK(chat(carol_again, table, "and now?")["code"] == "forbidden");
  CHECK(chat(dave, table, "hi from dave")["type"] == "ok");
}

TEST_CASE("end of a table: standings, a rematch only by the host of a finished table, the same first deal with the same seed") {
  ServerProcess server(ServerProcess::fresh_db("it-rematch"), {"--bot-delay-ms", "50"});
  WsClient alice(server.port()), bob(server.port()), carol(server.port());
  alice.hello("alice");
  bob.hello("bob");
  carol.hello("carol");
  const Json clock = {{"seconds", 0}, {"bank", 0}, {"away_after", 3}};
  auto created = alice.request({{"type", "create"}, {"game", "red_dog"}, {"options", {{"ante", 3}}}, {"seats", 3},
                                {"seed", 424242}, {"clock", clock}});
  const std::string first = created["table"];
  REQUIRE(alice.request({{"type", "join"}, {"table", first}, {"seat", 0}})["type"] == "joined");
  REQUIRE(bob.request({{"type", "join"}, {"table", first}, {"seat", 1}})["type"] == "joined");
  const auto seated_bot = alice.request({{"type", "bot"}, {"table", first}, {"seat", 2}, {"level", 1}});
  REQUIRE(seated_bot["type"] == "ok");
  const std::string first_bot = seated_bot["player"];
  REQUIRE(carol.request({{"type", "watch"}, {"table", first}})["type"] == "watching");
  const auto started = alice.request({{"type", "start"}, {"table", first}});
  REQUIRE(started["type"] == "ok");
  const auto first_deal = state_of(bob, first, [&](const Json& s) { return s["seq"] == started["seq"]; });

  CHECK(alice.request({{"type", "rematch"}, {"table", first}})["code"] == "conflict");  // still playing
  end_table(alice, first);
  const auto finished = state_of(bob, first, [](const Json& s) { return s["status"] == "finished"; });
  REQUIRE(finished.contains("standings"));
  const auto& standings = finished["standings"];
  CHECK(standings["players"].size() == 3);
  std::int64_t net = 0;
  for (const auto& player : standings["players"]) net += player["chips"].get<std::int64_t>();
  CHECK(net == 0);  // every chip that left a player at this table went to another
  for (const auto& player : finished["players"])
    for (const auto& standing : standings["players"])
      if (standing["player"] == player["player"] && player["player"] != first_bot)
        CHECK(player["chips"] == 1000 + standing["chips"].get<std::int64_t>());

  CHECK(bob.request({{"type", "rematch"}, {"table", first}})["code"] == "forbidden");
  auto rematch = alice.request({{"type", "rematch"}, {"table", first}, {"same_seed", true}});
  REQUIRE(rematch["type"] == "created");
  const std::string second = rematch["table"];
  CHECK(rematch["rematch_of"] == first);
  CHECK(rematch["same_seed"] == true);
  // Once: asked again (a lost reply, a retry), the same table is the answer.
  auto retried = alice.request({{"type", "rematch"}, {"table", first}});
  CHECK(retried["type"] == "created");
  CHECK(retried["table"] == second);
  CHECK(retried["invite"] == rematch["invite"]);
  CHECK(retried["same_seed"] == true);
  CHECK(retried["duplicate"] == true);
  // Everyone at the old table hears of it.
  const Json notice = {{"table", second}, {"same_seed", true}};
  CHECK(state_of(bob, first, [](const Json& s) { return s.contains("rematch"); })["rematch"] == notice);
  CHECK(state_of(carol, first, [](const Json& s) { return s.contains("rematch"); })["rematch"] == notice);

  // The same game, options, clock and people, the bot seated again as a bot.
  auto lobby = carol.request({{"type", "tables"}});
  Json line;
  for (const auto& entry : lobby["tables"])
    if (entry["table"] == second) line = entry;
  REQUIRE(line.is_object());
  CHECK(line["game"] == "red_dog");
  CHECK(line["options"]["ante"] == 3);
  CHECK(line["clock"] == clock);
  CHECK(line["host"] == "alice");
  CHECK(line["status"] == "waiting");
  CHECK(line["seats"][0]["player"] == "alice");
  CHECK(line["seats"][1]["player"] == "bob");
  const std::string second_bot = line["seats"][2]["player"];
  CHECK(second_bot.rfind("bot-", 0) == 0);
  CHECK(second_bot != first_bot);  // a new bot at a new table
  CHECK(line["seats"][2]["bot"] == true);
  CHECK(bob.request({{"type", "join"}, {"table", second}})["seat"] == 1);
  CHECK(alice.request({{"type", "join"}, {"table", second}})["seat"] == 0);

  // The same seed deals the same first deal.
  const auto restarted = alice.request({{"type", "start"}, {"table", second}});
  REQUIRE(restarted["type"] == "ok");
  const auto again = state_of(bob, second, [&](const Json& s) { return s["seq"] == restarted["seq"]; });
  CHECK(again["view"]["dealer"] == first_deal["view"]["dealer"]);
  CHECK(again["view"]["seats"][1]["cards"] == first_deal["view"]["seats"][1]["cards"]);
  CHECK(again["view"]["pools"] == first_deal["view"]["pools"]);
  CHECK(again["to_act"] == first_deal["to_act"]);
  CHECK(again["rematch_of"] == Json{{"table", first}, {"same_seed", true}});

  // Its final standings carry the first table's beside them.
  end_table(alice, second);
  const auto over = state_of(bob, second, [](const Json& s) { return s["status"] == "finished"; });
  CHECK(over["standings"]["rematch_of"] == first);
  auto compare = standings;
  compare["table"] = first;
  CHECK(over["standings"]["compare"] == compare);
}
