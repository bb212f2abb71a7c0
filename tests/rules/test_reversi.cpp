// Reversi, source 000 "REVERSI" and rules/other.md §7 (sweepstake settlement).
#include <doctest/doctest.h>

#include <map>

#include "rules/random_play.h"
#include "rules/snapshot.h"
#include "tests/rules/harness.h"
#include "tests/rules/playout.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_reversi {

using parlour::test::cards;
using parlour::test::Harness;
using parlour::test::Playout;
using parlour::test::random_playouts;
using parlour::rules::Rng;
using parlour::rules::Json;
using parlour::rules::Phase;

namespace {

// Hands in play order (from the dealer's left, dealer last), dealt one card at a time.
std::vector<parlour::rules::Card> stack(const std::vector<std::vector<std::string>>& hands_in_play_order) {
  std::vector<std::string> deck;
  for (std::size_t round = 0; round < hands_in_play_order[0].size(); ++round)
    for (const auto& hand : hands_in_play_order)
      if (round < hand.size()) deck.push_back(hand[round]);
  return cards(deck);
}

std::vector<std::string> suit_run(char suit, const std::string& ranks) {
  std::vector<std::string> out;
  for (char r : ranks) out.push_back(std::string{r, suit});
  return out;
}

Json card(const std::string& c) { return {{"type", "card"}, {"card", c}}; }

// Plays the deal out: every seat plays its queue in order when its turn comes.
void play_queues(Harness& h, std::map<int, std::vector<std::string>> queues) {
  std::map<int, std::size_t> next;
  while (h.game().phase() == Phase::playing) {
    const int seat = h.game().to_act()[0];
    REQUIRE(next[seat] < queues[seat].size());
    h.act(seat, card(queues[seat][next[seat]++]));
  }
}

// Seat 1 takes 12 tricks with spades, seat 2 the last with a heart; seats 3 and 0 none.
struct TwelveOne {
  std::vector<std::string> s1 = suit_run('S', "AKQJT9876543");
  std::vector<std::string> s2 = {"2S"};
  std::vector<std::string> s3 = suit_run('D', "AKQJT98765432");
  std::vector<std::string> s0 = suit_run('C', "AKQJT98765432");
  TwelveOne() {
    s1.push_back("2H");
    for (auto c : suit_run('H', "AKQJT9876543")) s2.push_back(c);
  }
  std::vector<parlour::rules::Card> deck() const { return stack({s1, s2, s3, s0}); }
  std::map<int, std::vector<std::string>> queues() const { return {{1, s1}, {2, s2}, {3, s3}, {0, s0}}; }
};

// Every seat takes one trick, then seat 1 the other nine: a jack.
std::map<int, std::vector<std::string>> jack_queues() {
  std::map<int, std::vector<std::string>> q;
  q[1] = {"2H", "3S", "4S", "AS"};
  for (auto c : suit_run('S', "56789TJQK")) q[1].push_back(c);
  q[2] = {"AH", "2D", "3H", "4H"};
  for (auto c : suit_run('H', "56789TJQK")) q[2].push_back(c);
  q[3] = {"3D", "AD", "2C", "4D"};
  for (auto c : suit_run('D', "56789TJQK")) q[3].push_back(c);
  q[0] = {"3C", "4C", "AC", "2S"};
  for (auto c : suit_run('C', "56789TJQK")) q[0].push_back(c);
  return q;
}

}  // namespace

TEST_CASE("four players get thirteen cards each; the dealer's left leads; hands are hidden") {
  Harness h("reversi", {}, {50, 50, 50, 50});
  CHECK(h.game().to_act() == std::vector<int>{1});
  auto view = h.game().view(1);
  CHECK(view["seats"][1]["cards"].size() == 13);
  CHECK(view["seats"][2]["cards"] == Json(std::vector<std::string>(13, "??")));
  auto spectator = h.game().view(std::nullopt);
  for (int s = 0; s < 4; ++s) CHECK(spectator["seats"][s]["cards"] == Json(std::vector<std::string>(13, "??")));
  CHECK(h.legal(1).size() == 13);
  CHECK(h.legal(2).empty());
}

