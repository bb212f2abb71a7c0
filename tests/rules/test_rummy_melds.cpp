// The shared Rummy meld engine: rules/rummy.md §1.2–1.5 and the examples E3,
// E4, E6, E12 and E19 that rest on it.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>

#include "rules/rummy/arrangement.h"
#include "rules/rummy/meld.h"
#include "rules/rummy/rummy_base.h"
#include "rules/rummy/values.h"
#include "tests/rules/harness.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_rummy_melds {

using namespace parlour::rules;
using namespace parlour::rules::rummy;
using parlour::test::cards;

namespace {

MeldRules with_ace(AceMode mode) {
  MeldRules rules;
  rules.ace = mode;
  return rules;
}

std::string reason(const std::vector<std::string>& meld, const MeldRules& rules = {}) {
  auto check = validate_meld(cards(meld), rules);
  return check ? "ok" : check.reason;
}

Meld meld_of(const std::vector<std::string>& names, const MeldRules& rules = {}) {
  auto check = validate_meld(cards(names), rules);
  REQUIRE_MESSAGE(check, check.message);
  return *check.meld;
}

std::string lay_off(const Meld& meld, const std::vector<std::string>& added, const MeldRules& rules = {}) {
  auto check = extend_meld(meld, cards(added), rules);
  return check ? "ok" : check.reason;
}

}  // namespace

TEST_CASE("sets are three or four of a rank; runs three or more of a suit in sequence") {
  CHECK(reason({"9S", "9D", "9H"}) == "ok");
  CHECK(reason({"9S", "9D", "9H", "9C"}) == "ok");
  CHECK(reason({"5H", "6H", "7H", "8H", "9H"}) == "ok");
  CHECK(meld_of({"7H", "5H", "6H"}).cards[0].as == *parse_card("5H"));  // runs are ordered low to high
  CHECK(reason({"9S", "9D"}) == "too_few_cards");
  CHECK(reason({"9S", "9D", "8H"}) == "mixed_ranks");
  CHECK(reason({"5H", "6H", "7D"}) == "mixed_ranks");
  CHECK(reason({"5H", "6H", "8H"}) == "not_consecutive");
  CHECK(reason({"9S", "9S", "9D"}) == "duplicate_suit_in_set");
}

TEST_CASE("two packs: a set may repeat a card when the game allows it; a run never") {
  MeldRules two_packs;
  two_packs.set_duplicates = true;
  two_packs.ace = AceMode::low_or_high;
  CHECK(reason({"7S", "7S", "7D"}, two_packs) == "ok");  // E19
  CHECK(reason({"7S", "7S", "8S", "9S"}, two_packs) == "duplicate_card_in_run");
  MeldRules carousel = two_packs;
  carousel.set_distinct_suits = true;
  CHECK(reason({"7S", "7S", "7D"}, carousel) == "duplicate_suit_in_set");
}

TEST_CASE("E4: the ace is low by default, high with high_low, both round the corner") {
  CHECK(reason({"AS", "2S", "3S"}) == "ok");
  CHECK(reason({"QS", "KS", "AS"}) == "ace_high_not_allowed");
  CHECK(reason({"KS", "AS", "2S"}) == "ace_wrap_not_allowed");
  auto high_low = with_ace(AceMode::low_or_high);
  CHECK(reason({"AS", "KS", "QS"}, high_low) == "ok");
  CHECK(reason({"3D", "2D", "AD"}, high_low) == "ok");
  CHECK(reason({"KH", "AH", "2H"}, high_low) == "ace_wrap_not_allowed");
  auto around = with_ace(AceMode::around);
  auto corner = meld_of({"2C", "AC", "KC"}, around);
  CHECK(lay_off(corner, {"QC"}, around) == "ok");
  auto longer = *extend_meld(corner, cards({"QC"}), around).meld;
  CHECK(lay_off(longer, {"3C"}, around) == "ok");
  auto persian = with_ace(AceMode::high);
  CHECK(reason({"AS", "KS", "QS"}, persian) == "ok");
  CHECK(reason({"AS", "2S", "3S"}, persian) == "ace_low_not_allowed");
}

