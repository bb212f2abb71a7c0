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
Json rules_view(const RummyConfig& config) {
  return {{"melds", meld_rules_json(config.melds)},
          {"values", card_values_json(config.values)},
          {"decks", config.deal.pack.decks},
          {"jokers", config.deal.pack.jokers},
          {"rummy_only", config.melding.rummy_only},
          {"go_down", config.melding.go_down},
          {"max_plays_per_turn", config.melding.max_plays_per_turn},
          {"final_discard_required", config.discard.final_discard_required},
          {"needs_earlier_meld", config.discard.needs_earlier_meld},
          {"spread_pile", config.draw.spread_pile}};
}

// The view (docs/protocol.md "View schema", "Rummy family"): hands are seen by
// their owners only; the stock shows its size, the discard pile its top card
// (the Michigan family's spread pile every card); melds are face up.
Json RummyBase::seat_view(int seat, std::optional<int> viewer) const {
  const auto acting = to_act();
  const bool to_play = std::find(acting.begin(), acting.end(), seat) != acting.end();
  const char* status = left_[seat] ? "left" : to_play ? "to_play" : "waiting";
  Json out = view::seat(seat, hands_[seat], viewer == seat, status, left_[seat]);
  out["melded"] = melded_this_deal_[seat];
  return out;
}

// The melds on the table, every card face up: [{"meld","owner","cards"}] (the result's shape).
Json RummyBase::table_view() const {
  Json table = Json::array();
  for (std::size_t i = 0; i < table_.size(); ++i)
    table.push_back({{"meld", i}, {"owner", table_[i].meld.owner}, {"cards", meld_strings(table_[i].meld)}});
  return table;
}

Json RummyBase::view(std::optional<int> viewer) const {
  const auto phase = stage_name(static_cast<int>(stage_));
  Json out = view::base(view::layouts::rummy, phase, deals_, dealer_);
  Json seats = Json::array();
  for (int s = 0; s < players(); ++s) seats.push_back(seat_view(s, viewer));
  out["seats"] = std::move(seats);
  out["piles"] = Json::array({view::face_down_pile("stock", std::nullopt, stock_.size()),
                              view::pile("discard", std::nullopt, pile_,
                                         config_.draw.spread_pile ? view::Shown::all : view::Shown::top)});
  Json melds = Json::array();
  for (std::size_t i = 0; i < table_.size(); ++i)
    melds.push_back(view::meld(static_cast<int>(i), table_[i].meld.owner, meld_strings(table_[i].meld)));
  out["melds"] = std::move(melds);
  if (config_.scoring.running_scores) out["scores"] = scores_;
  out["rules"] = rules_view(config_);
  out["turn"] = view::turn(to_act(), phase);
  if (must_use_) out["must_use"] = to_string(*must_use_);
  if (config_.draw.upcard_then_one_more && stage_ == Stage::draw && drawn_this_turn_ == 1) out["one_more_draw"] = true;
  if (stock_gone_) out["stock_gone"] = true;
  if (stage_ == Stage::call_window) out["call"] = {{"discarder", discarder_}, {"card", to_string(pile_.back())}};
  if (in_break_) out["break"] = {{"breaker", breaker_}, {"turns_left", break_turns_left_}};
  const Json extra = extra_view();
  for (const auto& [key, value] : extra.items()) out[key] = value;
  return out;
}

}  // namespace parlour::rules::rummy
