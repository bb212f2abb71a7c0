// What each seat (or a spectator) sees of a Rummy deal: every hand's size, the
// viewer's own cards, the table's melds, the stock's size and the pile.
#include "rules/rummy/rummy_base.h"

#include "rules/rummy/card_lists.h"

namespace parlour::rules::rummy {

namespace {

const char* stage_name(int stage) {
  static const char* names[] = {"draw", "play", "call_window", "call_discard", "deal_over", "game_over"};
  return names[stage];
}

}  // namespace

Json RummyBase::seat_view(int seat, std::optional<int> viewer) const {
  Json cards = Json::array();
  if (viewer == seat) cards = card_list(hands_[seat]);
  else
    for (std::size_t i = 0; i < hands_[seat].size(); ++i) cards.push_back("??");
  return {{"seat", seat}, {"cards", cards}, {"count", hands_[seat].size()}, {"melded", melded_this_deal_[seat]},
          {"left", left_[seat]}};
}

// The melds on the table, every card face up: [{"meld","owner","cards"}].
Json RummyBase::table_view() const {
  Json table = Json::array();
  for (std::size_t i = 0; i < table_.size(); ++i)
    table.push_back({{"meld", i}, {"owner", table_[i].meld.owner}, {"cards", meld_strings(table_[i].meld)}});
  return table;
}

Json RummyBase::view(std::optional<int> viewer) const {
  Json table = table_view();
  Json hands = Json::array();
  for (int s = 0; s < players(); ++s) hands.push_back(seat_view(s, viewer));
  Json view = {{"deal", deals_},
               {"dealer", dealer_},
               {"phase", stage_name(static_cast<int>(stage_))},
               {"turn", turn_},
               {"stock", stock_.size()},
               {"table", table},
               {"hands", hands}};
  if (config_.scoring.running_scores) view["scores"] = scores_;
  if (config_.draw.spread_pile) view["pile"] = card_list(pile_);
  else {
    view["upcard"] = pile_.empty() ? Json() : Json(to_string(pile_.back()));
    view["pile_size"] = pile_.size();
  }
  if (must_use_) view["must_use"] = to_string(*must_use_);
  if (config_.draw.upcard_then_one_more && stage_ == Stage::draw && drawn_this_turn_ == 1) view["one_more_draw"] = true;
  if (stock_gone_) view["stock_gone"] = true;
  if (stage_ == Stage::call_window) view["call"] = {{"discarder", discarder_}, {"card", to_string(pile_.back())}};
  if (in_break_) view["break"] = {{"breaker", breaker_}, {"turns_left", break_turns_left_}};
  const Json extra = extra_view();
  for (const auto& [key, value] : extra.items()) view[key] = value;
  return view;
}

}  // namespace parlour::rules::rummy
