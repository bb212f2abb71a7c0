// `parlour admin …` (issue 28 item 1, docs/admin.md) against the real binary
// and a running server on the same SQLite file: what each subcommand changes,
// that the server hears of it through the identity change feed, and that bad
// input is refused with a clear message, a non-zero exit and nothing changed.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>
#include <optional>
#include <regex>
#include <sys/wait.h>
#include <thread>

#include "storage/store.h"
#include "tests/integration/server_process.h"

using parlour::test::Json;
using parlour::test::ServerProcess;
using parlour::test::WsClient;
using Clock = std::chrono::steady_clock;

namespace {

struct Run {
  int status = -1;
  std::string output;  // stdout and stderr together
};

Run admin(const std::string& db, const std::string& args) {
  const auto command = parlour::support::parlour_binary() + " admin " + args + " --db " + db + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  Run run;
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe)) run.output += buffer;
  const int raw = ::pclose(pipe);
  run.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return run;
}

Json hello(WsClient& client, Json fields) {
  fields["type"] = "hello";
  return client.request(std::move(fields));
}

// How long until the server closed `client` (its farewell read on the way), or nullopt after `ms`.
std::optional<long> closed_within(WsClient& client, int ms) {
  const auto since = Clock::now();
  const auto deadline = since + std::chrono::milliseconds(ms);
  while (Clock::now() < deadline) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (!client.read(static_cast<int>(std::max<long>(1, left))) && client.broken())
      return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - since).count();
  }
  return std::nullopt;
}

bool has_farewell(const WsClient& client, const std::string& code, const std::string& words) {
  for (const auto& text : client.frames()) {
    const auto frame = Json::parse(text);
    if (frame.value("type", "") == "error" && !frame.contains("re") && frame.value("code", "") == code &&
        frame.value("message", "").find(words) != std::string::npos)
      return true;
  }
  return false;
}

// What a refused command must leave as it was.
struct Book {
  std::vector<parlour::storage::Player> players;
  std::vector<std::pair<std::string, std::int64_t>> balances;
  std::vector<std::string> banned;
  std::int64_t changes = 0;
  bool operator==(const Book& other) const {
    if (players.size() != other.players.size()) return false;
    for (std::size_t i = 0; i < players.size(); ++i)
      if (players[i].name != other.players[i].name || players[i].token_hash != other.players[i].token_hash)
        return false;
    return balances == other.balances && banned == other.banned && changes == other.changes;
  }
};
Book book_of(const std::string& db) {
  const auto store = parlour::storage::open_store(db);
  return Book{store->all_players(), store->balances(""), store->banned_names(), store->last_identity_change()};
}

}  // namespace

