// Accounts (issue 27 items 3 and 4, docs/playing.md "Accounts and recovery"), against
// the real binary: who may take a new name (--registration), sign-up links,
// and recovery codes, with what a refusal leaves unchanged.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <regex>
#include <thread>

#include "rules/sha256.h"
#include "storage/store.h"
#include "tests/integration/server_process.h"

using parlour::test::Json;
using parlour::test::ServerProcess;
using parlour::test::WsClient;

namespace {

Json hello(WsClient& client, Json fields) {
  fields["type"] = "hello";
  return client.request(std::move(fields));
}

// What a refused sign-up must leave as it was: the names and the chips.
struct Book {
  std::size_t players = 0;
  std::vector<std::pair<std::string, std::int64_t>> balances;
  friend bool operator==(const Book&, const Book&) = default;
};
Book book_of(const std::string& db) {
  const auto store = parlour::storage::open_store(db);
  return Book{store->all_players().size(), store->balances("")};
}

// `parlour signup-link …`'s output.
std::string run_signup_link(const std::string& args) {
  FILE* pipe = ::popen((parlour::support::parlour_binary() + " signup-link " + args + " 2>&1").c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string out;
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe)) out += buffer;
  ::pclose(pipe);
  return out;
}

std::string code_in(const std::string& text) {
  std::smatch found;
  REQUIRE(std::regex_search(text, found, std::regex("sign-up code ([0-9a-f]{32})")));
  return found[1];
}

}  // namespace

TEST_CASE("--registration invite: a stranger is refused and nothing changes; an invite or a sign-up link lets a name in") {
  const auto db = ServerProcess::fresh_db("accounts-invite");
  // The operator's link lets the host in on an empty server.
  const auto operator_code = code_in(run_signup_link("--db " + db + " --uses 1"));
  ServerProcess server(db, {"--registration", "invite"});

  WsClient host(server.port());
  const auto host_welcome = hello(host, {{"name", "host"}, {"signup", operator_code}});
  REQUIRE(host_welcome["type"] == "welcome");
  const Book before = book_of(db);

  SUBCASE("a stranger without an invite, with a made-up invite or with a made-up link") {
    WsClient stranger(server.port());
    CHECK(hello(stranger, {{"name", "stranger"}})["code"] == "invite_required");
    CHECK(hello(stranger, {{"name", "stranger"}, {"invite", "nosuchinvite"}})["code"] == "invite_required");
    CHECK(hello(stranger, {{"name", "stranger"}, {"signup", std::string(32, 'a')}})["code"] == "invite_required");
    // The operator's link had one use: the host took it.
    CHECK(hello(stranger, {{"name", "stranger"}, {"signup", operator_code}})["code"] == "invite_required");
    // Not signed in: nothing else is served.
    CHECK(stranger.request({{"type", "tables"}})["code"] == "unauthorized");
    CHECK(book_of(db) == before);
  }

  SUBCASE("a table's invite") {
    const auto created = host.request({{"type", "create"}, {"game", "red_dog"}, {"private", true}});
    REQUIRE(created["type"] == "created");
    WsClient friend_(server.port());
    const auto welcome = hello(friend_, {{"name", "friend"}, {"invite", created["invite"]}});
    CHECK(welcome["type"] == "welcome");
    CHECK(welcome["chips"] == 1000);
    CHECK(book_of(db).players == before.players + 1);
    // Once the table is over, its invite (the table still in memory) lets no new name in.
    REQUIRE(host.request({{"type", "end"}, {"table", created["table"]}})["type"] == "ok");
    const Book ended = book_of(db);
    REQUIRE(parlour::storage::open_store(db)->find_table(created["table"])->status == "finished");
    WsClient late(server.port());
    CHECK(hello(late, {{"name", "late"}, {"invite", created["invite"]}})["code"] == "invite_required");
    CHECK(book_of(db) == ended);
  }

  SUBCASE("a sign-up link: its uses, then refused with nothing changed") {
    const auto link = host.request({{"type", "signup_link"}, {"uses", 2}, {"hours", 1}});
    REQUIRE(link["type"] == "signup_link");
    CHECK(link["uses"] == 2);
    const auto code = link["code"].get<std::string>();
    WsClient a(server.port()), b(server.port()), c(server.port());
    CHECK(hello(a, {{"name", "anna"}, {"signup", code}})["type"] == "welcome");
    // A taken name spends no use.
    CHECK(hello(b, {{"name", "ANNA"}, {"signup", code}})["code"] == "unauthorized");
    CHECK(hello(b, {{"name", "bert"}, {"signup", code}})["type"] == "welcome");
    const Book after_two = book_of(db);
    CHECK(after_two.players == before.players + 2);
    CHECK(hello(c, {{"name", "carl"}, {"signup", code}})["code"] == "invite_required");
    CHECK(book_of(db) == after_two);
  }

  SUBCASE("a sign-up link past its expiry") {
    // Made by the operator with a time already past is not possible (hours >= 1):
    // written straight into the database instead.
    {
      const auto store = parlour::storage::open_store(db);
      store->create_signup_link({parlour::rules::sha256_hex("expired-code"), "host", 5, "2020-01-01T00:00:00.000Z"});
    }
    WsClient late(server.port());
    CHECK(hello(late, {{"name", "late"}, {"signup", "expired-code"}})["code"] == "invite_required");
    CHECK(book_of(db) == before);
  }

  // Names already taken always sign in with their token.
  WsClient again(server.port());
  CHECK(hello(again, {{"name", "host"}, {"token", host_welcome["token"]}})["type"] == "welcome");
}

