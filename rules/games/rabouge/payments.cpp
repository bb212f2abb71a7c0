// §9.5 the marks paid in play: a rabouge claimed, a stock used up.
#include "rules/games/rabouge/game.h"

#include <algorithm>

#include "rules/action.h"
#include "rules/building/pile_view.h"
#include "rules/shoe.h"
#include "rules/view.h"

namespace parlour::rules::rabouge {

void Rabouge::claim_rabouge(const CentrePile& pile, Effects& fx) {
  ++players_[mover_].rabouges;
  rabouge_cards_ += pile.cards.size();
  fx.say(seat_tag(mover_) + " lays the 13th card on " + spot_words(Spot{Zone::centre, pile.id}) +
         ": a rabouge! The pile leaves play.");
  const int id = pile.id;
  centre_.erase(std::remove_if(centre_.begin(), centre_.end(), [id](const CentrePile& p) { return p.id == id; }),
                centre_.end());
  for (int seat : opponents())
    pay(seat, mover_, rabouge_stake_,
        seat_tag(mover_) + " completed a rabouge, a centre pile of 13: each opponent pays " +
            marks_text(rabouge_stake_),
        fx);
}

void Rabouge::stock_used(Effects& fx) {
  auto& player = players_[mover_];
  if (!player.cards.stock().empty() || player.stock_paid) return;
  player.stock_paid = true;
  fx.say(seat_tag(mover_) + " has played the last stock card and is paid 2 Marks per card in every other stock.");
  for (int seat : opponents()) {
    const auto cards = static_cast<std::int64_t>(players_[seat].cards.stock().size());
    pay(seat, mover_, marks_per_stock_card * cards,
        seat_tag(mover_) + " played his last stock card: 2 Marks for each of the " + std::to_string(cards) +
            " cards left in " + seat_tag(seat) + "'s stock",
        fx);
  }
}

// Marks are paid in chips at the table's stake; the memo says so when a Mark is not one chip.
void Rabouge::pay(int from, int to, std::int64_t marks, const std::string& memo, Effects& fx) {
  if (marks > 0)
    book_.seat_to_seat(from, to, marks * stake_,
                       stake_ == 1 ? memo : memo + ", at " + std::to_string(stake_) + " chips a Mark", fx);
}

std::string Rabouge::marks_text(std::int64_t marks) {
  return std::to_string(marks) + (marks == 1 ? " Mark" : " Marks");
}

std::vector<int> Rabouge::opponents() const {
  std::vector<int> out;
  for (int seat = 0; seat < players(); ++seat)
    if (seat != mover_ && !players_[seat].left) out.push_back(seat);
  return out;
}

}  // namespace parlour::rules::rabouge
