// Carousel (source 002, the unnamed joker/knock game near the end of the rummy
// chapter; rules/rummy.md §3.6, examples E17–E18).
//
// 2–5 players. Two players: one 52-card pack and a joker; three to five: two
// packs and two jokers. Ten cards each, dealt one at a time from the dealer's
// left; the rest is the stock. No upcard and no discard pile at all. Values: ace
// 1, pips, faces 10, joker 25; a player's count is every card in his hand.
//
// The turn (carousel/turn.cpp, in place of the engine's draw and play stages):
// draw the stock top (mandatory), then lay out, knock (count ≤ 5), finish (only
// after a layout this turn) or draw again (only before any layout this turn); the
// same after the second draw; the third draw ends the turn at once (no melding,
// no knocking after it). A player may draw again although able to meld.
// Melds: runs of 3+ in one suit, ace low (option ace_high_runs, R-CA1: Q-K-A too,
// never K-A-2); groups of 3–4 of one rank with no suit twice. All table melds are
// common property: a `layout` states the complete new table (every table card
// stays, every meld valid, at least one card from the hand, jokers never leave
// the table and keep their declared card unless a natural card takes it over,
// R-CA7: a joker may be declared as a card already on the table). The natural
// card may come from the hand (exchange) or from another table meld (capture,
// source 002: "in exchange for a card already on the table"), and must join cards
// of the joker's old meld (rules/rummy.md §1.3).
// Knock: ends play at once, no lay-offs after it. A layout that empties the hand
// knocks by itself (R-CA2).
//
// Deal scoring (only winners score; the counts are the hands' full counts):
// - the knocker strictly lowest: he scores Σ (c_j − c_knocker), +25 if his hand
//   is empty;
// - otherwise the non-knockers with the lowest count (≤ the knocker's) each score
//   Σ over every other hand (c_j − c_low) + 10 for the undercut (R-CA6); the
//   knocker scores nothing;
// - the stock exhausted (its last card drawn, the drawer's turn going on without
//   further draws, and no knock): the final meld round (R-CA3), each player in
//   the deal once from the last drawer's left, the drawer last, may lay out (no
//   drawing, no knocking; an empty hand then only ends his chance); then the
//   lowest count wins Σ differences, each tied player what a sole winner would;
//   no bonuses.
// Game: after a deal in which someone reaches 150, the highest running score
// wins; an exact tie for it plays another deal. Settlement: the winner +100;
// every player +25 per deal won (each tied winner counts the deal as won); each
// pair of players settles the difference of these final scores × stake, the
// lower paying the higher; a player whose running score is 0 pays the winner
// double (others singly).
//
// Choices where rules/rummy.md is silent:
// - Turn time limit (R-CA4, option turn_time_limit_s, 0 = off): the rules layer
//   keeps no clock; it names the limit and the default action in turn_timer(),
//   and the server's table plays `{"type":"withdraw"}` for the player when his
//   turn (all its steps) outlasts the limit (never listed in `legal`). He takes no further turn this deal, cannot win (no undercut, not
//   the lowest count), and his hand still counts against the winner — but it is
//   never counted below the winner's (a difference from a withdrawn hand is at
//   least 0), so a withdrawn low hand cannot cost the winner points. If every
//   player withdraws the deal ends with no winner.
// - The last drawer's turn goes on after the stock runs out: he may lay out,
//   knock or finish (finish needs no layout then).
// - Termination: option `deals` (0: no limit) stops the game after that many
//   deals; in any case it stops after 200. Then the highest running score wins
//   (game bonus, double payments) if alone; if tied, nobody wins the game: no
//   game bonus, no double payment, the deal bonuses and differences settle.
// - `close` by the host mid-game: the deal in progress is abandoned (deals score
//   only when they end); what is settled so far is the running scores and the
//   deals won, so the final settlement is applied to them with no game bonus and
//   no double payment (nobody reached 150). After the game's end, close moves
//   nothing.
// - A player who leaves the table: the deal in progress is abandoned (the
//   engine's rule) and he is out of the game's settlement, as in Michigan.
// - The first dealer is drawn from the seed; the deal passes left.
//
// View (besides the engine's): `drawn` (cards drawn this turn), `draws_per_turn`,
// `melded_this_turn`, `knock_max`, `knocker` (null until a knock), `withdrawn`
// (seats), `final_round: {turns_left}` during the final meld round, `deals_won`,
// `target`, `turn_time_limit_s`. No `upcard` or `pile_size`: there is no pile.
// Result of a deal: `end` "knock" | "stock_exhausted" | "no_winner", `knocker`,
// `counts`, `winners`, `deal_points`, `bonuses` (per seat: undercut 10, going
// out 25), `deals_won`, `scores`; at the game's end also `game_winner` (null if
// none), `final_scores` and `settlement`: [{"from","to","points","chips","double"}].
#pragma once

#include <cstdint>
#include <vector>

#include "rules/registry.h"

namespace parlour::rules {

GameInfo carousel_info();

namespace carousel {

// One pairwise settlement line: `from` owes `to` this many points (×2 when doubled).
struct SettlementLine {
  int from = -1;
  int to = -1;
  std::int64_t points = 0;  // after doubling
  bool doubled = false;
};

// Final scores: running + 25 per deal won, + 100 for the game winner (-1: none).
std::vector<std::int64_t> final_scores(const std::vector<int>& running, const std::vector<int>& deals_won, int winner);

// Every pair of the `in` seats settles the difference of their final scores, the
// lower paying the higher; a seat whose running score is 0 pays the winner double.
std::vector<SettlementLine> settlement(const std::vector<std::int64_t>& finals, const std::vector<int>& running,
                                       int winner, const std::vector<bool>& in);

// The level-1 bot (bot.cpp): from the seat's view and legal list only.
Json carousel_bot(const Json& view, const Json& legal, Rng& rng);

}  // namespace carousel
}  // namespace parlour::rules
