#include "rules/action.h"

#include <stdexcept>

#include <algorithm>

namespace parlour::rules {

std::string action_type(const Json& action) {
  if (!action.is_object()) throw illegal_action("an action must be an object, got " + action.dump());
  auto it = action.find("type");
  if (it == action.end() || !it->is_string())
    throw illegal_action("an action needs a string \"type\", got " + action.dump());
  return it->get<std::string>();
}

void expect_only_fields(const Json& action, std::initializer_list<const char*> allowed) {
  for (const auto& item : action.items()) {
    const std::string& name = item.key();
    if (name == "type") continue;
    bool known = std::any_of(allowed.begin(), allowed.end(), [&](const char* a) { return name == a; });
    if (!known) throw illegal_action("unexpected field '" + name + "' in a " + action_type(action) + " action");
  }
}

std::int64_t int_field(const Json& action, const char* name) {
  auto it = action.find(name);
  if (it == action.end()) throw illegal_action(std::string("missing field '") + name + "'");
  if (!it->is_number_integer())
    throw illegal_action(std::string("field '") + name + "' must be an integer, got " + it->dump());
  return it->get<std::int64_t>();
}

Card card_field(const Json& action, const char* name, Ranks ranks) {
  auto it = action.find(name);
  if (it == action.end()) throw illegal_action(std::string("missing field '") + name + "'");
  if (!it->is_string())
    throw illegal_action(std::string("field '") + name + "' must be a card like \"TH\", got " + it->dump());
  auto card = parse_card(it->get<std::string>(), ranks);
  if (!card) throw illegal_action(std::string("field '") + name + "' is not a card: " + it->dump());
  return *card;
}

void write_bounds(JsonWriter& out, std::int64_t lo, std::int64_t hi) {
  // A range computed from state (chips, a pot) can come out empty; listing it
  // would offer a move nobody can make. The game must not list the action then.
  if (lo > hi)
    throw std::logic_error("empty range: min " + std::to_string(lo) + " is above max " + std::to_string(hi));
  out.object([&] {
    out.field("max", hi);
    out.field("min", lo);
  });
}

Json bounds(std::int64_t lo, std::int64_t hi) {
  return json_tree_of([&](JsonWriter& out) { write_bounds(out, lo, hi); });
}

bool is_bounds(const Json& value) { return value.is_object() && value.contains("min") && value.contains("max"); }

Range listed_range(const Json& given) {
  if (!is_bounds(given) || !given["min"].is_number_integer() || !given["max"].is_number_integer())
    throw std::logic_error("expected bounds {\"min\":N,\"max\":M} in a legal action, got " + given.dump());
  const Range range{given["min"].get<std::int64_t>(), given["max"].get<std::int64_t>()};
  if (range.min > range.max) throw std::logic_error("a legal action lists an empty range " + given.dump());
  return range;
}

void write_bare_action(JsonWriter& out, std::string_view type) {
  out.object([&] { out.field("type", type); });
}

void write_card_action(JsonWriter& out, std::string_view type, Card card) {
  out.object([&] {
    out.field("type", type);
    out.field("card", to_string(card));
  });
}

Json card_action(std::string_view type, Card card) {
  return json_tree_of([&](JsonWriter& out) { write_card_action(out, type, card); });
}

void write_skip_action(JsonWriter& out) { write_bare_action(out, "skip"); }

Json skip_action() {
  return json_tree_of([](JsonWriter& out) { write_skip_action(out); });
}

void check_skip(const Json& action, bool can_cover_a_move) {
  expect_only_fields(action, {});
  if (can_cover_a_move) throw illegal_action("you can still cover a move: skip only when your chips cover none");
}

}  // namespace parlour::rules
