// Rams and General Rams, source 000 "RAMS" and rules/other.md §2 (examples E1–E6).
#include <doctest/doctest.h>

#include <map>
#include <set>

#include "rules/random_play.h"
#include "rules/snapshot.h"
#include "tests/rules/harness.h"
#include "tests/rules/playout.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_rams {

using parlour::test::cards;
using parlour::test::Harness;
using parlour::test::Playout;
using parlour::test::random_playouts;
using parlour::rules::Rng;
using parlour::rules::Json;
using parlour::rules::Phase;

namespace {

// Hands in declaring order (dealer's left first, dealer last), dealt in packets
// of `first` then 5 - `first`, the widow dealt after the dealer, then the turned card.
std::vector<parlour::rules::Card> deck(const std::vector<std::vector<std::string>>& hands,
                                       const std::vector<std::string>& widow, const std::string& turned,
                                       std::size_t first = 2) {
  std::vector<std::string> out;
  for (const auto& h : hands) out.insert(out.end(), h.begin(), h.begin() + first);
  out.insert(out.end(), widow.begin(), widow.begin() + first);
  for (const auto& h : hands) out.insert(out.end(), h.begin() + first, h.end());
  out.insert(out.end(), widow.begin() + first, widow.end());
  out.push_back(turned);
  return cards(out);
}

Json act(const std::string& type) { return {{"type", type}}; }
Json card(const std::string& c) { return {{"type", "card"}, {"card", c}}; }
Json general(bool widow = false) { return {{"type", "general"}, {"widow", widow}}; }

const std::vector<std::string> e1_s1 = {"AS", "AC", "7D", "8D", "9D"};
const std::vector<std::string> e1_s2 = {"QS", "JS", "QC", "JC", "AD"};
const std::vector<std::string> e1_s3 = {"7S", "7C", "AH", "KH", "QH"};
const std::vector<std::string> e1_s0 = {"8S", "8C", "9S", "9C", "TS"};
const std::vector<std::string> e1_widow = {"TH", "9H", "8H", "7H", "KS"};

Harness e1_table(Json options = Json::object()) {
  return Harness("rams", options, {100, 100, 100, 100}, 1, deck({e1_s1, e1_s2, e1_s3, e1_s0}, e1_widow, "JH"));
}

// E1 as declared: seats 1, 3 and 0 play, seat 2 passes, and the dealer keeps his
// hand rather than take up the turned trump; seat 1 leads the first trick.
Harness e1_declared() {
  auto h = e1_table();
  h.act(1, act("play"));
  h.act(2, act("pass"));
  h.act(3, act("play"));
  h.act(0, act("play"));
  h.act(0, act("keep"));
  return h;
}

// Plays each seat's first legal action until the deal is over.
void play_first_legal(Harness& h) {
  while (h.game().phase() == Phase::playing) {
    const int seat = h.game().to_act()[0];
    h.act(seat, h.legal(seat)[0]);
  }
}

std::int64_t net(const Json& result, int seat) {
  for (const auto& line : result["seats"])
    if (line["seat"] == seat) return line["chips"].get<std::int64_t>();
  return 0;
}

}  // namespace

TEST_CASE("the dealer puts five chips in the pool, five cards each, a widow of five and a turned trump") {
  auto h = e1_table();
  CHECK(h.pool("pool") == 5);
  CHECK(h.chips(0) == 95);
  auto view = h.game().view(1);
  CHECK(view["seats"][1]["cards"] == Json(e1_s1));
  CHECK(view["seats"][2]["cards"] == Json(std::vector<std::string>(5, "??")));
  CHECK(parlour::test::view_pile(view, "widow")["count"] == 5);
  CHECK(view["turned"] == "JH");
  CHECK(view["trick"]["trump"] == "H");
  for (const auto& c : e1_widow) {
    CHECK(h.game().view(1).dump().find('"' + c + '"') == std::string::npos);
    CHECK(h.game().view(std::nullopt).dump().find('"' + c + '"') == std::string::npos);
  }
  CHECK(h.game().to_act() == std::vector<int>{1});
  CHECK(h.legal(1) == Json::array({act("pass"), act("play"), act("take_widow"), general(false), general(true)}));
  CHECK(h.legal(2).empty());
}

