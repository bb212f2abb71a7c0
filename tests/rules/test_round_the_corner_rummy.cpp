// Round-the-Corner (Boat House, Dizzy) Rummy, source 002 "Round-the-Corner Rummy";
// rules/rummy.md §3.3, example E15.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>

#include "rules/registry.h"
#include "tests/rules/harness.h"
#include "tests/rules/playout.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_round_the_corner_rummy {

using parlour::rules::Json;
using parlour::rules::Phase;
using parlour::test::cards;
using parlour::test::Harness;
using parlour::test::view_pile;

namespace {

const std::vector<std::string> all_cards = [] {
  std::vector<std::string> out;
  for (char suit : std::string("SHDC"))
    for (char rank : std::string("A23456789TJQK")) out.push_back(std::string{rank, suit});
  return out;
}();

// Hands in play order (the dealer's, seat 0, last), dealt one at a time; then the
// upcard; then the stock from the top: `top`, then the unused cards.
std::vector<parlour::rules::Card> stack(const std::vector<std::vector<std::string>>& hands, const std::string& upcard,
                                        const std::vector<std::string>& top = {}) {
  std::vector<std::string> deck;
  for (std::size_t round = 0; round < hands[0].size(); ++round)
    for (const auto& hand : hands) deck.push_back(hand[round]);
  deck.push_back(upcard);
  deck.insert(deck.end(), top.begin(), top.end());
  std::set<std::string> used(deck.begin(), deck.end());
  for (const auto& c : all_cards)
    if (!used.count(c)) deck.push_back(c);
  return cards(deck);
}

Json draw(const char* from = "stock") { return {{"type", "draw"}, {"from", from}}; }
Json discard(const std::string& card) { return {{"type", "discard"}, {"card", card}}; }
Json go_rummy(std::vector<std::vector<std::string>> melds, std::optional<std::string> card = std::nullopt) {
  Json a = {{"type", "go_rummy"}, {"melds", melds}};
  if (card) a["discard"] = *card;
  return a;
}
Json options(std::initializer_list<std::pair<const char*, Json>> set = {}) {
  Json o = Json::object();
  for (const auto& [k, v] : set) o[k] = v;
  return o;
}
std::string last_card(Harness& h, int seat) { return h.game().view(seat)["seats"][seat]["cards"].back(); }
bool has_action(const Json& legal, const Json& action) {
  return std::find(legal.begin(), legal.end(), action) != legal.end();
}
std::size_t hand_size(Harness& h, int seat) { return h.game().view(std::nullopt)["seats"][seat]["count"].get<std::size_t>(); }
std::size_t cards_in_play(Harness& h) {
  const auto v = h.game().view(std::nullopt);
  std::size_t n = view_pile(v, "stock")["count"].get<std::size_t>() + view_pile(v, "discard")["count"].get<std::size_t>();
  for (const auto& hand : v["seats"]) n += hand["count"].get<std::size_t>();
  return n;
}

// 4 players (5 cards each): seat 1 holds K♦ A♦ 2♦ 7♠ 7♥; the upcard is 9♣; the stock top 7♣.
const std::vector<std::vector<std::string>> e15_hands = {
    {"KD", "AD", "2D", "7S", "7H"}, {"3S", "5H", "9H", "JC", "4D"}, {"3H", "5C", "TH", "QC", "6D"},
    {"3C", "5S", "TS", "QS", "8D"}};

}  // namespace

TEST_CASE("round the corner: 9 - players cards each, an upcard, the dealer's left plays first") {
  for (int players = 2; players <= 4; ++players) {
    Harness h("round_the_corner_rummy", options(), std::vector<std::int64_t>(players, 100));
    const auto v = h.game().view(std::nullopt);
    for (int s = 0; s < players; ++s) CHECK(hand_size(h, s) == static_cast<std::size_t>(9 - players));
    CHECK(view_pile(v, "discard")["count"] == 1);
    CHECK(view_pile(v, "discard")["top"].is_string());
    CHECK(view_pile(v, "stock")["count"] == 52 - players * (9 - players) - 1);
    CHECK(h.game().to_act() == std::vector<int>{1});
  }
  CHECK(parlour::rules::Registry::builtin().find("Dizzy Rummy") != nullptr);
  CHECK(parlour::rules::Registry::builtin().find("Boat House Rummy") != nullptr);
}

TEST_CASE("round the corner: one card at a time from the dealer's left, then the upcard turned") {
  // 3 players, 6 cards: seat 1 gets the 1st, 4th, … card; the dealer (seat 0) the 3rd, 6th, …
  const std::vector<std::vector<std::string>> hands = {{"AS", "2S", "3S", "4S", "5S", "6S"},
                                                       {"AH", "2H", "3H", "4H", "5H", "6H"},
                                                       {"AC", "2C", "3C", "4C", "5C", "6C"}};
  Harness h("round_the_corner_rummy", options(), {100, 100, 100}, 1, stack(hands, "KD", {"QD"}));
  CHECK(h.game().view(1)["seats"][1]["cards"] == Json(hands[0]));
  CHECK(h.game().view(2)["seats"][2]["cards"] == Json(hands[1]));
  CHECK(h.game().view(0)["seats"][0]["cards"] == Json(hands[2]));
  CHECK(view_pile(h.game().view(std::nullopt), "discard")["top"] == "KD");
  h.act(1, draw());
  CHECK(last_card(h, 1) == "QD");
}