TEST_CASE("--registration closed takes no new names, and existing names sign in; open is the default") {
  const auto db = ServerProcess::fresh_db("accounts-closed");
  std::string token;
  {
    ServerProcess open(db);
    WsClient first(open.port());
    token = first.hello("early");
    WsClient link_maker(open.port());
    link_maker.hello("maker");
    CHECK(link_maker.request({{"type", "signup_link"}})["code"] == "conflict");
  }
  const Book before = book_of(db);
  ServerProcess closed(db, {"--registration", "closed"});
  WsClient stranger(closed.port());
  CHECK(hello(stranger, {{"name", "late"}})["code"] == "registration_closed");
  CHECK(book_of(db) == before);
  WsClient early(closed.port());
  CHECK(hello(early, {{"name", "early"}, {"token", token}})["type"] == "welcome");
  CHECK(early.request({{"type", "signup_link"}})["code"] == "forbidden");
}

namespace {

// The frames a client got that are `error` pushes (no `re`) with `code`.
int farewells(const WsClient& client, const std::string& code) {
  int count = 0;
  for (const auto& text : client.frames()) {
    const auto frame = Json::parse(text);
    if (frame.value("type", "") == "error" && !frame.contains("re") && frame.value("code", "") == code) ++count;
  }
  return count;
}

// "ABCD-EFGH-..." as a person may type it back: lower case, no dashes.
std::string typed_loosely(std::string code) {
  std::string out;
  for (const char c : code)
    if (c != '-') out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return out;
}

}  // namespace

