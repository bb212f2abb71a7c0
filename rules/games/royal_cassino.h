// Royal Cassino (source 000 "ROYAL CASSINO", "ROYAL DRAW CASSINO", "ROYAL SPADE
// CASSINO"; rules/other.md §10) on the Cassino engine (rules/cassino/): standard
// Cassino with the court cards numbered J 11, Q 12, K 13 for building and
// capturing, builds up to 13. Options: `ace_high` (each ace 1 or 14), `special_pack`
// (60 cards: eleven and twelve spots "E"/"W", J 13, Q 14, K 15, ace 1 or 16),
// `draw` (Royal Draw Cassino), `spade` (Royal Spade Cassino: game 61, lurch),
// `partnership`, `sweeps`, `target`, `per_deal_game`, `stake`/`game_stake`, `deals`.
//
// Choices where the sources leave room (rules/other.md §10 and its [P] items):
// - The first dealer is drawn from the seed (rules/other.md §0) and the deal passes left; play starts at the
//   dealer's left.
// - Court cards pair like numerals (their values make pairing a sum of one card),
//   so the standard court-card pairing limit lapses. A maximal capture is never
//   required, and a card that could capture may be trailed.
// - A capture is any disjoint collection of same-rank cards, loose groups adding
//   up to the card's value and whole builds of that value; each ace in a sum is
//   counted 1 or high on its own. A build is simple (the card and loose cards
//   totalling the value), a raise (the card alone added to one simple build, by
//   anyone, owner included), or multiple (the card, alone or with loose cards,
//   totalling the value beside other loose groups and/or simple builds of it).
//   A raise never takes loose cards with it, and a multiple build never takes in
//   a raised build: the card's own group is made of loose cards only.
//   A multiple build is never changed again. The announced value fixes the aces.
// - The builder's duty: whoever owns a build (last made, raised or duplicated
//   it) may not trail, and no play may leave him without a card to take each
//   build he owns. So he can always play: capturing his build is always legal.
// - A sweep on the last play of a deal counts; the residue taken at the end is no
//   sweep. With no capture in a deal, the dealer takes the residue.
// - Scoring (§10.1; Spade §10.3): majorities go to the side with strictly most
//   (a tie scores nothing), which is 27+ of 52 or 31+ of 60 cards between two.
//   With the special pack Spade Cassino's spades are 15: A, 2 and J 2 each, the
//   other twelve 1 each (28 points a deal besides sweeps).
// - Count-out: cards, spades, Big Cassino, Little Cassino, the aces (spades,
//   hearts, diamonds, clubs), Spade Cassino's spade points (ace up to king), the
//   sweeps in the order made; the first side to reach the target wins and what
//   is left is not counted. `target` 0 means 21, or 61 with `spade`.
// - Chips: each loser pays the winner the difference in the counted points times
//   `stake` (or `game_stake` per game); Spade Cassino doubles it when the loser
//   has fewer than half the target (under 31 of 61: the lurch). In partnerships
//   each loser pays the opponent on his left. With `per_deal_game` each deal is a
//   game: every side pays each side that scored more the difference (per point),
//   or the side alone on top takes `game_stake` from each other player.
// - `deals` ends the table after that many deals; a game to the target cut short
//   so pays nothing, as when the host ends the table. A player leaving ends the
//   game unfinished: no chips move.
// - The special pack deals 7 rounds to two players; to three and four, full rounds
//   while cards last, then the rest one at a time, the few left over (fewer than
//   the players) face up to the table, and "last" is announced before that round.
// - Refused combinations: `per_deal_game` with a `target` or with `spade` (a game
//   to 61 with a lurch), `stake` other than 1 together with `game_stake`, and
//   `partnership` with other than four players.
#pragma once

#include "rules/registry.h"

namespace parlour::rules {

GameInfo royal_cassino_info();

}  // namespace parlour::rules
