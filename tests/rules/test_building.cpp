// The building games' shared mechanics (rules/building): placement predicates,
// the player's reserve, spots and moves, the priority filter, own packs and the
// layout shift search.
#include <doctest/doctest.h>

#include <set>
#include <stdexcept>

#include "rules/building/moves.h"
#include "rules/building/packs.h"
#include "rules/building/piles.h"
#include "rules/building/shifts.h"
#include "rules/registry.h"
#include "rules/snapshot.h"
#include "tests/rules/harness.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_building {

using namespace parlour::rules;
using namespace parlour::rules::building;
using parlour::test::cards;

namespace {

Card c(const std::string& name) { return cards({name}).front(); }
Pile pile(const std::vector<std::string>& names, int owner = 0) { return owned_by(owner, cards(names)); }

}  // namespace

TEST_CASE("building: a foundation starts with an ace and goes up in suit") {
  CHECK(builds_up_in_suit(c("AS"), {}));
  CHECK_FALSE(builds_up_in_suit(c("2S"), {}));
  CHECK(builds_up_in_suit(c("2S"), pile({"AS"})));
  CHECK_FALSE(builds_up_in_suit(c("2H"), pile({"AS"})));
  CHECK_FALSE(builds_up_in_suit(c("3S"), pile({"AS"})));
  CHECK_FALSE(builds_up_in_suit(c("AS"), pile({"AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS"})));
}

TEST_CASE("building: a centre pile goes up by rank in any suit, round the corner, to its full size") {
  CHECK(builds_up_by_rank(c("TH"), pile({"9S"}), 13));
  CHECK_FALSE(builds_up_by_rank(c("JH"), pile({"9S"}), 13));
  CHECK(builds_up_by_rank(c("AD"), pile({"QS", "KC"}), 13));
  CHECK(builds_up_by_rank(c("2D"), pile({"KC", "AH"}), 13));
  CHECK_FALSE(builds_up_by_rank(c("5D"), {}, 13));
  CHECK_FALSE(builds_up_by_rank(c("3D"), pile({"AS", "2S"}), 2));
  CHECK(next_rank_wrapping(king) == ace);
  CHECK(next_rank_wrapping(ace) == 2);
}

TEST_CASE("building: a tableau goes down in alternating colour and a vacancy takes any card") {
  CHECK(builds_down_alternating(c("5H"), {}));
  CHECK(builds_down_alternating(c("QH"), pile({"KC"})));
  CHECK(builds_down_alternating(c("JC"), pile({"KC", "QH"})));
  CHECK_FALSE(builds_down_alternating(c("5H"), pile({"6D"})));
  CHECK_FALSE(builds_down_alternating(c("QS"), pile({"KC"})));
  CHECK_FALSE(builds_down_alternating(c("JH"), pile({"KC"})));
}

TEST_CASE("building: loading is the same suit one rank up or down, never round the corner, never on nothing") {
  CHECK(loads_in_suit(c("7C"), pile({"8C"})));
  CHECK(loads_in_suit(c("9C"), pile({"8C"})));
  CHECK_FALSE(loads_in_suit(c("7S"), pile({"8C"})));
  CHECK_FALSE(loads_in_suit(c("8C"), pile({"8C"})));
  CHECK_FALSE(loads_in_suit(c("AC"), pile({"KC"})));
  CHECK_FALSE(loads_in_suit(c("KC"), pile({"AC"})));
  CHECK_FALSE(loads_in_suit(c("7C"), {}));
}

TEST_CASE("building: the stock top is taken only face up and the next card then lies face down") {
  Reserve r;
  r.set_stock(pile({"2C", "9D"}), 0);
  CHECK_FALSE(r.stock_top());
  r.turn_up_stock();
  CHECK(r.stock_top() == c("9D"));
  CHECK(r.take_stock_top().card == c("9D"));
  CHECK_FALSE(r.stock_top());
  CHECK(r.cards_left() == 1);
}

TEST_CASE("building: cards loaded on a stock lie face up, and each is face up again when the one above is played") {
  Reserve r;
  r.set_stock(pile({"2C", "8C"}), 0);
  CHECK_THROWS(r.load_stock({c("7C"), 1}));  // never on a face-down top
  r.turn_up_stock();
  r.load_stock({c("7C"), 1});
  r.load_stock({c("6C"), 0});
  CHECK(r.stock_face_up() == 3);
  CHECK(r.stock_shown() == Pile{{c("8C"), 0}, {c("7C"), 1}, {c("6C"), 0}});
  CHECK(r.take_stock_top().card == c("6C"));
  CHECK(r.stock_top() == c("7C"));
  CHECK(r.take_stock_top().card == c("7C"));
  CHECK(r.stock_top() == c("8C"));
  CHECK(r.take_stock_top().card == c("8C"));
  CHECK_FALSE(r.stock_top());  // the card dealt beneath was never turned up
  CHECK(r.stock_shown().empty());
  CHECK_THROWS_AS(r.set_stock(pile({"2C"}), 2), std::invalid_argument);
}

