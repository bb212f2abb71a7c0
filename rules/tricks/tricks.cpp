#include "rules/tricks/tricks.h"

#include <algorithm>
#include <stdexcept>

#include "rules/snapshot.h"

namespace parlour::rules::tricks {

int rank_value(Card card, RankOrder order) {
  if (order == RankOrder::rams_old) {
    switch (card.rank) {
      case king: return 14;
      case queen: return 13;
      case jack: return 12;
      case ace: return 11;
      default: return card.rank;  // 10 .. 2
    }
  }
  return ace_high_value(card);
}

bool beats(Card card, Card best, Suit led, const TrickRules& rules) {
  const bool card_trump = rules.trump && card.suit == *rules.trump;
  const bool best_trump = rules.trump && best.suit == *rules.trump;
  if (card_trump != best_trump) return card_trump;
  if (card.suit != best.suit) return false;  // neither trumps: an off-suit card never wins
  if (!card_trump && card.suit != led) return false;
  return rank_value(card, rules.order) > rank_value(best, rules.order);
}

std::size_t winning_index(const Trick& trick, const TrickRules& rules) {
  if (trick.empty()) throw std::logic_error("tricks: winner of an empty trick");
  const Suit led = trick.front().card.suit;
  std::size_t best = 0;
  for (std::size_t i = 1; i < trick.size(); ++i)
    if (beats(trick[i].card, trick[best].card, led, rules)) best = i;
  return best;
}

std::vector<Card> legal_cards(const std::vector<Card>& hand, const Trick& trick, const TrickRules& rules) {
  if (trick.empty()) return hand;
  const Suit led = trick.front().card.suit;
  const Card best = trick[winning_index(trick, rules)].card;
  auto of_suit = [&](Suit suit) {
    std::vector<Card> out;
    for (auto card : hand)
      if (card.suit == suit) out.push_back(card);
    return out;
  };
  std::vector<Card> pool = hand;
  if (rules.must_follow && holds_suit(hand, led)) {
    pool = of_suit(led);
  } else if (rules.must_trump && rules.trump && holds_suit(hand, *rules.trump)) {
    pool = of_suit(*rules.trump);
  }
  if (rules.must_head) {
    std::vector<Card> heading;
    for (auto card : pool)
      if (beats(card, best, led, rules)) heading.push_back(card);
    if (!heading.empty()) return heading;
  }
  return pool;
}

std::vector<std::vector<Card>> deal_in_packets(Stock& stock, const std::vector<std::vector<int>>& sizes) {
  std::vector<std::vector<Card>> hands;
  for (const auto& round : sizes) {
    if (hands.size() < round.size()) hands.resize(round.size());
    for (std::size_t h = 0; h < round.size(); ++h)
      for (int i = 0; i < round[h]; ++i) hands[h].push_back(stock.draw());
  }
  return hands;
}

void remove_card(std::vector<Card>& hand, Card card) {
  auto it = std::find(hand.begin(), hand.end(), card);
  if (it == hand.end()) throw std::logic_error("tricks: removing a card not held");
  hand.erase(it);
}

bool holds_suit(const std::vector<Card>& hand, Suit suit) {
  return std::any_of(hand.begin(), hand.end(), [&](Card c) { return c.suit == suit; });
}

Json trick_snapshot(const Trick& trick) {
  Json out = Json::array();
  for (const auto& play : trick) out.push_back(Json::array({play.seat, card_json(play.card)}));
  return out;
}

Trick trick_restore(const Json& snapshot, int players) {
  if (!snapshot.is_array()) throw SnapshotError("expected a trick's plays, got " + snapshot.dump());
  Trick trick;
  for (const auto& play : snapshot) {
    if (!play.is_array() || play.size() != 2 || !play[0].is_number_integer())
      throw SnapshotError("expected a play as [seat, card], got " + play.dump());
    const int seat = play[0].get<int>();
    if (seat < 0 || seat >= players) throw SnapshotError("a trick's seat is out of range: " + play.dump());
    trick.push_back({seat, card_from(play[1])});
  }
  return trick;
}


void write_plays(JsonWriter& out, const Trick& trick) {
  out.array([&] {
    for (const auto& play : trick) {
      out.object([&] {
        out.field("seat", play.seat);
        out.field("card", to_string(play.card));
      });
    }
  });
}

}  // namespace parlour::rules::tricks
