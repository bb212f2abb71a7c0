// Red and Black (source 000, the second "RED AND BLACK"; rules/other.md §5): each
// player but the dealer names red or black and a bet; each is dealt five cards face
// up; the dealer, who banks, pays if most of the five are the named colour and
// collects otherwise, double either way when all five are one colour.
//
// Choices where the sources leave room (rules/other.md §5 "Ambiguities", and GAMES.md):
// - The dealer banks and does not bet. Bettors act clockwise from the dealer's left.
//   By default every bettor names his colour and bet first, then the cards are dealt
//   one at a time round the bettors from the dealer's left and every bet is settled
//   (Gibson's order). Option `sequential` deals each bettor his five cards and settles
//   him as soon as he has bet, before the next one bets (Bicycle's order).
// - A bet is 1 chip up to the least of: the table limit (option `limit`, 0: none;
//   above it illegal_action), the bettor's chips (above them insufficient_chips), and
//   the bank's cover (above it illegal_action): the dealer's chips must cover twice
//   every bet accepted and not yet settled, so later bettors are capped first. There
//   is no pass; a bettor who cannot bet 1 chip (no chips, or the bank is exhausted) is
//   skipped, and the state says so. When that comes about between two calls (his or
//   the banker's chips went at another table since his turn began), `legal` offers
//   him only `skip` (rules/action.h), which skips him the same way.
// - A bettor need only hold his bet. If he loses double and cannot pay all of it, he
//   pays what he has and the unpaid rest is named in the deal's result (GAMES.md).
//   Option `cover_double` instead caps a bet at half the bettor's chips.
// - All cards are face up and all bets public: every seat and spectator sees the same.
// - The pack is reshuffled for every deal. The first dealer (drawn from the seed) banks first; the bank passes left
//   every deal (option `bank_passes`; off, it stays with the same player while he can
//   bank). A player whose chips cannot cover a 1-chip bet doubled (fewer than 2) does
//   not take the bank; it goes on to the next player on the left.
// - No pool: every chip moves between a bettor and the dealer.
// - A bettor who leaves before his cards are dealt withdraws his bet; if the dealer
//   leaves, the bets not yet settled are void and the deal ends.
// - The game runs deal after deal until the host ends the table, option `deals` is
//   reached, or no one can bank or bet.
// - Players: 2–10 (the dealer and up to nine bettors; 45 cards at most).
#pragma once

#include "rules/registry.h"

namespace parlour::rules {

GameInfo red_and_black_info();

// What a bet on `red` (else black) is worth per chip bet, from the cards the
// view shows dealt this round (the rest are in the stock, each as likely):
// zero when no card is seen. Its level-1 bot (red_and_black_info().bot) names
// the colour worth more and stakes by the edge.
double red_and_black_edge(const Json& view, bool red);

}  // namespace parlour::rules
