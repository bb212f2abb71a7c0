// The server against an attacker and a flaky network (issue "Nothing crashes,
// nothing loops, nothing stuck after a restart"): each reproduction of a fault
// found is a test here, against the real binary on loopback.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "tests/integration/server_process.h"

using parlour::test::Json;
using parlour::test::ServerProcess;
using parlour::test::WsClient;

namespace {

// Under a sanitizer (scripts/sanitize.sh sets PARLOUR_SANITIZED) the server's
// memory is shadow memory and quarantine, and the runtime holds descriptors of
// its own: checks of RSS or of a tight descriptor limit say nothing there.
bool sanitized() { return std::getenv("PARLOUR_SANITIZED") != nullptr; }

void sleep_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

// The sample's value: the line that starts with the name (not its # HELP line).
std::string metric(const ServerProcess& server, const std::string& name) {
  const auto body = "\n" + server.get("/metrics").second;
  const auto at = body.find("\n" + name + " ");
  if (at == std::string::npos) return "";
  const auto value = at + name.size() + 2;
  return body.substr(value, body.find('\n', value) - value);
}

Json bots_table(WsClient& host, const std::string& game, Json options = Json::object(), int bots = 2) {
  auto created = host.request({{"type", "create"}, {"game", game}, {"options", options}, {"seats", bots}});
  REQUIRE(created["type"] == "created");
  for (int i = 0; i < bots; ++i) REQUIRE(host.request({{"type", "bot"}, {"table", created["table"]}})["type"] == "ok");
  REQUIRE(host.request({{"type", "start"}, {"table", created["table"]}})["type"] == "ok");
  return created;
}

}  // namespace

