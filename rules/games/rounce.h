// Rounce (source 000, "ROUNCE"; rules/other.md §3): Rams modernized, 3–9 players
// with 52 cards ranked A K Q ... 2. "In all other respects, play is the same" as
// Rams: same engine (rules/tricks/pool_trick.h) and the same choices as documented
// in rules/games/rams.h, except:
// - A widow of six, dealt as an extra hand after the dealer's (two then four, or
//   three then three with option `packets` "3-2"). Whoever takes the widow must
//   then "discard" one of his six cards face down (dead) before anyone else acts;
//   the dealer's exchange for the turned trump comes after that.
// - No General.
// - Play: the first player who declared play leads any card; players must follow
//   suit when able (other.md §3 [P]), otherwise play any card: no duty to head the
//   trick or to trump. The winner of the first trick must lead a trump to the
//   second if he holds one at that moment; no other lead is constrained.
// - Chips exactly as in Rams: the dealer's 5, P0/5 per trick, 5 into the next
//   pool from each active player without a trick, 5 from the forced player to the
//   dealer.
#pragma once

#include "rules/registry.h"

namespace parlour::rules {

GameInfo rounce_info();

}  // namespace parlour::rules
