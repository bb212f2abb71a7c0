// Red and Black, source 000 (the second "RED AND BLACK") and rules/other.md §5
// (example E13).
#include <doctest/doctest.h>

#include <set>

#include "rules/random_play.h"
#include "rules/snapshot.h"
#include "tests/rules/harness.h"
#include "tests/rules/playout.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_red_and_black {

using parlour::test::cards;
using parlour::test::Harness;
using parlour::test::Playout;
using parlour::test::random_playouts;
using parlour::rules::Rng;
using parlour::test::view_pile;
using parlour::rules::Json;
using parlour::rules::Phase;

namespace {

// A stacked deck: the bettors' hands in play order (from the dealer's left), dealt
// one card at a time round the bettors.
std::vector<parlour::rules::Card> stack(const std::vector<std::vector<std::string>>& hands_in_play_order) {
  std::vector<std::string> deck;
  for (std::size_t round = 0; round < 5; ++round)
    for (const auto& hand : hands_in_play_order) deck.push_back(hand[round]);
  return cards(deck);
}

Json bet(const std::string& colour, std::int64_t amount) {
  return {{"type", "bet"}, {"colour", colour}, {"amount", amount}};
}

const std::vector<std::string> three_red = {"2H", "5D", "9S", "JH", "3C"};
const std::vector<std::string> five_red = {"2H", "5D", "9H", "JH", "3D"};
const std::vector<std::string> five_black = {"2S", "5C", "8C", "JC", "3S"};
const std::vector<std::string> two_red = {"2H", "5D", "9S", "JC", "3S"};
const std::vector<std::string> four_red = {"2H", "5D", "9H", "JC", "3D"};

// Seat 0 deals and banks the first deal; seat 1 bets.
std::vector<std::int64_t> settle_one(const std::vector<std::string>& hand, const std::string& colour,
                                     std::int64_t amount, std::int64_t bettor_chips = 100) {
  Harness h("red_and_black", {}, {100, bettor_chips}, 1, stack({hand}));
  h.act(1, bet(colour, amount));
  CHECK(h.game().phase() == Phase::deal_over);
  return h.chips();
}

}  // namespace

TEST_CASE("E13: RED for 10 with three red cards: the dealer pays 10") {
  CHECK(settle_one(three_red, "red", 10) == std::vector<std::int64_t>{90, 110});
}

TEST_CASE("E13: RED for 10 with five red cards: the dealer pays 20") {
  CHECK(settle_one(five_red, "red", 10) == std::vector<std::int64_t>{80, 120});
}

TEST_CASE("E13: BLACK for 10 with five red cards: the bettor pays the dealer 20") {
  CHECK(settle_one(five_red, "black", 10) == std::vector<std::int64_t>{120, 80});
}

TEST_CASE("a minority of the named colour loses the bet; four of it wins the bet once") {
  CHECK(settle_one(two_red, "red", 10) == std::vector<std::int64_t>{110, 90});
  CHECK(settle_one(two_red, "black", 10) == std::vector<std::int64_t>{90, 110});
  CHECK(settle_one(four_red, "red", 10) == std::vector<std::int64_t>{90, 110});
  CHECK(settle_one(five_black, "black", 7) == std::vector<std::int64_t>{86, 114});
  CHECK(settle_one(five_black, "red", 7) == std::vector<std::int64_t>{114, 86});
}

