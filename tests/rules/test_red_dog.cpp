// Red Dog, source 000 "RED DOG" and rules/other.md §6 (examples E14, E15).
#include <doctest/doctest.h>

#include <set>

#include "rules/random_play.h"
#include "tests/rules/harness.h"
#include "tests/rules/playout.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_red_dog {

using parlour::test::cards;
using parlour::test::Harness;
using parlour::test::Playout;
using parlour::test::random_playouts;
using parlour::rules::Rng;
using parlour::rules::Json;
using parlour::rules::Phase;

namespace {

// A stacked deck: hands listed in play order (from the dealer's left, dealer
// last), dealt one card at a time round the table, then the cards to turn.
std::vector<parlour::rules::Card> stack(const std::vector<std::vector<std::string>>& hands_in_play_order,
                                        const std::vector<std::string>& turns) {
  std::vector<std::string> deck;
  for (std::size_t round = 0; round < hands_in_play_order[0].size(); ++round)
    for (const auto& hand : hands_in_play_order) deck.push_back(hand[round]);
  deck.insert(deck.end(), turns.begin(), turns.end());
  return cards(deck);
}

Json bet(std::int64_t amount) { return {{"type", "bet"}, {"amount", amount}}; }

const std::vector<std::string> source_hand = {"KC", "5D", "TH", "9H", "4S"};
const std::vector<std::string> dealer_hand = {"2S", "3S", "4D", "5C", "6C"};

// E14's table: two players, ante 10, so the pot is 20 when seat 1 bets.
Harness source_example(const std::string& turned) {
  return Harness("red_dog", {{"ante", 10}}, {100, 100}, 1, stack({source_hand, dealer_hand}, {turned}));
}

bool contains_card(const Json& json, const std::string& card) { return json.dump().find('"' + card + '"') != std::string::npos; }

}  // namespace

TEST_CASE("every player antes into the pot and is dealt five cards face down") {
  Harness h("red_dog", {{"ante", 2}}, {50, 50, 50});
  CHECK(h.pool("pot") == 6);
  CHECK(h.chips() == std::vector<std::int64_t>{48, 48, 48});
  auto view = h.game().view(0);
  CHECK(view["seats"][0]["cards"].size() == 5);
  CHECK(view["seats"][1]["cards"] == Json::array({"??", "??", "??", "??", "??"}));
  CHECK(parlour::test::view_pile(view, "stock")["count"] == 52 - 15);
}

TEST_CASE("the player on the dealer's left bets first and the dealer bets last") {
  Harness h("red_dog", {}, {50, 50, 50});
  CHECK(h.game().to_act() == std::vector<int>{1});
  CHECK(h.legal(1) == Json::array({{{"type", "bet"}, {"amount", {{"min", 1}, {"max", 3}}}}}));
  CHECK(h.legal(0).empty());
  h.act(1, bet(1));
  CHECK(h.game().to_act() == std::vector<int>{2});
  h.act(2, bet(1));
  CHECK(h.game().to_act() == std::vector<int>{0});
}

TEST_CASE("E14: K,5,10,9,4 wins against the 7 of hearts and shows only the 9") {
  auto h = source_example("7H");
  CHECK(h.pool("pot") == 20);
  h.act(1, bet(5));
  CHECK(h.chips(1) == 90 + 5);
  CHECK(h.pool("pot") == 15);
  auto seen_by_dealer = h.game().view(0)["seats"][1];
  CHECK(seen_by_dealer["status"] == "won");
  CHECK(seen_by_dealer["shown"] == "9H");
  CHECK(seen_by_dealer["cards"].empty());
  CHECK_FALSE(contains_card(h.game().view(0), "KC"));
  CHECK_FALSE(contains_card(h.game().view(std::nullopt), "TH"));
}

TEST_CASE("E14: the same hand loses against the jack of hearts and is thrown in unshown") {
  auto h = source_example("JH");
  h.act(1, bet(5));
  CHECK(h.chips(1) == 90 - 5);
  CHECK(h.pool("pot") == 25);
  auto seen_by_dealer = h.game().view(0)["seats"][1];
  CHECK(seen_by_dealer["status"] == "lost");
  CHECK_FALSE(seen_by_dealer.contains("shown"));  // a loser's hand is never shown
  CHECK(seen_by_dealer["target"] == "JH");
  for (const auto& card : source_hand) CHECK_FALSE(contains_card(h.game().view(0), card));
}

