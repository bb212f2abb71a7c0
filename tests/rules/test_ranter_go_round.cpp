// Ranter-Go-Round (Chase the Ace), source 000 "RANTER-GO-ROUND" and rules/other.md §4
// (examples E10, E11, E12).
#include <doctest/doctest.h>

#include <set>

#include "rules/random_play.h"
#include "rules/snapshot.h"
#include "tests/rules/harness.h"
#include "tests/rules/playout.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_ranter_go_round {

using parlour::test::cards;
using parlour::test::Harness;
using parlour::test::Playout;
using parlour::test::random_playouts;
using parlour::rules::Rng;
using parlour::rules::Json;
using parlour::rules::Phase;

namespace {

const Json stand = {{"type", "stand"}};
const Json exchange = {{"type", "exchange"}};
const Json draw = {{"type", "draw"}};

// Seat 0 deals the first deal, so the cards go to seats 1, 2, …, n-1 and then 0;
// `cards_in_play_order` lists them in that order, then the stock's top cards.
Harness table(int players, const std::vector<std::string>& cards_in_play_order, Json options = Json::object(),
              std::int64_t chips = 20, std::uint64_t seed = 1) {
  return Harness("ranter_go_round", std::move(options), std::vector<std::int64_t>(players, chips), seed,
                 cards(cards_in_play_order));
}

std::string card_seen(Harness& h, int seat, std::optional<int> viewer) {
  const auto cards = h.game().view(viewer)["seats"][seat]["cards"];
  return cards.empty() ? "" : cards[0].get<std::string>();
}

int counters(Harness& h, int seat) { return h.game().view(std::nullopt)["seats"][seat]["counters"].get<int>(); }

}  // namespace

TEST_CASE("each player has three counters and is dealt one card face down") {
  auto h = table(3, {"7C", "8C", "9C"});
  auto view = h.game().view(1);
  CHECK(view["dealer"] == 0);
  CHECK(view["pools"]["pool"] == 0);
  CHECK(parlour::test::view_pile(view, "stock")["count"] == 52 - 3);
  for (int seat = 0; seat < 3; ++seat) CHECK(counters(h, seat) == 3);
  CHECK(card_seen(h, 1, 1) == "7C");
  CHECK(card_seen(h, 2, 1) == "??");
  CHECK(card_seen(h, 0, 1) == "??");
  CHECK(card_seen(h, 0, 0) == "9C");
  CHECK(card_seen(h, 1, std::nullopt) == "??");
  CHECK(h.pool("pool") == 0);
  CHECK(h.chips() == std::vector<std::int64_t>{20, 20, 20});  // counters are paid only when lost
}

TEST_CASE("play runs from the dealer's left to the dealer: others stand or exchange, the dealer stands or draws") {
  auto h = table(3, {"7C", "8C", "9C"});
  CHECK(h.game().to_act() == std::vector<int>{1});
  CHECK(h.legal(1) == Json::array({stand, exchange}));
  CHECK(h.legal(0).empty());
  h.act(1, stand);
  CHECK(h.game().to_act() == std::vector<int>{2});
  h.act(2, stand);
  CHECK(h.game().to_act() == std::vector<int>{0});
  CHECK(h.legal(0) == Json::array({stand, draw}));
}

TEST_CASE("an exchange swaps the cards face down with the player on the left; each sees only his new card") {
  auto h = table(3, {"AC", "8C", "9C"});
  h.act(1, exchange);
  CHECK(card_seen(h, 1, 1) == "8C");
  CHECK(card_seen(h, 2, 2) == "AC");
  CHECK(card_seen(h, 2, 1) == "??");
  CHECK(card_seen(h, 1, 2) == "??");
  CHECK(card_seen(h, 1, 0) == "??");
  CHECK(card_seen(h, 2, std::nullopt) == "??");
  CHECK(h.game().view(0)["seats"][1]["done"] == "exchanged");
  // The neighbour acts on the card passed to him: he passes the ace on to the dealer.
  h.act(2, exchange);
  CHECK(card_seen(h, 2, 2) == "9C");
  CHECK(card_seen(h, 0, 0) == "AC");
  h.act(0, stand);
  CHECK(h.game().result()["seats"][0]["outcome"] == "lost_counter");
  CHECK(h.chips() == std::vector<std::int64_t>{19, 20, 20});
}