TEST_CASE("cards removed: 2S for three, 2S and 2C for five, all 2s for six") {
  const std::map<int, int> each = {{3, 17}, {5, 10}, {6, 8}};
  for (auto [players, count] : each) {
    Harness h("reversi", {}, std::vector<std::int64_t>(players, 50), 7);
    for (int s = 0; s < players; ++s) {
      auto hand = h.game().view(s)["seats"][s]["cards"];
      CHECK(hand.size() == static_cast<std::size_t>(count));
      for (const auto& c : hand) {
        CHECK(c != "2S");
        if (players >= 5) CHECK(c != "2C");
        if (players == 6) CHECK((c != "2H" && c != "2D"));
      }
    }
  }
}

TEST_CASE("players must follow suit; off-turn, unheld and malformed plays are refused and change nothing") {
  TwelveOne t;
  Harness h("reversi", {}, {50, 50, 50, 50}, 1, t.deck());
  CHECK(h.refusal(2, card("2S")) == "not_your_turn");
  CHECK(h.refusal(1, card("AH")) == "illegal_action");
  CHECK(h.refusal(1, {{"type", "play"}}) == "illegal_action");
  CHECK(h.refusal(1, {{"type", "card"}}) == "illegal_action");
  CHECK(h.refusal(1, {{"type", "card"}, {"card", "AS"}, {"x", 1}}) == "illegal_action");
  h.act(1, card("AS"));
  CHECK(h.legal(2) == Json::array({card("2S")}));
  CHECK(h.refusal(2, card("AH")) == "illegal_action");
  h.act(2, card("2S"));
  CHECK(h.legal(3).size() == 13);  // void in spades: any card
}

TEST_CASE("the highest card of the suit led wins the trick and the winner leads") {
  auto q = jack_queues();
  Harness h("reversi", {}, {50, 50, 50, 50}, 1, stack({q[1], q[2], q[3], q[0]}));
  h.act(1, card("2H"));
  h.act(2, card("AH"));
  h.act(3, card("3D"));
  h.act(0, card("3C"));
  CHECK(h.game().view(0)["seats"][2]["tricks"] == 1);
  CHECK(h.game().to_act() == std::vector<int>{2});
  CHECK(h.game().view(0)["last_trick"].size() == 4);
  h.act(2, card("2D"));
  h.act(3, card("AD"));
  h.act(0, card("4C"));
  h.act(1, card("3S"));
  CHECK(h.game().to_act() == std::vector<int>{3});
}

TEST_CASE("each trick costs a chip into the pool; the players who took none share it, odd chips stay") {
  TwelveOne t;
  Harness h("reversi", {}, {50, 50, 50, 50}, 1, t.deck());
  play_queues(h, t.queues());
  CHECK(h.game().phase() == Phase::deal_over);
  // Pool 12 + 1 = 13; seats 3 and 0 share 6 each; 1 stays.
  CHECK(h.chips() == std::vector<std::int64_t>{56, 38, 49, 56});
  CHECK(h.pool("pool") == 1);
  auto result = h.game().result();
  CHECK(result["seats"][1]["tricks"] == 12);
  CHECK(result["seats"][1]["chips"] == -12);
  CHECK(result["seats"][3]["outcome"] == "clean");
  CHECK(result["movements"].size() == 4);
  CHECK(result["jack"] == false);
}

TEST_CASE("when everyone takes a trick the pool is a jack and carries over") {
  auto q = jack_queues();
  Harness h("reversi", {}, {50, 50, 50, 50}, 1, stack({q[1], q[2], q[3], q[0]}));
  play_queues(h, q);
  CHECK(h.chips() == std::vector<std::int64_t>{49, 40, 49, 49});
  CHECK(h.pool("pool") == 13);
  CHECK(h.game().result()["jack"] == true);
  h.next_deal();
  CHECK(h.pool("pool") == 13);
  CHECK(h.game().view(0)["dealer"] == 1);
  CHECK(h.game().to_act() == std::vector<int>{2});
}

