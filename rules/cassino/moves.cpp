#include "rules/cassino/moves.h"

#include <algorithm>
#include <bit>
#include <climits>
#include <cstdint>
#include <set>
#include <stdexcept>

namespace parlour::rules::cassino {

namespace {

// A set of table items as bits: loose card i is bit i, build j is bit (loose + j).
using Mask = std::uint64_t;

Mask bit(std::size_t index) { return Mask{1} << index; }

// Finds sets of loose cards whose values can add up to a total, each card
// counted as any one of its values. Cards are tried lowest value first so that
// a search stops as soon as the next card is too big.
class Sums {
 public:
  Sums(const std::vector<Card>& cards, const CardValues& values) : cards_(cards), values_(values) {
    if (cards.size() > 60) throw std::logic_error("cassino: more loose cards than a pack holds");
    for (std::size_t i = 0; i < cards.size(); ++i)
      if (values.has_value(cards[i])) order_.push_back(i);
    std::stable_sort(order_.begin(), order_.end(),
                     [&](std::size_t a, std::size_t b) { return lowest(a) < lowest(b); });
  }

  // Calls found(mask) for every set of cards within `pool` that can total
  // `target` (a set may come more than once: two aces counted 1 and 14 either
  // way round). False when `budget` steps ran out first.
  template <typename Found>
  bool each(Mask pool, int target, long& budget, Found&& found) const {
    if (target <= 0) return true;
    return search(0, pool, target, 0, budget, found);
  }

  const CardValues& values() const { return values_; }
  const std::vector<Card>& cards() const { return cards_; }

 private:
  int lowest(std::size_t index) const { return values_.of(cards_[index]).front(); }

  template <typename Found>
  bool search(std::size_t from, Mask pool, int remaining, Mask chosen, long& budget, Found& found) const {
    if (remaining == 0) {
      found(chosen);
      return true;
    }
    for (std::size_t k = from; k < order_.size(); ++k) {
      if (--budget < 0) return false;
      const std::size_t index = order_[k];
      if (!(pool & bit(index))) continue;
      if (lowest(index) > remaining) break;
      for (int value : values_.of(cards_[index]))
        if (value <= remaining && !search(k + 1, pool, remaining - value, chosen | bit(index), budget, found))
          return false;
    }
    return true;
  }

  const std::vector<Card>& cards_;
  const CardValues& values_;
  std::vector<std::size_t> order_;
};

// The distinct sets of `pool` totalling `target`.
std::vector<Mask> sets_totalling(const Sums& sums, Mask pool, int target, long& budget) {
  std::set<Mask> found;
  sums.each(pool, target, budget, [&](Mask m) { found.insert(m); });
  return {found.begin(), found.end()};
}

// Splits the loose cards `set` into groups that each total `value` (0: none
// may) or are a single card of rank `pair_rank` (0: none may). The groups, or
// nullopt. `failed` remembers sets already found not to split.
std::optional<std::vector<Mask>> split(const Sums& sums, Mask set, int value, int pair_rank, std::set<Mask>& failed) {
  if (set == 0) return std::vector<Mask>{};
  if (failed.count(set)) return std::nullopt;
  const auto low = static_cast<std::size_t>(std::countr_zero(set));
  const Card card = sums.cards()[low];
  std::vector<Mask> candidates;
  if (pair_rank != 0 && card.rank == pair_rank) candidates.push_back(bit(low));
  if (value > 0) {
    long budget = LONG_MAX;
    for (int own : sums.values().of(card)) {
      if (own == value) candidates.push_back(bit(low));
      if (own < value)
        sums.each(set & ~bit(low), value - own, budget, [&](Mask m) { candidates.push_back(m | bit(low)); });
    }
  }
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  for (Mask group : candidates) {
    auto rest = split(sums, set & ~group, value, pair_rank, failed);
    if (rest) {
      rest->push_back(group);
      return rest;
    }
  }
  failed.insert(set);
  return std::nullopt;
}

// The table's items as bits, and back.
struct Items {
  const TableCards& table;

