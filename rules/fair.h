// Provably fair deals (docs/playing.md "Provably fair deals"): before a deal's cards are
// shown the table publishes a commitment, the SHA-256 of the deal's seed
// material; when the table ends it reveals the seed, and anyone can recompute
// every commitment and re-shuffle every deal to check the cards that came out.
//
// The seed material of deal N of table T is the text
//   parlour-fair-1|T|N|SEED|SALT
// SEED the table's 64-bit seed in decimal, SALT the table's 128-bit random salt
// in hex (drawn when play starts; "" for tables started before salts were kept).
// Pure: the server, the `parlour verify` command and the tests share it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/cards.h"
#include "rules/game.h"

namespace parlour::rules::fair {

inline constexpr const char* scheme = "parlour-fair-1";

std::string seed_material(const std::string& table, int deal, std::uint64_t seed, const std::string& salt);
std::string commitment(const std::string& table, int deal, std::uint64_t seed, const std::string& salt);

// The stock of a Shoe's `shuffle`-th deal (1 for the first), top first: the
// deck the rules dealt that deal from, given the seed (and a stacked first deal).
std::vector<Card> shoe_deck(const PackSpec& pack, std::uint64_t seed, int shuffle,
                            const std::optional<std::vector<Card>>& stacked);

// Checks that the cards out of the stock when a deal starts are the top of its
// deck: every card each seat holds (from that seat's own view) and every card
// face up on the table (piles other than the stock, melds, the trick, from the
// spectator's view) must be among the deck's top D cards, D being the deck's
// size less the stock's count. Returns what does not match, or nothing.
std::optional<std::string> check_dealt(const std::vector<Card>& deck, const std::vector<nlohmann::json>& seat_views,
                                       const nlohmann::json& spectator_view);

}  // namespace parlour::rules::fair
