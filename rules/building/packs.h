// Where the building games' cards come from: a pack of one's own per player
// (Russian Bank always, Rabouge with a pack each), dealt from the table's seed or
// from a stacked deck, and the cards of a test position written as strings.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "rules/building/piles.h"
#include "rules/game.h"

namespace parlour::rules::building {

// One full 52-card pack per seat, owned by that seat, first card to be dealt
// first. A stacked deck is read as seat 0's pack, then seat 1's, and so on:
// each pack's listed cards come first, in the order given, and the cards it does
// not list follow, shuffled. Throws SetupError when a pack lists a card twice or
// the deck is longer than all the packs.
std::vector<std::vector<OwnedCard>> own_packs(int seats, std::uint64_t seed,
                                              const std::optional<std::vector<Card>>& stacked);

// A card of a position: "7C" belongs to `default_owner`, "7C/1" to seat 1.
// Throws SetupError for anything else.
OwnedCard parse_owned_card(const Json& text, int default_owner);
// A pile of a position, bottom first.
Pile parse_pile(const Json& cards, int default_owner);
// Throws SetupError when any card of the same owner appears more than `copies`
// times among `piles` (a position must be drawable from the packs in play).
void check_copies(const std::vector<const Pile*>& piles, int copies);

}  // namespace parlour::rules::building