TEST_CASE("option packets 3-2 deals three cards first") {
  auto stacked = deck({e1_s1, e1_s2, e1_s3, e1_s0}, e1_widow, "JH", 3);
  Harness h("rams", {{"packets", "3-2"}}, {100, 100, 100, 100}, 1, stacked);
  CHECK(h.game().view(3)["seats"][3]["cards"] == Json(e1_s3));
  Harness wrong("rams", {}, {100, 100, 100, 100}, 1, stacked);
  CHECK(wrong.game().view(3)["seats"][3]["cards"] != Json(e1_s3));
}

TEST_CASE("E1: each trick takes a fifth of the pool; an active player without a trick pays five to the next pool") {
  auto h = e1_table();
  h.act(1, act("play"));
  h.act(2, act("pass"));
  h.act(3, act("play"));
  h.act(0, act("play"));
  CHECK(h.game().to_act() == std::vector<int>{0});  // the dealer's exchange
  h.act(0, act("keep"));
  CHECK(h.game().to_act() == std::vector<int>{1});  // the first player who declared leads
  CHECK(h.legal(2).empty());
  for (auto [s, c] : std::vector<std::pair<int, std::string>>{{1, "AS"}, {3, "7S"}, {0, "8S"},
                                                               {1, "AC"}, {3, "7C"}, {0, "8C"},
                                                               {1, "7D"}, {3, "AH"}, {0, "9S"},
                                                               {3, "KH"}, {0, "TS"}, {1, "8D"},
                                                               {3, "QH"}, {0, "9C"}, {1, "9D"}})
    h.act(s, card(c));
  CHECK(h.game().phase() == Phase::deal_over);
  // Pool 5 at the first lead: one chip a trick.
  CHECK(h.chips() == std::vector<std::int64_t>{90, 102, 100, 103});
  CHECK(h.pool("pool") == 5);
  auto result = h.game().result();
  CHECK(result["pool_at_play"] == 5);
  CHECK(result["seats"][0]["tricks"] == 0);
  CHECK(net(result, 0) == -10);
  CHECK(result["movements"].size() == 7);
  // The next dealer adds 5: the next pool is 10, and each trick of it is worth 2.
  h.next_deal();
  CHECK(h.pool("pool") == 10);
  CHECK(h.game().view(0)["dealer"] == 1);
  const auto before = h.chips();
  h.act(2, act("play"));
  h.act(3, act("pass"));
  h.act(0, act("play"));
  h.act(1, act("play"));
  h.act(1, act("keep"));
  CHECK(h.game().view(0)["pool_at_play"] == 10);
  play_first_legal(h);
  result = h.game().result();
  for (int seat : {2, 0, 1}) {
    const int tricks = h.game().view(0)["seats"][seat]["tricks"];
    CHECK(h.chips(seat) - before[seat] == 2 * tricks - (tricks == 0 ? 5 : 0));
  }
  CHECK(h.chips(3) == before[3]);
}

TEST_CASE("E6 in play: follow suit and head the trick if possible; refusals change nothing") {
  auto h = e1_declared();
  h.act(1, card("7D"));
  CHECK(h.legal(3) == Json::array({card("AH"), card("KH"), card("QH")}));  // void: must trump
  CHECK(h.refusal(3, card("7S")) == "illegal_action");
  CHECK(h.refusal(0, card("8S")) == "not_your_turn");
  CHECK(h.refusal(3, card("AD")) == "illegal_action");
  h.act(3, card("KH"));
  CHECK(h.legal(0).size() == 5);  // void in diamonds and trumps: any card
}

TEST_CASE("E2: when all before him pass, the player before the dealer must play or pay the dealer five") {
  auto h = e1_table();
  h.act(1, act("pass"));
  h.act(2, act("pass"));
  CHECK(h.legal(3) == Json::array({act("play"), act("take_widow"), general(false), general(true), act("pay_dealer")}));
  CHECK(h.refusal(3, act("pass")) == "illegal_action");
  CHECK(h.refusal(2, act("pay_dealer")) == "not_your_turn");
  h.act(3, act("pay_dealer"));
  CHECK(h.chips(3) == 95);
  CHECK(h.chips(0) == 100);
  CHECK(h.pool("pool") == 5);  // carried over
  CHECK(h.game().phase() == Phase::deal_over);
  CHECK(h.game().result()["outcome"] == "paid_dealer");
  h.next_deal();
  CHECK(h.pool("pool") == 10);
}

