// Rummy (source 000 "RUMMY" and its "Simple variants"; rules/rummy.md §2.1–2.2):
// 2–6 players, 10, 7 or 6 cards, melding as you go, lay-offs on any meld; the
// player who goes out collects the count of every opponent's hand, double for
// going rummy. The eight special rules are options that combine as the source
// says; `create` refuses the contradictory pairs.
//
// Choices (rules/rummy.md): R-G1 the upcard just taken may not be discarded
// (option no_discard_taken_upcard); R-G2 one settlement per deal, `deals` deals
// (0: each player deals once); R-G3 the pile is turned over at most
// `max_restocks` times, after which the deal ends with no winner; R-R1 lay-offs on
// any meld; the first dealer is drawn from the seed. Block: R-B1 play after the stock ends after
// 2 × players turns; R-G4 split ties, odd chips clockwise from the dealer's left.
// Boathouse: R-BH1 paid double (option boathouse_single_pay), R-BH2 final discard
// optional, R-BH3 with the stock gone the upcard is still taken: the rest of the
// pile is turned over as the stock and its top card drawn with it. Wild Card: R-W1 a meld needs a natural card; option `jokers` adds
// jokers as extra deuces. Call: the nearest caller to the discarder's left wins.
#pragma once

#include "rules/registry.h"

namespace parlour::rules {

GameInfo rummy_info();

}  // namespace parlour::rules
