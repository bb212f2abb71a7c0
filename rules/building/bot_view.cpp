#include "rules/building/bot_view.h"

#include <stdexcept>

namespace parlour::rules::building {

SeenPiles::SeenPiles(const Json& view) {
  if (view.contains("viewer") && view["viewer"].is_number_integer()) viewer_ = view["viewer"].get<int>();
  for (const auto& pile : view.value("piles", Json::array())) piles_[pile["id"].get<std::string>()] = pile;
}

std::optional<Card> SeenPiles::top(const std::string& id) const {
  auto it = piles_.find(id);
  if (it == piles_.end() || !it->second["top"].is_string()) return std::nullopt;
  return parse_card(it->second["top"].get<std::string>());
}

std::size_t SeenPiles::count(const std::string& id) const {
  auto it = piles_.find(id);
  return it == piles_.end() ? 0 : it->second["count"].get<std::size_t>();
}

Json preferred_action(const Json& legal, const std::function<int(const Json&)>& preference) {
  if (!legal.is_array() || legal.empty()) throw std::logic_error("a bot was asked to act with no legal action");
  std::size_t best = 0;
  int best_preference = preference(legal[0]);
  for (std::size_t i = 1; i < legal.size(); ++i) {
    const int p = preference(legal[i]);
    if (p < best_preference) {
      best = i;
      best_preference = p;
    }
  }
  return legal[best];
}

}  // namespace parlour::rules::building
