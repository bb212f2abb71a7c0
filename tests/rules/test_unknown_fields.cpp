// Every game refuses an action with a field it does not know (issue: a Carousel
// `finish` carrying 60 KB of extra fields was stored verbatim in the log). For
// every game, random games are played and at each step every listed action is
// sent once more with an unknown field added: it must be refused, changing nothing.
#include <doctest/doctest.h>

#include "rules/random_play.h"
#include "tests/rules/harness.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_unknown_fields {

using parlour::rules::Json;
using parlour::rules::Registry;
using parlour::test::Harness;

TEST_CASE("every game refuses a listed action sent with an unknown field, and nothing changes") {
  for (const auto& game : Registry::builtin().all()) {
    CAPTURE(game.id);
    const int players = game.min_players;
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      Harness h(game.id, Json::object(), std::vector<std::int64_t>(players, 500), seed);
      parlour::rules::Rng rng(seed);
      for (int step = 0; step < 150 && h.game().phase() != parlour::rules::Phase::game_over; ++step) {
        if (h.game().phase() == parlour::rules::Phase::deal_over) {
          h.next_deal();
          continue;
        }
        const auto acting = h.game().to_act();
        const int seat = acting[rng.below(acting.size())];
        const auto legal = h.legal(seat);
        REQUIRE_FALSE(legal.empty());
        for (const auto& listed : legal) {
          Json padded = parlour::rules::random_legal_action(Json::array({listed}), rng);
          padded["note"] = std::string(100, 'x');
          CAPTURE(padded);
          CHECK(h.refusal(seat, padded) == "illegal_action");
        }
        h.act(seat, parlour::rules::random_legal_action(legal, rng));
      }
    }
  }
}

}  // namespace unity_test_unknown_fields
