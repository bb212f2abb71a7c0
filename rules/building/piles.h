// The shared mechanics of the building games (Russian Bank, Rabouge): cards that
// remember whose pack they came from, piles, the placement predicates of
// foundations, tableaux and loading, and a player's own cards (stock, hand,
// turned card, discard piles).
//
// Pure data and pure functions; each game keeps its own state and decides which
// predicate governs which pile.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "rules/cards.h"
#include "rules/game.h"

namespace parlour::rules::building {

// A card and the seat whose pack it belongs to. Russian Bank plays two packs
// told apart only by their backs, so a card's owner travels with it.
struct OwnedCard {
  Card card;
  int owner = -1;
  friend bool operator==(const OwnedCard&, const OwnedCard&) = default;
};

// Bottom first: back() is the top card, the only one that may move.
using Pile = std::vector<OwnedCard>;

std::optional<Card> top_card(const Pile& pile);
std::vector<Card> plain_cards(const Pile& pile);
Pile owned_by(int owner, const std::vector<Card>& cards);

// Snapshots (rules/snapshot.h) of the piles every building game holds, written
// once here: a pile as its cards and, beside them, each card's owner; an owner
// read back must be a seat of `seats` or -1 (a card of a written position that
// belongs to no one), else SnapshotError.
Json pile_json(const Pile& pile);
Pile pile_from(const Json& json, int seats);
// Piles of a fixed number (a layout, the bases, a player's discard piles): a
// snapshot with another number is refused; `what` names them in the message.
Json piles_json(std::span<const Pile> piles);
void piles_from(const Json& json, std::span<Pile> piles, int seats, const char* what);
Json optional_owned_json(const std::optional<OwnedCard>& card);
std::optional<OwnedCard> optional_owned_from(const Json& json, int seats);

// The next rank of a sequence that goes round the corner: 2 … K, A, 2 …
int next_rank_wrapping(int rank);

// A foundation built up in suit from the ace (Russian Bank's bases): an empty
// pile takes an ace, otherwise the same suit one rank higher.
bool builds_up_in_suit(Card card, const Pile& foundation);

// A centre pile built up by rank regardless of suit, round the corner, until it
// holds `full` cards (Rabouge). An empty pile takes nothing: new piles are started
// by the game's own rule.
bool builds_up_by_rank(Card card, const Pile& centre, std::size_t full);

// A tableau pile built down in alternating colour (Russian Bank's layout): an
// empty pile (a vacancy) takes any card, otherwise the opposite colour one rank
// lower.
bool builds_down_alternating(Card card, const Pile& tableau);

// Loading an opponent's pile: the same suit, one rank up or down, no wrap from
// king to ace. An empty pile takes nothing.
bool loads_in_suit(Card card, const Pile& target);

// One player's own cards. The stock lies face down but for a face-up run at its
// top: the card its owner turned up and any cards an opponent loaded onto it,
// each face up on the one beneath (Russian Bank §8.2, E17), so playing the top
// card off a loaded stock leaves the next loaded card face up. The hand is face
// down and turned one card at a time into `turned`; discards are face up.
// Russian Bank has one discard pile, Rabouge up to four (its supply is `hand`,
// its drawn card `turned`).
class Reserve {
 public:
  Pile hand;
  std::optional<OwnedCard> turned;
  std::vector<Pile> discards;

  // Read-only: every change goes through the members below, which keep the
  // count of face-up cards true.
  const Pile& stock() const { return stock_; }
  // Whether the stock's top card lies face up.
  bool stock_top_up() const { return stock_face_up_ > 0; }
  // How many cards at the top of the stock lie face up (0 to stock.size()).
  std::size_t stock_face_up() const { return stock_face_up_; }
  // The face-up run at the top of the stock, bottom first (the last is the top).
  Pile stock_shown() const;
  // The stock's top when it lies face up.
  std::optional<Card> stock_top() const;
  // Every card the player still has to get rid of.
  std::size_t cards_left() const;
  bool discards_empty() const;
  // Turns the stock's top card face up, if there is one and it lies face down.
  void turn_up_stock();
  // Lays the stock (a deal, a written position) with its top `face_up` cards
  // face up; throws std::invalid_argument for more than it holds.
  void set_stock(Pile cards, std::size_t face_up);
  // A card loaded onto the face-up stock top: it lies face up on it.
  void load_stock(OwnedCard card);
  // Takes the face-up stock top; the card beneath lies face up only if it was
  // face up already (loaded on, or the card a load went onto).
  OwnedCard take_stock_top();
  // Turns the hand's top card into `turned`. When the hand is spent, discard
  // pile 0 is first turned face down as the new hand, so that the card
  // discarded first is on top; returns whether that happened.
  bool turn_hand();

  // The whole reserve (rules/snapshot.h). restore() keeps the number of discard
  // piles the game gave this reserve and refuses a snapshot with another number,
  // or with more face-up stock cards than the stock holds (SnapshotError).
  Json snapshot() const;
  void restore(const Json& snapshot, int seats);

 private:
  Pile stock_;
  std::size_t stock_face_up_ = 0;
};

}  // namespace parlour::rules::building