TEST_CASE("every bettor names a colour and a bet first, from the dealer's left; then five cards each face up") {
  auto deck = stack({three_red, five_black});
  Harness h("red_and_black", {}, {100, 50, 50}, 1, deck);
  CHECK(h.game().to_act() == std::vector<int>{1});
  CHECK(h.legal(1) == Json::array({{{"type", "bet"}, {"colour", "red"}, {"amount", {{"min", 1}, {"max", 50}}}},
                                   {{"type", "bet"}, {"colour", "black"}, {"amount", {{"min", 1}, {"max", 50}}}}}));
  CHECK(h.legal(0).empty());
  h.act(1, bet("red", 5));
  CHECK(h.game().view(2)["seats"][1]["cards"].empty());  // no cards before every bet is made
  CHECK(h.game().view(2)["seats"][1]["bet"] == 5);       // bets are public
  CHECK(h.game().view(2)["seats"][1]["colour"] == "red");
  CHECK(h.game().to_act() == std::vector<int>{2});
  h.act(2, bet("red", 3));
  CHECK(h.game().phase() == Phase::deal_over);
  auto view = h.game().view(std::nullopt);
  CHECK(view["seats"][1]["cards"] == Json(three_red));
  CHECK(view["seats"][2]["cards"] == Json(five_black));
  CHECK(view["seats"][1]["named"] == 3);
  CHECK(view["seats"][2]["named"] == 0);
  CHECK(parlour::test::view_pile(view, "stock")["count"] == 42);
  CHECK(h.chips() == std::vector<std::int64_t>{100 - 5 + 6, 55, 44});
  auto result = h.game().result();
  CHECK(result["dealer"] == 0);
  CHECK(result["seats"][0]["outcome"] == "dealer");
  CHECK(result["seats"][0]["chips"] == 1);
  CHECK(result["seats"][1]["outcome"] == "won");
  CHECK(result["seats"][1]["chips"] == 5);
  CHECK(result["seats"][2]["outcome"] == "lost_double");
  CHECK(result["seats"][2]["chips"] == -6);
  CHECK(result["unpaid"].empty());
}

TEST_CASE("everyone sees the same: all cards are face up and all bets public") {
  Harness h("red_and_black", {}, {100, 50, 50, 50});
  h.act(1, bet("black", 2));
  CHECK(h.game().view(0) == h.game().view(std::nullopt));
  h.act(2, bet("red", 2));
  h.act(3, bet("red", 2));
  for (int seat = 0; seat < 4; ++seat) CHECK(h.game().view(seat) == h.game().view(std::nullopt));
}

TEST_CASE("the bank's cover: the dealer must cover twice every bet accepted, so later bettors are capped first") {
  Harness h("red_and_black", {}, {30, 50, 50, 50});
  CHECK(h.legal(1)[0]["amount"]["max"] == 15);
  h.act(1, bet("red", 10));
  CHECK(h.legal(2)[0]["amount"]["max"] == 5);
  CHECK(h.refusal(2, bet("red", 6)) == "illegal_action");
  h.act(2, bet("black", 5));
  // Nothing is left to cover seat 3's bet: he is skipped and the cards are dealt.
  CHECK(h.game().phase() == Phase::deal_over);
  CHECK(h.game().result()["seats"][3]["outcome"] == "skipped");
  CHECK(h.game().result()["seats"][3]["chips"] == 0);
}

TEST_CASE("a bet above the bettor's chips is refused with insufficient_chips, above the limit with illegal_action") {
  Harness h("red_and_black", {{"limit", 20}}, {100, 12});
  CHECK(h.legal(1)[0]["amount"]["max"] == 12);
  CHECK(h.refusal(1, bet("red", 13)) == "insufficient_chips");
  Harness g("red_and_black", {{"limit", 20}}, {100, 50});
  CHECK(g.legal(1)[0]["amount"]["max"] == 20);
  CHECK(g.refusal(1, bet("red", 21)) == "illegal_action");
}

TEST_CASE("option cover_double: a bettor must hold twice his bet") {
  Harness h("red_and_black", {{"cover_double", true}}, {100, 9});
  CHECK(h.legal(1)[0]["amount"]["max"] == 4);
  CHECK(h.refusal(1, bet("red", 5)) == "insufficient_chips");
}

