#include "rules/building/moves.h"

#include <array>
#include <charconv>

#include "rules/action.h"


namespace parlour::rules::building {

namespace {

constexpr std::array<std::pair<Zone, const char*>, 7> zone_names = {{
    {Zone::stock, "stock"},
    {Zone::hand, "hand"},
    {Zone::supply, "supply"},
    {Zone::turned, "turned"},
    {Zone::discard, "discard"},
    {Zone::layout, "layout"},
    {Zone::centre, "centre"},
}};

const char* zone_name(Zone zone) {
  for (const auto& [z, name] : zone_names)
    if (z == zone) return name;
  return "?";
}

std::optional<int> parse_number(std::string_view text) {
  int value = 0;
  const auto* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || value < 0) return std::nullopt;
  return value;
}

RulesError not_a_spot(const std::string& text) {
  return illegal_action("'" + text + "' is not a pile: expected a pile id such as \"layout:3\" or \"stock:0\"");
}

std::string spot_field(const Json& action, const char* name) {
  auto it = action.find(name);
  if (it == action.end()) throw illegal_action(std::string("a move needs '") + name + "', a pile id such as \"layout:3\"");
  if (!it->is_string())
    throw illegal_action(std::string("field '") + name + "' must be a pile id such as \"layout:3\", got " + it->dump());
  return it->get<std::string>();
}

}  // namespace

std::string to_string(const Spot& spot) {
  std::string out = std::string(zone_name(spot.zone)) + ":" + std::to_string(spot.index);
  if (spot.slot >= 0) out += ":" + std::to_string(spot.slot);
  return out;
}

std::string spot_words(const Spot& spot) {
  const std::string number = std::to_string(spot.index + 1);
  const std::string owner = seat_tag(spot.index) + "'s ";
  const std::string nth = spot.slot >= 0 ? " " + std::to_string(spot.slot + 1) : "";
  switch (spot.zone) {
    case Zone::layout: return "Layout " + number;
    case Zone::centre: return "Centre " + number;
    case Zone::stock: return owner + "stock";
    case Zone::hand: return owner + "hand";
    case Zone::supply: return owner + "supply";
    case Zone::turned: return owner + "turned card";
    case Zone::discard: return owner + "discard pile" + nth;
  }
  return to_string(spot);
}

Spot parse_spot(const std::string& text) {
  const auto colon = text.find(':');
  if (colon == std::string::npos) throw not_a_spot(text);
  const std::string_view zone_text(text.data(), colon);
  Spot spot;
  bool known = false;
  for (const auto& [zone, name] : zone_names)
    if (zone_text == name) {
      spot.zone = zone;
      known = true;
    }
  if (!known) throw not_a_spot(text);
  std::string_view rest(text.data() + colon + 1, text.size() - colon - 1);
  const auto second = rest.find(':');
  const auto index = parse_number(rest.substr(0, second));
  if (!index) throw not_a_spot(text);
  spot.index = *index;
  if (second != std::string_view::npos) {
    const auto slot = parse_number(rest.substr(second + 1));
    if (!slot) throw not_a_spot(text);
    spot.slot = *slot;
  }
  return spot;
}

void write_move_action(JsonWriter& out, const Placement& placement, Card card) {
  out.object([&] {
    out.field("type", "move");
    out.field("card", rules::to_string(card));
    out.field("from", to_string(placement.from));
    out.field("to", to_string(placement.to));
  });
}

Json move_json(const Placement& placement, Card card) {
  return json_tree_of([&](JsonWriter& out) { write_move_action(out, placement, card); });
}


MoveRequest parse_move(const Json& action) {
  if (!action.is_object()) throw illegal_action("a move must be an object {\"from\",\"to\"}, got " + action.dump());
  for (const auto& [name, value] : action.items())
    if (name != "type" && name != "from" && name != "to" && name != "card")
      throw illegal_action("unexpected field '" + name + "' in a move");
  MoveRequest request{{parse_spot(spot_field(action, "from")), parse_spot(spot_field(action, "to"))}, std::nullopt};
  if (action.contains("card")) request.card = card_field(action, "card");
  return request;
}

void check_named_card(const MoveRequest& request, Card top) {
  if (request.card && *request.card != top)
    throw illegal_action(rules::to_string(*request.card) + " is not the top card of " +
                         to_string(request.placement.from) + " (its top card is " + rules::to_string(top) + ")");
}

}  // namespace parlour::rules::building
