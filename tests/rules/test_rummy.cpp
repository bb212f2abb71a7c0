// Rummy, source 000 "RUMMY" and its simple variants; rules/rummy.md §2.1–2.2,
// examples E1–E8.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <set>

#include "tests/rules/harness.h"
#include "tests/rules/rummy_kit.h"
#include "tests/rules/playout.h"
#include "rules/snapshot.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_rummy {

using parlour::rules::Json;
using parlour::rules::Phase;
using parlour::test::cards;
using parlour::test::Harness;
using parlour::test::view_pile;
using namespace parlour::test::rummy_kit;

namespace {

// Three players, seven cards: seat 1 plays first, then 2, then the dealer 0.
const std::vector<std::string> b_hand = {"KS", "7C", "AD", "3C", "4C", "8D", "TD"};   // 43
const std::vector<std::string> c_hand = {"QC", "JD", "2S", "3S", "5S", "7S", "8S"};   // 45

}  // namespace

TEST_CASE("deal: 10 cards each for two, 7 for three or four, 6 for five or six; an upcard starts the pile") {
  for (auto [players, size] : std::vector<std::pair<int, std::size_t>>{{2, 10}, {3, 7}, {4, 7}, {5, 6}, {6, 6}}) {
    Harness h("rummy", options(), std::vector<std::int64_t>(players, 100));
    auto view = h.game().view(0);
    CHECK(view["seats"][0]["cards"].size() == size);
    CHECK(view_pile(view, "discard")["top"].is_string());
    CHECK(view_pile(view, "stock")["count"] == 52 - players * static_cast<int>(size) - 1);
    CHECK(view["seats"][1]["cards"][0] == "??");
    CHECK(h.game().to_act() == std::vector<int>{1});
  }
}

TEST_CASE("E1: the player who goes out collects each opponent's count; melding on an earlier turn is no rummy") {
  auto deck = deal_with_upcard({{"5H", "6H", "7H", "9C", "9D", "9S", "KC"}, b_hand, c_hand}, "2C",
                    {"QD", "6D", "6C", "8H"});
  Harness h("rummy", options(), {100, 100, 100}, 1, deck);
  h.act(1, draw());  // QD
  h.act(1, meld({"5H", "6H", "7H"}));
  h.act(1, meld({"9C", "9D", "9S"}));
  h.act(1, discard("KC"));
  h.act(2, draw());  // 6D
  h.act(2, discard("6D"));
  h.act(0, draw());  // 6C
  h.act(0, discard("6C"));
  h.act(1, draw());  // 8H
  h.act(1, lay_off(0, {"8H"}));
  h.act(1, discard("QD"));
  CHECK(h.game().phase() != Phase::playing);
  auto result = h.game().result();
  CHECK(result["winner"] == 1);
  CHECK(result["rummy"] == false);
  CHECK(h.chips() == std::vector<std::int64_t>{100 - 45, 100 + 43 + 45, 100 - 43});
}

TEST_CASE("E2: going rummy in one turn collects double") {
  auto deck = deal_with_upcard({{"5H", "6H", "7H", "8H", "9C", "9D", "KC"}, b_hand, c_hand}, "2C", {"9S"});
  Harness h("rummy", options(), {200, 200, 200}, 1, deck);
  h.act(1, draw());
  h.act(1, meld({"5H", "6H", "7H", "8H"}));
  h.act(1, meld({"9C", "9D", "9S"}));
  h.act(1, discard("KC"));
  CHECK(h.game().result()["rummy"] == true);
  CHECK(h.chips() == std::vector<std::int64_t>{200 - 90, 200 + 86 + 90, 200 - 86});
}