TEST_CASE("a bettor who cannot pay a double loss pays all he has and the rest is named unpaid") {
  Harness h("red_and_black", {}, {100, 15}, 1, stack({five_red}));
  h.act(1, bet("black", 10));
  CHECK(h.chips() == std::vector<std::int64_t>{115, 0});
  auto result = h.game().result();
  CHECK(result["seats"][1]["chips"] == -15);
  CHECK(result["unpaid"] ==
        Json::array({{{"seat", 1},
                      {"to", {{"seat", 0}}},
                      {"amount", 5},
                      {"memo", "{seat:1} pays the banker, {seat:0}, double the bet of 10 on black: none of the five cards black"}}}));
}

TEST_CASE("option sequential: each bettor is dealt and settled as soon as he bets") {
  Harness h("red_and_black", {{"sequential", true}}, {30, 50, 50}, 1, cards(five_red));
  h.act(1, bet("red", 10));
  CHECK(h.chips() == std::vector<std::int64_t>{10, 70, 50});
  CHECK(h.game().view(2)["seats"][1]["cards"] == Json(five_red));
  CHECK(h.game().view(2)["seats"][1]["status"] == "won_double");
  CHECK(h.game().phase() == Phase::playing);
  CHECK(h.legal(2)[0]["amount"]["max"] == 5);  // the dealer's chips after paying
  h.act(2, bet("red", 5));
  CHECK(h.game().phase() == Phase::deal_over);
  CHECK(parlour::test::view_pile(h.game().view(0), "stock")["count"] == 42);
}

TEST_CASE("the bank passes to the left every deal; option bank_passes off keeps it") {
  Harness h("red_and_black", {}, {100, 100, 100});
  h.act(1, bet("red", 1));
  h.act(2, bet("red", 1));
  h.next_deal();
  CHECK(h.game().view(0)["dealer"] == 1);
  CHECK(h.game().to_act() == std::vector<int>{2});
  CHECK(h.game().view(0)["deal"] == 2);
  CHECK(view_pile(h.game().view(0), "stock")["count"] == 52);  // a fresh pack, nothing dealt yet

  Harness g("red_and_black", {{"bank_passes", false}}, {100, 100, 100});
  g.act(1, bet("red", 1));
  g.act(2, bet("red", 1));
  g.next_deal();
  CHECK(g.game().view(0)["dealer"] == 0);
}

TEST_CASE("a player who cannot cover a doubled 1-chip bet does not bank; a bettor without chips is skipped") {
  Harness h("red_and_black", {}, {1, 0, 40});
  CHECK(h.game().view(0)["dealer"] == 2);
  CHECK(h.game().to_act() == std::vector<int>{0});
  h.act(0, bet("red", 1));
  CHECK(h.game().phase() == Phase::deal_over);
  CHECK(h.game().result()["seats"][1]["outcome"] == "skipped");
}

TEST_CASE("when nobody can both bank and bet the game is over") {
  Harness h("red_and_black", {}, {1, 1});
  CHECK(h.game().phase() == Phase::game_over);
  Harness g("red_and_black", {}, {50, 0});
  CHECK(g.game().phase() == Phase::game_over);
}

TEST_CASE("refusals: out of turn, wrong types, bad colours and malformed amounts change nothing") {
  Harness h("red_and_black", {}, {100, 50, 50});
  CHECK(h.refusal(0, bet("red", 1)) == "not_your_turn");
  CHECK(h.refusal(2, bet("red", 1)) == "not_your_turn");
  CHECK(h.refusal(1, {{"type", "stand"}}) == "illegal_action");
  CHECK(h.refusal(1, bet("green", 1)) == "illegal_action");
  CHECK(h.refusal(1, {{"type", "bet"}, {"amount", 1}}) == "illegal_action");
  CHECK(h.refusal(1, {{"type", "bet"}, {"colour", "red"}}) == "illegal_action");
  CHECK(h.refusal(1, {{"type", "bet"}, {"colour", "red"}, {"amount", "1"}}) == "illegal_action");
  CHECK(h.refusal(1, {{"type", "bet"}, {"colour", "red"}, {"amount", 1}, {"card", "AS"}}) == "illegal_action");
  CHECK(h.refusal(1, bet("red", 0)) == "illegal_action");
  CHECK(h.refusal(1, Json::array()) == "illegal_action");
  h.act(1, bet("red", 1));
  h.act(2, bet("red", 1));
  CHECK(h.refusal(1, bet("red", 1)) == "not_your_turn");
}