TEST_CASE("admin ban closes the name's live connection within a second and refuses the next sign-in; unban lets it in") {
  const auto db = ServerProcess::fresh_db("admin-ban");
  ServerProcess server(db);
  WsClient ann(server.port()), bob(server.port());
  const auto token = hello(ann, {{"name", "ann"}})["token"].get<std::string>();
  REQUIRE(hello(bob, {{"name", "bob"}})["type"] == "welcome");
  const auto device_code = ann.request({{"type", "device_link"}})["code"];

  const auto banned = admin(db, "ban ANN");
  CHECK(banned.status == 0);
  CHECK(banned.output.find("ann is banned") != std::string::npos);
  const auto closed_after = closed_within(ann, 3000);
  REQUIRE(closed_after);
  MESSAGE("the banned name's connection closed " << *closed_after << " ms after the ban was committed");
  // The feed is read every 500 ms: a second with room for a loaded machine.
  CHECK(*closed_after <= 1500);
  CHECK(has_farewell(ann, "forbidden", "banned"));
  // Others carry on.
  CHECK(bob.request({{"type", "tables"}})["type"] == "tables");

  WsClient again(server.port());
  const auto refused = hello(again, {{"name", "ann"}, {"token", token}});
  CHECK(refused["code"] == "forbidden");
  CHECK(refused["message"].get<std::string>().find("banned") != std::string::npos);
  CHECK(server.get("/api/players/ann/ledger", token).first == 401);
  // Nor through a device code made before the ban, nor a recovery.
  WsClient by_code(server.port());
  CHECK(by_code.request({{"type", "device_sign_in"}, {"code", device_code}})["code"] == "forbidden");
  CHECK(by_code.request({{"type", "recover"}, {"name", "ann"}, {"code", "AAAA-AAAA-AAAA-AAAA-AAAA"}})["code"] ==
        "forbidden");
  CHECK(admin(db, "ban ann").output.find("already") != std::string::npos);
  CHECK(admin(db, "players").output.find("ann (banned)") != std::string::npos);

  // A restarted server still refuses him (the ban is stored, not only fed).
  server.stop();
  server.start();
  WsClient after_restart(server.port());
  CHECK(hello(after_restart, {{"name", "ann"}, {"token", token}})["code"] == "forbidden");

  CHECK(admin(db, "unban ann").status == 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  WsClient back(server.port());
  CHECK(hello(back, {{"name", "ann"}, {"token", token}})["type"] == "welcome");
}

TEST_CASE("admin adjust moves chips against the bank with its memo, seen in both ledgers and by the running server") {
  const auto db = ServerProcess::fresh_db("admin-adjust");
  ServerProcess server(db);
  WsClient ann(server.port());
  const auto token = hello(ann, {{"name", "ann"}})["token"].get<std::string>();
  const auto bank_before = parlour::storage::open_store(db)->balance("bank");

  const auto given = admin(db, "adjust ann 250 --memo 'won the quiz'");
  CHECK(given.status == 0);
  CHECK(given.output.find("now 1250") != std::string::npos);
  {
    const auto store = parlour::storage::open_store(db);
    const auto entries = store->ledger(parlour::storage::player_account("ann"), 10, std::nullopt);
    REQUIRE(entries.size() == 2);
    CHECK(entries[0].amount == 250);
    CHECK(entries[0].memo == "admin: won the quiz");
    const auto bank = store->ledger("bank", 1, std::nullopt);
    REQUIRE(bank.size() == 1);
    CHECK(bank[0].amount == -250);
    CHECK(bank[0].memo == "admin: won the quiz");
    CHECK(store->balance("bank") == bank_before - 250);
    CHECK(store->total_of_all_accounts() == 0);
  }
  // The server's own ledger page shows it with its memo, and a new welcome the new chips.
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  const auto page = ann.request({{"type", "ledger"}, {"player", "ann"}});
  REQUIRE(page["entries"].size() >= 1);
  CHECK(page["entries"][0]["memo"] == "admin: won the quiz");
  CHECK(page["entries"][0]["amount"] == 250);
  WsClient later(server.port());
  CHECK(hello(later, {{"name", "ann"}, {"token", token}})["chips"] == 1250);

  CHECK(admin(db, "adjust ann -50 --memo 'quiz fee'").status == 0);
  CHECK(parlour::storage::open_store(db)->balance(parlour::storage::player_account("ann")) == 1200);

  SUBCASE("bad input: refused with a clear message and a non-zero exit, nothing changed") {
    const Book before = book_of(db);
    const auto past_zero = admin(db, "adjust ann -5000 --memo oops");
    CHECK(past_zero.status == 1);
    CHECK(past_zero.output.find("has 1200 chips") != std::string::npos);
    const auto no_memo = admin(db, "adjust ann 10");
    CHECK(no_memo.status == 1);
    CHECK(no_memo.output.find("--memo") != std::string::npos);
    CHECK(admin(db, "adjust ann 10 --memo ' '").status == 1);
    for (const char* amount : {"ten", "0", "1.5", "12x", "99999999999999999999"}) {
      const auto bad = admin(db, std::string("adjust ann ") + amount + " --memo x");
      CAPTURE(amount);
      CHECK(bad.status == 1);
      CHECK(bad.output.find("bad amount") != std::string::npos);
    }
    const auto nobody = admin(db, "adjust nobody 10 --memo x");
    CHECK(nobody.status == 1);
    CHECK(nobody.output.find("no player named 'nobody'") != std::string::npos);
    CHECK(admin(db, "ban nobody").status == 1);
    CHECK(admin(db, "unban nobody").status == 1);
    CHECK(admin(db, "claim-link nobody").status == 1);
    CHECK(admin(db, "rename nobody somebody").status == 1);
    CHECK(admin(db, "end-table tnosuch").status == 1);
    CHECK(admin(db, "rename ann bot-ann").status == 1);
    CHECK(admin(db, "rename ann 'has space'").status == 1);
    CHECK(admin(db, "frobnicate").status == 2);
    CHECK(admin(db, "players --colour red").status == 2);
    CHECK(admin(db, "claim-link ann --hours 0").status == 1);
    CHECK(book_of(db) == before);
  }
}

TEST_CASE("admin claim-link: the code works once, through 'Lost your key?', and signs out every old key and device") {
  const auto db = ServerProcess::fresh_db("admin-claim");
  ServerProcess server(db);
  WsClient laptop(server.port());
  const auto old_token = hello(laptop, {{"name", "cleo"}})["token"].get<std::string>();
  const auto device_code = laptop.request({{"type", "device_link"}})["code"];
  WsClient phone(server.port());
  REQUIRE(phone.request({{"type", "device_sign_in"}, {"code", device_code}})["type"] == "welcome");

  const auto made = admin(db, "claim-link cleo --public-url https://cards.example.org/");
  REQUIRE(made.status == 0);
  std::smatch found;
  REQUIRE(std::regex_search(made.output, found, std::regex("claim code ([0-9A-Z-]{24})")));
  const std::string code = found[1];
  CHECK(made.output.find("https://cards.example.org/") != std::string::npos);

  WsClient claimer(server.port());
  const auto claimed = claimer.request({{"type", "recover"}, {"name", "cleo"}, {"code", code}});
  REQUIRE(claimed["type"] == "welcome");
  CHECK(claimed["player"] == "cleo");
  CHECK(claimed["recovery_code"].is_string());
  const auto new_token = claimed["token"].get<std::string>();
  for (WsClient* old : {&laptop, &phone}) CHECK(closed_within(*old, 3000));
  WsClient old_key(server.port());
  CHECK(hello(old_key, {{"name", "cleo"}, {"token", old_token}})["code"] == "unauthorized");
  CHECK(claimer.request({{"type", "devices"}})["devices"].size() == 1);
  // Once only.
  WsClient twice(server.port());
  CHECK(twice.request({{"type", "recover"}, {"name", "cleo"}, {"code", code}})["code"] == "unauthorized");
  WsClient fresh(server.port());
  CHECK(hello(fresh, {{"name", "cleo"}, {"token", new_token}})["type"] == "welcome");
}

TEST_CASE("admin rename, players, online, tables and end-table on a running server") {
  const auto db = ServerProcess::fresh_db("admin-misc");
  ServerProcess server(db);
  WsClient dan(server.port()), eve(server.port());
  const auto dan_token = hello(dan, {{"name", "dan"}})["token"].get<std::string>();
  REQUIRE(hello(eve, {{"name", "eve"}})["type"] == "welcome");
  const auto table = eve.request({{"type", "create"}, {"game", "red_dog"}, {"seats", 2}})["table"].get<std::string>();
  REQUIRE(eve.request({{"type", "join"}, {"table", table}})["type"] == "joined");

  // Presence is published every 3 s.
  std::this_thread::sleep_for(std::chrono::milliseconds(3500));
  const auto online = admin(db, "online");
  CHECK(online.status == 0);
  CHECK(online.output.find("dan\tserver") != std::string::npos);
  CHECK(online.output.find("2 signed in on 1 server") != std::string::npos);
  const auto players = admin(db, "players");
  CHECK(std::regex_search(players.output, std::regex("eve +online now +1000 +1 +1")));

  // Seated at an unfinished table: not renamed.
  const auto seated = admin(db, "rename eve eva");
  CHECK(seated.status == 1);
  CHECK(seated.output.find("seated at unfinished table " + table) != std::string::npos);
  CHECK(admin(db, "rename dan EVE").status == 1);  // taken, in any case

  CHECK(admin(db, "rename dan daniel").status == 0);
  CHECK(closed_within(dan, 3000));
  WsClient renamed(server.port());
  const auto welcome = hello(renamed, {{"name", "daniel"}, {"token", dan_token}});
  CHECK(welcome["type"] == "welcome");
  CHECK(welcome["chips"] == 1000);
  // The old name is free: whoever takes it is a new player, with a new key and the starting chips.
  WsClient old_name(server.port());
  const auto newcomer = hello(old_name, {{"name", "dan"}, {"token", dan_token}});
  REQUIRE(newcomer["type"] == "welcome");
  CHECK(newcomer["token"] != dan_token);
  CHECK(newcomer["chips"] == 1000);
  WsClient newcomer_again(server.port());  // the chips the server holds for the name, not its welcome's
  CHECK(hello(newcomer_again, {{"name", "dan"}, {"token", newcomer["token"]}})["chips"] == 1000);
  CHECK(parlour::storage::open_store(db)->find_player("dan")->id != parlour::storage::open_store(db)->find_player("daniel")->id);

  const auto listed = admin(db, "tables");
  CHECK(listed.output.find(table) != std::string::npos);
  const auto ended = admin(db, "end-table " + table);
  CHECK(ended.status == 0);
  CHECK(parlour::storage::open_store(db)->find_table(table)->status == "finished");
  // The players at it are told the operator ended it, not that the server failed.
  const auto told = eve.state_within(
      [](const Json& s) { return s.dump().find("The server's operator has ended the table") != std::string::npos; }, 5000);
  REQUIRE(told);
  CHECK(told->dump().find("fault in the server") == std::string::npos);
  CHECK(admin(db, "end-table " + table).status == 1);  // finished already
  const auto after = admin(db, "tables");
  CHECK(after.output.find("parlour admin end-table") != std::string::npos);
}
