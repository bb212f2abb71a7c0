#include "rules/random_play.h"

#include "rules/bot.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "rules/action.h"

namespace parlour::rules {

Json random_legal_action(const Json& legal, Rng& rng) {
  if (!legal.is_array() || legal.empty()) throw std::logic_error("no legal action to choose from");
  return with_numbers_drawn(legal[rng.below(legal.size())], rng);
}

Json with_numbers_drawn(Json action, Rng& rng) {
  for (auto& [name, value] : action.items()) {
    if (!is_bounds(value)) continue;
    const auto range = listed_range(value);
    value = rng.between(range.min, range.max);
  }
  return action;
}

Json random_bot(const Json&, const Json& legal, Rng& rng) { return random_legal_action(legal, rng); }

std::int64_t amount_at_share(const Json& listed, double share) {
  const auto range = listed_range(listed);
  const double part = std::clamp(share, 0.0, 1.0);
  return range.min + static_cast<std::int64_t>(std::floor(part * static_cast<double>(range.max - range.min) + 0.5));
}

}  // namespace parlour::rules