TEST_CASE("E3: lay-offs on a set and at both ends of a run, several cards at once") {
  CHECK(lay_off(meld_of({"9C", "9D", "9H"}), {"9S"}) == "ok");
  auto run = meld_of({"7S", "6S", "5S"});
  CHECK(lay_off(run, {"8S", "9S"}) == "ok");
  auto longer = *extend_meld(run, cards({"9S", "8S"}), {}).meld;
  CHECK(lay_off(longer, {"4S", "3S"}) == "ok");
  CHECK(extend_meld(longer, cards({"4S", "3S"}), {}).meld->cards.size() == 7);
  CHECK(lay_off(run, {"9S"}) == "not_consecutive");
  CHECK(lay_off(run, {"8H"}) == "mixed_ranks");
  CHECK(lay_off(meld_of({"9C", "9D", "9H", "9S"}), {"9S"}) != "ok");
}

TEST_CASE("E6: deuces wild stand for the card they complete; a meld needs a natural card") {
  MeldRules wild;
  wild.deuces_wild = true;
  wild.jokers_wild = true;
  auto set = meld_of({"9S", "9D", "9H", "2C"}, wild);
  CHECK(set.cards[3].wild);
  CHECK(set.cards[3].as == *parse_card("9C"));
  auto run = meld_of({"6H", "2D", "4H"}, wild);
  CHECK(run.kind == MeldKind::run);
  CHECK(run.cards[1].as == *parse_card("5H"));
  CHECK(reason({"2C", "2D", "JK"}, wild) == "ok");  // three natural deuces... are two deuces and a joker: a set of 2s
  CHECK(reason({"JK", "JK", "2D"}, wild) == "ok");
  CHECK(reason({"2H", "3H", "4H"}, wild) == "ok");  // the deuce may stand as itself
  auto declared = validate_meld(cards({"9S", "9D", "2C"}), wild, cards({"9H"}));
  REQUIRE(declared);
  CHECK(declared.meld->cards[2].as == *parse_card("9H"));
  CHECK(validate_meld(cards({"9S", "9D", "2C"}), wild, cards({"8H"})).reason == "bad_wild_declaration");
  CHECK(reason({"JK", "5H", "6H"}) == "joker_not_allowed_here");
}

TEST_CASE("a meld of wild cards only is refused") {
  MeldRules jokers;
  jokers.jokers_wild = true;
  CHECK(reason({"JK", "JK", "JK"}, jokers) == "too_few_natural_cards");
}

TEST_CASE("E12: Persian jokers meld only as a set of jokers") {
  MeldRules persian;
  persian.ace = AceMode::high;
  persian.jokers_own_rank = true;
  auto jokers = meld_of({"JK", "JK", "JK"}, persian);
  CHECK(jokers.kind == MeldKind::jokers);
  CHECK(lay_off(jokers, {"JK"}, persian) == "ok");
  CHECK(reason({"JK", "8S", "8H"}, persian) == "joker_not_allowed_here");
  CHECK(lay_off(meld_of({"8S", "8H", "8D"}, persian), {"JK"}, persian) == "joker_not_allowed_here");
  CHECK(CardValues::michigan().of_meld(jokers) == 60);
}

TEST_CASE("card values: basic, ace 11, Michigan's ace 15 except low in a run") {
  const auto hand = cards({"KS", "7H", "AD"});
  CHECK(CardValues::basic().of_cards(hand) == 18);
  CHECK(CardValues::ace11().of_cards(cards({"AC", "5D"})) == 16);
  const auto michigan = CardValues::michigan();
  CHECK(michigan.of_meld(meld_of({"3H", "2H", "AH"})) == 6);
  CHECK(michigan.of_meld(meld_of({"AS", "AH", "AD"})) == 45);
  CHECK(michigan.of_meld(meld_of({"QC", "KC", "AC"}, with_ace(AceMode::low_or_high))) == 35);
  MeldRules wild;
  wild.deuces_wild = true;
  CHECK(CardValues::wild25().of_meld(meld_of({"9S", "9D", "9H", "2C"}, wild)) == 52);
}

TEST_CASE("the arrangement search finds the lowest deadwood") {
  auto hand = cards({"5H", "6H", "7H", "7S", "7D", "KC", "2C"});
  auto best = best_arrangement(hand, {}, CardValues::basic());
  // The run 5-6-7♥ leaves 7♠ 7♦ K♣ 2♣ (26); the set of sevens leaves 5♥ 6♥ K♣ 2♣ (23).
  CHECK(best.deadwood_value == 23);
  CHECK(best.melds.size() == 1);
  CHECK(best.melds[0].kind == MeldKind::set);
}

