// Late joiners and open seats over real WebSockets (issue 16, item 1): a friend
// who opens a table in play is put in line and dealt in at the next deal once
// the host frees a seat; in a game played to its end she is told why she
// watches; a non-host cannot free seats.
#include <doctest/doctest.h>

#include <string>

#include "tests/integration/server_process.h"

using parlour::test::Json;
using parlour::test::ServerProcess;
using parlour::test::WsClient;

namespace {

std::string full_table_of_bots(WsClient& host, const std::string& game, int seats) {
  auto created = host.request({{"type", "create"}, {"game", game}, {"seats", seats}});
  REQUIRE_MESSAGE(created["type"] == "created", created.dump());
  const std::string table = created["table"];
  for (int i = 0; i < seats; ++i) REQUIRE(host.request({{"type", "bot"}, {"table", table}})["type"] == "ok");
  REQUIRE(host.request({{"type", "watch"}, {"table", table}})["type"] == "watching");
  REQUIRE(host.request({{"type", "start"}, {"table", table}})["type"] == "ok");
  return table;
}

}  // namespace

TEST_CASE("late join: a friend at a full Red Dog table is put in line and takes the seat the host frees, at the next deal") {
  ServerProcess server(ServerProcess::fresh_db("it-late-join"), {"--bot-delay-ms", "0", "--deal-pause-ms", "50"});
  WsClient host(server.port());
  host.hello("host");
  const auto table = full_table_of_bots(host, "red_dog", 2);

  WsClient cat(server.port());
  cat.hello("cat");
  const auto joined = cat.request({{"type", "join"}, {"table", table}});
  CHECK(joined["type"] == "watching");
  CHECK(joined["waiting"] == 1);
  CHECK(joined["message"] == "The game is under way and every seat is taken: you are watching, number 1 in line for "
                             "the first seat that frees up.");
  const auto line = host.request({{"type", "tables"}});
  for (const auto& t : line["tables"])
    if (t["table"] == table) CHECK(t["waiting"] == 1);

  CHECK(cat.request({{"type", "unseat"}, {"table", table}, {"seat", 1}})["code"] == "forbidden");
  CHECK(host.request({{"type", "unseat"}, {"table", table}, {"seat", 7}})["code"] == "bad_request");
  REQUIRE(host.request({{"type", "unseat"}, {"table", table}, {"seat", 1}, {"replace", "open"}})["type"] == "ok");

  const auto seated = cat.state_where([&](const Json& s) { return s["table"] == table && s["seat"] == 1; }, 20000);
  CHECK_FALSE(seated.contains("waiting"));
  Json players = seated.value("players", Json::array());
  bool listed = false;
  for (const auto& p : players) listed = listed || (p["seat"] == 1 && p["player"] == "cat");
  CHECK(listed);
}

TEST_CASE("late join: at a game played to its end the newcomer watches and is told why; nothing changes") {
  ServerProcess server(ServerProcess::fresh_db("it-late-join-rummy"), {"--bot-delay-ms", "50"});
  WsClient host(server.port());
  host.hello("host");
  const auto table = full_table_of_bots(host, "rummy", 2);
  WsClient cat(server.port());
  cat.hello("cat");
  const auto joined = cat.request({{"type", "join"}, {"table", table}});
  CHECK(joined["type"] == "watching");
  CHECK_FALSE(joined.contains("waiting"));
  CHECK(joined["message"] == "Rummy is played to its end by the players who started it: you are watching.");
  const auto state = cat.state_where([&](const Json& s) { return s["table"] == table; });
  CHECK(state["seat"].is_null());
  CHECK(host.request({{"type", "unseat"}, {"table", table}, {"seat", 0}, {"replace", "bot"}})["code"] == "conflict");
}
