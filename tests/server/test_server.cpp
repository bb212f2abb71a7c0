#include <atomic>
#include <bitset>
#include <thread>
#include <doctest/doctest.h>

#include "server/common/config.h"
#include "server/net/connection.h"
#include "server/ledger/live_balances.h"
#include "server/persistence/reader.h"
#include "server/common/tokens.h"
#include "server/lobby/sessions.h"
#include "server/ledger/player_directory.h"

#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <unistd.h>

using namespace parlour::server;


TEST_CASE("tokens are 64 hex digits and differ") {
  auto a = new_token();
  auto b = new_token();
  CHECK(a.size() == 64);
  CHECK(a != b);
  CHECK(constant_time_equal(a, a));
  CHECK_FALSE(constant_time_equal(a, b));
}

TEST_CASE("recovery codes: 20 symbols in groups of four, typed back in any case, checked against a salted hash") {
  const auto code = new_recovery_code();
  CHECK(code.size() == 24);
  CHECK(code[4] == '-');
  CHECK(new_recovery_code() != code);
  const auto stored = salted_hash(code);
  CHECK(stored.find(normalized_code(code)) == std::string::npos);
  CHECK(salted_hash(code) != stored);  // salted: the same code hashes differently each time
  std::string loose;
  for (const char c : code)
    if (c != '-') loose.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  CHECK(salted_hash_matches(loose, stored));
  CHECK(salted_hash_matches(" " + code + " ", stored));
  // Read off a screen, a 0 typed as O and a 1 as I or l still match.
  std::string misread = code;
  for (char& c : misread) c = c == '0' ? 'O' : c == '1' ? 'l' : c;
  CHECK(salted_hash_matches(misread, stored));
  CHECK(normalized_code("o1-IL-oi") == "011101");
  CHECK_FALSE(salted_hash_matches(code.substr(1), stored));
  CHECK_FALSE(salted_hash_matches(code, "no-colon"));
  CHECK_FALSE(salted_hash_matches("", stored));
}

namespace {

struct FakeClient final : Client {
  explicit FakeClient(ClientId id) : id_(id) {}
  ClientId id() const override { return id_; }
  void send(std::shared_ptr<const std::string> frame) override { sent.push_back(*frame); }
  std::string player() const override { return "ann"; }
  void close_revoked() override { closed = true; }
  ClientId id_;
  std::vector<std::string> sent;
  bool closed = false;
};

}  // namespace

TEST_CASE("live sessions: revoking closes the name's connections on other tokens, after a farewell, and no others") {
  LiveSessions sessions;
  auto old_laptop = std::make_shared<FakeClient>(1);
  auto old_phone = std::make_shared<FakeClient>(2);
  auto kept = std::make_shared<FakeClient>(3);
  auto other_name = std::make_shared<FakeClient>(4);
  sessions.add("Ann", "old", old_laptop);
  sessions.add("ann", "old", old_phone);
  sessions.add("ann", "new", kept);
  sessions.add("bob", "old", other_name);
  auto gone = std::make_shared<FakeClient>(5);
  sessions.add("ann", "old", gone);
  gone.reset();  // a closed connection is skipped
  const auto farewell = std::make_shared<const std::string>("bye");
  CHECK(sessions.close_others("ANN", "new", farewell) == 2);
  for (const auto& client : {old_laptop, old_phone}) {
    CHECK(client->closed);
    CHECK(client->sent == std::vector<std::string>{"bye"});
  }
  CHECK_FALSE(kept->closed);
  CHECK(kept->sent.empty());
  CHECK_FALSE(other_name->closed);
  // Closed once: a second revocation finds them gone.
  CHECK(sessions.close_others("ann", "new", farewell) == 0);
}