TEST_CASE("the arrangement search covers a whole hand with sets and runs") {
  auto hand = cards({"5H", "6H", "7H", "8H", "9C", "9D", "9S"});
  CHECK(can_meld_all(hand, {}));
  auto with_extra = cards({"5H", "6H", "7H", "8H", "9C", "9D", "9S", "KC"});
  CHECK_FALSE(can_meld_all(with_extra, {}));
  CHECK(can_meld_all(with_extra, {}, /*leave_one=*/true));
  MeldRules wild;
  wild.deuces_wild = true;
  auto wild_hand = cards({"9S", "9D", "9H", "2C", "6H", "2D", "4H"});
  auto best = best_arrangement(wild_hand, wild, CardValues::wild25());
  CHECK(best.deadwood.empty());
  CHECK(best.melds.size() == 2);
}

// Going out lists one arrangement per discard from meld_every_card and
// melds_all_but (rules/rummy/going_out.cpp): they must answer as the full search
// does with every card worth one, the same melds included, for every meld rule.
namespace {
// The meld rules the searches are compared under: each ace rule, wilds of both
// kinds, Persian's jokers, Carousel's sets.
std::vector<std::pair<const char*, MeldRules>> varied_rule_sets() {
  MeldRules two_packs_deuces;
  two_packs_deuces.deuces_wild = true;
  two_packs_deuces.set_duplicates = true;
  MeldRules jokers;
  jokers.jokers_wild = true;
  jokers.ace = AceMode::low_or_high;
  MeldRules persian;
  persian.jokers_own_rank = true;
  MeldRules carousel;
  carousel.set_distinct_suits = true;
  carousel.set_max = 8;
  carousel.set_duplicates = true;
  return {{"ace low", {}},           {"round the corner", with_ace(AceMode::around)}, {"two packs, deuces wild", two_packs_deuces},
          {"jokers wild", jokers}, {"Persian jokers", persian},                     {"Carousel", carousel}};
}

// Two packs and four jokers.
std::vector<Card> two_packs_and_jokers() {
  std::vector<Card> pack;
  for (int copy = 0; copy < 2; ++copy)
    for (int suit = 0; suit < 4; ++suit)
      for (int rank = 1; rank <= 13; ++rank) pack.push_back(Card{static_cast<std::uint8_t>(rank), static_cast<Suit>(suit)});
  for (int j = 0; j < 4; ++j) pack.push_back(Card::joker());
  return pack;
}
}  // namespace

TEST_CASE("the search that melds every card agrees with the lowest-deadwood search") {
  const auto rule_sets = varied_rule_sets();
  auto pack = two_packs_and_jokers();
  const CardValues ones{1, 1, 1, 1, 1};  // as going out's listing searched: every card worth something
  std::mt19937 random(20261127);
  for (const auto& [name, rules] : rule_sets) {
    CAPTURE(name);
    int whole = 0;
    int nearly = 0;
    for (int deal = 0; deal < 400; ++deal) {
      // Hands made of runs and sets, then up to two cards of the pack (wilds among
      // them), shuffled: most meld whole or all but a card or two.
      std::vector<Card> hand;
      auto pick = [&](int low, int high) { return std::uniform_int_distribution<int>(low, high)(random); };
      const std::size_t target = static_cast<std::size_t>(pick(3, 13));
      while (hand.size() < target) {
        if (pick(0, 1)) {
          const auto suit = static_cast<Suit>(pick(0, 3));
          const int start = pick(1, 11);
          for (int rank = start; rank < start + pick(3, 5) && rank <= 13; ++rank)
            hand.push_back(Card{static_cast<std::uint8_t>(rank), suit});
        } else {
          const int rank = pick(1, 13);
          const int first = pick(0, 3);
          for (int k = 0; k < 3; ++k) hand.push_back(Card{static_cast<std::uint8_t>(rank), static_cast<Suit>((first + k) % 4)});
        }
      }
      std::shuffle(pack.begin(), pack.end(), random);
      hand.insert(hand.end(), pack.begin(), pack.begin() + deal % 3);
      if (!rules.set_duplicates) {  // one pack: each card once
        std::vector<Card> once;
        for (auto card : hand)
          if (card.is_joker() || std::find(once.begin(), once.end(), card) == once.end()) once.push_back(card);
        hand = once;
      }
      std::shuffle(hand.begin(), hand.end(), random);
      std::string shown;
      for (const auto& card : to_strings(hand)) shown += card + " ";
      CAPTURE(shown);
      const auto best = best_arrangement(hand, rules, ones);
      const auto every = meld_every_card(hand, rules);
      REQUIRE(every.has_value() == best.deadwood.empty());
      if (every) {
        ++whole;
        REQUIRE(every->melds.size() == best.melds.size());
        for (std::size_t m = 0; m < best.melds.size(); ++m) {
          CHECK(every->melds[m].kind == best.melds[m].kind);
          CHECK(every->melds[m].cards == best.melds[m].cards);
        }
      }
      // All but one card: some card out, the rest melded whole (the brute force the listing used).
      bool all_but_one = best.deadwood.empty();
      for (std::size_t out = 0; out < hand.size() && !all_but_one; ++out) {
        auto rest = hand;
        rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(out));
        all_but_one = best_arrangement(rest, rules, ones).deadwood.empty();
      }
      CHECK(melds_all_but(hand, rules, 0) == best.deadwood.empty());
      CHECK(melds_all_but(hand, rules, 1) == all_but_one);
      if (all_but_one) ++nearly;
    }
    // The comparison met hands that meld whole, and hands that meld all but one card.
    CHECK(whole > 0);
    CHECK(nearly > whole);
  }
}

