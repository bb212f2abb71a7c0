// The first dealer (rules/rummy.md §1.9, rules/other.md §0): drawn at random from
// the table's seed, the same for the same seed, and every game deals its first
// deal from him.
#include <doctest/doctest.h>

#include <set>

#include "rules/registry.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_first_dealer {

using parlour::rules::GameSetup;
using parlour::rules::Json;
using parlour::rules::Registry;

namespace {

int first_deal_dealer(const parlour::rules::GameInfo& game, std::uint64_t seed, int players,
                      std::optional<int> first_dealer = std::nullopt) {
  const std::vector<std::int64_t> chips(players, 1000);
  auto state = Registry::create(game, GameSetup{Json::object(), players, seed, std::nullopt, chips, first_dealer});
  state->start_next_deal(chips);
  const auto dealer = state->view(std::nullopt)["dealer"];
  return dealer.is_null() ? -1 : dealer.get<int>();
}

}  // namespace

TEST_CASE("every game's first dealer is drawn from the seed: any seat may deal first, the same seed the same seat") {
  for (const auto& game : Registry::builtin().all()) {
    CAPTURE(game.id);
    // Russian Bank and Rabouge have no dealer: their rules say who starts.
    if (game.layout == "building") {
      CHECK(first_deal_dealer(game, 1, game.min_players) == -1);
      continue;
    }
    const int players = std::min(4, game.max_players_with(Registry::validate_options(game, Json::object())));
    REQUIRE(players >= game.min_players);
    std::set<int> dealers;
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      const int dealer = first_deal_dealer(game, seed, players);
      CHECK(dealer == parlour::rules::draw_first_dealer(seed, players));
      CHECK(dealer == first_deal_dealer(game, seed, players));
      dealers.insert(dealer);
    }
    CHECK(dealers.size() == static_cast<std::size_t>(players));
  }
}

TEST_CASE("a setup may name the first dealer; a seat that does not exist is refused") {
  const auto& red_dog = *Registry::builtin().find("red_dog");
  CHECK(first_deal_dealer(red_dog, 7, 3, 2) == 2);
  CHECK_THROWS_AS(first_deal_dealer(red_dog, 7, 3, 3), parlour::rules::SetupError);
}

}  // namespace unity_test_first_dealer
