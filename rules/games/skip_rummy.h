// Skip Rummy, source 002 "Skip Rummy"; rules/rummy.md §3.2, example E14.
//
// 2–6 players, one pack, five cards each dealt one at a time from the dealer's
// left, no upcard: the leader draws the stock top first; then each player draws
// the stock top or the upcard and discards one card. In a turn a player may make
// at most ONE play: a meld of exactly three cards (three of a rank, or three in
// sequence in a suit), or a lay-off of exactly one card on any exposed meld; never a
// set of four, two melds, two lay-offs, or a meld and a lay-off. If a three-card
// meld empties his hand he need not discard (R-K1: after either draw).
// Going rummy = emptying the hand (by meld, lay-off or the last discard; melds
// made on earlier turns count): 2 units from each player. When a turn ends with
// no more stock cards than players, the deal ends and the lowest unmatched count
// (the hand's best arrangement, R-K2) wins 1 unit from each player; ties (R-K3) go
// as in Straight Rummy with the player due to draw next as the breaker: he wins a
// tie, else the tied player nearest his left. Option `payoff=points`: each pays
// the difference of unmatched counts × stake (× 2 for rummy, the winner's count
// being 0). Skip has no break: that end's result says `end` "stock_ran_down". Values `basic`, ace low. R-G1 the single upcard taken may not be
// discarded that turn. `deals` deals (0: each player deals once).
#pragma once

#include "rules/registry.h"

namespace parlour::rules {

GameInfo skip_rummy_info();

}  // namespace parlour::rules
