// Scoring a Cassino deal (rules/other.md §10.1, §10.3, §10.4) and counting out
// at the target: the items are counted one by one in a fixed order and the first
// side to reach the target wins, whatever the rest of the count would give.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rules/cards.h"

namespace parlour::rules::cassino {

struct ScoringRules {
  bool spade = false;   // Spade Cassino: A♠ J♠ 2♠ 2 each, every other spade 1, no Little Cassino
  bool sweeps = true;   // a sweep scores 1
};

// What one side (a player, or a partnership) took in the deal.
struct SideTake {
  std::vector<Card> cards;  // captured, the residue included
  int sweeps = 0;
};

// One point-bearing item of the deal: "cards", "spades", "big_cassino",
// "little_cassino", "ace", "spade" (Spade Cassino's spade points) or "sweep".
struct ScoreItem {
  std::string item;
  int side = 0;
  int points = 0;
  std::optional<Card> card;  // the ace, cassino or spade scored
};

// The deal's items in count-out order: cards, spades, Big Cassino, Little
// Cassino, the aces (spades, hearts, diamonds, clubs), Spade Cassino's spade
// points (ace up to king), then the sweeps in the order they were made
// (`sweep_sides`: the side of each). A majority tied between sides scores nothing.
std::vector<ScoreItem> score_items(const std::vector<SideTake>& sides, const std::vector<int>& sweep_sides,
                                   const ScoringRules& rules);

// Each side's total of `items`.
std::vector<int> deal_points(const std::vector<ScoreItem>& items, std::size_t sides);

struct CountOut {
  std::vector<int> scores;    // as counted: items after the winner's are not counted
  std::optional<int> winner;  // the first side to reach the target
  std::size_t counted = 0;    // how many items were counted
};

CountOut count_out(std::vector<int> scores, const std::vector<ScoreItem>& items, int target);

}  // namespace parlour::rules::cassino
