#include "rules/building/pile_view.h"

namespace parlour::rules::building {

Json pile_view(const std::string& id, std::optional<int> owner, const Pile& pile, view::Shown shown,
               bool with_owners) {
  Json out = view::pile(id, owner, plain_cards(pile), shown);
  if (!with_owners) return out;
  const bool top_shown = shown != view::Shown::count && !pile.empty();
  out["top_owner"] = top_shown ? Json(pile.back().owner) : Json();
  if (shown == view::Shown::all) {
    Json owners = Json::array();
    for (const auto& owned : pile) owners.push_back(owned.owner);
    out["owners"] = std::move(owners);
  }
  return out;
}

}  // namespace parlour::rules::building
