#include "rules/building/piles.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "rules/snapshot.h"

namespace parlour::rules::building {

std::optional<Card> top_card(const Pile& pile) {
  if (pile.empty()) return std::nullopt;
  return pile.back().card;
}

std::vector<Card> plain_cards(const Pile& pile) {
  std::vector<Card> out;
  out.reserve(pile.size());
  for (const auto& owned : pile) out.push_back(owned.card);
  return out;
}

Pile owned_by(int owner, const std::vector<Card>& cards) {
  Pile out;
  out.reserve(cards.size());
  for (auto card : cards) out.push_back({card, owner});
  return out;
}

int next_rank_wrapping(int rank) { return rank == king ? ace : rank + 1; }

bool builds_up_in_suit(Card card, const Pile& foundation) {
  if (foundation.empty()) return card.rank == ace;
  const Card top = foundation.back().card;
  return card.suit == top.suit && card.rank == top.rank + 1;
}

bool builds_up_by_rank(Card card, const Pile& centre, std::size_t full) {
  if (centre.empty() || centre.size() >= full) return false;
  return card.rank == next_rank_wrapping(centre.back().card.rank);
}

bool builds_down_alternating(Card card, const Pile& tableau) {
  if (tableau.empty()) return true;
  const Card top = tableau.back().card;
  return card.is_red() != top.is_red() && card.rank + 1 == top.rank;
}

bool loads_in_suit(Card card, const Pile& target) {
  if (target.empty()) return false;
  const Card top = target.back().card;
  return card.suit == top.suit && std::abs(card.rank - top.rank) == 1;
}

Pile Reserve::stock_shown() const {
  return Pile(stock_.end() - static_cast<std::ptrdiff_t>(stock_face_up_), stock_.end());
}

std::optional<Card> Reserve::stock_top() const {
  if (!stock_top_up()) return std::nullopt;
  return stock_.back().card;
}

std::size_t Reserve::cards_left() const {
  std::size_t count = stock_.size() + hand.size() + (turned ? 1 : 0);
  for (const auto& pile : discards) count += pile.size();
  return count;
}

bool Reserve::discards_empty() const {
  return std::all_of(discards.begin(), discards.end(), [](const Pile& pile) { return pile.empty(); });
}

void Reserve::turn_up_stock() {
  if (!stock_.empty() && stock_face_up_ == 0) stock_face_up_ = 1;
}

void Reserve::set_stock(Pile cards, std::size_t face_up) {
  if (face_up > cards.size())
    throw std::invalid_argument("a stock of " + std::to_string(cards.size()) + " cards cannot have " +
                                std::to_string(face_up) + " face up");
  stock_ = std::move(cards);
  stock_face_up_ = face_up;
}

void Reserve::load_stock(OwnedCard card) {
  if (!stock_top_up()) throw std::logic_error("building: loading a stock whose top lies face down");
  stock_.push_back(card);
  ++stock_face_up_;
}

OwnedCard Reserve::take_stock_top() {
  if (!stock_top()) throw std::logic_error("building: taking a stock card that is not face up");
  OwnedCard card = stock_.back();
  stock_.pop_back();
  --stock_face_up_;
  return card;
}

bool Reserve::turn_hand() {
  if (turned) throw std::logic_error("building: turning the hand over a turned card");
  bool turned_over = false;
  if (hand.empty()) {
    if (discards.empty() || discards[0].empty()) throw std::logic_error("building: turning an empty hand");
    hand.assign(discards[0].rbegin(), discards[0].rend());
    discards[0].clear();
    turned_over = true;
  }
  turned = hand.back();
  hand.pop_back();
  return turned_over;
}

// ------------------------------------------------------------ snapshots (rules/snapshot.h)

namespace {

int owner_from(const Json& json, int seats) {
  if (!json.is_number_integer() || json.get<std::int64_t>() < -1 || json.get<std::int64_t>() >= seats)
    throw SnapshotError("expected a card's owner, a seat below " + std::to_string(seats) + " or -1, got " +
                        json.dump());
  return json.get<int>();
}

}  // namespace

Json pile_json(const Pile& pile) {
  Json owners = Json::array();
  for (const auto& owned : pile) owners.push_back(owned.owner);
  return {{"cards", cards_json(plain_cards(pile))}, {"owners", std::move(owners)}};
}

Pile pile_from(const Json& json, int seats) {
  const auto cards = cards_from(member(json, "cards"));
  const auto& owners = member(json, "owners");
  expect_size(owners, cards.size(), "owners, one a card of the pile");
  Pile pile;
  pile.reserve(cards.size());
  for (std::size_t i = 0; i < cards.size(); ++i) pile.push_back({cards[i], owner_from(owners[i], seats)});
  return pile;
}

Json piles_json(std::span<const Pile> piles) {
  Json out = Json::array();
  for (const auto& pile : piles) out.push_back(pile_json(pile));
  return out;
}

void piles_from(const Json& json, std::span<Pile> piles, int seats, const char* what) {
  expect_size(json, piles.size(), what);
  for (std::size_t i = 0; i < piles.size(); ++i) piles[i] = pile_from(json[i], seats);
}

Json optional_owned_json(const std::optional<OwnedCard>& card) {
  return card ? Json{{"card", card_json(card->card)}, {"owner", card->owner}} : Json(nullptr);
}

std::optional<OwnedCard> optional_owned_from(const Json& json, int seats) {
  if (json.is_null()) return std::nullopt;
  return OwnedCard{card_from(member(json, "card")), owner_from(member(json, "owner"), seats)};
}

Json Reserve::snapshot() const {
  return {{"stock", pile_json(stock_)},
          {"stock_face_up", stock_face_up_},
          {"hand", pile_json(hand)},
          {"turned", optional_owned_json(turned)},
          {"discards", piles_json(discards)}};
}

void Reserve::restore(const Json& snapshot, int seats) {
  auto stock = pile_from(member(snapshot, "stock"), seats);
  const auto face_up = field<std::size_t>(snapshot, "stock_face_up");
  if (face_up > stock.size())
    throw SnapshotError("expected at most " + std::to_string(stock.size()) + " face-up cards on a stock of " +
                        std::to_string(stock.size()) + ", got " + std::to_string(face_up));
  piles_from(member(snapshot, "discards"), discards, seats, "discard piles");
  hand = pile_from(member(snapshot, "hand"), seats);
  turned = optional_owned_from(member(snapshot, "turned"), seats);
  stock_ = std::move(stock);
  stock_face_up_ = face_up;
}

}  // namespace parlour::rules::building
