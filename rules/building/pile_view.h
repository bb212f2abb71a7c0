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

}  // namespace parlour::rules::building
