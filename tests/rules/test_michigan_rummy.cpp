// Michigan Rummy and Polish Rummy, source 000 "MICHIGAN RUMMY"; rules/rummy.md
// §2.3, examples E9–E10.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>

#include "rules/random_play.h"
#include "tests/rules/harness.h"
#include "tests/rules/rummy_kit.h"
#include "tests/rules/playout.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_michigan_rummy {

using parlour::rules::Json;
using parlour::rules::Phase;
using parlour::test::cards;
using parlour::test::Harness;
using parlour::test::view_pile;
using namespace parlour::test::rummy_kit;

namespace {

std::vector<int> scores(Harness& h) { return h.game().view(std::nullopt)["scores"].get<std::vector<int>>(); }

bool listed(const Json& legal, const Json& action) {
  for (const auto& a : legal)
    if (a == action) return true;
  return false;
}

// E9, three players: X (seat 1) melds 3-2-A of hearts and Q-K-A of clubs, Y (seat 2)
// and Z (the dealer) meld, X lays off 8H and goes out with Y holding AD 7S, Z KH.
std::vector<parlour::rules::Card> e9_deck() {
  return deal_with_upcard({{"3H", "2H", "AH", "QC", "KC", "AC", "5D"},
                {"AD", "7S", "3C", "4C", "5C", "6C", "KS"},
                {"KH", "8D", "8S", "8C", "TS", "JS", "2D"}},
               "2C", {"9H", "7C", "QS", "8H"});
}

void play_e9(Harness& h) {
  h.act(1, draw());  // 9H
  h.act(1, meld({"3H", "2H", "AH"}));
  CHECK(scores(h) == std::vector<int>{0, 6, 0});
  h.act(1, meld({"QC", "KC", "AC"}));
  CHECK(scores(h) == std::vector<int>{0, 41, 0});
  h.act(1, discard("9H"));
  h.act(2, draw());  // 7C
  h.act(2, meld({"3C", "4C", "5C", "6C", "7C"}));
  h.act(2, discard("KS"));
  h.act(0, draw());  // QS
  h.act(0, meld({"8D", "8S", "8C"}));
  h.act(0, meld({"TS", "JS", "QS"}));
  h.act(0, discard("2D"));
  CHECK(scores(h) == std::vector<int>{54, 41, 25});
  h.act(1, draw());  // 8H
  h.act(1, lay_off(3, {"8H"}));  // a lay-off on Z's meld scores for X
  CHECK(scores(h) == std::vector<int>{54, 49, 25});
  h.act(1, discard("5D"));
}

// E10, four players: seats 1, 2 and 3 discard 9C, KD and 2S onto the upcard 4H;
// the dealer holds 9D 9H.
std::vector<parlour::rules::Card> e10_deck(const std::vector<std::string>& dealer_hand) {
  return deal_with_upcard({{"9C", "2D", "3D", "4D", "TC", "TD", "8H"},
                {"KD", "5C", "6C", "7C", "8C", "2H", "3H"},
                {"2S", "JD", "TH", "AH", "AS", "8D", "3C"},
                dealer_hand},
               "4H", {"KC", "6H", "5D"});
}
const std::vector<std::string> nines = {"9D", "9H", "5S", "6S", "7S", "JC", "QH"};
const std::vector<std::string> no_nines = {"TS", "JS", "5S", "6S", "7S", "JC", "QH"};

void build_e10_pile(Harness& h) {
  h.act(1, draw());
  h.act(1, discard("9C"));
  h.act(2, draw());
  h.act(2, discard("KD"));
  h.act(3, draw());
  h.act(3, discard("2S"));
}

}  // namespace

