#include "rules/rummy/arrangement.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
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

void add_set_candidates(const std::vector<Card>& naturals, int wilds, const MeldRules& rules, std::set<Candidate>& out) {
  if (rules.jokers_own_rank) {
    Mask jokers = 0;
    int count = 0;
    for (std::size_t i = 0; i < naturals.size(); ++i)
      if (naturals[i].is_joker()) jokers |= Mask{1} << i, ++count;
    // Every subset of 3 or 4 jokers is the same meld; take the lowest indexes.
    for (int size = rules.set_min; size <= std::min(4, count); ++size) {
      Mask m = 0;
      int taken = 0;
      for (std::size_t i = 0; i < naturals.size() && taken < size; ++i)
        if (naturals[i].is_joker()) m |= Mask{1} << i, ++taken;
      out.insert({m, 0});
    }
  }
  std::map<int, std::vector<std::size_t>> by_rank;
  for (std::size_t i = 0; i < naturals.size(); ++i)
    if (!naturals[i].is_joker()) by_rank[naturals[i].rank].push_back(i);
  for (const auto& [rank, indexes] : by_rank) {
    const std::size_t n = indexes.size();
    for (Mask pick = 1; pick < (Mask{1} << n); ++pick) {
      std::vector<Card> cards;
      Mask m = 0;
      for (std::size_t b = 0; b < n; ++b)
        if (pick >> b & 1) cards.push_back(naturals[indexes[b]]), m |= Mask{1} << indexes[b];
      for (int w = 0; w <= wilds; ++w) {
        const int size = static_cast<int>(cards.size()) + w;
        if (size < rules.set_min) continue;
        if (size > rules.set_max) break;
        std::vector<Card> trial = cards;
        for (int k = 0; k < w; ++k) trial.push_back(Card::joker());  // stands in for any wild
        MeldRules probe = rules;
        probe.jokers_wild = true;
        probe.jokers_own_rank = false;
        if (validate_meld(trial, probe)) out.insert({m, w});
      }
    }
  }
}

// Runs: for each suit and each window of positions, one card per position
// present (any copy), wilds for the rest.
void add_run_candidates(const std::vector<Card>& naturals, int wilds, const MeldRules& rules, std::set<Candidate>& out) {
  for (int suit = 0; suit < 4; ++suit) {
    std::vector<std::vector<std::size_t>> at_rank(14);
    bool any = false;
    for (std::size_t i = 0; i < naturals.size(); ++i) {
      const Card c = naturals[i];
      if (c.is_joker() || static_cast<int>(c.suit) != suit) continue;
      at_rank[c.rank].push_back(i);
      any = true;
    }
    if (!any) continue;
    // Positions 1..14 (14 is a high ace), or 13 rotations round the corner.
    const bool around = rules.ace == AceMode::around;
    const int starts = around ? 13 : 14;
    for (int start = 1; start <= starts; ++start) {
      for (int length = rules.run_min; length <= 13; ++length) {
        std::vector<int> ranks;
        bool fits = true;
        for (int k = 0; k < length; ++k) {
          int pos = start + k;
          if (around) pos = (pos - 1) % 13 + 1;
          else if (pos > 14) fits = false;
          ranks.push_back(pos == 14 ? ace : pos);
        }
        if (!fits) break;
        // Enumerate one copy per present rank (two-pack hands may hold two).
        std::vector<std::vector<std::size_t>> choices;
        int present = 0;
        for (int r : ranks) {
          if (!at_rank[r].empty()) {
            choices.push_back(at_rank[r]);
            ++present;
          }
        }
        const int need = length - present;
        if (present == 0 || need > wilds) continue;
        std::vector<std::size_t> pick(choices.size(), 0);
        for (;;) {
          Mask m = 0;
          std::vector<Card> cards;
          for (std::size_t c = 0; c < choices.size(); ++c) {
            m |= Mask{1} << choices[c][pick[c]];
            cards.push_back(naturals[choices[c][pick[c]]]);
          }
          for (int k = 0; k < need; ++k) cards.push_back(Card::joker());
          MeldRules probe = rules;
          probe.jokers_wild = true;
          probe.jokers_own_rank = false;
          auto check = validate_meld(cards, probe);
          if (check && check.meld->kind == MeldKind::run) out.insert({m, need});
          std::size_t c = 0;
          while (c < pick.size() && ++pick[c] == choices[c].size()) pick[c++] = 0;
          if (c == pick.size()) break;
        }
      }
    }
  }
}