TEST_CASE("the view and the log say who is forced to play: the player before the dealer, then a lone player's dealer") {
  auto h = e1_table();
  CHECK(h.game().view(0)["forced"].is_null());
  h.act(1, act("pass"));
  const auto fx = h.act(2, act("pass"));
  CHECK(h.game().view(0)["forced"] == 3);
  CHECK(std::find(fx.log.begin(), fx.log.end(), "{seat:3} must play or pay the dealer: everyone before him passed.") !=
        fx.log.end());
  const auto alone = h.act(3, act("play"));
  CHECK(h.game().view(1)["forced"] == 0);
  CHECK(std::find(alone.log.begin(), alone.log.end(),
                  "{seat:0} must play: one player alone plays against the dealer.") != alone.log.end());
}

TEST_CASE("pay_dealer is offered only to the forced player") {
  auto h = e1_table();
  CHECK(h.refusal(1, act("pay_dealer")) == "illegal_action");
  h.act(1, act("play"));
  h.act(2, act("pass"));
  CHECK(h.refusal(3, act("pay_dealer")) == "illegal_action");
  h.act(3, act("pass"));
}

TEST_CASE("E3: against a lone player the dealer must play, and may exchange a card for the turned trump") {
  auto h = e1_table();
  h.act(1, act("play"));
  h.act(2, act("pass"));
  h.act(3, act("pass"));
  CHECK(h.refusal(0, act("pass")) == "illegal_action");
  CHECK(h.legal(0) == Json::array({act("play"), act("take_widow"), general(false), general(true)}));
  h.act(0, act("play"));
  auto legal = h.legal(0);
  CHECK(legal.size() == 6);
  CHECK(legal[0] == act("keep"));
  CHECK(h.refusal(0, {{"type", "exchange"}, {"card", "AS"}}) == "illegal_action");
  h.act(0, {{"type", "exchange"}, {"card", "8S"}});
  auto hand = h.game().view(0)["seats"][0]["cards"];
  CHECK(hand == Json::array({"8C", "9S", "9C", "TS", "JH"}));
  CHECK(h.game().view(1)["turned_taken"] == true);
  CHECK(h.game().to_act() == std::vector<int>{1});
}

TEST_CASE("with two players in, the dealer may pass") {
  auto h = e1_table();
  h.act(1, act("play"));
  h.act(2, act("play"));
  h.act(3, act("pass"));
  CHECK(h.legal(0)[0] == act("pass"));
  h.act(0, act("pass"));
  CHECK(h.game().to_act() == std::vector<int>{1});  // no exchange for a dealer who passed
}

TEST_CASE("taking the widow: the hand is laid aside, and nobody may take it again") {
  auto h = e1_table();
  h.act(1, act("take_widow"));
  CHECK(h.game().view(1)["seats"][1]["cards"] == Json(e1_widow));
  CHECK(parlour::test::view_pile(h.game().view(1), "widow")["count"] == 0);
  CHECK(h.legal(2) == Json::array({act("pass"), act("play"), general(false)}));
  CHECK(h.refusal(2, act("take_widow")) == "illegal_action");
  CHECK(h.refusal(2, general(true)) == "illegal_action");
  // The laid-aside hand is seen by nobody.
  for (const auto& c : e1_s1) CHECK(h.game().view(2).dump().find('"' + c + '"') == std::string::npos);
}

TEST_CASE("E4 (first-deal pool of 5): General Rams won takes five from each and the pool") {
  Harness h("rams", {}, {100, 100, 100, 100}, 1,
            deck({{"QS", "JS", "QC", "JC", "9D"},
                  {"AS", "AC", "AD", "AH", "KH"},
                  {"7S", "7C", "7D", "8S", "8C"},
                  {"9S", "9C", "8D", "TS", "TC"}},
                 {"QH", "TH", "9H", "8H", "7H"}, "JH"));
  h.act(1, act("pass"));
  h.act(2, general());
  CHECK(h.game().view(0)["general"] == 2);
  // Those who passed or had not declared choose in turn from the announcer's left.
  CHECK(h.game().to_act() == std::vector<int>{3});
  CHECK(h.legal(3) == Json::array({act("play"), act("take_widow")}));
  h.act(3, act("play"));
  h.act(0, act("play"));
  h.act(1, act("play"));
  h.act(0, act("keep"));
  CHECK(h.game().to_act() == std::vector<int>{2});  // the announcer leads
  play_first_legal(h);
  CHECK(h.game().result()["outcome"] == "general_won");
  CHECK(h.chips() == std::vector<std::int64_t>{90, 95, 120, 95});
  CHECK(h.pool("pool") == 0);
  CHECK(net(h.game().result(), 2) == 20);
}