TEST_CASE("recovery: the code is shown once, gives a new token, revokes the old one and closes its connections") {
  const auto db = ServerProcess::fresh_db("accounts-recover");
  ServerProcess server(db);
  WsClient laptop(server.port());
  const auto first = hello(laptop, {{"name", "alice"}});
  REQUIRE(first["type"] == "welcome");
  const auto code = first["recovery_code"].get<std::string>();
  CHECK(std::regex_match(code, std::regex("([0-9A-HJKMNP-TV-Z]{4}-){4}[0-9A-HJKMNP-TV-Z]{4}")));
  const auto old_token = first["token"].get<std::string>();
  // Shown once: signing in again with the token carries no code.
  WsClient tablet(server.port());
  const auto again = hello(tablet, {{"name", "alice"}, {"token", old_token}});
  REQUIRE(again["type"] == "welcome");
  CHECK_FALSE(again.contains("recovery_code"));
  const auto chips = again["chips"];
  // A linked device, revoked by the recovery too.
  WsClient linked(server.port());
  const auto device_code = tablet.request({{"type", "device_link"}})["code"];
  const auto linked_token = linked.request({{"type", "device_sign_in"}, {"code", device_code}})["token"].get<std::string>();

  WsClient phone(server.port());
  CHECK(phone.request({{"type", "recover"}, {"name", "alice"}, {"code", "AAAA-AAAA-AAAA-AAAA-AAAA"}})["code"] ==
        "unauthorized");
  // A wrong try changed nothing: the old token still signs in.
  WsClient check(server.port());
  CHECK(hello(check, {{"name", "alice"}, {"token", old_token}})["type"] == "welcome");

  const auto recovered = phone.request({{"type", "recover"}, {"name", "alice"}, {"code", typed_loosely(code)}});
  REQUIRE(recovered["type"] == "welcome");
  CHECK(recovered["player"] == "alice");
  CHECK(recovered["chips"] == chips);
  const auto new_token = recovered["token"].get<std::string>();
  CHECK(new_token != old_token);
  // Used up: a new code replaces it, shown once.
  const auto new_code = recovered["recovery_code"].get<std::string>();
  CHECK(new_code != code);

  // The old token's live connections hear why, then close (1008).
  for (WsClient* revoked : {&laptop, &tablet, &check, &linked}) {
    CHECK(revoked->close_code() == 1008);
    CHECK(farewells(*revoked, "unauthorized") == 1);
  }
  // The recovering connection is signed in and stays open.
  CHECK(phone.request({{"type", "tables"}})["type"] == "tables");
  CHECK(farewells(phone, "unauthorized") == 0);

  WsClient old_device(server.port());
  CHECK(hello(old_device, {{"name", "alice"}, {"token", old_token}})["code"] == "unauthorized");
  CHECK(hello(old_device, {{"name", "alice"}, {"token", linked_token}})["code"] == "unauthorized");
  CHECK(phone.request({{"type", "devices"}})["devices"].size() == 1);
  CHECK(server.get("/api/players/alice/ledger", old_token).first == 401);
  WsClient new_device(server.port());
  CHECK(hello(new_device, {{"name", "alice"}, {"token", new_token}})["type"] == "welcome");
  // The used code is refused; the new one is the code now.
  WsClient reuse(server.port());
  CHECK(reuse.request({{"type", "recover"}, {"name", "alice"}, {"code", code}})["code"] == "unauthorized");

  // The new token survives a restart (it is the stored one).
  server.stop();
  server.start();
  WsClient after_restart(server.port());
  CHECK(hello(after_restart, {{"name", "alice"}, {"token", new_token}})["type"] == "welcome");
  WsClient old_after_restart(server.port());
  CHECK(hello(old_after_restart, {{"name", "alice"}, {"token", old_token}})["code"] == "unauthorized");
}

TEST_CASE("recovery tries are limited per name and per address, and a name nobody has is answered alike") {
  const auto db = ServerProcess::fresh_db("accounts-recover-limit");
  ServerProcess server(db, {"--recovery-tries-per-hour", "3"});
  WsClient owner(server.port());
  const auto code = hello(owner, {{"name", "bob"}})["recovery_code"].get<std::string>();
  WsClient guesser(server.port());
  const auto wrong = [&](const std::string& name) {
    return guesser.request({{"type", "recover"}, {"name", name}, {"code", "ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ"}});
  };
  const auto for_bob = wrong("bob");
  const auto for_nobody = wrong("nobody");
  CHECK(for_bob["code"] == "unauthorized");
  CHECK(for_nobody["code"] == "unauthorized");
  CHECK(for_bob["message"] == for_nobody["message"]);
  CHECK(wrong("bob")["code"] == "unauthorized");
  // Three tries from this address: the fourth is refused before any check,
  // even with the right code.
  CHECK(guesser.request({{"type", "recover"}, {"name", "bob"}, {"code", code}})["code"] == "rate_limited");
  // bob's token was never revoked.
  CHECK(owner.request({{"type", "tables"}})["type"] == "tables");
}

