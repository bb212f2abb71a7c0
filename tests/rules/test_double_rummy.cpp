// Double Rummy, source 002 "Double Rummy"; rules/rummy.md §3.7, example E19.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "rules/random_play.h"
#include "rules/registry.h"
#include "rules/rng.h"
#include "tests/rules/harness.h"
#include "tests/rules/playout.h"
#include "tests/rules/rummy_kit.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_double_rummy {

using parlour::rules::Json;
using parlour::rules::Phase;
using parlour::test::cards;
using parlour::test::Harness;
using parlour::test::view_pile;
using namespace parlour::test::rummy_kit;

namespace {

constexpr int pack_size = 106;  // two packs and two jokers

// A stacked deal of the double pack, top first: the hands (play order, the dealer
// last) dealt one card at a time, then `fillers` stock cards nobody holds, then
// `then`; the rest of the pack follows shuffled.
std::vector<parlour::rules::Card> double_deck(const std::vector<std::vector<std::string>>& hands, int fillers,
                                              const std::vector<std::string>& then = {}) {
  std::vector<std::string> deck;
  for (std::size_t round = 0; round < hands[0].size(); ++round)
    for (const auto& hand : hands) deck.push_back(hand[round]);
  std::vector<std::string> spare;  // every card twice, then the jokers
  for (int copy = 0; copy < 2; ++copy) spare.insert(spare.end(), all_cards.begin(), all_cards.end());
  spare.insert(spare.end(), {"JK", "JK"});
  auto take_out = [&spare](const std::string& card) {
    if (auto it = std::find(spare.begin(), spare.end(), card); it != spare.end()) spare.erase(it);
  };
  for (const auto& c : deck) take_out(c);
  for (const auto& c : then) take_out(c);
  for (int i = 0; i < fillers; ++i) deck.push_back(spare[i]);
  deck.insert(deck.end(), then.begin(), then.end());
  return cards(deck);
}

// Stock cards drawn before the break: the stock falls to the number of players.
int before_break(int players) { return pack_size - 10 * players - players; }

Json with_wilds(Json action, std::vector<std::string> wilds) {
  action["wilds"] = wilds;
  return action;
}

Json shift(int meld_index, const std::string& natural, const std::string& joker_to) {
  return {{"type", "lay_off"}, {"meld", meld_index}, {"cards", {natural}}, {"shift", joker_to}};
}

Json table_cards(Harness& h, int meld_index) { return h.game().view(std::nullopt)["melds"][meld_index]["cards"]; }

// Two players at the break: B (seat 1, the leader) breaks, then A (seat 0, the dealer).
// B melds 7H 9H JK as a run (the joker declared 8H), twos and kings, and keeps 4D.
// A holds the natural 8H, the other joker and AC.
const std::vector<std::string> breaker_b = {"7H", "9H", "JK", "2S", "2D", "2C", "KS", "KD", "KC", "4D"};
const std::vector<std::string> dealer_a = {"8H", "3S", "3H", "3D", "6S", "6D", "6C", "JK", "AC", "KH"};

Harness at_break(Json opts = Json::object(), const std::vector<std::string>& a = dealer_a) {
  Harness h("double_rummy", opts, {100, 100}, 1, double_deck({breaker_b, a}, before_break(2), {"QC", "9C"}));
  play_to_break(h);
  REQUIRE(h.game().view(1)["break"]["breaker"] == 1);
  // B draws QC, melds everything, discards QC and keeps 4D.
  h.act(1, draw());
  h.act(1, with_wilds(meld({"7H", "9H", "JK"}), {"8H"}));
  h.act(1, meld({"2S", "2D", "2C"}));
  h.act(1, meld({"KS", "KD", "KC"}));
  h.act(1, discard("QC"));
  h.act(0, draw());  // 9C
  h.act(0, meld({"3S", "3H", "3D"}));
  h.act(0, meld({"6S", "6D", "6C"}));
  return h;
}

}  // namespace