TEST_CASE("building: a spent hand is replaced by the discard pile turned over, the first discard on top") {
  Reserve r;
  r.discards.resize(1);
  r.hand = pile({"KS"});
  CHECK_FALSE(r.turn_hand());
  CHECK(r.turned->card == c("KS"));
  r.discards[0] = pile({"2C", "3D", "4H"});  // 2C was discarded first
  r.turned.reset();
  CHECK(r.turn_hand());
  CHECK(r.turned->card == c("2C"));
  CHECK(r.hand == pile({"4H", "3D"}));
  CHECK(r.discards[0].empty());
  CHECK(r.cards_left() == 3);
}

TEST_CASE("building: a reserve restored from its snapshot has the same stock, face-up run, hand, turned card, discards") {
  Reserve r;
  r.discards.resize(2);
  r.set_stock(pile({"2C", "8C"}), 0);
  r.turn_up_stock();
  r.load_stock({c("7C"), 1});
  r.hand = pile({"KS", "3D"});
  r.turned = OwnedCard{c("QH"), 1};
  r.discards[1] = pile({"5S", "6H"}, 1);
  Reserve restored;
  restored.discards.resize(2);
  restored.restore(Json::parse(r.snapshot().dump()), 2);
  CHECK(restored.stock() == r.stock());
  CHECK(restored.stock_face_up() == 2);
  CHECK(restored.hand == r.hand);
  CHECK(restored.turned == r.turned);
  CHECK(restored.discards == r.discards);
  CHECK(restored.snapshot() == r.snapshot());
  // The loaded card comes off and leaves the 8 face up, as on the reserve it was taken of.
  CHECK(restored.take_stock_top() == OwnedCard{c("7C"), 1});
  CHECK(restored.stock_top() == c("8C"));
}

TEST_CASE("building: a pile or reserve snapshot that does not fit is refused with a message") {
  const Pile cards = pile({"AS", "2S"}, 1);
  CHECK(pile_from(pile_json(cards), 2) == cards);
  CHECK_THROWS_AS(pile_from(pile_json(cards), 1), SnapshotError);  // seat 1 is no seat of one player
  Json bad = pile_json(cards);
  bad["owners"] = Json::array({1});
  CHECK_THROWS_AS(pile_from(bad, 2), SnapshotError);
  bad["owners"] = Json::array({1, "1"});
  CHECK_THROWS_AS(pile_from(bad, 2), SnapshotError);
  std::vector<Pile> two(2);
  CHECK_THROWS_AS(piles_from(piles_json(std::vector<Pile>(3)), two, 2, "discard piles"), SnapshotError);

  Reserve r;
  r.discards.resize(1);
  r.set_stock(pile({"2C", "8C"}), 1);
  const auto snapshot = r.snapshot();
  Reserve restored;
  restored.discards.resize(1);
  auto face_up = snapshot;
  face_up["stock_face_up"] = 3;
  try {
    restored.restore(face_up, 2);
    FAIL("three face-up cards on a stock of two were taken");
  } catch (const SnapshotError& e) {
    CHECK(std::string(e.what()).find("face-up") != std::string::npos);
  }
  auto discards = snapshot;
  discards["discards"].push_back(pile_json({}));
  CHECK_THROWS_AS(restored.restore(discards, 2), SnapshotError);
  auto turned = snapshot;
  turned["turned"] = {{"card", "QH"}, {"owner", 5}};
  CHECK_THROWS_AS(restored.restore(turned, 2), SnapshotError);
  CHECK_NOTHROW(restored.restore(snapshot, 2));
}

