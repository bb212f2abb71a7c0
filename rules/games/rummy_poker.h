// Rummy Poker, source 002 "Rummy Poker" (a variation of Java Rummy);
// rules/rummy.md §3.9, example E20.
//
// As Java Rummy (rules/games/java_rummy.h: going down before the draw, no
// installments, the turn otherwise a draw and a discard, the deal ending when the
// stock falls to the number of players) except: two packs and four jokers (108
// cards), deuces and jokers wild; ten cards each; go down with all ten, or nine
// with the tenth shown worth 3 or less (so only a three: the ace counts 10,
// values `poker10`); sets of 3–8 (two packs: the same card twice allowed), runs
// of 3+ in a suit, ace low; no elimination. 2–6 players.
//
// Bonuses for the deal winner, judged on his melded cards (R-RP2), a wild taking
// the card it stands for: one straight (all distinct consecutive ranks, any suits,
// ace low) +25; all one suit (flush) +25; both (straight flush) +50, not more.
// Declare the wilds ("2C=9H") to make them count as the cards you want; `legal`
// lists each go-down once more for every other bonus its wilds' declarations can
// make (e.g. a joker as 9H in 9H 9H JK beside a heart flush).
//
// Option `scoring`:
// - `positive` (default, R-RP1): the deal winner scores the other players' unmatched
//   counts (best arrangement, wilds used) minus his own shown card, plus bonuses
//   (a deal score may be negative). The break scores nothing. The first to reach
//   100 wins the game and collects (his score − each other's) × `stake` from each.
// - `penalty`: Java's scoring (losers add their counts, a nine-card winner adds his
//   shown card, a ten-card winner subtracts 25) with the bonuses subtracted; the
//   break adds everyone's count. The game ends when anyone reaches 100; the lowest
//   total wins and collects (each other's total − his) × `stake`; ties for lowest
//   share what each pays (odd chips from the dealer's left, R-G4).
// Choices: option `deals` (0: play to 100; N: stop after N deals at the latest)
// and a safety cap of 200 deals; when either ends the game the leader (highest
// score in `positive`, lowest in `penalty`) collects the differences, ties sharing
// them. A player leaving abandons the deal in progress (no points) and pays
// nothing; the game goes on while two players remain. `close` by the host settles
// nothing: there is no pool, and running scores are paid only when the game ends.
// The first dealer is drawn from the seed.
//
// View: `scores`, `target` (100), `scoring`. Result: `counts`, `deal_points` per seat,
// `scores`, `bonus` (the winner's, 0/25/50) and `shown` with a go-down, and when
// the game ends `game_winners` (`seats[].chips`: the final settlement).
#pragma once

#include "rules/registry.h"

namespace parlour::rules {

GameInfo rummy_poker_info();

}  // namespace parlour::rules
