#include "rules/view.h"

namespace parlour::rules::view {

void hidden(JsonWriter& out, std::size_t count) {
  out.begin_array();
  for (std::size_t i = 0; i < count; ++i) out.string("??");
  out.end_array();
}

void cards(JsonWriter& out, const std::vector<Card>& cards) {
  out.begin_array();
  for (const auto& card : cards) out.string(to_string(card));
  out.end_array();
}

void hand(JsonWriter& out, const std::vector<Card>& cards, bool visible) {
  if (visible) view::cards(out, cards);
  else hidden(out, cards.size());
}

// Members are written in name order wherever one function writes them all:
// the text writer then only checks the order instead of sorting (JsonText),
// and a step writes these for every seat of every viewer's view.
void seat_members(JsonWriter& out, int seat, const std::vector<Card>& cards, bool visible, std::string_view status,
                  bool left) {
  out.key("cards");
  hand(out, cards, visible);
  out.field("count", cards.size());
  out.field("left", left);
  out.field("seat", seat);
  out.field("status", status);
}

void seat(JsonWriter& out, int seat, const std::vector<Card>& cards, bool visible, std::string_view status, bool left) {
  out.object([&] { seat_members(out, seat, cards, visible, status, left); });
}

void pile_members(JsonWriter& out, std::string_view id, std::optional<int> owner, const std::vector<Card>& cards,
                  Shown shown) {
  if (shown == Shown::all) {
    out.key("cards");
    view::cards(out, cards);
  }
  out.field("count", cards.size());
  out.field("id", id);
  out.field("owner", owner);
  out.key("top");
  if (shown == Shown::count || cards.empty()) out.null();
  else out.string(to_string(cards.back()));
}

void pile(JsonWriter& out, std::string_view id, std::optional<int> owner, const std::vector<Card>& cards, Shown shown) {
  out.object([&] { pile_members(out, id, owner, cards, shown); });
}

void face_down_pile(JsonWriter& out, std::string_view id, std::optional<int> owner, std::size_t count) {
  out.object([&] {
    out.field("count", count);
    out.field("id", id);
    out.field("owner", owner);
    out.field("top", nullptr);
  });
}

void meld_members(JsonWriter& out, int id, std::optional<int> owner) {
  out.field("id", id);
  out.field("owner", owner);
}

void meld(JsonWriter& out, int id, std::optional<int> owner, const std::vector<std::string>& cards) {
  out.object([&] {
    out.field("cards", cards);
    meld_members(out, id, owner);
  });
}

void trump_member(JsonWriter& out, std::optional<Suit> trump) {
  out.key("trump");
  if (trump) out.string(std::string(1, suit_letter(*trump)));
  else out.null();
}

void one_pool(JsonWriter& out, std::string_view name, std::int64_t chips) {
  out.object_field("pools", [&] { out.field(name, chips); });
}

void turn(JsonWriter& out, const std::vector<int>& seats, std::string_view stage) {
  out.object([&] {
    out.field("seats", seats);
    out.field("stage", stage);
  });
}

void base_members(JsonWriter& out, std::string_view layout, std::string_view phase, int deal, std::optional<int> dealer) {
  deal_members(out, deal, dealer);
  layout_members(out, layout, phase);
}

void deal_members(JsonWriter& out, int deal, std::optional<int> dealer) {
  out.field("deal", deal);
  out.field("dealer", dealer);
}

void layout_members(JsonWriter& out, std::string_view layout, std::string_view phase) {
  out.field("layout", layout);
  out.field("phase", phase);
}

}  // namespace parlour::rules::view