namespace {

// E5's deal: seat 1 passes, seat 2 announces General Rams, the others play and
// the dealer keeps his hand.
Harness e5_general_announced() {
  Harness h("rams", {}, {100, 100, 100, 100}, 1,
            deck({{"QS", "JS", "QC", "JC", "8D"},
                  {"AS", "AC", "7D", "KS", "KC"},
                  {"7S", "7C", "AD", "KD", "QD"},
                  {"8S", "8C", "9S", "9C", "TS"}},
                 {"TH", "9H", "8H", "7H", "AH"}, "JH"));
  h.act(1, act("pass"));
  h.act(2, general());
  h.act(3, act("play"));
  h.act(0, act("play"));
  h.act(1, act("play"));
  h.act(0, act("keep"));
  return h;
}

}  // namespace

TEST_CASE("E5 (first-deal pool of 5): General Rams lost at trick 3 pays five to each and doubles the pool") {
  auto h = e5_general_announced();
  for (auto [s, c] : std::vector<std::pair<int, std::string>>{
           {2, "AS"}, {3, "7S"}, {0, "8S"}, {1, "QS"}, {2, "AC"}, {3, "7C"}, {0, "8C"}, {1, "QC"}})
    h.act(s, card(c));
  CHECK(h.game().view(0)["seats"][2]["tricks"] == 2);
  h.act(2, card("7D"));
  CHECK(h.legal(3) == Json::array({card("AD"), card("KD"), card("QD")}));
  h.act(3, card("AD"));
  h.act(0, card("9S"));
  h.act(1, card("8D"));
  CHECK(h.game().phase() == Phase::deal_over);  // play stops at the first lost trick
  CHECK(h.game().result()["outcome"] == "general_lost");
  CHECK(h.chips() == std::vector<std::int64_t>{100, 105, 80, 105});
  CHECK(h.pool("pool") == 10);
  h.next_deal();
  CHECK(h.pool("pool") == 15);
}

TEST_CASE("E4/E5 with a pool of 10: the announcer nets +25 or -25") {
  std::set<std::string> seen;
  for (std::uint64_t seed = 1; seed < 200 && seen.size() < 2; ++seed) {
    Harness h("rams", {}, {100, 100, 100, 100}, seed);
    h.act(1, act("pass"));
    h.act(2, act("pass"));
    h.act(3, act("pay_dealer"));
    h.next_deal();  // seat 1 deals; the pool is 10
    REQUIRE(h.pool("pool") == 10);
    h.act(2, general());
    h.act(3, act("play"));
    h.act(0, act("play"));
    h.act(1, act("play"));
    h.act(1, act("keep"));
    play_first_legal(h);
    const auto result = h.game().result();
    const std::string outcome = result["outcome"];
    seen.insert(outcome);
    if (outcome == "general_won") {
      CHECK(net(result, 2) == 25);
      CHECK(h.pool("pool") == 0);
      CHECK(net(result, 3) == -5);
    } else {
      REQUIRE(outcome == "general_lost");
      CHECK(net(result, 2) == -25);
      CHECK(h.pool("pool") == 20);
      CHECK(net(result, 3) == 5);
      CHECK(net(result, 0) == 5);
      CHECK(net(result, 1) == 0);  // +5 from the announcer, after his own 5 as dealer
    }
  }
  CHECK(seen.size() == 2);
}

TEST_CASE("General Rams with the widow: once it is taken the others simply pick up their hands") {
  auto h = e1_table();
  h.act(1, act("pass"));
  h.act(2, general(true));
  CHECK(h.game().view(2)["seats"][2]["cards"] == Json(e1_widow));
  CHECK(h.game().to_act() == std::vector<int>{0});  // straight to the dealer's exchange
  CHECK(h.game().view(0)["seats"][1]["status"] == "active");
  CHECK(h.game().view(0)["seats"][3]["status"] == "active");
}

