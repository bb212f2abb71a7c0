// Persian Rummy, once "five hundred joker rummy" (source 000 "PERSIAN RUMMY";
// rules/rummy.md §2.5): four players in two partnerships (seats 0+2 against 1+3),
// 52 cards and four jokers, seven cards each, the Five Hundred spread pile with its
// duty to meld the card taken. Each player scores his melded and laid-off cards
// less his hand; partners add their scores. A set of four melded intact counts
// double, and going out earns the side 25. After two or three deals the side
// ahead collects its margin.
//
// Choices (rules/rummy.md):
// - Values: ace 15 always, faces 10, pips, joker 20. The ace is high only:
//   A-K-Q is a run, A-2-3 is refused (ace_low_not_allowed).
// - Jokers are not wild: they meld only as a set of three or four jokers and lay
//   off only on such a set.
// - R-P1 "melded intact" = all four cards put down in one meld action (8-8-8-8 = 64);
//   a set of three completed by a lay-off is not doubled (24 + 8 = 32). Four jokers
//   melded at once are a set of four too: 160.
// - R-M2 the card taken from the pile must be used at once, the top card too
//   (option top_card_free); a take is listed only where such a use exists. R-G1 the
//   single top card just taken may not be discarded that turn.
// - Deal end: going out, or the end of the turn in which the last stock card was
//   drawn (as Five Hundred). Lay-offs on anyone's melds score for the player who
//   lays off.
// - Game: `deals` deals (2 or 3, default 2); then each player of the losing side
//   pays the margin × stake to the winning player seated at his left (team_diff);
//   equal totals move no chips. A player leaving ends the game (no chips move).
// - The first dealer is drawn from the seed; the deal passes left.
#pragma once

#include "rules/registry.h"

namespace parlour::rules {

GameInfo persian_rummy_info();

}  // namespace parlour::rules
