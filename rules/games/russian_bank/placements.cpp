// The piles: what the mover may take from where and put where (the form of the
// rules, refused in every stop mode), the moves that form allows, and moving a card.
#include "rules/games/russian_bank/game.h"

#include <algorithm>

namespace parlour::rules::russian_bank {

std::string fault_message(Fault fault, const Placement& p, std::optional<Card> card) {
  const std::string from = to_string(p.from);
  const std::string to = to_string(p.to);
  const std::string what = card ? to_string(*card) : from;
  switch (fault) {
    case Fault::none: return "";
    case Fault::no_such_pile: return "there is no pile " + from + " or " + to + " to move between";
    case Fault::empty_pile: return from + " has no card to move";
    case Fault::stock_face_down:
      return "your stock card lies face down: turn it up first (§8.3 M10)";
    case Fault::opponents_pile:
      return "you may not take a card from your opponent's " + from + " (§8.3: never from the opponent's stock, "
             "hand or turned card)";
    case Fault::from_discard: return "no card can be taken from either discard pile (§8.3, modern rules)";
    case Fault::from_base: return "a card built on a base can never be withdrawn (§8.3)";
    case Fault::from_hand: return "the hand is played one card at a time: turn it up with turn_hand (§8.3 M11)";
    case Fault::onto_own_pile: return "you may not put cards on your own " + to + " (§8.3)";
    case Fault::onto_same_pile: return what + " is already on " + to;
    case Fault::base_mismatch:
      return what + " does not fit " + to + ": bases are built up in suit from the ace (§8.2)";
    case Fault::layout_mismatch:
      return what + " does not go on " + to + ": the layout is built down in alternating colour (§8.2)";
    case Fault::hand_into_space:
      return "a space is filled from the stock or the layout while your stock lasts, not from the hand (§8.3 M5)";
    case Fault::load_mismatch:
      return what + " cannot be loaded on " + to +
             ": loading goes on the opponent's face-up stock card or discard pile, same suit, one rank up or down "
             "(§8.2)";
    case Fault::discard_not_turned: return "only the turned hand card goes on your discard pile (§8.3 M12)";
    case Fault::layout_limit:
      return "at most " + std::to_string(layout_moves_per_turn) + " layout-to-layout moves a turn (move limit)";
  }
  return "";
}

bool RussianBank::has_vacancy() const {
  return std::any_of(layout_.begin(), layout_.end(), [](const Pile& pile) { return pile.empty(); });
}

// The base a card fits: a started base of its suit, or for an ace the first
// empty one.
std::optional<int> RussianBank::base_for(Card card) const {
  for (int i = 0; i < piles; ++i)
    if (!centre_[i].empty() && building::builds_up_in_suit(card, centre_[i])) return i;
  if (card.rank != ace) return std::nullopt;
  return first_empty_base();
}

std::optional<int> RussianBank::first_empty_base() const {
  for (int i = 0; i < piles; ++i)
    if (centre_[i].empty()) return i;
  return std::nullopt;
}

bool RussianBank::layout_fits_base(const building::Tableau& layout) const {
  return std::any_of(layout.begin(), layout.end(),
                     [&](const Pile& pile) { return !pile.empty() && base_for(pile.back().card); });
}

bool RussianBank::any_base_play() const {
  const auto& side = mover_side();
  if (auto top = side.stock_top(); top && base_for(*top)) return true;
  if (side.turned && base_for(side.turned->card)) return true;
  return layout_fits_base(layout_);
}

// The card at a source spot, if the mover may take it.
Fault RussianBank::source_fault(const Spot& from) const {
  if (from.slot >= 0) return Fault::no_such_pile;
  switch (from.zone) {
    case Zone::stock:
      if (!valid_seat(from.index)) return Fault::no_such_pile;
      if (from.index != mover_) return Fault::opponents_pile;
      if (mover_side().stock().empty()) return Fault::empty_pile;
      return mover_side().stock_top_up() ? Fault::none : Fault::stock_face_down;
    case Zone::turned:
      if (!valid_seat(from.index)) return Fault::no_such_pile;
      if (from.index != mover_) return Fault::opponents_pile;
      return mover_side().turned ? Fault::none : Fault::empty_pile;
    case Zone::hand:
      if (!valid_seat(from.index)) return Fault::no_such_pile;
      return from.index == mover_ ? Fault::from_hand : Fault::opponents_pile;
    case Zone::layout:
      if (!valid_pile(from.index)) return Fault::no_such_pile;
      return layout_[from.index].empty() ? Fault::empty_pile : Fault::none;
    case Zone::discard: return valid_seat(from.index) ? Fault::from_discard : Fault::no_such_pile;
    case Zone::centre: return valid_pile(from.index) ? Fault::from_base : Fault::no_such_pile;
    case Zone::supply: return Fault::no_such_pile;
  }
  return Fault::no_such_pile;
}

Card RussianBank::source_card(const Spot& from) const {
  switch (from.zone) {
    case Zone::stock: return mover_side().stock().back().card;
    case Zone::turned: return mover_side().turned->card;
    default: return layout_[from.index].back().card;
  }
}

Fault RussianBank::target_fault(const Spot& from, Card card, const Spot& to) const {
  if (to.slot >= 0) return Fault::no_such_pile;
  const auto& other = sides_[opponent()];
  switch (to.zone) {
    case Zone::centre:
      if (!valid_pile(to.index)) return Fault::no_such_pile;
      return building::builds_up_in_suit(card, centre_[to.index]) ? Fault::none : Fault::base_mismatch;
    case Zone::layout:
      if (!valid_pile(to.index)) return Fault::no_such_pile;
      if (from == to) return Fault::onto_same_pile;
      if (from.zone == Zone::layout && layout_moves_ >= layout_moves_per_turn) return Fault::layout_limit;
      if (layout_[to.index].empty() && from.zone == Zone::turned && !mover_side().stock().empty())
        return Fault::hand_into_space;
      return building::builds_down_alternating(card, layout_[to.index]) ? Fault::none : Fault::layout_mismatch;
    case Zone::stock:
      if (!valid_seat(to.index)) return Fault::no_such_pile;
      if (to.index == mover_) return Fault::onto_own_pile;
      return other.stock_top_up() && building::loads_in_suit(card, other.stock()) ? Fault::none : Fault::load_mismatch;
    case Zone::discard:
      if (!valid_seat(to.index)) return Fault::no_such_pile;
      if (to.index == mover_) return from.zone == Zone::turned ? Fault::none : Fault::discard_not_turned;
      return building::loads_in_suit(card, other.discards[0]) ? Fault::none : Fault::load_mismatch;
    case Zone::hand:
    case Zone::turned:
      return valid_seat(to.index) ? Fault::onto_own_pile : Fault::no_such_pile;
    case Zone::supply: return Fault::no_such_pile;
  }
  return Fault::no_such_pile;
}

Fault RussianBank::placement_fault(const Placement& p) const {
  if (auto fault = source_fault(p.from); fault != Fault::none) return fault;
  return target_fault(p.from, source_card(p.from), p.to);
}

// Why a turn_stock, turn_hand or end_turn cannot be made; empty if it can.
std::string RussianBank::step_fault(Move::Kind kind) const {
  const auto& side = mover_side();
  switch (kind) {
    case Move::Kind::turn_stock:
      if (side.stock().empty()) return "your stock is exhausted";
      if (side.stock_top_up()) return "your stock card is already face up: one card at a time (§8.3 M10)";
      return "";
    case Move::Kind::turn_hand:
      if (side.turned) return "you already have a turned hand card: play it or discard it first (§8.3 M11)";
      if (side.hand.empty() && side.discards[0].empty()) return "your hand and discard pile are spent";
      return "";
    case Move::Kind::end_turn:
      if (side.turned || !side.hand.empty() || !side.discards[0].empty() || side.stock().empty())
        return "end_turn is only for a player with a stock but no hand, discard or turned card left (§8.3 M13); "
               "otherwise a turn ends by discarding the turned hand card";
      return "";
    case Move::Kind::place: return "";
  }
  return "";
}

// Every move the form of the rules allows, in the listed order.
std::vector<Move> RussianBank::candidates() const {
  std::vector<Move> out;
  std::vector<Spot> sources = {{Zone::stock, mover_}, {Zone::turned, mover_}};
  for (int i = 0; i < piles; ++i) sources.push_back({Zone::layout, i});
  std::vector<Spot> targets;
  for (int i = 0; i < piles; ++i) targets.push_back({Zone::centre, i});
  for (int i = 0; i < piles; ++i) targets.push_back({Zone::layout, i});
  targets.insert(targets.end(), {{Zone::stock, opponent()}, {Zone::discard, opponent()}, {Zone::discard, mover_}});
  const auto empty_base = first_empty_base();
  for (const auto& from : sources) {
    if (source_fault(from) != Fault::none) continue;
    const Card card = source_card(from);
    for (const auto& to : targets) {
      const bool other_empty_base = to.zone == Zone::centre && centre_[to.index].empty() && to.index != empty_base;
      if (!other_empty_base && target_fault(from, card, to) == Fault::none)
        out.push_back({Move::Kind::place, {from, to}, card});
    }
  }
  for (auto kind : {Move::Kind::turn_stock, Move::Kind::turn_hand, Move::Kind::end_turn})
    if (step_fault(kind).empty()) out.push_back({kind, {}, {}});
  return out;
}

OwnedCard RussianBank::take(const Spot& from) {
  auto& side = mover_side();
  if (from.zone == Zone::stock) return side.take_stock_top();
  if (from.zone == Zone::turned) {
    const OwnedCard card = *side.turned;
    side.turned.reset();
    return card;
  }
  const OwnedCard card = layout_[from.index].back();
  layout_[from.index].pop_back();
  return card;
}

// A load onto a stock lies face up on its face-up top (§8.2 load).
void RussianBank::put(const Spot& to, const OwnedCard& card) {
  switch (to.zone) {
    case Zone::centre: return centre_[to.index].push_back(card);
    case Zone::stock: return sides_[to.index].load_stock(card);
    case Zone::discard: return sides_[to.index].discards[0].push_back(card);
    default: return layout_[to.index].push_back(card);
  }
}

void RussianBank::place(const Placement& p, Effects& fx) {
  const bool fills_space = p.to.zone == Zone::layout && layout_[p.to.index].empty();
  const OwnedCard card = take(p.from);
  put(p.to, card);
  fx.say(seat_tag(mover_) + " moves " + to_string(card.card) + " from " + spot_words(p.from) + " to " +
         spot_words(p.to) + ".");
  if (p.to.zone == Zone::centre) recycles_ = {0, 0};
  if (p.from.zone == Zone::layout && p.to.zone == Zone::layout) ++layout_moves_;
  if ((p.from.zone == Zone::stock && fills_space) || mover_side().stock().empty()) demanded_fill_ = false;
  if (mover_side().cards_left() == 0) return finish_won(mover_, fx);
  if (is_discard({Move::Kind::place, p, card.card}, mover_)) pass_turn(fx);
}

}  // namespace parlour::rules::russian_bank
