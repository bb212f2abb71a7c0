// Java Rummy (Elimination, Freeze Out), source 002 "Java Rummy"; rules/rummy.md §3.8, example E20.
#include <doctest/doctest.h>

#include <map>

#include "rules/registry.h"
#include "rules/rummy/rummy_base.h"
#include "tests/rules/harness.h"
#include "tests/rules/playout.h"
#include "tests/rules/rummy_kit.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_java_rummy {

using parlour::rules::Json;
using parlour::rules::Phase;
using parlour::rules::Registry;
using parlour::rules::SetupError;
using parlour::test::Harness;
using parlour::test::Playout;
using parlour::test::random_playouts;
using parlour::test::view_pile;
using namespace parlour::test::rummy_kit;

namespace {

// E20: A (seat 1, the leader) holds two melds and 4D; B (seat 2) counts 9; C (seat 0, the dealer) counts 12.
std::vector<parlour::rules::Card> e20_deck() {
  return deal_no_upcard({{"5S", "6S", "7S", "9H", "9C", "9D", "4D"},
                         {"KC", "KD", "KH", "3C", "4C", "5C", "9S"},
                         {"QS", "QH", "QC", "QD", "AH", "3S", "8C"}});
}

const Json e20_go_down = go_down({{"5S", "6S", "7S"}, {"9H", "9C", "9D"}}, "4D");

// Two players who only draw and discard until the stock falls to two: seat 1
// counts 24 (KC KD 2D as a set of kings, 3C 4C 9S 8H left), seat 0 counts 45.
std::vector<parlour::rules::Card> break_deck_two() {
  return deal_no_upcard({{"KC", "KD", "2D", "3C", "4C", "9S", "8H"}, {"AS", "3H", "5D", "7C", "9D", "JH", "QS"}});
}

}  // namespace

TEST_CASE("java: seven cards each, no upcard; the leader draws the stock top or goes down") {
  for (int players : {2, 4, 6}) {
    Harness h("java_rummy", options(), std::vector<std::int64_t>(players, 100));
    auto view = h.game().view(1);
    CHECK(view["seats"][1]["cards"].size() == 7);
    CHECK(view_pile(view, "discard")["top"].is_null());
    CHECK(view_pile(view, "stock")["count"] == 52 - 7 * players);
    CHECK(view["pools"]["pool"] == 0);
    CHECK(view["target"] == 100);
  }
  Harness jokers("java_rummy", options({{"jokers", 2}}), {100, 100, 100});
  CHECK(view_pile(jokers.game().view(std::nullopt), "stock")["count"] == 54 - 21);
  Harness h("java_rummy", options(), {100, 100, 100}, 1, e20_deck());
  CHECK(has_action(h.legal(1), draw()));
  CHECK(!has_action(h.legal(1), draw("discard")));
}

TEST_CASE("java: a hand whose cheapest arrangement leaves wilds and court cards over still goes down showing 4C") {
  // Melding AS AD 2S and KD JD 2H leaves 4C; the arrangement of least card value
  // leaves AS AD KD JD over (the deuces stand for the 4C's run), which once hid it.
  Harness h("java_rummy", options(), {100, 100, 100}, 1,
            deal_no_upcard({{"AS", "2S", "KD", "2H", "AD", "4C", "JD"},
                            {"KC", "KH", "3C", "5C", "6H", "9S", "8H"},
                            {"QS", "QH", "QC", "3S", "7H", "3H", "8C"}}));
  const auto downs = listed(h.legal(1), "go_down");
  REQUIRE(downs.size() >= 1);
  for (const auto& down : downs) CHECK(down["shown"] == "4C");
  h.act(1, downs[0]);
  const auto r = h.game().result();
  CHECK(r["winner"] == 1);
  CHECK(r["shown"] == "4C");
  CHECK(r["counts"][1] == 4);
  CHECK(h.game().phase() == Phase::deal_over);
}

