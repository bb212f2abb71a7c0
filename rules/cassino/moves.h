// Which captures and builds a card can make on a Cassino table (rules/other.md
// §10.1 with the values of §10.4): checking a play a player sends, and listing
// the plays a player may make.
//
// A capture takes, at once, any disjoint collection of loose cards of the played
// card's rank (pairing), groups of loose cards totalling its value (combining)
// and whole builds of its value; each ace counted high or low independently.
// A card without a value (standard Cassino's court cards) pairs only: one card of
// its rank, or all three when three lie loose.
//
// A build puts the played card on the table with some of it, announced at a value
// the builder can take with another card he holds:
//   - a simple build: the card and loose cards totalling the value;
//   - raising: the card added alone to one simple build, which then totals the value;
//   - a multiple build: the card (with loose cards, or alone) totalling the value,
//     beside other loose groups totalling it and/or simple builds of that value.
// A multiple build is never changed again (only captured).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rules/cassino/table.h"
#include "rules/cassino/values.h"

namespace parlour::rules::cassino {

// Listing every capture or build can explode on a crowded table (every subset
// of loose cards that adds up). Past these bounds `legal` lists the largest plays
// found first, and apply still accepts any other valid play.
struct ListingLimits {
  std::size_t plays_per_card = 128;  // distinct captures, and distinct builds, per hand card
  long search_steps = 50000;         // search steps per hand card
};

// Why taking `play.take` with `play.card` is not a capture, naming the rule; nullopt
// when it is one. The selection is on the table (see selection_fault).
std::optional<std::string> capture_fault(const TableCards& table, const CardValues& values, const CapturePlay& play);

// Why `play` is not a build, naming the rule; nullopt when it is one. `rest_of_hand`
// is the hand without the card played.
std::optional<std::string> build_fault(const TableCards& table, const CardValues& values, const BuildPlay& play,
                                       const std::vector<Card>& rest_of_hand);

// The build a valid `play` makes (its groups and value; id and owner left to the caller).
Build built_by(const TableCards& table, const CardValues& values, const BuildPlay& play);

// Every distinct capture `card` can make: taking the builds of its value (each
// alone and all together), then the others largest first (bounded by `limits`).
std::vector<Selection> captures_with(const TableCards& table, const CardValues& values, Card card,
                                     const ListingLimits& limits = {});

// Every distinct build `card` can make, the builder holding `rest_of_hand` besides.
std::vector<BuildPlay> builds_with(const TableCards& table, const CardValues& values, Card card,
                                   const std::vector<Card>& rest_of_hand, const ListingLimits& limits = {});

}  // namespace parlour::rules::cassino