TEST_CASE("option old_ranking: the king beats the ace") {
  auto s3 = e1_s3;
  auto widow = e1_widow;
  std::swap(s3[0], widow[4]);  // seat 3 holds the king of spades
  for (bool old : {false, true}) {
    Harness h("rams", {{"old_ranking", old}}, {100, 100, 100, 100}, 1, deck({e1_s1, e1_s2, s3, e1_s0}, widow, "JH"));
    h.act(1, act("play"));
    h.act(2, act("pass"));
    h.act(3, act("play"));
    h.act(0, act("pass"));
    h.act(1, card("AS"));
    h.act(3, card("KS"));
    CHECK(h.game().view(0)["seats"][3]["tricks"] == (old ? 1 : 0));
    CHECK(h.game().view(0)["seats"][1]["tricks"] == (old ? 0 : 1));
  }
}

TEST_CASE("no seat is overdrawn: a player without five chips pays what he has, the rest named unpaid") {
  Harness h("rams", {}, {100, 100, 100, 2}, 1, deck({e1_s1, e1_s2, e1_s3, e1_s0}, e1_widow, "JH"));
  h.act(1, act("pass"));
  h.act(2, act("pass"));
  h.act(3, act("pay_dealer"));
  CHECK(h.chips(3) == 0);
  CHECK(h.chips(0) == 97);
  CHECK(h.game().result()["unpaid"][0]["amount"] == 3);
  CHECK(h.game().result()["seats"][3]["unpaid"] == 3);
}

TEST_CASE("a dealer who cannot put up five chips sits out and the deal passes on") {
  Harness h("rams", {}, {3, 100, 100});
  CHECK(h.game().view(0)["dealer"] == 1);
  CHECK(h.game().view(0)["could_not_deal"] == Json::array({0}));
  CHECK(h.chips(1) == 95);
  CHECK(h.game().to_act() == std::vector<int>{2});
}

TEST_CASE("malformed actions and actions of the wrong stage are refused") {
  auto h = e1_table();
  CHECK(h.refusal(1, card("AS")) == "illegal_action");
  CHECK(h.refusal(1, act("keep")) == "illegal_action");
  CHECK(h.refusal(1, {{"type", "play"}, {"card", "AS"}}) == "illegal_action");
  CHECK(h.refusal(1, {{"type", "general"}, {"widow", 1}}) == "illegal_action");
  CHECK(h.refusal(1, Json::array()) == "illegal_action");
}

TEST_CASE("leaving mid-deal voids it; the pool carries over and close shares it") {
  auto h = e1_table();
  h.act(1, act("play"));
  h.leave(2);
  CHECK(h.game().phase() == Phase::deal_over);
  CHECK(h.game().result()["outcome"] == "void");
  CHECK(h.pool("pool") == 5);
  h.next_deal();
  CHECK(h.pool("pool") == 10);
  CHECK(h.game().view(0)["dealer"] == 1);
  h.leave(3);
  CHECK(h.game().phase() == Phase::game_over);
  h.close();
  CHECK(h.pool("pool") == 0);
  CHECK(h.total() == 400);
}

TEST_CASE("randomized: 1000 deals conserve chips, every listed action applies, every game ends") {
  Playout spec;
  spec.game = "rams";
  spec.min_deals = 1000;
  spec.players_lo = 3;
  spec.players_hi = 5;
  spec.options_for = [](Rng& rng) { return Json{{"deals", 10}, {"old_ranking", rng.below(2) == 1}}; };
  spec.chips_for = [](int players, Rng& rng) {
    return std::vector<std::int64_t>(players, rng.below(4) == 0 ? 12 : 150);
  };
  spec.choose = [](const Json& legal, Rng& rng) {
    auto choice = parlour::rules::random_legal_action(legal, rng);
    if (choice["type"] == "general" && rng.below(8) != 0)  // announce a General now and then only
      choice = parlour::rules::random_legal_action(legal, rng);
    return choice;
  };
  // A passed hand is hidden from the others, its count too: chips only.
  spec.cards_conserved = [](Harness&) {};
  std::vector<std::int64_t> before;  // each seat's chips before the deal
  std::int64_t pool_before = 0;
  spec.deal_starts = [&](Harness& h) {  // the dealer's 5 chips went in the pool as the deal started
    before = h.chips();
    before[h.game().view(0)["dealer"].get<int>()] += 5;
    pool_before = h.pool("pool") - 5;
  };
  std::map<std::string, int> outcomes;
  spec.deal_over = [&](Harness& h) {
    const auto result = h.game().result();
    ++outcomes[result["outcome"].get<std::string>()];
    std::int64_t sum = 0;
    for (int s = 0; s < static_cast<int>(before.size()); ++s) {
      CHECK(h.chips(s) - before[s] == net(result, s));
      sum += net(result, s);
    }
    CHECK(sum + (h.pool("pool") - pool_before) == 0);
    CHECK(result["pool"] == h.pool("pool"));
  };
  spec.after_game = [](Harness& h) {
    CHECK(h.game().deals_played() <= 10);
    const auto total = h.total();
    h.close();
    CHECK(h.total() == total);
  };
  random_playouts(spec);
  for (const char* outcome : {"played", "paid_dealer", "general_won", "general_lost"}) CHECK(outcomes[outcome] > 0);
}