TEST_CASE("E20: A goes down before drawing with six cards, showing 4D: A 30 → 34, B 96 + 9 → 105 is eliminated "
          "and pays a chip into the pool, C 10 + 12 → 22") {
  Harness h("java_rummy", options(), {100, 100, 100}, 1, e20_deck());
  totals(h, {10, 30, 96});
  h.act(1, e20_go_down);
  CHECK(h.game().phase() == Phase::deal_over);
  const auto r = h.game().result();
  CHECK(r["end"] == "went_out");
  CHECK(r["winner"] == 1);
  CHECK(r["rummy"] == false);
  CHECK(r["shown"] == "4D");
  CHECK(r["counts"] == Json::array({12, 4, 9}));
  CHECK(deal_points(r)[1] == 4);
  CHECK(deal_points(r)[2] == 9);
  CHECK(deal_points(r)[0] == 12);
  CHECK(r["scores"] == Json::array({22, 34, 105}));
  CHECK(r["eliminated"] == Json::array({2}));
  CHECK(r["pool"] == 1);
  CHECK(h.chips() == std::vector<std::int64_t>{100, 100, 99});
  CHECK(h.pool("pool") == 1);
  CHECK(h.game().view(std::nullopt)["eliminated"] == Json::array({false, false, true}));
  CHECK(h.game().view(std::nullopt)["melds"].size() == 2);
}

TEST_CASE("E20: next deal C goes down with all seven cards: 22 − 25 = −3 (a wild declared)") {
  // C leads (seat 1) at 22, A (seat 0) at 34; C's 2C stands for the jack of clubs.
  auto deck = deal_no_upcard({{"3H", "4H", "5H", "6H", "JS", "JD", "2C"}, {"AS", "3S", "5D", "7C", "9D", "KH", "QS"}});
  Harness h("java_rummy", options(), {100, 100}, 1, deck);
  totals(h, {34, 22});
  h.act(1, go_down({{"3H", "4H", "5H", "6H"}, {"JS", "JD", "2C=JC"}}));
  const auto r = h.game().result();
  CHECK(r["rummy"] == true);
  CHECK(deal_points(r)[1] == -25);
  CHECK(deal_points(r)[0] == 1 + 3 + 5 + 7 + 9 + 10 + 10);
  CHECK(r["scores"] == Json::array({34 + 45, -3}));
  CHECK(h.game().view(std::nullopt)["melds"][1]["cards"] == Json::array({"JS", "JD", "2C=JC"}));
  CHECK(h.chips() == std::vector<std::int64_t>{100, 100});
}

TEST_CASE("E20: a go_down after drawing is rejected; a six-card go-down showing 6S is rejected") {
  Harness h("java_rummy", options(), {100, 100, 100}, 1, e20_deck());
  h.act(1, draw());
  CHECK(h.refusal(1, e20_go_down) == "illegal_action");
  CHECK_THROWS_WITH(h.act(1, e20_go_down), "go down only at the start of your turn, before you draw");
  CHECK(listed(h.legal(1), "go_down").empty());

  auto deck = deal_no_upcard({{"9H", "9C", "9D", "JS", "QS", "KS", "6S"},
                              {"KC", "KD", "KH", "3C", "4C", "5C", "9S"},
                              {"QH", "QC", "QD", "AH", "3S", "8C", "TD"}});
  Harness six("java_rummy", options(), {100, 100, 100}, 1, deck);
  const Json showing_six = go_down({{"JS", "QS", "KS"}, {"9H", "9C", "9D"}}, "6S");
  CHECK(six.refusal(1, showing_six) == "illegal_action");
  CHECK_THROWS_WITH(six.act(1, showing_six), "the card you keep back must count 5 or less; 6S counts 6");
  CHECK(listed(six.legal(1), "go_down").empty());
  CHECK(six.game().phase() == Phase::playing);
}