std::vector<Candidate> enumerate(const std::vector<Card>& naturals, int wilds, const MeldRules& rules) {
  std::set<Candidate> found;
  add_set_candidates(naturals, wilds, rules, found);
  add_run_candidates(naturals, wilds, rules, found);
  return {found.begin(), found.end()};
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
    const auto key = std::make_pair(left, used);
    if (auto it = memo_.find(key_of(key)); it != memo_.end()) return it->second.value;
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
    memo_[key_of(key)] = choice;
    return choice.value;
  }

  // Walks the recorded choices to rebuild the melds.
  Arrangement rebuild(Mask all, const MeldRules& rules) {
    Arrangement out;
    out.deadwood_value = best(all, 0);
    Mask left = all;
    int used = 0;
    while (left) {
      const auto choice = memo_.at(key_of({left, used}));
      const int lowest = __builtin_ctzll(left);
      if (choice.candidate < 0) {
        out.deadwood.push_back(parts_.naturals[lowest]);
        left &= ~(Mask{1} << lowest);
        continue;
      }
      const auto& cand = candidates_[choice.candidate];
      std::vector<Card> cards;
      for (std::size_t i = 0; i < parts_.naturals.size(); ++i)
        if (cand.naturals >> i & 1) cards.push_back(parts_.naturals[i]);
      for (int w = 0; w < cand.wilds; ++w) cards.push_back(parts_.wilds[used + w]);
      out.melds.push_back(*validate_meld(cards, rules).meld);
      left &= ~cand.naturals;
      used += cand.wilds;
    }
    for (std::size_t w = used; w < parts_.wilds.size(); ++w) out.deadwood.push_back(parts_.wilds[w]);
    return out;
  }

 private:
  struct Choice {
    int value;
    int candidate;  // -1: the lowest card stays in the hand
  };
  static std::uint64_t key_of(std::pair<Mask, int> key) { return key.first * 131 + static_cast<std::uint64_t>(key.second); }

  const HandParts& parts_;
  const CardValues& values_;
  std::vector<Candidate> candidates_;
  std::vector<std::vector<std::size_t>> by_lowest_;
  std::unordered_map<std::uint64_t, Choice> memo_;
};

}  // namespace

Arrangement best_arrangement(const std::vector<Card>& hand, const MeldRules& rules, const CardValues& values) {
  const auto parts = split(hand, rules, values);
  Search search(parts, values, enumerate(parts.naturals, static_cast<int>(parts.wilds.size()), rules));
  const Mask all = parts.naturals.size() == 64 ? ~Mask{0} : (Mask{1} << parts.naturals.size()) - 1;
  return search.rebuild(all, rules);
}

bool can_meld_all(const std::vector<Card>& hand, const MeldRules& rules, bool leave_one) {
  // Count-only values: every card 1, so "deadwood 0" is "all melded".
  CardValues ones{1, 1, 1, 1, 1};
  if (!leave_one) return best_arrangement(hand, rules, ones).deadwood.empty();
  for (std::size_t i = 0; i < hand.size(); ++i) {
    if (i > 0 && std::find(hand.begin(), hand.begin() + i, hand[i]) != hand.begin() + i) continue;
    auto rest = hand;
    rest.erase(rest.begin() + i);
    if (best_arrangement(rest, rules, ones).deadwood.empty()) return true;
  }
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
