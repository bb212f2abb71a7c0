// The opponent of the player moving: §8.6 calling stop on an out-of-order move,
// §8.5 demanding layout moves.
#include "rules/games/russian_bank/game.h"

#include <algorithm>

#include "rules/action.h"

namespace parlour::rules::russian_bank {

const Json& RussianBank::opponent_actions() const {
  if (!opponent_cache_) opponent_cache_ = compute_opponent_actions();
  return *opponent_cache_;
}

Json RussianBank::compute_opponent_actions() const {
  Json out = Json::array();
  if (phase_ != Phase::playing) return out;
  if (stop_callable()) {
    out.push_back({{"type", "stop"}});
    return out;
  }
  if (!demands_open()) return out;
  const int depth = std::min(demand_search_depth, layout_moves_per_turn - layout_moves_);
  if (!demand_within_reach(depth)) return out;
  const auto found = building::shift_sequences(layout_, depth, demands_listed, demand_goal());
  for (const auto& shifts : found) out.push_back(demand_json(shifts));
  return out;
}

// The demand as listed: each step names the card it moves.
Json RussianBank::demand_json(const std::vector<building::Shift>& shifts) const {
  building::Tableau layout = layout_;
  Json moves = Json::array();
  for (const auto& s : shifts) {
    moves.push_back(building::move_json({{Zone::layout, s.from}, {Zone::layout, s.to}}, layout[s.from].back().card));
    moves.back().erase("type");
    building::apply_shift(layout, s);
  }
  return {{"type", "demand"}, {"moves", moves}};
}

// Whether `depth` layout moves could reach a demand's goal at all: a pile
// short enough to be cleared, or a card that fits a base close enough to a top
// (shifting cards never makes a card fit a base; only uncovering does). Spares
// the search in most positions.
bool RussianBank::demand_within_reach(int depth) const {
  const bool space_wanted = !has_vacancy() && mover_side().stock_top().has_value();
  for (const auto& pile : layout_) {
    const int size = static_cast<int>(pile.size());
    if (space_wanted && size > 0 && size <= depth) return true;
    for (int below = 1; below <= depth && below < size; ++below)
      if (base_for(pile[size - 1 - below].card)) return true;
  }
  return false;
}

// §8.5 (a) a new space for the face-up stock card, or (b) a layout card freed for a base.
std::function<bool(const building::Tableau&)> RussianBank::demand_goal() const {
  const bool space_wanted = !has_vacancy() && mover_side().stock_top().has_value();
  return [this, space_wanted](const building::Tableau& layout) {
    const bool space = std::any_of(layout.begin(), layout.end(), [](const Pile& pile) { return pile.empty(); });
    return (space_wanted && space) || layout_fits_base(layout);
  };
}

void RussianBank::apply_opponent(const std::string& type, const Json& action, Effects& fx) {
  if (type == "stop") {
    expect_only_fields(action, {});
    if (stop_rule_ == StopRule::refuse)
      throw illegal_action("stop is not called at this table: out-of-order moves are refused (option stop_rule)");
    if (!infraction_)
      throw illegal_action("there is nothing to stop: no out-of-order move was made this turn (§8.6)");
    return call_stop(fx);
  }
  if (type == "demand") return demand(action, fx);
  throw not_your_turn("it is " + seat_tag(mover_) + "'s turn; the opponent may only demand layout moves or call stop");
}

void RussianBank::call_stop(Effects& fx) {
  const int faulty = mover_;
  auto& side = mover_side();
  fx.say(seat_tag(opponent()) + " calls stop: " + *infraction_ + ".");
  if (side.turned) {
    side.discards[0].push_back(*side.turned);
    side.turned.reset();
  }
  if (auto top = side.stock_top()) {
    if (auto base = base_for(*top)) {
      centre_[*base].push_back(side.take_stock_top());
      recycles_ = {0, 0};
      fx.say(to_string(*top) + " from " + seat_tag(faulty) + "'s stock is played to " +
             building::spot_words(Spot{Zone::centre, *base}) + ", where it should have gone.");
    }
  }
  if (side.cards_left() == 0) return finish_won(faulty, fx);
  side.turn_up_stock();
  pass_turn(fx);
}

std::vector<building::MoveRequest> RussianBank::parse_demand(const Json& action) const {
  expect_only_fields(action, {"moves"});
  const auto it = action.find("moves");
  if (it == action.end() || !it->is_array() || it->empty() || it->size() > demand_most_moves)
    throw illegal_action("a demand needs 'moves': 1 to 8 layout moves [{\"from\":\"layout:i\",\"to\":\"layout:j\"}]");
  std::vector<building::MoveRequest> steps;
  for (const auto& step : *it) {
    const auto request = building::parse_move(step);
    const auto& p = request.placement;
    if (p.from.zone != Zone::layout || p.to.zone != Zone::layout || p.from.slot >= 0 || p.to.slot >= 0)
      throw illegal_action("a demand may only move cards from layout pile to layout pile (§8.5)");
    steps.push_back(request);
  }
  return steps;
}

void RussianBank::demand(const Json& action, Effects& fx) {
  const auto steps = parse_demand(action);
  if (stop_callable()) throw illegal_action("a stop can be called now; demands wait until it is not (§8.6)");
  if (any_base_play()) throw illegal_action("a base play is already due, so there is nothing to demand (§8.5)");
  if (layout_moves_ + static_cast<int>(steps.size()) > layout_moves_per_turn)
    throw illegal_action(fault_message(Fault::layout_limit, {}, std::nullopt));
  building::Tableau layout = layout_;
  std::vector<building::Shift> shifts;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const building::Shift shift{steps[i].placement.from.index, steps[i].placement.to.index};
    if (!building::can_shift(layout, shift))
      throw illegal_action("demanded move " + std::to_string(i + 1) + " is not a layout move that can be made then "
                           "(§8.5: layout cards go down in alternating colour, or into a space)");
    building::check_named_card(steps[i], layout[shift.from].back().card);
    building::apply_shift(layout, shift);
    shifts.push_back(shift);
  }
  if (!demand_goal()(layout))
    throw illegal_action("a demand must open a space for the face-up stock card or free a layout card for a base "
                         "(§8.5)");
  std::string moves;
  for (const building::Shift& shift : shifts)
    moves += (moves.empty() ? "" : ", ") + building::spot_words(Spot{Zone::layout, shift.from}) + " to " +
             building::spot_words(Spot{Zone::layout, shift.to});
  fx.say(seat_tag(opponent()) + " demands " + (shifts.size() == 1 ? std::string("a layout move") : std::to_string(shifts.size()) + " layout moves") +
         " of " + seat_tag(mover_) + ": " + moves + ".");
  layout_ = std::move(layout);
  layout_moves_ += static_cast<int>(shifts.size());
  demanded_fill_ = !any_base_play();
}

}  // namespace parlour::rules::russian_bank