TEST_CASE("deal: two packs and two jokers, ten cards each, two to six players; no upcard") {
  for (int players = 2; players <= 6; ++players) {
    Harness h("double_rummy", options(), std::vector<std::int64_t>(players, 100), static_cast<std::uint64_t>(players));
    auto view = h.game().view(1);
    CHECK(view["seats"][1]["cards"].size() == 10);
    CHECK(view["seats"][0]["cards"][0] == "??");
    CHECK(view_pile(view, "discard")["top"].is_null());
    CHECK(view_pile(view, "stock")["count"] == pack_size - 10 * players);
    CHECK(h.game().to_act() == std::vector<int>{1});
    CHECK(h.legal(1) == Json::array({draw()}));
  }
  const auto* info = parlour::rules::Registry::builtin().find("double_rummy");
  REQUIRE(info != nullptr);
  CHECK(info->min_players == 2);
  CHECK(info->max_players == 6);
  CHECK(info->summary.find("best with 4-6") != std::string::npos);  // R-D1
  CHECK(info->source == "002");
}

TEST_CASE("the pack holds every card twice and two jokers, no more") {
  std::vector<std::string> doubled = {"AS", "AS", "JK", "JK"};
  CHECK_NOTHROW(Harness("double_rummy", options(), {100, 100}, 1, cards(doubled)));
  CHECK_THROWS_AS(Harness("double_rummy", options(), {100, 100}, 1, cards({"AS", "AS", "AS"})), parlour::rules::SetupError);
  CHECK_THROWS_AS(Harness("double_rummy", options(), {100, 100}, 1, cards({"JK", "JK", "JK"})), parlour::rules::SetupError);
}

TEST_CASE("options: straight family options; no hand_size; bad values refused") {
  const auto* info = parlour::rules::Registry::builtin().find("double_rummy");
  REQUIRE(info != nullptr);
  using parlour::rules::Registry;
  using parlour::rules::SetupError;
  auto filled = Registry::validate_options(*info, Json::object());
  CHECK(filled["payoff"] == "units");
  CHECK(filled["initial_upcard"] == false);
  CHECK(filled["one_suit_rule"] == "single_run");
  CHECK_NOTHROW(Registry::validate_options(*info, {{"payoff", "points"}, {"stake", 5}}));
  CHECK_THROWS_AS(Registry::validate_options(*info, {{"payoff", "double"}}), SetupError);
  CHECK_THROWS_AS(Registry::validate_options(*info, {{"hand_size", 7}}), SetupError);
  CHECK_THROWS_AS(Registry::validate_options(*info, {{"stake", 0}}), SetupError);
}

TEST_CASE("before the break no meld or lay-off: the whole hand goes down at once") {
  auto deck = double_deck({{"7S", "7S", "7D", "KS", "KH", "KD", "JK", "5C", "6C", "QH"}, dealer_a}, 0, {"2H"});
  Harness h("double_rummy", options(), {100, 100}, 1, deck);
  h.act(1, draw());
  CHECK(h.refusal(1, meld({"7S", "7S", "7D"})) == "illegal_action");
  CHECK(h.refusal(1, go_rummy({{"7S", "7S", "7D"}, {"KS", "KH", "KD"}, {"JK", "5C", "6C"}}, "QH")) ==
        "illegal_action");  // 2H left over
  for (const auto& a : h.legal(1)) CHECK(a["type"] == "discard");
}

TEST_CASE("E19: groups are any three or more of a rank, duplicates allowed; runs A-2-3 and Q-K-A, never K-A-2") {
  // Rummy on the first pick: 7S 7S 7D 7H 7C (five sevens, two of them the same card),
  // QD KD AD and AC 2C 3C, drawing 9H to discard.
  auto hand = std::vector<std::string>{"7S", "7S", "7D", "7H", "7C", "QD", "KD", "AD", "AC", "2C"};
  auto deck = double_deck({hand, dealer_a}, 0, {"3C", "9H"});
  Harness h("double_rummy", options(), {100, 100}, 1, deck);
  h.act(1, draw());  // 3C
  h.act(1, go_rummy({{"7S", "7S", "7D", "7H", "7C"}, {"QD", "KD", "AD"}, {"AC", "2C", "3C"}}));
  CHECK(h.game().result()["winner"] == 1);
  CHECK(h.game().result()["units"] == 4);  // first pick
}

