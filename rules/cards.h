// Cards and packs in the notation of PROTOCOL.md: two characters, rank then suit
// ("TH" is the ten of hearts), "JK" a joker, "??" a card the viewer may not see.
// The special 60-card Cassino pack (Royal Cassino) adds eleven- and twelve-spot
// cards, written "E" and "W" ("ES" the eleven of spades, "WH" the twelve of
// hearts); only that pack holds them, and parse_card reads them only when asked.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parlour::rules {

enum class Suit : std::uint8_t { spades = 0, hearts = 1, diamonds = 2, clubs = 3 };

// Rank numbers follow the cards' printed values: ace 1, jack 11, queen 12, king 13.
// How a game orders them (ace high or low) is the game's business.
inline constexpr int ace = 1;
inline constexpr int jack = 11;
inline constexpr int queen = 12;
inline constexpr int king = 13;
// Rank codes of the special Cassino pack's eleven- and twelve-spot cards. They
// are codes, not values: 11 and 12 are the jack and the queen.
inline constexpr int eleven_spot = 14;
inline constexpr int twelve_spot = 15;

struct Card {
  std::uint8_t rank = 0;  // 1..13 (14, 15: the special pack's eleven and twelve); 0 for a joker
  Suit suit = Suit::spades;

  static Card joker() { return Card{0, Suit::spades}; }
  bool is_joker() const { return rank == 0; }
  bool is_red() const { return !is_joker() && (suit == Suit::hearts || suit == Suit::diamonds); }
  friend bool operator==(const Card&, const Card&) = default;
};

std::string to_string(Card card);
// The card as people write it, for ledger memos: "7♥", "10♦", "A♠", "joker"
// (the special pack's eleven- and twelve-spots "11♠", "12♥").
std::string card_words(Card card);
char suit_letter(Suit suit);
// Which ranks a game's cards can have: every game but one uses the standard
// ranks, and must refuse "ES" or "WH" as it refuses any other non-card.
enum class Ranks { standard, with_eleven_twelve };

// Parses "AS", "TH", "JK" (and "ES", "WH" with Ranks::with_eleven_twelve);
// nullopt for anything else (including "??").
std::optional<Card> parse_card(std::string_view text, Ranks ranks = Ranks::standard);
std::vector<std::string> to_strings(const std::vector<Card>& cards);

// Whether `cards` hold `card` (any copy of it).
bool holds(const std::vector<Card>& cards, Card card);

// Ace-high order value: 2..14. Jokers are 0.
int ace_high_value(Card card);

struct PackSpec {
  bool short_pack = false;  // 32 cards, seven to ace, instead of 52
  int jokers = 0;           // jokers per whole pack (not per deck)
  int decks = 1;
  bool eleven_twelve_spots = false;  // the special 60-card Cassino pack
};

// A new pack in a fixed order: decks one after another, each by suit S H D C and
// rank ace, 2..king (short packs: ace, 7..king; the special Cassino pack: then the
// eleven- and twelve-spot cards), then the jokers.
std::vector<Card> make_pack(const PackSpec& spec);

}  // namespace parlour::rules
