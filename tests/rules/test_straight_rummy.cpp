// Straight Rummy, source 002 "Straight Rummy"; rules/rummy.md §3.0–3.1, example E13.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>

#include "rules/registry.h"
#include "rules/rng.h"
#include "tests/rules/harness.h"
#include "tests/rules/rummy_kit.h"
#include "tests/rules/playout.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_straight_rummy {

using parlour::rules::Json;
using parlour::rules::Phase;
using parlour::test::cards;
using parlour::test::Harness;
using parlour::test::view_pile;
using namespace parlour::test::rummy_kit;

namespace {

// Four players, seven cards: A = seat 0 (dealer), B = 1 (leader), C = 2, D = 3.
// Hands of no melds, for the rummy payoffs.
const std::vector<std::string> hand_c = {"QH", "JS", "9D", "8C", "5S", "3H", "AD"};
const std::vector<std::string> hand_d = {"QD", "JH", "9C", "8S", "5H", "3D", "AC"};
const std::vector<std::string> hand_a = {"QC", "JD", "9S", "8H", "5D", "3C", "2S"};
// For two players against a run of spades.
const std::vector<std::string> opponent = {"KC", "QC", "9H", "7H", "5D", "3C", "2D"};

}  // namespace

TEST_CASE("deal: 7 cards by default, 6 as an option; no upcard; the leader draws the stock top first") {
  for (auto [players, size] : std::vector<std::pair<int, int>>{{2, 7}, {5, 7}, {4, 6}, {6, 6}}) {
    Harness h("straight_rummy", options({{"hand_size", size}}), std::vector<std::int64_t>(players, 100));
    auto view = h.game().view(1);
    CHECK(view["seats"][1]["cards"].size() == static_cast<std::size_t>(size));
    CHECK(view["seats"][0]["cards"][0] == "??");
    CHECK(view_pile(view, "discard")["top"].is_null());
    CHECK(view_pile(view, "stock")["count"] == 52 - players * size);
    CHECK(h.game().to_act() == std::vector<int>{1});
    CHECK(h.legal(1) == Json::array({draw()}));
    CHECK(h.refusal(1, draw("discard")) == "illegal_action");
  }
  const auto* info = parlour::rules::Registry::builtin().find("straight_rummy");
  REQUIRE(info != nullptr);
  CHECK(info->max_players_with(options({{"hand_size", 7}})) == 5);
  CHECK(info->max_players_with(options({{"hand_size", 6}})) == 6);
}

TEST_CASE("deal: cards go one at a time from the dealer's left, the dealer last") {
  auto deck = deal_no_upcard({{"AS", "2S", "3S", "4S", "5S", "6S", "7S"}, {"AH", "2H", "3H", "4H", "5H", "6H", "7H"}}, {"KC"});
  Harness h("straight_rummy", options(), {100, 100}, 1, deck);
  CHECK(h.game().view(1)["seats"][1]["cards"] == Json::array({"AS", "2S", "3S", "4S", "5S", "6S", "7S"}));
  CHECK(h.game().view(0)["seats"][0]["cards"] == Json::array({"AH", "2H", "3H", "4H", "5H", "6H", "7H"}));
  h.act(1, draw());
  CHECK(last_card(h, 1) == "KC");
}

TEST_CASE("option initial_upcard turns an upcard, which the leader may take") {
  auto deck = deal_no_upcard({hand_c, hand_d}, {"8H", "KC"});
  Harness h("straight_rummy", options({{"initial_upcard", true}}), {100, 100}, 1, deck);
  CHECK(view_pile(h.game().view(1), "discard")["top"] == "8H");
  CHECK(view_pile(h.game().view(1), "stock")["count"] == 52 - 14 - 1);
  h.act(1, draw("discard"));
  CHECK(h.refusal(1, discard("8H")) == "illegal_action");  // R-G1
}

TEST_CASE("before the break no meld or lay-off: the whole hand goes down at once or not at all") {
  auto deck = deal_no_upcard({{"7S", "7H", "7D", "KS", "KH", "KD", "2C"}, hand_a}, {"5C"});
  Harness h("straight_rummy", options(), {100, 100}, 1, deck);
  h.act(1, draw());
  CHECK(h.refusal(1, meld({"7S", "7H", "7D"})) == "illegal_action");
  CHECK(h.refusal(1, go_rummy({{"7S", "7H", "7D"}, {"KS", "KH", "KD"}})) == "illegal_action");  // two cards left
  CHECK(h.refusal(1, go_rummy({{"7S", "7H", "7D", "KS"}})) == "illegal_action");
  for (const auto& a : h.legal(1)) CHECK(a["type"] == "discard");
}

