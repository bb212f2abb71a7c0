// Five Hundred (Pinochle) Rummy, source 000 "FIVE HUNDRED RUMMY"; rules/rummy.md
// §2.4, example E11.
#include <doctest/doctest.h>

#include "rules/random_play.h"
#include "tests/rules/harness.h"
#include "tests/rules/rummy_kit.h"
#include "tests/rules/playout.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_five_hundred_rummy {

using parlour::rules::Json;
using parlour::rules::Phase;
using parlour::test::cards;
using parlour::test::Harness;
using parlour::test::view_pile;
using namespace parlour::test::rummy_kit;

namespace {

std::vector<int> scores(Harness& h) { return h.game().view(std::nullopt)["scores"].get<std::vector<int>>(); }

// Draw from the stock and discard what was drawn, until the deal ends; counts the
// times the pile is turned over.
int draw_and_discard_to_the_end(Harness& h) {
  int turned = 0;
  int guard = 0;
  while (h.game().phase() == Phase::playing && guard++ < 1000) {
    const int seat = h.game().to_act()[0];
    auto view = h.game().view(seat);
    if (view["phase"] == "draw") {
      for (const auto& line : h.act(seat, draw()).log) turned += line.find("turned over") != std::string::npos;
    } else {
      h.act(seat, discard(view["seats"][seat]["cards"].back().get<std::string>().c_str()));
    }
  }
  return turned;
}

// E11 with two players, 13 cards each: Q (seat 1) plays first, P deals. P takes 8S
// with 2C above it and melds 8S-QS and three aces (92), keeping AS KH QD JC 9C 7C
// (61); Q melds 7H 8H 9H, later takes 4D with 2H TC above it and melds 4D-7D (46),
// keeping eight ten-cards (80). Then both draw and discard until the stock is gone.
std::vector<parlour::rules::Card> e11_deck() {
  return deal_with_upcard({{"5D", "6D", "7D", "7H", "8H", "9H", "TH", "TD", "JH", "JD", "QH", "QC", "KS"},
                {"AH", "AD", "AC", "9S", "TS", "JS", "QS", "AS", "KH", "QD", "JC", "9C", "7C"}},
               "8S", {"2C", "3C", "4D", "2H", "TC"});
}

void play_e11(Harness& h) {
  h.act(1, draw());  // 2C
  h.act(1, meld({"7H", "8H", "9H"}));
  h.act(1, discard("2C"));
  h.act(0, take(1));  // 8S and 2C
  CHECK(h.game().view(0)["must_use"] == "8S");
  h.act(0, meld({"8S", "9S", "TS", "JS", "QS"}));
  h.act(0, meld({"AH", "AD", "AC"}));
  h.act(0, discard("2C"));
  CHECK(h.game().view(0)["melded"] == Json::array({92, 24}));
  h.act(1, draw());  // 3C
  h.act(1, discard("3C"));
  h.act(0, draw());  // 4D
  h.act(0, discard("4D"));
  h.act(1, draw());  // 2H
  h.act(1, discard("2H"));
  h.act(0, draw());  // TC
  h.act(0, discard("TC"));
  h.act(1, take(2));  // 4D, 2H, TC
  h.act(1, meld({"4D", "5D", "6D", "7D"}));
  h.act(1, discard("2H"));
  CHECK(scores(h) == std::vector<int>{0, 0});  // no score is kept during play
  draw_and_discard_to_the_end(h);
}

// Four players, P (dealer) and Q (seat 2) partners: P melds three aces (45) and
// keeps 2C 3H 4D 5D (14): +31; Q melds 2S 3S 4S (9) and keeps AS KD QC 8H (43): −34.
// Seat 1 goes out on his second turn (+60); seat 3 keeps 59.
std::vector<parlour::rules::Card> partnership_deck() {
  return deal_with_upcard({{"6C", "7C", "8C", "9H", "TH", "JH", "7D"},
                {"2S", "3S", "4S", "AS", "KD", "QC", "8H"},
                {"KS", "KH", "9S", "9D", "5C", "6H", "TS"},
                {"AH", "AD", "AC", "2C", "3H", "4D", "5D"}},
               "4C", {"2D", "3D", "2H", "3C", "QH"});
}

void play_partnership(Harness& h) {
  h.act(1, draw());
  h.act(1, meld({"6C", "7C", "8C"}));
  h.act(1, discard("2D"));
  h.act(2, draw());
  h.act(2, meld({"2S", "3S", "4S"}));
  h.act(2, discard("3D"));
  h.act(3, draw());
  h.act(3, discard("2H"));
  h.act(0, draw());
  h.act(0, meld({"AH", "AD", "AC"}));
  h.act(0, discard("3C"));
  h.act(1, draw());  // QH
  h.act(1, meld({"9H", "TH", "JH", "QH"}));
  h.act(1, discard("7D"));
}

}  // namespace

