// The end of a deal (rules/rummy.md §1.8): the game settles it (settle_deal), and
// the engine writes the result every Rummy game shares (docs/protocol.md).
#include "rules/rummy/rummy_base.h"

#include "rules/rummy/card_lists.h"

namespace parlour::rules::rummy {

void RummyBase::end_deal(const DealEnd& given, Balances& chips, Effects& fx) {
  DealEnd end = given;
  if (end.winner >= 0) end.first_turn = turns_taken_[end.winner] == 1;
  end.after_break = in_break_;
  end.breaker = breaker_;
  Json summary = Json::object();
  summary["chips"] = std::vector<std::int64_t>(players(), 0);
  summary["points"] = std::vector<std::int64_t>(players(), 0);
  settle_deal(end, chips, fx, summary);
  const Json& points = summary.contains("deal_points") ? summary["deal_points"] : summary["points"];
  Json hands = Json::array();
  Json seats = Json::array();
  for (int s = 0; s < players(); ++s) {
    hands.push_back({{"seat", s}, {"cards", card_list(hands_[s])}, {"value", hand_count(s)}});
    seats.push_back({{"seat", s}, {"points", points[s]}, {"chips", summary["chips"][s]}});
  }
  const char* how = end.kind == DealEnd::Kind::went_out      ? "went_out"
                    : end.kind == DealEnd::Kind::block_showdown ? "showdown"
                    : end.kind == DealEnd::Kind::stock_exhausted ? "stock_exhausted"
                    : end.kind == DealEnd::Kind::showdown
                        ? showdown_end_name()
                    : end.kind == DealEnd::Kind::knock           ? "knock"
                                                               : "no_winner";
  Json result = {{"deal", deals_}, {"dealer", dealer_}, {"end", how}, {"hands", std::move(hands)},
                 {"melds", table_view()}, {"seats", std::move(seats)}};
  if (end.winner >= 0) {
    result["winner"] = end.winner;
    result["rummy"] = end.rummy;
  }
  if (end.breaker >= 0) result["breaker"] = end.breaker;
  if (end.knocker >= 0) result["knocker"] = end.knocker;
  for (auto& [key, value] : summary.items())
    if (key != "chips" && key != "points" && key != "deal_points") result[key] = std::move(value);
  if (config_.scoring.running_scores) result["scores"] = scores_;
  result_ = std::move(result);
  stage_ = game_finished() ? Stage::game_over : Stage::deal_over;
  fx.say("Deal " + std::to_string(deals_) + " is over.");
}

bool RummyBase::game_finished() const { return deals_ >= config_.scoring.deals; }

}  // namespace parlour::rules::rummy
