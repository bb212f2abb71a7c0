// The centre piles; what the mover may take from where and put where; §9.4's
// compulsory order, and an action checked against all of it.
#include "rules/games/rabouge/game.h"

#include <algorithm>

#include "rules/action.h"
#include "rules/building/pile_view.h"
#include "rules/shoe.h"
#include "rules/view.h"

namespace parlour::rules::rabouge {

bool Rabouge::fits_any(std::optional<Card> card) const {
  return card && std::any_of(centre_.begin(), centre_.end(), [&](const CentrePile& p) { return fits(*card, p); });
}

const CentrePile* Rabouge::pile_with_id(int id) const {
  for (const auto& pile : centre_)
    if (pile.id == id) return &pile;
  return nullptr;
}

bool Rabouge::any_centre_play() const {
  if (fits_any(mine().stock_top())) return true;
  for (int k = 0; k < discard_slots; ++k)
    if (fits_any(discard_top(k))) return true;
  return false;
}

// The mover's card at a source spot, if he may move it.
std::optional<Card> Rabouge::card_at(const Spot& from) const {
  if (from.index != mover_) return std::nullopt;
  const auto& reserve = mine();
  switch (from.zone) {
    case Zone::stock: return from.slot < 0 ? reserve.stock_top() : std::nullopt;
    case Zone::turned:
      return from.slot < 0 && reserve.turned ? std::optional<Card>(reserve.turned->card) : std::nullopt;
    case Zone::discard: return from.slot >= 0 && from.slot < discard_slots ? discard_top(from.slot) : std::nullopt;
    default: return std::nullopt;
  }
}

// Why the mover has no card to move at `from` (card_at found none).
std::string Rabouge::source_fault(const Spot& from) const {
  const bool own = from.index == mover_;
  if (from.zone == Zone::centre) return "a card on a centre pile stays there (§9.2)";
  if (own && from.zone == Zone::supply) return "supply cards are turned one at a time with draw (§9.4)";
  if (own && from.slot < 0 && from.zone == Zone::stock) return "your stock is exhausted";
  if (own && from.slot < 0 && from.zone == Zone::turned) return "you have no drawn card";
  if (own && from.zone == Zone::discard && from.slot >= 0 && from.slot < discard_slots)
    return to_string(from) + " is empty";
  return "you may move only your own stock card, drawn card or discard tops, not " + to_string(from);
}

// Whether `to` takes the card: a centre pile it fits, or (a drawn card after
// the opening) one of the mover's discard slots.
bool Rabouge::takes(const Spot& from, Card card, const Spot& to) const {
  if (to.zone == Zone::centre) {
    const auto* pile = pile_with_id(to.index);
    return pile && to.slot < 0 && fits(card, *pile);
  }
  const bool own_slot = to.zone == Zone::discard && to.index == mover_ && to.slot >= 0 && to.slot < discard_slots;
  return own_slot && from.zone == Zone::turned && !opening();
}

// Why `to` does not take the card (takes() said no).
std::string Rabouge::target_fault(const Spot& from, Card card, const Spot& to) const {
  if (to.zone == Zone::centre) {
    const auto* pile = pile_with_id(to.index);
    if (!pile || to.slot >= 0) return "there is no centre pile " + to_string(to);
    return to_string(card) + " does not fit " + to_string(to) + ": a centre pile takes the next rank, " +
           rank_letter(building::next_rank_wrapping(pile->cards.back().card.rank)) + " (§9.2)";
  }
  if (to.zone == Zone::discard && to.index == mover_ && to.slot >= 0 && to.slot < discard_slots) {
    if (from.zone != Zone::turned) return "only a drawn card goes on a discard pile (§9.4)";
    return "in the opening a drawn card that does not fit starts a discard pile by itself (§9.4)";
  }
  return "a card goes to a centre pile or, when drawn, to one of your four discard piles (discard:" +
         std::to_string(mover_) + ":0-3), not to " + to_string(to);
}

std::string Rabouge::step_fault(Move::Kind kind) const {
  const auto& reserve = mine();
  if (reserve.turned) return "place the drawn card first (§9.4)";
  if (kind == Move::Kind::draw) {
    if (reserve.hand.empty()) return "your supply is spent";
    if (opening() && draws_left_ == 0) return "the opening turn has drawn all its cards (§9.4)";
    return "";
  }
  if (opening()) return "the opening turn does not pass (§9.4)";
  if (!reserve.hand.empty()) return "you pass only with the supply spent; draw instead (§9.4)";
  return "";
}

std::vector<Move> Rabouge::candidates() const {
  std::vector<Move> out;
  std::vector<Spot> sources = {{Zone::turned, mover_}, {Zone::stock, mover_}};
  for (int k = 0; k < discard_slots; ++k) sources.push_back({Zone::discard, mover_, k});
  std::vector<Spot> targets;
  for (const auto& pile : centre_) targets.push_back({Zone::centre, pile.id});
  for (int k = 0; k < discard_slots; ++k) targets.push_back({Zone::discard, mover_, k});
  for (const auto& from : sources) {
    const auto card = card_at(from);
    if (!card) continue;
    for (const auto& to : targets)
      if (takes(from, *card, to)) out.push_back({Move::Kind::place, {from, to}, *card});
  }
  for (auto kind : {Move::Kind::draw, Move::Kind::pass})
    if (step_fault(kind).empty()) out.push_back({kind, {}, {}});
  return out;
}

std::vector<Priority<Move>> Rabouge::priorities() const {
  const auto& reserve = mine();
  const bool drawn = reserve.turned.has_value();
  const bool drawing_opening = opening() && draws_left_ > 0 && !reserve.hand.empty();
  const bool settled = !drawn && !drawing_opening;
  return {
      {rule_drawn_first, drawn, [](const Move& m) { return places_from(m, Zone::turned); }},
      {rule_opening_draws, drawing_opening && !drawn, [](const Move& m) { return m.kind == Move::Kind::draw; }},
      {rule_drawn_fits, drawn && fits_any(reserve.turned->card),
       [](const Move& m) { return places_to(m, Zone::centre); }},
      {rule_stock_first, settled && fits_any(reserve.stock_top()),
       [](const Move& m) { return places_from(m, Zone::stock); }},
      {rule_centre_first, settled && any_centre_play(), [](const Move& m) { return places_to(m, Zone::centre); }},
  };
}

Move Rabouge::parse_action(const Json& action, std::optional<Card>& named) const {
  const auto type = action_type(action);
  if (type == "move") {
    const auto request = building::parse_move(action);
    named = request.card;
    return {Move::Kind::place, request.placement, {}};
  }
  Move move;
  if (type == "draw") move.kind = Move::Kind::draw;
  else if (type == "pass") move.kind = Move::Kind::pass;
  else throw illegal_action("unknown action '" + type + "': expected move, draw or pass");
  expect_only_fields(action, {});
  return move;
}

// Throws unless the move is legal now; fills in the card a placement moves.
void Rabouge::check(Move& move, std::optional<Card> named) const {
  if (move.kind == Move::Kind::place) {
    const auto card = card_at(move.placement.from);
    if (!card) throw illegal_action(source_fault(move.placement.from));
    move.card = *card;
    building::check_named_card({move.placement, named}, *card);
    if (!takes(move.placement.from, *card, move.placement.to))
      throw illegal_action(target_fault(move.placement.from, *card, move.placement.to));
  } else if (auto fault = step_fault(move.kind); !fault.empty()) {
    throw illegal_action(fault);
  }
  const auto rules = priorities();
  if (const auto* broken = building::broken_priority(move, rules)) throw illegal_action(broken->rule);
}

}  // namespace parlour::rules::rabouge