TEST_CASE("the stake multiplies every payment; a player who cannot pay pays what he has") {
  auto deck = deal_with_upcard({{"5H", "6H", "7H", "8H", "9C", "9D", "KC"}, b_hand, c_hand}, "2C", {"9S"});
  Harness h("rummy", options({{"stake", 2}}), {100, 1000, 1000}, 1, deck);
  h.act(1, draw());
  h.act(1, meld({"5H", "6H", "7H", "8H"}));
  h.act(1, meld({"9C", "9D", "9S"}));
  h.act(1, discard("KC"));
  // Seat 0 owes 90 × 2 = 180 and has 100; the rest is named, not invented.
  CHECK(h.chips(0) == 0);
  CHECK(h.chips(1) == 1000 + 172 + 100);
  auto unpaid = h.game().result()["unpaid"];
  REQUIRE(unpaid.size() == 1);
  CHECK(unpaid[0]["amount"] == 80);
}

TEST_CASE("E3: lay-offs on another player's meld, at either end, several cards at once") {
  auto deck = deal_with_upcard({{"5S", "6S", "7S", "KD", "KH", "QC", "JC"}, {"9S", "8S", "4S", "3S", "KC", "2D", "TH"},
                     {"QD", "JD", "2H", "3H", "5H", "7D", "6D"}},
                    "AH", {"4D", "9H"});
  Harness h("rummy", options(), {100, 100, 100}, 1, deck);
  h.act(1, draw());
  h.act(1, meld({"7S", "6S", "5S"}));
  h.act(1, discard("4D"));
  h.act(2, draw());  // 9H
  CHECK(h.refusal(2, lay_off(0, {"9S"})) == "illegal_action");
  h.act(2, lay_off(0, {"9S", "8S"}));
  h.act(2, lay_off(0, {"4S", "3S"}));
  CHECK(h.game().view(2)["melds"][0]["cards"] == Json::array({"3S", "4S", "5S", "6S", "7S", "8S", "9S"}));
}

TEST_CASE("a turn is draw, then melds and lay-offs, then one discard; out-of-turn and misplaced actions are refused") {
  Harness h("rummy", options(), {100, 100, 100}, 7);
  CHECK(h.refusal(2, draw()) == "not_your_turn");
  auto hand = h.game().view(1)["seats"][1]["cards"];
  CHECK(h.refusal(1, discard(hand[0].get<std::string>().c_str())) == "illegal_action");
  CHECK(h.refusal(1, draw("pile")) == "illegal_action");
  h.act(1, draw());
  CHECK(h.refusal(1, draw()) == "illegal_action");
  CHECK(h.refusal(1, discard("JK")) == "illegal_action");
  CHECK(h.refusal(1, meld({"AS", "AS", "AS"})) == "illegal_action");
}

TEST_CASE("R-G1: the upcard just taken may not be discarded in the same turn") {
  auto deck = deal_with_upcard({{"5H", "6H", "7H", "9C", "9D", "9S", "KC"}, b_hand, c_hand}, "2C", {});
  Harness h("rummy", options(), {100, 100, 100}, 1, deck);
  h.act(1, draw("discard"));
  CHECK(h.refusal(1, discard("2C")) == "illegal_action");
  CHECK(h.legal(1).dump().find("\"discard\",\"card\":\"2C\"") == std::string::npos);
  h.act(1, discard("KC"));
}

TEST_CASE("hidden information: a player sees his own hand only; the stock is a count") {
  Harness h("rummy", options(), {100, 100, 100}, 3);
  auto view = h.game().view(1);
  for (int s : {0, 2})
    for (const auto& c : view["seats"][s]["cards"]) CHECK(c == "??");
  CHECK(view_pile(view, "stock")["count"].is_number());
  auto spectator = h.game().view(std::nullopt);
  for (int s = 0; s < 3; ++s)
    for (const auto& c : spectator["seats"][s]["cards"]) CHECK(c == "??");
}

