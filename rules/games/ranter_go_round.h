// Ranter-Go-Round, or Chase the Ace (source 000, "RANTER-GO-ROUND"; rules/other.md
// §4): every player is dealt one card face down; in turn from the dealer's left each
// stands or exchanges his card with the player on his left, and the dealer may put
// his card back and draw another. The lowest card loses a counter into the pool; a
// player with no counters drops out, and the last one left takes the pool.
//
// Choices where the sources leave room (rules/other.md §4 "Ambiguities", and GAMES.md):
// - Ranks run K high down to A low; suits do not matter. A king dealt is turned face
//   up at once: its holder takes no turn and cannot be exchanged with, so the player
//   on his right is offered no exchange and keeps his card. Option `king_skip` makes
//   that exchange go to the next player on the left not holding a king instead (never
//   past the dealer). A king the dealer draws is simply kept and safe.
// - The dealer's turn is `stand` or `draw`: his card goes under the undealt stock and
//   he takes the top card. He does not exchange with the player on his left.
// - Each seat sees only the card it holds now, plus the kings turned up; all cards
//   are shown at the showdown.
// - Counters are backed by chips: a counter is worth `stake` chips, and a counter lost
//   is `stake` chips moved from the loser to the pool at the showdown. A player takes
//   part only if, when the game starts, his chips cover all his counters
//   (`counters` × `stake`); anyone else sits out the whole game, and the state says
//   so. If a player's chips have fallen below a stake when he loses a counter, he pays
//   what he has and the unpaid rest is named in the deal's result.
// - Among the players not holding a king, every holder of the lowest rank loses one
//   counter (ties all lose). If everyone holds a king nobody loses. If the showdown
//   would put out every player still in, nobody loses and the same dealer deals again.
// - Cards go one to each player from the dealer's left, ending with the dealer; the
//   first dealer is drawn from the seed (or the first seat taking part after him) and the deal passes to the
//   next player still in on the left.
// - The game ends when one player is left: he takes the whole pool. A player who
//   leaves the table drops out (his counters paid stay in the pool). Option `deals`
//   (0: no limit) ends the table after that many deals; a pool left then, or when the
//   host ends the table early, is shared out among the players seated last as GAMES.md
//   says.
// - Players: 2 to 30 (the source says "up to a few dozen").
#pragma once

#include "rules/registry.h"

namespace parlour::rules {

GameInfo ranter_go_round_info();

}  // namespace parlour::rules
