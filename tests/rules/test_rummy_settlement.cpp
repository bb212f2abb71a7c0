// What every Rummy game's settlement shares (rules/rummy/settlement.h): a player
// who has left the table takes no part in later deals, so he neither pays nor
// collects, and his empty place never wins a showdown.
#include <doctest/doctest.h>

#include "tests/rules/harness.h"
#include "tests/rules/rummy_kit.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_rummy_settlement {

using parlour::rules::Json;
using parlour::rules::Phase;
using parlour::test::Harness;
using namespace parlour::test::rummy_kit;

TEST_CASE("a player who has left neither pays nor collects in later deals, and never wins a showdown") {
  for (const char* game : {"straight_rummy", "skip_rummy", "block_rummy", "queen_city_rummy", "double_rummy",
                           "round_the_corner_rummy", "rummy"}) {
    CAPTURE(game);
    Harness h(game, options({{"deals", 12}}), {100, 100, 100}, 3);
    h.leave(2);  // the first deal is abandoned
    REQUIRE(h.game().phase() == Phase::deal_over);
    int settled = 0;
    while (h.game().phase() == Phase::deal_over) {
      h.next_deal();
      play_deal_plainly(h);
      const auto result = h.game().result();
      CHECK(result["seats"][2]["chips"] == 0);
      CHECK(result.value("winner", -1) != 2);
      for (const auto& winner : result.value("winners", Json::array())) CHECK(winner != 2);
      CHECK(h.chips(2) == 100);
      CHECK(h.chips(0) + h.chips(1) == 200);
      if (h.chips(0) != 100) ++settled;
    }
    CHECK(settled > 0);  // chips did move between the two players still in
  }
}

TEST_CASE("each seat's points in a deal's result are the deal's points, in the games that score by points too") {
  for (const char* game : {"michigan_rummy", "five_hundred_rummy"}) {
    CAPTURE(game);
    Harness h(game, options(), {1000, 1000, 1000}, 5);
    play_deal_plainly(h);
    const auto result = h.game().result();
    REQUIRE(result.contains("seats"));
    CHECK_FALSE(result.contains("deal_points"));
    std::vector<int> totals(3, 0);
    for (int s = 0; s < 3; ++s) totals[s] = result["scores"][s];
    CHECK(deal_points(result) == Json(totals));  // the first deal's points are the running totals
    CHECK(deal_points(result) != Json::array({0, 0, 0}));
  }
}

TEST_CASE("games that settle every deal in chips keep no running score and show none; scoring games show theirs") {
  for (const char* game : {"rummy", "straight_rummy", "round_the_corner_rummy"}) {
    Harness h(game, options(), {100, 100});
    CHECK_FALSE(h.game().view(0).contains("scores"));
    play_deal_plainly(h);
    CHECK_FALSE(h.game().result().contains("scores"));
  }
  for (const char* game : {"michigan_rummy", "java_rummy", "carousel"}) {
    Harness h(game, options(), {100, 100});
    CHECK(h.game().view(0)["scores"] == Json::array({0, 0}));
  }
}

}  // namespace unity_test_rummy_settlement