TEST_CASE("the registry lists Rams for 3 to 5 players with its options") {
  const auto* info = parlour::rules::Registry::builtin().find("rams");
  REQUIRE(info != nullptr);
  CHECK(info->min_players == 3);
  CHECK(info->max_players == 5);
  CHECK(parlour::rules::Registry::builtin().find("General Rams") == info);
  const auto options = parlour::rules::Registry::validate_options(*info, Json::object());
  CHECK(options["old_ranking"] == false);
  CHECK(options["packets"] == "2-3");
  CHECK(options["deals"] == 0);
}

// Every movement of a deal is in its result with the memo the ledger shows
// (the table adds "Rams: " and each {seat:N}'s name).
TEST_CASE("ledger memos: the dealer's chips, a fifth of the pool for a trick with its card, no trick pays") {
  auto h = e1_declared();
  for (auto [s, c] : std::vector<std::pair<int, std::string>>{{1, "AS"}, {3, "7S"}, {0, "8S"},
                                                               {1, "AC"}, {3, "7C"}, {0, "8C"},
                                                               {1, "7D"}, {3, "AH"}, {0, "9S"},
                                                               {3, "KH"}, {0, "TS"}, {1, "8D"},
                                                               {3, "QH"}, {0, "9C"}, {1, "9D"}})
    h.act(s, card(c));
  const auto movements = h.game().result()["movements"];
  REQUIRE(movements.size() == 7);
  CHECK(movements[0]["memo"] == "the dealer's 5 into the pool: {seat:0} deals deal 1");
  CHECK(movements[1]["memo"] == "a fifth of the pool for a trick: {seat:1} took trick 1 with the A♠");
  CHECK(movements[3]["memo"] == "a fifth of the pool for a trick: {seat:3} took trick 3 with the A♥");
  CHECK(movements[6]["memo"] == "{seat:0} played and took no trick: 5 into the next pool");
}

TEST_CASE("ledger memos: the forced player pays the dealer; General Rams lost pays each and doubles the pool") {
  auto forced = e1_table();
  forced.act(1, act("pass"));
  forced.act(2, act("pass"));
  const auto paid = forced.act(3, act("pay_dealer"));
  REQUIRE(paid.transfers.size() == 1);
  CHECK(paid.transfers[0].memo == "everyone before {seat:3} passed: rather than play, he pays the dealer, {seat:0}, 5");

  auto h = e5_general_announced();
  for (auto [s, c] : std::vector<std::pair<int, std::string>>{{2, "AS"}, {3, "7S"}, {0, "8S"}, {1, "QS"},
                                                               {2, "AC"}, {3, "7C"}, {0, "8C"}, {1, "QC"},
                                                               {2, "7D"}, {3, "AD"}, {0, "9S"}})
    h.act(s, card(c));
  const auto lost = h.act(1, card("8D"));
  REQUIRE(lost.transfers.size() == 4);
  CHECK(lost.transfers[0].memo == "{seat:2} lost General Rams, a trick taken from him: he pays each player 5");
  CHECK(lost.transfers[3].memo == "{seat:2} lost General Rams: he doubles the pool of 5");
}

TEST_CASE("snapshot: restored during the declarations, the hidden widow comes back to whoever takes it") {
  auto h = e1_table();
  h.act(1, act("play"));
  auto restored = h.restored(Json::parse(h.game().snapshot().dump()));
  // A snapshot short of any field, or naming a seat or turn the table has not, is refused.
  h.spoilt_snapshots_refused({"dealer", "decl_index"});
  CHECK(restored->to_act() == std::vector<int>{2});
  CHECK(restored->view(3)["seats"][3]["cards"] == Json(e1_s3));
  restored->apply(2, act("take_widow"), {95, 100, 100, 100});
  CHECK(restored->view(2)["seats"][2]["cards"] == Json(e1_widow));
  CHECK(restored->view(std::nullopt)["turned"] == "JH");
}

}  // namespace unity_test_rams
