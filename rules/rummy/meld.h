// Melds for every Rummy game (rules/rummy.md §1.2–1.3): sets and runs, aces low,
// high, either or round the corner, wild deuces and jokers standing for declared
// cards, Persian jokers as their own rank, and lay-offs that extend a meld at
// either end. The validator says exactly why a meld is not valid.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rules/cards.h"

namespace parlour::rules::rummy {

enum class AceMode {
  low,          // A-2-3 only
  high,         // Q-K-A only
  low_or_high,  // A-2-3 or Q-K-A, never K-A-2
  around,       // round the corner: K-A-2 and Q-K-A-2-3 too
};

struct MeldRules {
  int set_min = 3;
  int set_max = 4;
  bool set_duplicates = false;      // two packs: the same card twice in a set
  bool set_distinct_suits = false;  // Carousel: every suit at most once
  int run_min = 3;
  AceMode ace = AceMode::low;
  bool deuces_wild = false;
  bool jokers_wild = false;
  bool jokers_own_rank = false;  // Persian: jokers meld only as a set of jokers
};

enum class MeldKind { set, run, jokers };

// A card in a meld and the card it stands for (itself, unless it is a wild).
struct MeldCard {
  Card card;
  Card as;
  bool wild = false;
  friend bool operator==(const MeldCard&, const MeldCard&) = default;
};

struct Meld {
  MeldKind kind = MeldKind::set;
  std::vector<MeldCard> cards;  // runs in ascending order as they lie
  int owner = -1;               // the seat that first melded it
  friend bool operator==(const Meld&, const Meld&) = default;
};

// A validation's outcome: the meld, or a reason code (rules/rummy.md §1.2) and a
// sentence for the player.
struct MeldCheck {
  std::optional<Meld> meld;
  std::string reason;
  std::string message;
  explicit operator bool() const { return meld.has_value(); }
};

bool is_wild(Card card, const MeldRules& rules);

// Cards from a hand as one new meld. `declared` optionally gives, in order, the
// cards the wild cards stand for; otherwise the server picks a fitting identity.
MeldCheck validate_meld(const std::vector<Card>& cards, const MeldRules& rules,
                        const std::vector<Card>& declared = {});

// The meld with `added` cards laid off on it (either end of a run, several at
// once); cards already there keep what they stand for. `declared` optionally
// gives, in order, what the added wild cards stand for.
MeldCheck extend_meld(const Meld& meld, const std::vector<Card>& added, const MeldRules& rules,
                      const std::vector<Card>& declared = {});

// Wild policy `shift_on_natural` (rules/rummy.md §1.3, Double Rummy): `natural`
// takes the place of the wild in run `run` that stands for it, and that wild moves
// to an end of the run, now standing for `moved_to` (the card just below the run's
// lowest or just above its highest). Refused (`no_wild_to_shift`, `bad_shift`) when
// no wild of the run stands for `natural` or that end cannot extend.
MeldCheck shift_wild(const Meld& run, Card natural, Card moved_to, const MeldRules& rules);
// The cards the displaced wild may stand for after `natural` takes its place: the
// ends of the run that can extend (none if no wild of the run stands for `natural`).
std::vector<Card> shift_choices(const Meld& run, Card natural, const MeldRules& rules);

// One meld of a proposed table layout: its cards and what its wild cards stand
// for (in order; empty to let the server choose).
struct MeldSpec {
  std::vector<Card> cards;
  std::vector<Card> declared;
};

struct LayoutCheck {
  std::vector<Meld> melds;
  std::vector<Card> from_hand;  // the cards the layout adds to the table
  std::string reason;
  std::string message;
  explicit operator bool() const { return reason.empty(); }
};

// A whole new table (rules/rummy.md §1.3, Carousel): every card already on the
// table stays on it, at least one card comes from `hand`, every meld is valid,
// and a wild keeps what it stands for, X, unless a natural X takes its place in
// this action: from the hand (exchange) or moved out of another table meld
// (capture), ending in a meld with cards of the wild's old meld.
LayoutCheck validate_layout(const std::vector<Meld>& old_table, const std::vector<MeldSpec>& new_table,
                            const std::vector<Card>& hand, const MeldRules& rules);

// Whether one card lays off on the meld: a quick filter (wrong rank or suit, not
// next to an end) before the full check, since `legal` asks this very often.
bool lays_off(const Meld& meld, Card card, const MeldRules& rules);
// The meld with the card laid off, after the same quick filter; nothing if it
// does not lay off.
std::optional<Meld> laid_off(const Meld& meld, Card card, const MeldRules& rules);

std::string meld_card_string(const MeldCard& card);      // "9S", or "2C=9C" for a wild
std::vector<std::string> meld_strings(const Meld& meld);  // each card's meld_card_string

// The meld (first) and every other valid way of declaring its wilds, each
// multiset of declarations once: a set's wilds may take any suit of its rank, a
// run's any rank of its suit. Only the meld itself when it has no wild, or too
// many ways to list (more than `most`).
std::vector<Meld> declaration_variants(const Meld& meld, const MeldRules& rules, std::size_t most = 400);

}  // namespace parlour::rules::rummy
