// The lowest-deadwood arrangement of a hand into melds (rules/rummy.md §1.5):
// for settlements, going-rummy checks and hints. Candidate melds are enumerated
// once; a depth-first search over the remaining cards, memoised, takes the
// lowest uncovered card first, so each partition is visited once.
#pragma once

#include <vector>

#include "rules/rummy/meld.h"
#include "rules/rummy/values.h"

namespace parlour::rules::rummy {

struct Arrangement {
  std::vector<Meld> melds;
  std::vector<Card> deadwood;
  int deadwood_value = 0;
};

Arrangement best_arrangement(const std::vector<Card>& hand, const MeldRules& rules, const CardValues& values);

// True if the whole hand melds (leave_one: all but one card, kept to discard).
bool can_meld_all(const std::vector<Card>& hand, const MeldRules& rules, bool leave_one = false);

// How many cards of the hand belong to no meld the hand could make: a quick bound
// (going rummy leaves at most one such card, to discard).
std::size_t cards_in_no_meld(const std::vector<Card>& hand, const MeldRules& rules);

// Every distinct meld the hand could put down now (one card choice per identity).
std::vector<std::vector<Card>> candidate_melds(const std::vector<Card>& hand, const MeldRules& rules);

}  // namespace parlour::rules::rummy
