#include "rules/rummy/values.h"

namespace parlour::rules::rummy {

int CardValues::in_hand(Card card) const {
  if (card.is_joker()) return joker;
  if (card.rank == rules::ace) return ace;
  if (card.rank == 2) return wild_deuce;
  return card.rank >= jack ? face : card.rank;
}

int CardValues::in_meld(const Meld& meld, std::size_t index) const {
  const auto& mc = meld.cards[index];
  // A wild counts as itself wherever it stands; an ace low in a run counts low.
  if (mc.wild) return in_hand(mc.card);
  const bool lowest_of_low_run = meld.kind == MeldKind::run && index == 0 && mc.as.rank == rules::ace &&
                                 meld.cards.size() > 1 && meld.cards[1].as.rank == 2;
  if (lowest_of_low_run) return ace_low_run;
  return in_hand(mc.card);
}

int CardValues::of_meld(const Meld& meld) const {
  int total = 0;
  for (std::size_t i = 0; i < meld.cards.size(); ++i) total += in_meld(meld, i);
  return total;
}

int CardValues::of_cards(const std::vector<Card>& cards) const {
  int total = 0;
  for (auto c : cards) total += in_hand(c);
  return total;
}

}  // namespace parlour::rules::rummy
