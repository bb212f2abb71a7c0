#include "rules/rummy/arrangement.h"

#include <algorithm>
#include <cstdint>
#include <array>
#include <unordered_map>

namespace parlour::rules::rummy {

namespace {

using Mask = std::uint64_t;

// A meld the hand could make: which natural cards (by index) and how many wilds.
struct Candidate {
  Mask naturals = 0;
  int wilds = 0;
  friend bool operator<(const Candidate& a, const Candidate& b) {
    return a.naturals != b.naturals ? a.naturals < b.naturals : a.wilds < b.wilds;
  }
};

struct HandParts {
  std::vector<Card> naturals;
  std::vector<Card> wilds;  // most valuable first: a meld uses these first
};

HandParts split(const std::vector<Card>& hand, const MeldRules& rules, const CardValues& values) {
  HandParts parts;
  for (auto c : hand) (is_wild(c, rules) ? parts.wilds : parts.naturals).push_back(c);
  std::stable_sort(parts.wilds.begin(), parts.wilds.end(),
                   [&](Card a, Card b) { return values.in_hand(a) > values.in_hand(b); });
  return parts;
}

void add_set_candidates(const std::vector<Card>& naturals, int wilds, const MeldRules& rules, std::vector<Candidate>& out) {
  if (rules.jokers_own_rank) {
    // Every choice of 3 or 4 jokers is the same meld; take the lowest indexes.
    std::vector<std::size_t> jokers;
    for (std::size_t i = 0; i < naturals.size(); ++i)
      if (naturals[i].is_joker()) jokers.push_back(i);
    for (int size = rules.set_min; size <= std::min<int>(4, static_cast<int>(jokers.size())); ++size) {
      Mask m = 0;
      for (int k = 0; k < size; ++k) m |= Mask{1} << jokers[k];
      out.push_back({m, 0});
    }
  }
  std::array<std::vector<std::size_t>, 14> by_rank;
  for (std::size_t i = 0; i < naturals.size(); ++i)
    if (!naturals[i].is_joker()) by_rank[naturals[i].rank].push_back(i);
  const bool repeats_allowed = rules.set_duplicates && !rules.set_distinct_suits;
  for (const auto& indexes : by_rank) {
    const std::size_t n = indexes.size();
    if (static_cast<int>(n) + wilds < rules.set_min) continue;
    for (Mask pick = 1; pick < (Mask{1} << n); ++pick) {
      Mask m = 0;
      unsigned suits = 0;
      bool repeated = false;
      int size = 0;
      for (std::size_t b = 0; b < n; ++b) {
        if (!(pick >> b & 1)) continue;
        const unsigned bit = 1u << static_cast<int>(naturals[indexes[b]].suit);
        repeated |= (suits & bit) != 0;
        suits |= bit;
        m |= Mask{1} << indexes[b];
        ++size;
      }
      if (repeated && !repeats_allowed) continue;
      for (int w = 0; w <= wilds; ++w) {
        if (size + w < rules.set_min) continue;
        if (size + w > rules.set_max) break;
        // Distinct suits: the wilds need suits the set lacks.
        if (rules.set_distinct_suits && size + w > 4) break;
        out.push_back({m, w});
      }
    }
  }
}

// The positions a run may occupy under the ace rule: 1..13 with the ace low,
// 2..14 with it high (14 is the ace), or the circle round the corner.
struct RunLine {
  int first;
  int last;
  bool circular;
};

std::vector<RunLine> run_lines(AceMode mode) {
  switch (mode) {
    case AceMode::low: return {{1, 13, false}};
    case AceMode::high: return {{2, 14, false}};
    case AceMode::low_or_high: return {{1, 13, false}, {2, 14, false}};
    case AceMode::around: return {{1, 13, true}};
  }
  return {};
}

// Runs: for each suit and each window of positions, one card per position
// present (any copy), wilds for the rest. Windows grow from each start until
// they would need more wilds than the hand holds.
void add_run_candidates(const std::vector<Card>& naturals, int wilds, const MeldRules& rules, std::vector<Candidate>& out) {
  for (int suit = 0; suit < 4; ++suit) {
    std::array<std::vector<std::size_t>, 14> at_rank;
    bool any = false;
    for (std::size_t i = 0; i < naturals.size(); ++i) {
      const Card c = naturals[i];
      if (c.is_joker() || static_cast<int>(c.suit) != suit) continue;
      at_rank[c.rank].push_back(i);
      any = true;
    }
    if (!any) continue;
    for (const auto& line : run_lines(rules.ace)) {
      const int span = line.last - line.first + 1;
      for (int start = line.first; start <= line.last; ++start) {
        std::vector<std::vector<std::size_t>*> present;
        int need = 0;
        for (int length = 1; length <= 13; ++length) {
          int pos = start + length - 1;
          if (line.circular) pos = (pos - line.first) % span + line.first;
          else if (pos > line.last) break;
          const int rank = pos == 14 ? ace : pos;
          if (at_rank[rank].empty()) ++need;
          else present.push_back(&at_rank[rank]);
          if (need > wilds) break;
          if (length < rules.run_min || present.empty()) continue;
          // One candidate per choice of copies (two-pack hands may hold two).
          std::vector<std::size_t> pick(present.size(), 0);
          for (;;) {
            Mask m = 0;
            for (std::size_t c = 0; c < present.size(); ++c) m |= Mask{1} << (*present[c])[pick[c]];
            out.push_back({m, need});
            std::size_t c = 0;
            while (c < pick.size() && ++pick[c] == present[c]->size()) pick[c++] = 0;
            if (c == pick.size()) break;
          }
        }
      }
    }
  }
}

std::vector<Candidate> enumerate(const std::vector<Card>& naturals, int wilds, const MeldRules& rules) {
  std::vector<Candidate> found;
  add_set_candidates(naturals, wilds, rules, found);
  add_run_candidates(naturals, wilds, rules, found);
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end(),
                          [](const Candidate& a, const Candidate& b) { return !(a < b) && !(b < a); }),
              found.end());
  return found;
}