TEST_CASE("E4: high_low melds A-K-Q and 3-2-A, never K-A-2, and an ace left in hand costs 11") {
  auto deck = deal_with_upcard({{"AS", "KS", "QS", "3D", "2D", "AD", "KH", "AH", "2H", "9C"},
                     {"AC", "5D", "6C", "7C", "8C", "TH", "JH", "4S", "5S", "6S"}},
                    "JC", {"QC", "9D", "9H"});
  Harness h("rummy", options({{"high_low", true}}), {100, 100}, 1, deck);
  h.act(1, draw());  // QC
  h.act(1, meld({"AS", "KS", "QS"}));
  h.act(1, meld({"3D", "2D", "AD"}));
  CHECK(h.refusal(1, meld({"KH", "AH", "2H"})) == "illegal_action");
  h.act(1, discard("QC"));
  h.act(0, draw());  // 9D
  h.act(0, meld({"6C", "7C", "8C"}));
  h.act(0, meld({"4S", "5S", "6S"}));
  h.act(0, discard("9D"));
  h.act(1, draw());  // 9H
  CHECK(h.game().phase() == Phase::playing);
  // Seat 0 keeps AC 5D TH JH: 11 + 5 + 10 + 10.
  CHECK(h.game().view(0)["seats"][0]["count"] == 4);
}

TEST_CASE("E4: without an option Q-K-A is refused with ace_high_not_allowed") {
  auto deck = deal_with_upcard({{"AS", "KS", "QS", "3D", "2D", "AD", "KH"}, {"4C", "5C", "6C", "7C", "8C", "9C", "TC"},
                     {"4H", "5H", "6H", "7H", "8H", "9H", "TH"}},
                    "2C", {"JH"});
  Harness h("rummy", options(), {100, 100, 100}, 1, deck);
  h.act(1, draw());
  try {
    h.act(1, meld({"QS", "KS", "AS"}));
    FAIL("accepted Q-K-A");
  } catch (const parlour::rules::RulesError& e) {
    CHECK(std::string(e.what()).find("ace_high_not_allowed") != std::string::npos);
  }
}

TEST_CASE("E5: one_meld: nobody melds until one goes rummy; he collects his meld's value from each") {
  auto deck = deal_with_upcard({{"TH", "TS", "TD", "4C", "5C", "6C", "KD"}, {"KS", "8D", "AD", "9S", "4D", "5D", "6D"}, c_hand},
                    "2H", {"7C"});
  Harness h("rummy", options({{"one_meld", true}}), {100, 100, 100}, 1, deck);
  h.act(1, draw());
  CHECK(h.refusal(1, meld({"TH", "TS", "TD"})) == "illegal_action");
  auto legal = h.legal(1);
  bool listed = false;
  for (const auto& a : legal) listed |= a["type"] == "go_rummy" && a.value("discard", "") == "KD";
  CHECK(listed);
  h.act(1, {{"type", "go_rummy"}, {"melds", {{"TH", "TS", "TD"}, {"4C", "5C", "6C", "7C"}}}, {"discard", "KD"}});
  CHECK(h.chips() == std::vector<std::int64_t>{100 - 52, 100 + 104, 100 - 52});
}

TEST_CASE("E6: wild_card: deuces stand for any card and count 25; the winner collects his meld total") {
  auto deck = deal_with_upcard({{"9S", "9D", "9H", "2C", "6H", "4H", "KS"}, {"QS", "7C", "AD", "3C", "4C", "8D", "TD"},
                     {"QC", "JD", "3S", "4S", "5S", "7S", "9C"}},
                    "3H", {"2D"});
  Harness h("rummy", options({{"wild_card", true}}), {200, 200, 200}, 1, deck);
  h.act(1, draw());  // 2D
  h.act(1, {{"type", "go_rummy"}, {"melds", {{"9S", "9D", "9H", "2C"}, {"6H", "2D", "4H"}}}, {"discard", "KS"}});
  CHECK(h.chips() == std::vector<std::int64_t>{200 - 87, 200 + 174, 200 - 87});
}

TEST_CASE("E7a: block: going out must end with a discard, so one may only lay off when down to two cards") {
  auto deck = deal_with_upcard({{"4D", "5D", "6D", "QC", "QS", "QH", "KC"}, {"7D", "8D", "3C", "4C", "5C", "6C", "7C"},
                     {"AS", "2S", "3S", "5S", "7S", "8S", "9S"}},
                    "2H", {"JC", "9D"});
  Harness h("rummy", options({{"block", true}}), {100, 100, 100}, 1, deck);
  h.act(1, draw());  // JC
  h.act(1, meld({"4D", "5D", "6D"}));
  h.act(1, meld({"QC", "QS", "QH"}));
  h.act(1, discard("KC"));
  h.act(2, draw());  // 9D
  h.act(2, meld({"3C", "4C", "5C", "6C", "7C"}));
  CHECK(h.refusal(2, meld({"7D", "8D", "9D"})) == "illegal_action");
  h.act(2, lay_off(0, {"7D", "8D"}));
  h.act(2, discard("9D"));
  CHECK(h.game().result()["winner"] == 2);
}