TEST_CASE("E13: going rummy before the break collects two units from each of three players") {
  auto deck = deal_no_upcard({{"7S", "7H", "7D", "KS", "KH", "KD", "2C"}, hand_c, hand_d, hand_a},
                    {"QS", "TD", "TH", "TC", "7C"});
  Harness h("straight_rummy", options({{"stake", 5}}), {100, 100, 100, 100}, 1, deck);
  h.act(1, draw());  // QS
  h.act(1, discard("QS"));
  for (int seat : {2, 3, 0}) {
    h.act(seat, draw());
    h.act(seat, discard(last_card(h, seat)));
  }
  h.act(1, draw());  // 7C
  h.act(1, go_rummy({{"7S", "7H", "7D", "7C"}, {"KS", "KH", "KD"}}, "2C"));
  CHECK(h.game().phase() == Phase::deal_over);
  auto result = h.game().result();
  CHECK(result["winner"] == 1);
  CHECK(result["units"] == 2);
  CHECK(h.chips() == std::vector<std::int64_t>{90, 130, 90, 90});
}

TEST_CASE("E13: going rummy on the first pick collects four units from each") {
  auto deck = deal_no_upcard({{"7S", "7H", "7D", "KS", "KH", "KD", "2C"}, hand_c, hand_d, hand_a}, {"7C"});
  Harness h("straight_rummy", options(), {100, 100, 100, 100}, 1, deck);
  h.act(1, draw());
  // The go-rummy is listed (one arrangement per discard).
  bool listed = false;
  for (const auto& a : h.legal(1))
    if (a["type"] == "go_rummy" && a.value("discard", "") == "2C") listed = true;
  CHECK(listed);
  h.act(1, go_rummy({{"7S", "7H", "7D", "7C"}, {"KS", "KH", "KD"}}, "2C"));
  CHECK(h.game().result()["units"] == 4);
  CHECK(h.chips() == std::vector<std::int64_t>{96, 112, 96, 96});
}

TEST_CASE("the dealer's first pick is a first pick too: four units") {
  auto deck = deal_no_upcard({{"KH", "QD", "9C", "7H", "5H", "3D", "AC"}, {"4S", "5S", "6S", "7S", "8S", "9S", "TS"}}, {"2H", "JS"});
  Harness h("straight_rummy", options(), {100, 100}, 1, deck);
  h.act(1, draw());
  h.act(1, discard("2H"));
  h.act(0, draw());  // JS: eight spades in sequence, no discard (R-S1)
  h.act(0, go_rummy({{"4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS"}}));
  CHECK(h.game().result()["units"] == 4);
  CHECK(h.chips() == std::vector<std::int64_t>{104, 96});
}

TEST_CASE("R-S4: rummy in one sequence of one suit pays four units, however it is split; sets do not") {
  // Second turn, so not a first pick.
  auto hand = std::vector<std::string>{"4S", "5S", "6S", "7S", "8S", "9S", "KD"};
  auto deck = deal_no_upcard({hand, opponent}, {"QH", "JC", "TS"});
  Harness h("straight_rummy", options(), {100, 100}, 1, deck);
  h.act(1, draw());
  h.act(1, discard("QH"));
  h.act(0, draw());
  h.act(0, discard("JC"));
  h.act(1, draw());  // TS
  CHECK(h.refusal(1, go_rummy({{"4S", "5S", "6S"}, {"7S", "8S", "9S", "TS"}})) == "illegal_action");  // KD left
  h.act(1, go_rummy({{"4S", "5S", "6S"}, {"7S", "8S", "9S", "TS"}}, "KD"));
  CHECK(h.game().result()["units"] == 4);
  CHECK(h.chips() == std::vector<std::int64_t>{96, 104});
}