class Search {
 public:
  Search(const HandParts& parts, const CardValues& values, std::vector<Candidate> candidates)
      : parts_(parts), values_(values), candidates_(std::move(candidates)) {
    by_lowest_.resize(parts.naturals.size());
    for (std::size_t c = 0; c < candidates_.size(); ++c) {
      const int lowest = __builtin_ctzll(candidates_[c].naturals);
      by_lowest_[lowest].push_back(c);
    }
  }

  // Lowest deadwood value of the naturals in `left` with `used` wilds spent.
  int best(Mask left, int used) {
    if (left == 0) {
      int rest = 0;
      for (std::size_t w = used; w < parts_.wilds.size(); ++w) rest += values_.in_hand(parts_.wilds[w]);
      return rest;
    }
    const Key key{left, used, 0};
    if (auto it = memo_.find(key); it != memo_.end()) return it->second.value;
    const int lowest = __builtin_ctzll(left);
    const Mask without = left & ~(Mask{1} << lowest);
    Choice choice{values_.in_hand(parts_.naturals[lowest]) + best(without, used), -1};
    for (std::size_t c : by_lowest_[lowest]) {
      const auto& cand = candidates_[c];
      if ((cand.naturals & left) != cand.naturals) continue;
      if (used + cand.wilds > static_cast<int>(parts_.wilds.size())) continue;
      const int value = best(left & ~cand.naturals, used + cand.wilds);
      if (value < choice.value) choice = {value, static_cast<int>(c)};
    }
    memo_[key] = choice;
    return choice.value;
  }

  // Whether the naturals in `left` meld whole with `used` wilds spent, leaving
  // at most `spare` cards (naturals or wilds) out. Far cheaper than best(): the
  // lowest card must join a meld at every step but `spare` of them.
  bool covers(Mask left, int used, int spare) {
    if (left == 0) return static_cast<int>(parts_.wilds.size()) - used <= spare;
    const Key key{left, used, spare};
    if (auto it = cover_memo_.find(key); it != cover_memo_.end()) return it->second != kUncovered;
    const int lowest = __builtin_ctzll(left);
    int found = kUncovered;
    for (std::size_t c : by_lowest_[lowest]) {
      const auto& cand = candidates_[c];
      if ((cand.naturals & left) != cand.naturals) continue;
      if (used + cand.wilds > static_cast<int>(parts_.wilds.size())) continue;
      if (covers(left & ~cand.naturals, used + cand.wilds, spare)) {
        found = static_cast<int>(c);
        break;
      }
    }
    if (found == kUncovered && spare > 0 && covers(left & ~(Mask{1} << lowest), used, spare - 1)) found = kLeftOut;
    cover_memo_[key] = found;
    return found != kUncovered;
  }

