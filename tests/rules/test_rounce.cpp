// Rounce, source 000 "ROUNCE" and rules/other.md §3 (examples E7–E9); otherwise as Rams.
#include <doctest/doctest.h>

#include <map>

#include "rules/random_play.h"
#include "tests/rules/harness.h"
#include "tests/rules/playout.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_rounce {

using parlour::test::cards;
using parlour::test::Harness;
using parlour::test::Playout;
using parlour::test::random_playouts;
using parlour::rules::Rng;
using parlour::rules::Json;
using parlour::rules::Phase;

namespace {

// Hands in declaring order (dealer last), packets of 2 then 3; the widow of six
// dealt after the dealer (2 then 4); then the turned card.
std::vector<parlour::rules::Card> deck(const std::vector<std::vector<std::string>>& hands,
                                       const std::vector<std::string>& widow, const std::string& turned) {
  std::vector<std::string> out;
  for (const auto& h : hands) out.insert(out.end(), h.begin(), h.begin() + 2);
  out.insert(out.end(), widow.begin(), widow.begin() + 2);
  for (const auto& h : hands) out.insert(out.end(), h.begin() + 2, h.end());
  out.insert(out.end(), widow.begin() + 2, widow.end());
  out.push_back(turned);
  return cards(out);
}

Json act(const std::string& type) { return {{"type", type}}; }
Json card(const std::string& c) { return {{"type", "card"}, {"card", c}}; }
Json discard(const std::string& c) { return {{"type", "discard"}, {"card", c}}; }

Json card_list(const std::vector<std::string>& cs) {
  Json out = Json::array();
  for (const auto& c : cs) out.push_back(card(c));
  return out;
}

const std::vector<std::string> s2 = {"2S", "AH", "QS", "AC", "KC"};
const std::vector<std::string> s3 = {"2C", "4C", "5C", "6C", "7C"};
const std::vector<std::string> s0 = {"3H", "4H", "5H", "6H", "7H"};
const std::vector<std::string> widow = {"3S", "4S", "5S", "6S", "7S", "8S"};

Harness table(const std::vector<std::string>& s1) {
  return Harness("rounce", {}, {100, 100, 100, 100}, 1, deck({s1, s2, s3, s0}, widow, "AD"));
}

// Seat 1 and seat 2 play; seat 3 and the dealer pass.
void declare_two(Harness& h) {
  h.act(1, act("play"));
  h.act(2, act("play"));
  h.act(3, act("pass"));
  h.act(0, act("pass"));
}

}  // namespace

TEST_CASE("52 cards: five each, a widow of six, the trump turned; no general call") {
  auto h = table({"KS", "4D", "AS", "3C", "9H"});
  CHECK(h.pool("pool") == 5);
  auto view = h.game().view(1);
  CHECK(parlour::test::view_pile(view, "widow")["count"] == 6);
  CHECK(view["trick"]["trump"] == "D");
  CHECK(view["seats"][1]["cards"] == Json::array({"KS", "4D", "AS", "3C", "9H"}));
  CHECK(view["seats"][0]["cards"] == Json(std::vector<std::string>(5, "??")));
  CHECK(h.legal(1) == Json::array({act("pass"), act("play"), act("take_widow")}));
  CHECK(h.refusal(1, {{"type", "general"}, {"widow", false}}) == "illegal_action");
}

TEST_CASE("nine players: 45 cards dealt, six in the widow, one turned") {
  Harness h("rounce", {}, std::vector<std::int64_t>(9, 50));
  auto view = h.game().view(4);
  for (int s = 0; s < 9; ++s) CHECK(view["seats"][s]["count"] == 5);
  CHECK(parlour::test::view_pile(view, "widow")["count"] == 6);
}

TEST_CASE("E9: whoever takes the widow discards exactly one; then nobody may take it") {
  auto h = table({"KS", "4D", "AS", "3C", "9H"});
  h.act(1, act("pass"));
  h.act(2, act("take_widow"));
  CHECK(h.game().view(2)["seats"][2]["cards"] == Json(widow));
  CHECK(h.game().to_act() == std::vector<int>{2});
  CHECK(h.legal(2).size() == 6);
  CHECK(h.refusal(2, act("play")) == "illegal_action");
  CHECK(h.refusal(2, discard("AH")) == "illegal_action");  // a card of the laid-aside hand
  CHECK(h.refusal(3, act("pass")) == "not_your_turn");
  h.act(2, discard("8S"));
  CHECK(h.game().view(2)["seats"][2]["cards"] == Json::array({"3S", "4S", "5S", "6S", "7S"}));
  CHECK(h.game().to_act() == std::vector<int>{3});
  CHECK(h.legal(3) == Json::array({act("pass"), act("play")}));
  CHECK(h.refusal(3, act("take_widow")) == "illegal_action");
  CHECK(h.game().view(3).dump().find("\"8S\"") == std::string::npos);
}

TEST_CASE("E7: follow suit, but no duty to head the trick or to trump") {
  auto h = table({"KS", "4D", "AS", "3C", "9H"});
  declare_two(h);
  h.act(1, card("KS"));
  CHECK(h.legal(2) == card_list({"2S", "QS"}));
  CHECK(h.refusal(2, card("AH")) == "illegal_action");
  h.act(2, card("2S"));
  CHECK(h.game().view(0)["seats"][1]["tricks"] == 1);
}