TEST_CASE("michigan deal: 13 cards each for two, 7 for three to eight; two packs from five players; upcard spread") {
  for (auto [players, size, pack] : std::vector<std::tuple<int, std::size_t, int>>{
           {2, 13, 52}, {3, 7, 52}, {4, 7, 52}, {5, 7, 104}, {8, 7, 104}}) {
    Harness h("michigan_rummy", options(), std::vector<std::int64_t>(players, 100));
    auto view = h.game().view(1);
    CHECK(view["seats"][1]["cards"].size() == size);
    CHECK(view_pile(view, "discard")["cards"].size() == 1);
    CHECK(view_pile(view, "stock")["count"] == pack - players * static_cast<int>(size) - 1);
    CHECK(view["target"] == 500);
    CHECK(h.game().to_act() == std::vector<int>{1});
  }
  const auto* info = parlour::rules::Registry::builtin().find("Polish Rummy");
  REQUIRE(info != nullptr);
  CHECK(info->id == "michigan_rummy");
  CHECK(info->source == "000");
}

TEST_CASE("E9: melds score when made (3-2-A = 6, Q-K-A = 35), lay-offs for the player, going out adds 32") {
  Harness h("michigan_rummy", options(), {100, 100, 100}, 1, e9_deck());
  play_e9(h);
  CHECK(h.game().phase() == Phase::deal_over);
  auto result = h.game().result();
  CHECK(result["winner"] == 1);
  CHECK(result["cards_left"] == 32);
  // Y (AD 7S = 22) and Z (KH = 10) lose nothing; X adds their 32.
  CHECK(scores(h) == std::vector<int>{54, 81, 25});
  CHECK(deal_points(result) == Json::array({54, 81, 25}));
  CHECK(h.chips() == std::vector<std::int64_t>{100, 100, 100});  // playing to 500
}

TEST_CASE("E9: a set of aces scores 45") {
  auto deck = deal_with_upcard({{"AS", "AH", "AD", "4C", "6D", "8H", "TS"},
                     {"KS", "7C", "2D", "3C", "5C", "8D", "TD"},
                     {"QC", "JD", "2S", "3S", "5S", "7S", "9S"}},
                    "2C", {"KH"});
  Harness h("michigan_rummy", options(), {100, 100, 100}, 1, deck);
  h.act(1, draw());
  h.act(1, meld({"AS", "AH", "AD"}));
  CHECK(scores(h) == std::vector<int>{0, 45, 0});
}

TEST_CASE("game end: a player at the target wins and collects the difference of scores from each opponent") {
  Harness h("michigan_rummy", options({{"target", 50}}), {100, 100, 100}, 1, e9_deck());
  play_e9(h);
  CHECK(h.game().phase() == Phase::game_over);
  // X 81: Y (25) pays 56, Z (54) pays 27.
  CHECK(h.chips() == std::vector<std::int64_t>{73, 183, 44});
  CHECK(h.game().result()["game_winners"] == Json::array({1}));

  Harness staked("michigan_rummy", options({{"target", 50}, {"stake", 2}}), {100, 100, 100}, 1, e9_deck());
  play_e9(staked);
  CHECK(staked.chips() == std::vector<std::int64_t>{46, 254, 0});
  REQUIRE(staked.game().result()["unpaid"].size() == 1);
  CHECK(staked.game().result()["unpaid"][0]["amount"] == 12);
}

TEST_CASE("the deals option caps a game to the target: the leader collects the differences") {
  Harness h("michigan_rummy", options({{"deals", 1}}), {100, 100, 100}, 1, e9_deck());
  play_e9(h);
  CHECK(h.game().phase() == Phase::game_over);
  CHECK(h.chips() == std::vector<std::int64_t>{73, 183, 44});
}

TEST_CASE("R-M4 settle_each_deal: the winner collects the difference of deal points after every deal") {
  Harness h("michigan_rummy", options({{"settle_each_deal", true}, {"deals", 2}}), {100, 100, 100}, 1, e9_deck());
  play_e9(h);
  CHECK(h.game().phase() == Phase::deal_over);
  CHECK(h.chips() == std::vector<std::int64_t>{73, 183, 44});
  CHECK(deal_points(h.game().result()) == Json::array({54, 81, 25}));  // the deal's points, not the payments
  CHECK(h.game().result()["seats"][2]["chips"] == -56);
  h.next_deal();
  CHECK(scores(h) == std::vector<int>{54, 81, 25});  // the running score carries on
  CHECK(h.game().phase() == Phase::playing);
}