TEST_CASE("option deals ends the game after that many deals") {
  Harness h("red_and_black", {{"deals", 1}}, {100, 100});
  h.act(1, bet("black", 3));
  CHECK(h.game().phase() == Phase::game_over);
  CHECK(h.game().deals_played() == 1);
}

TEST_CASE("a bettor who leaves withdraws his bet; if the dealer leaves the bets are void") {
  Harness h("red_and_black", {}, {100, 50, 50, 50});
  h.act(1, bet("red", 5));
  h.leave(1);
  CHECK(h.game().view(0)["seats"][1]["status"] == "withdrawn");
  h.act(2, bet("red", 5));
  h.act(3, bet("red", 5));
  CHECK(h.game().phase() == Phase::deal_over);
  CHECK(h.game().result()["seats"][1]["chips"] == 0);
  CHECK(h.game().view(0)["seats"][1]["cards"].empty());

  Harness g("red_and_black", {}, {100, 50, 50});
  g.act(1, bet("red", 5));
  g.leave(0);
  CHECK(g.game().phase() == Phase::deal_over);
  CHECK(g.game().result()["seats"][1]["outcome"] == "void");
  CHECK(g.chips() == std::vector<std::int64_t>{100, 50, 50});
  g.leave(2);
  CHECK(g.game().phase() == Phase::game_over);
}

TEST_CASE("player limits: 2 to 10") {
  const auto* info = parlour::rules::Registry::builtin().find("red_and_black");
  REQUIRE(info != nullptr);
  auto setup = [](int players) {
    return parlour::rules::GameSetup{Json::object(), players, 1, std::nullopt, std::vector<std::int64_t>(players, 10)};
  };
  CHECK_NOTHROW(parlour::rules::Registry::create(*info, setup(10)));
  CHECK_THROWS_AS(parlour::rules::Registry::create(*info, setup(11)), parlour::rules::SetupError);
  CHECK_THROWS_AS(parlour::rules::Registry::create(*info, setup(1)), parlour::rules::SetupError);
}

TEST_CASE("random games: chips conserved, every legal action applies, no seat overdrawn, every game ends") {
  Playout spec;
  spec.game = "red_and_black";
  spec.min_games = 150;
  spec.min_deals = 1000;
  spec.max_steps = 1000;
  spec.options_for = [](Rng& rng) {
    return Json{{"deals", 12},
                {"limit", rng.below(2) == 0 ? 0 : rng.between(1, 20)},
                {"sequential", rng.below(2) == 1},
                {"bank_passes", rng.below(4) != 0},
                {"cover_double", rng.below(3) == 0}};
  };
  spec.players_lo = 2;
  spec.players_hi = 10;
  spec.chips_for = [](int players, Rng& rng) {
    std::vector<std::int64_t> chips;
    for (int i = 0; i < players; ++i) chips.push_back(rng.between(0, 60));
    return chips;
  };
  spec.leave_one_in = 150;
  // One bettor at a time, offered red or black.
  spec.before_step = [](Harness& h, int, const Json& legal) {
    REQUIRE(h.game().to_act().size() == 1);
    REQUIRE(legal.size() == 2);
  };
  // Cards: the dealt cards are shown to all, and no card is dealt twice. (A
  // player who leaves takes his cards off the table: there is no count to keep.)
  spec.cards_conserved = [](Harness& h) {
    std::set<std::string> dealt;
    std::size_t count = 0;
    for (const auto& seat : h.game().view(std::nullopt)["seats"])
      for (const auto& card : seat["cards"]) {
        dealt.insert(card.get<std::string>());
        ++count;
      }
    CHECK(dealt.size() == count);
  };
  spec.after_step = [](Harness& h) {
    for (auto c : h.chips()) CHECK(c >= 0);
  };
  // The result accounts for every chip that moved.
  spec.deal_over = [](Harness& h) {
    std::int64_t net = 0;
    const auto result = h.game().result();
    REQUIRE(result["seats"].is_array());
    for (const auto& seat : result["seats"]) net += seat["chips"].get<std::int64_t>();
    CHECK(net == 0);
  };
  spec.after_game = [](Harness& h) {
    const auto total = h.total();
    h.close();
    CHECK(h.total() == total);
  };
  random_playouts(spec);
}