  Mask loose_bits(const std::vector<Card>& cards) const {
    Mask mask = 0;
    for (const Card card : cards) {
      auto it = std::find(table.loose.begin(), table.loose.end(), card);
      if (it == table.loose.end()) throw std::logic_error("cassino: selection not on the table");
      mask |= bit(static_cast<std::size_t>(it - table.loose.begin()));
    }
    return mask;
  }
  Mask all_loose() const { return table.loose.empty() ? 0 : (bit(table.loose.size()) - 1); }
  Mask build_bit(std::size_t index) const { return bit(table.loose.size() + index); }

  std::vector<Card> loose_cards(Mask mask) const {
    std::vector<Card> out;
    for (std::size_t i = 0; i < table.loose.size(); ++i)
      if (mask & bit(i)) out.push_back(table.loose[i]);
    return out;
  }
  Selection selection(Mask mask) const {
    Selection out{loose_cards(mask), {}};
    for (std::size_t j = 0; j < table.builds.size(); ++j)
      if (mask & build_bit(j)) out.builds.push_back(table.builds[j].id);
    return out;
  }
  // Cards a selection holds: a measure of how much a play takes.
  std::size_t card_count(Mask mask) const {
    std::size_t count = 0;
    for (std::size_t i = 0; i < table.loose.size(); ++i) count += (mask & bit(i)) ? 1 : 0;
    for (std::size_t j = 0; j < table.builds.size(); ++j)
      if (mask & build_bit(j)) count += table.builds[j].cards().size();
    return count;
  }
};

// Every union of pairwise disjoint `atoms` added to `base` (at least one atom),
// into `out`. Deepest first, so the largest unions are found before the budget ends.
void disjoint_unions(const std::vector<Mask>& atoms, std::size_t from, Mask used, long& budget, std::set<Mask>& out) {
  for (std::size_t k = from; k < atoms.size(); ++k) {
    if (--budget < 0) return;
    if (atoms[k] & used) continue;
    const Mask grown = used | atoms[k];
    out.insert(grown);
    disjoint_unions(atoms, k + 1, grown, budget, out);
  }
}

// The `limit` largest sets (most cards), ties in a fixed order.
std::vector<Mask> largest(const std::set<Mask>& sets, const Items& items, std::size_t limit) {
  std::vector<Mask> out(sets.begin(), sets.end());
  std::stable_sort(out.begin(), out.end(),
                   [&](Mask a, Mask b) { return items.card_count(a) > items.card_count(b); });
  if (out.size() > limit) out.resize(limit);
  return out;
}

std::string values_text(const std::vector<int>& choices) {
  std::string out;
  for (std::size_t i = 0; i < choices.size(); ++i) out += (i ? " or " : "") + std::to_string(choices[i]);
  return out;
}

std::optional<std::string> pairing_only_fault(const TableCards& table, const CapturePlay& play) {
  const std::string name = to_string(play.card);
  if (!play.take.builds.empty()) return "a card without a value captures by pairing only, never a build (" + name + ")";
  for (const Card card : play.take.loose)
    if (card.rank != play.card.rank)
      return "a card without a value captures by pairing only: " + to_string(card) + " is not of the rank of " + name;
  const auto on_table = std::count_if(table.loose.begin(), table.loose.end(),
                                      [&](Card c) { return c.rank == play.card.rank; });
  const auto taken = play.take.loose.size();
  if (taken == 1 || (taken == 3 && on_table == 3)) return std::nullopt;
  return "a court card takes one card of its rank, or all three when three lie on the table";
}

// The simple, raised or multiple build `play` makes, if any.
std::optional<Build> classify_build(const TableCards& table, const CardValues& values, const BuildPlay& play) {
  const Items items{table};
  const Sums sums(table.loose, values);
  const Mask loose = items.loose_bits(play.with.loose);
  std::vector<const Build*> builds;
  for (int id : play.with.builds) builds.push_back(table.build(id));
  const int w = play.value;
  for (int own : values.of(play.card)) {
    // Raising: the card alone onto one simple build.
    if (loose == 0 && builds.size() == 1 && !builds[0]->multiple() && builds[0]->value + own == w) {
      auto group = builds[0]->cards();
      group.push_back(play.card);
      return Build{builds[0]->id, w, -1, {group}};
    }
    // A simple build: the card and loose cards totalling the value.
    if (builds.empty() && loose != 0) {
      long budget = LONG_MAX;
      bool total = false;
      sums.each(loose, w - own, budget, [&](Mask m) { total = total || m == loose; });
      if (total) {
        auto group = play.with.loose;
        group.insert(group.begin(), play.card);
        return Build{0, w, -1, {group}};
      }
    }
  }
  // A multiple build: the card's group beside other groups of the value.
  const bool builds_fit = std::all_of(builds.begin(), builds.end(),
                                      [&](const Build* b) { return !b->multiple() && b->value == w; });
  if (!builds_fit) return std::nullopt;
  for (int own : values.of(play.card)) {
    std::vector<Mask> own_groups;
    if (own == w) own_groups.push_back(0);
    long budget = LONG_MAX;
    if (own < w) sums.each(loose, w - own, budget, [&](Mask m) { own_groups.push_back(m); });
    for (Mask own_group : own_groups) {
      std::set<Mask> failed;
      auto rest = split(sums, loose & ~own_group, w, 0, failed);
      if (!rest || rest->size() + builds.size() < 1) continue;
      Build made{0, w, -1, {}};
      auto first = items.loose_cards(own_group);
      first.insert(first.begin(), play.card);
      made.groups.push_back(first);
      for (const Build* b : builds) made.groups.push_back(b->cards());
      for (auto it = rest->rbegin(); it != rest->rend(); ++it) made.groups.push_back(items.loose_cards(*it));
      return made;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> capture_fault(const TableCards& table, const CardValues& values, const CapturePlay& play) {
  if (play.take.empty()) return "a capture takes at least one card or build from the table";
  if (!values.has_value(play.card)) return pairing_only_fault(table, play);
  const Items items{table};
  const Sums sums(table.loose, values);
  const Mask loose = items.loose_bits(play.take.loose);
  for (int value : values.of(play.card)) {
    const bool builds_fit = std::all_of(play.take.builds.begin(), play.take.builds.end(),
                                        [&](int id) { return table.build(id)->value == value; });
    std::set<Mask> failed;
    if (builds_fit && split(sums, loose, value, play.card.rank, failed)) return std::nullopt;
  }
  const auto name = to_string(play.card);
  const auto worth = values_text(values.of(play.card));
  return "capturing: every card taken must pair with " + name + " or be in a group adding up to its value (" + worth +
         "), and every build taken must be worth " + worth;
}

std::optional<std::string> build_fault(const TableCards& table, const CardValues& values, const BuildPlay& play,
                                       const std::vector<Card>& rest_of_hand) {
  const auto name = to_string(play.card);
  if (!values.has_value(play.card)) return "a card without a value cannot build (" + name + ")";
  if (play.with.empty()) return "a build is made on the table: name loose cards or a build to build on";
  for (int id : play.with.builds)
    if (table.build(id)->multiple())
      return "a multiple build can never be changed (build " + std::to_string(id) + "); it can only be captured";
  if (play.value < 2 || play.value > values.max_build())
    return "a build is worth from 2 to " + std::to_string(values.max_build()) + ", not " + std::to_string(play.value);
  const bool can_take = std::any_of(rest_of_hand.begin(), rest_of_hand.end(),
                                    [&](Card c) { return values.counts_as(c, play.value); });
  if (!can_take)
    return "a builder must keep a card to take his build: no card worth " + std::to_string(play.value) +
           " is left in hand besides " + name;
  if (!classify_build(table, values, play))
    return "building " + std::to_string(play.value) + ": " + name +
           " with the cards named must total the value (a simple build), be added alone to one simple build "
           "(raising it), or form groups each totalling the value (a multiple build)";
  return std::nullopt;
}

Build built_by(const TableCards& table, const CardValues& values, const BuildPlay& play) {
  auto made = classify_build(table, values, play);
  if (!made) throw std::logic_error("cassino: built_by on a play that is not a build");
  return *made;
}

std::vector<Selection> captures_with(const TableCards& table, const CardValues& values, Card card,
                                     const ListingLimits& limits) {
  const Items items{table};
  // Taking the builds of a value, each alone and all together, is listed
  // whatever the limits: a build's owner must always find the play that takes it.
  std::set<Mask> always;
  std::set<Mask> found;
  if (!values.has_value(card)) {
    std::vector<Mask> same_rank;
    for (std::size_t i = 0; i < table.loose.size(); ++i)
      if (table.loose[i].rank == card.rank) same_rank.push_back(bit(i));
    found.insert(same_rank.begin(), same_rank.end());
    if (same_rank.size() == 3) found.insert(same_rank[0] | same_rank[1] | same_rank[2]);
  } else {
    const Sums sums(table.loose, values);
    long budget = limits.search_steps;
    for (int value : values.of(card)) {
      std::vector<Mask> atoms;
      Mask all_builds = 0;
      for (std::size_t j = 0; j < table.builds.size(); ++j) {
        if (table.builds[j].value != value) continue;
        atoms.push_back(items.build_bit(j));
        all_builds |= items.build_bit(j);
      }
      always.insert(atoms.begin(), atoms.end());
      if (all_builds != 0) always.insert(all_builds);
      for (std::size_t i = 0; i < table.loose.size(); ++i)
        if (table.loose[i].rank == card.rank) atoms.push_back(bit(i));
      const auto sums_of_value = sets_totalling(sums, items.all_loose(), value, budget);
      atoms.insert(atoms.end(), sums_of_value.begin(), sums_of_value.end());
      std::sort(atoms.begin(), atoms.end());
      atoms.erase(std::unique(atoms.begin(), atoms.end()), atoms.end());
      found.insert(atoms.begin(), atoms.end());
      disjoint_unions(atoms, 0, 0, budget, found);
    }
  }
  for (Mask mask : always) found.erase(mask);
  std::vector<Selection> out;
  for (Mask mask : always) out.push_back(items.selection(mask));
  for (Mask mask : largest(found, items, limits.plays_per_card)) out.push_back(items.selection(mask));
  return out;
}

std::vector<BuildPlay> builds_with(const TableCards& table, const CardValues& values, Card card,
                                   const std::vector<Card>& rest_of_hand, const ListingLimits& limits) {
  if (!values.has_value(card)) return {};
  const Items items{table};
  const Sums sums(table.loose, values);
  std::set<std::pair<int, Mask>> found;  // (value, selection)
  long budget = limits.search_steps;
  for (int w = 2; w <= values.max_build(); ++w) {
    const bool can_take =
        std::any_of(rest_of_hand.begin(), rest_of_hand.end(), [&](Card c) { return values.counts_as(c, w); });
    if (!can_take) continue;
    std::set<Mask> at_w;
    for (int own : values.of(card)) {
      if (own > w) continue;
      // Simple builds and raises.
      const auto simple = sets_totalling(sums, items.all_loose(), w - own, budget);
      at_w.insert(simple.begin(), simple.end());
      for (std::size_t j = 0; j < table.builds.size(); ++j)
        if (!table.builds[j].multiple() && table.builds[j].value + own == w) at_w.insert(items.build_bit(j));
      // Multiple builds: the card's own group beside other groups of w.
      const std::vector<Mask> own_groups = own == w ? std::vector<Mask>{0} : simple;
      std::vector<Mask> atoms = sets_totalling(sums, items.all_loose(), w, budget);
      for (std::size_t j = 0; j < table.builds.size(); ++j)
        if (!table.builds[j].multiple() && table.builds[j].value == w) atoms.push_back(items.build_bit(j));
      for (Mask own_group : own_groups) disjoint_unions(atoms, 0, own_group, budget, at_w);
    }
    at_w.erase(0);
    for (Mask mask : at_w) found.insert({w, mask});
  }
  std::vector<std::pair<int, Mask>> ordered(found.begin(), found.end());
  std::stable_sort(ordered.begin(), ordered.end(), [&](const auto& a, const auto& b) {
    return items.card_count(a.second) > items.card_count(b.second);
  });
  if (ordered.size() > limits.plays_per_card) ordered.resize(limits.plays_per_card);
  std::vector<BuildPlay> out;
  for (const auto& [w, mask] : ordered) out.push_back(BuildPlay{card, items.selection(mask), w});
  return out;
}

}  // namespace parlour::rules::cassino