TEST_CASE("the dealer may put his card under the pack and draw the top card instead") {
  auto h = table(2, {"5C", "AD", "9H"});
  h.act(1, stand);
  h.act(0, draw);
  CHECK(card_seen(h, 0, std::nullopt) == "9H");  // shown at the showdown
  CHECK(parlour::test::view_pile(h.game().view(0), "stock")["count"] == 52 - 2);     // the ace went under the stock
  CHECK(h.game().result()["seats"][1]["outcome"] == "lost_counter");
  CHECK(h.game().result()["seats"][0]["outcome"] == "safe");
  CHECK(h.pool("pool") == 1);
}

TEST_CASE("a king the dealer draws is simply kept and safe") {
  auto h = table(2, {"3C", "2C", "KD"});
  h.act(1, stand);
  h.act(0, draw);
  CHECK(h.game().result()["seats"][0]["card"] == "KD");
  CHECK(h.chips() == std::vector<std::int64_t>{20, 19});
}

TEST_CASE("E10: the lowest card loses a counter, ace lowest, and players tied for low each lose one") {
  // A..E are seats 1, 2, 3, 4 and 0 (E deals): A=7, B=K (exposed), C=ace, D=ace, E=2.
  auto h = table(5, {"7C", "KC", "AH", "AD", "2S"});
  h.act(1, stand);
  CHECK(h.game().to_act() == std::vector<int>{3});  // B is passed by
  h.act(3, stand);
  h.act(4, stand);
  h.act(0, stand);
  CHECK(h.game().phase() == Phase::deal_over);
  CHECK(h.pool("pool") == 2);
  CHECK(counters(h, 3) == 2);
  CHECK(counters(h, 4) == 2);
  for (int seat : {0, 1, 2}) CHECK(counters(h, seat) == 3);
  CHECK(h.chips() == std::vector<std::int64_t>{20, 20, 20, 19, 19});
  auto result = h.game().result();
  CHECK(result["seats"][3]["chips"] == -1);
  CHECK(result["seats"][4]["chips"] == -1);
  CHECK(result["seats"][3]["outcome"] == "lost_counter");
  CHECK(result["seats"][2]["outcome"] == "king");
  CHECK(result["seats"][0]["chips"] == 0);
  CHECK(result["pool"] == 2);
}

TEST_CASE("E11: a king is turned up at once; its holder has no turn and nobody may exchange with him") {
  // A is seat 1, B (dealt the king of clubs) seat 2, the dealer seat 0.
  auto h = table(3, {"4H", "KC", "9D"});
  CHECK(card_seen(h, 2, 1) == "KC");
  CHECK(card_seen(h, 2, std::nullopt) == "KC");
  CHECK(h.game().view(std::nullopt)["seats"][2]["king"] == true);
  CHECK(h.legal(1) == Json::array({stand}));
  CHECK(h.refusal(1, exchange) == "illegal_action");
  h.act(1, stand);
  CHECK(h.game().to_act() == std::vector<int>{0});
  CHECK(h.refusal(2, stand) == "not_your_turn");
}

TEST_CASE("option king_skip: the exchange goes past the king to the next player") {
  auto h = table(3, {"4H", "KC", "9D"}, {{"king_skip", true}});
  CHECK(h.legal(1) == Json::array({stand, exchange}));
  h.act(1, exchange);
  CHECK(card_seen(h, 1, 1) == "9D");
  CHECK(card_seen(h, 0, 0) == "4H");
  CHECK(card_seen(h, 2, 2) == "KC");
}

TEST_CASE("a dealer dealt a king is passed by too, and the player before him cannot exchange") {
  auto h = table(3, {"4H", "5H", "KS"});
  h.act(1, stand);
  CHECK(h.legal(2) == Json::array({stand}));
  h.act(2, stand);
  CHECK(h.game().phase() == Phase::deal_over);
  CHECK(h.chips() == std::vector<std::int64_t>{20, 19, 20});
}