TEST_CASE("E14: a bet above the pot is refused and changes nothing") {
  auto h = source_example("7H");
  CHECK(h.refusal(1, bet(21)) == "illegal_action");
  CHECK(h.refusal(1, bet(0)) == "illegal_action");
  h.act(1, bet(20));
  CHECK(h.chips(1) == 90 + 20 - 10);  // won the pot, then antes into the new one
  CHECK(h.pool("pot") == 20);
}

TEST_CASE("a bet above the bettor's chips is refused with insufficient_chips") {
  Harness h("red_dog", {{"ante", 10}}, {100, 14});
  CHECK(h.legal(1)[0]["amount"]["max"] == 4);
  CHECK(h.refusal(1, bet(5)) == "insufficient_chips");
}

TEST_CASE("acting out of turn, a wrong action type and malformed actions are refused") {
  Harness h("red_dog", {}, {50, 50, 50});
  CHECK(h.refusal(0, bet(1)) == "not_your_turn");
  CHECK(h.refusal(2, bet(1)) == "not_your_turn");
  CHECK(h.refusal(1, {{"type", "pass"}}) == "illegal_action");
  CHECK(h.refusal(1, {{"type", "bet"}}) == "illegal_action");
  CHECK(h.refusal(1, {{"type", "bet"}, {"amount", "2"}}) == "illegal_action");
  CHECK(h.refusal(1, {{"type", "bet"}, {"amount", 1.5}}) == "illegal_action");
  CHECK(h.refusal(1, {{"type", "bet"}, {"amount", 1}, {"card", "AS"}}) == "illegal_action");
  CHECK(h.refusal(1, Json::array()) == "illegal_action");
}

TEST_CASE("E15: a player who bets the pot and wins takes it, and all four contribute to a new pot") {
  auto deck = stack({{"2C", "3C", "4C", "5C", "6C"},
                     {"AS", "AH", "AD", "AC", "KS"},
                     {"7D", "8D", "9D", "TD", "JD"},
                     {"2S", "3S", "4S", "5S", "6S"}},
                    {"KH", "2H"});
  Harness h("red_dog", {}, {20, 20, 20, 20}, 1, deck);
  CHECK(h.pool("pot") == 4);
  h.act(1, bet(3));  // KH: no heart in seat 1's hand
  CHECK(h.pool("pot") == 7);
  h.act(2, bet(7));  // 2H: the ace of hearts beats it
  CHECK(h.chips(2) == 19 + 7 - 1);
  CHECK(h.pool("pot") == 4);
  CHECK(h.chips() == std::vector<std::int64_t>{18, 15, 25, 18});
  CHECK(h.game().to_act() == std::vector<int>{3});
  CHECK(h.legal(3)[0]["amount"]["max"] == 4);
}

TEST_CASE("a hand with four aces cannot lose") {
  auto deck = stack({{"AS", "AH", "AD", "AC", "7S"}, dealer_hand}, {"KD"});
  Harness h("red_dog", {{"ante", 10}}, {100, 100}, 1, deck);
  h.act(1, bet(19));
  CHECK(h.chips(1) == 90 + 19);
}

TEST_CASE("a hand lacking a suit loses to any card of that suit") {
  auto deck = stack({{"AS", "AH", "AD", "KS", "KH"}, dealer_hand}, {"2C"});
  Harness h("red_dog", {{"ante", 10}}, {100, 100}, 1, deck);
  h.act(1, bet(20));
  CHECK(h.chips(1) == 70);
  CHECK(h.pool("pot") == 40);
}

TEST_CASE("a lower card of the turned suit does not win") {
  auto deck = stack({{"9D", "2C", "3C", "4C", "7C"}, dealer_hand}, {"TD"});
  Harness h("red_dog", {{"ante", 10}}, {100, 100}, 1, deck);
  h.act(1, bet(5));
  CHECK(h.chips(1) == 85);
}