TEST_CASE("E19: in the break meld 7S 7S 7D is accepted and K-A-2 refused (ace_wrap_not_allowed)") {
  auto b = std::vector<std::string>{"7S", "7S", "7D", "KH", "AH", "2H", "5C", "9D", "JS", "4H"};
  Harness h("double_rummy", options(), {100, 100}, 1, double_deck({b, dealer_a}, before_break(2), {"QC", "9C"}));
  play_to_break(h);
  h.act(1, draw());
  h.act(1, meld({"7S", "7S", "7D"}));
  CHECK(table_cards(h, 0) == Json::array({"7S", "7S", "7D"}));
  try {
    h.act(1, meld({"KH", "AH", "2H"}));
    FAIL("K-A-2 was accepted");
  } catch (const parlour::rules::RulesError& e) {
    CHECK(std::string(e.code()) == "illegal_action");
    CHECK(std::string(e.what()).find("(ace_wrap_not_allowed)") != std::string::npos);
  }
  CHECK(h.refusal(1, meld({"KH", "AH", "2H"})) == "illegal_action");  // and nothing changed
}

TEST_CASE("going rummy with a joker: declared as JK=8S, or left to the server; the table shows what it stands for") {
  auto hand = std::vector<std::string>{"5S", "6S", "7S", "JK", "QH", "QH", "QD", "AD", "2D", "3D"};
  for (bool declared : {true, false}) {
    auto deck = double_deck({hand, dealer_a}, 0, {"KC"});
    Harness h("double_rummy", options(), {100, 100}, 1, deck);
    h.act(1, draw());
    // A wrong declaration is refused and changes nothing.
    CHECK(h.refusal(1, go_rummy({{"5S", "6S", "7S", "JK=9S"}, {"QH", "QH", "QD"}, {"AD", "2D", "3D"}}, "KC")) ==
          "illegal_action");
    CHECK(h.refusal(1, go_rummy({{"5S", "6S", "7S=8S", "JK"}, {"QH", "QH", "QD"}, {"AD", "2D", "3D"}}, "KC")) ==
          "illegal_action");  // only a wild stands for another card
    // The listed rummy writes the joker as the card it stands for.
    Json listed;
    for (const auto& a : h.legal(1))
      if (a["type"] == "go_rummy" && a.value("discard", "") == "KC") listed = a;
    REQUIRE(listed.is_object());
    CHECK(listed["melds"].dump().find("JK=") != std::string::npos);
    const std::string joker = declared ? "JK=8S" : "JK";
    h.act(1, go_rummy({{"5S", "6S", "7S", joker}, {"QH", "QH", "QD"}, {"AD", "2D", "3D"}}, "KC"));
    CHECK(h.game().result()["winner"] == 1);
    auto table = h.game().view(std::nullopt)["melds"];
    CHECK(table[0]["cards"] == Json::array({"5S", "6S", "7S", "JK=8S"}));
  }
}

TEST_CASE("E19: the joker makes way for the natural 8H and moves to either end, the player's choice") {
  for (const auto& [to, run] : std::vector<std::pair<std::string, Json>>{
           {"TH", Json::array({"7H", "8H", "9H", "JK=TH"})}, {"6H", Json::array({"JK=6H", "7H", "8H", "9H"})}}) {
    auto h = at_break();
    CHECK(table_cards(h, 0) == Json::array({"7H", "JK=8H", "9H"}));
    // Both ends are listed; the plain lay-off of 8H is not (the run holds an 8H already).
    CHECK(has_action(h.legal(0), shift(0, "8H", "TH")));
    CHECK(has_action(h.legal(0), shift(0, "8H", "6H")));
    CHECK(!has_action(h.legal(0), lay_off(0, {"8H"})));
    h.act(0, shift(0, "8H", to));
    CHECK(table_cards(h, 0) == run);
    CHECK(h.game().view(0)["seats"][0]["count"] == 4);  // JK AC KH 9C: the joker stays on the table
  }
}

TEST_CASE("E19: JK 3C 4C + the natural 2C: the joker becomes 5C (or the ace below, the other end that can extend)") {
  auto b = std::vector<std::string>{"3C", "4C", "JK", "2S", "2D", "2H", "KS", "KD", "KC", "4D"};
  auto a = std::vector<std::string>{"2C", "3S", "3H", "3D", "6S", "6D", "6C", "TS", "JS", "QS"};
  Harness h("double_rummy", options(), {100, 100}, 1, double_deck({b, a}, before_break(2), {"9H", "8D"}));
  play_to_break(h);
  h.act(1, draw());
  h.act(1, with_wilds(meld({"JK", "3C", "4C"}), {"2C"}));
  CHECK(table_cards(h, 0) == Json::array({"JK=2C", "3C", "4C"}));
  h.act(1, meld({"2S", "2D", "2H"}));
  h.act(1, meld({"KS", "KD", "KC"}));
  h.act(1, discard("9H"));
  h.act(0, draw());
  std::vector<std::string> ends;
  for (const auto& act : h.legal(0))
    if (act.contains("shift")) ends.push_back(act["shift"]);
  CHECK(ends == std::vector<std::string>{"AC", "5C"});
  CHECK(h.refusal(0, shift(0, "2C", "6C")) == "illegal_action");  // not next to an end
  h.act(0, shift(0, "2C", "5C"));
  CHECK(table_cards(h, 0) == Json::array({"2C", "3C", "4C", "JK=5C"}));
}

