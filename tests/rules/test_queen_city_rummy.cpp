// Queen City Rummy, source 002 "Queen City Rummy"; rules/rummy.md §3.5, example E16.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>

#include "rules/registry.h"
#include "rules/rng.h"
#include "tests/rules/harness.h"
#include "tests/rules/rummy_kit.h"
#include "tests/rules/playout.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_queen_city_rummy {

using parlour::rules::Json;
using parlour::rules::Phase;
using parlour::test::cards;
using parlour::test::Harness;
using parlour::test::view_pile;
using namespace parlour::test::rummy_kit;


TEST_CASE("queen city: seven cards each, six players allowed, no upcard, the leader draws first") {
  for (int players : {2, 5, 6}) {
    Harness h("queen_city_rummy", options(), std::vector<std::int64_t>(players, 100));
    auto view = h.game().view(1);
    CHECK(view["seats"][1]["cards"].size() == 7);
    CHECK(view["seats"][0]["cards"][0] == "??");
    CHECK(view_pile(view, "discard")["top"].is_null());
    CHECK(view_pile(view, "stock")["count"] == 52 - 7 * players);
    CHECK(h.legal(1) == Json::array({draw()}));
  }
}

TEST_CASE("queen city: no meld until a player goes rummy; the whole hand or nothing") {
  auto deck = deal_no_upcard({{"KS", "KH", "KD", "5C", "6C", "7C", "2H"}, {"QS", "JD", "9H", "8D", "4S", "3D", "AS"}}, {"TD"});
  Harness h("queen_city_rummy", options(), {100, 100}, 1, deck);
  h.act(1, draw());
  CHECK(h.refusal(1, meld({"KS", "KH", "KD"})) == "illegal_action");
  CHECK(h.refusal(1, lay_off(0, {"KS"})) == "illegal_action");
  CHECK(h.refusal(1, go_rummy({{"KS", "KH", "KD"}, {"5C", "6C", "7C"}}, "2H")) == "illegal_action");  // TD left
}

TEST_CASE("E16: going rummy with seven cards and a discard collects the melds' value (56) from each, not doubled") {
  auto deck = deal_no_upcard({{"KS", "KH", "KD", "5C", "6C", "7C", "2H"},
                     {"QS", "JD", "9H", "8D", "4S", "3D", "AS"},
                     {"QH", "JS", "9D", "8H", "4D", "3S", "AH"}},
                    {"8C"});
  Harness h("queen_city_rummy", options({{"stake", 2}}), {200, 200, 200}, 1, deck);
  h.act(1, draw());  // 8C: eight cards
  h.act(1, go_rummy({{"KS", "KH", "KD"}, {"5C", "6C", "7C", "8C"}}, "2H"));
  auto result = h.game().result();
  CHECK(result["winner"] == 1);
  CHECK(result["melded"] == 56);
  CHECK(h.chips() == std::vector<std::int64_t>{200 - 112, 200 + 224, 200 - 112});
}

TEST_CASE("the winning rummy is shown: the result carries the winner's melds and every hand, the log names them") {
  auto deck = deal_no_upcard({{"KS", "KH", "KD", "5C", "6C", "7C", "2H"},
                     {"QS", "JD", "9H", "8D", "4S", "3D", "AS"},
                     {"QH", "JS", "9D", "8H", "4D", "3S", "AH"}},
                    {"8C"});
  Harness h("queen_city_rummy", options(), {200, 200, 200}, 1, deck);
  h.act(1, draw());
  const auto fx = h.act(1, go_rummy({{"KS", "KH", "KD"}, {"5C", "6C", "7C", "8C"}}, "2H"));
  const auto result = h.game().result();
  CHECK(result["melds"] == Json::parse(R"([{"meld":0,"owner":1,"cards":["KS","KH","KD"]},
                                           {"meld":1,"owner":1,"cards":["5C","6C","7C","8C"]}])"));
  CHECK(result["hands"][2]["cards"] == Json::array({"QS", "JD", "9H", "8D", "4S", "3D", "AS"}));
  CHECK(result["hands"][2]["value"] == 10 + 10 + 9 + 8 + 4 + 3 + 1);
  CHECK(std::find(fx.log.begin(), fx.log.end(), "{seat:1} goes rummy with KS KH KD; 5C 6C 7C 8C, discarding 2H!") !=
        fx.log.end());
  for (const auto& seat : result["seats"]) CHECK(seat["points"] == (seat["seat"] == 1 ? 56 * 2 : -56));
}

