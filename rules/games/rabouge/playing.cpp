// §9.4 moving a card, drawing, laying aside, passing; what follows by itself
// after each action; the turns.
#include "rules/games/rabouge/game.h"

#include <algorithm>

#include "rules/action.h"
#include "rules/building/pile_view.h"
#include "rules/shoe.h"
#include "rules/view.h"

namespace parlour::rules::rabouge {

void Rabouge::perform(const Move& move, Effects& fx) {
  switch (move.kind) {
    case Move::Kind::draw: draw(fx); break;
    case Move::Kind::pass: return pass(fx);
    case Move::Kind::place:
      if (move.placement.to.zone == Zone::discard) return lay_aside(move.placement.to.slot, fx);
      play_to_centre(move.placement, fx);
      break;
  }
  passes_ = 0;
  settle_automatic(fx);
}

void Rabouge::draw(Effects& fx) {
  auto& reserve = mine();
  reserve.turned = reserve.hand.back();
  reserve.hand.pop_back();
  const Card card = reserve.turned->card;
  if (opening()) --draws_left_;
  fx.say(seat_tag(mover_) + " draws " + to_string(card) + ".");
  if (!starter_rank_) {
    starter_rank_ = card.rank;
    fx.say(to_string(card) + " is the starter: every centre pile begins with a " + rank_letter(card.rank) + ".");
  }
}

void Rabouge::lay_aside(int slot, Effects& fx) {
  auto& reserve = mine();
  reserve.discards[slot].push_back(*reserve.turned);
  fx.say(seat_tag(mover_) + " lays " + to_string(reserve.turned->card) + " on discard pile " +
         std::to_string(slot + 1) + ".");
  reserve.turned.reset();
  passes_ = 0;
  next_turn(fx);
}

OwnedCard Rabouge::take(const Spot& from) {
  auto& reserve = mine();
  if (from.zone == Zone::stock) {
    OwnedCard card = reserve.take_stock_top();
    reserve.turn_up_stock();
    return card;
  }
  if (from.zone == Zone::turned) {
    OwnedCard card = *reserve.turned;
    reserve.turned.reset();
    return card;
  }
  OwnedCard card = reserve.discards[from.slot].back();
  reserve.discards[from.slot].pop_back();
  return card;
}

void Rabouge::play_to_centre(const Placement& p, Effects& fx) {
  const OwnedCard card = take(p.from);
  auto it = std::find_if(centre_.begin(), centre_.end(), [&](const CentrePile& pile) { return pile.id == p.to.index; });
  it->cards.push_back(card);
  fx.say(seat_tag(mover_) + " plays " + to_string(card.card) + " from " + spot_words(p.from) + " to " +
         spot_words(p.to) + ".");
  if (p.from.zone == Zone::stock) stock_used(fx);
  if (it->cards.size() == pile_full) claim_rabouge(*it, fx);
}

void Rabouge::new_pile(OwnedCard card, const std::string& from, Effects& fx) {
  centre_.push_back({next_pile_id_++, {card}});
  passes_ = 0;
  fx.say(to_string(card.card) + " from " + from + " starts " + spot_words(Spot{Zone::centre, centre_.back().id}) +
         ".");
}

// The equal-rank rule (every r0 card of the mover starts a pile at once), then
// the win, then the end of an opening turn with nothing left to play.
void Rabouge::settle_automatic(Effects& fx) {
  if (phase_ != Phase::playing) return;
  if (starter_rank_) lay_starters(fx);
  auto& reserve = mine();
  if (reserve.stock().empty() && reserve.hand.empty() && reserve.discards_empty() && !reserve.turned)
    return finish("won", {mover_}, fx);
  const bool drawing_done = draws_left_ == 0 || reserve.hand.empty();
  if (opening() && !reserve.turned && drawing_done && !any_centre_play()) {
    players_[mover_].opened = true;
    fx.say(seat_tag(mover_) + "'s opening turn is over.");
    next_turn(fx);
  }
}

void Rabouge::pass(Effects& fx) {
  ++passes_;
  fx.say(seat_tag(mover_) + " cannot play and passes.");
  if (passes_ >= seated()) return impasse(fx);
  next_turn(fx);
}

void Rabouge::next_turn(Effects& fx) {
  int seat = mover_;
  do seat = (seat - 1 + players()) % players();
  while (players_[seat].left);
  begin_turn(seat, fx);
}

void Rabouge::begin_turn(int seat, Effects& fx) {
  mover_ = seat;
  if (!players_[seat].opened) draws_left_ = starter_rank_ ? later_opening_draws : first_opening_draws;
  fx.say(seat_tag(seat) + (players_[seat].opened ? " to play." : " to play the opening turn."));
  settle_automatic(fx);
}

}  // namespace parlour::rules::rabouge