TEST_CASE("a forty-card Round-the-Corner hand melds whole, and with a card that fits nothing, all but one") {
  // Three whole suits and the king of clubs: the four kings, and a run of twelve in
  // each suit from the ace round to the queen. (The lowest-deadwood search takes
  // seconds on such a hand; going out's listing does one search per card.)
  std::vector<Card> hand;
  for (int suit = 0; suit < 3; ++suit)
    for (int rank = 1; rank <= 13; ++rank) hand.push_back(Card{static_cast<std::uint8_t>(rank), static_cast<Suit>(suit)});
  hand.push_back(Card{13, Suit::clubs});
  const auto rules = with_ace(AceMode::around);
  REQUIRE(hand.size() == 40);
  const auto every = meld_every_card(hand, rules);
  REQUIRE(every.has_value());
  std::size_t melded = 0;
  for (const auto& meld : every->melds) melded += meld.cards.size();
  CHECK(melded == hand.size());
  CHECK(melds_all_but(hand, rules, 0));
  hand.push_back(Card::joker());  // not wild here: it fits no meld
  CHECK_FALSE(meld_every_card(hand, rules).has_value());
  CHECK_FALSE(melds_all_but(hand, rules, 0));
  CHECK(melds_all_but(hand, rules, 1));
}

TEST_CASE("candidate melds list every set and run the hand can put down") {
  auto found = candidate_melds(cards({"9S", "9D", "9H", "9C", "TH", "JH", "8H"}), {});
  auto has = [&](std::vector<std::string> names) {
    auto wanted = cards(names);
    return std::find(found.begin(), found.end(), wanted) != found.end();
  };
  CHECK(found.size() == 4 + 1 + 3);  // four threes of nines, the four nines, 8-9-T, 9-T-J and 8-9-T-J of hearts
  CHECK(has({"9S", "9D", "9H"}));
  CHECK(has({"9S", "9D", "9H", "9C"}));
}