TEST_CASE("R-S4: two runs of one suit with a gap pay two units, or four with one_suit_rule=all_runs_one_suit") {
  for (auto [rule, units] : std::vector<std::pair<std::string, int>>{{"single_run", 2}, {"all_runs_one_suit", 4}}) {
    auto hand = std::vector<std::string>{"2S", "3S", "4S", "8S", "9S", "TS", "KD"};
    auto deck = deal_no_upcard({hand, opponent}, {"QH", "JC", "JS"});
    Harness h("straight_rummy", options({{"one_suit_rule", rule}}), {100, 100}, 1, deck);
    h.act(1, draw());
    h.act(1, discard("QH"));
    h.act(0, draw());
    h.act(0, discard("JC"));
    h.act(1, draw());  // JS
    h.act(1, go_rummy({{"2S", "3S", "4S"}, {"8S", "9S", "TS", "JS"}}, "KD"));
    CHECK(h.game().result()["units"] == units);
    CHECK(h.chips(1) == 100 + units);
  }
}

TEST_CASE("payoff=points: rummy before the break takes twice each loser's unmatched count") {
  auto deck = deal_no_upcard({{"7S", "7H", "7D", "KS", "KH", "KD", "2C"}, {"3H", "4H", "5H", "QS", "9D", "AD", "AC"}},
                    {"QD", "JD", "7C"});
  Harness h("straight_rummy", options({{"payoff", "points"}}), {100, 100}, 1, deck);
  h.act(1, draw());
  h.act(1, discard("QD"));
  h.act(0, draw());
  h.act(0, discard("JD"));
  h.act(1, draw());  // 7C
  h.act(1, go_rummy({{"7S", "7H", "7D", "7C"}, {"KS", "KH", "KD"}}, "2C"));
  // Seat 0 holds 3H 4H 5H (a run) + QS 9D AD AC: unmatched 10 + 9 + 1 + 1 = 21; doubled.
  CHECK(h.game().result()["counts"][0] == 21);
  CHECK(h.chips() == std::vector<std::int64_t>{58, 142});
}

namespace {

// E13 at the break. Four players, seven cards, 24 in the stock; after 20 turns
// the stock holds 4 and the dealer A (seat 0) has just played: B (seat 1) breaks.
struct BreakTable {
  std::vector<std::string> a, b, c, d;          // hands
  std::vector<std::string> break_draws;         // B, C, D, A draw these in the break
};

Harness break_table(const BreakTable& t, Json opts = Json::object()) {
  auto deck = deal_no_upcard({t.b, t.c, t.d, t.a}, {}, 20, t.break_draws);
  Harness h("straight_rummy", opts, {100, 100, 100, 100}, 1, deck);
  play_to_break(h);
  return h;
}

// Draw the stock top, put down these melds, discard the card drawn.
void break_turn(Harness& h, int seat, const std::vector<std::vector<std::string>>& melds) {
  h.act(seat, draw());
  const auto drawn = last_card(h, seat);
  for (const auto& m : melds) h.act(seat, meld(m));
  h.act(seat, discard(drawn));
}

}  // namespace

TEST_CASE("the break begins when the stock falls to the number of players; the next player is the breaker") {
  BreakTable t{{"TC", "TH", "TS", "JC", "JH", "JS", "9D"},
               {"7S", "7H", "7D", "KS", "KH", "KD", "3C"},
               {"6S", "6H", "6C", "6D", "9H", "4C", "AH"},
               {"2S", "2H", "2D", "5S", "5H", "5D", "3D"},
               {"4S", "QH", "8S", "4H"}};
  auto h = break_table(t);
  auto view = h.game().view(1);
  CHECK(view_pile(view, "stock")["count"] == 4);
  CHECK(view["break"]["breaker"] == 1);
  CHECK(h.game().to_act() == std::vector<int>{1});
}

TEST_CASE("E13: at the showdown the breaker wins a tie: B 3, D 3, A 9, C 14 -> B, one unit from each") {
  BreakTable t{{"TC", "TH", "TS", "JC", "JH", "JS", "9D"},
               {"7S", "7H", "7D", "KS", "KH", "KD", "3C"},
               {"6S", "6H", "6C", "6D", "9H", "4C", "AH"},
               {"2S", "2H", "2D", "5S", "5H", "5D", "3D"},
               {"4S", "QH", "8S", "4H"}};
  auto h = break_table(t, options({{"stake", 3}}));
  break_turn(h, 1, {{"7S", "7H", "7D"}, {"KS", "KH", "KD"}});
  // Unmatched cards stay hidden from the others during the break.
  CHECK(h.game().view(2)["seats"][1]["cards"] == Json::array({"??"}));
  CHECK(h.game().view(1)["seats"][1]["cards"] == Json::array({"3C"}));
  break_turn(h, 2, {{"6S", "6H", "6C", "6D"}});
  break_turn(h, 3, {{"2S", "2H", "2D"}, {"5S", "5H", "5D"}});
  CHECK(h.game().phase() == Phase::playing);
  break_turn(h, 0, {{"TC", "TH", "TS"}, {"JC", "JH", "JS"}});
  CHECK(h.game().phase() == Phase::deal_over);
  auto result = h.game().result();
  CHECK(result["end"] == "break");
  CHECK(result["breaker"] == 1);
  CHECK(result["winners"] == Json::array({1}));
  CHECK(result["counts"] == Json::array({9, 3, 14, 3}));
  CHECK(h.chips() == std::vector<std::int64_t>{97, 109, 97, 97});
}