TEST_CASE("after the dealer's bet the deal is settled, the pot carries over and the deal passes left") {
  Harness h("red_dog", {}, {50, 50, 50});
  h.act(1, bet(1));
  h.act(2, bet(1));
  h.act(0, bet(1));
  CHECK(h.game().phase() == Phase::deal_over);
  auto result = h.game().result();
  CHECK(result["deal"] == 1);
  CHECK(result["seats"].size() == 3);
  const auto pot_before = h.pool("pot");
  const auto chips_before = h.chips();
  h.next_deal();
  CHECK(h.pool("pot") == pot_before);  // no ante while the pot lasts
  CHECK(h.chips() == chips_before);
  CHECK(h.game().view(0)["dealer"] == 1);
  CHECK(h.game().to_act() == std::vector<int>{2});
  CHECK(h.game().view(0)["deal"] == 2);
}

TEST_CASE("option ante_per_deal: everyone antes at every deal") {
  Harness h("red_dog", {{"ante_per_deal", true}, {"ante", 2}}, {50, 50});
  h.act(1, bet(1));
  h.act(0, bet(1));
  const auto pot_before = h.pool("pot");
  h.next_deal();
  CHECK(h.pool("pot") == pot_before + 4);
}

TEST_CASE("the result gives each seat's chips won or lost in the deal, antes included") {
  auto h = source_example("7H");
  h.act(1, bet(5));
  h.act(0, bet(1));
  auto seats = h.game().result()["seats"];
  CHECK(seats[1]["chips"] == -10 + 5);
  CHECK(seats[1]["outcome"] == "won");
  CHECK(seats[1]["shown"] == "9H");
  CHECK(seats[0]["chips"].get<int>() == h.chips(0) - 100);
}

TEST_CASE("options hand_size 4 and 3 deal fewer cards") {
  for (int size : {4, 3}) {
    Harness h("red_dog", {{"hand_size", size}}, {10, 10, 10});
    CHECK(h.game().view(1)["seats"][1]["cards"].size() == static_cast<std::size_t>(size));
  }
}

TEST_CASE("player limits: eight with five cards, ten with four or three") {
  const auto* info = parlour::rules::Registry::builtin().find("red_dog");
  auto setup = [](int players, int hand) {
    return parlour::rules::GameSetup{{{"hand_size", hand}}, players, 1, std::nullopt,
                                     std::vector<std::int64_t>(players, 10)};
  };
  CHECK_NOTHROW(parlour::rules::Registry::create(*info, setup(8, 5)));
  CHECK_THROWS_AS(parlour::rules::Registry::create(*info, setup(9, 5)), parlour::rules::SetupError);
  CHECK_NOTHROW(parlour::rules::Registry::create(*info, setup(10, 4)));
  CHECK_NOTHROW(parlour::rules::Registry::create(*info, setup(10, 3)));
  CHECK_THROWS_AS(parlour::rules::Registry::create(*info, setup(1, 5)), parlour::rules::SetupError);
}

TEST_CASE("a player who cannot pay the ante sits out, dealt no cards") {
  Harness h("red_dog", {{"ante", 5}}, {50, 50, 3});
  CHECK(h.pool("pot") == 10);
  CHECK(h.chips(2) == 3);
  auto view = h.game().view(2);
  CHECK(view["seats"][2]["status"] == "sitting_out");
  CHECK(view["seats"][2]["cards"].empty());
  h.act(1, bet(1));
  CHECK(h.game().to_act() == std::vector<int>{0});
}

TEST_CASE("a player with no chips left after the ante is skipped") {
  Harness h("red_dog", {{"ante", 5}}, {50, 50, 5});
  CHECK(h.chips(2) == 0);
  h.act(1, bet(1));
  CHECK(h.game().to_act() == std::vector<int>{0});
  CHECK(h.game().view(0)["seats"][2]["status"] == "skipped");
}

TEST_CASE("with fewer than two players able to ante, the game is over") {
  Harness h("red_dog", {{"ante", 5}}, {50, 4});
  CHECK(h.game().phase() == Phase::game_over);
  CHECK(h.pool("pot") == 0);
}

