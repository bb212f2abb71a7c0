// Rummy Poker, source 002 "Rummy Poker"; rules/rummy.md §3.9, example E20.
#include <doctest/doctest.h>

#include <map>

#include "rules/registry.h"
#include "rules/rummy/rummy_base.h"
#include "tests/rules/harness.h"
#include "tests/rules/playout.h"
#include "tests/rules/rummy_kit.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_rummy_poker {

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

// The leader (seat 1) holds nine cards 4 to Q in three runs, and `tenth`.
std::vector<std::string> straight_nine(const std::string& tenth) {
  return {"4S", "5S", "6S", "7H", "8H", "9H", "TD", "JD", "QD", tenth};
}
const std::vector<std::vector<std::string>> straight_melds = {{"4S", "5S", "6S"}, {"7H", "8H", "9H"}, {"TD", "JD", "QD"}};

// A hand with one set of kings and seven odd cards counting 54 (the ace is 10).
const std::vector<std::string> counts_54 = {"KS", "KH", "KC", "AH", "3D", "5C", "7S", "9D", "JH", "QC"};
// No meld at all: 79.
const std::vector<std::string> counts_79 = {"4C", "6D", "8S", "TH", "QS", "KD", "AC", "5H", "7D", "9C"};

std::vector<parlour::rules::Card> two_hands(const std::vector<std::string>& leader) {
  return deal_no_upcard({leader, counts_54});
}

}  // namespace

TEST_CASE("rummy poker: two packs and four jokers, ten cards each, no upcard") {
  for (int players : {2, 4, 6}) {
    Harness h("rummy_poker", options(), std::vector<std::int64_t>(players, 100));
    auto view = h.game().view(1);
    CHECK(view["seats"][1]["cards"].size() == 10);
    CHECK(view_pile(view, "discard")["top"].is_null());
    CHECK(view_pile(view, "stock")["count"] == 108 - 10 * players);
    CHECK(view["target"] == 100);
    CHECK(view["scoring"] == "positive");
  }
}

TEST_CASE("E20 rummy poker: nine melded and the tenth 3C shown is accepted; the winner scores the others' counts, "
          "less his 3, plus the straight bonus") {
  Harness h("rummy_poker", options(), {1000, 1000}, 1, two_hands(straight_nine("3C")));
  const auto downs = listed(h.legal(1), "go_down");
  REQUIRE(downs.size() == 1);
  CHECK(downs[0]["shown"] == "3C");
  h.act(1, go_down(straight_melds, "3C"));
  const auto r = h.game().result();
  CHECK(r["winner"] == 1);
  CHECK(r["shown"] == "3C");
  CHECK(r["counts"] == Json::array({54, 3}));
  CHECK(r["bonus"] == 25);  // 4 to Q: one straight in any suits
  CHECK(deal_points(r)[1] == 54 - 3 + 25);
  CHECK(r["scores"] == Json::array({0, 76}));
  CHECK(h.game().phase() == Phase::deal_over);
  CHECK(h.chips() == std::vector<std::int64_t>{1000, 1000});
}

TEST_CASE("rummy poker: a hand whose cheapest arrangement leaves two kings over still goes down showing 3C") {
  // 5C 2C 7C, TH TD 2C and KS KH 2H meld and leave 3C; the arrangement of least
  // card value runs 3C to 7C with both club deuces and leaves KS KH over, which
  // once hid the go-down.
  Harness h("rummy_poker", options(), {1000, 1000}, 1,
            two_hands({"7C", "2C", "5C", "TH", "2C", "2H", "TD", "3C", "KS", "KH"}));
  const auto downs = listed(h.legal(1), "go_down");
  REQUIRE(downs.size() >= 1);
  for (const auto& down : downs) CHECK(down["shown"] == "3C");
  h.act(1, downs[0]);
  const auto r = h.game().result();
  CHECK(r["winner"] == 1);
  CHECK(r["shown"] == "3C");
  CHECK(h.game().phase() == Phase::deal_over);
}

