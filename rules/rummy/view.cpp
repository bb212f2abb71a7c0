// What each seat (or a spectator) sees of a Rummy deal: every hand's size, the
// viewer's own cards, the table's melds, the stock's size and the pile.
#include "rules/rummy/rummy_base.h"

#include <algorithm>

#include "rules/rummy/card_lists.h"
#include "rules/rummy/rules_json.h"
#include "rules/view.h"

namespace parlour::rules::rummy {

namespace {

const char* stage_name(int stage) {
  static const char* names[] = {"draw", "play", "call_window", "call_discard", "deal_over", "game_over"};
  return names[stage];
}

}  // namespace

// The rules a player knows from the table's game and options: what melds, what
// the cards count, how the pack is made and how melding goes. Public knowledge,
// shown so that a client (or the level-1 bot, rules/rummy/bot.h) can reason from
// the view alone.
void write_rules_view(JsonWriter& out, const RummyConfig& config) {
  out.object([&] {
    out.key("melds");
    write_meld_rules(out, config.melds);
    out.key("values");
    write_card_values(out, config.values);
    out.field("decks", config.deal.pack.decks);
    out.field("jokers", config.deal.pack.jokers);
    out.field("rummy_only", config.melding.rummy_only);
    out.field("go_down", config.melding.go_down);
    out.field("max_plays_per_turn", config.melding.max_plays_per_turn);
    out.field("final_discard_required", config.discard.final_discard_required);
    out.field("needs_earlier_meld", config.discard.needs_earlier_meld);
    out.field("spread_pile", config.draw.spread_pile);
  });
}

// The view (docs/protocol.md "View schema", "Rummy family"): hands are seen by
// their owners only; the stock shows its size, the discard pile its top card
// (the Michigan family's spread pile every card); melds are face up.
void RummyBase::write_seat(JsonWriter& out, int seat, std::optional<int> viewer, const std::vector<int>& acting) const {
  const bool to_play = std::find(acting.begin(), acting.end(), seat) != acting.end();
  const char* status = left_[seat] ? "left" : to_play ? "to_play" : "waiting";
  out.object([&] {
    view::seat_members(out, seat, hands_[seat], viewer == seat, status, left_[seat]);
    out.field("melded", melded_this_deal_[seat]);
  });
}

// The melds on the table, every card face up: [{"meld","owner","cards"}] (the result's shape).
Json RummyBase::table_view() const {
  Json table = Json::array();
  for (std::size_t i = 0; i < table_.size(); ++i)
    table.push_back({{"meld", i}, {"owner", table_[i].meld.owner}, {"cards", meld_strings(table_[i].meld)}});
  return table;
}

void RummyBase::write_view(std::optional<int> viewer, JsonWriter& out) const { write_view_of(viewer, ViewParts{}, out); }

Json RummyBase::result_with_table_melds() const {
  auto shown = result();
  if (melds_have_owners() || !shown.is_object()) return shown;
  if (const auto melds = shown.find("melds"); melds != shown.end() && melds->is_array())
    for (auto& meld : *melds) meld["owner"] = nullptr;
  return shown;
}

void RummyBase::write_view_of(std::optional<int> viewer, const ViewParts& parts, JsonWriter& out) const {
  const auto phase = stage_name(static_cast<int>(stage_));
  const auto acting = to_act();
  out.begin_object();
  view::base_members(out, view::layouts::rummy, phase, deals_, dealer_);
  out.array_field("seats", [&] {
    for (int s = 0; s < players(); ++s) write_seat(out, s, viewer, acting);
  });
  out.array_field("piles", [&] {
    view::face_down_pile(out, "stock", std::nullopt, stock_.size());
    if (parts.discard_pile)
      view::pile(out, "discard", std::nullopt, pile_, config_.draw.spread_pile ? view::Shown::all : view::Shown::top);
  });
  out.array_field("melds", [&] {
    for (std::size_t i = 0; i < table_.size(); ++i) {
      const auto& meld = table_[i].meld;
      view::meld(out, static_cast<int>(i), melds_have_owners() ? std::optional<int>(meld.owner) : std::nullopt,
                 meld_strings(meld));
    }
  });
  if (config_.scoring.running_scores) out.field("scores", scores_);
  out.key("rules");
  write_rules_view(out, config_);
  out.key("turn");
  view::turn(out, acting, phase);
  if (must_use_) out.field("must_use", to_string(*must_use_));
  if (config_.draw.upcard_then_one_more && stage_ == Stage::draw && drawn_this_turn_ == 1) out.field("one_more_draw", true);
  if (stock_gone_) out.field("stock_gone", true);
  if (stage_ == Stage::call_window)
    out.object_field("call", [&] {
      out.field("discarder", discarder_);
      out.field("card", to_string(pile_.back()));
    });
  if (in_break_)
    out.object_field("break", [&] {
      out.field("breaker", breaker_);
      out.field("turns_left", break_turns_left_);
    });
  write_extra_view(out);
  out.end_object();
}

}  // namespace parlour::rules::rummy
