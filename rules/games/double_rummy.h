// Double Rummy (source 002 "Double Rummy"; rules/rummy.md §3.7, example E19): Straight
// Rummy (rules/games/straight_rummy.h: rummy-only, the break, 1/2/4 units or
// payoff=points) with two packs and two jokers.
//
// 2–6 players, the best game four to six (R-D1: the source's "best game is four to
// six players" is advice; the base game takes two to six). 104 cards + 2 jokers,
// ten cards each, dealt one at a time from the dealer's left; no upcard unless
// option `initial_upcard`; the leader draws the stock top first.
//
// Melds: runs of 3+ in one suit with the ace low or high (A-2-3 and Q-K-A, never
// K-A-2); groups of 3+ cards of one rank, any suits, the same card twice allowed,
// no maximum. Jokers are wild, at least one natural card in every meld; the owner
// declares what a joker stands for when he melds it: in `go_rummy` as "JK=8H" in
// the meld's list, in the break's `meld` with `wilds` and its `lay_off` with
// `wilds` (undeclared, the server picks a fitting card: a gap, else above the run,
// else below). `legal` lists a joker's lay-off on a run once for each end, and a
// rummy whose jokers can make one run of one suit (4 units) with that declaration.
//
// Jokers move, never return (engine policy shift_on_natural): during the break a
// natural card equal to what a run's joker stands for is laid off in its place,
// and the joker moves to an end of the run that can extend, re-declared as the
// player chooses: `{"type":"lay_off","meld":M,"cards":["8H"],"shift":"TH"}`
// (9H JK=8H 7H + 8H -> 7H 8H 9H JK=TH, or with "shift":"6H" JK=6H 7H 8H 9H);
// `legal` lists each end that can take it. A joker may move any number of times
// (R-D2: not Bicycle's "only once"). No action ever takes a joker back into a hand
// (no recapture). Lay-offs happen only in the break (no table melds exist before).
//
// Values at the settlement (payoff=points and the counts in the result): joker in
// the hand 15, ace 11, faces 10, pips their value. Payoffs, the break, the
// showdown and its ties are Straight Rummy's. R-S4 (4 units for rummy "in a
// sequence of the same suit") counts a joker as the card it stands for, and a
// Q-K-A run as a sequence.
//
// Choices where rules/rummy.md is silent:
// - "either end" is taken literally: both ends of the run the natural completes,
//   where the ace rule lets it extend; so JK=2C 3C 4C + 2C offers 5C (the source's
//   "moved to the other end as a five") and also AC (A-2-3-4);
// - a shift lay-off moves exactly one natural card (several shifts are several
//   lay-offs); a natural that does not stand for a joker lays off as usual;
// - a joker in a group (set) never moves: groups take any card of their rank, so
//   the natural is simply laid off beside it;
// - R-S2 in the break treats a joker like any card: a hand holding a joker and a
//   card it can meld with holds a meld, which must go down before the discard.
#pragma once

#include "rules/registry.h"

namespace parlour::rules {

GameInfo double_rummy_info();

}  // namespace parlour::rules
