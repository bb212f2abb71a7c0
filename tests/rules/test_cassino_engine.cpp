// The Cassino engine's pure parts (rules/cassino/): card values, which captures
// and builds a card can make, the deal's scoring items and the count-out
// (rules/other.md §10).
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>

#include "rules/cassino/moves.h"
#include "rules/cassino/scoring.h"
#include "rules/cassino/values.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_cassino_engine {

using namespace parlour::rules;
using namespace parlour::rules::cassino;

namespace {

Card card(const char* text) {
  auto parsed = parse_card(text, Ranks::with_eleven_twelve);
  REQUIRE_MESSAGE(parsed.has_value(), "not a card: " << text);
  return *parsed;
}

std::vector<Card> cards(std::initializer_list<const char*> texts) {
  std::vector<Card> out;
  for (const char* text : texts) out.push_back(card(text));
  return out;
}

const CardValues royal = CardValues::royal(false, false);

// The loose cards of each listed capture, as sorted strings.
std::vector<std::vector<std::string>> listed(const std::vector<Selection>& selections) {
  std::vector<std::vector<std::string>> out;
  for (const auto& s : selections) {
    auto names = to_strings(s.loose);
    std::sort(names.begin(), names.end());
    out.push_back(names);
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool captures(const TableCards& table, const CardValues& values, const char* played, const Selection& take) {
  return !capture_fault(table, values, CapturePlay{card(played), take}).has_value();
}

int total(const std::vector<ScoreItem>& items) {
  return std::accumulate(items.begin(), items.end(), 0, [](int sum, const ScoreItem& i) { return sum + i.points; });
}

SideTake take_of(std::vector<Card> taken, int sweeps = 0) { return SideTake{std::move(taken), sweeps}; }

}  // namespace

TEST_CASE("Cassino engine: Royal values, ace high, and the special pack's values") {
  CHECK(royal.of(card("JS")) == std::vector<int>{11});
  CHECK(royal.of(card("QS")) == std::vector<int>{12});
  CHECK(royal.of(card("KS")) == std::vector<int>{13});
  CHECK(royal.of(card("AS")) == std::vector<int>{1});
  CHECK(royal.max_build() == 13);
  const auto high = CardValues::royal(true, false);
  CHECK(high.of(card("AH")) == std::vector<int>{1, 14});
  CHECK(high.max_build() == 14);
  const auto special = CardValues::royal(false, true);
  CHECK(special.of(card("ES")) == std::vector<int>{11});
  CHECK(special.of(card("WS")) == std::vector<int>{12});
  CHECK(special.of(card("JS")) == std::vector<int>{13});
  CHECK(special.of(card("QS")) == std::vector<int>{14});
  CHECK(special.of(card("KS")) == std::vector<int>{15});
  CHECK(special.max_build() == 15);
  const auto special_high = CardValues::royal(true, true);
  CHECK(special_high.of(card("AD")) == std::vector<int>{1, 16});
  CHECK(special_high.max_build() == 16);
  const auto standard = CardValues::standard();
  CHECK(standard.of(card("KS")).empty());
  CHECK(standard.max_build() == 10);
}

TEST_CASE("Cassino engine: a card captures by pairing and by sums, every distinct set listed") {
  const TableCards table{cards({"5C", "2D", "3H", "9S"}), {}};
  const auto listed_sets = listed(captures_with(table, royal, card("5H")));
  CHECK(listed_sets == std::vector<std::vector<std::string>>{{"2D", "3H"}, {"2D", "3H", "5C"}, {"5C"}});
  CHECK(captures(table, royal, "5H", {cards({"5C", "3H", "2D"}), {}}));
  const auto refused = capture_fault(table, royal, CapturePlay{card("5H"), {cards({"5C", "9S"}), {}}});
  REQUIRE(refused.has_value());
  CHECK(refused->find("capturing") != std::string::npos);
  CHECK(refused->find("adding up to its value (5)") != std::string::npos);
  CHECK(capture_fault(table, royal, CapturePlay{card("5H"), {}})->find("at least one") != std::string::npos);
}

TEST_CASE("Cassino engine: several captures in one play: pairs, sums and a build of the value together") {
  Build eight{1, 8, 0, {cards({"5S", "3S"})}};
  const TableCards table{cards({"8C", "6D", "2H", "AC", "7H"}), {eight}};
  CHECK(captures(table, royal, "8H", {cards({"8C", "6D", "2H", "AC", "7H"}), {1}}));
  const auto all = captures_with(table, royal, card("8H"));
  REQUIRE_FALSE(all.empty());
  CHECK(all[0] == Selection{{}, {1}});  // the build of the value alone first, then the largest
  CHECK(all[1].loose.size() == 5);
  CHECK(all[1].builds == std::vector<int>{1});
  // 8 alone, 6+2, 7+A, the build: 2^4 - 1 ways to combine them.
  CHECK(all.size() == 15);
  CHECK_FALSE(captures(table, royal, "7D", {{}, {1}}));
}

TEST_CASE("Cassino engine: Royal court cards capture by sums; standard ones only pair, one or all three") {
  const TableCards table{cards({"7C", "6H"}), {}};
  CHECK(captures(table, royal, "KS", {cards({"7C", "6H"}), {}}));  // E22: 13
  const auto standard = CardValues::standard();
  CHECK_FALSE(captures(table, standard, "KS", {cards({"7C", "6H"}), {}}));
  const TableCards courts{cards({"KC", "KH", "QD"}), {}};
  CHECK(captures(courts, standard, "KS", {cards({"KC"}), {}}));
  CHECK_FALSE(captures(courts, standard, "KS", {cards({"KC", "KH"}), {}}));
  const TableCards three{cards({"KC", "KH", "KD"}), {}};
  CHECK(captures(three, standard, "KS", {cards({"KC", "KH", "KD"}), {}}));
  CHECK(captures_with(three, standard, card("KS")).size() == 4);
  CHECK(builds_with(courts, standard, card("QS"), cards({"QC"})).empty());
}

TEST_CASE("Cassino engine: an ace counts 1 or high, each ace in a sum on its own (E22)") {
  const auto high = CardValues::royal(true, false);
  const TableCards table{cards({"TD", "4C"}), {}};
  CHECK(captures(table, high, "AH", {cards({"TD", "4C"}), {}}));
  CHECK_FALSE(captures(table, royal, "AH", {cards({"TD", "4C"}), {}}));
  const TableCards aces{cards({"AS", "AD", "QC"}), {}};
  // 1 + 12 = 13 with a king; 14 with an ace (ace + queen + ace: 1 + 12 + 1).
  CHECK(captures(aces, high, "KH", {cards({"AS", "QC"}), {}}));
  CHECK(captures(aces, high, "AH", {cards({"AS", "AD", "QC"}), {}}));
  const auto special_high = CardValues::royal(true, true);
  const TableCards special{cards({"WS", "2C"}), {}};
  CHECK(captures(special, CardValues::royal(false, true), "QD", {cards({"WS", "2C"}), {}}));  // E22: Q 14
  CHECK(captures(TableCards{cards({"KS", "AC"}), {}}, special_high, "AH", {cards({"KS", "AC"}), {}}));  // 15 + 1
}

TEST_CASE("Cassino engine: simple builds, raising, multiple builds, and a multiple build frozen") {
  const TableCards table{cards({"4C", "3D", "7S", "2H"}), {}};
  const auto rest = cards({"7H", "9C"});
  // 3 on the 4: building 7 (a 7 is kept to take it); 3 on 4+2: building 9.
  CHECK_FALSE(build_fault(table, royal, BuildPlay{card("3H"), {cards({"4C"}), {}}, 7}, rest));
  CHECK_FALSE(build_fault(table, royal, BuildPlay{card("3H"), {cards({"4C", "2H"}), {}}, 9}, rest));
  // 3 on 4 beside the loose 7 and 3+... : building 7s.
  const BuildPlay sevens{card("3H"), {cards({"4C", "7S"}), {}}, 7};
  CHECK_FALSE(build_fault(table, royal, sevens, rest));
  const Build made = built_by(table, royal, sevens);
  CHECK(made.multiple());
  CHECK(made.groups.size() == 2);
  // Nothing to take it with, or a sum that is not the value.
  CHECK(build_fault(table, royal, BuildPlay{card("3H"), {cards({"4C"}), {}}, 7}, cards({"9C"}))
            ->find("keep a card to take") != std::string::npos);
  CHECK(build_fault(table, royal, BuildPlay{card("3H"), {cards({"3D"}), {}}, 7}, rest)->find("must total") !=
        std::string::npos);
  CHECK(build_fault(table, royal, BuildPlay{card("3H"), {cards({"4C"}), {}}, 14}, cards({"KH"}))
            ->find("from 2 to 13") != std::string::npos);

  Build simple{1, 7, 0, {cards({"4S", "3S"})}};
  Build multiple{2, 7, 0, {cards({"5S", "2S"}), cards({"7D"})}};
  const TableCards builds{cards({"6C"}), {simple, multiple}};
  // Raising the simple 7 to 9 with a 2; duplicating it with a 7 (building 7s).
  CHECK_FALSE(build_fault(builds, royal, BuildPlay{card("2D"), {{}, {1}}, 9}, rest));
  CHECK(built_by(builds, royal, BuildPlay{card("2D"), {{}, {1}}, 9}).id == 1);
  CHECK_FALSE(build_fault(builds, royal, BuildPlay{card("7C"), {{}, {1}}, 7}, rest));
  CHECK(build_fault(builds, royal, BuildPlay{card("2D"), {{}, {2}}, 9}, rest)->find("multiple build can never be") !=
        std::string::npos);
  const auto listed_builds = builds_with(builds, royal, card("2D"), rest);
  for (const auto& play : listed_builds)
    CHECK(std::find(play.with.builds.begin(), play.with.builds.end(), 2) == play.with.builds.end());
  CHECK(std::any_of(listed_builds.begin(), listed_builds.end(),
                    [](const BuildPlay& p) { return p.value == 9 && p.with.builds == std::vector<int>{1}; }));
}

TEST_CASE("Cassino engine: a Royal build to 13 with a king, and to 14 with an ace counted high") {
  const TableCards table{cards({"8C", "QD"}), {}};
  CHECK_FALSE(build_fault(table, royal, BuildPlay{card("5H"), {cards({"8C"}), {}}, 13}, cards({"KS"})));
  const auto high = CardValues::royal(true, false);
  CHECK_FALSE(build_fault(table, high, BuildPlay{card("2H"), {cards({"QD"}), {}}, 14}, cards({"AS"})));
  CHECK(build_fault(table, royal, BuildPlay{card("2H"), {cards({"QD"}), {}}, 14}, cards({"AS"})).has_value());
  // An ace played into a build of 14 counts 14 beside a loose ace... of 14.
  const TableCards ace{cards({"AC"}), {}};
  CHECK_FALSE(build_fault(ace, high, BuildPlay{card("AD"), {cards({"AC"}), {}}, 14}, cards({"AS"})));
  CHECK(built_by(ace, high, BuildPlay{card("AD"), {cards({"AC"}), {}}, 14}).multiple());
}

TEST_CASE("Cassino engine: listing is bounded on a crowded table; an unlisted capture is still valid") {
  const TableCards table{cards({"AS", "AH", "AD", "AC", "2S", "2H", "2D", "2C", "3S", "3H", "3D", "3C", "4S", "4H"}),
                         {}};
  const auto everything = captures_with(table, royal, card("KC"));
  CHECK(everything.size() > 16);
  const auto bounded = captures_with(table, royal, card("KC"), ListingLimits{16, 200000});
  REQUIRE(bounded.size() == 16);
  CHECK(bounded.front().loose.size() >= everything.back().loose.size());
  const auto smallest = everything.back();
  CHECK(std::none_of(bounded.begin(), bounded.end(), [&](const Selection& s) { return s == smallest; }));
  CHECK_FALSE(capture_fault(table, royal, CapturePlay{card("KC"), smallest}).has_value());
  // However tight the limits, taking the builds of the value stays listed: a
  // build's owner can always take his builds.
  TableCards with_builds = table;
  with_builds.builds = {Build{1, 13, 0, {cards({"9C", "4C"})}}, Build{2, 13, 0, {cards({"TH", "3C"})}}};
  const auto tight = captures_with(with_builds, royal, card("KC"), ListingLimits{1, 10});
  CHECK(tight.size() == 3 + 1);
  CHECK(tight[0] == Selection{{}, {1}});
  CHECK(tight[1] == Selection{{}, {2}});
  CHECK(tight[2] == Selection{{}, {1, 2}});
}

TEST_CASE("Cassino engine: every scoring item of standard Cassino, ties scoring nothing") {
  SideTake a = take_of(cards({"TD", "2S", "AS", "AH", "3S", "4S", "5S", "6S", "7S"}), 2);
  SideTake b = take_of(cards({"AD", "AC", "8S"}), 1);
  for (int i = 0; i < 20; ++i) a.cards.push_back(card("9H"));
  for (int i = 0; i < 20; ++i) b.cards.push_back(card("9C"));
  auto items = score_items({a, b}, {0, 1, 0}, ScoringRules{false, true});
  std::vector<std::string> names;
  for (const auto& item : items) names.push_back(item.item + ":" + std::to_string(item.side));
  CHECK(names == std::vector<std::string>{"cards:0", "spades:0", "big_cassino:0", "little_cassino:0", "ace:0",
                                          "ace:0", "ace:1", "ace:1", "sweep:0", "sweep:1", "sweep:0"});
  CHECK(deal_points(items, 2) == std::vector<int>{3 + 1 + 2 + 1 + 2 + 2, 2 + 1});
  CHECK(total(score_items({a, b}, {}, ScoringRules{false, true})) == 11);
  // Equal cards: nobody scores the 3; sweeps off: no sweep points.
  b.cards.resize(a.cards.size(), card("9D"));
  items = score_items({a, b}, {0}, ScoringRules{false, false});
  CHECK(std::none_of(items.begin(), items.end(), [](const ScoreItem& i) { return i.item == "cards" || i.item == "sweep"; }));
  // Three players: the most, strictly.
  const auto three = score_items({take_of(cards({"9H", "9D"})), take_of(cards({"9S", "8S"})), take_of(cards({"7C"}))},
                                 {}, ScoringRules{});
  CHECK(std::none_of(three.begin(), three.end(), [](const ScoreItem& i) { return i.item == "cards"; }));
  CHECK(three.front().item == "spades");
  CHECK(three.front().side == 1);
}

TEST_CASE("Cassino engine: Spade Cassino scores 26 a deal (28 with the special pack), Little Cassino absorbed") {
  SideTake all = take_of({});
  for (const Card c : make_pack({})) all.cards.push_back(c);
  auto items = score_items({all, take_of({})}, {}, ScoringRules{true, true});
  CHECK(total(items) == 26);
  CHECK(std::none_of(items.begin(), items.end(), [](const ScoreItem& i) { return i.item == "little_cassino"; }));
  auto points_of = [&](const char* c) {
    for (const auto& item : items)
      if (item.item == "spade" && item.card == card(c)) return item.points;
    return 0;
  };
  CHECK(points_of("AS") == 2);
  CHECK(points_of("2S") == 2);
  CHECK(points_of("JS") == 2);
  CHECK(points_of("KS") == 1);
  CHECK(total(score_items({all, take_of({})}, {}, ScoringRules{false, true})) == 11);
  SideTake special = take_of({});
  for (const Card c : make_pack({.eleven_twelve_spots = true})) special.cards.push_back(c);
  CHECK(total(score_items({special, take_of({})}, {}, ScoringRules{true, true})) == 28);
  CHECK(total(score_items({special, take_of({})}, {}, ScoringRules{false, true})) == 11);
}

TEST_CASE("Cassino engine: special-pack majorities are 31 of 60 cards and 8 of 15 spades") {
  auto pack = make_pack({.eleven_twelve_spots = true});
  std::vector<Card> spades, others;
  for (const Card c : pack) (c.suit == Suit::spades ? spades : others).push_back(c);
  SideTake a = take_of(std::vector<Card>(spades.begin(), spades.begin() + 8));
  SideTake b = take_of(std::vector<Card>(spades.begin() + 8, spades.end()));
  a.cards.insert(a.cards.end(), others.begin(), others.begin() + 23);  // 31 cards
  b.cards.insert(b.cards.end(), others.begin() + 23, others.end());    // 29 cards
  auto items = score_items({a, b}, {}, ScoringRules{});
  CHECK(items[0].item == "cards");
  CHECK(items[0].side == 0);
  CHECK(items[1].item == "spades");
  CHECK(items[1].side == 0);
  // 30 and 30: nobody has the cards.
  b.cards.push_back(a.cards.back());
  a.cards.pop_back();
  items = score_items({a, b}, {}, ScoringRules{});
  CHECK(items[0].item == "spades");
}

TEST_CASE("Cassino engine: the count-out stops at the first side to reach the target") {
  const std::vector<ScoreItem> items = {{"cards", 1, 3, std::nullopt},
                                        {"spades", 0, 1, std::nullopt},
                                        {"big_cassino", 0, 2, card("TD")},
                                        {"ace", 1, 1, card("AS")},
                                        {"sweep", 0, 1, std::nullopt}};
  // Both would pass 21: side 1 gets there first with the cards.
  auto counted = count_out({18, 19}, items, 21);
  REQUIRE(counted.winner.has_value());
  CHECK(*counted.winner == 1);
  CHECK(counted.scores == std::vector<int>{18, 22});
  CHECK(counted.counted == 1);
  // Side 0 reaches 21 with Big Cassino before side 1's ace.
  counted = count_out({18, 17}, items, 21);
  CHECK(*counted.winner == 0);
  CHECK(counted.scores == std::vector<int>{21, 20});
  // Nobody reaches it: everything is counted.
  counted = count_out({0, 0}, items, 21);
  CHECK_FALSE(counted.winner.has_value());
  CHECK(counted.scores == std::vector<int>{4, 4});
  CHECK(counted.counted == items.size());
}

}  // namespace unity_test_cassino_engine
