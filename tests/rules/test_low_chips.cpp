// Every game with players who start with few chips (3 to 20), played at random to
// its end, with chips now and then spent at other tables between two calls
// (tests/rules/playout.h LowChips). Games without a natural end run with `deals`
// at 0 and must end once too few players can take part; games whose chips only
// circulate, so that no shortage can ever end them, run to a deal cap instead.
#include <doctest/doctest.h>

#include "tests/rules/playout.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_low_chips {

using parlour::test::LowChips;
using parlour::test::low_chip_games;

namespace {

LowChips table_of(const char* game, int players_lo, int players_hi, int games = 150) {
  LowChips spec;
  spec.game = game;
  spec.players_lo = players_lo;
  spec.players_hi = players_hi;
  spec.games = games;
  return spec;
}

}  // namespace

TEST_CASE("low chips, no deal limit: the betting games end by themselves once too few players can bet") {
  CHECK(low_chip_games(table_of("red_dog", 2, 6)) > 0);
  CHECK(low_chip_games(table_of("red_and_black", 2, 6)) > 0);
  CHECK(low_chip_games(table_of("ranter_go_round", 2, 8)) > 0);
}

TEST_CASE("low chips: the pool trick games and Reversi, whose chips circulate, run to a cap of 60 deals") {
  for (const char* game : {"rams", "rounce", "reversi"}) {
    CAPTURE(game);
    auto spec = table_of(game, 3, 5, 30);
    spec.deal_cap = 60;
    CHECK(low_chip_games(spec) > 0);
  }
}

TEST_CASE("low chips: every Rummy game ends by its own rules (deals, targets, elimination)") {
  for (const char* game : {"rummy", "michigan_rummy", "five_hundred_rummy", "straight_rummy", "queen_city_rummy",
                           "block_rummy", "skip_rummy", "round_the_corner_rummy", "java_rummy", "rummy_poker",
                           "double_rummy", "carousel"}) {
    CAPTURE(game);
    CHECK(low_chip_games(table_of(game, 2, 4, 20)) > 0);
  }
  CHECK(low_chip_games(table_of("persian_rummy", 4, 4, 20)) > 0);
}

}  // namespace unity_test_low_chips