TEST_CASE("E20 rummy poker: the tenth card AD (counts 10) or 2D (wild, 25) may not be kept back") {
  Harness ace("rummy_poker", options(), {1000, 1000}, 1, two_hands(straight_nine("AD")));
  CHECK(ace.refusal(1, go_down(straight_melds, "AD")) == "illegal_action");
  CHECK_THROWS_WITH(ace.act(1, go_down(straight_melds, "AD")), "the card you keep back must count 3 or less; AD counts 10");
  CHECK(listed(ace.legal(1), "go_down").empty());
  Harness deuce("rummy_poker", options(), {1000, 1000}, 1, two_hands(straight_nine("2D")));
  CHECK(deuce.refusal(1, go_down(straight_melds, "2D")) == "illegal_action");
  CHECK_THROWS_WITH(deuce.act(1, go_down(straight_melds, "2D")),
                    "the card you keep back must count 3 or less; 2D counts 25");
  // The deuce is wild: it can go into a meld instead, all ten down.
  deuce.act(1, go_down({{"4S", "5S", "6S"}, {"7H", "8H", "9H"}, {"TD", "JD", "QD", "2D=KD"}}));
  CHECK(deuce.game().result()["rummy"] == true);
  CHECK(deuce.game().result()["bonus"] == 25);  // 4 to K
  CHECK(deal_points(deuce.game().result())[1] == 54 + 25);
}

TEST_CASE("rummy poker: a go_down after drawing is rejected; the turn is a draw then a discard") {
  Harness h("rummy_poker", options(), {1000, 1000}, 1, two_hands(straight_nine("3C")));
  h.act(1, draw());
  CHECK_THROWS_WITH(h.act(1, go_down(straight_melds, "3C")), "go down only at the start of your turn, before you draw");
  CHECK(h.refusal(1, meld({"4S", "5S", "6S"})) == "illegal_action");
  for (const auto& a : h.legal(1)) CHECK(a["type"] == "discard");
}

TEST_CASE("R-RP2 bonuses: a flush (all melded cards one suit) +25") {
  Harness h("rummy_poker", options(), {1000, 1000}, 1,
            two_hands({"3H", "4H", "5H", "7H", "8H", "9H", "TH", "JH", "QH", "KH"}));
  h.act(1, go_down({{"3H", "4H", "5H"}, {"7H", "8H", "9H"}, {"TH", "JH", "QH", "KH"}}));
  CHECK(h.game().result()["bonus"] == 25);
  CHECK(deal_points(h.game().result())[1] == 54 + 25);
}