TEST_CASE("E12: two players tied for low on their last counter are out, and the last player takes the pool") {
  // X, Y, Z are seats 1, 2, 0. Deal 1 (stacked): X and Y tie for low, leaving X=1,
  // Y=1, Z=2 counters. Deal 2 is shuffled: pick a seed whose deal 2 again has X and Y
  // tied for low.
  const Json options = {{"counters", 2}};
  bool found = false;
  for (std::uint64_t seed = 1; seed < 5000 && !found; ++seed) {
    auto h = table(3, {"2C", "2D", "9S"}, options, 20, seed);
    h.act(1, stand);
    h.act(2, stand);
    h.act(0, stand);
    REQUIRE(counters(h, 1) == 1);
    REQUIRE(counters(h, 2) == 1);
    REQUIRE(counters(h, 0) == 2);
    h.next_deal();
    CHECK(h.game().view(0)["dealer"] == 1);  // the deal passed left
    auto rank = [&](int seat) { return parlour::rules::parse_card(card_seen(h, seat, seat))->rank; };
    if (!(rank(1) == rank(2) && rank(1) < rank(0) && rank(1) != parlour::rules::king)) continue;
    found = true;
    // Deal 2 runs from the new dealer's left: Y (seat 2), Z (seat 0), then the dealer X (seat 1).
    CHECK(h.game().to_act() == std::vector<int>{2});
    while (h.game().phase() == Phase::playing) h.act(h.game().to_act()[0], stand);
    CHECK(h.game().phase() == Phase::game_over);
    CHECK(h.pool("pool") == 0);
    CHECK(h.chips() == std::vector<std::int64_t>{24, 18, 18});
    auto result = h.game().result();
    CHECK(result["winner"] == 0);
    CHECK(result["seats"][0]["outcome"] == "won_pool");
    CHECK(result["seats"][0]["chips"] == 4);
    CHECK(result["seats"][1]["outcome"] == "out");
    CHECK(result["seats"][2]["outcome"] == "out");
    CHECK(h.game().view(std::nullopt)["seats"][1]["status"] == "out");
  }
  CHECK(found);
}

TEST_CASE("a player with no counters drops out and the deal passes to the next player still in") {
  auto h = table(3, {"2C", "8D", "9S"}, {{"counters", 1}});
  h.act(1, stand);
  h.act(2, stand);
  h.act(0, stand);
  CHECK(h.game().phase() == Phase::deal_over);
  CHECK(h.game().view(0)["seats"][1]["status"] == "out");
  h.next_deal();
  CHECK(h.game().view(0)["dealer"] == 2);
  CHECK(h.game().to_act() == std::vector<int>{0});
  CHECK(h.game().view(0)["seats"][1]["in_deal"] == false);
  CHECK(h.game().view(0)["seats"][1]["cards"].empty());
  CHECK(parlour::test::view_pile(h.game().view(0), "stock")["count"] == 50);
}

TEST_CASE("when everyone holds a king nobody loses a counter") {
  auto h = table(2, {"KC", "KD"});
  CHECK(h.game().phase() == Phase::deal_over);  // nobody had a turn
  CHECK(h.pool("pool") == 0);
  CHECK(counters(h, 0) == 3);
  CHECK(counters(h, 1) == 3);
}

TEST_CASE("a showdown that would put out every player loses nobody a counter and is dealt again by the same dealer") {
  auto h = table(2, {"5C", "5D"}, {{"counters", 1}});
  h.act(1, stand);
  h.act(0, stand);
  CHECK(h.game().phase() == Phase::deal_over);
  CHECK(h.game().result()["replayed"] == true);
  CHECK(h.pool("pool") == 0);
  CHECK(counters(h, 0) == 1);
  CHECK(counters(h, 1) == 1);
  h.next_deal();
  CHECK(h.game().view(0)["dealer"] == 0);
  CHECK(h.game().view(0)["deal"] == 2);
}

TEST_CASE("option stake: a counter lost moves that many chips into the pool") {
  auto h = table(2, {"3C", "4C"}, {{"stake", 5}});
  h.act(1, stand);
  h.act(0, stand);
  CHECK(h.pool("pool") == 5);
  CHECK(h.chips() == std::vector<std::int64_t>{20, 15});
}

TEST_CASE("a player whose chips cannot back all his counters sits out the game") {
  Harness h("ranter_go_round", {{"stake", 5}}, {15, 15, 14}, 1, cards({"7C", "8C"}));
  auto view = h.game().view(std::nullopt);
  CHECK(view["seats"][2]["status"] == "sitting_out");
  CHECK(view["seats"][2]["counters"] == 0);
  CHECK(view["seats"][2]["in_deal"] == false);
  CHECK(h.game().to_act() == std::vector<int>{1});
  h.act(1, stand);
  CHECK(h.game().to_act() == std::vector<int>{0});
}

TEST_CASE("with fewer than two players able to back their counters the game is over") {
  Harness h("ranter_go_round", {{"stake", 5}}, {15, 14});
  CHECK(h.game().phase() == Phase::game_over);
}

