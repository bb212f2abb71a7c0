#include "rules/building/piles.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace parlour::rules::building {

std::optional<Card> top_card(const Pile& pile) {
  if (pile.empty()) return std::nullopt;
  return pile.back().card;
}

std::vector<Card> plain_cards(const Pile& pile) {
  std::vector<Card> out;
  out.reserve(pile.size());
  for (const auto& owned : pile) out.push_back(owned.card);
  return out;
}

Pile owned_by(int owner, const std::vector<Card>& cards) {
  Pile out;
  out.reserve(cards.size());
  for (auto card : cards) out.push_back({card, owner});
  return out;
}

int next_rank_wrapping(int rank) { return rank == king ? ace : rank + 1; }

bool builds_up_in_suit(Card card, const Pile& foundation) {
  if (foundation.empty()) return card.rank == ace;
  const Card top = foundation.back().card;
  return card.suit == top.suit && card.rank == top.rank + 1;
}

bool builds_up_by_rank(Card card, const Pile& centre, std::size_t full) {
  if (centre.empty() || centre.size() >= full) return false;
  return card.rank == next_rank_wrapping(centre.back().card.rank);
}

bool builds_down_alternating(Card card, const Pile& tableau) {
  if (tableau.empty()) return true;
  const Card top = tableau.back().card;
  return card.is_red() != top.is_red() && card.rank + 1 == top.rank;
}

bool loads_in_suit(Card card, const Pile& target) {
  if (target.empty()) return false;
  const Card top = target.back().card;
  return card.suit == top.suit && std::abs(card.rank - top.rank) == 1;
}

std::optional<Card> Reserve::stock_top() const {
  if (stock.empty() || !stock_top_up) return std::nullopt;
  return stock.back().card;
}

std::size_t Reserve::cards_left() const {
  std::size_t count = stock.size() + hand.size() + (turned ? 1 : 0);
  for (const auto& pile : discards) count += pile.size();
  return count;
}

bool Reserve::discards_empty() const {
  return std::all_of(discards.begin(), discards.end(), [](const Pile& pile) { return pile.empty(); });
}

OwnedCard Reserve::take_stock_top() {
  if (!stock_top()) throw std::logic_error("building: taking a stock card that is not face up");
  OwnedCard card = stock.back();
  stock.pop_back();
  stock_top_up = false;
  return card;
}

bool Reserve::turn_hand() {
  if (turned) throw std::logic_error("building: turning the hand over a turned card");
  bool turned_over = false;
  if (hand.empty()) {
    if (discards.empty() || discards[0].empty()) throw std::logic_error("building: turning an empty hand");
    hand.assign(discards[0].rbegin(), discards[0].rend());
    discards[0].clear();
    turned_over = true;
  }
  turned = hand.back();
  hand.pop_back();
  return turned_over;
}

}  // namespace parlour::rules::building
