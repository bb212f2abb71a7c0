#include "rules/rummy/meld.h"

#include <algorithm>
#include <array>
#include <cstdlib>

namespace parlour::rules::rummy {

namespace {

// A card being placed in a meld: its identity is fixed (a natural card, a wild
// already standing for something, or a declared wild) or still open (a wild).
struct Piece {
  Card card;
  std::optional<Card> identity;
  bool wild = false;
};

MeldCheck refuse(std::string reason, std::string message) { return MeldCheck{std::nullopt, std::move(reason), std::move(message)}; }

Card make_card(int rank, Suit suit) { return Card{static_cast<std::uint8_t>(rank), suit}; }

// --------------------------------------------------------------------- sets

MeldCheck as_set(const std::vector<Piece>& pieces, const MeldRules& rules) {
  const int rank = std::find_if(pieces.begin(), pieces.end(), [](const Piece& p) { return p.identity.has_value(); })
                       ->identity->rank;
  const int size = static_cast<int>(pieces.size());
  if (size < rules.set_min) return refuse("too_few_cards", "a set needs at least " + std::to_string(rules.set_min) + " cards");
  if (size > rules.set_max)
    return refuse("set_too_large", "a set holds at most " + std::to_string(rules.set_max) + " cards");
  std::array<int, 4> suit_count{};
  for (const auto& p : pieces)
    if (p.identity) ++suit_count[static_cast<int>(p.identity->suit)];
  for (int suit = 0; suit < 4; ++suit) {
    if (suit_count[suit] > 1 && (rules.set_distinct_suits || !rules.set_duplicates))
      return refuse("duplicate_suit_in_set", "a set may not hold two cards of the same suit here");
  }
  Meld meld{MeldKind::set, {}, -1};
  for (const auto& p : pieces) {
    if (p.identity) {
      meld.cards.push_back({p.card, *p.identity, p.wild});
      continue;
    }
    // An open wild takes the first suit the set lacks (any suit once all are there).
    int suit = 0;
    while (suit < 3 && suit_count[suit] > 0) ++suit;
    ++suit_count[suit];
    meld.cards.push_back({p.card, make_card(rank, static_cast<Suit>(suit)), true});
  }
  return MeldCheck{meld, "", ""};
}

// --------------------------------------------------------------------- runs

// Where each rank sits in a run: linear from `low` to `high`, the ace at `ace`.
struct Line {
  int ace;
  int low;
  int high;
};

int position(int rank, const Line& line) { return rank == ace ? line.ace : rank; }
int rank_at(int pos) { return pos == 14 ? ace : pos; }

std::optional<Meld> run_on_line(const std::vector<Piece>& pieces, Suit suit, const Line& line) {
  std::vector<std::pair<int, const Piece*>> fixed;
  std::vector<const Piece*> open;
  for (const auto& p : pieces) {
    if (p.identity) fixed.emplace_back(position(p.identity->rank, line), &p);
    else open.push_back(&p);
  }
  std::sort(fixed.begin(), fixed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  const int length = static_cast<int>(pieces.size());
  const int first = fixed.front().first;
  const int last = fixed.back().first;
  if (last - first + 1 > length) return std::nullopt;
  // Open wilds fill the gaps, then extend the run upwards, then downwards.
  const int start = std::min(first, line.high - length + 1);
  if (start < line.low) return std::nullopt;
  Meld meld{MeldKind::run, {}, -1};
  std::size_t next_fixed = 0;
  std::size_t next_open = 0;
  for (int pos = start; pos < start + length; ++pos) {
    if (next_fixed < fixed.size() && fixed[next_fixed].first == pos) {
      const Piece& p = *fixed[next_fixed++].second;
      meld.cards.push_back({p.card, *p.identity, p.wild});
    } else {
      meld.cards.push_back({open[next_open++]->card, make_card(rank_at(pos), suit), true});
    }
  }
  return meld;
}

// Round the corner: ranks on a circle of 13; the run starts at the fixed card
// that leaves the shortest arc.
std::optional<Meld> run_around(const std::vector<Piece>& pieces, Suit suit) {
  const int length = static_cast<int>(pieces.size());
  if (length > 13) return std::nullopt;
  std::vector<const Piece*> fixed;
  std::vector<const Piece*> open;
  for (const auto& p : pieces) (p.identity ? fixed : open).push_back(&p);
  int best_start = -1;
  int best_span = 14;
  for (const auto* anchor : fixed) {
    const int start = anchor->identity->rank - 1;
    int span = 0;
    for (const auto* p : fixed) span = std::max(span, (p->identity->rank - 1 - start + 13) % 13 + 1);
    if (span < best_span) {
      best_span = span;
      best_start = start;
    }
  }
  if (best_span > length) return std::nullopt;
  std::vector<const Piece*> at(13, nullptr);
  for (const auto* p : fixed) at[(p->identity->rank - 1 - best_start + 13) % 13] = p;
  Meld meld{MeldKind::run, {}, -1};
  std::size_t next_open = 0;
  for (int offset = 0; offset < length; ++offset) {
    const int rank = (best_start + offset) % 13 + 1;
    if (at[offset]) meld.cards.push_back({at[offset]->card, *at[offset]->identity, at[offset]->wild});
    else meld.cards.push_back({open[next_open++]->card, make_card(rank, suit), true});
  }
  return meld;
}

std::optional<Meld> run_with_aces(const std::vector<Piece>& pieces, Suit suit, AceMode mode) {
  switch (mode) {
    case AceMode::low: return run_on_line(pieces, suit, {1, 1, 13});
    case AceMode::high: return run_on_line(pieces, suit, {14, 2, 14});
    case AceMode::low_or_high:
      if (auto meld = run_on_line(pieces, suit, {1, 1, 13})) return meld;
      return run_on_line(pieces, suit, {14, 2, 14});
    case AceMode::around: return run_around(pieces, suit);
  }
  return std::nullopt;
}

MeldCheck as_run(const std::vector<Piece>& pieces, const MeldRules& rules) {
  const int size = static_cast<int>(pieces.size());
  if (size < rules.run_min) return refuse("too_few_cards", "a run needs at least " + std::to_string(rules.run_min) + " cards");
  std::optional<Suit> suit;
  std::array<bool, 14> seen{};
  for (const auto& p : pieces) {
    if (!p.identity) continue;
    if (suit && *suit != p.identity->suit) return refuse("mixed_suits", "a run is all of one suit");
    suit = p.identity->suit;
    if (seen[p.identity->rank]) return refuse("duplicate_card_in_run", "a run holds each card once");
    seen[p.identity->rank] = true;
  }
  if (auto meld = run_with_aces(pieces, *suit, rules.ace)) return MeldCheck{meld, "", ""};
  // Say why: would the run stand under another ace rule?
  const bool wraps = run_with_aces(pieces, *suit, AceMode::around).has_value();
  const bool high = run_with_aces(pieces, *suit, AceMode::high).has_value();
  const bool low = run_with_aces(pieces, *suit, AceMode::low).has_value();
  if (high && rules.ace == AceMode::low)
    return refuse("ace_high_not_allowed", "the ace is low here: A-2-3, not Q-K-A");
  if (low && rules.ace == AceMode::high)
    return refuse("ace_low_not_allowed", "the ace is high here: Q-K-A, not A-2-3");
  if (wraps) return refuse("ace_wrap_not_allowed", "a run may not go round the corner (K-A-2) here");
  return refuse("not_consecutive", "the cards of a run must follow one another in rank");
}

// --------------------------------------------------------------------- both

MeldCheck place(const std::vector<Piece>& pieces, const MeldRules& rules) {
  int naturals = 0;
  for (const auto& p : pieces)
    if (!p.wild) ++naturals;
  if (naturals == 0) return refuse("too_few_natural_cards", "a meld needs at least one natural card");
  const auto& first = *std::find_if(pieces.begin(), pieces.end(), [](const Piece& p) { return p.identity.has_value(); });
  const bool one_rank = std::all_of(pieces.begin(), pieces.end(),
                                    [&](const Piece& p) { return !p.identity || p.identity->rank == first.identity->rank; });
  if (one_rank) {
    auto set = as_set(pieces, rules);
    // Two naturals of one rank can only be a set; a lone natural with wilds may be a run.
    const int fixed = static_cast<int>(std::count_if(pieces.begin(), pieces.end(), [](const Piece& p) { return p.identity.has_value(); }));
    if (set || fixed > 1) return set;
    if (auto run = as_run(pieces, rules)) return run;
    return set;
  }
  const bool one_suit = std::all_of(pieces.begin(), pieces.end(),
                                    [&](const Piece& p) { return !p.identity || p.identity->suit == first.identity->suit; });
  if (!one_suit) return refuse("mixed_ranks", "a set is all of one rank, and a run all of one suit");
  return as_run(pieces, rules);
}

MeldCheck jokers_meld(const std::vector<Card>& cards, const MeldRules& rules) {
  const bool all_jokers = std::all_of(cards.begin(), cards.end(), [](Card c) { return c.is_joker(); });
  if (!all_jokers) return refuse("joker_not_allowed_here", "jokers meld only with jokers here");
  const int size = static_cast<int>(cards.size());
  if (size < rules.set_min) return refuse("too_few_cards", "a set of jokers needs at least " + std::to_string(rules.set_min));
  if (size > 4) return refuse("set_too_large", "a set of jokers holds at most 4");
  Meld meld{MeldKind::jokers, {}, -1};
  for (auto c : cards) meld.cards.push_back({c, c, false});
  return MeldCheck{meld, "", ""};
}

// Tries the pieces with each choice of which wild-capable deuces stand as
// natural twos, most naturals first; returns the first that melds, else the
// reason given for the most natural reading.
MeldCheck place_with_deuces(std::vector<Piece> pieces, const MeldRules& rules) {
  std::vector<std::size_t> deuces;
  for (std::size_t i = 0; i < pieces.size(); ++i)
    if (pieces[i].wild && !pieces[i].identity && !pieces[i].card.is_joker()) deuces.push_back(i);
  std::optional<MeldCheck> first_refusal;
  const std::size_t choices = std::size_t{1} << deuces.size();
  for (std::size_t mask = choices; mask-- > 0;) {
    auto trial = pieces;
    for (std::size_t bit = 0; bit < deuces.size(); ++bit) {
      if (!(mask >> bit & 1)) continue;
      trial[deuces[bit]].identity = trial[deuces[bit]].card;
      trial[deuces[bit]].wild = false;
    }
    auto check = place(trial, rules);
    if (check) return check;
    if (!first_refusal) first_refusal = check;
  }
  return *first_refusal;
}

}  // namespace

bool is_wild(Card card, const MeldRules& rules) {
  if (card.is_joker()) return rules.jokers_wild;
  return rules.deuces_wild && card.rank == 2;
}

MeldCheck validate_meld(const std::vector<Card>& cards, const MeldRules& rules, const std::vector<Card>& declared) {
  const bool has_joker = std::any_of(cards.begin(), cards.end(), [](Card c) { return c.is_joker(); });
  if (has_joker && rules.jokers_own_rank) return jokers_meld(cards, rules);
  if (has_joker && !rules.jokers_wild) return refuse("joker_not_allowed_here", "jokers are not played in this game");
  const int smallest = std::min(rules.set_min, rules.run_min);
  if (static_cast<int>(cards.size()) < smallest)
    return refuse("too_few_cards", "a meld needs at least " + std::to_string(smallest) + " cards");
  std::vector<Piece> pieces;
  std::size_t next_declared = 0;
  for (auto card : cards) {
    if (!is_wild(card, rules)) {
      pieces.push_back({card, card, false});
      continue;
    }
    std::optional<Card> as;
    if (next_declared < declared.size()) {
      as = declared[next_declared++];
      if (as->is_joker()) return refuse("bad_wild_declaration", "a wild card stands for a natural card, not a joker");
    }
    pieces.push_back({card, as, true});
  }
  if (next_declared < declared.size())
    return refuse("bad_wild_declaration", "more declarations than wild cards in the meld");
  if (!declared.empty()) {
    auto check = place(pieces, rules);
    if (!check && check.reason != "too_few_natural_cards")
      return refuse("bad_wild_declaration", "the declared cards do not make a valid meld: " + check.message);
    return check;
  }
  return place_with_deuces(std::move(pieces), rules);
}

MeldCheck extend_meld(const Meld& meld, const std::vector<Card>& added, const MeldRules& rules,
                      const std::vector<Card>& declared) {
  if (added.empty()) return refuse("too_few_cards", "lay off at least one card");
  if (meld.kind == MeldKind::jokers) {
    std::vector<Card> all;
    for (const auto& mc : meld.cards) all.push_back(mc.card);
    all.insert(all.end(), added.begin(), added.end());
    auto check = jokers_meld(all, rules);
    if (check) check.meld->owner = meld.owner;
    return check;
  }
  std::vector<Piece> pieces;
  for (const auto& mc : meld.cards) pieces.push_back({mc.card, mc.as, mc.wild});
  std::size_t next_declared = 0;
  for (auto card : added) {
    if (card.is_joker() && rules.jokers_own_rank) return refuse("joker_not_allowed_here", "jokers lay off only on jokers");
    if (card.is_joker() && !rules.jokers_wild) return refuse("joker_not_allowed_here", "jokers are not played in this game");
    std::optional<Card> as = is_wild(card, rules) ? std::nullopt : std::optional<Card>(card);
    if (is_wild(card, rules) && next_declared < declared.size()) {
      as = declared[next_declared++];
      if (as->is_joker()) return refuse("bad_wild_declaration", "a wild card stands for a natural card, not a joker");
    }
    pieces.push_back({card, as, is_wild(card, rules)});
  }
  if (next_declared < declared.size())
    return refuse("bad_wild_declaration", "more declarations than wild cards laid off");
  // A lay-off keeps the meld's kind: a set stays a set, a run a run.
  auto check = place_with_deuces(pieces, rules);
  if (check && check.meld->kind != meld.kind)
    return refuse(meld.kind == MeldKind::set ? "mixed_ranks" : "mixed_suits", "the cards do not fit this meld");
  if (check) check.meld->owner = meld.owner;
  return check;
}

MeldCheck shift_wild(const Meld& run, Card natural, Card moved_to, const MeldRules& rules) {
  if (run.kind != MeldKind::run || natural.is_joker() || is_wild(natural, rules))
    return refuse("no_wild_to_shift", "only a natural card laid off on a run moves a wild");
  const auto held = std::find_if(run.cards.begin(), run.cards.end(),
                                 [&](const MeldCard& mc) { return mc.wild && mc.as == natural; });
  if (held == run.cards.end())
    return refuse("no_wild_to_shift", "no wild card of this run stands for " + to_string(natural));
  const auto choices = shift_choices(run, natural, rules);
  if (std::find(choices.begin(), choices.end(), moved_to) == choices.end())
    return refuse("bad_shift", "the wild may move only to an end of the run that can extend, as " +
                                   [&] {
                                     std::string s;
                                     for (auto c : choices) s += (s.empty() ? "" : " or ") + to_string(c);
                                     return s.empty() ? std::string("nothing here") : s;
                                   }());
  std::vector<Piece> pieces;
  for (auto it = run.cards.begin(); it != run.cards.end(); ++it)
    pieces.push_back({it->card, it == held ? moved_to : it->as, it->wild});
  pieces.push_back({natural, natural, false});
  auto check = place(pieces, rules);
  if (check && check.meld->kind != MeldKind::run) return refuse("bad_shift", "the cards no longer make a run");
  if (check) check.meld->owner = run.owner;
  return check;
}

std::vector<Card> shift_choices(const Meld& run, Card natural, const MeldRules& rules) {
  std::vector<Card> out;
  if (run.kind != MeldKind::run || run.cards.empty()) return out;
  const bool holds = std::any_of(run.cards.begin(), run.cards.end(),
                                 [&](const MeldCard& mc) { return mc.wild && mc.as == natural; });
  if (!holds) return out;
  const Suit suit = run.cards.front().as.suit;
  const int low = run.cards.front().as.rank;
  const int high = run.cards.back().as.rank;
  // The ranks next to the ends, on the circle (the ace between king and two);
  // the full check below keeps only what the ace rule allows.
  for (int rank : {low == ace ? king : low - 1, high == king ? ace : high + 1}) {
    const Card end = make_card(rank, suit);
    if (std::find(out.begin(), out.end(), end) != out.end()) continue;
    std::vector<Piece> pieces;
    bool moved = false;
    for (const auto& mc : run.cards) {
      if (!moved && mc.wild && mc.as == natural) {
        pieces.push_back({mc.card, end, true});
        moved = true;
      } else {
        pieces.push_back({mc.card, mc.as, mc.wild});
      }
    }
    pieces.push_back({natural, natural, false});
    if (auto check = place(pieces, rules); check && check.meld->kind == MeldKind::run) out.push_back(end);
  }
  return out;
}

bool lays_off(const Meld& meld, Card card, const MeldRules& rules) { return laid_off(meld, card, rules).has_value(); }

std::optional<Meld> laid_off(const Meld& meld, Card card, const MeldRules& rules) {
  if (!is_wild(card, rules) && !card.is_joker()) {
    if (meld.kind == MeldKind::jokers) return std::nullopt;
    if (meld.kind == MeldKind::set) {
      if (card.rank != meld.cards.front().as.rank) return std::nullopt;
    } else {
      if (card.suit != meld.cards.front().as.suit) return std::nullopt;
      // Next to an end, counting the ace as 1 and 14 and the king next to it.
      auto near = [&](int a, int b) {
        const int d = std::abs(a - b);
        return d == 1 || d == 12;
      };
      const int lo = meld.cards.front().as.rank;
      const int hi = meld.cards.back().as.rank;
      if (!near(card.rank, lo) && !near(card.rank, hi)) return std::nullopt;
    }
  }
  return extend_meld(meld, {card}, rules).meld;
}

namespace {

LayoutCheck layout_refusal(std::string reason, std::string message) {
  LayoutCheck check;
  check.reason = std::move(reason);
  check.message = std::move(message);
  return check;
}

// How many wilds on a table stand for each identity, indexed by suit × 14 + rank.
std::array<int, 56> wild_declarations(const std::vector<Meld>& table) {
  std::array<int, 56> counts{};
  for (const auto& meld : table)
    for (const auto& mc : meld.cards)
      if (mc.wild && meld.kind != MeldKind::jokers) ++counts[static_cast<int>(mc.as.suit) * 14 + mc.as.rank];
  return counts;
}

bool holds_natural(const Meld& meld, Card card) {
  return std::any_of(meld.cards.begin(), meld.cards.end(), [&](const MeldCard& mc) { return !mc.wild && mc.card == card; });
}

// The natural cards X of the new table that take the place of a wild that stood
// for X (rules/rummy.md §1.3): each sits in a meld with natural cards of an old
// meld where a wild stood for X, and came from the hand (exchange) or from
// another table meld (capture).
int naturals_taking_the_place_of(Card x, const std::vector<Meld>& old_table, const std::vector<Meld>& new_table) {
  auto joins_old_meld = [&](const Meld& now) {
    for (const auto& old : old_table) {
      const bool wild_stood_for_x = std::any_of(old.cards.begin(), old.cards.end(),
                                                [&](const MeldCard& mc) { return mc.wild && mc.as == x; });
      if (!wild_stood_for_x || holds_natural(old, x)) continue;
      for (const auto& mc : old.cards)
        if (!mc.wild && holds_natural(now, mc.card)) return true;
    }
    return false;
  };
  int takers = 0;
  for (const auto& meld : new_table)
    if (holds_natural(meld, x) && joins_old_meld(meld))
      takers += static_cast<int>(std::count_if(meld.cards.begin(), meld.cards.end(),
                                               [&](const MeldCard& mc) { return !mc.wild && mc.card == x; }));
  return takers;
}

bool unchanged(const Meld& old, const MeldSpec& spec) {
  if (old.kind == MeldKind::jokers || old.cards.size() != spec.cards.size()) return false;
  std::size_t next_declared = 0;
  for (std::size_t i = 0; i < spec.cards.size(); ++i) {
    const auto& mc = old.cards[i];
    if (mc.card != spec.cards[i]) return false;
    if (!mc.wild) continue;
    if (next_declared >= spec.declared.size() || spec.declared[next_declared++] != mc.as) return false;
  }
  return next_declared == spec.declared.size();
}

}  // namespace

LayoutCheck validate_layout(const std::vector<Meld>& old_table, const std::vector<MeldSpec>& new_table,
                            const std::vector<Card>& hand, const MeldRules& rules) {
  std::vector<Card> old_cards;
  for (const auto& meld : old_table)
    for (const auto& mc : meld.cards) old_cards.push_back(mc.card);
  LayoutCheck out;
  std::vector<Card> unplaced = old_cards;
  auto hand_left = hand;
  for (const auto& spec : new_table) {
    for (auto card : spec.cards) {
      if (auto it = std::find(unplaced.begin(), unplaced.end(), card); it != unplaced.end()) {
        unplaced.erase(it);
        continue;
      }
      auto in_hand = std::find(hand_left.begin(), hand_left.end(), card);
      if (in_hand == hand_left.end())
        return layout_refusal("card_not_available", to_string(card) + " is neither on the table nor in your hand");
      hand_left.erase(in_hand);
      out.from_hand.push_back(card);
    }
    // A meld left exactly as it was (same cards in order, wilds declared the same)
    // was valid and stays so: no need to check it again.
    auto same = std::find_if(old_table.begin(), old_table.end(), [&](const Meld& old) { return unchanged(old, spec); });
    if (same != old_table.end()) {
      out.melds.push_back(*same);
      continue;
    }
    auto check = validate_meld(spec.cards, rules, spec.declared);
    if (!check) return layout_refusal(check.reason, check.message);
    out.melds.push_back(*check.meld);
  }
  if (!unplaced.empty())
    return layout_refusal("card_left_table", to_string(unplaced.front()) + " was on the table and must stay there");
  if (out.from_hand.empty()) return layout_refusal("no_card_from_hand", "a new layout must add at least one card from your hand");
  // A wild keeps what it stands for unless a natural card of that identity takes its place.
  const auto before = wild_declarations(old_table);
  const auto after = wild_declarations(out.melds);
  for (int i = 0; i < 56; ++i) {
    if (after[i] >= before[i]) continue;
    const Card identity{static_cast<std::uint8_t>(i % 14), static_cast<Suit>(i / 14)};
    if (naturals_taking_the_place_of(identity, old_table, out.melds) < before[i] - after[i])
      return layout_refusal("identity_lost", "a wild stood for " + to_string(identity) +
                                                 ": it may stand for another card only when a natural " +
                                                 to_string(identity) + " takes its place in its meld");
  }
  return out;
}

namespace {

// Every multiset of `count` cards from `pool` (in pool order), each passed to `visit`.
template <typename Visit>
void each_multiset(const std::vector<Card>& pool, std::size_t count, std::vector<Card>& chosen, std::size_t from,
                   Visit&& visit) {
  if (chosen.size() == count) return visit(chosen);
  for (std::size_t i = from; i < pool.size(); ++i) {
    chosen.push_back(pool[i]);
    each_multiset(pool, count, chosen, i, visit);
    chosen.pop_back();
  }
}

std::size_t multisets(std::size_t kinds, std::size_t count) {
  std::size_t n = 1;  // C(kinds + count - 1, count), exact at each step
  for (std::size_t i = 1; i <= count; ++i) n = n * (kinds + i - 1) / i;
  return n;
}

std::vector<Card> wild_declarations_of(const Meld& meld) {
  std::vector<Card> out;
  for (const auto& mc : meld.cards)
    if (mc.wild) out.push_back(mc.as);
  std::sort(out.begin(), out.end(), [](Card a, Card b) { return to_string(a) < to_string(b); });
  return out;
}

}  // namespace

std::vector<Meld> declaration_variants(const Meld& meld, const MeldRules& rules, std::size_t most) {
  std::vector<Meld> out{meld};
  std::vector<Card> cards;
  std::vector<Card> naturals;
  std::size_t wilds = 0;
  for (const auto& mc : meld.cards) {
    cards.push_back(mc.card);
    if (mc.wild) ++wilds;
    else if (is_wild(mc.card, rules)) return out;  // a wild card standing as itself: declarations cover all or none
    else naturals.push_back(mc.card);
  }
  if (wilds == 0 || naturals.empty() || meld.kind == MeldKind::jokers) return out;
  std::vector<Card> pool;
  for (Suit suit : {Suit::spades, Suit::hearts, Suit::diamonds, Suit::clubs}) pool.push_back({naturals.front().rank, suit});
  for (std::uint8_t rank = ace; rank <= king; ++rank)
    if (rank != naturals.front().rank) pool.push_back({rank, naturals.front().suit});
  if (multisets(pool.size(), wilds) > most) return out;
  std::vector<std::vector<Card>> seen{wild_declarations_of(meld)};
  // What any valid declaration is, asked before validating (most choices are
  // not): all of the naturals' rank (a set), or all of their suit, each of a
  // rank no other card of the meld has (a run never holds a rank twice).
  std::array<bool, 16> natural_ranks{};
  for (auto c : naturals) natural_ranks[c.rank] = true;
  const Card first = naturals.front();
  auto could_be_valid = [&](const std::vector<Card>& declared) {
    if (std::all_of(declared.begin(), declared.end(), [&](Card d) { return d.rank == first.rank; })) return true;
    auto ranks = natural_ranks;
    for (auto d : declared) {
      if (d.suit != first.suit || ranks[d.rank]) return false;
      ranks[d.rank] = true;
    }
    return true;
  };
  std::vector<Card> chosen;
  each_multiset(pool, wilds, chosen, 0, [&](const std::vector<Card>& declared) {
    if (!could_be_valid(declared)) return;
    auto check = validate_meld(cards, rules, declared);
    if (!check) return;
    auto key = wild_declarations_of(*check.meld);
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) return;
    seen.push_back(key);
    check.meld->owner = meld.owner;
    out.push_back(*check.meld);
  });
  return out;
}

std::string meld_card_string(const MeldCard& mc) {
  return mc.wild ? to_string(mc.card) + "=" + to_string(mc.as) : to_string(mc.card);
}

std::vector<std::string> meld_strings(const Meld& meld) {
  std::vector<std::string> out;
  for (const auto& mc : meld.cards) out.push_back(meld_card_string(mc));
  return out;
}

}  // namespace parlour::rules::rummy
