// Moves of the building games: where a card lies ("spots", named as the view's
// pile ids, e.g. "layout:3", "stock:0", "discard:1:2"), a placement from one spot
// to another as the action {"type":"move","from":…,"to":…}, and the "must play
// here first" filter: every placement the piles allow is generated first, then
// the game's priorities keep only the compulsory ones and name the rule that an
// out-of-order move breaks.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/cards.h"
#include "rules/game.h"

namespace parlour::rules::building {

enum class Zone { stock, hand, supply, turned, discard, layout, centre };

// A pile: a player's zone (index = seat, slot = which discard pile where a
// player has several) or a shared pile (index = its number or id).
struct Spot {
  Zone zone = Zone::stock;
  int index = 0;
  int slot = -1;  // -1: the zone has one pile per index
  friend bool operator==(const Spot&, const Spot&) = default;
};

std::string to_string(const Spot& spot);
// The spot in a player's words, as the felt labels its piles and counting from
// one: "Layout 4", "Centre 1", "{seat:0}'s stock", "{seat:1}'s discard pile 2".
// For the log; to_string is the wire's id.
std::string spot_words(const Spot& spot);
// Parses "layout:3", "stock:0", "discard:1:2"; throws illegal_action otherwise.
Spot parse_spot(const std::string& text);

struct Placement {
  Spot from;
  Spot to;
  friend bool operator==(const Placement&, const Placement&) = default;
};

// {"type":"move","card":…,"from":…,"to":…}: `card` is the top card of `from`.
// Written into a legal list, or built as a tree.
void write_move_action(JsonWriter& out, const Placement& placement, Card card);
Json move_json(const Placement& placement, Card card);

// A move as a player sent it: the card is optional, and when given it must be
// the top card of `from` (a click on a card that has since been covered).
struct MoveRequest {
  Placement placement;
  std::optional<Card> card;
};
// Reads {"type":"move","from":…,"to":…,"card"?:…} (the type is checked by the caller).
MoveRequest parse_move(const Json& action);
// Throws illegal_action when the request names a card that is not `top`.
void check_named_card(const MoveRequest& request, Card top);

// One "must play here first" rule. While `active`, only the moves it `allows`
// are legal; `rule` is what a refusal quotes.
template <typename Move>
struct Priority {
  std::string rule;
  bool active = false;
  std::function<bool(const Move&)> allows;
};

// The first active priority the move breaks, or none.
template <typename Move>
const Priority<Move>* broken_priority(const Move& move, const std::vector<Priority<Move>>& priorities) {
  for (const auto& priority : priorities)
    if (priority.active && !priority.allows(move)) return &priority;
  return nullptr;
}

// The moves that break no active priority, in their given order.
template <typename Move>
std::vector<Move> keep_compulsory(const std::vector<Move>& moves, const std::vector<Priority<Move>>& priorities) {
  std::vector<Move> kept;
  for (const auto& move : moves)
    if (!broken_priority(move, priorities)) kept.push_back(move);
  return kept;
}

}  // namespace parlour::rules::building