TEST_CASE("E15: going rummy with K-A-2 round the corner; one stake from each player") {
  Harness h("round_the_corner_rummy", options({{"stake", 5}}), {100, 100, 100, 100}, 1,
            stack(e15_hands, "9C", {"7C"}));
  h.act(1, draw());
  CHECK(has_action(h.legal(1), go_rummy({{"KD", "AD", "2D"}, {"7S", "7H", "7C"}})));
  h.act(1, go_rummy({{"KD", "AD", "2D"}, {"7S", "7H", "7C"}}));
  CHECK(h.game().phase() != Phase::playing);
  CHECK(h.chips() == std::vector<std::int64_t>{95, 115, 95, 95});
  CHECK(h.game().result()["winner"] == 1);
  CHECK(h.total() == 400);
}

TEST_CASE("round the corner: A-K-Q and A-2-3 runs, going rummy with a final discard") {
  const std::vector<std::vector<std::string>> hands = {
      {"AS", "KS", "QS", "AH", "2H"}, {"3S", "5H", "9H", "JC", "4D"}, {"3D", "5C", "TH", "QC", "6D"},
      {"3C", "5S", "TS", "QH", "8D"}};
  Harness h("round_the_corner_rummy", options(), {10, 10, 10, 10}, 1, stack(hands, "3H", {"9D"}));
  h.act(1, draw("discard"));  // 3H
  h.act(1, draw());           // 9D
  CHECK(h.refusal(1, go_rummy({{"AS", "KS", "QS"}, {"AH", "2H", "3H"}, {"9D"}})) == "illegal_action");
  h.act(1, go_rummy({{"AS", "KS", "QS"}, {"AH", "2H", "3H"}}, "9D"));
  CHECK(h.chips() == std::vector<std::int64_t>{9, 13, 9, 9});
  CHECK(view_pile(h.game().view(std::nullopt), "discard")["top"] == "9D");
}

TEST_CASE("E15: after the stock top no discard may be taken; after the upcard one more card must be drawn") {
  Harness h("round_the_corner_rummy", options(), {100, 100, 100, 100}, 1, stack(e15_hands, "9C", {"7C", "8C"}));
  // The stock top: the draw is over.
  h.act(1, draw());
  CHECK(h.refusal(1, draw("discard")) == "illegal_action");
  CHECK(h.refusal(1, draw()) == "illegal_action");
  CHECK(hand_size(h, 1) == 6);
  h.act(1, discard("7H"));
  CHECK(hand_size(h, 1) == 5);
  // The upcard (7H), then one more: no discard, no go_rummy, no two_discards until then.
  CHECK(h.refusal(2, draw("two_discards")) == "illegal_action");
  h.act(2, draw("discard"));
  CHECK(h.game().view(2)["one_more_draw"] == true);
  CHECK(h.refusal(2, discard("7H")) == "illegal_action");
  CHECK(h.refusal(2, discard("5H")) == "illegal_action");
  CHECK(h.refusal(2, go_rummy({{"3S", "4D", "5H"}})) == "illegal_action");
  CHECK(h.legal(2) == Json::array({draw(), draw("discard")}));
  h.act(2, draw("discard"));  // the new upcard 9C: the two top discards
  CHECK(hand_size(h, 2) == 7);
  CHECK(view_pile(h.game().view(std::nullopt), "discard")["count"] == 0);
  CHECK(!h.game().view(2).contains("one_more_draw"));
  h.act(2, discard("7H"));  // R-G1 does not apply: two cards were taken
  CHECK(hand_size(h, 2) == 6);  // the hand grows by one
  // The upcard and the stock top.
  h.act(3, draw("discard"));
  h.act(3, draw());
  CHECK(last_card(h, 3) == "8C");
  CHECK(hand_size(h, 3) == 7);
  CHECK(cards_in_play(h) == 52);
}

TEST_CASE("round the corner: the draws listed; the upcard alone needs a second card to follow") {
  Harness h("round_the_corner_rummy", options(), {100, 100, 100, 100}, 1, stack(e15_hands, "9C", {"7C"}));
  CHECK(h.legal(1) == Json::array({draw(), draw("discard")}));
  CHECK(h.legal(2).empty());
  h.act(1, draw());
  const auto legal = h.legal(1);
  CHECK(std::none_of(legal.begin(), legal.end(), [](const Json& a) { return a["type"] == "draw"; }));
  CHECK(has_action(legal, discard("7C")));
}