TEST_CASE("the joker moves only to an end that can extend: Q K JK=A + AH sends it to J, never round the corner") {
  auto b = std::vector<std::string>{"QH", "KH", "JK", "2S", "2D", "2C", "5S", "5D", "5C", "4D"};
  auto a = std::vector<std::string>{"AH", "3S", "3H", "3D", "6S", "6D", "6C", "TS", "JS", "QS"};
  Harness h("double_rummy", options(), {100, 100}, 1, double_deck({b, a}, before_break(2), {"9H", "8D"}));
  play_to_break(h);
  h.act(1, draw());
  h.act(1, with_wilds(meld({"QH", "KH", "JK"}), {"AH"}));
  h.act(1, meld({"2S", "2D", "2C"}));
  h.act(1, meld({"5S", "5D", "5C"}));
  h.act(1, discard("9H"));
  h.act(0, draw());
  std::vector<std::string> ends;
  for (const auto& act : h.legal(0))
    if (act.contains("shift")) ends.push_back(act["shift"]);
  CHECK(ends == std::vector<std::string>{"JH"});
  CHECK(h.refusal(0, shift(0, "AH", "2H")) == "illegal_action");  // K-A-2 is no run here
  h.act(0, shift(0, "AH", "JH"));
  CHECK(table_cards(h, 0) == Json::array({"JK=JH", "QH", "KH", "AH"}));
}

TEST_CASE("shift refusals change nothing: no joker stands for the card, a card not at an end, two cards, no shift") {
  auto h = at_break();
  CHECK(h.refusal(0, lay_off(0, {"8H"})) == "illegal_action");      // duplicate 8H: the joker must move
  CHECK(h.refusal(0, shift(0, "8H", "JH")) == "illegal_action");    // not next to an end
  CHECK(h.refusal(0, shift(0, "8H", "8H")) == "illegal_action");
  CHECK(h.refusal(0, shift(1, "KH", "KS")) == "illegal_action");    // the twos hold no joker
  CHECK(h.refusal(0, shift(2, "KH", "KS")) == "illegal_action");    // groups never move a joker
  CHECK(h.refusal(0, {{"type", "lay_off"}, {"meld", 0}, {"cards", {"8H", "KH"}}, {"shift", "TH"}}) == "illegal_action");
  CHECK(h.refusal(0, shift(0, "9C", "TH")) == "illegal_action");
  CHECK(h.refusal(0, shift(7, "8H", "TH")) == "illegal_action");
  CHECK(h.refusal(1, shift(0, "8H", "TH")) == "not_your_turn");
  // A natural that no joker stands for lays off as usual.
  h.act(0, lay_off(2, {"KH"}));
  CHECK(table_cards(h, 2) == Json::array({"KS", "KD", "KC", "KH"}));
}

TEST_CASE("R-D2: the joker moves as often as a natural takes its place") {
  // A holds 8H and TH: 7H JK=8H 9H -> 7H 8H 9H JK=TH -> 7H 8H 9H TH JK=JH.
  auto h = at_break(options(), {"8H", "3S", "3H", "3D", "6S", "6D", "6C", "TH", "AC", "KH"});
  h.act(0, shift(0, "8H", "TH"));
  CHECK(has_action(h.legal(0), shift(0, "TH", "JH")));
  CHECK(has_action(h.legal(0), shift(0, "TH", "6H")));
  h.act(0, shift(0, "TH", "JH"));
  CHECK(table_cards(h, 0) == Json::array({"7H", "8H", "9H", "TH", "JK=JH"}));
}