TEST_CASE("E8: the winner of the first trick must lead a trump if he holds one") {
  auto h = table({"KS", "4D", "AS", "3C", "9H"});
  declare_two(h);
  h.act(1, card("KS"));
  h.act(2, card("2S"));
  CHECK(h.legal(1) == card_list({"4D"}));
  CHECK(h.refusal(1, card("AS")) == "illegal_action");
  h.act(1, card("4D"));
  CHECK(h.legal(2) == card_list({"AH", "QS", "AC", "KC"}));  // void in trumps: any card
  h.act(2, card("QS"));
  // No duty on later leads.
  CHECK(h.legal(1) == card_list({"AS", "3C", "9H"}));
}

TEST_CASE("E8: without a trump the first trick's winner may lead any card") {
  auto h = table({"KS", "2H", "AS", "3C", "9H"});
  declare_two(h);
  h.act(1, card("KS"));
  h.act(2, card("2S"));
  CHECK(h.legal(1) == card_list({"2H", "AS", "3C", "9H"}));
}

TEST_CASE("chips as in Rams: a fifth of the pool per trick, five from an active player without a trick") {
  auto h = table({"KS", "4D", "AS", "3C", "9H"});
  declare_two(h);
  for (auto [s, c] : std::vector<std::pair<int, std::string>>{
           {1, "KS"}, {2, "2S"}, {1, "4D"}, {2, "QS"}, {1, "AS"}, {2, "AH"}, {1, "3C"}, {2, "AC"}})
    h.act(s, card(c));
  h.act(2, card("KC"));  // seat 2 won the club trick and leads
  h.act(1, card("9H"));
  CHECK(h.game().phase() == Phase::deal_over);
  CHECK(h.chips() == std::vector<std::int64_t>{95, 103, 102, 100});
  CHECK(h.pool("pool") == 0);
}

TEST_CASE("forced player and lone player as in Rams") {
  auto h = table({"KS", "4D", "AS", "3C", "9H"});
  h.act(1, act("pass"));
  h.act(2, act("pass"));
  CHECK(h.legal(3) == Json::array({act("play"), act("take_widow"), act("pay_dealer")}));
  h.act(3, act("play"));
  CHECK(h.refusal(0, act("pass")) == "illegal_action");
  h.act(0, act("take_widow"));
  h.act(0, discard("8S"));
  CHECK(h.game().to_act() == std::vector<int>{0});  // then the exchange for the turned trump
  h.act(0, {{"type", "exchange"}, {"card", "3S"}});
  CHECK(h.game().view(0)["seats"][0]["cards"] == Json::array({"4S", "5S", "6S", "7S", "AD"}));
  CHECK(h.game().to_act() == std::vector<int>{3});
}

TEST_CASE("randomized: 1000 deals conserve chips, every listed action applies, every game ends") {
  Playout spec;
  spec.game = "rounce";
  spec.min_deals = 1000;
  spec.players_lo = 3;
  spec.players_hi = 9;
  spec.options_for = [](Rng& rng) { return Json{{"deals", 10}, {"packets", rng.below(2) ? "3-2" : "2-3"}}; };
  spec.chips_for = [](int players, Rng& rng) {
    return std::vector<std::int64_t>(players, rng.below(4) == 0 ? 12 : 150);
  };
  // A passed hand is hidden from the others, its count too: of cards, only
  // that no hand in play grows past six.
  spec.cards_conserved = [](Harness& h) {
    if (h.game().phase() != Phase::playing) return;
    for (const auto& seat : h.game().view(std::nullopt)["seats"]) CHECK(seat["count"].get<int>() <= 6);
  };
  std::vector<std::int64_t> before;  // each seat's chips before the deal
  spec.deal_starts = [&](Harness& h) {  // the dealer's 5 chips went in the pool as the deal started
    before = h.chips();
    before[h.game().view(0)["dealer"].get<int>()] += 5;
  };
  std::map<std::string, int> outcomes;
  spec.deal_over = [&](Harness& h) {
    const auto result = h.game().result();
    ++outcomes[result["outcome"].get<std::string>()];
    for (const auto& line : result["seats"]) {
      const int s = line["seat"];
      CHECK(h.chips(s) - before[s] == line["chips"].get<std::int64_t>());
    }
  };
  spec.after_game = [](Harness& h) {
    CHECK(h.game().deals_played() <= 10);
    const auto total = h.total();
    h.close();
    CHECK(h.total() == total);
  };
  random_playouts(spec);
  CHECK(outcomes["played"] > 0);
  CHECK(outcomes["paid_dealer"] > 0);
}

TEST_CASE("the registry lists Rounce for 3 to 9 players") {
  const auto* info = parlour::rules::Registry::builtin().find("rounce");
  REQUIRE(info != nullptr);
  CHECK(info->min_players == 3);
  CHECK(info->max_players == 9);
  const auto options = parlour::rules::Registry::validate_options(*info, Json::object());
  CHECK(options["packets"] == "2-3");
  CHECK(options["deals"] == 0);
}

}  // namespace unity_test_rounce