TEST_CASE("round the corner: no melds or lay-offs before going rummy; refusals change nothing") {
  Harness h("round_the_corner_rummy", options(), {100, 100, 100, 100}, 1, stack(e15_hands, "9C", {"7C"}));
  CHECK(h.refusal(0, draw()) == "not_your_turn");
  CHECK(h.refusal(1, discard("KD")) == "illegal_action");
  CHECK(h.refusal(1, draw("pile")) == "illegal_action");
  CHECK(h.refusal(1, {{"type", "take"}, {"depth", 0}}) == "illegal_action");
  h.act(1, draw());
  CHECK(h.refusal(1, {{"type", "meld"}, {"cards", {"KD", "AD", "2D"}}}) == "illegal_action");
  CHECK(h.refusal(1, go_rummy({{"KD", "AD", "2D"}}, "7S")) == "illegal_action");  // cards left over
  CHECK(h.refusal(1, go_rummy({{"QD", "KD", "AD"}, {"7S", "7H", "7C"}})) == "illegal_action");  // QD not held
  CHECK(h.refusal(1, discard("QS")) == "illegal_action");
  CHECK(h.refusal(2, discard("3H")) == "not_your_turn");
  CHECK(h.chips() == std::vector<std::int64_t>{100, 100, 100, 100});
}

TEST_CASE("round the corner: hidden information") {
  Harness h("round_the_corner_rummy", options(), {100, 100, 100}, 1);
  const auto mine = h.game().view(1);
  const auto theirs = h.game().view(2);
  const auto none = h.game().view(std::nullopt);
  for (const auto& c : mine["seats"][1]["cards"]) CHECK(c != "??");
  for (const auto& c : theirs["seats"][1]["cards"]) CHECK(c == "??");
  for (const auto& c : none["seats"][1]["cards"]) CHECK(c == "??");
  CHECK(theirs["seats"][1]["count"] == 6);
  CHECK(!none.contains("stock_cards"));
  CHECK(view_pile(none, "stock")["count"].is_number());
  CHECK(!view_pile(none, "discard").contains("cards"));  // squared: its top card only
  CHECK(mine["seats"][2]["cards"][0] == "??");
}

TEST_CASE("round the corner: the empty stock is restocked at once from the pile but its top card") {
  Harness h("round_the_corner_rummy", options(), {100, 100, 100, 100}, 7);
  // 31 stock cards; everyone draws the stock top and discards it.
  for (int turn = 0; turn < 30; ++turn) {
    const int seat = h.game().to_act().front();
    h.act(seat, draw());
    h.act(seat, discard(last_card(h, seat)));
  }
  auto v = h.game().view(std::nullopt);
  CHECK(view_pile(v, "stock")["count"] == 1);
  CHECK(view_pile(v, "discard")["count"] == 31);
  const auto top = view_pile(v, "discard")["top"];
  const int seat = h.game().to_act().front();
  h.act(seat, draw());  // the last stock card: the reshuffle happens now
  v = h.game().view(std::nullopt);
  CHECK(view_pile(v, "stock")["count"] == 30);
  CHECK(view_pile(v, "discard")["count"] == 1);
  CHECK(view_pile(v, "discard")["top"] == top);
  CHECK(cards_in_play(h) == 52);
  h.act(seat, discard(last_card(h, seat)));
  CHECK(h.game().phase() == Phase::playing);
}

TEST_CASE("round the corner: once the reshuffles are used up the deal is void (R-G3), and the deal passes left") {
  Harness h("round_the_corner_rummy", options({{"max_reshuffles", 1}}), {100, 100, 100, 100}, 3);
  int turns = 0;
  while (h.game().phase() == Phase::playing) {
    const int seat = h.game().to_act().front();
    h.act(seat, draw());
    h.act(seat, discard(last_card(h, seat)));
    ++turns;
    REQUIRE(turns < 100);
  }
  CHECK(turns == 31 + 30);  // the first stock, then the reshuffled pile but its top
  CHECK(h.game().result()["end"] == "no_winner");
  CHECK(h.game().result()["void"] == true);
  CHECK(h.chips() == std::vector<std::int64_t>{100, 100, 100, 100});
  h.next_deal();
  CHECK(h.game().view(std::nullopt)["dealer"] == 1);
  CHECK(h.game().to_act() == std::vector<int>{2});
}

TEST_CASE("round the corner: a short stake is paid as far as it goes") {
  Harness h("round_the_corner_rummy", options({{"stake", 5}}), {3, 100, 100, 0}, 1, stack(e15_hands, "9C", {"7C"}));
  h.act(1, draw());
  h.act(1, go_rummy({{"KD", "AD", "2D"}, {"7S", "7H", "7C"}}));
  CHECK(h.chips() == std::vector<std::int64_t>{0, 108, 95, 0});
  CHECK(h.total() == 203);
}

TEST_CASE("random deals: round the corner, two to four players") {
  parlour::test::Playout spec;
  spec.game = "round_the_corner_rummy";
  spec.min_deals = 1000;
  spec.players_lo = 2;
  spec.players_hi = 4;
  std::map<std::string, int> ends;
  spec.after_game = [&ends](Harness& h) { ++ends[h.game().result()["end"].get<std::string>()]; };
  parlour::test::random_playouts(spec);
  for (const auto& [end, count] : ends) CHECK((end == "no_winner" || end == "went_out"));
}

}  // namespace unity_test_round_the_corner_rummy
