// Lists of cards as the Rummy engine's actions carry them and its log lines and
// listings write them: shared by the engine's files and the games that extend
// its turn (Carousel).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rules/game.h"
#include "rules/rummy/meld.h"

namespace parlour::rules::rummy {

// A non-empty JSON array of cards named `field` in the action; throws illegal_action.
std::vector<Card> read_cards(const Json& list, const char* field);

inline Json card_list(const std::vector<Card>& cards) { return to_strings(cards); }

// Each card once, in first-seen order.
std::vector<Card> distinct(const std::vector<Card>& cards);

// Melds as a log shows them: "5H 6H 7H; 9C 9D JK=9S".
std::string melds_text(const std::vector<Meld>& melds);

// One meld written as a list of cards, a wild as "JK=8H" to say what it stands
// for (every wild of the meld declared, or none: the server then chooses).
MeldSpec read_meld_spec(const Json& list, const MeldRules& rules, const std::string& what);

// A meld as the wire writes it ("9H", "JK=8H"), straight into JSON.
Json meld_json(const Meld& meld);
void write_meld(JsonWriter& out, const Meld& meld);

// {"type":"draw","from":F}, written into a legal list.
void list_draw(JsonWriter& legal, std::string_view from);

}  // namespace parlour::rules::rummy