  // The melds of covers(all, 0, 0): the first candidate that works at every step,
  // in the order best() tries them, so with every card worth something this is
  // the arrangement best() rebuilds.
  Arrangement rebuild_cover(Mask all, const MeldRules& rules) {
    Arrangement out;
    Mask left = all;
    int used = 0;
    while (left) {
      const auto& cand = candidates_[static_cast<std::size_t>(cover_memo_.at(Key{left, used, 0}))];
      out.melds.push_back(meld_of(cand, used, rules));
      left &= ~cand.naturals;
      used += cand.wilds;
    }
    return out;
  }

  // Walks the recorded choices to rebuild the melds.
  Arrangement rebuild(Mask all, const MeldRules& rules) {
    Arrangement out;
    out.deadwood_value = best(all, 0);
    Mask left = all;
    int used = 0;
    while (left) {
      const auto choice = memo_.at(Key{left, used, 0});
      const int lowest = __builtin_ctzll(left);
      if (choice.candidate < 0) {
        out.deadwood.push_back(parts_.naturals[lowest]);
        left &= ~(Mask{1} << lowest);
        continue;
      }
      const auto& cand = candidates_[choice.candidate];
      out.melds.push_back(meld_of(cand, used, rules));
      left &= ~cand.naturals;
      used += cand.wilds;
    }
    for (std::size_t w = used; w < parts_.wilds.size(); ++w) out.deadwood.push_back(parts_.wilds[w]);
    return out;
  }

 private:
  // A candidate's cards as a meld, its wilds the next `cand.wilds` after the `used` ones.
  Meld meld_of(const Candidate& cand, int used, const MeldRules& rules) const {
    std::vector<Card> cards;
    for (std::size_t i = 0; i < parts_.naturals.size(); ++i)
      if (cand.naturals >> i & 1) cards.push_back(parts_.naturals[i]);
    for (int w = 0; w < cand.wilds; ++w) cards.push_back(parts_.wilds[used + w]);
    return *validate_meld(cards, rules).meld;
  }

  struct Choice {
    int value;
    int candidate;  // -1: the lowest card stays in the hand
  };
  // A search state: the naturals left, the wilds spent, the cards that may stay out.
  // (The whole of it is the key: a key folded into one number could make two states one.)
  struct Key {
    Mask left;
    int used;
    int spare;
    friend bool operator==(const Key&, const Key&) = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& key) const {
      return std::hash<Mask>{}(key.left * 0x9E3779B97F4A7C15ull ^ static_cast<Mask>(key.used * 4 + key.spare));
    }
  };
  // cover_memo_ holds a candidate's index, or one of these.
  static constexpr int kUncovered = -2;  // no way to meld these
  static constexpr int kLeftOut = -1;    // the lowest card stays out

  const HandParts& parts_;
  const CardValues& values_;
  std::vector<Candidate> candidates_;
  std::vector<std::vector<std::size_t>> by_lowest_;
  std::unordered_map<Key, Choice, KeyHash> memo_;
  std::unordered_map<Key, int, KeyHash> cover_memo_;
};

}  // namespace

Arrangement best_arrangement(const std::vector<Card>& hand, const MeldRules& rules, const CardValues& values) {
  const auto parts = split(hand, rules, values);
  Search search(parts, values, enumerate(parts.naturals, static_cast<int>(parts.wilds.size()), rules));
  const Mask all = parts.naturals.size() == 64 ? ~Mask{0} : (Mask{1} << parts.naturals.size()) - 1;
  return search.rebuild(all, rules);
}

namespace {

// Going out's values (every card worth something, so "deadwood 0" is "all melded"):
// the wilds are split off in the order best_arrangement puts them in with them.
constexpr CardValues kMeldAll{1, 1, 1, 1, 1};

Mask all_of(const HandParts& parts) {
  return parts.naturals.size() == 64 ? ~Mask{0} : (Mask{1} << parts.naturals.size()) - 1;
}

}  // namespace

