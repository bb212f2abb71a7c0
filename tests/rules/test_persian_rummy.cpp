// Persian Rummy, source 000 "PERSIAN RUMMY"; rules/rummy.md §2.5, example E12.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>

#include "rules/random_play.h"
#include "tests/rules/harness.h"
#include "tests/rules/rummy_kit.h"
#include "tests/rules/playout.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_persian_rummy {

using parlour::rules::Json;
using parlour::rules::Phase;
using parlour::test::cards;
using parlour::test::Harness;
using parlour::test::view_pile;
using namespace parlour::test::rummy_kit;

namespace {

const std::vector<std::int64_t> chips100 = {100, 100, 100, 100};

// The reason code a meld is refused with.
std::string refusal_reason(Harness& h, int seat, const Json& action) {
  try {
    h.act(seat, action);
  } catch (const parlour::rules::RulesError& e) {
    return e.what();
  }
  return "accepted";
}

// E12: seat 1 melds 8-8-8-8 intact, seat 2 three jokers, seat 3 A-K-Q of spades
// (A-2-3 refused), and the dealer goes out.
std::vector<parlour::rules::Card> e12_deck() {
  return deal_with_upcard({{"8S", "8H", "8D", "8C", "2C", "3D", "4H"},
                {"JK", "JK", "JK", "5C", "6H", "7H", "9S"},
                {"AS", "KS", "QS", "2S", "3S", "TD", "9D"},
                {"9C", "TC", "JC", "QC", "4D", "5D", "6D"}},
               "7S", {"KH", "KD", "KC", "2H"});
}

void play_e12(Harness& h) {
  h.act(1, draw());
  h.act(1, meld({"8S", "8H", "8D", "8C"}));
  CHECK(h.game().view(1)["melded"] == Json::array({0, 64, 0, 0}));
  h.act(1, discard("KH"));
  h.act(2, draw());
  CHECK(refusal_reason(h, 2, meld({"JK", "6H", "7H"})).find("joker_not_allowed_here") != std::string::npos);
  h.act(2, meld({"JK", "JK", "JK"}));
  CHECK(h.game().view(2)["melded"] == Json::array({0, 64, 60, 0}));
  h.act(2, discard("KD"));
  h.act(3, draw());
  CHECK(refusal_reason(h, 3, meld({"AS", "2S", "3S"})).find("ace_low_not_allowed") != std::string::npos);
  h.act(3, meld({"AS", "KS", "QS"}));
  CHECK(h.game().view(3)["melded"] == Json::array({0, 64, 60, 35}));
  h.act(3, discard("KC"));
  h.act(0, draw());
  h.act(0, meld({"9C", "TC", "JC", "QC"}));
  h.act(0, meld({"4D", "5D", "6D"}));
  h.act(0, discard("2H"));  // out
}

}  // namespace

TEST_CASE("persian deal: four players only, 56 cards with four jokers, 7 each, an upcard on a spread pile") {
  Harness h("persian_rummy", options(), chips100);
  auto view = h.game().view(1);
  CHECK(view["seats"][1]["cards"].size() == 7);
  CHECK(view_pile(view, "stock")["count"] == 56 - 28 - 1);
  CHECK(view_pile(view, "discard")["cards"].size() == 1);
  CHECK(view["deals_to_play"] == 2);
  CHECK(view["teams"][1]["seats"] == Json::array({1, 3}));
  const auto* info = parlour::rules::Registry::builtin().find("persian_rummy");
  REQUIRE(info != nullptr);
  CHECK(info->source == "000");
  for (int players : {2, 3, 5}) {
    parlour::rules::GameSetup setup{{}, players, 1, std::nullopt, std::vector<std::int64_t>(players, 100)};
    CHECK_THROWS_AS(parlour::rules::Registry::create(*info, setup), parlour::rules::SetupError);
  }
  CHECK_THROWS_AS(parlour::rules::Registry::validate_options(*info, {{"deals", 4}}), parlour::rules::SetupError);
}

TEST_CASE("E12: 8-8-8-8 intact = 64, Jk Jk Jk = 60, A-K-Q = 35, A-2-3 refused; going out gives the side 25") {
  Harness h("persian_rummy", options(), chips100, 1, e12_deck());
  play_e12(h);
  CHECK(h.game().phase() == Phase::deal_over);
  auto result = h.game().result();
  CHECK(result["winner"] == 0);
  CHECK(result["going_out_bonus"] == 25);
  CHECK(result["melded"] == Json::array({54, 64, 60, 35}));
  // Hands left: seat 1 2C 3D 4H = 9, seat 2 5C 6H 7H 9S = 27, seat 3 2S 3S TD 9D = 24.
  CHECK(result["in_hand"] == Json::array({0, 9, 27, 24}));
  CHECK(deal_points(result) == Json::array({54 + 25, 55, 33, 11}));
  CHECK(result["team_scores"] == Json::array({112, 66}));
  CHECK(h.chips() == chips100);  // settled after the last deal
}

TEST_CASE("snapshot: restored after a set of four melded intact, it still counts double; the stock keeps its order") {
  Harness h("persian_rummy", options(), chips100, 1, e12_deck());
  h.act(1, draw());
  h.act(1, meld({"8S", "8H", "8D", "8C"}));
  const auto game = from_snapshot(h);
  CHECK(game->view(1)["melded"] == Json::array({0, 64, 0, 0}));
  game->apply(1, discard("KH"), h.chips());
  game->apply(2, draw(), h.chips());
  CHECK(sorted_hand(*game, 2) == sorted({"JK", "JK", "JK", "5C", "6H", "7H", "9S", "KD"}));  // KD: the stock's next
}

