// A building game's pile as the view shows it (rules/view.h "piles"), plus,
// where the game tells two packs apart, whose pack each shown card comes from:
// "owners" (one seat per entry of "cards", bottom first) and "top_owner".
#pragma once

#include <optional>
#include <string>

#include "rules/building/piles.h"
#include "rules/view.h"

namespace parlour::rules::building {

Json pile_view(const std::string& id, std::optional<int> owner, const Pile& pile, view::Shown shown,
               bool with_owners);

// A stock (Russian Bank's): its size, "top" while the top card lies face up,
// and "face_up": the face-up run at its top, bottom first (the card its owner
// turned up and any loaded on it: every face-up card is seen by both players),
// with "owners" for those cards and "top_owner".
Json stock_view(const std::string& id, int owner, const Reserve& reserve);

}  // namespace parlour::rules::building
