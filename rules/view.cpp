#include "rules/view.h"

namespace parlour::rules::view {

Json hidden(std::size_t count) {
  Json out = Json::array();
  for (std::size_t i = 0; i < count; ++i) out.push_back("??");
  return out;
}

Json hand(const std::vector<Card>& cards, bool visible) {
  return visible ? Json(to_strings(cards)) : hidden(cards.size());
}

Json seat(int seat, const std::vector<Card>& cards, bool visible, const std::string& status, bool left) {
  return {{"seat", seat}, {"count", cards.size()}, {"cards", hand(cards, visible)}, {"status", status}, {"left", left}};
}

Json pile(const std::string& id, std::optional<int> owner, const std::vector<Card>& cards, Shown shown) {
  Json out = {{"id", id}, {"owner", owner ? Json(*owner) : Json()}, {"count", cards.size()}};
  out["top"] = shown == Shown::count || cards.empty() ? Json() : Json(to_string(cards.back()));
  if (shown == Shown::all) out["cards"] = to_strings(cards);
  return out;
}

Json face_down_pile(const std::string& id, std::optional<int> owner, std::size_t count) {
  return {{"id", id}, {"owner", owner ? Json(*owner) : Json()}, {"count", count}, {"top", nullptr}};
}

Json meld(int id, std::optional<int> owner, const std::vector<std::string>& cards) {
  return {{"id", id}, {"owner", owner ? Json(*owner) : Json()}, {"cards", cards}};
}

Json trick(Json plays, std::optional<Suit> trump) {
  return {{"plays", std::move(plays)}, {"trump", trump ? Json(std::string(1, suit_letter(*trump))) : Json()}};
}

Json turn(const std::vector<int>& seats, const std::string& stage) { return {{"seats", seats}, {"stage", stage}}; }

Json base(const std::string& layout, const std::string& phase, int deal, std::optional<int> dealer) {
  return {{"layout", layout}, {"phase", phase}, {"deal", deal}, {"dealer", dealer ? Json(*dealer) : Json()}};
}

}  // namespace parlour::rules::view
