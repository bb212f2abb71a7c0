#include "rules/rummy/card_lists.h"

namespace parlour::rules::rummy {

std::vector<Card> read_cards(const Json& list, const char* field) {
  if (!list.is_array() || list.empty())
    throw illegal_action(std::string("field '") + field + "' must be a non-empty array of cards, got " + list.dump());
  std::vector<Card> out;
  for (const auto& item : list) {
    if (!item.is_string()) throw illegal_action(std::string("field '") + field + "' holds a non-card: " + item.dump());
    auto card = parse_card(item.get<std::string>());
    if (!card) throw illegal_action(std::string("field '") + field + "' holds a non-card: " + item.dump());
    out.push_back(*card);
  }
  return out;
}

std::vector<Card> distinct(const std::vector<Card>& cards) {
  std::vector<Card> out;
  for (auto c : cards)
    if (!holds(out, c)) out.push_back(c);
  return out;
}

std::string melds_text(const std::vector<Meld>& melds) {
  std::string text;
  for (const auto& meld : melds) {
    if (!text.empty()) text += "; ";
    std::string cards;
    for (const auto& c : meld_strings(meld)) cards += (cards.empty() ? "" : " ") + c;
    text += cards;
  }
  return text;
}

MeldSpec read_meld_spec(const Json& list, const MeldRules& rules, const std::string& what) {
  if (!list.is_array() || list.empty())
    throw illegal_action("each meld of a " + what + " is a non-empty list of cards, got " + list.dump());
  MeldSpec spec;
  bool undeclared_wild = false;
  for (const auto& item : list) {
    const std::string_view text = item.is_string() ? std::string_view(item.get_ref<const std::string&>()) : std::string_view();
    const auto eq = text.find('=');
    auto card = parse_card(text.substr(0, eq));
    if (!card) throw illegal_action("not a card in a " + what + ": " + item.dump());
    spec.cards.push_back(*card);
    if (eq == std::string::npos) {
      undeclared_wild = undeclared_wild || is_wild(*card, rules);
      continue;
    }
    if (!is_wild(*card, rules)) throw illegal_action(to_string(*card) + " is not wild: it stands only for itself");
    auto as = parse_card(text.substr(eq + 1));
    if (!as) throw illegal_action("a wild must stand for a card, as in \"JK=8H\": got " + item.dump());
    spec.declared.push_back(*as);
  }
  if (undeclared_wild && !spec.declared.empty()) throw illegal_action("declare every wild card of a meld, or none");
  return spec;
}

Json meld_json(const Meld& meld) { return meld_strings(meld); }

void write_meld(JsonWriter& out, const Meld& meld) {
  out.array([&] {
    for (const auto& mc : meld.cards) out.string(meld_card_string(mc));
  });
}

void list_draw(JsonWriter& legal, std::string_view from) {
  legal.object([&] {
    legal.field("type", "draw");
    legal.field("from", from);
  });
}

}  // namespace parlour::rules::rummy