TEST_CASE("live sessions from the identity feed: the tokens no longer valid closed, all of a banned name, who is online") {
  LiveSessions sessions;
  auto laptop = std::make_shared<FakeClient>(1);
  auto phone = std::make_shared<FakeClient>(2);
  auto bob = std::make_shared<FakeClient>(3);
  sessions.add("ann", "first", laptop);
  sessions.add("ann", "phone", phone);
  sessions.add("Bob", "bob", bob);
  CHECK(sessions.names_online() == std::vector<std::string>{"ann", "bob"});
  const auto farewell = std::make_shared<const std::string>("bye");
  CHECK(sessions.close_invalid("ANN", [](const std::string& hash) { return hash == "phone"; }, farewell) == 1);
  CHECK(laptop->closed);
  CHECK_FALSE(phone->closed);
  CHECK(sessions.close_all("ann", farewell) == 1);
  CHECK(phone->closed);
  CHECK_FALSE(bob->closed);
  laptop.reset();
  phone.reset();
  CHECK(sessions.names_online() == std::vector<std::string>{"bob"});
}

TEST_CASE("player directory: a device told twice is one, bans and renames by name in any case, tokens follow a rename") {
  PlayerDirectory players({parlour::storage::Player{1, "Ann", "t1"}});
  const parlour::storage::Device phone{"d1", "ann", "t2", "phone", ""};
  players.add_device(phone);
  players.add_device(phone);  // by its own writer, then by the feed
  CHECK(players.devices("ANN").size() == 1);
  CHECK(players.signs_in("ann", "t1"));
  CHECK(players.signs_in("ann", "t2"));
  CHECK_FALSE(players.signs_in("bob", "t2"));
  players.set_banned("ANN", true);
  CHECK(players.banned("ann"));
  players.rename("ann", "Anna");
  CHECK_FALSE(players.find("ann"));
  CHECK(players.find("anna")->name == "Anna");
  CHECK(players.find_by_token_hash("t1")->name == "Anna");
  CHECK(players.devices("anna").size() == 1);
  CHECK(players.devices("anna")[0].player == "Anna");
  CHECK(players.signs_in("anna", "t2"));
  CHECK(players.banned("anna"));
  CHECK_FALSE(players.banned("ann"));
  players.set_banned("anna", false);
  CHECK_FALSE(players.banned("anna"));
}

TEST_CASE("flags: defaults, every flag, and clear errors") {
  auto defaults = parse_args({});
  REQUIRE(defaults.config);
  CHECK(defaults.config->port == 8080);
  CHECK(defaults.config->db == "./data/parlour.db");
  CHECK(defaults.config->starting_chips == 1000);
  CHECK_FALSE(defaults.config->allow_stacked_deck);
  auto all = parse_args({"--port", "9000", "--bind", "127.0.0.1", "--db", "x.db", "--starting-chips", "50",
                         "--allow-stacked-deck", "--log-level", "debug", "--bot-delay-ms", "5"});
  REQUIRE(all.config);
  CHECK(all.config->port == 9000);
  CHECK(all.config->bind == "127.0.0.1");
  CHECK(all.config->starting_chips == 50);
  CHECK(all.config->allow_stacked_deck);
  CHECK(all.config->bot_delay_ms == 5);
  CHECK(parse_args({"--port", "99999"}).message.find("bad value for --port") == 0);
  CHECK(parse_args({"--colour"}).message.find("missing value") == 0);
  CHECK(parse_args({"--colour", "red"}).message.find("unknown option --colour") == 0);
  CHECK(parse_args({"--help"}).help);
  auto limited = parse_args({"--rate-limit", "500"});
  REQUIRE(limited.config);
  CHECK(limited.config->rate_per_second == 500);
  CHECK(limited.config->rate_burst == 1000);
  CHECK(defaults.config->registration == Config::Registration::open);
  CHECK(parse_args({"--registration", "invite"}).config->registration == Config::Registration::invite);
  CHECK(parse_args({"--registration", "closed"}).config->registration == Config::Registration::closed);
  CHECK(parse_args({"--registration", "friends"}).message.find("bad value for --registration") == 0);
  CHECK(parse_args({"--recovery-tries-per-hour", "3"}).config->recovery_tries_per_hour == 3);
  CHECK(parse_args({"--signup-links-per-day", "0"}).message.find("bad value for --signup-links-per-day") == 0);
  CHECK(defaults.config->device_link_seconds == 600);
  CHECK(parse_args({"--device-link-seconds", "5"}).config->device_link_seconds == 5);
}

