// The lowest-deadwood arrangement of a hand into melds (rules/rummy.md §1.5):
// for settlements, going-rummy checks and hints. Candidate melds are enumerated
// once; a depth-first search over the remaining cards, memoised, takes the
// lowest uncovered card first, so each partition is visited once.
#pragma once

#include <optional>
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

// The hand melded whole, or nullopt. The arrangement is the one best_arrangement
// gives with CardValues{1, 1, 1, 1, 1} (every card worth something, so a hand melded
// whole is worth 0 and both take the first candidates that reach it), found by a
// search that never leaves a card out: a big hand (Round-the-Corner's reach forty
// cards) costs milliseconds, not seconds.
std::optional<Arrangement> meld_every_card(const std::vector<Card>& hand, const MeldRules& rules);

// True if all the hand but at most `spare` of its cards (wilds included) melds.
bool melds_all_but(const std::vector<Card>& hand, const MeldRules& rules, int spare);

// True if the whole hand melds (leave_one: all but one card, kept to discard).
bool can_meld_all(const std::vector<Card>& hand, const MeldRules& rules, bool leave_one = false);

// How many cards of the hand belong to no meld the hand could make: a quick bound
// (going rummy leaves at most one such card, to discard).
std::size_t cards_in_no_meld(const std::vector<Card>& hand, const MeldRules& rules);

// Whether some meld the hand could put down now holds the card (some meld of
// candidate_melds), found without listing them all.
bool some_meld_holds(const std::vector<Card>& hand, Card card, const MeldRules& rules);

// Every distinct meld the hand could put down now (one card choice per identity).
std::vector<std::vector<Card>> candidate_melds(const std::vector<Card>& hand, const MeldRules& rules);

}  // namespace parlour::rules::rummy