TEST_CASE("a bettor whose chips went at another table is offered only to skip, and skipping passes the turn") {
  Harness h("red_and_black", {}, {100, 50, 50});
  REQUIRE(h.game().to_act() == std::vector<int>{1});
  h.spend_elsewhere(1, 50);
  CHECK(h.legal(1) == Json::array({{{"type", "skip"}}}));
  CHECK(h.refusal(1, bet("red", 1)) == "insufficient_chips");
  h.act(1, {{"type", "skip"}});
  CHECK(h.game().view(0)["seats"][1]["status"] == "skipped");
  CHECK(h.game().to_act() == std::vector<int>{2});
  CHECK(h.refusal(2, {{"type", "skip"}}) == "illegal_action");  // he can still bet
}

TEST_CASE("when the banker's chips went at another table, the bettor may only skip and the deal ends without bets") {
  Harness h("red_and_black", {}, {100, 50, 50});
  h.spend_elsewhere(0, 99);
  CHECK(h.legal(1) == Json::array({{{"type", "skip"}}}));
  h.act(1, {{"type", "skip"}});
  CHECK(h.game().phase() == Phase::deal_over);  // seat 2 finds the bank exhausted too
  CHECK(h.game().result()["seats"][2]["outcome"] == "skipped");
}

// A memo is read from the bettor's and the banker's ledger alike: it says who
// pays whom, the bet and colour, and how many of the five cards decided it.
TEST_CASE("ledger memos: the banker pays a winning bet, double for all five; a losing bet goes to the banker") {
  const auto memo_of = [](const std::vector<std::string>& hand, const std::string& colour, std::int64_t amount) {
    Harness h("red_and_black", {}, {100, 100}, 1, stack({hand}));
    const auto fx = h.act(1, bet(colour, amount));
    REQUIRE(fx.transfers.size() == 1);
    return fx.transfers[0].memo;
  };
  CHECK(memo_of(three_red, "red", 10) ==
        "{seat:0}, the banker, pays {seat:1}'s winning bet of 10 on red: 3 of the five cards red");
  CHECK(memo_of(five_red, "red", 10) ==
        "{seat:0}, the banker, pays {seat:1} double the bet of 10 on red: all five cards red");
  CHECK(memo_of(two_red, "red", 10) ==
        "{seat:1}'s losing bet of 10 on red goes to the banker, {seat:0}: only 2 of the five cards red");
  CHECK(memo_of(five_red, "black", 10) ==
        "{seat:1} pays the banker, {seat:0}, double the bet of 10 on black: none of the five cards black");
}

TEST_CASE("snapshot: restored after the first bet, the stock deals the same cards when the last bet is made") {
  Harness h("red_and_black", {}, {100, 50, 50}, 1, stack({three_red, five_black}));
  h.act(1, bet("red", 5));
  auto restored = h.restored(Json::parse(h.game().snapshot().dump()));
  // A snapshot short of any field, or naming a seat or turn the table has not, is refused.
  h.spoilt_snapshots_refused({"dealer", "turn"});
  CHECK(restored->to_act() == std::vector<int>{2});
  CHECK(restored->view(std::nullopt)["seats"][1]["bet"] == 5);
  restored->apply(2, bet("black", 4), {100, 50, 50});
  const auto view = restored->view(std::nullopt);
  CHECK(view["seats"][1]["cards"] == Json(three_red));
  CHECK(view["seats"][2]["cards"] == Json(five_black));
}

}  // namespace unity_test_red_and_black