TEST_CASE("java: every card but the shown one must be melded; the shown card must be named and held") {
  Harness h("java_rummy", options(), {100, 100, 100}, 1, e20_deck());
  CHECK(h.refusal(1, go_down({{"5S", "6S", "7S"}, {"9H", "9C", "9D"}})) == "illegal_action");        // 4D left over
  CHECK(h.refusal(1, go_down({{"5S", "6S", "7S"}}, "4D")) == "illegal_action");                       // nines left over
  CHECK(h.refusal(1, go_down({{"5S", "6S", "7S"}, {"9H", "9C", "9D"}}, "AS")) == "illegal_action");  // not held
  CHECK(h.refusal(1, go_down({{"5S", "6S", "7S", "4D"}, {"9H", "9C", "9D"}})) == "illegal_action");  // not a meld
  CHECK(h.refusal(1, go_down({{"5S", "6S", "7S"}, {"9H", "9C", "9D", "9D"}}, "4D")) == "illegal_action");
  CHECK(h.refusal(2, e20_go_down) == "not_your_turn");
  CHECK(h.refusal(1, {{"type", "go_down"}, {"melds", {{"5S", "6S", "7S"}}}, {"discard", "4D"}}) == "illegal_action");
}

TEST_CASE("go_down belongs to Java and Rummy Poker only: other games refuse it") {
  Harness h("straight_rummy", options(), {100, 100, 100}, 1, e20_deck());
  CHECK_THROWS_WITH(h.act(1, e20_go_down), "there is no going down in this game");
  for (const auto& a : h.legal(1)) CHECK(a["type"] != "go_down");
}

TEST_CASE("java: no melding after the draw, no installments: the turn is a draw then a discard") {
  Harness h("java_rummy", options(), {100, 100, 100}, 1, e20_deck());
  h.act(1, draw());
  CHECK(h.refusal(1, meld({"5S", "6S", "7S"})) == "illegal_action");
  CHECK(h.refusal(1, go_rummy({{"5S", "6S", "7S"}, {"9H", "9C", "9D"}}, "4D")) == "illegal_action");
  for (const auto& a : h.legal(1)) CHECK(a["type"] == "discard");
  CHECK(h.legal(1).size() == 8);
  h.act(1, discard("4D"));
  CHECK(h.game().to_act() == std::vector<int>{2});
  CHECK(has_action(h.legal(2), draw("discard")));
}

TEST_CASE("java: legal lists one go-down per card that may be shown, and the whole hand, before the draw") {
  // 3S 4S 5S 6S and three sevens: rummy with all seven, or 3S shown (6S counts 6: not showable).
  auto deck = deal_no_upcard({{"3S", "4S", "5S", "6S", "7H", "7D", "7C"}, {"AS", "3H", "5D", "7S", "9D", "KH", "QS"}});
  Harness h("java_rummy", options(), {100, 100}, 1, deck);
  const auto downs = listed(h.legal(1), "go_down");
  REQUIRE(downs.size() == 2);
  CHECK(!downs[0].contains("shown"));
  CHECK(downs[1]["shown"] == "3S");
  for (const auto& a : downs) {
    Harness replay("java_rummy", options(), {100, 100}, 1, deck);
    CHECK_NOTHROW(replay.act(1, a));
    CHECK(deal_points(replay.game().result())[1] == (a.contains("shown") ? 3 : -25));
  }
}

TEST_CASE("java: deuces and jokers are wild, standing for declared cards; a wild counts 25 and cannot be shown") {
  auto deck = deal_no_upcard({{"5H", "6H", "2C", "JK", "8D", "8S", "8C"}, {"KC", "3H", "5D", "7C", "9D", "KH", "QS"}});
  Harness h("java_rummy", options({{"jokers", 1}}), {100, 100}, 1, deck);
  CHECK_THROWS_WITH(h.act(1, go_down({{"5H", "6H", "2C=7S", "JK=8H"}, {"8D", "8S", "8C"}})),
                    doctest::Contains("bad_wild_declaration"));
  CHECK(h.refusal(1, go_down({{"5H", "6H", "2C=7H", "JK"}, {"8D", "8S", "8C"}})) == "illegal_action");
  CHECK_THROWS_WITH(h.act(1, go_down({{"5H", "6H", "JK=7H"}, {"8D", "8S", "8C"}}, "2C")),
                    "the card you keep back must count 5 or less; 2C counts 25");
  CHECK(h.refusal(1, go_down({{"5H", "6H", "2C"}, {"8D", "8S", "8C"}}, "JK")) == "illegal_action");
  h.act(1, go_down({{"5H", "6H", "2C=7H", "JK=8H"}, {"8D", "8S", "8C"}}));
  CHECK(h.game().view(std::nullopt)["melds"][0]["cards"] == Json::array({"5H", "6H", "2C=7H", "JK=8H"}));
  CHECK(deal_points(h.game().result())[1] == -25);
  CHECK(h.game().result()["counts"][0] == 10 + 3 + 5 + 7 + 9 + 10 + 10);
}

