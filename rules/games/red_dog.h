// Red Dog (source 000, "RED DOG"; rules/other.md §6): a betting game against a
// common pot. Each player in turn bets from one chip up to the whole pot that his
// hand holds a card of the same suit and higher rank than the next card turned
// from the stock.
//
// Choices where the sources leave room (rules/other.md §6 "Ambiguities", and GAMES.md):
// - Ranks are ace high. The pot is formed when play starts and again whenever it is
//   emptied ("all must contribute to a new pot"), and otherwise carries over between
//   deals; option `ante_per_deal` makes every deal also start with an ante.
// - There is no pass and no forfeit: every player in the deal bets at least 1. A
//   player with no chips left when his turn comes is skipped; one whose chips went
//   at another table since his turn began is offered only `skip` (rules/action.h).
// - A player takes part in a deal only if he can pay what he owes the pot (an
//   ante) and still bet a chip; a deal in which fewer than two can is not dealt:
//   the game is over and the pot is shared out (GAMES.md), so no deal is ever
//   dealt that nobody can bet in.
// - A winner shows the lowest card that beats the turned card; a loser's hand is
//   thrown in unshown. Turned cards stay face up for the rest of the deal.
// - Cards are dealt one at a time from the dealer's left; the first dealer is drawn from the seed and
//   the deal passes left.
// - A player who cannot pay an ante when a pot is formed sits out; he comes back
//   at the start of a later deal by paying the ante into the current pot.
// - A bet is capped by the pot (illegal_action above it) and by the bettor's
//   chips (insufficient_chips above them).
// - The game runs deal after deal until the host ends the table, option `deals`
//   is reached, or fewer than two players can take part; the pot left is then
//   shared out as GAMES.md says.
// - Players: 2–8 with five cards, 2–10 with four or three (GAMES.md caps at 10).
#pragma once

#include "rules/registry.h"

namespace parlour::rules {

GameInfo red_dog_info();

// The chance, from what the seat to act sees in `view` (its hand, the turned
// cards, the winners' shown cards), that its hand beats the next card turned.
// Its level-1 bot (red_dog_info().bot) stakes more the more this exceeds 1/2.
double red_dog_win_chance(const Json& view);

}  // namespace parlour::rules
