// Skip Rummy, source 002 "Skip Rummy"; rules/rummy.md §3.2, example E14.
#include <doctest/doctest.h>

#include <map>
#include <set>

#include "rules/registry.h"
#include "tests/rules/harness.h"
#include "tests/rules/rummy_kit.h"
#include "tests/rules/playout.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_skip_rummy {

using parlour::rules::Json;
using parlour::rules::Phase;
using parlour::test::cards;
using parlour::test::Harness;
using parlour::test::view_pile;
using namespace parlour::test::rummy_kit;


TEST_CASE("skip: five cards each, no upcard, the leader draws the stock top first") {
  for (int players : {2, 4, 6}) {
    Harness h("skip_rummy", options(), std::vector<std::int64_t>(players, 100));
    auto view = h.game().view(1);
    CHECK(view["seats"][1]["cards"].size() == 5);
    CHECK(view["seats"][0]["cards"][0] == "??");
    CHECK(view_pile(view, "discard")["top"].is_null());
    CHECK(view_pile(view, "stock")["count"] == 52 - 5 * players);
    CHECK(h.legal(1) == Json::array({draw()}));
  }
}

TEST_CASE("E14: no meld of four; one meld or one lay-off a turn, never both") {
  auto deck = deal_no_upcard({{"7C", "7D", "7H", "7S", "2D"}, {"KS", "QH", "JD", "8C", "4H"}}, {"9S", "QC", "TD"});
  Harness h("skip_rummy", options(), {100, 100}, 1, deck);
  h.act(1, draw());  // 9S
  CHECK(h.refusal(1, meld({"7C", "7D", "7H", "7S"})) == "illegal_action");
  for (const auto& a : h.legal(1))
    if (a["type"] == "meld") CHECK(a["cards"].size() == 3);
  h.act(1, meld({"7C", "7D", "7H"}));
  CHECK(h.refusal(1, lay_off(0, {"7S"})) == "illegal_action");
  for (const auto& a : h.legal(1)) CHECK(a["type"] == "discard");
  h.act(1, discard("9S"));
  h.act(0, draw());  // QC
  h.act(0, discard("QC"));
  h.act(1, draw());  // TD
  h.act(1, lay_off(0, {"7S"}));
  CHECK(h.refusal(1, meld({"TD", "2D", "7S"})) == "illegal_action");
  h.act(1, discard("TD"));
  CHECK(h.game().view(0)["seats"][1]["count"] == 1);
}

TEST_CASE("skip: a lay-off is one card; two melds in a turn are refused") {
  auto deck = deal_no_upcard({{"5S", "6S", "7S", "9H", "9D"}, {"KS", "QH", "JD", "8C", "4H"}}, {"9C", "QC", "8S", "4S"});
  Harness h("skip_rummy", options(), {100, 100}, 1, deck);
  h.act(1, draw());  // 9C
  h.act(1, meld({"5S", "6S", "7S"}));
  CHECK(h.refusal(1, meld({"9H", "9D", "9C"})) == "illegal_action");
  h.act(1, discard("9C"));
  h.act(0, draw());  // QC
  h.act(0, discard("QC"));
  h.act(1, draw());  // 8S
  CHECK(h.refusal(1, {{"type", "draw"}, {"from", "discard"}}) == "illegal_action");
  CHECK(h.refusal(1, lay_off(0, {"8S", "9H"})) == "illegal_action");  // not a run either way
  h.act(1, lay_off(0, {"8S"}));
  h.act(1, discard("9H"));
  h.act(0, draw());  // 4S: anyone lays off on any meld
  h.act(0, lay_off(0, {"4S"}));
  CHECK(h.game().view(0)["melds"][0]["cards"].size() == 5);
}