std::optional<Arrangement> meld_every_card(const std::vector<Card>& hand, const MeldRules& rules) {
  const auto parts = split(hand, rules, kMeldAll);
  Search search(parts, kMeldAll, enumerate(parts.naturals, static_cast<int>(parts.wilds.size()), rules));
  if (!search.covers(all_of(parts), 0, 0)) return std::nullopt;
  return search.rebuild_cover(all_of(parts), rules);
}

bool melds_all_but(const std::vector<Card>& hand, const MeldRules& rules, int spare) {
  const auto parts = split(hand, rules, kMeldAll);
  Search search(parts, kMeldAll, enumerate(parts.naturals, static_cast<int>(parts.wilds.size()), rules));
  return search.covers(all_of(parts), 0, spare);
}

bool can_meld_all(const std::vector<Card>& hand, const MeldRules& rules, bool leave_one) {
  const CardValues& ones = kMeldAll;
  if (!leave_one) return best_arrangement(hand, rules, ones).deadwood.empty();
  for (std::size_t i = 0; i < hand.size(); ++i) {
    if (i > 0 && std::find(hand.begin(), hand.begin() + i, hand[i]) != hand.begin() + i) continue;
    auto rest = hand;
    rest.erase(rest.begin() + i);
    if (best_arrangement(rest, rules, ones).deadwood.empty()) return true;
  }
  return false;
}

std::size_t cards_in_no_meld(const std::vector<Card>& hand, const MeldRules& rules) {
  const auto parts = split(hand, rules, CardValues::basic());
  Mask covered = 0;
  bool wilds_meld = false;
  for (const auto& cand : enumerate(parts.naturals, static_cast<int>(parts.wilds.size()), rules)) {
    covered |= cand.naturals;
    wilds_meld = wilds_meld || cand.wilds > 0;
  }
  std::size_t out = wilds_meld ? 0 : parts.wilds.size();
  for (std::size_t i = 0; i < parts.naturals.size(); ++i)
    if (!(covered >> i & 1)) ++out;
  return out;
}

bool some_meld_holds(const std::vector<Card>& hand, Card card, const MeldRules& rules) {
  auto parts = split(hand, rules, CardValues::basic());
  const int wilds = static_cast<int>(parts.wilds.size());
  if (is_wild(card, rules)) {
    // candidate_melds gives a meld of w wilds the first w of them: it holds this
    // card when w passes the card's first copy.
    const auto first = std::find(parts.wilds.begin(), parts.wilds.end(), card);
    if (first == parts.wilds.end()) return false;
    const int needed = static_cast<int>(first - parts.wilds.begin()) + 1;
    for (const auto& cand : enumerate(parts.naturals, wilds, rules))
      if (cand.wilds >= needed) return true;
    return false;
  }
  // A meld holding a natural card is a set of its rank (of jokers, for a joker
  // that melds with its own kind) or a run of its suit: only those cards can
  // share one with it, and the enumeration of what is left is the same.
  std::erase_if(parts.naturals, [&](Card c) {
    if (card.is_joker() || c.is_joker()) return card.is_joker() != c.is_joker();
    return c.rank != card.rank && c.suit != card.suit;
  });
  Mask copies = 0;
  for (std::size_t i = 0; i < parts.naturals.size(); ++i)
    if (parts.naturals[i] == card) copies |= Mask{1} << i;
  if (copies == 0) return false;
  for (const auto& cand : enumerate(parts.naturals, wilds, rules))
    if (cand.naturals & copies) return true;
  return false;
}

std::vector<std::vector<Card>> candidate_melds(const std::vector<Card>& hand, const MeldRules& rules) {
  const auto parts = split(hand, rules, CardValues::basic());
  std::vector<std::vector<Card>> out;
  for (const auto& cand : enumerate(parts.naturals, static_cast<int>(parts.wilds.size()), rules)) {
    std::vector<Card> cards;
    for (std::size_t i = 0; i < parts.naturals.size(); ++i)
      if (cand.naturals >> i & 1) cards.push_back(parts.naturals[i]);
    for (int w = 0; w < cand.wilds; ++w) cards.push_back(parts.wilds[w]);
    if (std::find(out.begin(), out.end(), cards) == out.end()) out.push_back(std::move(cards));
  }
  return out;
}

}  // namespace parlour::rules::rummy
