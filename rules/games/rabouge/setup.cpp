// §9.1–9.4 the deal, the lead and the opening turn's own rules (the starters, a
// first discard pile); a game set up at a position (docs/protocol.md "Rabouge"
// describes the position object).
#include "rules/games/rabouge/game.h"

#include <algorithm>

#include "rules/action.h"
#include "rules/building/pile_view.h"
#include "rules/shoe.h"
#include "rules/view.h"

namespace parlour::rules::rabouge {

void Rabouge::deal() {
  const std::size_t share = static_cast<std::size_t>(52 * packs_ / players());
  std::vector<std::vector<OwnedCard>> shares;
  if (packs_ == players()) {
    shares = building::own_packs(players(), seed_, stacked_);
  } else {
    Stock all = Shoe(PackSpec{false, 0, packs_}, seed_, stacked_).next_deal();
    for (int seat = 0; seat < players(); ++seat) {
      std::vector<OwnedCard> cards;
      for (auto card : all.draw(share)) cards.push_back({card, seat});
      shares.push_back(std::move(cards));
    }
    aside_ = all.size();
  }
  for (int seat = 0; seat < players(); ++seat) {
    const auto& cards = shares[seat];
    auto& reserve = players_[seat].cards;
    const auto stock_end = cards.begin() + static_cast<std::ptrdiff_t>(stock_size());
    reserve.set_stock(Pile(std::make_reverse_iterator(stock_end), cards.rend()), 0);
    reserve.turn_up_stock();
    reserve.hand.assign(cards.rbegin(), std::make_reverse_iterator(stock_end));
  }
}

// The highest stock card leads, the ace low; ties go by the seed.
int Rabouge::lead(Effects& fx) const {
  int best = 0;
  std::vector<int> tied;
  for (int seat = 0; seat < players(); ++seat) {
    const int rank = players_[seat].cards.stock().back().card.rank;
    if (rank > best) tied.clear();
    if (rank >= best) {
      best = rank;
      tied.push_back(seat);
    }
  }
  int first = tied.front();
  if (tied.size() > 1) {
    Rng rng(seed_ ^ 0x9e3779b97f4a7c15ULL);
    first = tied[rng.below(tied.size())];
    fx.say(std::to_string(tied.size()) + " stocks show the highest card; the draw lets " + seat_tag(first) +
           " lead.");
  } else {
    fx.say(seat_tag(first) + "'s stock shows the highest card: " + seat_tag(first) + " leads.");
  }
  return first;
}

void Rabouge::set_up(const Json& position) {
  if (!position.is_object()) throw SetupError("position: expected an object, got " + position.dump());
  mover_ = position.value("mover", 0);
  if (mover_ < 0 || mover_ >= players()) throw SetupError("position: 'mover' is not a seat");
  const Json starter = position.value("starter", Json());
  if (!starter.is_null()) {
    const auto card = starter.is_string() ? parse_card(starter.get<std::string>() + "S") : std::nullopt;
    if (!card) throw SetupError("position: 'starter' is a rank letter such as \"9\" or \"T\"");
    starter_rank_ = card->rank;
  }
  std::vector<const Pile*> all;
  for (const auto& cards : position.value("centre", Json::array())) {
    centre_.push_back({next_pile_id_++, building::parse_pile(cards, -1)});
    check_centre_pile(centre_.back().cards);
  }
  const Json seats = position.value("seats", Json::array());
  if (seats.size() > players_.size()) throw SetupError("position: more seats than players");
  for (std::size_t s = 0; s < seats.size(); ++s) set_up_player(players_[s], seats[s]);
  draws_left_ = position.value("draws_left", 0);
  passes_ = position.value("passes", 0);
  std::vector<Pile> turned(players_.size());
  for (const auto& pile : centre_) all.push_back(&pile.cards);
  for (std::size_t s = 0; s < players_.size(); ++s) {
    const auto& reserve = players_[s].cards;
    all.insert(all.end(), {&reserve.stock(), &reserve.hand});
    for (const auto& pile : reserve.discards) all.push_back(&pile);
    if (reserve.turned) turned[s].push_back(*reserve.turned);
    all.push_back(&turned[s]);
  }
  building::check_copies(all, packs_);
}

void Rabouge::check_centre_pile(const Pile& pile) const {
  if (!starter_rank_ || pile.empty() || pile.front().card.rank != *starter_rank_ || pile.size() >= pile_full)
    throw SetupError("position: a centre pile starts with the starter rank and holds fewer than 13 cards");
  for (std::size_t i = 1; i < pile.size(); ++i)
    if (pile[i].card.rank != building::next_rank_wrapping(pile[i - 1].card.rank))
      throw SetupError("position: a centre pile runs up one rank at a time");
}

void Rabouge::set_up_player(Player& player, const Json& json) {
  auto& reserve = player.cards;
  reserve.set_stock(building::parse_pile(json.value("stock", Json::array()), -1), 0);
  reserve.turn_up_stock();
  reserve.hand = building::parse_pile(json.value("supply", Json::array()), -1);
  const Json discards = json.value("discards", Json::array());
  if (discards.size() > discard_slots) throw SetupError("position: at most four discard piles");
  for (std::size_t k = 0; k < discards.size(); ++k) reserve.discards[k] = building::parse_pile(discards[k], -1);
  const Json turned = json.value("turned", Json());
  if (!turned.is_null()) reserve.turned = building::parse_owned_card(turned, -1);
  player.opened = json.value("opened", true);
  player.stock_paid = json.value("stock_paid", reserve.stock().empty());
  player.rabouges = json.value("rabouges", 0);
}

void Rabouge::lay_starters(Effects& fx) {
  auto& reserve = mine();
  for (bool again = true; again;) {
    again = false;
    if (auto top = reserve.stock_top(); top && is_starter(*top)) {
      new_pile(take({Zone::stock, mover_}), "the stock", fx);
      stock_used(fx);
      again = true;
    }
    for (int k = 0; k < discard_slots; ++k) {
      if (auto top = discard_top(k); top && is_starter(*top)) {
        new_pile(take({Zone::discard, mover_, k}), "discard pile " + std::to_string(k + 1), fx);
        again = true;
      }
    }
    if (reserve.turned && is_starter(reserve.turned->card)) {
      new_pile(take({Zone::turned, mover_}), "the supply", fx);
      again = true;
    }
  }
  if (reserve.turned && opening() && !fits_any(reserve.turned->card)) start_discard_pile(fx);
}

// Opening: a drawn card that fits nowhere starts a discard pile by itself.
void Rabouge::start_discard_pile(Effects& fx) {
  auto& reserve = mine();
  const auto slot = std::find_if(reserve.discards.begin(), reserve.discards.end(),
                                 [](const Pile& pile) { return pile.empty(); });
  const auto k = static_cast<int>(slot - reserve.discards.begin());
  slot->push_back(*reserve.turned);
  fx.say(to_string(reserve.turned->card) + " starts discard pile " + std::to_string(k + 1) + ".");
  reserve.turned.reset();
}

}  // namespace parlour::rules::rabouge