TEST_CASE("E10: take a card from the spread pile with all above it, and meld it at once") {
  Harness h("michigan_rummy", options(), {100, 100, 100, 100}, 1, e10_deck(nines));
  build_e10_pile(h);
  // The pile is public: every seat and a spectator see it spread.
  CHECK(view_pile(h.game().view(std::nullopt), "discard")["cards"] == Json::array({"4H", "9C", "KD", "2S"}));
  CHECK(view_pile(h.game().view(2), "discard")["cards"] == Json::array({"4H", "9C", "KD", "2S"}));
  // Only 9C is usable; the other depths are neither listed nor accepted.
  auto legal = h.legal(0);
  CHECK(listed(legal, {{"type", "take"}, {"depth", 2}, {"card", "9C"}}));
  int takes = 0;
  for (const auto& a : legal) takes += a["type"] == "take";
  CHECK(takes == 1);
  CHECK(h.refusal(0, take(0)) == "illegal_action");
  CHECK(h.refusal(0, take(1)) == "illegal_action");
  CHECK(h.refusal(0, take(3)) == "illegal_action");
  h.act(0, take(2));
  auto view = h.game().view(0);
  CHECK(view_pile(view, "discard")["cards"] == Json::array({"4H"}));
  CHECK(view["seats"][0]["count"] == 10);
  CHECK(view["must_use"] == "9C");
  for (const char* c : {"9C", "KD", "2S"}) CHECK(view["seats"][0]["cards"].dump().find(c) != std::string::npos);
  // 9C comes first: no discard, no other meld before it.
  CHECK(h.refusal(0, discard("2S")) == "illegal_action");
  CHECK(h.refusal(0, meld({"5S", "6S", "7S"})) == "illegal_action");
  for (const auto& a : h.legal(0)) {
    CHECK(a["type"] == "meld");
    CHECK(a["cards"].dump().find("9C") != std::string::npos);
  }
  h.act(0, meld({"9C", "9D", "9H"}));
  CHECK(scores(h) == std::vector<int>{27, 0, 0, 0});
  CHECK_FALSE(h.game().view(0).contains("must_use"));
  h.act(0, meld({"5S", "6S", "7S"}));
  h.act(0, discard("2S"));
  CHECK(scores(h) == std::vector<int>{45, 0, 0, 0});
}

TEST_CASE("E10: a card that neither melds with the hand nor lays off on the table may not be taken") {
  Harness h("michigan_rummy", options(), {100, 100, 100, 100}, 1, e10_deck(no_nines));
  build_e10_pile(h);
  CHECK(h.refusal(0, take(2)) == "illegal_action");
  for (const auto& a : h.legal(0)) CHECK(a["type"] != "take");
  h.act(0, draw());
}

TEST_CASE("E10: a card that lays off on a meld already made may be taken") {
  // Seat 1 melds 9S 9D 9H; seat 2 discards 9C; seat 3, holding no 9, takes it to lay off.
  auto deck = deal_with_upcard({{"9S", "9D", "9H", "2D", "4D", "6D", "8D"},
                     {"9C", "KD", "5C", "7C", "2H", "4H", "6H"},
                     {"JD", "TH", "AH", "3S", "5S", "7S", "QC"},
                     {"2C", "3C", "KH", "KS", "TC", "JC", "8S"}},
                    "4S", {"QD", "3D", "6C"});
  Harness h("michigan_rummy", options(), {100, 100, 100, 100}, 1, deck);
  h.act(1, draw());
  h.act(1, meld({"9S", "9D", "9H"}));
  h.act(1, discard("QD"));
  h.act(2, draw());
  h.act(2, discard("9C"));
  h.act(3, take(0));
  CHECK(h.game().view(3)["must_use"] == "9C");
  CHECK(h.refusal(3, discard("3S")) == "illegal_action");
  h.act(3, lay_off(0, {"9C"}));
  CHECK(scores(h) == std::vector<int>{0, 27, 0, 9});
  // R-G1: the single top card taken may not be discarded; it is melded anyway here.
  h.act(3, discard("3S"));
}

