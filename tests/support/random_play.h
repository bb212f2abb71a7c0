// A random legal action, as the crash torture's and the soak's clients play.
#pragma once

#include <nlohmann/json.hpp>
#include <random>

namespace parlour::support {

// One entry of a state's `legal` (not empty), picked at random, with every
// number the entry bounds ({"min","max"}) drawn inside its bounds.
nlohmann::json random_legal_action(const nlohmann::json& legal, std::mt19937_64& rng);

}  // namespace parlour::support