TEST_CASE("reversis: one player takes all the tricks, pays nothing, and collects the tricks from each") {
  Harness h("reversi", {{"stake", 2}}, {50, 50, 50, 50}, 1,
            stack({suit_run('S', "AKQJT98765432"), suit_run('H', "AKQJT98765432"), suit_run('D', "AKQJT98765432"),
                   suit_run('C', "AKQJT98765432")}));
  for (int trick = 0; trick < 13; ++trick)
    for (int seat : {1, 2, 3, 0}) h.act(seat, h.legal(seat)[0]);
  CHECK(h.chips() == std::vector<std::int64_t>{24, 50 + 78, 24, 24});
  CHECK(h.pool("pool") == 0);
  CHECK(h.game().result()["reversis"] == 1);
  CHECK(h.game().result()["seats"][1]["outcome"] == "reversis");
}

TEST_CASE("option stake multiplies every payment") {
  TwelveOne t;
  Harness h("reversi", {{"stake", 3}}, {100, 100, 100, 100}, 1, t.deck());
  play_queues(h, t.queues());
  CHECK(h.chips() == std::vector<std::int64_t>{119, 64, 97, 119});
  CHECK(h.pool("pool") == 1);
}

TEST_CASE("a player who owes more than he has pays what he has; the rest is named unpaid") {
  TwelveOne t;
  Harness h("reversi", {}, {50, 5, 50, 50}, 1, t.deck());
  play_queues(h, t.queues());
  CHECK(h.chips(1) == 0);
  CHECK(h.game().result()["seats"][1]["unpaid"] == 7);
  CHECK(h.game().result()["unpaid"][0]["amount"] == 7);
  CHECK(h.pool("pool") == 0);  // 5 + 1 = 6 shared 3 and 3
  CHECK(h.chips(3) == 53);
}

TEST_CASE("a player leaving mid-deal voids it; below three players the game is over; close shares the pool") {
  auto q = jack_queues();
  Harness h("reversi", {}, {50, 50, 50, 50}, 1, stack({q[1], q[2], q[3], q[0]}));
  play_queues(h, q);
  h.next_deal();
  h.leave(2);
  CHECK(h.game().phase() == Phase::deal_over);
  CHECK(h.game().result()["void"] == true);
  h.next_deal();
  CHECK(h.game().phase() == Phase::playing);
  CHECK(h.game().view(0)["seats"][0]["cards"].size() == 17);
  h.leave(3);
  CHECK(h.game().phase() == Phase::game_over);
  h.close();
  CHECK(h.pool("pool") == 0);
  CHECK(h.total() == 200);
}

TEST_CASE("randomized: 1000 deals conserve chips, settle as the rules say, and every listed action applies") {
  Playout spec;
  spec.game = "reversi";
  spec.min_deals = 1000;
  spec.players_lo = 3;
  spec.players_hi = 6;
  spec.options_for = [](Rng& rng) { return Json{{"deals", 10}, {"stake", 1 + static_cast<int>(rng.below(2))}}; };
  spec.chips_for = [](int players, Rng& rng) {
    return std::vector<std::int64_t>(players, rng.below(5) == 0 ? 6 : 200);
  };
  spec.cards_conserved = [](Harness&) {};  // chips only
  std::int64_t pool_before = 0;
  std::vector<std::int64_t> chips_before;
  spec.deal_starts = [&](Harness& h) {
    pool_before = h.pool("pool");
    chips_before = h.chips();
  };
  spec.deal_over = [&](Harness& h) {
    const auto result = h.game().result();
    std::int64_t paid = 0;
    for (const auto& line : result["seats"]) {
      const int s = line["seat"];
      CHECK(h.chips(s) - chips_before[s] == line["chips"].get<std::int64_t>());
      if (result["reversis"].is_null()) paid += -std::min<std::int64_t>(0, line["chips"].get<std::int64_t>());
    }
    if (result["reversis"].is_null() && result["jack"] == false) {
      std::int64_t clean = 0, gained = 0;
      for (const auto& line : result["seats"])
        if (line["tricks"] == 0) ++clean, gained += line["chips"].get<std::int64_t>();
      CHECK(gained == (pool_before + paid) / clean * clean);
    }
    if (result["jack"] == true) CHECK(h.pool("pool") == pool_before + paid);
  };
  spec.after_game = [](Harness& h) {
    CHECK(h.game().deals_played() == 10);
    const auto total = h.total();
    h.close();
    CHECK(h.pool("pool") == 0);
    CHECK(h.total() == total);
  };
  random_playouts(spec);
}