TEST_CASE("five hundred deal: 13 cards each for two, else 7; two packs from five players; spread pile") {
  for (auto [players, size, pack] : std::vector<std::tuple<int, std::size_t, int>>{
           {2, 13, 52}, {4, 7, 52}, {5, 7, 104}, {8, 7, 104}}) {
    Harness h("five_hundred_rummy", options(), std::vector<std::int64_t>(players, 100));
    auto view = h.game().view(0);
    CHECK(view["seats"][0]["cards"].size() == size);
    CHECK(view_pile(view, "discard")["cards"].size() == 1);
    CHECK(view_pile(view, "stock")["count"] == pack - players * static_cast<int>(size) - 1);
    CHECK(view["target"] == 500);
  }
  for (const char* alias : {"Pinochle Rummy", "500 Rum"}) {
    const auto* info = parlour::rules::Registry::builtin().find(alias);
    REQUIRE(info != nullptr);
    CHECK(info->id == "five_hundred_rummy");
  }
}

TEST_CASE("E11: each player scores his melds less his hand: 92 − 61 = +31, 46 − 80 = −34") {
  Harness h("five_hundred_rummy", options(), {100, 100}, 1, e11_deck());
  play_e11(h);
  CHECK(h.game().phase() == Phase::deal_over);
  auto result = h.game().result();
  CHECK(result["end"] == "stock_exhausted");
  CHECK(result["melded"] == Json::array({92, 46}));
  CHECK(result["in_hand"] == Json::array({61, 80}));
  CHECK(deal_points(result) == Json::array({31, -34}));
  CHECK(scores(h) == std::vector<int>{31, -34});
  CHECK(h.chips() == std::vector<std::int64_t>{100, 100});
  h.next_deal();
  CHECK(scores(h) == std::vector<int>{31, -34});
}

TEST_CASE("game end: the leader collects the difference of scores (deals cap), times the stake") {
  Harness h("five_hundred_rummy", options({{"deals", 1}, {"stake", 2}}), {200, 200}, 1, e11_deck());
  play_e11(h);
  CHECK(h.game().phase() == Phase::game_over);
  CHECK(h.game().result()["game_winners"] == Json::array({0}));
  CHECK(h.chips() == std::vector<std::int64_t>{200 + 130, 200 - 130});

  Harness reached("five_hundred_rummy", options({{"target", 50}}), {200, 200}, 1, e11_deck());
  play_e11(reached);
  CHECK(reached.game().phase() == Phase::deal_over);  // 31 is short of 50
}

TEST_CASE("E11 partnership: partners' deal scores are added: +31 and −34 make −3") {
  Harness h("five_hundred_rummy", options({{"partnership", true}}), {100, 100, 100, 100}, 1, partnership_deck());
  play_partnership(h);
  CHECK(h.game().phase() == Phase::deal_over);
  auto result = h.game().result();
  CHECK(result["winner"] == 1);
  CHECK(deal_points(result) == Json::array({31, 60, -34, -59}));
  CHECK(result["team_deal_points"] == Json::array({-3, 1}));
  CHECK_FALSE(result.contains("going_out_bonus"));  // R-F1
  auto teams = h.game().view(0)["teams"];
  CHECK(teams[0]["seats"] == Json::array({0, 2}));
  CHECK(teams[0]["score"] == -3);
  CHECK(teams[1]["score"] == 1);
  CHECK(h.chips() == std::vector<std::int64_t>{100, 100, 100, 100});
}

TEST_CASE("partnership game end: each loser pays the margin to the winner seated at his left") {
  Harness h("five_hundred_rummy", options({{"partnership", true}, {"deals", 1}, {"stake", 2}}),
            {100, 100, 100, 100}, 1, partnership_deck());
  play_partnership(h);
  CHECK(h.game().phase() == Phase::game_over);
  CHECK(h.game().result()["margin"] == 4);
  // Seat 0 pays seat 1, seat 2 pays seat 3: 4 × 2 each.
  CHECK(h.chips() == std::vector<std::int64_t>{92, 108, 92, 108});
}

TEST_CASE("partnership needs exactly four players") {
  const auto* info = parlour::rules::Registry::builtin().find("five_hundred_rummy");
  REQUIRE(info != nullptr);
  CHECK(info->max_players_with({{"partnership", true}}) == 4);
  CHECK(info->max_players_with({{"partnership", false}}) == 8);
  for (int players : {2, 3, 5}) {
    parlour::rules::GameSetup setup{{{"partnership", true}}, players, 1, std::nullopt,
                                    std::vector<std::int64_t>(players, 100)};
    CHECK_THROWS_AS(parlour::rules::Registry::create(*info, setup), parlour::rules::SetupError);
  }
  parlour::rules::GameSetup four{{{"partnership", true}}, 4, 1, std::nullopt, {100, 100, 100, 100}};
  CHECK_NOTHROW(parlour::rules::Registry::create(*info, four));
}

