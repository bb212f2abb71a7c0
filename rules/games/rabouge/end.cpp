// §9.5 the win, the impasse and the end of a deal, with its result.
#include "rules/games/rabouge/game.h"

#include <algorithm>

#include "rules/action.h"
#include "rules/building/pile_view.h"
#include "rules/shoe.h"
#include "rules/view.h"

namespace parlour::rules::rabouge {

// Cards left, stock cards counting double: the impasse's tie-break.
std::int64_t Rabouge::weighted_cards(const Reserve& r) {
  std::int64_t count = 2 * static_cast<std::int64_t>(r.stock().size()) + static_cast<std::int64_t>(r.hand.size());
  for (const auto& pile : r.discards) count += static_cast<std::int64_t>(pile.size());
  return count + (r.turned ? 1 : 0);
}

void Rabouge::impasse(Effects& fx) {
  fx.say("Every player has passed in turn: the game is at an impasse.");
  std::vector<int> winners;
  for (int seat = 0; seat < players(); ++seat) {
    if (players_[seat].left) continue;
    if (winners.empty()) {
      winners.push_back(seat);
      continue;
    }
    const auto& a = players_[seat];
    const auto& b = players_[winners.front()];
    const auto key_a = std::make_pair(-a.rabouges, weighted_cards(a.cards));
    const auto key_b = std::make_pair(-b.rabouges, weighted_cards(b.cards));
    if (key_a < key_b) winners = {seat};
    else if (key_a == key_b) winners.push_back(seat);
  }
  finish("impasse", winners, fx);
}

void Rabouge::finish(const std::string& end, const std::vector<int>& winners, Effects& fx) {
  phase_ = Phase::game_over;
  const bool scored = !winners.empty();
  for (int winner : winners) fx.say(seat_tag(winner) + " wins.");
  if (scored) {
    for (int seat = 0; seat < players(); ++seat) {
      if (players_[seat].left || std::find(winners.begin(), winners.end(), seat) != winners.end()) continue;
      const auto held = card_count_ ? weighted_cards(players_[seat].cards) : 0;
      const auto owed = win_stake_ + held;
      for (int winner : winners)
        pay(seat, winner, owed,
            seat_tag(winner) + " wins: " + seat_tag(seat) + " pays the winner's stake of " + marks_text(win_stake_) +
                (card_count_ ? " and " + marks_text(held) + " for his cards left (2 a stock card, 1 any other)"
                             : ""),
            fx);
    }
  } else {
    fx.say(unscored_end_sentence(end));
  }
  // Members set one by one and moved in: braced lists copy every nested value
  // again, and closing a table builds this result (most of the fuzzer's close).
  Json left = Json::array();
  Json seats = Json::array();
  Json rabouges = Json::array();
  for (int seat = 0; seat < players(); ++seat) {
    const auto& p = players_[seat];
    Json discards = Json::array();
    for (const auto& pile : p.cards.discards) discards.push_back(pile.size());
    Json counts = Json::object();
    counts["seat"] = seat;
    counts["stock"] = p.cards.stock().size();
    counts["supply"] = p.cards.hand.size();
    counts["discards"] = std::move(discards);
    counts["turned"] = p.cards.turned ? 1 : 0;
    left.push_back(std::move(counts));
    const bool won = std::find(winners.begin(), winners.end(), seat) != winners.end();
    Json facts = Json::object();
    facts["points"] = p.rabouges;
    facts["outcome"] = !scored ? end : won ? "won" : p.left ? "left" : "lost";
    seats.push_back(book_.seat_result(seat, std::move(facts)));
    rabouges.push_back(p.rabouges);
  }
  Json facts = Json::object();
  facts["deal"] = deals_;
  facts["end"] = end;
  facts["winners"] = winners;
  facts["rabouges"] = std::move(rabouges);
  facts["starter_rank"] = starter_rank_ ? Json(rank_letter(*starter_rank_)) : Json();
  facts["left"] = std::move(left);
  facts["seats"] = std::move(seats);
  result_ = book_.deal_result(std::move(facts));
}

}  // namespace parlour::rules::rabouge
