// What cards count in the Rummy games (rules/rummy.md §1.4): in a hand at the end
// of a deal (deadwood), and in a meld where a game scores melds.
#pragma once

#include "rules/rummy/meld.h"

namespace parlour::rules::rummy {

struct CardValues {
  int ace = 1;          // in a hand, a set, or high in a run
  int ace_low_run = 1;  // as the lowest card of a run A-2-3 (Michigan: 1 while ace is 15)
  int face = 10;
  int joker = 0;
  int wild_deuce = 2;   // a deuce in a game where deuces are wild (25), else 2

  static CardValues basic() { return {}; }
  static CardValues ace11() { return {11, 11, 10, 0, 2}; }
  static CardValues michigan() { return {15, 1, 10, 20, 2}; }
  static CardValues wild25() { return {1, 1, 10, 25, 25}; }
  static CardValues poker10() { return {10, 10, 10, 25, 25}; }

  int in_hand(Card card) const;
  int in_meld(const Meld& meld, std::size_t index) const;
  int of_meld(const Meld& meld) const;
  int of_cards(const std::vector<Card>& cards) const;
};

}  // namespace parlour::rules::rummy
