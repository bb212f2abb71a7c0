#include "rules/cards.h"

#include <algorithm>

namespace parlour::rules {

namespace {
constexpr std::string_view rank_letters = "?A23456789TJQKEW";
constexpr std::string_view suit_letters = "SHDC";
}  // namespace

bool holds(const std::vector<Card>& cards, Card card) {
  return std::find(cards.begin(), cards.end(), card) != cards.end();
}

char suit_letter(Suit suit) { return suit_letters[static_cast<int>(suit)]; }

std::string to_string(Card card) {
  if (card.is_joker()) return "JK";
  return std::string{rank_letters[card.rank], suit_letter(card.suit)};
}

std::string card_words(Card card) {
  if (card.is_joker()) return "joker";
  static constexpr const char* ranks[] = {"", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "11", "12"};
  static constexpr const char* suits[] = {"♠", "♥", "♦", "♣"};
  return std::string(ranks[card.rank]) + suits[static_cast<int>(card.suit)];
}

std::optional<Card> parse_card(std::string_view text, Ranks ranks) {
  if (text == "JK") return Card::joker();
  if (text.size() != 2) return std::nullopt;
  auto rank = rank_letters.find(text[0]);
  auto suit = suit_letters.find(text[1]);
  if (rank == std::string_view::npos || rank == 0 || suit == std::string_view::npos) return std::nullopt;
  if (rank > king && ranks != Ranks::with_eleven_twelve) return std::nullopt;
  return Card{static_cast<std::uint8_t>(rank), static_cast<Suit>(suit)};
}

std::vector<std::string> to_strings(const std::vector<Card>& cards) {
  std::vector<std::string> out;
  out.reserve(cards.size());
  for (auto card : cards) out.push_back(to_string(card));
  return out;
}

int ace_high_value(Card card) {
  if (card.is_joker()) return 0;
  return card.rank == ace ? 14 : card.rank;
}

std::vector<Card> make_pack(const PackSpec& spec) {
  std::vector<Card> pack;
  for (int deck = 0; deck < spec.decks; ++deck) {
    for (int suit = 0; suit < 4; ++suit) {
      for (int rank = 1; rank <= 13; ++rank) {
        if (spec.short_pack && rank != ace && rank < 7) continue;
        pack.push_back(Card{static_cast<std::uint8_t>(rank), static_cast<Suit>(suit)});
      }
      if (spec.eleven_twelve_spots) {
        pack.push_back(Card{static_cast<std::uint8_t>(eleven_spot), static_cast<Suit>(suit)});
        pack.push_back(Card{static_cast<std::uint8_t>(twelve_spot), static_cast<Suit>(suit)});
      }
    }
  }
  for (int j = 0; j < spec.jokers; ++j) pack.push_back(Card::joker());
  return pack;
}

}  // namespace parlour::rules