TEST_CASE("R-RP2 bonuses: a straight flush +50, not more; a wild helps (JK stands for 2S)") {
  Harness h("rummy_poker", options(), {1000, 1000}, 1,
            two_hands({"AS", "JK", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS"}));
  h.act(1, go_down({{"AS", "JK=2S", "3S", "4S"}, {"5S", "6S", "7S", "8S", "9S", "TS"}}));
  CHECK(h.game().result()["bonus"] == 50);
  CHECK(deal_points(h.game().result())[1] == 54 + 50);
  // 104: the first to reach 100 wins and collects the difference from each.
  CHECK(h.game().phase() == Phase::game_over);
  CHECK(h.game().result()["game_winners"] == Json::array({1}));
  CHECK(h.chips() == std::vector<std::int64_t>{1000 - 104, 1000 + 104});
}

TEST_CASE("R-RP2 bonuses: no bonus for sets and mixed suits; the wild counts as the card declared") {
  Harness h("rummy_poker", options(), {1000, 1000}, 1,
            two_hands({"7C", "7C", "7H", "8D", "8D", "8C", "4C", "5C", "2H", "3H"}));
  // Two packs: the same card twice in a set.
  h.act(1, go_down({{"7C", "7C", "7H"}, {"8D", "8D", "8C"}, {"4C", "5C", "2H=6C"}}, "3H"));
  CHECK(h.game().result()["bonus"] == 0);
  CHECK(deal_points(h.game().result())[1] == 54 - 3);
  CHECK(h.game().view(std::nullopt)["melds"][2]["cards"] == Json::array({"4C", "5C", "2H=6C"}));
}

TEST_CASE("R-RP1 positive scoring, three players: the winner scores both counts; first to 100 collects the "
          "differences") {
  auto deck = deal_no_upcard({straight_nine("3C"), counts_54, counts_79});
  Harness h("rummy_poker", options({{"stake", 2}}), {1000, 1000, 1000}, 1, deck);
  totals(h, {40, 0, 10});
  h.act(1, go_down(straight_melds, "3C"));
  const auto r = h.game().result();
  CHECK(r["counts"] == Json::array({79, 3, 54}));
  CHECK(deal_points(r)[1] == 79 + 54 - 3 + 25);
  CHECK(r["scores"] == Json::array({40, 155, 10}));
  CHECK(h.game().phase() == Phase::game_over);
  CHECK(h.chips() == std::vector<std::int64_t>{1000 - 2 * 115, 1000 + 2 * (115 + 145), 1000 - 2 * 145});
}

TEST_CASE("R-RP1 positive scoring: the break scores nothing") {
  Harness h("rummy_poker", options(), {1000, 1000}, 1, two_hands(straight_nine("AD")));
  play_to_break(h);
  CHECK(h.game().phase() == Phase::deal_over);
  CHECK(h.game().result()["end"] == "stock_ran_down");
  CHECK(h.game().result()["scores"] == Json::array({0, 0}));
  CHECK(view_pile(h.game().view(std::nullopt), "stock")["count"] == 2);
}

TEST_CASE("scoring=penalty: Java's scoring with the bonus subtracted; at 100 the lowest total collects the "
          "differences") {
  Harness h("rummy_poker", options({{"scoring", "penalty"}}), {1000, 1000}, 1, two_hands(straight_nine("3C")));
  totals(h, {50, 10});
  h.act(1, go_down(straight_melds, "3C"));
  const auto r = h.game().result();
  CHECK(deal_points(r)[1] == 3 - 25);
  CHECK(deal_points(r)[0] == 54);
  CHECK(r["scores"] == Json::array({104, -12}));
  CHECK(h.game().phase() == Phase::game_over);
  CHECK(h.chips() == std::vector<std::int64_t>{1000 - 116, 1000 + 116});
}

TEST_CASE("scoring=penalty: a ten-card winner subtracts 25 and his bonus; the break adds everyone's count") {
  Harness h("rummy_poker", options({{"scoring", "penalty"}}), {1000, 1000}, 1,
            two_hands({"3H", "4H", "5H", "7H", "8H", "9H", "TH", "JH", "QH", "KH"}));
  h.act(1, go_down({{"3H", "4H", "5H"}, {"7H", "8H", "9H"}, {"TH", "JH", "QH", "KH"}}));
  CHECK(h.game().result()["scores"] == Json::array({54, -50}));
  Harness b("rummy_poker", options({{"scoring", "penalty"}}), {1000, 1000}, 1, two_hands(straight_nine("AD")));
  play_to_break(b);
  CHECK(b.game().result()["scores"] == Json::array({54, 10}));
}

TEST_CASE("option deals: the last deal ends the game; the leader collects the differences") {
  Harness h("rummy_poker", options({{"scoring", "penalty"}, {"deals", 1}}), {1000, 1000}, 1,
            two_hands(straight_nine("AD")));
  play_to_break(h);
  CHECK(h.game().phase() == Phase::game_over);
  CHECK(h.game().result()["game_winners"] == Json::array({1}));
  CHECK(h.chips() == std::vector<std::int64_t>{1000 - 44, 1000 + 44});
  Harness tied("rummy_poker", options({{"deals", 1}}), {1000, 1000}, 1, two_hands(straight_nine("AD")));
  play_to_break(tied);  // positive scoring: nobody scored, nobody pays
  CHECK(tied.game().phase() == Phase::game_over);
  CHECK(tied.chips() == std::vector<std::int64_t>{1000, 1000});
}

TEST_CASE("rummy poker: close settles nothing; a player leaving abandons the deal") {
  Harness h("rummy_poker", options(), {1000, 1000, 1000}, 1);
  totals(h, {50, 90, 0});
  h.close();
  CHECK(h.game().phase() == Phase::game_over);
  CHECK(h.chips() == std::vector<std::int64_t>{1000, 1000, 1000});
  Harness l("rummy_poker", options(), {1000, 1000, 1000}, 1);
  l.leave(2);
  CHECK(l.game().phase() == Phase::deal_over);
  CHECK(l.game().result()["end"] == "abandoned");
  l.next_deal();
  CHECK(l.game().view(std::nullopt)["seats"][2]["count"] == 0);
}

TEST_CASE("rummy poker: hidden information") {
  Harness h("rummy_poker", options(), {1000, 1000}, 1, two_hands(straight_nine("3C")));
  const auto theirs = h.game().view(0);
  const auto none = h.game().view(std::nullopt);
  CHECK(h.game().view(1)["seats"][1]["cards"].size() == 10);
  for (const auto& c : theirs["seats"][1]["cards"]) CHECK(c == "??");
  for (const auto& c : none["seats"][0]["cards"]) CHECK(c == "??");
  CHECK(theirs.dump().find("TD") == std::string::npos);
  CHECK(none.dump().find("QC") == std::string::npos);
  CHECK(h.refusal(0, draw()) == "not_your_turn");
}

TEST_CASE("rummy poker: options: scoring positive|penalty, stake, deals; two to six players") {
  const auto* info = Registry::builtin().find("rummy_poker");
  REQUIRE(info != nullptr);
  const auto o = Registry::validate_options(*info, Json::object());
  CHECK(o["scoring"] == "positive");
  CHECK(o["deals"] == 0);
  CHECK_THROWS_AS(Registry::validate_options(*info, {{"scoring", "negative"}}), SetupError);
  CHECK_THROWS_AS(Registry::validate_options(*info, {{"jokers", 2}}), SetupError);
  CHECK_THROWS_AS(Registry::validate_options(*info, {{"stake", 0}}), SetupError);
  CHECK_THROWS_AS(Harness("rummy_poker", options(), std::vector<std::int64_t>(7, 100)), SetupError);
}

TEST_CASE("rummy poker: random games, 1,000+ deals of positive scoring and 300+ of penalty scoring") {
  for (const char* scoring : {"positive", "penalty"}) {
    Playout spec;
    spec.game = "rummy_poker";
    spec.options = options({{"scoring", scoring}});
    spec.players_lo = 2;
    spec.players_hi = 6;
    spec.min_deals = std::string(scoring) == "positive" ? 1000 : 300;
    spec.seed_base = std::string(scoring) == "positive" ? 0 : 7000;
    spec.pack_size = [](int) { return std::size_t{108}; };
    std::map<std::string, int> ends;
    spec.after_game = [&](Harness& h) { ++ends[h.game().result()["end"].get<std::string>()]; };
    random_playouts(spec);
    CHECK(ends["stock_ran_down"] + ends["went_out"] > 0);
  }
}

TEST_CASE("legal lists each go-down's wild declarations that score differently: JK as 9H makes the flush") {
  // 9H 9H JK 3H 4H 5H 6H JH QH KH: the set of nines may take the joker as any nine; only 9H makes all ten hearts.
  auto deck = deal_no_upcard({{"9H", "9H", "JK", "3H", "4H", "5H", "6H", "JH", "QH", "KH"},
                              {"2S", "4S", "6S", "8S", "TS", "QS", "AD", "3D", "5D", "7D"}});
  Harness h("rummy_poker", options(), {1000, 1000}, 1, deck);
  const auto go_downs = listed(h.legal(1), "go_down");
  bool flush_listed = false;
  bool plain_listed = false;
  for (const auto& a : go_downs) {
    const auto text = a.dump();
    if (text.find("\"JK=9H\"") != std::string::npos) flush_listed = true;
    else if (text.find("\"JK=9") != std::string::npos) plain_listed = true;
  }
  CHECK(flush_listed);
  CHECK(plain_listed);
  for (const auto& a : go_downs)
    if (a.dump().find("\"JK=9H\"") != std::string::npos) {
      h.act(1, a);
      CHECK(h.game().result()["bonus"] == 25);
      break;
    }
}

}  // namespace unity_test_rummy_poker