TEST_CASE("E14: a player holding two cards draws, melds all three and goes out without discarding: two units each") {
  auto deck = deal_no_upcard({{"5S", "6S", "7S", "9H", "9D"}, {"KS", "QH", "JD", "8C", "4H"}, {"KH", "QD", "JC", "8D", "4C"}},
                    {"9C", "2C", "3D", "9S"});
  Harness h("skip_rummy", options({{"stake", 5}}), {100, 100, 100}, 1, deck);
  h.act(1, draw());  // 9C
  h.act(1, meld({"5S", "6S", "7S"}));
  h.act(1, discard("9C"));
  h.act(2, draw());  // 2C
  h.act(2, discard("2C"));
  h.act(0, draw());  // 3D
  h.act(0, discard("3D"));
  h.act(1, draw());  // 9S
  h.act(1, meld({"9H", "9D", "9S"}));
  CHECK(h.game().phase() == Phase::deal_over);
  auto result = h.game().result();
  CHECK(result["winner"] == 1);
  CHECK(result["units"] == 2);
  CHECK(h.chips() == std::vector<std::int64_t>{90, 120, 90});
}

TEST_CASE("skip: going out by a lay-off and a last discard is rummy too; points: twice each unmatched count") {
  auto deck = deal_no_upcard({{"5S", "6S", "7S", "9H", "KD"}, {"KS", "QH", "JD", "8C", "4H"}}, {"9C", "QC", "8S", "2C", "4S"});
  Harness h("skip_rummy", options({{"payoff", "points"}}), {200, 200}, 1, deck);
  h.act(1, draw());  // 9C
  h.act(1, meld({"5S", "6S", "7S"}));
  h.act(1, discard("KD"));
  h.act(0, draw());  // QC
  h.act(0, discard("QC"));
  h.act(1, draw());  // 8S
  h.act(1, lay_off(0, {"8S"}));
  h.act(1, discard("9C"));  // holds 9H
  h.act(0, draw());  // 2C
  h.act(0, discard("2C"));
  h.act(1, draw());  // 4S
  h.act(1, lay_off(0, {"4S"}));
  h.act(1, discard("9H"));
  auto result = h.game().result();
  CHECK(result["winner"] == 1);
  CHECK(result["units"] == 2);
  CHECK(h.chips() == std::vector<std::int64_t>{200 - 84, 200 + 84});
}

TEST_CASE("skip: when the stock falls to the number of players, the lowest unmatched count wins one unit") {
  // Two players, 42 in the stock: the deal ends after 40 turns; the leader is due next.
  auto deck = deal_no_upcard({{"KS", "QH", "JD", "8C", "4H"}, {"KH", "QD", "JC", "8D", "3C"}});
  Harness h("skip_rummy", options({{"stake", 4}}), {100, 100}, 1, deck);
  play_to_break(h);
  auto result = h.game().result();
  CHECK(result["end"] == "stock_ran_down");
  CHECK(result["breaker"] == 1);
  CHECK(result["counts"] == Json::array({41, 42}));
  CHECK(h.chips() == std::vector<std::int64_t>{104, 96});
}

TEST_CASE("skip: a tie at the end goes to the player due to draw next (R-K3)") {
  auto deck = deal_no_upcard({{"KS", "QH", "JD", "8C", "4H"}, {"KH", "QD", "JC", "8D", "4C"}});
  Harness h("skip_rummy", options(), {100, 100}, 1, deck);
  play_to_break(h);
  CHECK(h.game().result()["counts"] == Json::array({42, 42}));
  CHECK(h.game().result()["winners"] == Json::array({1}));
  CHECK(h.chips() == std::vector<std::int64_t>{99, 101});
}

TEST_CASE("skip: the unmatched count leaves out what would meld (R-K2); points pay the difference") {
  auto deck = deal_no_upcard({{"KS", "QH", "JD", "8C", "4H"}, {"2H", "2D", "2C", "8D", "4C"}});
  Harness h("skip_rummy", options({{"payoff", "points"}}), {100, 100}, 1, deck);
  play_to_break(h);
  CHECK(h.game().result()["counts"] == Json::array({12, 42}));
  CHECK(h.chips() == std::vector<std::int64_t>{130, 70});
}

namespace {

void random_games(Json opts, int players_lo, int players_hi) {
  auto ends = random_deal_ends("skip_rummy", std::move(opts), players_lo, players_hi);
  CHECK(ends["stock_ran_down"] > 0);
  CHECK(ends["went_out"] > 0);
  CHECK(ends.size() == 2);  // no deal ended any other way
}

}  // namespace

TEST_CASE("random deals: skip, two to six players") { random_games(options(), 2, 6); }
TEST_CASE("random deals: skip, points") { random_games(options({{"payoff", "points"}}), 2, 6); }

}  // namespace unity_test_skip_rummy