TEST_CASE("no recapture: nothing takes a joker back into a hand; every action listed at a shift applies") {
  auto h = at_break();
  h.act(0, shift(0, "8H", "TH"));
  // Nothing listed would take a joker off the table.
  for (const auto& act : h.legal(0)) {
    CHECK(act["type"] != "draw");
    CHECK((act["type"] == "lay_off" || act["type"] == "discard" || act["type"] == "meld"));
  }
  // Every action listed at the shift is accepted (replayed on a fresh table).
  auto fresh = at_break();
  for (const auto& act : fresh.legal(0)) {
    auto replay = at_break();
    CHECK_NOTHROW(replay.act(0, act));
  }
}

TEST_CASE("E19: a joker left in the hand counts 15 and an ace 11: JK + AC = 26 at the showdown") {
  auto h = at_break(options({{"payoff", "points"}, {"stake", 2}}));
  h.act(0, shift(0, "8H", "TH"));
  h.act(0, lay_off(2, {"KH"}));
  // JK AC 9C hold no meld: A keeps the joker and the ace.
  CHECK(h.refusal(0, meld({"JK", "AC", "9C"})) == "illegal_action");
  h.act(0, discard("9C"));
  CHECK(h.game().phase() == Phase::deal_over);
  auto result = h.game().result();
  CHECK(result["end"] == "break");
  CHECK(result["counts"] == Json::array({26, 4}));
  CHECK(result["winners"] == Json::array({1}));
  CHECK(result["hands"][0]["cards"] == Json::array({"JK", "AC"}));
  CHECK(h.chips() == std::vector<std::int64_t>{100 - 22 * 2, 100 + 22 * 2});
}

TEST_CASE("the showdown: the lowest unmatched count wins one unit from each") {
  auto h = at_break();
  h.act(0, shift(0, "8H", "6H"));
  h.act(0, discard("KH"));
  auto result = h.game().result();
  CHECK(result["counts"] == Json::array({35, 4}));  // JK 15 + AC 11 + 9C 9
  CHECK(result["units"] == 1);
  CHECK(h.chips() == std::vector<std::int64_t>{99, 101});
}

TEST_CASE("R-S2 with a joker: a joker and two cards it completes are a meld that must go down") {
  auto b = breaker_b;
  auto a = std::vector<std::string>{"8H", "3S", "3H", "3D", "6S", "6D", "6C", "JK", "TC", "KH"};
  Harness h("double_rummy", options(), {100, 100}, 1, double_deck({b, a}, before_break(2), {"QC", "9C"}));
  play_to_break(h);
  h.act(1, draw());
  h.act(1, with_wilds(meld({"7H", "9H", "JK"}), {"8H"}));
  h.act(1, meld({"2S", "2D", "2C"}));
  h.act(1, meld({"KS", "KD", "KC"}));
  h.act(1, discard("QC"));
  h.act(0, draw());  // 9C: 9C TC and the joker make a run
  h.act(0, meld({"3S", "3H", "3D"}));
  h.act(0, meld({"6S", "6D", "6C"}));
  CHECK(h.refusal(0, discard("KH")) == "illegal_action");
  for (const auto& act : h.legal(0)) CHECK(act["type"] != "discard");
  h.act(0, with_wilds(meld({"9C", "TC", "JK"}), {"8C"}));
  CHECK(table_cards(h, 5) == Json::array({"JK=8C", "9C", "TC"}));
  h.act(0, discard("KH"));
  CHECK(h.game().result()["counts"] == Json::array({8, 4}));  // 8H
}

TEST_CASE("a joker laid off in the break goes to the end the player declares") {
  auto h = at_break();
  h.act(0, with_wilds(lay_off(0, {"JK"}), {"6H"}));  // or TH: the player says which end
  CHECK(table_cards(h, 0) == Json::array({"JK=6H", "7H", "JK=8H", "9H"}));
  CHECK(h.refusal(0, with_wilds(lay_off(0, {"8H"}), {"TH"})) == "illegal_action");
  // The natural 8H still moves B's joker, to either end: below A's joker, or the top.
  CHECK(has_action(h.legal(0), shift(0, "8H", "TH")));
  CHECK(has_action(h.legal(0), shift(0, "8H", "5H")));
  h.act(0, shift(0, "8H", "5H"));
  CHECK(table_cards(h, 0) == Json::array({"JK=5H", "JK=6H", "7H", "8H", "9H"}));
}

TEST_CASE("legal lists a joker's lay-off on a run once for each end it may take") {
  auto h = at_break();
  CHECK(has_action(h.legal(0), with_wilds(lay_off(0, {"JK"}), {"6H"})));
  CHECK(has_action(h.legal(0), with_wilds(lay_off(0, {"JK"}), {"TH"})));
}