TEST_CASE("queen city: going rummy with all eight cards needs no discard; the eight cards' value is paid") {
  auto deck = deal_no_upcard({{"KS", "KH", "KD", "5C", "6C", "7C", "4C"}, {"QS", "JD", "9H", "8D", "4S", "3D", "AS"}}, {"8C"});
  Harness h("queen_city_rummy", options(), {100, 100}, 1, deck);
  h.act(1, draw());  // 8C
  bool listed = false;
  for (const auto& a : h.legal(1))
    if (a["type"] == "go_rummy" && !a.contains("discard")) listed = true;
  CHECK(listed);
  h.act(1, go_rummy({{"KS", "KH", "KD"}, {"4C", "5C", "6C", "7C", "8C"}}));
  CHECK(h.game().result()["melded"] == 60);
  CHECK(h.chips() == std::vector<std::int64_t>{40, 160});
}

TEST_CASE("queen city: the break as in Straight Rummy (R-Q1): lowest unmatched count, one unit") {
  // Two players, 38 in the stock: the break after 36 turns; the leader (seat 1) breaks.
  auto deck = deal_no_upcard({{"7S", "7H", "7D", "KS", "KH", "KD", "3C"}, {"QS", "QH", "QD", "9C", "8D", "4S", "2H"}}, {}, 36,
                    {"AD", "5H"});
  Harness h("queen_city_rummy", options({{"stake", 10}}), {100, 100}, 1, deck);
  play_to_break(h);
  CHECK(h.game().view(1)["break"]["breaker"] == 1);
  h.act(1, draw());  // AD
  h.act(1, meld({"7S", "7H", "7D"}));
  h.act(1, meld({"KS", "KH", "KD"}));
  h.act(1, discard("AD"));
  h.act(0, draw());  // 5H
  h.act(0, meld({"QS", "QH", "QD"}));
  h.act(0, discard("5H"));
  auto result = h.game().result();
  CHECK(result["end"] == "break");
  CHECK(result["counts"] == Json::array({23, 3}));
  CHECK(h.chips() == std::vector<std::int64_t>{90, 110});
}

TEST_CASE("queen city: refusals change nothing") {
  Harness h("queen_city_rummy", options(), {100, 100, 100}, 5);
  CHECK(h.refusal(0, draw()) == "not_your_turn");
  CHECK(h.refusal(1, draw("discard")) == "illegal_action");
  h.act(1, draw());
  CHECK(h.refusal(1, {{"type", "decline"}}) == "illegal_action");
  CHECK(h.refusal(1, discard("JK")) == "illegal_action");
}

namespace {

void random_games(Json opts, int players_lo, int players_hi) {
  auto ends = random_deal_ends("queen_city_rummy", std::move(opts), players_lo, players_hi);
  CHECK(ends["break"] > 0);  // random discards seldom go rummy: see the rummy deals below
  for (const auto& [end, count] : ends) CHECK((end == "break" || end == "went_out"));
}

}  // namespace

TEST_CASE("random deals: queen city, two to six players") { random_games(options(), 2, 6); }
TEST_CASE("random deals: queen city, points at the break") { random_games(options({{"payoff", "points"}}), 2, 6); }

TEST_CASE("random deals where the leader is dealt a rummy: conservation and the payoff") {
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    const int players = 2 + static_cast<int>(seed % 4);
    // The leader holds 4S 5S 6S 8H 8D 8C 2D and draws 7S: rummy with 2D discarded;
    // the other hands are a seeded shuffle of the rest.
    const auto deck = deal_leader_hand({"4S", "5S", "6S", "8H", "8D", "8C", "2D"}, "7S", players, seed);
    Harness h("queen_city_rummy", options({{"stake", 3}}), std::vector<std::int64_t>(players, 1000), seed, deck);
    const auto total = h.total();
    h.act(1, draw());
    parlour::rules::Rng snapshot_rng(seed * 7907 + 5);
    parlour::test::snapshot_round_trips(h, snapshot_rng);  // restored about to go rummy, and at the deal's end
    Json rummy;
    for (const auto& a : h.legal(1))
      if (a["type"] == "go_rummy" && !rummy.is_object()) rummy = a;
    REQUIRE(rummy.is_object());
    CHECK(rummy["discard"] == "2D");
    h.act(1, rummy);
    parlour::test::snapshot_round_trips(h, snapshot_rng);
    CHECK(h.total() == total);
    CHECK(h.game().result()["winner"] == 1);
    CHECK(h.chips(1) == 1000 + 3 * 46 * (players - 1));  // the melds 4S-7S and three 8s: 46
  }
}

}  // namespace unity_test_queen_city_rummy