TEST_CASE("R-M2 top_card_free: the top card alone may be taken with no duty to meld it, but not discarded") {
  Harness h("michigan_rummy", options({{"top_card_free", true}}), {100, 100, 100, 100}, 1, e10_deck(no_nines));
  build_e10_pile(h);
  CHECK(listed(h.legal(0), {{"type", "take"}, {"depth", 0}, {"card", "2S"}}));
  CHECK(h.refusal(0, take(1)) == "illegal_action");  // deeper cards keep the duty
  h.act(0, take(0));
  CHECK_FALSE(h.game().view(0).contains("must_use"));
  CHECK(h.refusal(0, discard("2S")) == "illegal_action");
  h.act(0, discard("QH"));
}

TEST_CASE("R-M5 polish: the whole discard pile may be taken, with no duty to meld") {
  Harness plain("michigan_rummy", options(), {100, 100, 100, 100}, 1, e10_deck(no_nines));
  build_e10_pile(plain);
  CHECK(plain.refusal(0, {{"type", "take_all"}}) == "illegal_action");
  CHECK_FALSE(listed(plain.legal(0), {{"type", "take_all"}}));

  Harness h("michigan_rummy", options({{"polish", true}}), {100, 100, 100, 100}, 1, e10_deck(no_nines));
  build_e10_pile(h);
  CHECK(listed(h.legal(0), {{"type", "take_all"}}));
  h.act(0, {{"type", "take_all"}});
  auto view = h.game().view(0);
  CHECK(view_pile(view, "discard")["cards"].empty());
  CHECK(view["seats"][0]["count"] == 11);
  CHECK_FALSE(view.contains("must_use"));
  h.act(0, discard("4H"));  // no meld needed
  CHECK(view_pile(h.game().view(0), "discard")["cards"] == Json::array({"4H"}));
  // The normal Michigan take keeps its duty: seat 1 cannot use 4H, so may only take it all.
  CHECK(h.refusal(1, take(0)) == "illegal_action");
  CHECK(listed(h.legal(1), {{"type", "take_all"}}));
}

TEST_CASE("R-M5 polish, R-G3: the whole pile may be taken at most twice per player a deal, so every deal ends") {
  Harness h("michigan_rummy", options({{"polish", true}}), {100, 100}, 3);
  for (int take = 1; take <= 4; ++take) {
    const int seat = h.game().to_act().front();
    h.act(seat, {{"type", "take_all"}});
    h.act(seat, parlour::test::rummy_kit::listed(h.legal(seat), std::string("discard")).front());
  }
  const int seat = h.game().to_act().front();
  CHECK(parlour::test::rummy_kit::listed(h.legal(seat), std::string("take_all")).empty());
  CHECK(h.refusal(seat, {{"type", "take_all"}}) == "illegal_action");
}

TEST_CASE("two packs: a set may hold the same card twice") {
  auto deck = deal_with_upcard({{"7H", "7H", "7S", "2C", "4C", "6C", "8C"},
                     {"KS", "QS", "JS", "9D", "5H", "3D", "AC"},
                     {"KD", "QD", "JD", "9S", "5S", "3S", "AD"},
                     {"KC", "QC", "JC", "9C", "5D", "3H", "AS"},
                     {"KH", "QH", "JH", "9H", "5C", "3C", "AH"}},
                    "2S", {"TC"});
  Harness h("michigan_rummy", options(), {100, 100, 100, 100, 100}, 1, deck);
  h.act(1, draw());
  h.act(1, meld({"7H", "7H", "7S"}));
  CHECK(scores(h) == std::vector<int>{0, 21, 0, 0, 0});
}