namespace {

// E8's table: four players with option call; seat 1 melds 7S 8S 9S and will discard TS.
Harness e8_table() {
  auto deck = deal_with_upcard({{"7S", "8S", "9S", "KD", "QH", "JC", "3D"},
                     {"2C", "3C", "4H", "5H", "6D", "8D", "TC"},
                     {"AC", "AD", "4C", "5C", "6C", "8C", "TD"},
                     {"2S", "3S", "4S", "QD", "JD", "9D", "KH"}},
                    "AH", {"TS"});
  return Harness("rummy", options({{"call", true}}), {100, 100, 100, 100}, 1, deck);
}

}  // namespace

TEST_CASE("E8: call: a discard that lays off may be called; the caller nearest the discarder's left wins") {
  auto h = e8_table();
  h.act(1, draw());  // TS
  h.act(1, meld({"7S", "8S", "9S"}));
  h.act(1, discard("TS"));
  auto waiting = h.game().to_act();
  CHECK(waiting == std::vector<int>{2, 3, 0});
  h.act(3, {{"type", "call"}, {"meld", 0}});
  CHECK(h.game().to_act() == std::vector<int>{2, 0});  // seat 2 is nearer and may still call
  h.act(2, {{"type", "call"}, {"meld", 0}});
  CHECK(h.game().to_act() == std::vector<int>{2});
  CHECK(h.game().view(2)["melds"][0]["cards"].size() == 4);
  const auto before = h.game().view(2)["seats"][2]["count"].get<int>();
  h.act(2, discard("TC"));
  CHECK(h.game().view(2)["seats"][2]["count"] == before - 1);
  // Play resumes in order: the discarder's left, seat 2, takes his normal turn.
  CHECK(h.game().to_act() == std::vector<int>{2});
  CHECK(h.game().view(2)["phase"] == "draw");
}

TEST_CASE("call: the view names whose discard the call window is about") {
  auto h = e8_table();
  h.act(1, draw());
  h.act(1, meld({"7S", "8S", "9S"}));
  CHECK_FALSE(h.game().view(2).contains("call"));
  h.act(1, discard("TS"));
  CHECK(h.game().view(2)["call"] == Json{{"discarder", 1}, {"card", "TS"}});
  for (int seat : {2, 3, 0}) h.act(seat, {{"type", "pass"}});
  CHECK_FALSE(h.game().view(2).contains("call"));
}

TEST_CASE("R-BH3 boathouse: with the stock gone the upcard may still be taken: the rest of the pile is turned and "
          "its top card drawn with it") {
  Harness h("rummy", options({{"boathouse", true}}), {100, 100}, 4);
  while (view_pile(h.game().view(std::nullopt), "stock")["count"] > 0) {
    REQUIRE(h.game().phase() == Phase::playing);
    const int seat = h.game().to_act().front();
    h.act(seat, draw());
    h.act(seat, discard(last_card(h, seat)));
  }
  const int seat = h.game().to_act().front();
  const auto before = h.game().view(std::nullopt);
  CHECK(has_action(h.legal(seat), draw("discard")));
  h.act(seat, draw("discard"));
  const auto after = h.game().view(seat);
  CHECK(after["seats"][seat]["count"] == 12);
  CHECK(after["seats"][seat]["cards"][10] == view_pile(before, "discard")["top"]);
  CHECK(view_pile(after, "stock")["count"] == view_pile(before, "discard")["count"].get<int>() - 2);
  CHECK(view_pile(after, "discard")["count"] == 0);
}