TEST_CASE("E13: a tie without the breaker goes to the tied player nearest the breaker's left: B 7, C 3, D 3, A 9 -> C") {
  BreakTable t{{"7S", "7H", "7D", "KS", "KH", "KD", "9D"},
               {"TC", "TH", "TS", "JC", "JH", "JS", "7C"},
               {"2S", "2H", "2D", "5S", "5H", "5D", "3C"},
               {"QS", "QH", "QC", "8H", "8D", "8C", "3D"},
               {"4S", "9H", "AH", "4D"}};
  auto h = break_table(t);
  break_turn(h, 1, {{"TC", "TH", "TS"}, {"JC", "JH", "JS"}});
  break_turn(h, 2, {{"2S", "2H", "2D"}, {"5S", "5H", "5D"}});
  break_turn(h, 3, {{"QS", "QH", "QC"}, {"8H", "8D", "8C"}});
  break_turn(h, 0, {{"7S", "7H", "7D"}, {"KS", "KH", "KD"}});
  auto result = h.game().result();
  CHECK(result["counts"] == Json::array({9, 7, 3, 3}));
  CHECK(result["winners"] == Json::array({2}));
  CHECK(h.chips() == std::vector<std::int64_t>{99, 99, 103, 99});
}

TEST_CASE("the break: every meld goes down before the discard (R-S2); lay-offs on any meld; no go_rummy") {
  BreakTable t{{"TC", "TH", "TS", "JC", "JH", "JS", "9D"},
               {"7S", "7H", "7D", "KS", "KH", "KD", "3C"},
               {"6S", "6H", "6C", "8D", "9H", "4C", "AH"},
               {"2S", "2H", "2D", "5S", "5H", "5D", "3D"},
               {"4S", "QH", "8S", "4H"}};
  auto h = break_table(t);
  h.act(1, draw());  // 4S
  CHECK(h.refusal(1, discard("4S")) == "illegal_action");  // melds still in hand
  CHECK(h.refusal(1, go_rummy({{"7S", "7H", "7D"}, {"KS", "KH", "KD"}}, "4S")) == "illegal_action");
  for (const auto& a : h.legal(1)) CHECK(a["type"] != "discard");
  h.act(1, meld({"7S", "7H", "7D"}));
  CHECK(h.refusal(1, discard("4S")) == "illegal_action");
  CHECK(h.refusal(1, discard("KS")) == "illegal_action");  // nor break a meld up by discarding from it
  h.act(1, meld({"KS", "KH", "KD"}));
  h.act(1, discard("4S"));
  // C must meld his sixes too before he discards.
  h.act(2, draw());  // QH
  CHECK(h.refusal(2, discard("QH")) == "illegal_action");
  h.act(2, meld({"6S", "6H", "6C"}));
  h.act(2, discard("QH"));
  // Counts: C 8 + 9 + 4 + 1 = 22.
  break_turn(h, 3, {{"2S", "2H", "2D"}, {"5S", "5H", "5D"}});
  break_turn(h, 0, {{"TC", "TH", "TS"}, {"JC", "JH", "JS"}});
  CHECK(h.game().result()["counts"] == Json::array({9, 3, 22, 3}));
}

