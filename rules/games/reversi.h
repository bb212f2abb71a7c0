// Reversi (source 000, "REVERSI"; rules/other.md §7): the forerunner of Hearts in
// which every trick taken counts against the taker, unless one player takes them
// all. Played as Foster's Hearts with tricks for hearts: 52 cards, ace high, no
// trumps, follow suit, the highest card of the suit led wins.
//
// Choices where the sources leave room (rules/other.md §7 and GAMES.md):
// - 3–6 players. Cards removed: 2♠ for three, 2♠ and 2♣ for five, all four 2s for
//   six (17, 13, 10 or 8 cards each). Removed cards are skipped when dealing, so a
//   stacked deck may hold them anywhere.
// - Cards are dealt one at a time from the dealer's left; the dealer's left leads
//   to the first trick, the winner of each trick leads the next; the first dealer
//   is drawn from the seed and the deal passes left. No passing of cards.
// - Sweepstake settlement, in chips of `stake` (default 1) per unit:
//   every player pays one unit into the pool ("pool") per trick taken; if one or
//   more players took no trick, they share the whole pool equally (odd chips stay
//   in the pool); if everyone took a trick the pool is a jack and carries over.
//   A player who takes all the tricks ("reversis") pays nothing, receives from
//   every opponent one unit per trick of the deal, and takes the whole pool.
// - The points alternative of other.md (to 100) is not offered: GAMES.md has the
//   game run deal after deal with option `deals` (0 = no limit).
// - Payments never overdraw a seat: a player who owes more than he has pays what
//   he has, and the rest is named under "unpaid" in the deal's result.
// - A player who leaves in the middle of a deal has his hand played out by the
//   table's bot and leaves at the next deal (the server's rule for every game,
//   docs/protocol.md "Leaving in the middle of a deal"), so the deal stands. A
//   seat that leaves the game mid-deal all the same (seat_left) voids it: the
//   cards are thrown in and nobody pays. Fewer than three players left ends
//   the game. The pool left at the end is shared out as GAMES.md says.
// - Views show one's own hand, the counts of the other hands, the trick on the
//   table, the last trick and the tricks taken; the cards played are public.
#pragma once

#include "rules/registry.h"

namespace parlour::rules {

GameInfo reversi_info();

}  // namespace parlour::rules
