#include "rules/game.h"

namespace parlour::rules {

void Effects::append(Effects&& other) {
  for (auto& t : other.transfers) transfers.push_back(std::move(t));
  for (auto& line : other.log) log.push_back(std::move(line));
}

RulesError not_your_turn(const std::string& message) { return RulesError("not_your_turn", message); }
RulesError illegal_action(const std::string& message) { return RulesError("illegal_action", message); }
RulesError insufficient_chips(const std::string& message) { return RulesError("insufficient_chips", message); }

}  // namespace parlour::rules