TEST_CASE("device links: another device signs in as the same name with its own token; listed; revoked and closed") {
  const auto db = ServerProcess::fresh_db("accounts-devices");
  ServerProcess server(db, {"--device-link-seconds", "1"});
  WsClient laptop(server.port());
  const auto first = hello(laptop, {{"name", "dora"}});
  REQUIRE(first["type"] == "welcome");
  const auto laptop_token = first["token"].get<std::string>();

  const auto link = laptop.request({{"type", "device_link"}});
  REQUIRE(link["type"] == "device_link");
  const auto code = link["code"].get<std::string>();
  WsClient phone(server.port());
  const auto welcome = phone.request({{"type", "device_sign_in"}, {"code", typed_loosely(code)}, {"label", "phone"}});
  REQUIRE(welcome["type"] == "welcome");
  CHECK(welcome["player"] == "dora");
  CHECK(welcome["chips"] == first["chips"]);
  CHECK_FALSE(welcome.contains("recovery_code"));
  const auto phone_token = welcome["token"].get<std::string>();
  CHECK(phone_token != laptop_token);

  // One use only; an unknown code alike.
  WsClient again(server.port());
  CHECK(again.request({{"type", "device_sign_in"}, {"code", code}})["code"] == "unauthorized");
  CHECK(again.request({{"type", "device_sign_in"}, {"code", "ABCD-EFGH-JKMN-PQRS"}})["code"] == "unauthorized");
  // Expired (valid 1 s here): refused, and no device added.
  const auto late = laptop.request({{"type", "device_link"}})["code"].get<std::string>();
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  CHECK(again.request({{"type", "device_sign_in"}, {"code", late}})["code"] == "unauthorized");

  // Listed without tokens: the first device and the phone, both seen.
  const auto listed = laptop.request({{"type", "devices"}});
  REQUIRE(listed["devices"].size() == 2);
  CHECK(listed["devices"][0]["id"] == "first");
  CHECK(listed["devices"][1]["label"] == "phone");
  CHECK(listed["devices"][1]["last_seen"].is_string());
  CHECK(listed.dump().find(phone_token) == std::string::npos);
  CHECK(listed.dump().find(laptop_token) == std::string::npos);
  const auto phone_id = listed["devices"][1]["id"].get<std::string>();

  // The phone's token signs in on its own, and survives a restart.
  server.stop();
  server.start();
  WsClient phone_again(server.port()), laptop_again(server.port());
  CHECK(hello(phone_again, {{"name", "dora"}, {"token", phone_token}})["type"] == "welcome");
  CHECK(hello(laptop_again, {{"name", "dora"}, {"token", laptop_token}})["type"] == "welcome");

  // Revoked from the laptop: the phone's live connection hears why and closes; its token is refused.
  CHECK(laptop_again.request({{"type", "revoke_device"}, {"device", "nosuch"}})["code"] == "not_found");
  CHECK(laptop_again.request({{"type", "revoke_device"}, {"device", phone_id}})["type"] == "ok");
  CHECK(phone_again.close_code() == 1008);
  CHECK(farewells(phone_again, "unauthorized") == 1);
  WsClient phone_later(server.port());
  CHECK(hello(phone_later, {{"name", "dora"}, {"token", phone_token}})["code"] == "unauthorized");
  CHECK(laptop_again.request({{"type", "devices"}})["devices"].size() == 1);
  CHECK(laptop_again.request({{"type", "tables"}})["type"] == "tables");

  // A lost laptop: revoked from a second device, the first device's token is out.
  const auto code2 = laptop_again.request({{"type", "device_link"}})["code"].get<std::string>();
  WsClient tablet(server.port());
  REQUIRE(tablet.request({{"type", "device_sign_in"}, {"code", code2}})["type"] == "welcome");
  CHECK(tablet.request({{"type", "revoke_device"}, {"device", "first"}})["type"] == "ok");
  CHECK(laptop_again.close_code() == 1008);
  // The revoked first device is listed no more, and cannot be revoked twice.
  const auto left = tablet.request({{"type", "devices"}})["devices"];
  REQUIRE(left.size() == 1);
  CHECK(left[0]["id"] != "first");
  CHECK(tablet.request({{"type", "revoke_device"}, {"device", "first"}})["code"] == "not_found");
  WsClient laptop_later(server.port());
  CHECK(hello(laptop_later, {{"name", "dora"}, {"token", laptop_token}})["code"] == "unauthorized");
  CHECK(tablet.request({{"type", "tables"}})["type"] == "tables");
}