TEST_CASE("a loser short of a stake pays what he has and the rest is named unpaid") {
  auto h = table(2, {"3C", "4C"}, {{"stake", 5}});
  h.act(1, stand);
  auto fx = h.game().apply(0, stand, {20, 2});  // seat 1's chips fell to 2 meanwhile
  REQUIRE(fx.transfers.size() == 1);
  CHECK(fx.transfers[0].amount == 2);
  CHECK(fx.transfers[0].from.seat == 1);
  CHECK(fx.transfers[0].to.pool == "pool");
  auto unpaid = h.game().result()["unpaid"];
  REQUIRE(unpaid.size() == 1);
  CHECK(unpaid[0] == Json{{"seat", 1},
                          {"to", {{"pool", "pool"}}},
                          {"amount", 3},
                          {"memo", "{seat:1}'s 3♣ is the lowest card shown: a counter into the pool"}});
}

TEST_CASE("refusals: out of turn, the dealer exchanging, a player drawing, unknown and malformed actions") {
  auto h = table(3, {"7C", "8C", "9C"});
  CHECK(h.refusal(0, stand) == "not_your_turn");
  CHECK(h.refusal(2, exchange) == "not_your_turn");
  CHECK(h.refusal(1, draw) == "illegal_action");
  CHECK(h.refusal(1, {{"type", "bet"}, {"amount", 1}}) == "illegal_action");
  CHECK(h.refusal(1, {{"type", "stand"}, {"card", "7C"}}) == "illegal_action");
  CHECK(h.refusal(1, Json::array()) == "illegal_action");
  h.act(1, stand);
  h.act(2, stand);
  CHECK(h.refusal(0, exchange) == "illegal_action");
  h.act(0, stand);
  CHECK(h.refusal(1, stand) == "not_your_turn");  // the deal is over
}

TEST_CASE("all cards are shown at the showdown") {
  auto h = table(3, {"7C", "8C", "9C"});
  h.act(1, stand);
  h.act(2, stand);
  h.act(0, stand);
  CHECK(card_seen(h, 1, std::nullopt) == "7C");
  CHECK(card_seen(h, 2, 1) == "8C");
  CHECK(card_seen(h, 0, 2) == "9C");
}

TEST_CASE("option deals ends the table; closing shares the pool among the players seated last") {
  auto h = table(3, {"2C", "8D", "9S"}, {{"deals", 1}, {"stake", 4}});
  h.act(1, stand);
  h.act(2, stand);
  h.act(0, stand);
  CHECK(h.game().phase() == Phase::game_over);
  CHECK(h.pool("pool") == 4);
  h.close();
  CHECK(h.pool("pool") == 0);
  CHECK(h.chips() == std::vector<std::int64_t>{20 + 1, 16 + 2, 20 + 1});
}

TEST_CASE("a player who leaves drops out; when one player is left he takes the pool") {
  auto h = table(3, {"2C", "8D", "9S"});
  h.act(1, stand);
  h.act(2, stand);
  h.act(0, stand);
  h.next_deal();  // seat 1 deals; seat 2 is to act
  h.leave(2);
  CHECK(h.game().phase() == Phase::playing);
  CHECK(h.game().to_act() == std::vector<int>{0});
  h.leave(1);
  CHECK(h.game().phase() == Phase::game_over);
  CHECK(h.game().result()["winner"] == 0);
  CHECK(h.pool("pool") == 0);
  CHECK(h.chips() == std::vector<std::int64_t>{21, 19, 20});
}

TEST_CASE("a player leaving between deals with one other left: that player takes the pool") {
  auto h = table(2, {"2C", "8D"});
  h.act(1, stand);
  h.act(0, stand);
  REQUIRE(h.pool("pool") == 1);
  h.leave(1);
  CHECK(h.game().phase() == Phase::game_over);
  auto result = h.game().result();
  CHECK(result["winner"] == 0);
  CHECK(result["seats"][0]["chips"] == 1);
  CHECK(result["seats"][1]["chips"] == 0);
  CHECK(h.chips() == std::vector<std::int64_t>{21, 19});
  CHECK(h.pool("pool") == 0);
}

TEST_CASE("player limits: 2 to 30") {
  const auto* info = parlour::rules::Registry::builtin().find("Chase the Ace");
  REQUIRE(info != nullptr);
  CHECK(info->id == "ranter_go_round");
  auto setup = [](int players) {
    return parlour::rules::GameSetup{Json::object(), players, 1, std::nullopt, std::vector<std::int64_t>(players, 10)};
  };
  CHECK_NOTHROW(parlour::rules::Registry::create(*info, setup(30)));
  CHECK_THROWS_AS(parlour::rules::Registry::create(*info, setup(31)), parlour::rules::SetupError);
  CHECK_THROWS_AS(parlour::rules::Registry::create(*info, setup(1)), parlour::rules::SetupError);
}