TEST_CASE("a meld's declaration variants are every valid way to declare its wilds, each once") {
  MeldRules deuces;
  deuces.deuces_wild = true;
  deuces.set_duplicates = true;
  MeldRules jokers = with_ace(AceMode::low_or_high);
  jokers.jokers_wild = true;
  MeldRules around = with_ace(AceMode::around);
  around.jokers_wild = true;
  std::vector<Card> deck;
  for (int suit = 0; suit < 4; ++suit)
    for (int rank = 1; rank <= 13; ++rank) deck.push_back(Card{static_cast<std::uint8_t>(rank), static_cast<Suit>(suit)});
  std::mt19937 random(20261128);
  for (const auto& [name, rules] : std::vector<std::pair<const char*, MeldRules>>{
           {"deuces wild", deuces}, {"jokers wild, ace low or high", jokers}, {"jokers wild, round the corner", around}}) {
    CAPTURE(name);
    const Card wild = rules.deuces_wild ? Card{2, Suit::clubs} : Card::joker();
    int melds = 0;
    int with_variants = 0;
    while (melds < 60) {
      // A meld of one to three naturals and one or two wilds.
      std::shuffle(deck.begin(), deck.end(), random);
      std::vector<Card> cards(deck.begin(), deck.begin() + 1 + random() % 3);
      if (std::any_of(cards.begin(), cards.end(), [&](Card c) { return is_wild(c, rules); })) continue;
      const auto wilds = 1 + random() % 2;
      for (std::size_t w = 0; w < wilds; ++w) cards.push_back(wild);
      const auto check = validate_meld(cards, rules);
      // (A deuce standing as itself is not declared: the meld is its only variant.)
      if (!check || std::any_of(check.meld->cards.begin(), check.meld->cards.end(),
                                [&](const MeldCard& mc) { return !mc.wild && is_wild(mc.card, rules); }))
        continue;
      ++melds;
      const auto variants = declaration_variants(*check.meld, rules);
      CHECK(variants.front() == *check.meld);
      auto declared = [](const Meld& meld) {
        std::vector<std::string> out;
        for (const auto& mc : meld.cards)
          if (mc.wild) out.push_back(to_string(mc.as));
        std::sort(out.begin(), out.end());
        return out;
      };
      std::vector<std::vector<std::string>> found;
      for (const auto& variant : variants) {
        CHECK(validate_meld(cards, rules, [&] {
          std::vector<Card> as;
          for (const auto& mc : variant.cards)
            if (mc.wild) as.push_back(mc.as);
          return as;
        }()));
        CHECK(std::find(found.begin(), found.end(), declared(variant)) == found.end());  // each once
        found.push_back(declared(variant));
      }
      // Every declaration from the whole pack that validates is among them.
      for (const Card a : deck)
        for (const Card b : deck) {
          std::vector<Card> as{a};
          if (wilds == 2) as.push_back(b);
          const auto tried = validate_meld(cards, rules, as);
          if (tried) {
            const std::string asked = to_string(a) + (wilds == 2 ? " " + to_string(b) : "");
            CAPTURE(asked);
            CHECK(std::find(found.begin(), found.end(), declared(*tried.meld)) != found.end());
          }
          if (wilds == 1) break;
        }
      if (variants.size() > 1) ++with_variants;
    }
    CHECK(with_variants > 20);
  }
}

TEST_CASE("whether some meld holds a card is what the list of candidate melds says") {
  auto pack = two_packs_and_jokers();
  std::mt19937 random(20261128);
  for (const auto& [name, rules] : varied_rule_sets()) {
    CAPTURE(name);
    int held = 0;
    int not_held = 0;
    for (int deal = 0; deal < 300; ++deal) {
      std::shuffle(pack.begin(), pack.end(), random);
      // Hands of 2 to 16 cards; each of their cards is asked about, and the pack's next card.
      const auto size = 2 + deal % 15;
      const std::vector<Card> hand(pack.begin(), pack.begin() + size);
      const auto melds = candidate_melds(hand, rules);
      for (std::size_t i = 0; i <= hand.size(); ++i) {
        const Card card = pack[i];
        CAPTURE(to_string(card));
        const bool listed = std::any_of(melds.begin(), melds.end(), [&](const auto& meld) { return holds(meld, card); });
        CHECK(some_meld_holds(hand, card, rules) == listed);
        ++(listed ? held : not_held);
      }
    }
    // Both answers were met, wilds among them.
    CHECK(held > 50);
    CHECK(not_held > 50);
  }
}

namespace {
MeldRules carousel_rules() {
  MeldRules rules;
  rules.jokers_wild = true;
  rules.set_duplicates = true;
  rules.set_distinct_suits = true;
  return rules;
}
MeldSpec spec(std::vector<std::string> names, std::vector<std::string> declared = {}) {
  return {cards(names), declared.empty() ? std::vector<Card>{} : cards(declared)};
}
}  // namespace

