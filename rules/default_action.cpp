#include "rules/default_action.h"

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <string>

#include "rules/cards.h"
#include "rules/view.h"

namespace parlour::rules {

namespace {

// The listed action as a player sends it: every {"min","max"} bound at its min.
Json at_min(const Json& listed) {
  Json action = listed;
  for (auto& [name, value] : action.items())
    if (value.is_object() && value.contains("min") && value.contains("max")) value = value["min"];
  return action;
}

std::string type_of(const Json& action) { return action.value("type", ""); }

// The first listed action of one of `types`, in the order of `types`.
std::optional<Json> first_of(const Json& legal, std::initializer_list<const char*> types) {
  for (const char* type : types)
    for (const auto& listed : legal)
      if (type_of(listed) == type) return at_min(listed);
  return std::nullopt;
}

Json first_listed(const Json& legal) {
  if (!legal.is_array() || legal.empty()) throw std::logic_error("no legal action to choose a default from");
  return at_min(legal.front());
}

std::optional<Card> card_of(const Json& action, const char* field = "card", Ranks ranks = Ranks::standard) {
  const auto it = action.find(field);
  if (it == action.end() || !it->is_string()) return std::nullopt;
  return parse_card(it->get<std::string>(), ranks);
}

// The listed action of `type` whose card scores lowest by `value` (the first such on a tie).
template <class Value>
std::optional<Json> lowest_card(const Json& legal, const std::string& type, Value value, Ranks ranks = Ranks::standard) {
  std::optional<Json> best;
  int best_value = 0;
  for (const auto& listed : legal) {
    if (type_of(listed) != type) continue;
    const auto card = card_of(listed, "card", ranks);
    if (!card) continue;
    const int v = value(*card);
    if (!best || v < best_value) {
      best = at_min(listed);
      best_value = v;
    }
  }
  return best;
}

// A Rummy card's weight in a hand left at the end of a deal: picture cards
// and tens 10, aces 1, jokers above everything (ranks break ties).
int rummy_weight(Card card) {
  if (card.is_joker()) return 1000;
  const int points = card.rank >= 10 ? 10 : card.rank;
  return points * 100 + card.rank;
}

// The acting seat's own cards, in the order it holds them (its latest draw last).
std::vector<std::string> own_cards(const Json& view) {
  const auto turn = view.find("turn");
  if (turn == view.end() || !turn->is_object() || !turn->contains("seats") || (*turn)["seats"].size() != 1) return {};
  const int seat = (*turn)["seats"][0].get<int>();
  const auto seats = view.find("seats");
  if (seats == view.end() || !seats->is_array()) return {};
  for (const auto& entry : *seats)
    if (entry.value("seat", -1) == seat && entry.contains("cards") && entry["cards"].is_array())
      return entry["cards"].get<std::vector<std::string>>();
  return {};
}

}  // namespace

Json generic_default(const Json&, const Json& legal) {
  if (auto quiet = first_of(legal, {"pass", "stand", "skip", "end_turn", "decline", "keep"})) return *quiet;
  return first_listed(legal);
}

Json betting_default(const Json& view, const Json& legal) {
  if (auto quiet = first_of(legal, {"stand", "pass", "skip", "decline"})) return *quiet;
  // The lowest bet: the smallest minimum, the first listed on a tie (red before black).
  std::optional<Json> best;
  std::int64_t lowest = 0;
  for (const auto& listed : legal) {
    if (type_of(listed) != "bet") continue;
    const Json action = at_min(listed);
    const auto amount = action.value("amount", std::int64_t{0});
    if (!best || amount < lowest) {
      best = action;
      lowest = amount;
    }
  }
  if (best) return *best;
  return generic_default(view, legal);
}

Json tricks_default(const Json& view, const Json& legal) {
  if (auto quiet = first_of(legal, {"pass", "pay_dealer", "keep", "skip"})) return *quiet;
  if (auto card = lowest_card(legal, "card", ace_high_value)) return *card;
  if (auto discard = lowest_card(legal, "discard", ace_high_value)) return *discard;
  if (auto play = first_of(legal, {"play"})) return *play;
  return generic_default(view, legal);
}

Json rummy_default(const Json& view, const Json& legal) {
  if (auto draw = first_of(legal, {"decline"})) return *draw;
  for (const auto& listed : legal)
    if (type_of(listed) == "draw" && listed.value("from", "") == "stock") return at_min(listed);
  if (auto draw = first_of(legal, {"draw"})) return *draw;
  const bool discards = std::any_of(legal.begin(), legal.end(), [](const Json& a) { return type_of(a) == "discard"; });
  if (discards) {
    const auto hand = own_cards(view);
    if (!hand.empty())
      for (const auto& listed : legal)
        if (type_of(listed) == "discard" && listed.value("card", "") == hand.back()) return at_min(listed);
    if (auto heaviest = lowest_card(legal, "discard", [](Card c) { return -rummy_weight(c); })) return *heaviest;
  }
  if (auto quiet = first_of(legal, {"finish", "pass", "skip", "end_turn"})) return *quiet;
  return first_listed(legal);
}

Json building_default(const Json& view, const Json& legal) {
  for (const auto& listed : legal)
    if (type_of(listed) == "move" && listed.value("to", "").starts_with("centre")) return at_min(listed);
  if (auto quiet = first_of(legal, {"demand", "end_turn", "draw", "pass", "turn_hand", "turn_stock"})) return *quiet;
  return generic_default(view, legal);
}

Json cassino_default(const Json& view, const Json& legal) {
  // Ace low; the special pack's eleven and twelve spots between ten and jack.
  const auto value = [](Card card) {
    if (card.rank == eleven_spot) return 11;
    if (card.rank == twelve_spot) return 12;
    return card.rank <= 10 ? static_cast<int>(card.rank) : card.rank + 2;
  };
  if (auto trail = lowest_card(legal, "trail", value, Ranks::with_eleven_twelve)) return *trail;
  if (auto forced = first_of(legal, {"capture", "build"})) return *forced;
  return generic_default(view, legal);
}

DefaultAction default_action_for_layout(const std::string& layout) {
  if (layout == view::layouts::betting) return betting_default;
  if (layout == view::layouts::tricks) return tricks_default;
  if (layout == view::layouts::rummy) return rummy_default;
  if (layout == view::layouts::building) return building_default;
  if (layout == view::layouts::cassino) return cassino_default;
  return generic_default;
}

}  // namespace parlour::rules
