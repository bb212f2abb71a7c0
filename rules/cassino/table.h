// What lies on a Cassino table: loose cards and builds (rules/other.md §10.1),
// and the plays that change it. A play names the card played and a selection of
// the table: some loose cards and some whole builds, by id.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rules/cards.h"
#include "rules/game.h"

namespace parlour::rules::cassino {

// Cards put together on the table to be captured later as one, by a card of
// `value`. One group is a simple build (it may still be raised); two or more
// groups, each totalling `value`, are a multiple build, which nobody may change.
struct Build {
  int id = 0;
  int value = 0;
  int owner = -1;  // the seat that last made, raised or duplicated it
  std::vector<std::vector<Card>> groups;

  bool multiple() const { return groups.size() > 1; }
  std::vector<Card> cards() const;
};

struct TableCards {
  std::vector<Card> loose;
  std::vector<Build> builds;

  bool empty() const { return loose.empty() && builds.empty(); }
  const Build* build(int id) const;
  std::size_t card_count() const;

  // The loose cards and every build (rules/snapshot.h). Read back, each build's
  // owner must be one of `players` seats or none (-1), and its id unique.
  Json snapshot() const;
  static TableCards restore(const Json& snapshot, int players);
};

// Part of the table a play takes or builds on.
struct Selection {
  std::vector<Card> loose;
  std::vector<int> builds;  // ids

  bool empty() const { return loose.empty() && builds.empty(); }
  friend bool operator==(const Selection&, const Selection&) = default;
};

struct CapturePlay {
  Card card;
  Selection take;
};

struct BuildPlay {
  Card card;
  Selection with;
  int value = 0;
};

// Removes the selection from the table and returns its cards; the selection
// must lie on the table.
std::vector<Card> remove_selection(TableCards& table, const Selection& selection);

// Is every card and build of the selection on the table, each named once? The
// reason why not, or nullopt.
std::optional<std::string> selection_fault(const TableCards& table, const Selection& selection);

}  // namespace parlour::rules::cassino