TEST_CASE("random games: chips conserved, hidden cards hidden, every legal action applies, every game ends") {
  Playout spec;
  spec.game = "ranter_go_round";
  spec.min_games = 250;
  spec.min_deals = 1000;
  spec.max_steps = 5000;
  spec.options_for = [](Rng& rng) {
    return Json{{"stake", rng.between(1, 3)},
                {"counters", rng.between(1, 3)},
                {"king_skip", rng.below(2) == 1},
                {"deals", 60}};
  };
  // Up to eight players, and one game in ten up to thirty.
  spec.players_for = [](const Json&, Rng& rng) {
    return static_cast<int>(rng.between(2, rng.below(10) == 0 ? 30 : 8));
  };
  spec.chips_for = [](int players, Rng& rng) {
    std::vector<std::int64_t> chips;
    for (int i = 0; i < players; ++i) chips.push_back(rng.between(0, 12));
    return chips;
  };
  spec.leave_one_in = 300;
  spec.before_step = [](Harness& h, int, const Json&) { REQUIRE(h.game().to_act().size() == 1); };
  // Cards, in a deal: each seat sees its own card and the kings turned up, no
  // other; the cards held are all different and with the stock make one pack.
  spec.cards_conserved = [](Harness& h) {
    if (h.game().phase() != Phase::playing) return;
    const int players = static_cast<int>(h.chips().size());
    std::set<std::string> seen;
    std::size_t in_deal = 0;
    for (int s = 0; s < players; ++s) {
      const auto view = h.game().view(s);
      for (int other = 0; other < players; ++other) {
        const auto& seat = view["seats"][other];
        if (seat["cards"].empty()) continue;
        if (other == s) {
          in_deal += 1;
          CHECK(seen.insert(seat["cards"][0].get<std::string>()).second);
        } else if (!seat["king"].get<bool>()) {
          CHECK(seat["cards"][0] == "??");
        }
      }
    }
    CHECK(in_deal + parlour::test::view_pile(h.game().view(std::nullopt), "stock")["count"].get<std::size_t>() == 52);
  };
  spec.after_game = [](Harness& h) {
    const auto total = h.total();
    h.close();
    CHECK(h.total() == total);
    CHECK(h.pool("pool") == 0);
  };
  random_playouts(spec);
}

// The cards are shown at the showdown, so a lost counter's memo names the card.
TEST_CASE("ledger memos: each lowest card shown pays a counter into the pool; the last player in takes it") {
  auto h = table(5, {"7C", "KC", "AH", "AD", "2S"});
  h.act(1, stand);
  h.act(3, stand);
  h.act(4, stand);
  const auto fx = h.act(0, stand);
  REQUIRE(fx.transfers.size() == 2);
  CHECK(fx.transfers[0].memo == "{seat:3}'s A♥ is the lowest card shown: a counter into the pool");
  CHECK(fx.transfers[1].memo == "{seat:4}'s A♦ is the lowest card shown: a counter into the pool");

  // Two players and one counter each: the lower card puts the other out of the game.
  auto last = table(2, {"3C", "9S"}, {{"counters", 1}});
  last.act(1, stand);
  const auto end = last.act(0, stand);
  REQUIRE(end.transfers.size() == 2);
  CHECK(end.transfers[0].memo == "{seat:1}'s 3♣ is the lowest card shown: a counter into the pool");
  CHECK(end.transfers[1].memo == "{seat:0}, the last player left in the game, takes the pool of 1");
}

TEST_CASE("snapshot: restored after an exchange, the hidden cards and the stock's next card come back") {
  auto h = table(3, {"AC", "8C", "9C", "5D"});
  h.act(1, exchange);
  auto restored = h.restored(Json::parse(h.game().snapshot().dump()));
  // A snapshot short of any field, or naming a seat or turn the table has not, is refused.
  h.spoilt_snapshots_refused({"dealer", "turn"});
  CHECK(restored->view(2)["seats"][2]["cards"] == Json::array({"AC"}));
  CHECK(restored->view(1)["seats"][1]["cards"] == Json::array({"8C"}));
  const std::vector<std::int64_t> chips = {20, 20, 20};
  restored->apply(2, stand, chips);
  CHECK(restored->view(0)["seats"][0]["cards"] == Json::array({"9C"}));
  restored->apply(0, draw, chips);  // the dealer draws the stock's top card
  CHECK(restored->view(std::nullopt)["seats"][0]["cards"] == Json::array({"5D"}));  // shown at the showdown
}

}  // namespace unity_test_ranter_go_round