TEST_CASE("building: spots are the view's pile ids") {
  CHECK(to_string(Spot{Zone::layout, 3}) == "layout:3");
  CHECK(to_string(Spot{Zone::discard, 1, 2}) == "discard:1:2");
  CHECK(parse_spot("centre:7") == Spot{Zone::centre, 7});
  CHECK(parse_spot("discard:0:3") == Spot{Zone::discard, 0, 3});
  for (const char* bad : {"", "layout", "layout:", "layout:x", "layout:-1", "pile:2", "stock:1:", "stock:1:2:3"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(parse_spot(bad), RulesError);
  }
}

TEST_CASE("building: a move names its card, and a named card must be the top of its pile") {
  const Placement p{{Zone::stock, 0}, {Zone::centre, 2}};
  const Json json = move_json(p, c("7C"));
  CHECK(json == Json{{"type", "move"}, {"card", "7C"}, {"from", "stock:0"}, {"to", "centre:2"}});
  const auto request = parse_move(json);
  CHECK(request.placement == p);
  CHECK(request.card == c("7C"));
  CHECK_NOTHROW(check_named_card(request, c("7C")));
  CHECK_THROWS_AS(check_named_card(request, c("8C")), RulesError);
  CHECK_NOTHROW(check_named_card(parse_move({{"from", "stock:0"}, {"to", "centre:2"}}), c("8C")));
  CHECK_THROWS_AS(parse_move({{"from", "stock:0"}}), RulesError);
  CHECK_THROWS_AS(parse_move({{"from", "stock:0"}, {"to", "centre:2"}, {"extra", 1}}), RulesError);
}

TEST_CASE("building: the priority filter keeps what every active priority allows and names the first one broken") {
  const std::vector<Priority<int>> rules = {
      {"evens first", true, [](const int& n) { return n % 2 == 0; }},
      {"small first", false, [](const int& n) { return n < 3; }},
      {"not four", true, [](const int& n) { return n != 4; }},
  };
  CHECK(keep_compulsory(std::vector<int>{1, 2, 3, 4, 6}, rules) == std::vector<int>{2, 6});
  CHECK(broken_priority(1, rules)->rule == "evens first");
  CHECK(broken_priority(4, rules)->rule == "not four");
  CHECK(broken_priority(6, rules) == nullptr);
}

TEST_CASE("building: own packs are complete, owned, and start with the stacked cards") {
  const auto packs = own_packs(2, 7, cards({"AS", "KH"}));
  REQUIRE(packs.size() == 2);
  for (int seat = 0; seat < 2; ++seat) {
    std::set<std::string> seen;
    for (const auto& owned : packs[seat]) {
      CHECK(owned.owner == seat);
      seen.insert(to_string(owned.card));
    }
    CHECK(seen.size() == 52);
  }
  CHECK(packs[0][0].card == c("AS"));
  CHECK(packs[0][1].card == c("KH"));
  CHECK(own_packs(2, 7, std::nullopt)[1] == own_packs(2, 7, std::nullopt)[1]);
  CHECK_THROWS_AS(own_packs(2, 7, cards({"AS", "AS"})), SetupError);
  std::vector<Card> too_many(105, c("AS"));
  CHECK_THROWS_AS(own_packs(2, 7, too_many), SetupError);
}

TEST_CASE("building: position cards carry their owner and no pack card appears twice") {
  CHECK(parse_owned_card("7C", 1) == OwnedCard{c("7C"), 1});
  CHECK(parse_owned_card("7C/0", 1) == OwnedCard{c("7C"), 0});
  CHECK_THROWS_AS(parse_owned_card("7X", 0), SetupError);
  CHECK_THROWS_AS(parse_owned_card(7, 0), SetupError);
  const Pile a = parse_pile({"7C", "8D/1"}, 0);
  const Pile b = parse_pile({"7C/1"}, 0);
  CHECK_NOTHROW(check_copies({&a, &b}, 1));
  const Pile twice = parse_pile({"8D/1"}, 0);
  CHECK_THROWS_AS(check_copies({&a, &twice}, 1), SetupError);
  CHECK_NOTHROW(check_copies({&a, &twice}, 2));
}

TEST_CASE("building: a lone layout card moved onto a build opens a space in one shift") {
  const Tableau layout = {pile({"8S"}), pile({"KD", "9H"}), pile({"5C", "4D"})};
  const auto space = [](const Tableau& t) {
    return std::any_of(t.begin(), t.end(), [](const Pile& p) { return p.empty(); });
  };
  const auto found = shift_sequences(layout, 3, 6, space);
  REQUIRE_FALSE(found.empty());
  CHECK(found.front() == std::vector<Shift>{{0, 1}});
}

TEST_CASE("building: two shifts free a card for a base (the source's 9-8-7 and 10-9 example)") {
  // A base stands at 8S and a space exists; 9S lies under 8H and 7C, the other
  // sequence is TD 9C. 7C into the space, then 8H onto 9C, frees 9S.
  const Tableau layout = {pile({"9S", "8H", "7C"}), pile({"TD", "9C"}), {}, pile({"KH"})};
  const Pile base = pile({"AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S"});
  const auto frees_base_card = [&base](const Tableau& t) {
    return std::any_of(t.begin(), t.end(),
                       [&base](const Pile& p) { return !p.empty() && builds_up_in_suit(p.back().card, base); });
  };
  const auto found = shift_sequences(layout, 3, 6, frees_base_card);
  REQUIRE_FALSE(found.empty());
  CHECK(found.front() == std::vector<Shift>{{0, 2}, {0, 1}});
  CHECK(shift_sequences(layout, 1, 6, frees_base_card).empty());
  CHECK_FALSE(can_shift(layout, {3, 0}));
  CHECK_FALSE(can_shift(layout, {2, 0}));
  CHECK_FALSE(can_shift(layout, {0, 0}));
  CHECK_FALSE(can_shift(layout, {0, 9}));
}

}  // namespace unity_test_building
