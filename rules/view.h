// The common shape of every game's view (docs/protocol.md "View schema"), so a
// client can draw any table from the schema and never from the game id. A view
// is an object with these parts, each present where the game has the thing:
//
//   "layout"  the client layout that draws it (the catalogue entry's `layout`)
//   "phase"   the game's phase name ("betting", "draw", "play", "deal_over", ...)
//   "deal", "dealer"          the deal number (1 = first) and the dealer's seat
//   "seats"   one entry per seat: {"seat","count","cards","status","left"} plus
//             the game's own per-seat facts; `cards` is the viewer's own hand in
//             full, "??" for each card the viewer may not see, or the face-up
//             cards of a hand every player sees; `count` is the number of cards
//   "piles"   [{"id","owner","count","top","cards"?}]: a stock shows its count
//             only, a face-up pile its top card (and all its cards when every
//             card of it may be seen); `owner` is a seat or null (shared)
//   "melds"   [{"id","owner","cards"}]: cards on the table in sets and sequences
//   "trick"   {"plays":[{"seat","card"}],"trump"}: the trick being played
//             (`trump` a suit letter, or null)
//   "pools"   {"pot": N, ...}: the table's pools by name, in chips
//   "scores"  one running score per seat, where the game keeps one
//   "turn"    {"seats":[...], "stage": "..."}: who is to act and at what step
//
// A seat's own entry of "seats" is the only part of a view that differs from
// what a spectator sees (tests/rules/test_view_schema.cpp checks this for every
// game), so another seat's hand is "??" unless the rules lay it face up.
//
// Hidden information is never put in a view: a builder below that is given a
// hidden card writes "??" (or only a count), never the card.
//
// Views are written, not built (rules/json_writer.h): the builders below write
// into a JsonWriter, the `_members` ones into an object the caller has opened,
// so that a game adds its own members beside them.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/cards.h"
#include "rules/game.h"
#include "rules/json_writer.h"

namespace parlour::rules::view {

// The client layouts (the catalogue's `layout` and every view's "layout").
namespace layouts {
inline constexpr const char* betting = "betting";
inline constexpr const char* tricks = "tricks";
inline constexpr const char* rummy = "rummy";
inline constexpr const char* building = "building";
inline constexpr const char* cassino = "cassino";
}  // namespace layouts

// "??" for each of `count` cards.
void hidden(JsonWriter& out, std::size_t count);

// The seat's cards as the viewer may see them: in full if `visible`, else "??"s.
void hand(JsonWriter& out, const std::vector<Card>& cards, bool visible);

// Cards by name, as an array.
void cards(JsonWriter& out, const std::vector<Card>& cards);

// One entry of "seats": its common members, or the whole entry.
void seat_members(JsonWriter& out, int seat, const std::vector<Card>& cards, bool visible, std::string_view status,
                  bool left);
void seat(JsonWriter& out, int seat, const std::vector<Card>& cards, bool visible, std::string_view status, bool left);

// How much of a pile a viewer sees.
enum class Shown {
  count,  // face down: its size only (a stock)
  top,    // face up, squared: its size and top card (a discard pile)
  all,    // face up, spread: every card, bottom first, and the top
};

// One entry of "piles". `cards` is bottom first; the top is the last card.
void pile_members(JsonWriter& out, std::string_view id, std::optional<int> owner, const std::vector<Card>& cards,
                  Shown shown);
void pile(JsonWriter& out, std::string_view id, std::optional<int> owner, const std::vector<Card>& cards, Shown shown);

// A face-down pile (a stock, a widow): its size only, never its cards.
void face_down_pile(JsonWriter& out, std::string_view id, std::optional<int> owner, std::size_t count);

// One entry of "melds": its common members (the caller writes "cards" when they
// are not strings at hand), or the whole entry.
void meld_members(JsonWriter& out, int id, std::optional<int> owner);
void meld(JsonWriter& out, int id, std::optional<int> owner, const std::vector<std::string>& cards);

// The "trick" part: `write_plays` writes the value of `plays`, [{"seat","card"}]
// in play order; `trump` a suit, or none.
template <class WritePlays>
void trick(JsonWriter& out, WritePlays&& write_plays, std::optional<Suit> trump);

// The "pools" member of a view whose table has one pool: {"NAME": chips}.
void one_pool(JsonWriter& out, std::string_view name, std::int64_t chips);

// The "turn" part: who may act and at which step of the turn.
void turn(JsonWriter& out, const std::vector<int>& seats, std::string_view stage);

// The common header every view starts with: its members, into the view's object.
void base_members(JsonWriter& out, std::string_view layout, std::string_view phase, int deal, std::optional<int> dealer);
// base_members in two runs (deal, dealer; layout, phase), for a view that
// writes its members in name order with some of its own between them.
void deal_members(JsonWriter& out, int deal, std::optional<int> dealer);
void layout_members(JsonWriter& out, std::string_view layout, std::string_view phase);

// ---------------------------------------------------------------- inline

void trump_member(JsonWriter& out, std::optional<Suit> trump);

template <class WritePlays>
void trick(JsonWriter& out, WritePlays&& write_plays, std::optional<Suit> trump) {
  out.begin_object();
  out.key("plays");
  write_plays();
  trump_member(out, trump);
  out.end_object();
}

}  // namespace parlour::rules::view
