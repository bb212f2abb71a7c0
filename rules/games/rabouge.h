// Rabouge (Rappuse, Rapuse, Grabuge …; source 001; rules/other.md §9, examples
// E20–E21): a race for two or more to get rid of one's reserve ("stock") and
// supply of riddance cards onto shared centre piles that run up by rank, suits
// ignored, round the corner, to thirteen cards: the player who lays the
// thirteenth card claims a rabouge.
//
// Setup (§9.1). With a pack each (option `packs` 0, the default, or equal to the
// players) every player's own pack is dealt: its top 7 cards are his stock, the
// first on top and turned face up, the rest his face-down supply, the 8th card on
// top. With more packs than players all packs are shuffled together and each
// player gets ⌊52·P/N⌋ cards in the same way, with a stock of ⌊7·P/N⌋ (the source's
// note: 12 packs for 6 players give 14, 9 packs give 10); the ⌊52·P/N⌋ rest is set
// aside unseen. The player whose stock shows the highest card leads (ace low
// here); ties are broken by the table's seed (logged). Play goes anticlockwise: to
// the next player to the right, i.e. to the previous seat number.
//
// A turn (§9.4).
// - Opening (each player's first turn): the first player draws 5 cards one at a
//   time, others 4. The first player's first card is the starter and fixes the
//   starter rank r0. A drawn card of rank r0 starts a new centre pile; one that fits
//   a pile must be played onto one (the player chooses which); any other starts a
//   new discard pile by itself. Then every centre play is made, and the turn ends
//   by itself when none is left.
// - Later turns: make every centre play; then `draw` the supply's top card: r0
//   starts a pile, a card that fits must be played, any other is placed on one of
//   the player's four discard piles (any pile, any card, or an empty slot), which
//   ends the turn. With the supply spent and no centre play, the player passes.
// - Always first (automatic): every r0 card on the mover's stock top, on his
//   discard tops or drawn from his supply starts a new centre pile at once. A used
//   stock card is replaced by the next, turned face up.
//
// Choices where the sources leave room (rules/other.md §9.6, decided here):
// - Two to eight players (GAMES.md). Centre plays are compulsory (§9.4 [P]) and
//   listed alone while any exists: the stock card first while it fits any pile
//   ("it counts double"), then discard tops in any order; a drawn card is placed
//   before anything else. Only one's own discard piles are used; they are never
//   turned over. The flags optionalCentrePlays and batchDraw4 are not offered.
// - A centre pile is complete at 13 cards (r0 up to the rank below r0, K→A→2);
//   its 13th card claims a rabouge for the player who lays it, and the pile leaves
//   play. There can be any number of piles, four per pack at most.
// - Payments, in chips of option `stake` per Mark: a player who plays his last
//   stock card is paid at once 2 Marks by each opponent for every card in that
//   opponent's stock (once; an empty stock pays nothing). Option `rabouge_stake`
//   (Marks, default 0): each opponent pays it to the claimer of every rabouge.
//   At the end each loser pays each winner option `win_stake` (Marks, default 0)
//   and, with option `card_count`, 2 Marks per card in his stock and 1 per card in
//   his supply and discard piles. A payer who has too little pays what he has; the
//   rest is named `unpaid` in the result.
// - End: the first player whose stock, supply and discard piles are all empty
//   wins at once. When every player still at the table passes in turn with no card
//   moved in between, it is an impasse: the most rabouges win; a tie goes to the
//   fewest cards left (stock cards counting double); still tied, the win is shared.
// - Termination: every action but a pass moves a card one step nearer the centre
//   (supply → drawn → discard → centre, stock → centre) and never back, and a full
//   round of passes is the impasse, so a game lasts at most about three actions per
//   card plus one round of passes; no further limit is needed.
// - A player who leaves takes no further turn and pays or receives nothing more;
//   his cards stay where they are. With fewer than two players left the game ends
//   unscored ("abandoned"); closing the table ends it unscored ("closed").
// - Views: every face-up card (centre piles, each player's stock top, drawn card
//   and discard piles in full) for everyone; counts only for stocks and supplies.
//   Nobody, the owner included, sees a stock below its top or a supply card.
//
// Actions, view and result: docs/protocol.md "Rabouge".
#pragma once

#include <memory>

#include "rules/registry.h"

namespace parlour::rules {

GameInfo rabouge_info();

// A game that starts at a given position (tests, lessons); docs/protocol.md
// "Rabouge" describes the position object. Throws SetupError for a position that
// cannot occur.
std::unique_ptr<GameState> rabouge_at(const Json& options, int players, const Json& position);

// The level-1 bot: the compulsory centre plays, drawing, and a drawn card laid
// where the card beneath will follow it (on a discard pile showing the next rank),
// else in an empty slot, else on the shortest pile. Reads only the view and `legal`.
Json rabouge_bot(const Json& view, const Json& legal, Rng& rng);

}  // namespace parlour::rules