TEST_CASE("the break: lay-offs on another player's meld lower the count; the upcard only to use it at once") {
  BreakTable t{{"TC", "TH", "TS", "JC", "JH", "JS", "7C"},
               {"7S", "7H", "7D", "KS", "KH", "KD", "3C"},
               {"6S", "6H", "6C", "6D", "9H", "4C", "KC"},
               {"2S", "2H", "2D", "5S", "5H", "5D", "3D"},
               {"4S", "QH", "8S", "4H"}};
  auto h = break_table(t);
  break_turn(h, 1, {{"7S", "7H", "7D"}, {"KS", "KH", "KD"}});  // discards 4S
  // C: the upcard 4S is of no use to him: refused and not listed.
  CHECK(h.refusal(2, draw("discard")) == "illegal_action");
  CHECK(h.legal(2) == Json::array({draw()}));
  h.act(2, draw());  // QH
  h.act(2, meld({"6S", "6H", "6C", "6D"}));
  h.act(2, lay_off(1, {"KC"}));  // on B's kings
  h.act(2, discard("QH"));
  // D: QH is no use either; he draws 8S.
  break_turn(h, 3, {{"2S", "2H", "2D"}, {"5S", "5H", "5D"}});  // discards 8S
  // A draws 4H, melds, lays 7C off on B's sevens and discards his last card: count 0.
  h.act(0, draw());
  h.act(0, meld({"TC", "TH", "TS"}));
  h.act(0, meld({"JC", "JH", "JS"}));
  h.act(0, lay_off(0, {"7C"}));
  h.act(0, discard("4H"));
  CHECK(h.game().result()["counts"] == Json::array({0, 3, 13, 3}));
  CHECK(h.game().result()["winners"] == Json::array({0}));  // a zero count wins (R-S6), one unit
  CHECK(h.chips() == std::vector<std::int64_t>{103, 99, 99, 99});
}

TEST_CASE("the break: an upcard that melds may be taken, and must be used before the discard") {
  BreakTable t{{"TC", "TH", "TS", "JC", "JH", "JS", "9D"},
               {"7S", "7H", "7D", "KS", "KH", "KD", "3C"},
               {"6S", "6H", "4D", "5D", "9H", "4C", "AH"},
               {"2S", "2H", "2D", "5S", "5H", "QD", "3D"},
               {"6D", "QH", "8S", "4H"}};
  auto h = break_table(t);
  break_turn(h, 1, {{"7S", "7H", "7D"}, {"KS", "KH", "KD"}});  // discards 6D
  CHECK(has_action(h.legal(2), draw("discard")));
  h.act(2, draw("discard"));  // 6D with 4D 5D
  CHECK(h.game().view(2)["must_use"] == "6D");
  CHECK(h.refusal(2, discard("9H")) == "illegal_action");
  h.act(2, meld({"4D", "5D", "6D"}));
  h.act(2, discard("9H"));
  CHECK(view_pile(h.game().view(3), "stock")["count"] == 3);  // C took the upcard: the stock top stays
}

TEST_CASE("the break: a player who melds his whole hand does not end the break (R-S6)") {
  BreakTable t{{"TC", "TH", "TS", "JC", "JH", "JS", "9D"},
               {"7S", "7H", "7D", "KS", "KH", "KD", "3C"},
               {"6S", "6H", "6C", "6D", "9H", "4C", "AH"},
               {"2S", "2H", "2D", "5S", "5H", "5D", "3D"},
               {"7C", "QH", "8S", "4H"}};
  auto h = break_table(t, options({{"payoff", "points"}}));
  h.act(1, draw());  // 7C
  h.act(1, meld({"7S", "7H", "7D", "7C"}));
  h.act(1, meld({"KS", "KH", "KD"}));
  h.act(1, discard("3C"));  // his hand is empty now
  CHECK(h.game().phase() == Phase::playing);
  CHECK(h.game().to_act() == std::vector<int>{2});
  break_turn(h, 2, {{"6S", "6H", "6C", "6D"}});
  break_turn(h, 3, {{"2S", "2H", "2D"}, {"5S", "5H", "5D"}});
  break_turn(h, 0, {{"TC", "TH", "TS"}, {"JC", "JH", "JS"}});
  // Points: each pays his count less the winner's 0.
  CHECK(h.game().result()["winners"] == Json::array({1}));
  CHECK(h.chips() == std::vector<std::int64_t>{91, 126, 86, 97});
}

TEST_CASE("hidden information: hands and the stock are private; counts are public") {
  Harness h("straight_rummy", options(), {100, 100, 100}, 7);
  auto spectator = h.game().view(std::nullopt);
  for (int s = 0; s < 3; ++s) {
    CHECK(spectator["seats"][s]["count"] == 7);
    for (const auto& c : spectator["seats"][s]["cards"]) CHECK(c == "??");
  }
  CHECK(h.game().view(2)["seats"][2]["cards"][0] != "??");
  CHECK(!spectator.dump().empty());
  CHECK(view_pile(spectator, "stock")["count"] == 52 - 21);
}

