// Where deals come from: a fresh pack shuffled from the table's seed for every
// deal, or, for the first deal only, a deck stacked by the host (tests, lessons).
#pragma once

#include <optional>
#include <vector>

#include "rules/cards.h"
#include "rules/game.h"
#include "rules/rng.h"

namespace parlour::rules {

// A deal's stock: cards are drawn from the top.
class Stock {
 public:
  Stock() = default;
  explicit Stock(std::vector<Card> top_first) : cards_(std::move(top_first)) {}

  bool empty() const { return top_ == cards_.size(); }
  std::size_t size() const { return cards_.size() - top_; }
  Card draw();  // throws std::logic_error when empty: a game that draws blindly is a bug
  std::vector<Card> draw(std::size_t count);
  // What is left, top first.
  std::vector<Card> cards_left() const { return {cards_.begin() + static_cast<std::ptrdiff_t>(top_), cards_.end()}; }

  // The cards left, top first (rules/snapshot.h).
  Json snapshot() const;
  static Stock restore(const Json& snapshot);

 private:
  std::vector<Card> cards_;
  std::size_t top_ = 0;
};

class Shoe {
 public:
  // A stacked deck must be drawn from the pack (no card more often than the pack
  // has it); the cards it leaves out follow it in shuffled order. Throws SetupError.
  Shoe(PackSpec spec, std::uint64_t seed, std::optional<std::vector<Card>> stacked);

  Stock next_deal();
  int deals_dealt() const { return deals_; }
  // The pack it shuffles and the deals shuffled so far (rules/fair.h re-shuffles them).
  DeckSource source() const { return DeckSource{spec_, deals_}; }

  // The rng and the deals dealt (rules/snapshot.h); restore() into a shoe made
  // for the same table (the pack and the stacked deck come from its setup).
  Json snapshot() const;
  void restore(const Json& snapshot);

 private:
  PackSpec spec_;
  Rng rng_;
  std::optional<std::vector<Card>> stacked_;
  int deals_ = 0;
};

}  // namespace parlour::rules