TEST_CASE("the address to open is the one the server really listens on") {
  CHECK(browse_url("0.0.0.0", 9000) == "http://localhost:9000");
  CHECK(browse_url("::", 41234) == "http://localhost:41234");
  CHECK(browse_url("127.0.0.1", 8081) == "http://127.0.0.1:8081");
  CHECK(browse_url("192.168.1.20", 8080) == "http://192.168.1.20:8080");
  CHECK(browse_url("::1", 9000) == "http://[::1]:9000");
}

TEST_CASE("flags for several nodes: a node needs a PostgreSQL database and a plain name") {
  auto node = parse_args({"--node", "east-1", "--db", "postgresql://parlour@db:5432/parlour", "--lease-ms", "1500"});
  REQUIRE(node.config);
  CHECK(node.config->clustered());
  CHECK(node.config->node == "east-1");
  CHECK(node.config->lease_ms == 1500);
  CHECK_FALSE(parse_args({}).config->clustered());
  CHECK(parse_args({"--node", "east-1"}).message.find("--node needs a shared PostgreSQL database") == 0);
  CHECK(parse_args({"--node", "east 1", "--db", "postgresql://db/p"}).message.find("bad value for --node") == 0);
  CHECK(parse_args({"--node", "", "--db", "postgresql://db/p"}).message.find("bad value for --node") == 0);
  CHECK(parse_args({"--lease-ms", "10"}).message.find("bad value for --lease-ms") == 0);
}

TEST_CASE("the rate limiter allows a burst, then the average rate") {
  RateLimiter limiter(10, 5);
  auto t = std::chrono::steady_clock::time_point{} + std::chrono::hours(1);
  int allowed = 0;
  for (int i = 0; i < 20; ++i) allowed += limiter.allow(t);
  CHECK(allowed == 5);
  CHECK(limiter.allow(t + std::chrono::milliseconds(100)));
  CHECK_FALSE(limiter.allow(t + std::chrono::milliseconds(100)));
}

// Several nodes share the ledger: a node's balances are the database's plus
// its own steps not yet committed, each counted once.
TEST_CASE("live balances follow the database's balances with this node's uncommitted steps counted once") {
  LiveBalances balances({{"player:ann", 100}, {"bank", -100}});
  balances.track_uncommitted();
  const std::vector<parlour::storage::Posting> bet = {
      {"player:ann", "pool:t1:pot", 30, "bet", "t1", "red_dog", std::nullopt, std::nullopt}};
  {
    auto held = balances.lock();
    balances.apply(bet, held);
  }
  CHECK(balances.balance("player:ann") == 70);
  // Another node paid ann 50; this node's bet is not in the database yet.
  balances.refresh({{"player:ann", 150}, {"pool:t1:pot", 0}});
  CHECK(balances.balance("player:ann") == 120);
  CHECK(balances.balance("pool:t1:pot") == 30);
  // The bet commits: the database now has it, and it is counted once.
  balances.settled(bet);
  balances.refresh({{"player:ann", 120}, {"pool:t1:pot", 30}});
  CHECK(balances.balance("player:ann") == 120);
  CHECK(balances.balance("pool:t1:pot") == 30);
  // A step that fails is reverted and forgotten.
  {
    auto held = balances.lock();
    balances.apply(bet, held);
  }
  balances.revert(bet);
  balances.refresh({{"player:ann", 120}, {"pool:t1:pot", 30}});
  CHECK(balances.balance("player:ann") == 120);
  // Without tracking (one node), postings are simply applied: settled() and
  // the committed grants change nothing twice.
  LiveBalances alone({{"player:bob", 10}});
  {
    auto held = alone.lock();
    alone.apply_committed({{"bank", "player:bob", 5, "grant", "", "", std::nullopt, std::nullopt}}, held);
  }
  alone.settled(bet);
  CHECK(alone.balance("player:bob") == 15);
}