TEST_CASE("option deals ends the game after that many deals") {
  Harness h("red_dog", {{"deals", 1}}, {50, 50});
  h.act(1, bet(1));
  h.act(0, bet(1));
  CHECK(h.game().phase() == Phase::game_over);
}

TEST_CASE("closing the table shares the pot equally, the remainder one chip each from the dealer's left") {
  auto deck = stack({{"2C", "3C", "4C", "7C", "8C"}, {"7D", "8D", "9D", "TD", "JD"}, dealer_hand}, {"KH"});
  Harness h("red_dog", {}, {20, 20, 20}, 1, deck);
  h.act(1, bet(2));  // loses: pot 3 + 2 = 5
  REQUIRE(h.pool("pot") == 5);
  h.close();
  CHECK(h.pool("pot") == 0);
  CHECK(h.chips() == std::vector<std::int64_t>{19 + 1, 17 + 2, 19 + 2});
}

TEST_CASE("a player who leaves is passed over; with one player left the game is over") {
  Harness h("red_dog", {}, {20, 20, 20});
  h.leave(1);
  CHECK(h.game().to_act() == std::vector<int>{2});
  CHECK(h.game().phase() == Phase::playing);
  h.leave(2);
  CHECK(h.game().phase() == Phase::game_over);
  h.close();
  CHECK(h.chips(0) == 19 + 3);
}

TEST_CASE("random games: chips and cards conserved, hidden cards hidden, every legal action applies") {
  Playout spec;
  spec.game = "red_dog";
  spec.min_games = 300;
  spec.min_deals = 3000;
  spec.max_steps = 1000;
  spec.options_for = [](Rng& rng) {
    return Json{{"hand_size", std::vector<int>{5, 4, 3}[rng.below(3)]}, {"ante", rng.between(1, 3)}, {"deals", 12}};
  };
  // Eight players at most with five cards each, ten with fewer.
  spec.players_for = [](const Json& options, Rng& rng) {
    return static_cast<int>(rng.between(2, options["hand_size"] == 5 ? 8 : 10));
  };
  spec.chips_for = [](int players, Rng& rng) {
    std::vector<std::int64_t> chips;
    for (int i = 0; i < players; ++i) chips.push_back(rng.between(0, 40));
    return chips;
  };
  spec.leave_one_in = 200;
  // One bettor at a time, offered one bet (of a range).
  spec.before_step = [](Harness& h, int, const Json& legal) {
    REQUIRE(h.game().to_act().size() == 1);
    REQUIRE(legal.size() == 1);
  };
  // Cards: each seat's own hand, the turned cards and the stock make one pack.
  spec.cards_conserved = [](Harness& h) {
    std::multiset<std::string> seen;
    const int players = static_cast<int>(h.chips().size());
    for (int s = 0; s < players; ++s) {
      const auto own = h.game().view(s);
      for (const auto& card : own["seats"][s]["cards"]) seen.insert(card.get<std::string>());
    }
    const auto view = h.game().view(std::nullopt);
    for (const auto& card : parlour::test::view_pile(view, "turned")["cards"]) seen.insert(card.get<std::string>());
    CHECK(seen.size() + parlour::test::view_pile(view, "stock")["count"].get<std::size_t>() == 52);
    CHECK(std::set<std::string>(seen.begin(), seen.end()).size() == seen.size());
  };
  // A spectator sees no card but the turned and shown ones.
  spec.after_step = [](Harness& h) {
    for (const auto& hand_view : h.game().view(std::nullopt)["seats"])
      for (const auto& card : hand_view["cards"]) CHECK(card == "??");
  };
  spec.after_game = [](Harness& h) {
    const auto total = h.total();
    h.close();
    CHECK(h.total() == total);
    CHECK(h.pool("pot") == 0);
  };
  random_playouts(spec);
}