TEST_CASE("payoffs: rummy before the break 2 units; one run of one suit with a joker and a high ace 4 units") {
  auto opponent = std::vector<std::string>{"KC", "QC", "9H", "7H", "5D", "3C", "2D", "8D", "JH", "4S"};
  SUBCASE("two units") {
    auto hand = std::vector<std::string>{"5S", "6S", "JK", "QH", "QH", "QD", "AD", "2D", "3D", "9C"};
    Harness h("double_rummy", options({{"stake", 5}}), {100, 100}, 1, double_deck({hand, opponent}, 0, {"4H", "TC", "8S"}));
    h.act(1, draw());
    h.act(1, discard("4H"));
    h.act(0, draw());
    h.act(0, discard("TC"));
    h.act(1, draw());  // 8S
    h.act(1, go_rummy({{"5S", "6S", "JK=7S", "8S"}, {"QH", "QH", "QD"}, {"AD", "2D", "3D"}}, "9C"));
    CHECK(h.game().result()["units"] == 2);
    CHECK(h.chips() == std::vector<std::int64_t>{90, 110});
  }
  SUBCASE("four units: 5S..KS AS with the joker as 8S, split into two melds") {
    auto hand = std::vector<std::string>{"5S", "6S", "7S", "JK", "9S", "TS", "JS", "QS", "KS", "AS"};
    Harness h("double_rummy", options(), {100, 100}, 1, double_deck({hand, opponent}, 0, {"4H", "TC", "2C"}));
    h.act(1, draw());
    h.act(1, discard("4H"));
    h.act(0, draw());
    h.act(0, discard("TC"));
    h.act(1, draw());  // 2C
    h.act(1, go_rummy({{"5S", "6S", "7S", "JK=8S"}, {"9S", "TS", "JS", "QS", "KS", "AS"}}, "2C"));
    CHECK(h.game().result()["units"] == 4);
    CHECK(h.chips() == std::vector<std::int64_t>{96, 104});
  }
}

TEST_CASE("payoff=points: a loser's count before the break is his best arrangement, jokers used, aces 11") {
  auto opponent = std::vector<std::string>{"KC", "QC", "9H", "7H", "5D", "3C", "2D", "8D", "JK", "4S"};
  auto hand = std::vector<std::string>{"5S", "6S", "7S", "8S", "QH", "QH", "QD", "AD", "2D", "3D"};
  Harness h("double_rummy", options({{"payoff", "points"}}), {100, 100}, 1,
            double_deck({hand, opponent}, 0, {"4H", "TC", "9C"}));
  h.act(1, draw());
  h.act(1, discard("4H"));
  h.act(0, draw());  // TC
  h.act(0, discard("8D"));
  h.act(1, draw());  // 9C
  h.act(1, go_rummy({{"5S", "6S", "7S", "8S"}, {"QH", "QH", "QD"}, {"AD", "2D", "3D"}}, "9C"));
  // A holds KC QC TC JK 9H 7H 5D 3C 2D 4S. Best: TC JK=JC QC KC melded, 9H 7H 5D 3C 2D 4S = 30 left
  // (QC KC JK=AC would leave 40, 7H JK=8H 9H 44). Rummy on the second turn: two units.
  CHECK(h.game().result()["counts"][0] == 30);
  CHECK(h.chips() == std::vector<std::int64_t>{40, 160});
}

TEST_CASE("hidden information: hands and the stock order are private, counts public; all shown after the deal") {
  Harness h("double_rummy", options(), {100, 100, 100, 100}, 11);
  const auto spectator = h.game().view(std::nullopt);
  for (int s = 0; s < 4; ++s) {
    CHECK(spectator["seats"][s]["count"] == 10);
    for (const auto& c : spectator["seats"][s]["cards"]) CHECK(c == "??");
    const auto own = h.game().view(s);
    for (int other = 0; other < 4; ++other)
      if (other != s)
        for (const auto& c : own["seats"][other]["cards"]) CHECK(c == "??");
  }
  CHECK(view_pile(spectator, "stock")["count"] == pack_size - 40);
  CHECK(view_pile(spectator, "stock")["count"].is_number());
  CHECK(!spectator.contains("stock_cards"));
}