TEST_CASE("HTTP: folders, dot paths and paths outside the web root are 404, and the server stays up") {
  ServerProcess server(ServerProcess::fresh_db("hard-folders"));
  for (const char* path : {"/js", "/js/", "/.", "/./", "/..", "/%2e%2e/%2e%2e/etc/passwd", "/js/..", "/js/layouts/"}) {
    CAPTURE(path);
    CHECK(server.get(path).first == 404);
    const auto head = server.raw_http(std::string("HEAD ") + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    CHECK(head.first == 404);
  }
  CHECK(server.get("/index.html").first == 200);
  CHECK(server.get("/healthz").first == 200);
}

TEST_CASE("HTTP: oversize requests get 413, 414 or 431, never a silent drop") {
  ServerProcess server(ServerProcess::fresh_db("hard-oversize"));
  CHECK(server.raw_http("GET /" + std::string(5000, 'a') + " HTTP/1.1\r\nHost: x\r\n\r\n").first == 414);
  CHECK(server.raw_http("GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(20000, 'b') + "\r\n\r\n").first == 431);
  CHECK(server.raw_http("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n" + std::string(100000, 'c')).first ==
        413);
  CHECK(server.get("/healthz").first == 200);
}

TEST_CASE("HTTP ledger: strict numbers, and an unknown bot is not found") {
  ServerProcess server(ServerProcess::fresh_db("hard-ledger-params"));
  WsClient alice(server.port());
  const auto token = alice.hello("alice");
  CHECK(server.get("/api/players/alice/ledger?limit=5", token).first == 200);
  CHECK(server.get("/api/players/alice/ledger?limit=5abc", token).first == 400);
  CHECK(server.get("/api/players/alice/ledger?limit=", token).first == 400);
  CHECK(server.get("/api/players/alice/ledger?before=-1", token).first == 400);
  CHECK(server.get("/api/players/alice/ledger?before=0", token).first == 400);
  CHECK(server.get("/api/players/bot-tnever-0/ledger", token).first == 404);
  CHECK(alice.request({{"type", "ledger"}, {"player", "bot-tnever-0"}})["code"] == "not_found");
}

TEST_CASE("a second hello cannot switch the connection's identity, whatever the length of the name") {
  ServerProcess server(ServerProcess::fresh_db("hard-hello-switch"));
  WsClient eve(server.port());
  eve.hello("eve");
  WsClient other(server.port());
  const auto token = other.hello("mallory");
  CHECK(eve.request({{"type", "hello"}, {"name", "mallory"}, {"token", token}})["code"] == "conflict");
  CHECK(eve.request({{"type", "hello"}, {"name", "bob"}})["code"] == "conflict");
  CHECK(eve.request({{"type", "ledger"}})["player"] == "eve");
}

TEST_CASE("an act resent with its action_id after a crash is answered with the first seq, never applied twice") {
  ServerProcess server(ServerProcess::fresh_db("hard-action-id"), {"--deal-pause-ms", "60000"});
  std::string table;
  std::string ann_token;
  Json first;
  {
    WsClient ann(server.port());
    ann_token = ann.hello("ann");
    auto created = ann.request({{"type", "create"}, {"game", "red_dog"}, {"seats", 2}});
    table = created["table"];
    ann.request({{"type", "join"}, {"table", table}});
    ann.request({{"type", "bot"}, {"table", table}});
    ann.request({{"type", "start"}, {"table", table}});
    auto my_turn = ann.state_where([](const Json& s) { return !s["legal"].empty(); });
    first = ann.request({{"type", "act"}, {"table", table}, {"action", {{"type", "bet"}, {"amount", 1}}},
                         {"action_id", "ann-bet-1"}});
    REQUIRE(first["type"] == "ok");
    CHECK(first["action_id"] == "ann-bet-1");
  }
  const auto chips_after_bet = Json::parse(server.get("/api/players/ann/ledger", ann_token).second)["balance"];
  // After the restart the bot waits: the deal must not settle and the next one
  // ante before ann is back, or her balance would change for another reason.
  server.add_args({"--bot-delay-ms", "60000"});
  server.kill_hard();
  server.start();
  WsClient ann(server.port());
  ann.hello("ann", ann_token);
  ann.request({{"type", "join"}, {"table", table}});
  auto again = ann.request({{"type", "act"}, {"table", table}, {"action", {{"type", "bet"}, {"amount", 1}}},
                            {"action_id", "ann-bet-1"}});
  CHECK(again["type"] == "ok");
  CHECK(again["seq"] == first["seq"]);
  CHECK(again["duplicate"] == true);
  CHECK(Json::parse(server.get("/api/players/ann/ledger", ann_token).second)["balance"] == chips_after_bet);
}

TEST_CASE("private tables: not watched by id from outside, the invite kept from spectators, the id kept from other ledgers") {
  ServerProcess server(ServerProcess::fresh_db("hard-private"), {"--deal-pause-ms", "0"});
  WsClient ann(server.port()), bob(server.port()), eve(server.port());
  ann.hello("ann");
  const auto bob_token = bob.hello("bob");
  eve.hello("eve");
  auto created = ann.request({{"type", "create"}, {"game", "red_dog"}, {"seats", 3}, {"private", true}});
  const std::string table = created["table"];
  const std::string invite = created["invite"];
  CHECK(eve.request({{"type", "watch"}, {"table", table}})["code"] == "forbidden");
  ann.request({{"type", "join"}, {"table", table}});
  // By its id alone a waiting private table gives no seat (and so no state, chat or invite).
  const auto by_id = bob.request({{"type", "join"}, {"table", table}});
  CHECK(by_id["code"] == "forbidden");
  CHECK(by_id["message"] == "table " + table + " is private; join it through its invite");
  REQUIRE(bob.request({{"type", "join"}, {"invite", invite}})["type"] == "joined");
  CHECK(bob.request({{"type", "join"}, {"table", table}})["type"] == "joined");  // seated: by id is enough
  const auto bot = ann.request({{"type", "bot"}, {"table", table}});
  const std::string bot_name = bot["player"];
  CHECK(bot_name.find(table.substr(1)) == std::string::npos);
  ann.request({{"type", "start"}, {"table", table}});
  REQUIRE(eve.request({{"type", "watch"}, {"invite", invite}})["type"] == "watching");
  auto spectator = eve.next_state();
  CHECK_FALSE(spectator.contains("invite"));
  CHECK(spectator.dump().find(invite) == std::string::npos);
  CHECK(bob.next_state()["invite"] == invite);
  // Bob's antes went into the private table: others see the movement, not the table.
  auto seen_by_eve = eve.request({{"type", "ledger"}, {"player", "bob"}});
  bool movement = false;
  for (const auto& entry : seen_by_eve["entries"]) {
    CHECK(entry["table"].is_null());
    movement = movement || entry["game"] == "red_dog";
  }
  CHECK(movement);
  // Nor do the bot's ledger and memos, which anyone may read, name the table.
  const auto bots_ledger = eve.request({{"type", "ledger"}, {"player", bot_name}});
  REQUIRE(bots_ledger["type"] == "ledger");
  CHECK(bots_ledger.dump().find(table.substr(1)) == std::string::npos);
  CHECK(eve.request({{"type", "ledger"}, {"player", "bob"}}).dump().find(table.substr(1)) == std::string::npos);
  auto seen_by_bob = bob.request({{"type", "ledger"}});
  bool own = false;
  for (const auto& entry : seen_by_bob["entries"]) own = own || entry["table"] == table;
  CHECK(own);
  CHECK(server.get("/api/players/bob/ledger", bob_token).second.find(table) != std::string::npos);
}

TEST_CASE("limits: registrations per address, open tables per host, the tables reply") {
  ServerProcess server(ServerProcess::fresh_db("hard-limits"),
                       {"--registrations-per-ip-per-hour", "3", "--max-open-tables", "2", "--max-listed-tables", "1"});
  WsClient a(server.port()), b(server.port()), c(server.port()), d(server.port());
  a.hello("reg1");
  b.hello("reg2");
  c.hello("reg3");
  CHECK(d.request({{"type", "hello"}, {"name", "reg4"}})["code"] == "rate_limited");
  CHECK(a.request({{"type", "create"}, {"game", "red_dog"}})["type"] == "created");
  CHECK(a.request({{"type", "create"}, {"game", "red_dog"}})["type"] == "created");
  const auto third = a.request({{"type", "create"}, {"game", "red_dog"}});
  CHECK(third["code"] == "conflict");
  CHECK(a.request({{"type", "tables"}})["tables"].size() == 1);
}

TEST_CASE("limits: connections per address; a silent WebSocket is closed after the idle timeout") {
  ServerProcess server(ServerProcess::fresh_db("hard-connections"), {"--max-connections-per-ip", "3", "--idle-timeout-s", "1"});
  // The readiness probe's HTTP connection counts against the address until the
  // server has seen it close (slow under a sanitizer): a refused connection is
  // tried again for a while. A connection counts as admitted once it answers a ping.
  auto admit = [&]() -> std::unique_ptr<WsClient> {
    for (int attempt = 0; attempt < 50; ++attempt) {
      try {
        auto client = std::make_unique<WsClient>(server.port());
        if (client->request({{"type", "ping"}})["type"] == "pong") return client;
      } catch (const std::exception&) {
      }
      sleep_ms(100);
    }
    return nullptr;
  };
  std::vector<std::unique_ptr<WsClient>> open;
  for (int i = 0; i < 3; ++i) {
    open.push_back(admit());
    REQUIRE(open.back());
  }
  CHECK_THROWS(WsClient(server.port()));
  open.clear();
  // The slots free once the server has seen the three close, which on a busy
  // machine can take longer than a moment: try again for a while. A connection
  // counts as admitted once it answers a ping: one the server has not yet made
  // room for is closed after its handshake, and its ping fails.
  std::unique_ptr<WsClient> admitted = admit();
  REQUIRE(admitted);
  WsClient& quiet = *admitted;
  // The test client does not answer pings while it is not reading, so the
  // server closes it as dead within the idle timeout.
  sleep_ms(2500);
  CHECK_FALSE(quiet.read(500).has_value());
  CHECK(server.get("/healthz").first == 200);
}

TEST_CASE("a client that stops reading is dropped by bytes queued, and the server's memory stays bounded") {
  // Rich bots, so that their table runs for the whole test.
  ServerProcess server(ServerProcess::fresh_db("hard-slow"), {"--max-queued-bytes", "65536", "--bot-delay-ms", "0", "--deal-pause-ms", "0",
                                         "--starting-chips", "100000000"});
  WsClient host(server.port());
  host.hello("host");
  auto created = bots_table(host, "red_dog", {{"ante", 1}}, 4);
  const std::string table = created["table"];
  std::vector<std::unique_ptr<WsClient>> sleepers;
  for (int i = 0; i < 5; ++i) {
    sleepers.push_back(std::make_unique<WsClient>(server.port(), 4096));
    sleepers.back()->hello("sleeper" + std::to_string(i));
    REQUIRE(sleepers.back()->request({{"type", "watch"}, {"table", table}})["type"] == "watching");
  }
  const auto rss_start = server.rss_kib();
  // A sanitized server makes its frames several times slower: the sleepers fill later.
  const int polls = sanitized() ? 900 : 100;
  for (int i = 0; i < polls && metric(server, "parlour_slow_clients_dropped_total") != "5"; ++i) sleep_ms(100);
  CHECK(metric(server, "parlour_slow_clients_dropped_total") == "5");
  if (!sanitized()) CHECK(server.rss_kib() < rss_start + 20 * 1024);
  CHECK(host.request({{"type", "ping"}})["type"] == "pong");
}

TEST_CASE("out of file descriptors: the accept loop backs off instead of spinning, and recovers") {
  if (sanitized()) {
    MESSAGE("skipped under a sanitizer: its runtime's own descriptors and slowness make 40 descriptors meaningless");
    return;
  }
  ServerProcess server(ServerProcess::fresh_db("hard-fds"));
  server.limit_files(40);
  server.stop();
  server.start();
  // Connections the server accepts until it runs out of descriptors; the rest
  // wait in the listen queue, which keeps the listener readable.
  boost::asio::io_context io;
  std::vector<boost::asio::ip::tcp::socket> waiting;
  for (int i = 0; i < 80; ++i) {
    waiting.emplace_back(io);
    boost::system::error_code ec;
    waiting.back().connect({boost::asio::ip::make_address("127.0.0.1"), server.port()}, ec);
  }
  sleep_ms(300);
  const auto cpu_before = server.cpu_seconds();
  sleep_ms(1000);
  CHECK(server.cpu_seconds() - cpu_before < 0.3);
  waiting.clear();
  bool back = false;
  for (int i = 0; i < 50 && !back; ++i) {
    sleep_ms(100);
    try {
      back = server.get("/healthz").first == 200;
    } catch (const std::exception&) {
    }
  }
  CHECK(back);
}

TEST_CASE("Red Dog with everyone broke ends the table instead of dealing forever") {
  ServerProcess server(ServerProcess::fresh_db("hard-broke"), {"--bot-delay-ms", "0", "--deal-pause-ms", "0"});
  WsClient ann(server.port()), bob(server.port());
  ann.hello("ann");
  bob.hello("bob");
  auto created = ann.request({{"type", "create"}, {"game", "red_dog"}, {"options", {{"ante", 1000}}}, {"seats", 2}});
  const std::string table = created["table"];
  ann.request({{"type", "join"}, {"table", table}});
  bob.request({{"type", "join"}, {"table", table}});
  ann.request({{"type", "start"}, {"table", table}});
  auto finished = ann.state_where([](const Json& s) { return s["status"] == "finished"; }, 10000);
  CHECK(finished["seq"].get<int>() < 30);
  sleep_ms(300);
  CHECK(std::stoi(metric(server, "parlour_storage_transactions_total")) < 60);
}

TEST_CASE("after a restart, bots-only tables go on by themselves and finished tables can still be watched") {
  ServerProcess server(ServerProcess::fresh_db("hard-resume"), {"--bot-delay-ms", "5", "--deal-pause-ms", "0"});
  std::string busy, done_table;
  std::int64_t seq_at_kill = 0;
  {
    WsClient host(server.port());
    host.hello("host");
    busy = bots_table(host, "red_dog", {{"ante", 1}}, 3)["table"];
    done_table = bots_table(host, "red_dog", {{"ante", 1}, {"deals", 1}}, 2)["table"];
    host.request({{"type", "watch"}, {"table", busy}});
    seq_at_kill = host.state_where([&](const Json& s) { return s["table"] == busy && s["seq"] > 5; })["seq"];
  }
  sleep_ms(300);
  server.kill_hard();
  server.start();
  sleep_ms(1500);  // nobody is connected: the table must move on its own
  WsClient host(server.port());
  host.hello("watcher");
  REQUIRE(host.request({{"type", "watch"}, {"table", busy}})["type"] == "watching");
  CHECK(host.next_state()["seq"].get<std::int64_t>() > seq_at_kill + 3);
  REQUIRE(host.request({{"type", "watch"}, {"table", done_table}})["type"] == "watching");
  const auto finished = host.state_where([&](const Json& s) { return s["table"] == done_table; });
  CHECK(finished["status"] == "finished");
  CHECK(finished.contains("result"));
}

TEST_CASE("finished tables leave memory at once, within a bound; `tables` lists the open ones; creations per hour are limited") {
  // Issue 25 item 3: one player made 2,885 tables in 30 s, each kept 10 minutes
  // and walked by every `tables` and `create`.
  ServerProcess server(ServerProcess::fresh_db("hard-finished"), {"--max-finished-tables", "2", "--tables-per-hour", "8"});
  WsClient ann(server.port());
  ann.hello("ann");
  const auto open = ann.request({{"type", "create"}, {"game", "red_dog"}, {"seats", 2}});
  REQUIRE(open["type"] == "created");
  std::vector<std::string> ended;
  for (int i = 0; i < 6; ++i) {
    const auto created = ann.request({{"type", "create"}, {"game", "red_dog"}, {"seats", 2}});
    REQUIRE(created["type"] == "created");
    ended.push_back(created["table"]);
    REQUIRE(ann.request({{"type", "end"}, {"table", ended.back()}})["type"] == "ok");
  }
  // The open table and at most the last two finished ones are in memory (the
  // writer may hold one a moment longer: waited for, not timed).
  for (int i = 0; i < 50 && std::stoi(metric(server, "parlour_tables")) > 3; ++i) sleep_ms(100);
  CHECK(std::stoi(metric(server, "parlour_tables")) <= 3);
  CHECK(metric(server, "parlour_tables_open") == "1");
  CHECK(std::stoi(metric(server, "parlour_tables_finished_in_memory")) <= 2);
  const auto listed = ann.request({{"type", "tables"}})["tables"];
  REQUIRE(listed.size() == 1);
  CHECK(listed[0]["table"] == open["table"]);
  // A finished table gone from memory is read back to be watched, as after a restart.
  REQUIRE(ann.request({{"type", "watch"}, {"table", ended.front()}})["type"] == "watching");
  CHECK(ann.state_where([&](const Json& s) { return s["table"] == ended.front(); })["status"] == "finished");
  // Seven made; the eighth is allowed, the ninth refused saying the limit.
  CHECK(ann.request({{"type", "create"}, {"game", "red_dog"}, {"seats", 2}})["type"] == "created");
  const auto refused = ann.request({{"type", "create"}, {"game", "red_dog"}, {"seats", 2}});
  CHECK(refused["code"] == "rate_limited");
  CHECK(refused["message"].get<std::string>().find("8 tables an hour") != std::string::npos);
}

TEST_CASE("chat: the limit is per person across tables, and a finished table's chat is closed") {
  // Issue 25 item 8: lines spread over 100 tables (5 each) stored 175 lines/s.
  ServerProcess server(ServerProcess::fresh_db("hard-chat-spread"));
  WsClient ann(server.port()), bob(server.port());
  ann.hello("ann");
  bob.hello("bob");
  std::vector<std::string> tables;
  for (int i = 0; i < 3; ++i) {
    tables.push_back(ann.request({{"type", "create"}, {"game", "red_dog"}, {"seats", 2}})["table"]);
    REQUIRE(ann.request({{"type", "watch"}, {"table", tables.back()}})["type"] == "watching");
    REQUIRE(bob.request({{"type", "watch"}, {"table", tables.back()}})["type"] == "watching");
  }
  auto say = [](WsClient& who, const std::string& table) {
    return who.request({{"type", "chat"}, {"table", table}, {"reaction", "wow"}});
  };
  for (int line = 0; line < 5; ++line) REQUIRE(say(ann, tables[line % 2])["type"] == "ok");
  const auto spread = say(ann, tables[2]);
  CHECK(spread["code"] == "rate_limited");
  CHECK(spread["message"].get<std::string>().find("at all tables together") != std::string::npos);
  CHECK(spread["retry_after_ms"].get<std::int64_t>() > 0);
  // Someone else's lines are their own.
  CHECK(say(bob, tables[2])["type"] == "ok");
  REQUIRE(ann.request({{"type", "end"}, {"table", tables[1]}})["type"] == "ok");
  const auto closed = say(bob, tables[1]);
  CHECK(closed["code"] == "conflict");
  CHECK(closed["message"].get<std::string>().find("finished") != std::string::npos);
}

TEST_CASE("slow readers: the bytes one address's connections leave unsent are capped together") {
  // Issue 25 item 11: 63 sockets that never read held about 100 MiB, each under
  // the per-connection limit. Here each may queue 4 MiB, the address 256 KiB.
  const std::size_t address_cap = 256 * 1024;
  ServerProcess server(ServerProcess::fresh_db("hard-slow-address"),
                       {"--max-queued-bytes-per-ip", std::to_string(address_cap), "--bot-delay-ms", "0",
                        "--deal-pause-ms", "0", "--starting-chips", "100000000"});
  WsClient host(server.port());
  host.hello("host");
  const std::string table = bots_table(host, "red_dog", {{"ante", 1}}, 4)["table"];
  std::vector<std::unique_ptr<WsClient>> sleepers;
  for (int i = 0; i < 5; ++i) {
    sleepers.push_back(std::make_unique<WsClient>(server.port(), 4096));
    sleepers.back()->hello("sleeper" + std::to_string(i));
    REQUIRE(sleepers.back()->request({{"type", "watch"}, {"table", table}})["type"] == "watching");
  }
  std::size_t most_queued = 0;
  // Up to two minutes: a sanitized server on a loaded machine makes its frames slowly.
  for (int i = 0; i < 1200 && metric(server, "parlour_slow_clients_dropped_total") != "5"; ++i) {
    most_queued = std::max<std::size_t>(most_queued, std::stoull(metric(server, "parlour_queued_bytes")));
    sleep_ms(100);
  }
  CHECK(metric(server, "parlour_slow_clients_dropped_total") == "5");
  CHECK(most_queued <= address_cap);
  // The host reads its frames, and its address's budget is free again once the sleepers are dropped.
  CHECK(host.request({{"type", "ping"}})["type"] == "pong");
  CHECK(std::stoull(metric(server, "parlour_queued_bytes")) < address_cap);
}
