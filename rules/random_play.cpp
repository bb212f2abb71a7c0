#include "rules/random_play.h"

#include <stdexcept>

namespace parlour::rules {

Json random_legal_action(const Json& legal, Rng& rng) {
  if (!legal.is_array() || legal.empty()) throw std::logic_error("no legal action to choose from");
  Json action = legal[rng.below(legal.size())];
  for (auto& [name, value] : action.items()) {
    if (value.is_object() && value.contains("min") && value.contains("max"))
      value = rng.between(value["min"].get<std::int64_t>(), value["max"].get<std::int64_t>());
  }
  return action;
}

}  // namespace parlour::rules