TEST_CASE("passphrase: set with the token, signs another device in, wrong ones refused and limited") {
  const auto db = ServerProcess::fresh_db("accounts-passphrase");
  ServerProcess server(db, {"--recovery-tries-per-hour", "4"});
  WsClient laptop(server.port());
  REQUIRE(hello(laptop, {{"name", "erik"}})["type"] == "welcome");
  WsClient phone(server.port());
  const auto sign_in = [&](WsClient& client, const std::string& name, const std::string& passphrase) {
    return client.request({{"type", "passphrase_sign_in"}, {"name", name}, {"passphrase", passphrase}});
  };
  // None set yet: refused like a wrong one.
  CHECK(sign_in(phone, "erik", "correct horse battery")["code"] == "unauthorized");
  // Signed in only: a stranger cannot set one.
  WsClient stranger(server.port());
  CHECK(stranger.request({{"type", "set_passphrase"}, {"passphrase", "correct horse battery"}})["code"] ==
        "unauthorized");
  CHECK(laptop.request({{"type", "set_passphrase"}, {"passphrase", "correct horse battery"}})["type"] == "ok");
  CHECK(sign_in(phone, "erik", "wrong horse battery")["code"] == "unauthorized");
  const auto welcome = sign_in(phone, "erik", "correct horse battery");
  REQUIRE(welcome["type"] == "welcome");
  CHECK(welcome["player"] == "erik");
  // A device of its own, listed and revocable.
  const auto devices = laptop.request({{"type", "devices"}})["devices"];
  REQUIRE(devices.size() == 2);
  CHECK(devices[1]["label"] == "signed in with the passphrase");
  // The passphrase is stored as an Argon2id string, never as typed.
  {
    const auto store = parlour::storage::open_store(db);
    const auto stored = store->passphrase_hash(store->find_player("erik")->id);
    CHECK(stored.rfind("$argon2id$", 0) == 0);
    CHECK(stored.find("correct horse") == std::string::npos);
  }
  // Changed: the old one no longer signs in (the fourth try from this address:
  // one before any was set, one wrong, one right, this one); the fifth is
  // refused before any check, even with the new passphrase.
  CHECK(laptop.request({{"type", "set_passphrase"}, {"passphrase", "a new passphrase"}})["type"] == "ok");
  WsClient tablet(server.port());
  CHECK(sign_in(tablet, "erik", "correct horse battery")["code"] == "unauthorized");
  CHECK(sign_in(tablet, "erik", "a new passphrase")["code"] == "rate_limited");
}

TEST_CASE("a name registered before recovery codes is given one at its next sign-in, once") {
  const auto db = ServerProcess::fresh_db("accounts-old-name");
  const std::string token(64, 'a');
  parlour::storage::open_store(db)->create_player("olga", parlour::rules::sha256_hex(token), 1000);
  ServerProcess server(db);
  WsClient first(server.port());
  const auto welcome = hello(first, {{"name", "olga"}, {"token", token}});
  REQUIRE(welcome["type"] == "welcome");
  const auto code = welcome["recovery_code"].get<std::string>();
  WsClient second(server.port());
  CHECK_FALSE(hello(second, {{"name", "olga"}, {"token", token}}).contains("recovery_code"));
  // Still none after a restart; and the code recovers the name.
  server.stop();
  server.start();
  WsClient third(server.port());
  CHECK_FALSE(hello(third, {{"name", "olga"}, {"token", token}}).contains("recovery_code"));
  WsClient phone(server.port());
  CHECK(phone.request({{"type", "recover"}, {"name", "olga"}, {"code", code}})["type"] == "welcome");
}