TEST_CASE("R-G3: the discard pile is turned over once; when the stock runs out again the deal ends with no winner") {
  Harness h("rummy", options({{"max_restocks", 1}}), {100, 100}, 11);
  int guard = 0;
  // Two players who only draw and discard: the stock runs out twice.
  while (h.game().phase() == Phase::playing && guard++ < 500) {
    const int seat = h.game().to_act()[0];
    auto legal = h.legal(seat);
    Json chosen;
    for (const auto& a : legal)
      if (a["type"] == "draw" && a["from"] == "stock") chosen = a;
    if (chosen.is_null())
      for (const auto& a : legal)
        if (a["type"] == "discard") chosen = a;
    h.act(seat, chosen);
  }
  CHECK(h.game().result()["end"] == "no_winner");
  CHECK(h.chips() == std::vector<std::int64_t>{100, 100});
}

TEST_CASE("contradictory options are refused when the table is created") {
  const auto* info = parlour::rules::Registry::builtin().find("rummy");
  CHECK_THROWS_WITH_AS(parlour::rules::Registry::validate_options(*info, {{"two_meld", true}, {"one_meld", true}}),
                       doctest::Contains("contradict"), parlour::rules::SetupError);
  CHECK_THROWS_AS(parlour::rules::Registry::validate_options(*info, {{"two_meld", true}, {"boathouse", true}}),
                  parlour::rules::SetupError);
  CHECK_NOTHROW(parlour::rules::Registry::validate_options(*info, {{"block", true}, {"call", true}, {"high_low", true}}));
}

// ------------------------------------------------------------------ snapshots (rules/snapshot.h)

TEST_CASE("snapshot: restored mid-turn, the engine holds the same hands, table and stock order") {
  auto deck = deal_with_upcard({{"5H", "6H", "7H", "9C", "9D", "9S", "KC"}, b_hand, c_hand}, "2C",
                               {"QD", "6D", "6C", "8H"});
  Harness h("rummy", options(), {100, 100, 100}, 1, deck);
  h.act(1, draw());  // QD
  h.act(1, meld({"5H", "6H", "7H"}));
  const auto game = from_snapshot(h);
  CHECK(game->view(std::nullopt)["melds"][0]["cards"] == Json::array({"5H", "6H", "7H"}));
  CHECK(sorted_hand(*game, 2) == sorted(b_hand));  // hidden from seat 1, whose turn it is
  game->apply(1, discard("KC"), h.chips());
  game->apply(2, draw(), h.chips());
  const auto drawn = sorted_hand(*game, 2);
  CHECK(std::count(drawn.begin(), drawn.end(), "6D") == 1);  // the stock's next card
}

TEST_CASE("snapshot: one that does not fit the engine is refused with a message, never applied") {
  auto deck = deal_with_upcard({{"5H", "6H", "7H", "9C", "9D", "9S", "KC"}, b_hand, c_hand}, "2C", {"QD"});
  Harness h("rummy", options({{"call", true}}), {100, 100, 100}, 1, deck);
  h.act(1, draw());
  h.act(1, meld({"5H", "6H", "7H"}));
  const auto good = h.game().snapshot();
  const auto refused = [&](const std::function<void(Json&)>& change, const std::string& says) {
    Json bad = good;
    change(bad);
    try {
      h.restored(bad);
      FAIL_CHECK("a snapshot was taken that should say " << says);
    } catch (const parlour::rules::SnapshotError& e) {
      CHECK_MESSAGE(std::string(e.what()).find(says) != std::string::npos, e.what());
    }
  };
  refused([](Json& s) { s["hands"].erase(0); }, "hands");
  refused([](Json& s) { s["turn"] = 3; }, "\"turn\"");
  refused([](Json& s) { s["stage"] = 6; }, "\"stage\"");
  refused([](Json& s) { s.erase("reshuffle_rng"); }, "reshuffle_rng");
  refused([](Json& s) { s["table"][0]["owner"] = -1; }, "owner");
  refused([](Json& s) { s["table"][0]["placed_by"].erase(0); }, "placers");
  refused([](Json& s) { s["table"][0]["cards"] = Json::array(); }, "at least one card");
  refused([](Json& s) { s["scores"].push_back(0); }, "scores");
  refused(
      [](Json& s) {
        s["stage"] = 2;  // the call window
        s["call_order"] = {2, 0};
        s["call_answer"] = {1, 0};
        s["call_meld"] = {1, -1};  // the table holds one meld
      },
      "a meld on the table");
  refused(
      [](Json& s) {
        s["call_order"] = {2, 3};  // three seats
        s["call_answer"] = {0, 0};
        s["call_meld"] = {-1, -1};
      },
      "call window");
  CHECK_NOTHROW(h.restored(good));
}

