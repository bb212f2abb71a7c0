#include "rules/building/pile_view.h"

namespace parlour::rules::building {

namespace {

// Whose pack each card is from, bottom first.
void write_owners(JsonWriter& out, const Pile& pile) {
  out.begin_array();
  for (const auto& owned : pile) out.integer(owned.owner);
  out.end_array();
}

}  // namespace

void pile_view_members(JsonWriter& out, std::string_view id, std::optional<int> owner, const Pile& pile,
                       view::Shown shown, bool with_owners) {
  view::pile_members(out, id, owner, plain_cards(pile), shown);
  if (!with_owners) return;
  const bool top_shown = shown != view::Shown::count && !pile.empty();
  out.field("top_owner", top_shown ? std::optional<int>(pile.back().owner) : std::nullopt);
  if (shown == view::Shown::all) {
    out.key("owners");
    write_owners(out, pile);
  }
}

void write_pile_view(JsonWriter& out, std::string_view id, std::optional<int> owner, const Pile& pile,
                     view::Shown shown, bool with_owners) {
  out.object([&] { pile_view_members(out, id, owner, pile, shown, with_owners); });
}

void write_stock_view(JsonWriter& out, std::string_view id, int owner, const Reserve& reserve) {
  // Never Shown::all: the pile's members have no "owners", which here are the face-up run's.
  const auto shown = reserve.stock_top_up() ? view::Shown::top : view::Shown::count;
  const Pile face_up = reserve.stock_shown();
  out.object([&] {
    pile_view_members(out, id, owner, reserve.stock(), shown, true);
    out.key("face_up");
    view::cards(out, plain_cards(face_up));
    out.key("owners");
    write_owners(out, face_up);
  });
}

std::optional<std::string> card_name(std::optional<Card> card) {
  if (!card) return std::nullopt;
  return rules::to_string(*card);
}

std::optional<std::string> card_name(const std::optional<OwnedCard>& card) {
  if (!card) return std::nullopt;
  return rules::to_string(card->card);
}

}  // namespace parlour::rules::building
