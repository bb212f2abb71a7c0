// The shared trick-taking core (rules/tricks): rank orders, legal cards under the
// duties of each game (rules/other.md §2 E6, §3 E7), trick winners, packets.
#include <doctest/doctest.h>

#include "rules/snapshot.h"
#include "rules/tricks/tricks.h"
#include "tests/rules/harness.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_tricks {

using parlour::test::cards;
using namespace parlour::rules;
using namespace parlour::rules::tricks;

namespace {

Trick trick_of(const std::vector<std::string>& played) {
  Trick trick;
  int seat = 0;
  for (auto card : cards(played)) trick.push_back({seat++, card});
  return trick;
}

TrickRules rams_rules(Suit trump) { return TrickRules{RankOrder::ace_high, trump, true, true, true}; }
TrickRules rounce_rules(Suit trump) { return TrickRules{RankOrder::ace_high, trump, true, false, false}; }

}  // namespace

TEST_CASE("ace-high order and Rams' old ranking K Q J A 10 9 8 7") {
  const auto c = cards({"AS", "KS", "QS", "JS", "TS", "7S"});
  CHECK(rank_value(c[0], RankOrder::ace_high) > rank_value(c[1], RankOrder::ace_high));
  CHECK(rank_value(c[1], RankOrder::rams_old) > rank_value(c[2], RankOrder::rams_old));
  CHECK(rank_value(c[2], RankOrder::rams_old) > rank_value(c[3], RankOrder::rams_old));
  CHECK(rank_value(c[3], RankOrder::rams_old) > rank_value(c[0], RankOrder::rams_old));
  CHECK(rank_value(c[0], RankOrder::rams_old) > rank_value(c[4], RankOrder::rams_old));
  CHECK(rank_value(c[4], RankOrder::rams_old) > rank_value(c[5], RankOrder::rams_old));
}

TEST_CASE("the highest card of the suit led wins without trumps; off-suit cards never win") {
  TrickRules rules;
  CHECK(winning_index(trick_of({"9S", "AH", "TS", "2S"}), rules) == 2);
  CHECK(winning_index(trick_of({"2C", "AS", "AH", "AD"}), rules) == 0);
}

TEST_CASE("the highest trump wins; the old ranking changes the winner") {
  auto rules = rams_rules(Suit::hearts);
  CHECK(winning_index(trick_of({"AS", "7H", "KS"}), rules) == 1);
  CHECK(winning_index(trick_of({"AS", "7H", "8H"}), rules) == 2);
  CHECK(winning_index(trick_of({"AS", "KS", "QD"}), rules) == 0);
  rules.order = RankOrder::rams_old;
  CHECK(winning_index(trick_of({"AS", "KS", "QD"}), rules) == 1);
  CHECK(winning_index(trick_of({"AH", "KH"}), rules) == 1);
}

TEST_CASE("E6: Rams legality — follow, else trump, always heading the trick if possible") {
  const auto rules = rams_rules(Suit::hearts);
  CHECK(legal_cards(cards({"KS", "8S", "7H", "AC"}), trick_of({"9S"}), rules) == cards({"KS"}));
  CHECK(legal_cards(cards({"7H", "QH", "AC"}), trick_of({"9S"}), rules) == cards({"7H", "QH"}));
  CHECK(legal_cards(cards({"7H", "QH", "AC"}), trick_of({"9S", "TH"}), rules) == cards({"QH"}));
  CHECK(legal_cards(cards({"7H", "AC"}), trick_of({"9S", "TH"}), rules) == cards({"7H"}));
}

TEST_CASE("Rams legality: a follower cannot head a trumped trick and plays any card of the suit led") {
  const auto rules = rams_rules(Suit::hearts);
  CHECK(legal_cards(cards({"KS", "8S", "AC"}), trick_of({"9S", "7H"}), rules) == cards({"KS", "8S"}));
  CHECK(legal_cards(cards({"AD", "AC"}), trick_of({"9S"}), rules) == cards({"AD", "AC"}));
  CHECK(legal_cards(cards({"KH", "8H", "AC"}), trick_of({"9H"}), rules) == cards({"KH"}));
}

TEST_CASE("E7: Rounce legality — follow suit only, no duty to head or to trump") {
  const auto rules = rounce_rules(Suit::hearts);
  CHECK(legal_cards(cards({"KS", "8S", "7H", "AC"}), trick_of({"9S"}), rules) == cards({"KS", "8S"}));
  CHECK(legal_cards(cards({"7H", "AC"}), trick_of({"9S", "TH"}), rules) == cards({"7H", "AC"}));
}

TEST_CASE("a leader may lead any card") {
  const auto hand = cards({"KS", "8S", "7H", "AC"});
  CHECK(legal_cards(hand, {}, rams_rules(Suit::hearts)) == hand);
}

TEST_CASE("dealing in packets gives each hand its packet in turn, round after round") {
  Stock stock(cards({"AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "AH", "KH"}));
  auto hands = deal_in_packets(stock, {{2, 2}, {3, 3}});
  CHECK(hands[0] == cards({"AS", "KS", "TS", "9S", "8S"}));
  CHECK(hands[1] == cards({"QS", "JS", "7S", "AH", "KH"}));
  CHECK(stock.empty());
}

TEST_CASE("the deal book never overdraws a seat and names the unpaid rest") {
  ChipBook book(2, "pool");
  book.sync({3, 10});
  Effects fx;
  std::int64_t pool = 0;
  CHECK(book.seat_to_pool(0, 5, pool, "penalty", fx) == 3);
  CHECK(pool == 3);
  CHECK(book.chips(0) == 0);
  CHECK(book.unpaid(0) == 2);
  CHECK(book.seat_to_seat(1, 0, 4, "pay", fx) == 4);
  book.pool_to_seat(1, 3, pool, "share", fx);
  CHECK(book.net(0) == 1);
  CHECK(book.net(1) == -1);
  CHECK(fx.transfers.size() == 3);
  CHECK(book.movements().size() == 3);
  CHECK(book.unpaid_json().size() == 1);
}

TEST_CASE("snapshot: a trick and a deal's book come back; a seat not at the table is refused") {
  const Trick trick = trick_of({"AS", "KH", "2S"});
  const auto restored = trick_restore(Json::parse(trick_snapshot(trick).dump()), 3);
  REQUIRE(restored.size() == 3);
  CHECK(restored[1].seat == 1);
  CHECK(restored[1].card == trick[1].card);
  CHECK_THROWS_AS(trick_restore(trick_snapshot(trick), 2), SnapshotError);
  CHECK_THROWS_AS(trick_restore(Json::array({Json::array({0})}), 3), SnapshotError);

  ChipBook book(3, "pool");
  book.sync({5, 5, 5});
  Effects fx;
  std::int64_t pool = 0;
  book.seat_to_pool(2, 7, pool, "penalty", fx);
  CHECK(ChipBook::restore(book.snapshot(), 3).snapshot() == book.snapshot());
  CHECK(ChipBook::restore(book.snapshot(), 3).unpaid(2) == 2);
  CHECK_THROWS_AS(ChipBook::restore(book.snapshot(), 4), SnapshotError);
  CHECK(ChipBook::restore(ChipBook().snapshot(), 4).snapshot() == ChipBook().snapshot());  // a book never opened
}

}  // namespace unity_test_tricks
