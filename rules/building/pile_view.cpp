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

Json stock_view(const std::string& id, int owner, const Reserve& reserve) {
  const auto shown = reserve.stock_top_up() ? view::Shown::top : view::Shown::count;
  Json out = pile_view(id, owner, reserve.stock(), shown, true);
  const Pile face_up = reserve.stock_shown();
  Json owners = Json::array();
  for (const auto& owned : face_up) owners.push_back(owned.owner);
  out["face_up"] = to_strings(plain_cards(face_up));
  out["owners"] = std::move(owners);
  return out;
}

}  // namespace parlour::rules::building