TEST_CASE("java: a loser's count is his best arrangement with wilds used (2D makes a set of kings)") {
  auto deck = deal_no_upcard({{"3S", "4S", "5S", "6S", "7H", "7D", "7C"}, {"KC", "KD", "2D", "3C", "4C", "9S", "8H"}});
  Harness r("java_rummy", options(), {100, 100}, 1, deck);
  r.act(1, go_down({{"3S", "4S", "5S", "6S"}, {"7H", "7D", "7C"}}));
  CHECK(r.game().result()["counts"][0] == 3 + 4 + 9 + 8);
  CHECK(r.game().result()["scores"] == Json::array({24, -25}));
}

TEST_CASE("R-J1 the break: when the stock falls to the number of players the deal ends; all add their counts, "
          "no −25") {
  Harness h("java_rummy", options(), {100, 100}, 1, break_deck_two());
  play_to_break(h);
  CHECK(h.game().phase() == Phase::deal_over);
  const auto r = h.game().result();
  CHECK(r["end"] == "stock_ran_down");
  CHECK(!r.contains("winner"));
  CHECK(r["scores"] == Json::array({45, 24}));
  CHECK(r["eliminated"].empty());
  CHECK(h.chips() == std::vector<std::int64_t>{100, 100});
  CHECK(view_pile(h.game().view(std::nullopt), "stock")["count"] == 2);
}

TEST_CASE("elimination: the last player left in takes the pool") {
  Harness h("java_rummy", options({{"stake", 5}}), {100, 100}, 1, break_deck_two());
  totals(h, {60, 0});
  play_to_break(h);
  CHECK(h.game().phase() == Phase::game_over);
  const auto r = h.game().result();
  CHECK(r["scores"] == Json::array({105, 24}));
  CHECK(r["eliminated"] == Json::array({0}));
  CHECK(r["pool_winners"] == Json::array({1}));
  CHECK(r["pool"] == 0);
  CHECK(r["seats"][0]["chips"] == -5);
  CHECK(r["seats"][1]["chips"] == 5);
  CHECK(h.chips() == std::vector<std::int64_t>{95, 105});
  CHECK(h.pool("pool") == 0);
}

TEST_CASE("elimination: all remaining reach 100 in one deal: the lowest total wins the pool and pays nothing") {
  Harness h("java_rummy", options({{"stake", 5}}), {100, 100}, 1, break_deck_two());
  totals(h, {60, 80});
  play_to_break(h);
  CHECK(h.game().phase() == Phase::game_over);
  CHECK(h.game().result()["scores"] == Json::array({105, 104}));
  CHECK(h.game().result()["pool_winners"] == Json::array({1}));
  CHECK(h.chips() == std::vector<std::int64_t>{95, 105});
}

TEST_CASE("elimination: ties for the lowest total share the pool, odd chips from the dealer's left (R-G4)") {
  auto deck = deal_no_upcard({{"KC", "KD", "2D", "3C", "4C", "9S", "8H"},
                              {"AS", "3H", "5D", "7C", "9D", "JH", "QS"},
                              {"4S", "6H", "8D", "TC", "QH", "KS", "AC"}});
  Harness h("java_rummy", options({{"stake", 3}}), {100, 100, 100}, 1, deck);
  totals(h, {60, 81, 60});
  play_to_break(h);
  const auto r = h.game().result();
  CHECK(r["counts"] == Json::array({49, 24, 45}));
  CHECK(r["scores"] == Json::array({109, 105, 105}));
  CHECK(r["eliminated"] == Json::array({0}));
  CHECK(r["pool_winners"] == Json::array({1, 2}));
  CHECK(h.chips() == std::vector<std::int64_t>{97, 102, 101});
  CHECK(h.game().phase() == Phase::game_over);
}

