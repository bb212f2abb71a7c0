// The level-1 bot of every Rummy game: a careful player who reads only the seat's
// view (its hand, the table's melds, the visible discards, the view's "rules")
// and its legal list, never the game object.
//
// It judges a hand by its best arrangement (rules/rummy/arrangement.h): each
// unmatched card costs what it counts, less when live cards could still fill a
// combination with it (source 002's strategy notes: two-way combinations are
// worth more than one-way, dead fillers count for nothing), nothing when it lays
// off on a table meld. From that one measure it
//   - goes rummy or goes down whenever the legal list offers it (the best worth);
//   - takes the upcard (or a spread pile's cards) when that lowers the hand's cost
//     by more than a draw from the stock is worth: when it completes or nearly
//     completes a meld;
//   - melds and lays off what its best arrangement melds (never breaking a
//     better combination); in games that score melds, as soon as it can;
//   - discards the card whose loss costs least: the highest deadwood that is not
//     part of a near-meld;
//   - calls a discard it may lay off (option `call`); declines Block's upcard when
//     it does not help.
// Carousel's own turn (draws, layouts, knock) is rules/games/carousel/bot.cpp's.
#pragma once

#include <functional>
#include <vector>

#include "rules/bot.h"
#include "rules/rummy/meld.h"
#include "rules/rummy/values.h"

namespace parlour::rules::rummy {

// What a game adds to the shared bot where its scoring differs.
struct BotHooks {
  // The worth of a whole-hand arrangement's declarations (Rummy Poker's straight
  // and flush bonus); empty: every listed arrangement is worth the same.
  std::function<int(const std::vector<Meld>&)> arrangement_worth;
  // A stock draw is expected to lower a hand's cost by about this much: the
  // upcard is taken only when it does better.
  double draw_worth = 3.0;
};

// The shared bot with the default hooks.
Json rummy_bot(const Json& view, const Json& legal, Rng& rng);
// The shared bot with a game's hooks.
BotPolicy rummy_bot_with(BotHooks hooks);

// ---- pieces Carousel's bot shares

// What the seat sees, read from its view once per decision.
struct Seen {
  MeldRules melds;
  CardValues values;
  int decks = 1;
  int jokers = 0;
  bool lay_offs = true;       // the game lets a player lay off on table melds now
  bool going_out_only = false;  // melds go down only with the whole hand (going rummy, going down)
  bool melds_score = false;   // melds score as they are made (Michigan family, Five Hundred)
  int seat = -1;
  std::vector<Card> hand;
  std::vector<Meld> table;    // the table's melds, in the view's order (their ids)
  std::vector<Card> pile;     // the discard pile as far as it is seen, bottom first
  std::vector<Card> dead;     // every face-up card outside the hand: table melds, seen discards
  int stock = 0;
};

// Reads the view; never throws on a view the Rummy engine writes.
Seen read_seen(const Json& view);

// Past this many cards a hand's best arrangement takes too long to search move by
// move (it grows exponentially): the bots then play by quick rules of thumb.
inline constexpr std::size_t kBigHand = 20;
bool is_big_hand(const std::vector<Card>& hand);
// What keeping a card costs by a quick look at the hand: its value, less when
// another card of its rank or a near card of its suit is held; a wild nothing.
double loose_card_cost(Card card, const Seen& seen);

// How costly the hand is to hold: each card its best arrangement leaves unmatched
// counts its value, less for live combinations, nothing if it lays off.
double hand_cost(const std::vector<Card>& hand, const Seen& seen);

// The cards of an action ("cards", "card", a go_rummy/go_down/layout's melds),
// wild declarations ("JK=8H") read as the card itself.
std::vector<Card> action_cards(const Json& action, const char* field);

}  // namespace parlour::rules::rummy
