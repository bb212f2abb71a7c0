// Shifting a tableau (piles built down in alternating colour, Russian Bank's
// layout) one top card at a time, and searching for the short sequences of
// shifts that reach a goal: what Russian Bank's opponent may "spell out" (a
// space to fill, a card freed for a base).
#pragma once

#include <functional>
#include <vector>

#include "rules/building/piles.h"

namespace parlour::rules::building {

using Tableau = std::vector<Pile>;

// The top card of pile `from` onto pile `to`.
struct Shift {
  int from = 0;
  int to = 0;
  friend bool operator==(const Shift&, const Shift&) = default;
};

// Both piles exist and differ, `from` has a card and `to` takes it.
bool can_shift(const Tableau& tableau, Shift shift);
void apply_shift(Tableau& tableau, Shift shift);

// Sequences of at most `depth` shifts after which `goal` holds, shortest first,
// one per distinct resulting tableau, at most `limit` of them; the start itself is
// not tried against the goal. Shifts that only move a vacancy (a lone card into
// an empty pile) are skipped, and of several empty piles only the first is
// tried, since they are alike.
std::vector<std::vector<Shift>> shift_sequences(const Tableau& start, int depth, std::size_t limit,
                                                const std::function<bool(const Tableau&)>& goal);

}  // namespace parlour::rules::building
