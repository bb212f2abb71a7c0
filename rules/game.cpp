#include "rules/game.h"

#include <stdexcept>

namespace parlour::rules {

void Effects::append(Effects&& other) {
  for (auto& t : other.transfers) transfers.push_back(std::move(t));
  for (auto& line : other.log) log.push_back(std::move(line));
}

Effects GameState::seat_taken(int, const Balances&) {
  throw std::logic_error("this game is played to its end by the players who started it: no seat can be taken");
}

Json GameState::legal_actions(int seat, const Balances& balances) const {
  return json_tree_of([&](JsonWriter& out) { write_legal_actions(seat, balances, out); });
}

ListShape GameState::legal_shape(int seat, const Balances& balances) const {
  ListShape shape;
  write_legal_actions(seat, balances, shape);
  return shape;
}

Json GameState::view(std::optional<int> seat) const {
  return json_tree_of([&](JsonWriter& out) { write_view(seat, out); });
}

RulesError not_your_turn(const std::string& message) { return RulesError("not_your_turn", message); }
RulesError illegal_action(const std::string& message) { return RulesError("illegal_action", message); }
RulesError insufficient_chips(const std::string& message) { return RulesError("insufficient_chips", message); }

}  // namespace parlour::rules
