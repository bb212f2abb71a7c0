// A building game's pile as the view shows it (rules/view.h "piles"), plus,
// where the game tells two packs apart, whose pack each shown card comes from:
// "owners" (one seat per entry of "cards", bottom first) and "top_owner".
// Written, not built (rules/json_writer.h), like the rest of a view.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "rules/building/piles.h"
#include "rules/view.h"

namespace parlour::rules::building {

// One entry of "piles": its members, into an object the caller opened (to add
// the game's own beside them), or the whole entry.
void pile_view_members(JsonWriter& out, std::string_view id, std::optional<int> owner, const Pile& pile,
                       view::Shown shown, bool with_owners);
void write_pile_view(JsonWriter& out, std::string_view id, std::optional<int> owner, const Pile& pile,
                     view::Shown shown, bool with_owners);

// A stock (Russian Bank's): its size, "top" while the top card lies face up,
// and "face_up": the face-up run at its top, bottom first (the card its owner
// turned up and any loaded on it: every face-up card is seen by both players),
// with "owners" for those cards and "top_owner".
void write_stock_view(JsonWriter& out, std::string_view id, int owner, const Reserve& reserve);

// A card's name, or none: for a view's member that is null while the spot is empty.
std::optional<std::string> card_name(std::optional<Card> card);
std::optional<std::string> card_name(const std::optional<OwnedCard>& card);

}  // namespace parlour::rules::building