TEST_CASE("a player with no chips cannot take part: a deal nobody can bet in ends the game and the pot is shared") {
  // Both lose their last chip in deal 1; the pot holds everything. No empty deal follows.
  auto deck = stack({{"2C", "3C", "4C", "5C", "6C"}, {"2D", "3D", "4D", "5D", "6D"}}, {"KH", "KS"});
  Harness h("red_dog", {}, {2, 2}, 1, deck);
  h.act(1, bet(1));
  h.act(0, bet(1));
  REQUIRE(h.chips() == std::vector<std::int64_t>{0, 0});
  REQUIRE(h.game().phase() == Phase::deal_over);
  h.next_deal();
  CHECK(h.game().phase() == Phase::game_over);
  CHECK(h.game().deals_played() == 1);
  h.close();
  CHECK(h.chips() == std::vector<std::int64_t>{2, 2});
}

TEST_CASE("a player whose only chips would go on the ante does not take part") {
  Harness h("red_dog", {}, {1, 1});
  CHECK(h.game().phase() == Phase::game_over);
  CHECK(h.chips() == std::vector<std::int64_t>{1, 1});
  CHECK(h.pool("pot") == 0);
}

TEST_CASE("the bettor who spent his chips at another table is offered only to skip, and skipping passes the turn") {
  Harness h("red_dog", {}, {50, 50, 50});
  REQUIRE(h.game().to_act() == std::vector<int>{1});
  h.spend_elsewhere(1, 49);
  CHECK(h.legal(1) == Json::array({{{"type", "skip"}}}));
  CHECK(h.refusal(1, bet(1)) == "insufficient_chips");
  CHECK(h.refusal(2, {{"type", "skip"}}) == "not_your_turn");
  h.act(1, {{"type", "skip"}});
  CHECK(h.game().view(0)["seats"][1]["status"] == "skipped");
  CHECK(h.game().to_act() == std::vector<int>{2});
  CHECK(h.refusal(2, {{"type", "skip"}}) == "illegal_action");  // he can still bet
}

TEST_CASE("the bettor whose chips shrank elsewhere is offered bets up to what he has now") {
  Harness h("red_dog", {{"ante", 10}}, {100, 100});
  h.spend_elsewhere(1, 85);
  CHECK(h.legal(1) == Json::array({{{"type", "bet"}, {"amount", {{"min", 1}, {"max", 5}}}}}));
  CHECK_NOTHROW(h.act(1, bet(5)));
}

// Each ledger movement names its rule and the card that decided it; a loser's
// hand is never shown, so his memo names only the turned card. The table puts
// "Red Dog: " before each memo and a player's name for each {seat:N}.
TEST_CASE("ledger memos: the ante, a bet won with the card that beat, a bet lost, the pot shared out") {
  auto won = source_example("7H");
  auto fx = won.act(1, bet(5));
  REQUIRE(fx.transfers.size() == 1);
  CHECK(fx.transfers[0].memo == "{seat:1}'s 9♥ beat the 7♥: the pot pays the bet of 5");

  auto lost = source_example("JH");
  fx = lost.act(1, bet(5));
  REQUIRE(fx.transfers.size() == 1);
  CHECK(fx.transfers[0].memo == "no card of {seat:1}'s beat the J♥: the bet of 5 goes into the pot");

  // With ante_per_deal everyone antes again at the next deal, from the new dealer's (seat 1's) left.
  Harness antes("red_dog", {{"ante", 10}, {"ante_per_deal", true}}, {100, 100}, 1,
                stack({source_hand, dealer_hand}, {"7H", "3D"}));
  antes.act(1, bet(5));
  antes.act(0, bet(1));
  fx = antes.next_deal();
  REQUIRE(fx.transfers.size() == 2);
  CHECK(fx.transfers[0].memo == "{seat:0}'s ante of 10 into the pot");
  CHECK(fx.transfers[1].memo == "{seat:1}'s ante of 10 into the pot");

  auto deck = stack({{"2C", "3C", "4C", "7C", "8C"}, {"7D", "8D", "9D", "TD", "JD"}, dealer_hand}, {"KH"});
  Harness shared("red_dog", {}, {20, 20, 20}, 1, deck);
  shared.act(1, bet(2));
  fx = shared.close();
  REQUIRE(fx.transfers.size() == 3);
  CHECK(fx.transfers[0].memo ==
        "the table ends: the pot of 5 is shared equally among 3, odd chips from the dealer's left");
}

}  // namespace unity_test_red_dog