TEST_CASE("the reader takes one read from each client in turn, and refuses a client's reads beyond its share at once") {
  const auto db = std::filesystem::temp_directory_path() / ("parlour-reader-" + std::to_string(::getpid()) + ".db");
  std::filesystem::remove(db);
  std::vector<std::string> order;
  {
    Reader reader(db.string(), 100, 4);
    std::mutex mutex;
    std::condition_variable opened;
    bool open = false;
    // The gate holds the reader's thread while the queues fill.
    REQUIRE(reader.run([&](parlour::storage::Store&) {
      std::unique_lock lock(mutex);
      opened.wait(lock, [&] { return open; });
    }));
    const auto read = [&](const std::string& who) {
      return [&order, &mutex, who](parlour::storage::Store&) {
        std::lock_guard lock(mutex);
        order.push_back(who);
      };
    };
    for (int i = 0; i < 4; ++i) CHECK(reader.run_for("player:ann", read("ann")) == Reader::Admission::queued);
    CHECK(reader.run_for("player:ann", read("ann")) == Reader::Admission::client_full);
    CHECK(reader.run_for("player:bob", read("bob")) == Reader::Admission::queued);
    {
      std::lock_guard lock(mutex);
      open = true;
    }
    opened.notify_all();
    reader.stop();  // after every read queued has run
  }
  // Bob's one read waits for one of ann's four, not for all of them.
  CHECK(order == std::vector<std::string>{"ann", "bob", "ann", "ann", "ann"});
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db.string() + suffix);
}

// Tables of different players never wait on each other's balances: a table
// locks the stripes of its own accounts only (its pools on one), and a read or
// a move outside what it locked is refused rather than raced.
TEST_CASE("live balances lock by account: disjoint locks are held at once, and an account outside a lock is refused") {
  LiveBalances balances({{"player:ann", 100}, {"player:bob", 100}, {"bank", -200}});
  CHECK(LiveBalances::stripe_of("pool:t1:pot") == LiveBalances::stripe_of("pool:t1:ante"));
  // Two players whose accounts are on different stripes.
  std::string other = "player:b0";
  for (int i = 1; LiveBalances::stripe_of(other) == LiveBalances::stripe_of("player:ann"); ++i)
    other = "player:b" + std::to_string(i);
  auto ann_held = balances.lock({"player:ann"});
  std::atomic<bool> other_locked = false;
  std::thread elsewhere([&] {
    auto held = balances.lock({other});
    other_locked = balances.balance(other, held) == 0;
  });
  elsewhere.join();  // would never return if the locks were one
  CHECK(other_locked);
  CHECK(balances.balance("player:ann", ann_held) == 100);
  const std::vector<parlour::storage::Posting> outside = {
      {"player:ann", other, 5, "gift", "", "", std::nullopt, std::nullopt}};
  CHECK_THROWS_AS(balances.apply(outside, ann_held), std::logic_error);
  CHECK(balances.balance("player:ann", ann_held) == 100);  // refused whole
  CHECK_THROWS_AS(balances.holding("pool:", ann_held), std::logic_error);
  ann_held.unlock();
  auto both = balances.lock({"player:ann", other});
  balances.apply(outside, both);
  CHECK(balances.balance(other, both) == 5);
}

// A Lock names its stripes and its owner only (no list of mutexes): moving it
// hands the stripes over, and whichever holds them last lets them go.
TEST_CASE("a live balances lock moved or assigned over hands its stripes on and lets them go once") {
  LiveBalances balances({{"player:ann", 100}, {"bank", -100}});
  const auto ann = LiveBalances::stripe_of("player:ann");
  const auto taken_elsewhere = [&] {
    std::atomic<bool> done = false;
    std::thread other([&] {
      auto held = balances.lock({"player:ann"});
      done = held.holds(ann);
    });
    other.join();  // would never return while a Lock here still held ann's stripe
    return done.load();
  };
  std::bitset<LiveBalances::kStripes> stripes;
  stripes.set(ann);
  auto first = balances.lock_stripes(stripes);
  CHECK(first.holds(ann));
  auto moved = std::move(first);
  CHECK(moved.holds(ann));
  CHECK_FALSE(first.holds(ann));  // NOLINT(bugprone-use-after-move): a moved-from Lock holds nothing
  CHECK(balances.balance("player:ann", moved) == 100);
  CHECK_THROWS_AS(balances.balance("player:ann", first), std::logic_error);
  first.unlock();  // holds nothing: lets nothing go twice
  LiveBalances::Lock assigned;
  assigned = std::move(moved);
  CHECK(assigned.holds(ann));
  assigned = LiveBalances::Lock{};  // assigned over: lets ann's stripe go
  CHECK_FALSE(assigned.holds(ann));
  CHECK(taken_elsewhere());
  {
    auto scoped = balances.lock({"player:ann"});
    CHECK(scoped.holds(ann));
  }
  CHECK(taken_elsewhere());
}

