#include "tests/support/random_play.h"

#include <stdexcept>

namespace parlour::support {

nlohmann::json random_legal_action(const nlohmann::json& legal, std::mt19937_64& rng) {
  if (!legal.is_array() || legal.empty()) throw std::invalid_argument("expected a non-empty legal list, got " + legal.dump());
  nlohmann::json action = legal[rng() % legal.size()];
  for (auto& item : action.items()) {
    auto& value = item.value();
    if (value.is_object() && value.contains("min") && value.contains("max")) {
      const auto lo = value["min"].get<std::int64_t>(), hi = value["max"].get<std::int64_t>();
      value = lo + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(hi - lo + 1));
    }
  }
  return action;
}

}  // namespace parlour::support
