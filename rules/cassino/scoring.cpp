#include "rules/cassino/scoring.h"

#include <algorithm>

namespace parlour::rules::cassino {

namespace {

const Card big_cassino{10, Suit::diamonds};
const Card little_cassino{2, Suit::spades};

// The side with strictly more than every other, if any.
template <typename Count>
std::optional<int> strict_majority(const std::vector<SideTake>& sides, Count count) {
  std::optional<int> best;
  bool tied = false;
  for (int side = 0; side < static_cast<int>(sides.size()); ++side) {
    const int n = count(sides[side]);
    if (!best || n > count(sides[*best])) {
      best = side;
      tied = false;
    } else if (n == count(sides[*best])) {
      tied = true;
    }
  }
  if (tied) return std::nullopt;
  return best;
}

std::optional<int> holder(const std::vector<SideTake>& sides, Card card) {
  for (int side = 0; side < static_cast<int>(sides.size()); ++side)
    if (std::find(sides[side].cards.begin(), sides[side].cards.end(), card) != sides[side].cards.end()) return side;
  return std::nullopt;
}

int spades_in(const SideTake& take) {
  return static_cast<int>(
      std::count_if(take.cards.begin(), take.cards.end(), [](Card c) { return c.suit == Suit::spades; }));
}

void add_card_item(std::vector<ScoreItem>& items, const std::vector<SideTake>& sides, const char* name, Card card,
                   int points) {
  if (auto side = holder(sides, card)) items.push_back({name, *side, points, card});
}

// Spade ranks from the ace up, the special pack's eleven and twelve after the ten.
const std::vector<int>& spade_order() {
  static const std::vector<int> order = {ace, 2, 3, 4, 5, 6, 7, 8, 9, 10, eleven_spot, twelve_spot, jack, queen, king};
  return order;
}

}  // namespace

std::vector<ScoreItem> score_items(const std::vector<SideTake>& sides, const std::vector<int>& sweep_sides,
                                   const ScoringRules& rules) {
  std::vector<ScoreItem> items;
  if (auto side = strict_majority(sides, [](const SideTake& t) { return static_cast<int>(t.cards.size()); }))
    items.push_back({"cards", *side, 3, std::nullopt});
  if (auto side = strict_majority(sides, spades_in)) items.push_back({"spades", *side, 1, std::nullopt});
  add_card_item(items, sides, "big_cassino", big_cassino, 2);
  if (!rules.spade) add_card_item(items, sides, "little_cassino", little_cassino, 1);
  for (Suit suit : {Suit::spades, Suit::hearts, Suit::diamonds, Suit::clubs})
    add_card_item(items, sides, "ace", Card{ace, suit}, 1);
  if (rules.spade) {
    for (int rank : spade_order()) {
      const int points = rank == ace || rank == 2 || rank == jack ? 2 : 1;
      add_card_item(items, sides, "spade", Card{static_cast<std::uint8_t>(rank), Suit::spades}, points);
    }
  }
  if (rules.sweeps)
    for (int side : sweep_sides) items.push_back({"sweep", side, 1, std::nullopt});
  return items;
}

std::vector<int> deal_points(const std::vector<ScoreItem>& items, std::size_t sides) {
  std::vector<int> points(sides, 0);
  for (const auto& item : items) points[item.side] += item.points;
  return points;
}

CountOut count_out(std::vector<int> scores, const std::vector<ScoreItem>& items, int target) {
  CountOut out{std::move(scores), std::nullopt, 0};
  for (const auto& item : items) {
    out.scores[item.side] += item.points;
    ++out.counted;
    if (out.scores[item.side] >= target) {
      out.winner = item.side;
      break;
    }
  }
  return out;
}

}  // namespace parlour::rules::cassino