TEST_CASE("hidden information in the break: unmatched cards stay hidden until the showdown") {
  auto h = at_break();
  CHECK(h.game().view(0)["seats"][1]["cards"] == Json::array({"??"}));
  CHECK(h.game().view(1)["seats"][1]["cards"] == Json::array({"4D"}));
  CHECK(h.game().view(1)["seats"][0]["cards"] == Json::array({"??", "??", "??", "??", "??"}));
  h.act(0, shift(0, "8H", "TH"));
  h.act(0, discard("KH"));
  auto hands = h.game().result()["hands"];
  CHECK(hands[1]["cards"] == Json::array({"4D"}));
  CHECK(hands[0]["cards"] == Json::array({"JK", "AC", "9C"}));
}

TEST_CASE("refusals change nothing: out of turn, cards not held, unknown actions") {
  Harness h("double_rummy", options(), {100, 100, 100}, 3);
  CHECK(h.refusal(2, draw()) == "not_your_turn");
  CHECK(h.refusal(1, discard("AS")) == "illegal_action");
  CHECK(h.refusal(1, {{"type", "layout"}, {"melds", Json::array()}}) == "illegal_action");
  h.act(1, draw());
  CHECK(h.refusal(1, draw()) == "illegal_action");
  CHECK(h.refusal(1, shift(0, "8H", "TH")) == "illegal_action");  // no table before the break
}

TEST_CASE("random deals: two to six players, units and points; cards and chips conserved, every deal ends") {
  for (const auto& payoff : {"units", "points"}) {
    parlour::test::Playout spec;
    spec.game = "double_rummy";
    spec.options = options({{"payoff", payoff}});
    spec.min_deals = 500;
    spec.players_lo = 2;
    spec.players_hi = 6;
    spec.seed_base = payoff == std::string("units") ? 0 : 50000;
    spec.pack_size = [](int) { return std::size_t{pack_size}; };
    std::map<std::string, int> ends;
    spec.after_game = [&ends](Harness& h) { ++ends[h.game().result()["end"].get<std::string>()]; };
    parlour::test::random_playouts(spec);
    CHECK(ends["break"] > 0);
    for (const auto& [end, count] : ends) CHECK((end == "break" || end == "went_out"));
  }
}

// One step in this many, the game is restored from its snapshot and compared (as random_playouts does).
constexpr std::uint64_t kSnapshotOneIn = 150;

TEST_CASE("random breaks that take every listed shift: cards conserved, jokers only ever join the table") {
  int shifts = 0;
  for (std::uint64_t seed = 1; seed <= 120; ++seed) {
    const int players = 4 + static_cast<int>(seed % 3);
    Harness h("double_rummy", options(), std::vector<std::int64_t>(players, 1000), seed);
    parlour::rules::Rng rng(seed * 31);
    parlour::rules::Rng snapshot_rng(seed * 7907 + 5);  // its own, so the games played stay the same
    const auto total = h.total();
    int jokers_on_table = 0;
    while (h.game().phase() == Phase::playing) {
      const int seat = h.game().to_act().front();
      const auto legal = h.legal(seat);
      REQUIRE(!legal.empty());
      if (snapshot_rng.below(kSnapshotOneIn) == 0) parlour::test::snapshot_round_trips(h, snapshot_rng);
      Json chosen;
      for (const auto& a : legal)
        if (a.contains("shift")) chosen = a;  // a shift whenever one is listed
      if (chosen.is_null()) chosen = parlour::rules::random_legal_action(legal, rng);
      h.act(seat, chosen);
      if (chosen.contains("shift")) ++shifts;
      const auto view = h.game().view(std::nullopt);
      std::size_t cards = view_pile(view, "stock")["count"].get<std::size_t>() + view_pile(view, "discard")["count"].get<std::size_t>();
      int jokers = 0;
      for (const auto& hand : view["seats"]) cards += hand["count"].get<std::size_t>();
      for (const auto& meld : view["melds"])
        for (const auto& c : meld["cards"]) {
          ++cards;
          if (c.get<std::string>().rfind("JK", 0) == 0) ++jokers;
        }
      CHECK(cards == static_cast<std::size_t>(pack_size));
      CHECK(jokers >= jokers_on_table);  // never recaptured
      jokers_on_table = jokers;
    }
    parlour::test::snapshot_round_trips(h, snapshot_rng);  // at the deal's end
    CHECK(h.total() == total);
  }
  CHECK(shifts > 0);
  MESSAGE("shift lay-offs taken: " << shifts);
}

}  // namespace unity_test_double_rummy