TEST_CASE("refusals change nothing: out of turn, bad cards, unknown actions") {
  Harness h("straight_rummy", options(), {100, 100, 100}, 3);
  CHECK(h.refusal(2, draw()) == "not_your_turn");
  CHECK(h.refusal(1, discard("AS")) == "illegal_action");
  CHECK(h.refusal(1, {{"type", "take"}, {"depth", 0}}) == "illegal_action");
  h.act(1, draw());
  CHECK(h.refusal(1, draw()) == "illegal_action");
  CHECK(h.refusal(1, {{"type", "decline"}}) == "illegal_action");
}

namespace {

void random_games(Json opts, int players_lo, int players_hi) {
  auto ends = random_deal_ends("straight_rummy", std::move(opts), players_lo, players_hi);
  CHECK(ends["break"] > 0);  // random discards seldom go rummy: see the rummy deals below
  for (const auto& [end, count] : ends) CHECK((end == "break" || end == "went_out"));
}

}  // namespace

TEST_CASE("random deals: seven cards, two to five players") { random_games(options(), 2, 5); }
TEST_CASE("random deals: six cards, two to six players, points") {
  random_games(options({{"hand_size", 6}, {"payoff", "points"}}), 2, 6);
}

TEST_CASE("random deals where the leader is dealt a rummy: conservation and the payoff") {
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    const int players = 2 + static_cast<int>(seed % 4);
    // The leader holds 4S 5S 6S 8H 8D 8C 2D and draws 7S: rummy with 2D discarded;
    // the other hands are a seeded shuffle of the rest.
    const auto deck = deal_leader_hand({"4S", "5S", "6S", "8H", "8D", "8C", "2D"}, "7S", players, seed);
    Harness h("straight_rummy", options({{"stake", 3}}), std::vector<std::int64_t>(players, 1000), seed, deck);
    const auto total = h.total();
    h.act(1, draw());
    parlour::rules::Rng snapshot_rng(seed * 7907 + 5);
    parlour::test::snapshot_round_trips(h, snapshot_rng);  // restored about to go rummy, and at the deal's end
    Json rummy;
    for (const auto& a : h.legal(1))
      if (a["type"] == "go_rummy" && !rummy.is_object()) rummy = a;
    REQUIRE(rummy.is_object());
    CHECK(rummy["discard"] == "2D");
    h.act(1, rummy);
    parlour::test::snapshot_round_trips(h, snapshot_rng);
    CHECK(h.total() == total);
    CHECK(h.game().result()["winner"] == 1);
    CHECK(h.chips(1) == 1000 + 3 * 4 * (players - 1));  // four units: the first pick
  }
}

// The table adds "Straight Rummy: " and each {seat:N}'s name to these memos.
TEST_CASE("ledger memos: rummy on the first pick is four units; paid in points it names both counts") {
  auto first_pick = deal_no_upcard({{"7S", "7H", "7D", "KS", "KH", "KD", "2C"}, hand_c, hand_d, hand_a}, {"7C"});
  Harness h("straight_rummy", options(), {100, 100, 100, 100}, 1, first_pick);
  h.act(1, draw());
  const auto fx = h.act(1, go_rummy({{"7S", "7H", "7D", "7C"}, {"KS", "KH", "KD"}}, "2C"));
  REQUIRE(fx.transfers.size() == 3);
  for (const auto& t : fx.transfers) CHECK(t.memo == "{seat:1} went rummy on his first turn: 4 units");

  auto deck = deal_no_upcard({{"7S", "7H", "7D", "KS", "KH", "KD", "2C"}, {"3H", "4H", "5H", "QS", "9D", "AD", "AC"}},
                             {"QD", "JD", "7C"});
  Harness points("straight_rummy", options({{"payoff", "points"}}), {100, 100}, 1, deck);
  points.act(1, draw());
  points.act(1, discard("QD"));
  points.act(0, draw());
  points.act(0, discard("JD"));
  points.act(1, draw());
  const auto paid = points.act(1, go_rummy({{"7S", "7H", "7D", "7C"}, {"KS", "KH", "KD"}}, "2C"));
  REQUIRE(paid.transfers.size() == 1);
  CHECK(paid.transfers[0].memo ==
        "{seat:1} went rummy before the break: 2 units, paid in points: {seat:0} counts 21 against 0");
}

}  // namespace unity_test_straight_rummy
