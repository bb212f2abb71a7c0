#include "rules/random_play.h"

#include "rules/bot.h"

#include <stdexcept>

namespace parlour::rules {

Json random_legal_action(const Json& legal, Rng& rng) {
  if (!legal.is_array() || legal.empty()) throw std::logic_error("no legal action to choose from");
  Json action = legal[rng.below(legal.size())];
  for (auto& [name, value] : action.items()) {
    if (value.is_object() && value.contains("min") && value.contains("max")) {
      const auto lo = value["min"].get<std::int64_t>();
      const auto hi = value["max"].get<std::int64_t>();
      if (lo > hi) throw std::logic_error("legal action '" + name + "' has an empty range " + value.dump());
      value = rng.between(lo, hi);
    }
  }
  return action;
}

Json random_bot(const Json&, const Json& legal, Rng& rng) { return random_legal_action(legal, rng); }

}  // namespace parlour::rules