TEST_CASE("elimination: a player with no chips pays what he has; the rest is named unpaid") {
  Harness h("java_rummy", options(), {100, 100, 0}, 1, e20_deck());
  totals(h, {10, 30, 96});
  h.act(1, e20_go_down);
  const auto r = h.game().result();
  CHECK(r["eliminated"] == Json::array({2}));
  CHECK(r["unpaid"] == Json::array({{{"seat", 2},
                                     {"to", {{"pool", "pool"}}},
                                     {"amount", 1},
                                     {"memo", "{seat:2} reached 105 of 100 points and is eliminated: his stake into the pool"}}}));
  CHECK(h.pool("pool") == 0);
  CHECK(h.chips() == std::vector<std::int64_t>{100, 100, 0});
}

TEST_CASE("elimination: the eliminated player is not dealt in and is skipped; the deal passes left among the rest") {
  Harness h("java_rummy", options(), {100, 100, 100}, 1, e20_deck());
  totals(h, {10, 30, 96});
  h.act(1, e20_go_down);
  h.next_deal();  // seat 1 deals; seat 2 is out, so seat 0 leads
  auto view = h.game().view(std::nullopt);
  CHECK(view["dealer"] == 1);
  CHECK(view["seats"][2]["count"] == 0);
  CHECK(view_pile(view, "stock")["count"] == 52 - 14);
  CHECK(h.game().to_act() == std::vector<int>{0});
  CHECK(h.refusal(2, draw()) == "not_your_turn");
  h.act(0, draw());
  h.act(0, discard(last_card(h, 0)));
  CHECK(h.game().to_act() == std::vector<int>{1});
  h.act(1, draw());
  h.act(1, discard(last_card(h, 1)));
  CHECK(h.game().to_act() == std::vector<int>{0});
  play_to_break(h);  // the deal ends when the stock falls to the two players still in
  CHECK(view_pile(h.game().view(std::nullopt), "stock")["count"] == 2);
  REQUIRE(h.game().phase() == Phase::deal_over);
  h.next_deal();  // the deal passes from seat 1 past seat 2 to seat 0
  CHECK(h.game().view(std::nullopt)["dealer"] == 0);
  CHECK(h.game().to_act() == std::vector<int>{1});
  CHECK(h.game().view(std::nullopt)["seats"][2]["count"] == 0);
}

TEST_CASE("option deals: after the last deal the lowest total still in takes the pool") {
  Harness h("java_rummy", options({{"deals", 1}}), {100, 100, 100}, 1, e20_deck());
  totals(h, {10, 30, 96});
  h.act(1, e20_go_down);
  CHECK(h.game().phase() == Phase::game_over);
  CHECK(h.game().result()["pool_winners"] == Json::array({0}));
  CHECK(h.chips() == std::vector<std::int64_t>{101, 100, 99});
}

TEST_CASE("close by the host: the pool is shared among the players still seated, from the dealer's left") {
  Harness h("java_rummy", options({{"stake", 4}}), {100, 100, 100}, 1, e20_deck());
  totals(h, {10, 30, 96});
  h.act(1, e20_go_down);
  CHECK(h.pool("pool") == 4);
  h.close();
  CHECK(h.pool("pool") == 0);
  CHECK(h.chips() == std::vector<std::int64_t>{101, 102, 97});  // seats 1, 2, 0: 2, 1, 1 (seat 2 is still seated)
  CHECK(h.game().phase() == Phase::game_over);
}

TEST_CASE("a player who leaves: the deal is abandoned; if one player is left in, he takes the pool") {
  Harness h("java_rummy", options({{"stake", 4}}), {100, 100, 100}, 1, e20_deck());
  totals(h, {10, 30, 96});
  h.act(1, e20_go_down);
  h.next_deal();
  h.act(0, draw());
  h.leave(1);
  CHECK(h.game().phase() == Phase::game_over);
  CHECK(h.pool("pool") == 0);
  CHECK(h.chips() == std::vector<std::int64_t>{104, 100, 96});
}

