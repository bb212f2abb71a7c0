// The shared core of the trick-taking games (Reversi, Rams, Rounce): the rank
// order of a game, the cards a player may play to a trick under the game's
// duties (follow suit, trump when void, head the trick when able), the winner of
// a trick, and dealing hands in packets.
//
// Pure functions over plain data; the games keep their own state.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rules/cards.h"
#include "rules/game.h"
#include "rules/shoe.h"
#include "rules/chip_book.h"

namespace parlour::rules::tricks {

// How a game orders the ranks within a suit.
enum class RankOrder {
  ace_high,  // A K Q J 10 9 ... 2 (Reversi, Rounce, Rams' modern ranking)
  rams_old,  // K Q J A 10 9 8 7 (Rams' old ranking)
};

// Higher is better; only meaningful between cards of one suit.
int rank_value(Card card, RankOrder order);

struct TrickRules {
  RankOrder order = RankOrder::ace_high;
  std::optional<Suit> trump;  // none in Reversi
  bool must_follow = true;    // play the suit led when able
  bool must_trump = false;    // void in the suit led: play a trump when able
  bool must_head = false;     // play a card that beats the trick's winning card when able
};

struct Play {
  int seat = -1;
  Card card;
};

using Trick = std::vector<Play>;  // in play order; the first is the lead

// Does `card` beat `best` in a trick led with `led`?
bool beats(Card card, Card best, Suit led, const TrickRules& rules);
// Index into the trick of the card winning it so far; the trick is non-empty.
std::size_t winning_index(const Trick& trick, const TrickRules& rules);
// The cards of `hand` that may be played to `trick` (any card when leading).
std::vector<Card> legal_cards(const std::vector<Card>& hand, const Trick& trick, const TrickRules& rules);

// Deals hands in packets round the table: in every round each hand in order
// receives sizes[round][hand] cards from the top of the stock.
std::vector<std::vector<Card>> deal_in_packets(Stock& stock, const std::vector<std::vector<int>>& sizes);

void remove_card(std::vector<Card>& hand, Card card);  // the card must be held
bool holds_suit(const std::vector<Card>& hand, Suit suit);

// Snapshots (rules/snapshot.h) of the state the trick games share. A trick as
// [[seat, card], ...]; read back, every seat must be one of the table's `players`
// (the winner's seat indexes the games' seats).
Json trick_snapshot(const Trick& trick);

// A trick's plays as views show them: [{"seat","card"}] in play order.
void write_plays(JsonWriter& out, const Trick& trick);
Trick trick_restore(const Json& snapshot, int players);


}  // namespace parlour::rules::tricks