namespace {

// Draw from the stock and discard what was drawn, until the deal ends.
int draw_and_discard_to_the_end(Harness& h, int& turned) {
  int draws = 0;
  int guard = 0;
  while (h.game().phase() == Phase::playing && guard++ < 1000) {
    const int seat = h.game().to_act()[0];
    auto view = h.game().view(seat);
    if (view["phase"] == "draw") {
      for (const auto& line : h.act(seat, draw()).log) turned += line.find("turned over") != std::string::npos;
      ++draws;
    } else {
      h.act(seat, discard(view["seats"][seat]["cards"].back().get<std::string>().c_str()));
    }
  }
  return draws;
}

}  // namespace

TEST_CASE("stock exhausted: the pile is turned over once, then no winner and each scores melds less hand") {
  auto deck = deal_with_upcard({{"7H", "8H", "9H", "2C", "4C", "6C", "8C", "TC", "QC", "2D", "4D", "6D", "KS"},
                     {"3S", "5S", "7S", "9S", "JS", "3H", "5H", "TH", "QH", "3D", "5D", "9D", "JD"}},
                    "KD", {"AS"});
  Harness h("michigan_rummy", options(), {100, 100}, 1, deck);
  h.act(1, draw());
  h.act(1, meld({"7H", "8H", "9H"}));
  h.act(1, discard("AS"));
  int turned = 0;
  const int draws = draw_and_discard_to_the_end(h, turned) + 1;
  CHECK(turned == 1);
  CHECK(draws > 25);  // 25 cards in the first stock, then the turned pile
  auto result = h.game().result();
  CHECK(result["end"] == "no_winner");
  CHECK_FALSE(result.contains("winner"));
  const int count0 = result["hands"][0]["value"];
  const int count1 = result["hands"][1]["value"];
  CHECK(count0 > 0);
  CHECK(scores(h) == std::vector<int>{-count0, 24 - count1});
  CHECK(h.chips() == std::vector<std::int64_t>{100, 100});

  // max_restocks 0: the deal ends when the first stock runs out.
  Harness once("michigan_rummy", options({{"max_restocks", 0}}), {100, 100}, 1, deck);
  turned = 0;
  CHECK(draw_and_discard_to_the_end(once, turned) == 25);
  CHECK(turned == 0);
  CHECK(once.game().result()["end"] == "no_winner");
}

TEST_CASE("a game cut short by the deals cap with the lead tied: the leaders share each payment") {
  // Nobody melds: every hand ends as dealt, 50, 60 and 50, and the scores are minus those.
  auto deck = deal_with_upcard({{"KS", "QS", "JS", "TS", "5H", "3C", "2D"},
                     {"KH", "QH", "JH", "TH", "9C", "8C", "3D"},
                     {"KD", "QD", "JD", "TD", "4H", "4C", "2C"}},
                    "5C", {});
  Harness h("michigan_rummy", options({{"max_restocks", 0}, {"deals", 1}}), {100, 100, 100}, 1, deck);
  int turned = 0;
  draw_and_discard_to_the_end(h, turned);
  CHECK(h.game().phase() == Phase::game_over);
  CHECK(scores(h) == std::vector<int>{-50, -50, -60});
  CHECK(h.game().result()["game_winners"] == Json::array({1, 0}));
  CHECK(h.chips() == std::vector<std::int64_t>{105, 105, 90});
}

TEST_CASE("a player who leaves: the deal is abandoned and scores nothing; he is out of the settlement") {
  Harness h("michigan_rummy", options({{"deals", 2}, {"max_restocks", 0}}), {100, 100, 100}, 1, e9_deck());
  h.act(1, draw());
  h.act(1, meld({"3H", "2H", "AH"}));
  CHECK(scores(h) == std::vector<int>{0, 6, 0});
  h.leave(2);
  CHECK(h.game().phase() == Phase::deal_over);
  CHECK(scores(h) == std::vector<int>{0, 0, 0});
  h.next_deal();
  CHECK(h.game().view(0)["seats"][2]["count"] == 0);
  int turned = 0;
  draw_and_discard_to_the_end(h, turned);
  CHECK(h.game().phase() == Phase::game_over);
  CHECK(h.chips(2) == 100);
  CHECK(h.total() == 300);
  const auto s = scores(h);
  if (s[0] != s[1]) CHECK(h.chips(s[0] > s[1] ? 0 : 1) == 100 + std::abs(s[0] - s[1]));
}