TEST_CASE("snapshot: restored mid-deal, the pool comes back and goes to the last player left in") {
  Harness h("java_rummy", options({{"stake", 4}}), {100, 100, 100}, 1, e20_deck());
  totals(h, {10, 30, 96});
  h.act(1, e20_go_down);
  h.next_deal();
  h.act(0, draw());
  const auto game = from_snapshot(h);
  CHECK(sorted_hand(*game, 0) == sorted_hand(h.game(), 0));
  const auto fx = game->seat_left(1, h.chips());
  CHECK(game->phase() == Phase::game_over);
  REQUIRE(fx.transfers.size() == 1);
  CHECK(fx.transfers[0].to.seat == 0);
  CHECK(fx.transfers[0].amount == 4);
  // The finished game's snapshot comes back whole too (the game is over).
  h.leave(1);
  parlour::rules::Rng rng(1);
  parlour::test::snapshot_round_trips(h, rng);
  CHECK(from_snapshot(h)->snapshot() == h.game().snapshot());
}

TEST_CASE("java: an eliminated player leaving does not stop the deal") {
  Harness h("java_rummy", options(), {100, 100, 100}, 1, e20_deck());
  totals(h, {10, 30, 96});
  h.act(1, e20_go_down);
  h.next_deal();
  h.leave(2);
  CHECK(h.game().phase() == Phase::playing);
  CHECK(h.game().to_act() == std::vector<int>{0});
}

TEST_CASE("java: hidden information: hands and the stock order are private") {
  Harness h("java_rummy", options(), {100, 100, 100}, 1, e20_deck());
  const auto mine = h.game().view(1);
  const auto theirs = h.game().view(2);
  const auto none = h.game().view(std::nullopt);
  CHECK(mine["seats"][1]["cards"] == Json::array({"5S", "6S", "7S", "9H", "9C", "9D", "4D"}));
  for (const auto& c : theirs["seats"][1]["cards"]) CHECK(c == "??");
  for (int s = 0; s < 3; ++s)
    for (const auto& c : none["seats"][s]["cards"]) CHECK(c == "??");
  CHECK(theirs["seats"][1]["count"] == 7);
  CHECK(view_pile(none, "stock")["count"].is_number());
  CHECK(none.dump().find("4D") == std::string::npos);
  CHECK(theirs.dump().find("9H") == std::string::npos);
}

TEST_CASE("java: options: jokers 0–2, stake, deals; two to six players") {
  const auto* info = Registry::builtin().find("java_rummy");
  REQUIRE(info != nullptr);
  CHECK(Registry::builtin().find("Freeze Out") == info);
  const auto o = Registry::validate_options(*info, Json::object());
  CHECK(o["jokers"] == 0);
  CHECK(o["stake"] == 1);
  CHECK(o["deals"] == 0);
  CHECK_THROWS_AS(Registry::validate_options(*info, {{"jokers", 3}}), SetupError);
  CHECK_THROWS_AS(Registry::validate_options(*info, {{"deals", 201}}), SetupError);
  CHECK_THROWS_AS(Registry::validate_options(*info, {{"scoring", "penalty"}}), SetupError);
  CHECK_THROWS_AS(Harness("java_rummy", options(), std::vector<std::int64_t>(7, 100)), SetupError);
  CHECK_THROWS_AS(Harness("java_rummy", options(), std::vector<std::int64_t>(1, 100)), SetupError);
}

TEST_CASE("java: random games, 1,000+ deals: cards and chips conserved, every game ends") {
  Playout spec;
  spec.game = "java_rummy";
  spec.players_lo = 2;
  spec.players_hi = 6;
  std::map<std::string, int> ends;
  spec.after_game = [&](Harness& h) {
    CHECK(h.pool("pool") == 0);
    CHECK(h.game().result().contains("pool_winners"));
    ++ends[h.game().result()["end"].get<std::string>()];
  };
  random_playouts(spec);
  CHECK(ends["stock_ran_down"] > 0);
}

TEST_CASE("java: random games with two jokers and a stake of 3") {
  Playout spec;
  spec.game = "java_rummy";
  spec.options = options({{"jokers", 2}, {"stake", 3}});
  spec.players_lo = 2;
  spec.players_hi = 6;
  spec.seed_base = 5000;
  spec.pack_size = [](int) { return std::size_t{54}; };
  spec.after_game = [](Harness& h) { CHECK(h.pool("pool") == 0); };
  random_playouts(spec);
}

}  // namespace unity_test_java_rummy