// A table watches the balances of the people seated at it: every change to
// them, from wherever it comes, wakes it; nothing else does.
TEST_CASE("live balances wake the watchers of an account whose chips move, from a step, a revert or a refresh") {
  LiveBalances balances({{"player:ann", 100}, {"player:bob", 100}, {"bank", -200}});
  balances.track_uncommitted();
  int table_one = 0, table_two = 0;
  const int one_key = 1, two_key = 2;
  balances.watch("player:ann", &one_key, [&] { ++table_one; });
  balances.watch("player:bob", &one_key, [&] { ++table_one; });
  balances.watch("player:ann", &two_key, [&] { ++table_two; });
  const std::vector<parlour::storage::Posting> both_bet = {
      {"player:ann", "pool:t1:pot", 30, "bet", "t1", "red_dog", std::nullopt, std::nullopt},
      {"player:bob", "pool:t1:pot", 30, "bet", "t1", "red_dog", std::nullopt, std::nullopt}};
  {
    auto held = balances.lock();
    balances.apply(both_bet, held);
  }
  CHECK(table_one == 1);  // once for both of its players
  CHECK(table_two == 1);
  balances.revert(both_bet);
  CHECK(table_one == 2);
  CHECK(table_two == 2);
  // Another node's write, read by the cluster thread: only a balance that moved wakes.
  balances.refresh({{"player:ann", 100}, {"player:bob", 60}});
  CHECK(table_one == 3);
  CHECK(table_two == 2);
  balances.unwatch("player:bob", &one_key);
  balances.refresh({{"player:bob", 10}});
  CHECK(table_one == 3);
  {
    auto held = balances.lock();
    balances.apply_committed({{"bank", "player:ann", 5, "grant", "", "", std::nullopt, std::nullopt}}, held);
  }
  CHECK(table_one == 4);
  CHECK(table_two == 3);
}

TEST_CASE("a table's own step wakes every other table watching its players, not itself; its revert wakes it too") {
  LiveBalances balances({{"player:ann", 100}, {"player:bob", 100}, {"bank", -200}});
  int mover = 0, elsewhere = 0;
  const int mover_key = 1, elsewhere_key = 2;
  balances.watch("player:ann", &mover_key, [&] { ++mover; });
  balances.watch("player:bob", &mover_key, [&] { ++mover; });
  balances.watch("player:ann", &elsewhere_key, [&] { ++elsewhere; });
  const std::vector<parlour::storage::Posting> ann_bets = {
      {"player:ann", "pool:t1:pot", 30, "bet", "t1", "red_dog", std::nullopt, std::nullopt}};
  {
    auto held = balances.lock();
    balances.apply(ann_bets, held, &mover_key);
    CHECK(balances.balance("player:ann", held) == 70);
  }
  CHECK(mover == 0);
  CHECK(elsewhere == 1);
  // The step's commit failed: its chips go back, and the table that moved them hears it too.
  balances.revert(ann_bets);
  CHECK(mover == 1);
  CHECK(elsewhere == 2);
  // A step of the other table wakes the first.
  {
    auto held = balances.lock();
    balances.apply(ann_bets, held, &elsewhere_key);
  }
  CHECK(mover == 2);
  CHECK(elsewhere == 2);
}
