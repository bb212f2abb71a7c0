// Carousel, source 002 (the unnamed joker/knock game near the end of the rummy
// chapter); rules/rummy.md §3.6, examples E17–E18.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include "rules/games/carousel.h"
#include "tests/rules/harness.h"
#include "tests/rules/playout.h"
#include "tests/rules/rummy_kit.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_carousel {

using parlour::rules::Json;
using parlour::rules::Phase;
using parlour::test::Harness;
using parlour::test::view_pile;
using namespace parlour::test::rummy_kit;

namespace {

using Cards = std::vector<std::string>;

Json layout(std::vector<Cards> melds) { return {{"type", "layout"}, {"melds", melds}}; }
const Json knock = {{"type", "knock"}};
const Json finish = {{"type", "finish"}};
const Json withdraw = {{"type", "withdraw"}};

Json view(Harness& h, std::optional<int> seat = std::nullopt) { return h.game().view(seat); }
std::size_t hand_size(Harness& h, int seat) { return view(h)["seats"][seat]["count"].get<std::size_t>(); }

// The message an illegal action is refused with (after checking, through the
// harness, that it is illegal_action and changes nothing).
std::string why(Harness& h, int seat, const Json& action) {
  CHECK(h.refusal(seat, action) == "illegal_action");
  try {
    h.game().apply(seat, action, h.chips());
  } catch (const parlour::rules::RulesError& e) {
    return e.what();
  }
  return "accepted";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Three players (two packs and two jokers): X is seat 1, Y seat 2 and the
// dealer K seat 0, so X plays first and K third. `stock` is its top cards.
Harness three(const Cards& x, const Cards& y, const Cards& k, const Cards& stock, Json opts = options()) {
  return Harness("carousel", std::move(opts), {1000, 1000, 1000}, 1, deal_no_upcard({x, y, k}, stock));
}

// E17 hands. X and Y each draw one card, lay out a meld and finish; K draws QS
// and lays out 3S…QS, keeping `k_last`.
const Cards x_12 = {"AS", "AS", "AH", "AH", "AD", "AD", "3C", "3C", "KS", "KH"};  // + KD → 12 left
const Cards y_20 = {"2S", "2S", "2H", "2H", "2D", "2D", "4C", "4C", "QS", "QH"};  // + QD → 20 left
Cards k_with(const std::string& k_last) { return {"3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", k_last}; }
const Cards k_run = {"3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS"};

void x_and_y_lay_out(Harness& h, const Cards& x_meld, const std::vector<Cards>& y_melds = {{"QS", "QH", "QD"}}) {
  h.act(1, draw());
  h.act(1, layout({x_meld}));
  h.act(1, finish);
  h.act(2, draw());
  auto table = view(h)["melds"];
  std::vector<Cards> melds;
  for (const auto& m : table) melds.push_back(m["cards"].get<Cards>());
  melds.insert(melds.end(), y_melds.begin(), y_melds.end());
  h.act(2, layout(melds));
  h.act(2, finish);
}

std::vector<Cards> table_with(Harness& h, const std::vector<Cards>& more) {
  const auto table = view(h)["melds"];  // a copy: the view is a temporary
  std::vector<Cards> melds;
  for (const auto& m : table) melds.push_back(m["cards"].get<Cards>());
  melds.insert(melds.end(), more.begin(), more.end());
  return melds;
}

}  // namespace

// ------------------------------------------------------------------ deal

TEST_CASE("carousel deal: ten cards each; one pack and a joker for two, two packs and two jokers for three to five") {
  for (int players = 2; players <= 5; ++players) {
    Harness h("carousel", options(), std::vector<std::int64_t>(players, 100));
    const auto v = view(h);
    for (int s = 0; s < players; ++s) CHECK(hand_size(h, s) == 10);
    CHECK(view_pile(v, "stock")["count"] == (players == 2 ? 53 : 106) - 10 * players);
    CHECK(v["piles"].size() == 1);  // the stock: no discard pile at all
    CHECK(v["melds"].empty());
    CHECK(v["drawn"] == 0);
    CHECK(v["target"] == 150);
    CHECK(h.game().to_act() == std::vector<int>{1});
    CHECK(h.legal(1) == Json::array({draw()}));
  }
  const auto* info = parlour::rules::Registry::builtin().find("carousel");
  REQUIRE(info != nullptr);
  CHECK(info->min_players == 2);
  CHECK(info->max_players == 5);
  CHECK(info->source == "002");
  parlour::rules::Balances six(6, 100);
  CHECK_THROWS_AS(parlour::rules::Registry::create(*info, {Json::object(), 6, 1, std::nullopt, six}),
                  parlour::rules::SetupError);
}

TEST_CASE("carousel options: defaults and bounds") {
  const auto* info = parlour::rules::Registry::builtin().find("carousel");
  REQUIRE(info != nullptr);
  const auto defaults = parlour::rules::Registry::validate_options(*info, Json::object());
  CHECK(defaults == Json{{"stake", 1}, {"ace_high_runs", false}, {"turn_time_limit_s", 0}, {"deals", 0}});
  using parlour::rules::SetupError;
  CHECK_THROWS_AS(parlour::rules::Registry::validate_options(*info, {{"turn_time_limit_s", -1}}), SetupError);
  CHECK_THROWS_AS(parlour::rules::Registry::validate_options(*info, {{"turn_time_limit_s", 601}}), SetupError);
  CHECK_THROWS_AS(parlour::rules::Registry::validate_options(*info, {{"stake", 0}}), SetupError);
  CHECK_THROWS_AS(parlour::rules::Registry::validate_options(*info, {{"ace_high_runs", 1}}), SetupError);
  CHECK_THROWS_AS(parlour::rules::Registry::validate_options(*info, {{"discard", true}}), SetupError);
  CHECK_NOTHROW(parlour::rules::Registry::validate_options(*info, {{"turn_time_limit_s", 120}}));
}

// ------------------------------------------------------------------ the turn

TEST_CASE("carousel turn: the first draw is mandatory; the third draw ends the turn, no layout or knock after it (E17e)") {
  Harness h("carousel", options(), {100, 100, 100}, 5);
  CHECK(h.refusal(2, draw()) == "not_your_turn");
  CHECK(contains(why(h, 1, finish), "draw first"));
  CHECK(contains(why(h, 1, knock), "draw first"));
  CHECK(contains(why(h, 1, layout({{"AS", "2S", "3S"}})), "draw first"));
  CHECK(h.refusal(1, draw("discard")) == "illegal_action");
  h.act(1, draw());
  CHECK(view(h)["drawn"] == 1);
  CHECK(has_action(h.legal(1), draw()));
  CHECK(h.refusal(1, finish) == "illegal_action");  // nothing melded: draw again instead
  h.act(1, draw());
  CHECK(view(h)["drawn"] == 2);
  h.act(1, draw());
  // The third card ends the turn at once: it is the next player's turn.
  CHECK(hand_size(h, 1) == 13);
  CHECK(h.game().to_act() == std::vector<int>{2});
  CHECK(view(h)["drawn"] == 0);
  CHECK(h.refusal(1, layout({{"AS", "2S", "3S"}})) == "not_your_turn");
  CHECK(h.refusal(1, knock) == "not_your_turn");
  CHECK(h.legal(1).empty());
}

TEST_CASE("carousel turn: a player may draw again although able to meld; once he melds he may not draw; finish after") {
  const Cards x = {"7H", "8H", "9H", "TH", "4D", "KS", "QS", "JD", "TC", "9C"};
  Harness h = three(x, y_20, k_with("4H"), {"6H", "2C", "3C", "5C"});
  h.act(1, draw());  // 6H
  CHECK(has_action(h.legal(1), layout({{"6H", "7H", "8H", "9H"}})));
  h.act(1, draw());  // 2C: he need not meld after one draw
  h.act(1, layout({{"6H", "7H", "8H", "9H"}}));
  CHECK(view(h)["melded_this_turn"] == true);
  CHECK(contains(why(h, 1, draw()), "may not draw again"));
  CHECK(!has_action(h.legal(1), draw()));
  CHECK(has_action(h.legal(1), finish));
  // Any number of layouts in the same turn.
  h.act(1, layout({{"6H", "7H", "8H", "9H", "TH"}}));
  h.act(1, finish);
  CHECK(h.game().to_act() == std::vector<int>{2});
  CHECK(hand_size(h, 1) == 7);
  CHECK(view(h)["melds"][0]["cards"] == Json::array({"6H", "7H", "8H", "9H", "TH"}));
}

// ------------------------------------------------------------------ melds and layouts

TEST_CASE("carousel melds: groups of at most four with no suit twice; runs ace low unless ace_high_runs (R-CA1)") {
  const Cards x = {"7S", "7H", "7H", "7D", "7C", "QS", "KS", "AS", "5C", "9D"};
  Harness h = three(x, y_20, k_with("4H"), {"8D"});
  h.act(1, draw());
  CHECK(contains(why(h, 1, layout({{"7H", "7H", "7D"}})), "duplicate_suit_in_set"));
  CHECK(contains(why(h, 1, layout({{"7S", "7H", "7D", "7C", "7H"}})), "set_too_large"));
  CHECK(contains(why(h, 1, layout({{"QS", "KS", "AS"}})), "ace_high_not_allowed"));
  CHECK(contains(why(h, 1, layout({{"5C", "7S", "9D"}})), "mixed_ranks"));
  h.act(1, layout({{"7S", "7H", "7D", "7C"}}));
  CHECK(view(h)["melds"][0]["cards"] == Json::array({"7S", "7H", "7D", "7C"}));

  Harness high = three(x, y_20, k_with("4H"), {"8D"}, options({{"ace_high_runs", true}}));
  high.act(1, draw());
  CHECK(has_action(high.legal(1), layout({{"QS", "KS", "AS"}})));
  high.act(1, layout({{"QS", "KS", "AS"}}));
  CHECK(view(high)["melds"][0]["cards"] == Json::array({"QS", "KS", "AS"}));
}

TEST_CASE("carousel layouts: lay off the fourth seven, then borrow a seven for a run; split a run to meld a jack") {
  // [002]: "the sevens … The player may lay off the seven of diamonds, then borrow any one of the other sevens to
  // form a sequence" and "king, queen, jack, ten, nine of clubs. The player breaks the sequence in two to allow
  // melding of the jack of clubs."
  const Cards x = {"7S", "7H", "7C", "9C", "TC", "JC", "QC", "2D", "3H", "8D"};
  const Cards y = {"7D", "5S", "6S", "JC", "4H", "4D", "2C", "3C", "TD", "AH"};
  Harness h = three(x, y, k_with("4H"), {"KC", "9H"});
  h.act(1, draw());  // KC
  h.act(1, layout({{"7S", "7H", "7C"}, {"9C", "TC", "JC", "QC", "KC"}}));
  h.act(1, finish);
  h.act(2, draw());  // 9H
  const auto refused = why(h, 2, layout({{"7S", "7H", "7C", "7D"}, {"9C", "TC", "JC", "QC"}}));
  CHECK(contains(refused, "card_left_table"));  // KC may not leave the table
  h.act(2, layout({{"7H", "7C", "7D"}, {"5S", "6S", "7S"}, {"9C", "TC", "JC"}, {"JC", "QC", "KC"}}));
  CHECK(view(h)["melds"].size() == 4);
  CHECK(view(h)["melds"][1]["cards"] == Json::array({"5S", "6S", "7S"}));
  CHECK(hand_size(h, 2) == 7);
  CHECK(contains(why(h, 2, layout(table_with(h, {}))), "no_card_from_hand"));
  CHECK(contains(why(h, 2, layout(table_with(h, {{"AH", "2H", "3H"}}))), "card_not_available"));
}

TEST_CASE("carousel jokers: declared and bound; exchanged for the natural card; never back to a hand (R-CA7)") {
  const Cards x = {"JH", "QH", "JK", "7D", "8D", "9D", "7S", "7H", "JK", "2C"};
  const Cards y = {"9H", "KH", "4D", "4C", "5C", "8C", "TS", "3D", "6H", "AC"};
  Harness h = three(x, y, k_with("4H"), {"AS", "TH"});
  h.act(1, draw());  // AS
  // R-CA7: a joker may stand for a card already on the table (7D here).
  h.act(1, layout({{"JH", "QH", "JK=KH"}, {"7D", "8D", "9D"}, {"7S", "7H", "JK=7D"}}));
  h.act(1, finish);
  CHECK(view(h)["melds"][0]["cards"] == Json::array({"JH", "QH", "JK=KH"}));
  h.act(2, draw());  // TH
  // The joker is bound: it may not move to the other end as 10H to take the 9H.
  CHECK(contains(why(h, 2, layout({{"9H", "JK=TH", "JH", "QH"}, {"7D", "8D", "9D"}, {"7S", "7H", "JK=7D"}})),
                 "identity_lost"));
  // A joker never goes back to a hand.
  CHECK(contains(why(h, 2, layout({{"JH", "QH", "KH"}, {"7D", "8D", "9D"}, {"7S", "7H", "JK=7D"}})),
                 "card_left_table"));
  // The natural KH takes the joker's place; the joker, named anew, joins 4D 4C.
  const auto exchange = layout({{"JH", "QH", "KH"}, {"7D", "8D", "9D"}, {"7S", "7H", "JK=7D"}, {"4D", "4C", "JK=4S"}});
  h.act(2, exchange);
  CHECK(view(h)["melds"][3]["cards"] == Json::array({"4D", "4C", "JK=4S"}));
  CHECK(hand_size(h, 2) == 8);
}

TEST_CASE("carousel: a joker is captured in exchange for a card already on the table (source 002, §1.3)") {
  const Cards x = {"5C", "6C", "7C", "8C", "8D", "8H", "JK", "KD", "QS", "2D"};
  const Cards y = {"2H", "3H", "9H", "KH", "4D", "TS", "3D", "6H", "AC", "8S"};
  Harness h = three(x, y, k_with("4H"), {"AS", "TH"});
  h.act(1, draw());  // AS
  h.act(1, layout({{"5C", "6C", "7C", "8C"}, {"8D", "8H", "JK=8C"}}));
  h.act(1, finish);
  h.act(2, draw());  // TH
  // Unless a natural 8C takes its place, the joker may not be named anew.
  CHECK(contains(why(h, 2, layout({{"5C", "6C", "7C", "8C"}, {"8D", "8H", "8S"}, {"2H", "3H", "JK=4H"}})),
                 "identity_lost"));
  // The natural 8C leaves the run (5C 6C 7C stays a run) for the joker's place; the joker joins 2H 3H as 4H.
  h.act(2, layout({{"5C", "6C", "7C"}, {"8D", "8H", "8C"}, {"2H", "3H", "JK=4H"}}));
  CHECK(view(h)["melds"][1]["cards"] == Json::array({"8D", "8H", "8C"}));
  CHECK(view(h)["melds"][2]["cards"] == Json::array({"2H", "3H", "JK=4H"}));
  CHECK(hand_size(h, 2) == 9);
}

TEST_CASE("carousel legal: new melds from the hand, single-card additions and joker exchanges, each valid") {
  const Cards x = {"JH", "QH", "JK", "7D", "8D", "9D", "2S", "3S", "4S", "2C"};
  const Cards y = {"KH", "6D", "TD", "7C", "7H", "7S", "5S", "3D", "6H", "AC"};
  auto setup = [&] {
    Harness h = three(x, y, k_with("4H"), {"AS", "TH"});
    h.act(1, draw());  // AS
    h.act(1, layout({{"JH", "QH", "JK=KH"}, {"7D", "8D", "9D"}}));
    h.act(1, finish);
    h.act(2, draw());  // TH
    return h;
  };
  Harness h = setup();
  const auto legal = h.legal(2);
  const Cards run1 = {"JH", "QH", "JK=KH"};
  const Cards run2 = {"7D", "8D", "9D"};
  // A new meld from the hand beside the table as it stands.
  CHECK(has_action(legal, layout({run1, run2, {"7C", "7H", "7S"}})));
  // Single cards laid off: TH before the jack, 6D and TD on the diamonds.
  CHECK(has_action(legal, layout({{"TH", "JH", "QH", "JK=KH"}, run2})));
  CHECK(has_action(legal, layout({run1, {"6D", "7D", "8D", "9D"}})));
  CHECK(has_action(legal, layout({run1, {"7D", "8D", "9D", "TD"}})));
  // The exchange: KH replaces the joker, which is laid off where it first fits.
  CHECK(has_action(legal, layout({{"JK=TH", "JH", "QH", "KH"}, run2})));
  CHECK(has_action(legal, draw()));  // one draw and no layout yet: he may draw again
  CHECK(!has_action(legal, knock));
  // Every listed layout applies.
  int layouts = 0;
  for (const auto& action : legal) {
    Harness replay = setup();
    CHECK_NOTHROW(replay.act(2, action));
    layouts += action["type"] == "layout";
  }
  CHECK(layouts >= 5);
}

// ------------------------------------------------------------------ knock and E17

TEST_CASE("E17a: K knocks with 4; X holds 12, Y 20 -> K scores 24") {
  Harness h = three(x_12, y_20, k_with("4H"), {"KD", "QD", "QS"});
  x_and_y_lay_out(h, {"KS", "KH", "KD"});
  h.act(0, draw());  // QS
  h.act(0, layout(table_with(h, {k_run})));
  CHECK(has_action(h.legal(0), knock));
  h.act(0, knock);
  CHECK(h.game().phase() == Phase::deal_over);
  const auto r = h.game().result();
  CHECK(r["end"] == "knock");
  CHECK(r["knocker"] == 0);
  CHECK(r["counts"] == Json::array({4, 12, 20}));
  CHECK(r["winners"] == Json::array({0}));
  CHECK(r["undercut"] == false);
  CHECK(deal_points(r) == Json::array({24, 0, 0}));
  CHECK(r["bonuses"] == Json::array({0, 0, 0}));
  CHECK(r["scores"] == Json::array({24, 0, 0}));
  CHECK(r["deals_won"] == Json::array({1, 0, 0}));
  CHECK(r["seats"][0]["points"] == 24);
  CHECK(h.chips() == std::vector<std::int64_t>{1000, 1000, 1000});  // chips move only when the game ends
  CHECK(view(h)["knocker"] == 0);
}

TEST_CASE("E17b: K knocks with 5; X holds 3, Y 20 -> X undercuts and scores (5-3)+(20-3)+10 = 29, K nothing") {
  const Cards x = {"AS", "AS", "AH", "KS", "KH", "KC", "5D", "6D", "7D", "8D"};
  Harness h = three(x, y_20, k_with("5H"), {"9D", "QD", "QS"});
  h.act(1, draw());  // 9D
  h.act(1, layout({{"KS", "KH", "KC"}, {"5D", "6D", "7D", "8D", "9D"}}));
  h.act(1, finish);
  h.act(2, draw());
  h.act(2, layout(table_with(h, {{"QS", "QH", "QD"}})));
  h.act(2, finish);
  h.act(0, draw());
  h.act(0, layout(table_with(h, {k_run})));
  h.act(0, knock);
  const auto r = h.game().result();
  CHECK(r["counts"] == Json::array({5, 3, 20}));
  CHECK(r["winners"] == Json::array({1}));
  CHECK(r["undercut"] == true);
  CHECK(deal_points(r) == Json::array({0, 29, 0}));
  CHECK(r["bonuses"] == Json::array({0, 10, 0}));
  CHECK(r["scores"] == Json::array({0, 29, 0}));
  CHECK(r["deals_won"] == Json::array({0, 1, 0}));
}

// E17's deal up to K's turn: X (seat 1) and Y (seat 2) have each melded twice.
Harness e17c_before_k() {
  const Cards x = {"AH", "AD", "AC", "2H", "2D", "KS", "KH", "7C", "8C", "9C"};
  const Cards y = {"AH", "AD", "AC", "3H", "3D", "QS", "QH", "6C", "7C", "8C"};
  const Cards k = {"AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS"};
  Harness h = three(x, y, k, {"KD", "QD", "JS"});
  h.act(1, draw());
  h.act(1, layout({{"KS", "KH", "KD"}, {"7C", "8C", "9C"}}));
  h.act(1, finish);
  h.act(2, draw());
  h.act(2, layout(table_with(h, {{"QS", "QH", "QD"}, {"6C", "7C", "8C"}})));
  h.act(2, finish);
  return h;
}

TEST_CASE("E17c: K melds his last card after the first draw and so knocks; X 7, Y 9 -> K scores 7+9+25 = 41") {
  Harness h = e17c_before_k();
  h.act(0, draw());  // JS
  h.act(0, layout(table_with(h, {{"AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS"}})));
  CHECK(h.game().phase() == Phase::deal_over);  // R-CA2: the empty hand knocks by itself
  const auto r = h.game().result();
  CHECK(r["end"] == "knock");
  CHECK(r["knocker"] == 0);
  CHECK(r["counts"] == Json::array({0, 7, 9}));
  CHECK(deal_points(r) == Json::array({41, 0, 0}));
  CHECK(r["bonuses"] == Json::array({25, 0, 0}));
  CHECK(r["scores"] == Json::array({41, 0, 0}));
}

TEST_CASE("carousel melds belong to the table: the view names no owner") {
  Harness h = e17c_before_k();
  for (const auto& meld : view(h)["melds"]) CHECK(meld["owner"].is_null());
  h.act(0, draw());
  h.act(0, layout(table_with(h, {{"AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS"}})));
  REQUIRE(view(h)["melds"].size() == 5);
  for (const auto& meld : view(h)["melds"]) CHECK(meld["owner"].is_null());
}

TEST_CASE("carousel melds belong to the table: a result for table_melds names no owner; version 1's still names a seat") {
  Harness h = e17c_before_k();
  h.act(0, draw());
  h.act(0, layout(table_with(h, {{"AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS"}})));
  REQUIRE(h.game().phase() == Phase::deal_over);
  const auto v1 = h.game().result();
  const auto shared = h.game().result_with_table_melds();
  REQUIRE(v1["melds"].size() == 5);
  REQUIRE(shared["melds"].size() == 5);
  for (std::size_t i = 0; i < 5; ++i) {
    CHECK(v1["melds"][i]["owner"].is_number_integer());
    CHECK(shared["melds"][i]["owner"].is_null());
    CHECK(shared["melds"][i]["cards"] == v1["melds"][i]["cards"]);
  }
  // Everything else is the same result.
  auto rest = shared;
  rest["melds"] = v1["melds"];
  CHECK(rest == v1);
}

TEST_CASE("E17d: a knock with a count of 6 is refused; knock is not listed; the state is unchanged") {
  Harness h = three(x_12, y_20, k_with("6H"), {"KD", "QD", "QS"});
  x_and_y_lay_out(h, {"KS", "KH", "KD"});
  h.act(0, draw());
  h.act(0, layout(table_with(h, {k_run})));
  CHECK(!has_action(h.legal(0), knock));
  CHECK(contains(why(h, 0, knock), "count of 5 or less; yours is 6"));
  h.act(0, finish);
  CHECK(h.game().phase() == Phase::playing);
}

TEST_CASE("carousel undercut: tied non-knockers each win with the bonus (R-CA6); a tie with the knocker undercuts") {
  const Cards x = {"AS", "AS", "AH", "AH", "KS", "KH", "5D", "6D", "7D", "8D"};  // + KD → 4
  const Cards y = {"AD", "AD", "AC", "AC", "QS", "QH", "5C", "6C", "7C", "8C"};  // + QD → 4
  Harness h = three(x, y, k_with("4H"), {"KD", "QD", "QS"});
  h.act(1, draw());
  h.act(1, layout({{"KS", "KH", "KD"}, {"5D", "6D", "7D", "8D"}}));
  h.act(1, finish);
  h.act(2, draw());
  h.act(2, layout(table_with(h, {{"QS", "QH", "QD"}, {"5C", "6C", "7C", "8C"}})));
  h.act(2, finish);
  h.act(0, draw());
  h.act(0, layout(table_with(h, {k_run})));
  h.act(0, knock);
  const auto r = h.game().result();
  CHECK(r["counts"] == Json::array({4, 4, 4}));
  CHECK(r["winners"] == Json::array({1, 2}));
  CHECK(deal_points(r) == Json::array({0, 10, 10}));
  CHECK(r["deals_won"] == Json::array({0, 1, 1}));
}

// ------------------------------------------------------------------ the stock runs out

namespace {
// Two players, the whole 53-card pack stacked: seat 1 is dealt and draws the
// spades, the hearts, KD and the joker (count 205); the dealer the clubs and AD…QD
// (count 160). Each turn draws three cards; seat 1 draws the last card.
std::vector<parlour::rules::Card> exhausted_deck() {
  Cards one, zero;
  for (char suit : std::string("SH"))
    for (char rank : std::string("A23456789TJQK")) one.push_back(std::string{rank, suit});
  one.push_back("KD");
  one.push_back("JK");
  for (char rank : std::string("A23456789TJQK")) zero.push_back(std::string{rank, 'C'});
  for (char rank : std::string("A23456789TJQ")) zero.push_back(std::string{rank, 'D'});
  Cards deck;
  for (int i = 0; i < 10; ++i) {
    deck.push_back(one[i]);
    deck.push_back(zero[i]);
  }
  std::size_t next_one = 10, next_zero = 10;
  for (int turn = 0; turn < 11; ++turn)
    for (int c = 0; c < 3; ++c) deck.push_back(turn % 2 == 0 ? one[next_one++] : zero[next_zero++]);
  return parlour::test::cards(deck);
}

void draw_out_the_stock(Harness& h) {
  for (int turn = 0; turn < 11; ++turn) {
    const int seat = h.game().to_act().front();
    for (int c = 0; c < 3; ++c) h.act(seat, draw());
  }
}

const Cards clubs = {"AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC"};
const Cards spades = {"AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS"};
}  // namespace

TEST_CASE("carousel stock exhausted: a final meld round from the last drawer's left, him last; lowest count wins") {
  Harness h("carousel", options(), {100, 100}, 1, exhausted_deck());
  draw_out_the_stock(h);
  auto v = view(h);
  CHECK(view_pile(v, "stock")["count"] == 0);
  CHECK(v["final_round"]["turns_left"] == 2);
  CHECK(h.game().to_act() == std::vector<int>{0});  // left of seat 1, who drew the last card
  CHECK(hand_size(h, 0) == 25);
  CHECK(hand_size(h, 1) == 28);
  // No drawing and no knocking any more; finish needs no layout.
  CHECK(!has_action(h.legal(0), draw()));
  CHECK(has_action(h.legal(0), finish));
  CHECK(contains(why(h, 0, draw()), "no more drawing"));
  CHECK(contains(why(h, 0, knock), "no knocking"));
  h.act(0, layout({clubs}));
  h.act(0, finish);
  CHECK(h.game().to_act() == std::vector<int>{1});
  h.act(1, layout({clubs, spades}));
  h.act(1, finish);
  CHECK(h.game().phase() == Phase::deal_over);
  const auto r = h.game().result();
  CHECK(r["end"] == "stock_exhausted");
  CHECK(r["counts"] == Json::array({75, 120}));  // 160 − 85 and 205 − 85
  CHECK(r["winners"] == Json::array({0}));
  CHECK(deal_points(r) == Json::array({45, 0}));
  CHECK(r["bonuses"] == Json::array({0, 0}));  // no bonuses
}

TEST_CASE("carousel stock exhausted: players tied for the lowest count each win what a sole winner would") {
  Harness h("carousel", options(), {100, 100}, 1, exhausted_deck());
  draw_out_the_stock(h);
  h.act(0, finish);
  h.act(1, layout({{"AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H"}}));  // 205 − 45
  h.act(1, finish);
  const auto r = h.game().result();
  CHECK(r["counts"] == Json::array({160, 160}));
  CHECK(r["winners"] == Json::array({1, 0}));
  CHECK(deal_points(r) == Json::array({0, 0}));
  CHECK(r["deals_won"] == Json::array({1, 1}));
}

TEST_CASE("carousel final meld round: an emptied hand does not knock, the round goes on; no going-out bonus") {
  Harness h("carousel", options(), {1000, 1000}, 1, exhausted_deck());
  draw_out_the_stock(h);
  h.act(0, layout({clubs, {"AD", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD"}}));
  CHECK(hand_size(h, 0) == 0);
  CHECK(h.game().to_act() == std::vector<int>{1});  // his last chance is over; seat 1 still has his
  h.act(1, finish);
  const auto r = h.game().result();
  CHECK(r["end"] == "stock_exhausted");
  CHECK(r["counts"] == Json::array({0, 205}));
  CHECK(deal_points(r) == Json::array({205, 0}));
  CHECK(r["bonuses"] == Json::array({0, 0}));
  // 205 reaches 150: the game is over; seat 1 scored nothing and pays double.
  CHECK(h.game().phase() == Phase::game_over);
  CHECK(r["final_scores"] == Json::array({330, 0}));
  CHECK(h.chips() == std::vector<std::int64_t>{1660, 340});
}

TEST_CASE("carousel stock exhausted on a second draw: the drawer's turn goes on without drawing, then the final round") {
  // Two players; seat 1 melds 7H 8H 9H on his first draw, so the 33-card stock runs
  // out on the dealer's second draw of his sixth turn.
  auto deck = deal_no_upcard({{"7H", "8H", "9H", "2C", "3D", "4S", "5C", "6D", "TS", "JC"},
                              {"AS", "AD", "AC", "2S", "3S", "4D", "5D", "6S", "TD", "QC"}},
                             {"KS"});
  Harness h("carousel", options(), {100, 100}, 3, deck);
  h.act(1, draw());
  h.act(1, layout({{"7H", "8H", "9H"}}));
  h.act(1, finish);
  for (int turn = 0; turn < 10; ++turn) {
    const int seat = h.game().to_act().front();
    for (int c = 0; c < 3; ++c) h.act(seat, draw());
  }
  CHECK(view_pile(view(h), "stock")["count"] == 2);
  CHECK(h.game().to_act() == std::vector<int>{0});
  h.act(0, draw());
  h.act(0, draw());
  CHECK(view_pile(view(h), "stock")["count"] == 0);
  CHECK(h.game().to_act() == std::vector<int>{0});  // his turn goes on
  CHECK(!view(h).contains("final_round"));
  CHECK(!has_action(h.legal(0), draw()));
  CHECK(has_action(h.legal(0), finish));
  CHECK(contains(why(h, 0, draw()), "exhausted"));
  h.act(0, finish);
  CHECK(view(h)["final_round"]["turns_left"] == 2);
  CHECK(h.game().to_act() == std::vector<int>{1});
  h.act(1, finish);
  CHECK(h.game().to_act() == std::vector<int>{0});
  h.act(0, finish);
  CHECK(h.game().result()["end"] == "stock_exhausted");
}

// ------------------------------------------------------------------ time limit

TEST_CASE("carousel withdraw (R-CA4): only with a time limit, never listed; no more turns, cannot win, hand counts") {
  Harness off = three(x_12, y_20, k_with("4H"), {"KD"});
  CHECK(contains(why(off, 1, withdraw), "no turn time limit"));

  // X lays out down to 3 and later withdraws; K knocks with 5. X's 3 cannot
  // undercut, and his hand counts for nothing below K's: K scores 50 − 5 = 45.
  const Cards x = {"AS", "AS", "AH", "KS", "KH", "KC", "5D", "6D", "7D", "8D"};
  Harness h = three(x, y_20, k_with("5H"), {"9D", "QD", "QS", "TH", "TD", "TC", "KS"},
                    options({{"turn_time_limit_s", 120}}));
  CHECK(view(h)["turn_time_limit_s"] == 120);
  h.act(1, draw());
  h.act(1, layout({{"KS", "KH", "KC"}, {"5D", "6D", "7D", "8D", "9D"}}));
  h.act(1, finish);
  h.act(2, draw());
  h.act(2, layout(table_with(h, {{"QS", "QH", "QD"}})));
  h.act(2, finish);
  h.act(0, draw());
  h.act(0, layout(table_with(h, {k_run})));
  h.act(0, finish);
  for (const auto& a : h.legal(1)) CHECK(a["type"] != "withdraw");
  h.act(1, withdraw);
  CHECK(view(h)["withdrawn"] == Json::array({1}));
  CHECK(h.game().to_act() == std::vector<int>{2});
  h.act(2, draw());
  h.act(2, draw());
  h.act(2, draw());  // Y: 20 + 30 = 50
  CHECK(h.game().to_act() == std::vector<int>{0});
  h.act(0, draw());  // KS
  auto melds = table_with(h, {});
  for (auto& m : melds)
    if (m.front() == "3S") m.push_back("KS");
  h.act(0, layout(melds));
  h.act(0, knock);
  const auto r = h.game().result();
  CHECK(r["counts"] == Json::array({5, 3, 50}));
  CHECK(r["winners"] == Json::array({0}));
  CHECK(deal_points(r) == Json::array({45, 0, 0}));
}

TEST_CASE("snapshot: restored after a withdrawal, the player stays out of the deal; the stock keeps its order") {
  Harness h = three(x_12, y_20, k_run, {"KD", "QD", "KC", "9H", "9C", "9D", "8H"}, options({{"turn_time_limit_s", 60}}));
  h.act(1, withdraw);
  const auto game = from_snapshot(h);
  CHECK(game->to_act() == std::vector<int>{2});
  game->apply(2, draw(), h.chips());  // KD, the stock's top
  Cards y = y_20;
  y.push_back("KD");
  CHECK(sorted_hand(*game, 2) == sorted(y));
  game->apply(2, draw(), h.chips());
  game->apply(2, draw(), h.chips());
  for (int c = 0; c < 3; ++c) game->apply(0, draw(), h.chips());
  CHECK(game->to_act() == std::vector<int>{2});  // the withdrawn seat 1 is skipped
}

TEST_CASE("carousel withdraw: a withdrawn player is skipped for the rest of the deal, back in the next") {
  Harness h("carousel", options({{"turn_time_limit_s", 60}}), {100, 100, 100}, 9);
  h.act(1, withdraw);
  for (int round = 0; round < 2; ++round) {
    CHECK(h.game().to_act() == std::vector<int>{2});
    for (int c = 0; c < 3; ++c) h.act(2, draw());
    CHECK(h.game().to_act() == std::vector<int>{0});
    for (int c = 0; c < 3; ++c) h.act(0, draw());
  }
  CHECK(hand_size(h, 1) == 10);
}

// ------------------------------------------------------------------ the game

TEST_CASE("carousel game: reaching 150 ends the game; winner +100 and +25 a deal; scoreless players pay double") {
  const Cards k = {"AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS"};
  const Cards y = {"KH", "KD", "KC", "KH", "KD", "KC", "QH", "QD", "QC", "JK"};  // 115
  const Cards z = {"QH", "QD", "QC", "JH", "JD", "JC", "JH", "JD", "JC", "JK"};  // 115
  Harness h("carousel", options(), {1000, 1000, 1000}, 1, deal_no_upcard({k, y, z}, {"JS"}));
  h.act(1, draw());
  h.act(1, layout({{"AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS"}}));
  CHECK(h.game().phase() == Phase::game_over);
  const auto r = h.game().result();
  CHECK(deal_points(r) == Json::array({0, 255, 0}));  // 115 + 115 + 25
  CHECK(r["game_winner"] == 1);
  CHECK(r["final_scores"] == Json::array({0, 380, 0}));  // 255 + 100 + 25
  CHECK(r["settlement"] == Json::array({
                               {{"from", 0}, {"to", 1}, {"points", 760}, {"chips", 760}, {"double", true}},
                               {{"from", 2}, {"to", 1}, {"points", 760}, {"chips", 760}, {"double", true}},
                           }));
  CHECK(h.chips() == std::vector<std::int64_t>{240, 2520, 240});
  CHECK(h.total() == 3000);
}

TEST_CASE("carousel game: an exact tie for the highest score at 150 or more plays another deal") {
  // Five players: X (seat 1) and Y (seat 2) each keep 5, K (seat 3) knocks with 5;
  // seats 4 and 0 hold 130 and 100. X and Y each score 125 + 95 + 10 = 230.
  const Cards x = {"AS", "AS", "AH", "AH", "AD", "KS", "KH", "5D", "6D", "7D"};  // + KC
  const Cards y = {"AD", "AC", "AC", "2C", "QS", "QH", "5C", "6C", "7C", "8C"};  // + QD
  const Cards w1 = {"KD", "KD", "QC", "QC", "JC", "JC", "TC", "TC", "JK", "JK"};
  const Cards w2 = {"TH", "TH", "TD", "TD", "JH", "JH", "JD", "JD", "QH", "KH"};
  Harness h("carousel", options(), {1000, 1000, 1000, 1000, 1000}, 1,
            deal_no_upcard({x, y, k_with("5H"), w1, w2}, {"KC", "QD", "QS"}));
  h.act(1, draw());
  h.act(1, layout({{"KS", "KH", "KC"}, {"5D", "6D", "7D"}}));
  h.act(1, finish);
  h.act(2, draw());
  h.act(2, layout(table_with(h, {{"QS", "QH", "QD"}, {"5C", "6C", "7C", "8C"}})));
  h.act(2, finish);
  h.act(3, draw());
  h.act(3, layout(table_with(h, {k_run})));
  h.act(3, knock);
  const auto r = h.game().result();
  CHECK(r["winners"] == Json::array({1, 2}));
  CHECK(deal_points(r) == Json::array({0, 230, 230, 0, 0}));
  CHECK(h.game().phase() == Phase::deal_over);  // not over: another deal
  CHECK(!r.contains("game_winner"));
  CHECK(h.chips() == std::vector<std::int64_t>(5, 1000));
  h.next_deal();
  CHECK(view(h)["deal"] == 2);
  CHECK(view(h)["dealer"] == 1);
  CHECK(view(h)["scores"] == Json::array({0, 230, 230, 0, 0}));
}

TEST_CASE("E18: final scores 280, 65, 0; X pays W 215, Y pays W 2 x 280 = 560, Y pays X 65") {
  namespace cs = parlour::rules::carousel;
  const std::vector<int> running = {155, 40, 0};  // W, X, Y
  const auto finals = cs::final_scores(running, {1, 1, 0}, 0);
  CHECK(finals == std::vector<std::int64_t>{280, 65, 0});
  const auto lines = cs::settlement(finals, running, 0, {true, true, true});
  REQUIRE(lines.size() == 3);
  CHECK((lines[0].from == 1 && lines[0].to == 0 && lines[0].points == 215 && !lines[0].doubled));
  CHECK((lines[1].from == 2 && lines[1].to == 0 && lines[1].points == 560 && lines[1].doubled));
  CHECK((lines[2].from == 2 && lines[2].to == 1 && lines[2].points == 65 && !lines[2].doubled));
  // A player who has left the table is out of the settlement.
  CHECK(cs::settlement(finals, running, 0, {true, false, true}).size() == 1);
}

TEST_CASE("carousel game: the deal cap (option deals) ends the game; the highest score wins") {
  Harness h = three(x_12, y_20, k_with("4H"), {"KD", "QD", "QS"}, options({{"deals", 1}, {"stake", 2}}));
  x_and_y_lay_out(h, {"KS", "KH", "KD"});
  h.act(0, draw());
  h.act(0, layout(table_with(h, {k_run})));
  h.act(0, knock);
  CHECK(h.game().phase() == Phase::game_over);
  const auto r = h.game().result();
  CHECK(r["game_winner"] == 0);
  CHECK(r["final_scores"] == Json::array({149, 0, 0}));  // 24 + 100 + 25
  CHECK(h.chips() == std::vector<std::int64_t>{1000 + 2 * 596, 1000 - 596, 1000 - 596});
}

TEST_CASE("carousel close mid-game: running scores and deals won settle, no game bonus, no double; chips conserved") {
  Harness h = three(x_12, y_20, k_with("4H"), {"KD", "QD", "QS"}, options({{"stake", 3}}));
  x_and_y_lay_out(h, {"KS", "KH", "KD"});
  h.act(0, draw());
  h.act(0, layout(table_with(h, {k_run})));
  h.act(0, knock);  // K 24
  h.next_deal();
  h.act(2, draw());
  h.close();
  CHECK(h.game().phase() == Phase::game_over);
  const auto r = h.game().result();
  CHECK(r["end"] == "closed");
  CHECK(r["final_scores"] == Json::array({49, 0, 0}));  // 24 + 25
  CHECK(r["game_winner"].is_null());
  CHECK(h.chips() == std::vector<std::int64_t>{1000 + 2 * 147, 1000 - 147, 1000 - 147});
  CHECK(h.total() == 3000);
  const auto after = h.close();  // nothing more to settle
  CHECK(after.transfers.empty());
}

// ------------------------------------------------------------------ views

TEST_CASE("carousel hidden information: other hands are counts only, the stock a number") {
  Cards one, zero;
  for (char rank : std::string("A23456789T")) {
    one.push_back(std::string{rank, 'S'});
    zero.push_back(std::string{rank, 'H'});
  }
  Harness h("carousel", options(), {100, 100}, 1, deal_no_upcard({one, zero}, {"JS", "QH"}));
  const auto mine = view(h, 1).dump();
  const auto theirs = view(h, 0).dump();
  const auto none = view(h).dump();
  for (const auto& c : one) {
    CHECK(contains(mine, "\"" + c + "\""));
    CHECK(!contains(theirs, "\"" + c + "\""));
    CHECK(!contains(none, "\"" + c + "\""));
  }
  for (const auto& c : zero) CHECK(!contains(mine, "\"" + c + "\""));
  for (const auto* stock_card : {"\"JS\"", "\"QH\""}) {
    CHECK(!contains(mine, stock_card));
    CHECK(!contains(none, stock_card));
  }
  CHECK(view(h, 0)["seats"][1]["count"] == 10);
  CHECK(view(h, 0)["seats"][1]["cards"][0] == "??");
  CHECK(view_pile(view(h), "stock")["count"] == 33);
  h.act(1, draw());
  CHECK(!contains(view(h, 0).dump(), "\"JS\""));
  CHECK(view(h, 0)["drawn"] == 1);
}

// ------------------------------------------------------------------ random deals

TEST_CASE("random deals: carousel, two to five players") {
  parlour::test::Playout spec;
  spec.game = "carousel";
  spec.min_deals = 1000;
  spec.players_lo = 2;
  spec.players_hi = 5;
  spec.pack_size = [](int players) { return std::size_t{players == 2 ? 53u : 106u}; };
  std::map<std::string, int> ends;
  spec.after_game = [&ends](Harness& h) {
    const auto r = h.game().result();
    ++ends[r["end"].get<std::string>()];
    CHECK(r.contains("final_scores"));
    CHECK(r.contains("settlement"));
  };
  parlour::test::random_playouts(spec);
  for (const auto& [end, count] : ends) CHECK((end == "knock" || end == "stock_exhausted"));
}

}  // namespace unity_test_carousel