TEST_CASE("a lay-off on another player's meld scores for the player who lays it off") {
  auto deck = deal_with_upcard({{"5C", "6C", "7C", "2D", "9S", "JH", "KD"},
                     {"8C", "KS", "KH", "KC", "2S", "3S", "4S"},
                     {"3H", "5H", "7H", "9H", "JD", "QD", "AD"}},
                    "2C", {"6D", "9D"});
  Harness h("five_hundred_rummy", options(), {100, 100, 100}, 1, deck);
  h.act(1, draw());
  h.act(1, meld({"5C", "6C", "7C"}));
  h.act(1, discard("6D"));
  h.act(2, draw());  // 9D
  h.act(2, lay_off(0, {"8C"}));
  auto view = h.game().view(2);
  CHECK(view["melded"] == Json::array({0, 18, 8}));
  CHECK(view["melds"][0]["owner"] == 1);
  CHECK(view["melds"][0]["cards"] == Json::array({"5C", "6C", "7C", "8C"}));
  h.act(2, meld({"KS", "KH", "KC"}));
  h.act(2, meld({"2S", "3S", "4S"}));
  h.act(2, discard("9D"));  // out
  auto result = h.game().result();
  CHECK(result["end"] == "went_out");
  CHECK(result["melded"] == Json::array({0, 18, 47}));
  // Seat 0 keeps 3H 5H 7H 9H JD QD AD = 59; seat 1 keeps 2D 9S JH KD = 31.
  CHECK(deal_points(result) == Json::array({-59, -13, 47}));
}

TEST_CASE("stock exhausted: the deal ends after the last stock card's turn, or (after_stock turn_over) later") {
  Harness h("five_hundred_rummy", options(), {100, 100}, 5);
  CHECK(draw_and_discard_to_the_end(h) == 0);
  auto result = h.game().result();
  CHECK(result["end"] == "stock_exhausted");
  const int c0 = result["hands"][0]["value"];
  const int c1 = result["hands"][1]["value"];
  CHECK(scores(h) == std::vector<int>{-c0, -c1});

  Harness turning("five_hundred_rummy", options({{"after_stock", "turn_over"}}), {100, 100}, 5);
  CHECK(draw_and_discard_to_the_end(turning) == 1);
  result = turning.game().result();
  CHECK(result["end"] == "no_winner");
  CHECK(scores(turning) == std::vector<int>{-result["hands"][0]["value"].get<int>(),
                                            -result["hands"][1]["value"].get<int>()});
}

TEST_CASE("hidden information: other hands are ?? to players and spectators; the pile and melds are public") {
  Harness h("five_hundred_rummy", options({{"partnership", true}}), {100, 100, 100, 100}, 1, partnership_deck());
  h.act(1, draw());
  h.act(1, meld({"6C", "7C", "8C"}));
  auto partner = h.game().view(3);
  for (int s : {0, 1, 2})
    for (const auto& c : partner["seats"][s]["cards"]) CHECK(c == "??");
  auto spectator = h.game().view(std::nullopt);
  for (int s = 0; s < 4; ++s)
    for (const auto& c : spectator["seats"][s]["cards"]) CHECK(c == "??");
  CHECK(view_pile(spectator, "discard")["cards"] == Json::array({"4C"}));
  CHECK(spectator["melds"][0]["cards"] == Json::array({"6C", "7C", "8C"}));
  CHECK(spectator["melded"] == Json::array({0, 21, 0, 0}));
}

namespace {

// Whole random games until at least `min_deals` deals: tests/rules/playout.h.
void random_games(const Json& opts, int min_deals, int players_lo, int players_hi) {
  parlour::test::Playout spec;
  spec.game = "five_hundred_rummy";
  spec.options = opts;
  spec.min_deals = min_deals;
  spec.players_lo = players_lo;
  spec.players_hi = players_hi;
  spec.seed_base = 1000;
  spec.pack_size = [](int players) { return std::size_t{players >= 5 ? 104u : 52u}; };
  parlour::test::random_playouts(spec);
}

}  // namespace

TEST_CASE("random games: five hundred to 500, two to eight players") { random_games(options(), 1000, 2, 8); }
TEST_CASE("random games: five hundred partnership") {
  random_games(options({{"partnership", true}}), 1000, 4, 4);
}
TEST_CASE("random games: five hundred after_stock turn_over, top_card_free, deal caps") {
  random_games(options({{"after_stock", "turn_over"}, {"max_restocks", 2}}), 1000, 2, 8);
  random_games(options({{"top_card_free", true}, {"partnership", true}, {"target", 100}}), 1000, 4, 4);
  random_games(options({{"deals", 3}, {"stake", 3}}), 1000, 2, 8);
}

}  // namespace unity_test_five_hundred_rummy