TEST_CASE("the registry lists Reversi for 3 to 6 players with stake and deals") {
  const auto* info = parlour::rules::Registry::builtin().find("reversi");
  REQUIRE(info != nullptr);
  CHECK(info->min_players == 3);
  CHECK(info->max_players == 6);
  const auto options = parlour::rules::Registry::validate_options(*info, Json::object());
  CHECK(options["stake"] == 1);
  CHECK(options["deals"] == 0);
}

// The result's movements carry the memos the ledger shows (the table adds
// "Reversi: " and each {seat:N}'s name).
TEST_CASE("ledger memos: each trick taken pays into the pool; those who took none share it") {
  TwelveOne t;
  Harness h("reversi", {}, {50, 50, 50, 50}, 1, t.deck());
  play_queues(h, t.queues());
  const auto movements = h.game().result()["movements"];
  REQUIRE(movements.size() == 4);
  CHECK(movements[0]["memo"] == "{seat:1} took 12 tricks: 1 a trick into the pool");
  CHECK(movements[1]["memo"] == "{seat:2} took 1 trick: 1 a trick into the pool");
  CHECK(movements[2]["memo"] == "{seat:3} took no trick: an equal share of the pool among the 2 who took none");
  CHECK(movements[3]["memo"] == "{seat:0} took no trick: an equal share of the pool among the 2 who took none");
}

TEST_CASE("ledger memos: reversis collects from each player and takes the pool") {
  Harness h("reversi", {{"stake", 2}}, {50, 50, 50, 50}, 1,
            stack({suit_run('S', "AKQJT98765432"), suit_run('H', "AKQJT98765432"), suit_run('D', "AKQJT98765432"),
                   suit_run('C', "AKQJT98765432")}));
  for (int trick = 0; trick < 13; ++trick)
    for (int seat : {1, 2, 3, 0}) h.act(seat, h.legal(seat)[0]);
  const auto movements = h.game().result()["movements"];
  REQUIRE(movements.size() == 3);
  CHECK(movements[0]["memo"] == "{seat:1} took every trick (reversis): each player pays him 2 a trick for 13 tricks");
}

TEST_CASE("snapshot: restored in the middle of a trick, every hidden hand comes back and the trick plays on") {
  TwelveOne t;
  Harness h("reversi", {}, {50, 50, 50, 50}, 1, t.deck());
  h.act(1, card("AS"));
  h.act(2, card("2S"));
  auto restored = h.restored(Json::parse(h.game().snapshot().dump()));
  // A snapshot short of any field, or naming a seat or turn the table has not, is refused.
  h.spoilt_snapshots_refused({"dealer", "turn"});
  CHECK(restored->to_act() == std::vector<int>{3});
  CHECK(restored->view(3)["seats"][3]["cards"] == Json(t.s3));
  CHECK(restored->view(0)["seats"][0]["cards"] == Json(t.s0));
  CHECK(restored->view(std::nullopt)["trick"]["plays"].size() == 2);
  const std::vector<std::int64_t> chips = {50, 50, 50, 50};
  restored->apply(3, card("AD"), chips);
  restored->apply(0, card("AC"), chips);
  CHECK(restored->view(std::nullopt)["seats"][1]["tricks"] == 1);  // the ace of spades led still wins it
}

}  // namespace unity_test_reversi
