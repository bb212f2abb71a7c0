// What each card counts for in Cassino: the values it may take when it captures
// by sum or goes into a build. Standard Cassino gives the court cards no value
// (they only pair); Royal Cassino numbers them, optionally lets each ace count
// high, and the special 60-card pack numbers them higher still (rules/other.md
// §10.1, §10.4).
#pragma once

#include <array>
#include <vector>

#include "rules/cards.h"

namespace parlour::rules::cassino {

class CardValues {
 public:
  // Standard Cassino: A 1, 2–10 their pips; J, Q, K only pair.
  static CardValues standard();
  // Royal Cassino: J 11, Q 12, K 13; with `ace_high` an ace is 1 or 14. With the
  // special pack: the eleven and twelve spots 11 and 12, J 13, Q 14, K 15, and an
  // ace 1 or 16.
  static CardValues royal(bool ace_high, bool special_pack);

  // The values the card may count as, lowest first; empty: it only pairs.
  const std::vector<int>& of(Card card) const { return by_rank_[card.rank]; }
  bool counts_as(Card card, int value) const;
  bool has_value(Card card) const { return !of(card).empty(); }
  // The largest value a build may have: the largest any card counts as.
  int max_build() const { return max_build_; }

 private:
  std::array<std::vector<int>, twelve_spot + 1> by_rank_{};
  int max_build_ = 0;
};

}  // namespace parlour::rules::cassino