TEST_CASE("a whole new layout keeps every table card, adds one from the hand, and validates every meld") {
  const auto rules = carousel_rules();
  std::vector<Meld> table = {meld_of({"5H", "6H", "7H", "8H"}, rules), meld_of({"9S", "9D", "9C"}, rules)};
  // Split the run and use the 8♥ with two nines? No: 8♥ is a heart; move 5-6-7♥ + 4♥ from hand.
  auto ok = validate_layout(table, {spec({"4H", "5H", "6H"}), spec({"7H", "8H", "9H"}), spec({"9S", "9D", "9C"})},
                            cards({"4H", "9H", "KC"}), rules);
  CHECK_MESSAGE(ok, ok.message);
  CHECK(ok.from_hand == cards({"4H", "9H"}));
  auto lost = validate_layout(table, {spec({"5H", "6H", "7H", "8H", "9H"})}, cards({"9H"}), rules);
  CHECK(lost.reason == "card_left_table");
  auto none = validate_layout(table, {spec({"5H", "6H", "7H"}), spec({"8H", "9S", "9D"})}, cards({}), rules);
  CHECK_FALSE(none);
  auto nothing_added = validate_layout(table, {spec({"5H", "6H", "7H", "8H"}), spec({"9S", "9D", "9C"})}, cards({"KC"}), rules);
  CHECK(nothing_added.reason == "no_card_from_hand");
}

TEST_CASE("a joker changes what it stands for only when a natural card takes its place") {
  const auto rules = carousel_rules();
  auto run = *validate_meld(cards({"9H", "JK", "7H"}), rules).meld;  // JK = 8H
  REQUIRE(run.cards[1].as == *parse_card("8H"));
  // The natural 8♥ replaces the joker, which moves to the end as 10♥.
  auto exchange = validate_layout({run}, {spec({"7H", "8H", "9H", "JK"}, {"TH"})}, cards({"8H"}), rules);
  CHECK_MESSAGE(exchange, exchange.message);
  // Without the natural 8♥ the joker may not leave 8♥.
  auto moved = validate_layout({run}, {spec({"7H", "JK", "9H", "TH"}, {"8H"})}, cards({"TH"}), rules);
  CHECK(moved);
  auto lost = validate_layout({run}, {spec({"9H", "TH", "JK"}, {"JH"}), spec({"7H", "7S", "7D"})}, cards({"TH", "7S", "7D"}), rules);
  CHECK(lost.reason == "identity_lost");
}

TEST_CASE("§1.3 capture: a natural card already on the table takes the joker's place, and the joker is named anew") {
  const auto rules = carousel_rules();
  const auto run = *validate_meld(cards({"5S", "6S", "7S", "8S"}), rules).meld;
  const auto set = *validate_meld(cards({"8C", "8D", "JK"}), rules, cards({"8S"})).meld;
  // The natural 8S moves from the run into the set; the run 5S 6S 7S stays valid.
  auto captured = validate_layout({run, set},
                                  {spec({"5S", "6S", "7S"}), spec({"8C", "8D", "8S"}), spec({"2H", "3H", "JK"}, {"4H"})},
                                  cards({"2H", "3H"}), rules);
  CHECK_MESSAGE(captured, captured.message);
  CHECK(captured.from_hand == cards({"2H", "3H"}));
  // The same new name for the joker with no natural 8S taking its place.
  auto lost = validate_layout({run, set},
                              {spec({"5S", "6S", "7S", "8S"}), spec({"8C", "8D", "8H"}), spec({"2H", "3H", "JK"}, {"4H"})},
                              cards({"2H", "3H", "8H"}), rules);
  CHECK(lost.reason == "identity_lost");
  // The natural 8S must join cards of the joker's old meld, not stand anywhere.
  auto elsewhere = validate_layout({run, set},
                                   {spec({"5S", "6S", "7S", "8S", "9S"}), spec({"8C", "8D", "JK"}, {"8H"})},
                                   cards({"9S", "8H"}), rules);
  CHECK(elsewhere.reason == "identity_lost");
}

namespace {
// A bare game on the shared engine with rearranging switched on, as Carousel will use it.
class RearrangingGame final : public RummyBase {
 public:
  explicit RearrangingGame(const GameSetup& setup) : RummyBase(setup, rules_config()) {}
  std::unique_ptr<GameState> clone() const override { return std::make_unique<RearrangingGame>(*this); }
  static RummyConfig rules_config() {
    RummyConfig c;
    c.melds = carousel_rules();
    c.deal.hand_size = 7;
    c.melding.rearrange = true;
    c.deal.pack.jokers = 2;
    return c;
  }
  void settle_deal(const DealEnd&, Balances&, Effects&, Json&) override {}
};
}  // namespace