namespace {

// One-deal games of random legal actions (tests/rules/playout.h).
void random_games(const Json& opts, int deals, int players_lo, int players_hi) {
  parlour::test::Playout spec;
  spec.game = "rummy";
  spec.options = opts;
  spec.options["deals"] = 1;
  spec.min_deals = deals;
  spec.players_lo = players_lo;
  spec.players_hi = players_hi;
  const int jokers = opts.value("jokers", 0);
  spec.pack_size = [jokers](int) { return static_cast<std::size_t>(52 + jokers); };
  parlour::test::random_playouts(spec);
}

}  // namespace

TEST_CASE("random deals: basic rummy") { random_games(options(), 1000, 2, 6); }
TEST_CASE("random deals: every option") {
  for (const char* option : {"block", "boathouse", "call", "high_low", "one_meld", "round_the_corner", "two_meld", "wild_card"})
    random_games(options({{option, true}}), 1000, 2, 6);
  random_games(options({{"wild_card", true}, {"jokers", 2}}), 1000, 2, 6);
  random_games(options({{"boathouse", true}, {"boathouse_two_discards", true}}), 1000, 2, 6);
}

namespace {

// The memo of the movement `from` pays in these effects.
std::string memo_paid_by(const parlour::rules::Effects& fx, int from) {
  for (const auto& t : fx.transfers)
    if (t.from.seat == from) return t.memo;
  FAIL("no movement from seat " << from);
  return "";
}

}  // namespace

// The table adds "Rummy: " and each {seat:N}'s name to these memos.
TEST_CASE("ledger memos: going out collects each hand's count; going rummy doubles it") {
  auto out_deck = deal_with_upcard({{"5H", "6H", "7H", "9C", "9D", "9S", "KC"}, b_hand, c_hand}, "2C",
                                   {"QD", "6D", "6C", "8H"});
  Harness went_out("rummy", options(), {100, 100, 100}, 1, out_deck);
  went_out.act(1, draw());
  went_out.act(1, meld({"5H", "6H", "7H"}));
  went_out.act(1, meld({"9C", "9D", "9S"}));
  went_out.act(1, discard("KC"));
  went_out.act(2, draw());
  went_out.act(2, discard("6D"));
  went_out.act(0, draw());
  went_out.act(0, discard("6C"));
  went_out.act(1, draw());
  went_out.act(1, lay_off(0, {"8H"}));
  const auto fx = went_out.act(1, discard("QD"));
  CHECK(memo_paid_by(fx, 2) == "{seat:1} went out: {seat:2}'s cards left count 43");
  CHECK(memo_paid_by(fx, 0) == "{seat:1} went out: {seat:0}'s cards left count 45");

  auto rummy_deck = deal_with_upcard({{"5H", "6H", "7H", "8H", "9C", "9D", "KC"}, b_hand, c_hand}, "2C", {"9S"});
  Harness went_rummy("rummy", options(), {200, 200, 200}, 1, rummy_deck);
  went_rummy.act(1, draw());
  went_rummy.act(1, meld({"5H", "6H", "7H", "8H"}));
  went_rummy.act(1, meld({"9C", "9D", "9S"}));
  const auto doubled = went_rummy.act(1, discard("KC"));
  CHECK(memo_paid_by(doubled, 2) ==
        "{seat:1} went rummy: {seat:2}'s cards left count 43, doubled for going rummy in one turn");
}

}  // namespace unity_test_rummy