TEST_CASE("E12: a set of three completed by a lay-off is not doubled: 24 + 8 = 32") {
  auto deck = deal_with_upcard({{"8S", "8H", "8D", "2C", "3D", "4H", "6S"},
                     {"9C", "TC", "5C", "6H", "7H", "9S", "KS"},
                     {"AS", "QS", "2S", "3S", "TD", "9D", "JC"},
                     {"QC", "4D", "5D", "6D", "JH", "2D", "3H"}},
                    "7S", {"KH", "KD", "KC", "2H", "8C"});
  Harness h("persian_rummy", options(), chips100, 1, deck);
  h.act(1, draw());
  h.act(1, meld({"8S", "8H", "8D"}));
  CHECK(h.game().view(1)["melded"][1] == 24);
  h.act(1, discard("KH"));
  h.act(2, draw());
  h.act(2, discard("KD"));
  h.act(3, draw());
  h.act(3, discard("KC"));
  h.act(0, draw());
  h.act(0, discard("2H"));
  h.act(1, draw());  // 8C
  h.act(1, lay_off(0, {"8C"}));
  CHECK(h.game().view(1)["melded"][1] == 32);
  CHECK(h.game().view(1)["melds"][0]["cards"].size() == 4);
}

TEST_CASE("after the last deal the losing side pays its margin, each loser to the winner at his left") {
  Harness h("persian_rummy", options({{"stake", 2}}), chips100, 1, e12_deck());
  play_e12(h);
  h.next_deal();
  // Deal 2: everyone draws and discards until the stock is gone; each scores −hand.
  int guard = 0;
  while (h.game().phase() == Phase::playing && guard++ < 1000) {
    const int seat = h.game().to_act()[0];
    auto view = h.game().view(seat);
    if (view["phase"] == "draw") h.act(seat, draw());
    else h.act(seat, discard(view["seats"][seat]["cards"].back().get<std::string>().c_str()));
  }
  CHECK(h.game().phase() == Phase::game_over);
  auto result = h.game().result();
  CHECK(result["end"] == "stock_exhausted");
  std::vector<int> held;
  for (int s = 0; s < 4; ++s) held.push_back(result["hands"][s]["value"].get<int>());
  const int a = 112 - held[0] - held[2];
  const int b = 66 - held[1] - held[3];
  CHECK(result["team_scores"] == Json::array({a, b}));
  REQUIRE(a != b);
  const int margin = std::abs(a - b);
  CHECK(result["margin"] == margin);
  const std::int64_t paid = std::min<std::int64_t>(2 * margin, 100);
  if (a > b) CHECK(h.chips() == std::vector<std::int64_t>{100 + paid, 100 - paid, 100 + paid, 100 - paid});
  else CHECK(h.chips() == std::vector<std::int64_t>{100 - paid, 100 + paid, 100 - paid, 100 + paid});
}

TEST_CASE("the deals option plays three deals; a player who leaves ends the partnership game") {
  Harness h("persian_rummy", options({{"deals", 3}}), chips100, 4);
  CHECK(h.game().view(0)["deals_to_play"] == 3);
  h.leave(2);
  CHECK(h.game().phase() == Phase::game_over);
  CHECK(h.chips() == chips100);
}

TEST_CASE("hidden information: partners do not see each other's hands; the pile is public") {
  Harness h("persian_rummy", options(), chips100, 1, e12_deck());
  auto view = h.game().view(0);
  for (const auto& c : view["seats"][2]["cards"]) CHECK(c == "??");
  for (const auto& c : view["seats"][0]["cards"]) CHECK(c != "??");
  auto spectator = h.game().view(std::nullopt);
  for (int s = 0; s < 4; ++s)
    for (const auto& c : spectator["seats"][s]["cards"]) CHECK(c == "??");
  CHECK(view_pile(spectator, "discard")["cards"] == Json::array({"7S"}));
}

namespace {

// Whole random games until at least `min_deals` deals (tests/rules/playout.h);
// each game ends after exactly the agreed deals and the side behind paid.
void random_games(const Json& opts, int min_deals) {
  parlour::test::Playout spec;
  spec.game = "persian_rummy";
  spec.options = opts;
  spec.min_deals = min_deals;
  spec.players_lo = spec.players_hi = 4;
  spec.replays = 3;
  spec.seed_base = 2000;
  spec.pack_size = [](int) { return std::size_t{56}; };
  spec.after_game = [opts](Harness& h) {
    CHECK(h.game().deals_played() == opts.value("deals", 2));
    auto result = h.game().result();
    if (result.contains("margin")) {
      const int winners = result["game_winners"][0];
      for (int s = 0; s < 4; ++s) CHECK((s % 2 == winners % 2) == (h.chips(s) >= 1000));
    }
  };
  parlour::test::random_playouts(spec);
}

}  // namespace

TEST_CASE("random games: persian, two deals") { random_games(options(), 1000); }
TEST_CASE("random games: persian, three deals") { random_games(options({{"deals", 3}, {"stake", 5}}), 1000); }
TEST_CASE("random games: persian, top_card_free") { random_games(options({{"top_card_free", true}}), 1000); }

}  // namespace unity_test_persian_rummy