TEST_CASE("the engine's layout action replaces the whole table in one validated step") {
  // Two players: seat 1 then the dealer 0; seat 1 holds a run with a joker.
  std::vector<std::string> deck;
  const std::vector<std::string> first = {"9H", "JK", "7H", "KS", "KD", "KC", "2C"};
  const std::vector<std::string> dealer = {"8H", "3S", "4S", "5S", "QD", "QC", "2D"};
  for (int i = 0; i < 7; ++i) {
    deck.push_back(first[i]);
    deck.push_back(dealer[i]);
  }
  deck.push_back("AD");  // upcard
  deck.push_back("TC");  // stock
  deck.push_back("JC");
  Balances chips{100, 100};
  RearrangingGame game(GameSetup{Json::object(), 2, 1, cards(deck), chips});
  game.start_next_deal(chips);
  game.apply(1, {{"type", "draw"}, {"from", "stock"}}, chips);
  game.apply(1, {{"type", "meld"}, {"cards", {"9H", "JK", "7H"}}}, chips);
  game.apply(1, {{"type", "discard"}, {"card", "TC"}}, chips);
  game.apply(0, {{"type", "draw"}, {"from", "stock"}}, chips);
  // The dealer's natural 8♥ takes the joker's place; the joker moves up as 10♥.
  CHECK_THROWS_AS(game.apply(0, {{"type", "layout"}, {"melds", {{"7H", "8H", "9H", "JK=8H"}}}}, chips), RulesError);
  game.apply(0, {{"type", "layout"}, {"melds", {{"7H", "8H", "9H", "JK=TH"}}}}, chips);
  auto view = game.view(0);
  CHECK(view["melds"].size() == 1);
  CHECK(view["melds"][0]["cards"] == Json::array({"7H", "8H", "9H", "JK=TH"}));
  CHECK(view["seats"][0]["count"] == 7);
}

namespace {
// Two packs and a spread pile with the duty to meld the card taken, as Michigan with five players.
class TwoPackSpreadGame final : public RummyBase {
 public:
  explicit TwoPackSpreadGame(const GameSetup& setup) : RummyBase(setup, rules_config()) {}
  std::unique_ptr<GameState> clone() const override { return std::make_unique<TwoPackSpreadGame>(*this); }
  static RummyConfig rules_config() {
    RummyConfig c;
    c.melds.set_duplicates = true;
    c.deal.pack.decks = 2;
    c.deal.hand_size = 7;
    c.draw.spread_pile = true;
    c.draw.must_use_taken = true;
    return c;
  }
  void settle_deal(const DealEnd&, Balances&, Effects&, Json&) override {}
};
}  // namespace

TEST_CASE("with two packs, melding a copy of the card just taken frees the other copy to be discarded") {
  const std::vector<std::string> first = {"7S", "8S", "9S", "KD", "KH", "KC", "6S"};
  const std::vector<std::string> dealer = {"6S", "2C", "3C", "4H", "5D", "TD", "AC"};
  std::vector<std::string> deck;
  for (int i = 0; i < 7; ++i) {
    deck.push_back(first[i]);
    deck.push_back(dealer[i]);
  }
  for (const char* c : {"5C", "2H", "3H"}) deck.push_back(c);  // upcard, then the stock
  Balances chips{100, 100};
  TwoPackSpreadGame game(GameSetup{Json::object(), 2, 1, cards(deck), chips});
  game.start_next_deal(chips);
  game.apply(1, {{"type", "draw"}, {"from", "stock"}}, chips);  // 2H
  game.apply(1, {{"type", "meld"}, {"cards", {"7S", "8S", "9S"}}}, chips);
  game.apply(1, {{"type", "meld"}, {"cards", {"KD", "KH", "KC"}}}, chips);
  game.apply(1, {{"type", "discard"}, {"card", "2H"}}, chips);
  game.apply(0, {{"type", "draw"}, {"from", "stock"}}, chips);  // 3H
  game.apply(0, {{"type", "discard"}, {"card", "6S"}}, chips);
  game.apply(1, {{"type", "take"}, {"depth", 0}}, chips);  // seat 1 now holds 6♠ 6♠
  const auto legal = game.legal_actions(1, chips);
  CHECK(legal.dump().find("\"lay_off\"") != std::string::npos);
  game.apply(1, {{"type", "lay_off"}, {"meld", 0}, {"cards", {"6S"}}}, chips);
  game.apply(1, {{"type", "discard"}, {"card", "6S"}}, chips);
  CHECK(game.result()["winner"] == 1);
}

}  // namespace unity_test_rummy_melds