TEST_CASE("snapshot: restored in the second deal, the banked scores come back (a deal abandoned falls back to them)") {
  Harness h("michigan_rummy", options({{"settle_each_deal", true}, {"deals", 3}}), {100, 100, 100}, 1, e9_deck());
  play_e9(h);
  h.next_deal();
  const int first = h.game().to_act().front();
  h.act(first, draw());
  const auto game = from_snapshot(h);
  CHECK(sorted_hand(*game, first) == sorted_hand(h.game(), first));
  game->seat_left((first + 1) % 3, h.chips());
  CHECK(game->phase() == Phase::deal_over);
  CHECK(game->view(std::nullopt)["scores"] == Json::array({54, 81, 25}));  // banked after the first deal
}

TEST_CASE("R-M4: a deal ended by the Otherwise rule moves no chips under settle_each_deal") {
  Harness h("michigan_rummy", options({{"settle_each_deal", true}, {"max_restocks", 0}}), {100, 100}, 9);
  int turned = 0;
  draw_and_discard_to_the_end(h, turned);
  CHECK(h.game().result()["end"] == "no_winner");
  CHECK(h.chips() == std::vector<std::int64_t>{100, 100});
}

TEST_CASE("hidden information: other hands are ?? to players and spectators; the spread pile is public") {
  Harness h("michigan_rummy", options(), {100, 100, 100}, 3);
  h.act(1, draw());
  auto mine = h.game().view(1);
  for (const auto& c : mine["seats"][1]["cards"]) CHECK(c != "??");
  for (int s : {0, 2})
    for (const auto& c : mine["seats"][s]["cards"]) CHECK(c == "??");
  auto spectator = h.game().view(std::nullopt);
  for (int s = 0; s < 3; ++s)
    for (const auto& c : spectator["seats"][s]["cards"]) CHECK(c == "??");
  CHECK(view_pile(spectator, "discard")["cards"] == view_pile(mine, "discard")["cards"]);
  CHECK(view_pile(spectator, "discard")["cards"].size() == 1);
  CHECK(view_pile(spectator, "stock")["count"].is_number());
}

namespace {

// Whole random games until at least `min_deals` deals: tests/rules/playout.h.
void random_games(const Json& opts, int min_deals, int players_lo, int players_hi) {
  parlour::test::Playout spec;
  spec.game = "michigan_rummy";
  spec.options = opts;
  spec.min_deals = min_deals;
  spec.players_lo = players_lo;
  spec.players_hi = players_hi;
  spec.seed_base = 17;
  spec.pack_size = [](int players) { return std::size_t{players >= 5 ? 104u : 52u}; };
  parlour::test::random_playouts(spec);
}

}  // namespace

TEST_CASE("random games: michigan to 500, two to eight players") { random_games(options(), 1000, 2, 8); }
TEST_CASE("random games: michigan polish") { random_games(options({{"polish", true}}), 1000, 2, 8); }
TEST_CASE("random games: michigan top_card_free") { random_games(options({{"top_card_free", true}}), 1000, 2, 8); }
TEST_CASE("random games: michigan settle_each_deal") {
  random_games(options({{"settle_each_deal", true}}), 1000, 2, 8);
}
TEST_CASE("random games: michigan stock rules and deal caps") {
  random_games(options({{"max_restocks", 0}, {"deals", 4}}), 1000, 2, 8);
  random_games(options({{"max_restocks", 3}, {"target", 50}, {"stake", 5}}), 1000, 2, 8);
}

}  // namespace unity_test_michigan_rummy
