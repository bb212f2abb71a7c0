// Russian Bank (source 000 "RUSSIAN BANK"; rules/other.md §8, examples E16–E19):
// double solitaire for two, each with a pack of his own. Both race to get rid of
// their twelve-card stock, their hand and their discard pile onto the eight bases
// in the centre (aces up, in suit), onto the eight layout piles (down, alternating
// colour) and onto the opponent's stock and discard pile ("loading": same suit,
// one up or down).
//
// Setup (§8.1). Each seat deals from its own pack 12 stock cards face down, a
// column of 4 layout cards face up (seat 0's are layout:0–3, seat 1's layout:4–7,
// in deal order, the first nearest its dealer) and keeps 36 as its face-down hand.
// Player X, who moves first, is the seat whose lowest layout card is lower (ace
// low), then the next lowest, and so on; with four equal ranks, the seat that
// dealt the equal cards earlier in its column (lowest rank first); still tied, the
// table's seed decides (logged). Every stock's top starts face down.
//
// A turn (§8.3). The player to move ("mover") may: play the face-up stock top, the
// turned hand card or a layout top onto a base, a layout pile or the opponent's
// face-up stock top or discard pile; turn up his stock top (one card, only while
// it lies face down); turn up the next hand card (the spent hand is first
// replaced by the discard pile turned face down, the first discard on top); put
// the turned card on his own discard pile, which ends the turn; or, with no hand,
// discard or turned card left, end the turn (M13). Never: taking from a discard
// pile, a base, the opponent's stock, hand or turned card, or putting cards on
// one's own stock. A card loaded on a stock lies face up on the card it was
// loaded on, so playing it off leaves that card face up again: a stock loaded
// several deep is played off card by card, a card that fits a base going there
// first (§8.4 P2), and only the card dealt beneath the run is turned up.
//
// Choices where the sources leave room (rules/other.md §8.8, decided here):
// - Compulsory order (§8.4), checked before every action, in this order: P2 a
//   face-up stock card that fits a base goes there before anything else; P1 while
//   any base play exists (stock top, turned card, layout tops) only base plays and
//   turning the stock are allowed; §8.5 a demanded space is filled from the stock;
//   P3 while a space exists the hand is not turned (stock left) or the turned card
//   not discarded (stock exhausted); P4 the hand is not turned while the stock top
//   lies face down. Hand and layout cards for the same base: the player chooses.
//   A usable turned card may be discarded once the duties are met (mustUseHandCard
//   is not offered). A turned card fills a space only when the stock is exhausted
//   (handFillsSpaces: the source's rule, always on).
// - `legal` lists every move, in a stable order (placements by source: stock,
//   turned card, layout 0–7; by target: bases, layout, the opponent's stock and
//   discard, one's own discard; then turn_stock, turn_hand, end_turn), except that
//   an ace is listed only to the first empty base: all empty bases are alike and
//   any of them is accepted.
// - Option `stop_rule` (§8.6): `refuse` (default) refuses an out-of-order move
//   with the rule it breaks. `call` accepts it and opens a stop window for the
//   rest of that turn: the opponent is then in `to_act` with `stop` as his only
//   action. A stop ends the mover's turn at once: his turned card goes to his
//   discard pile, a face-up stock card that fits a base is played there (the
//   "required play"), his next stock card is turned up (every turn ends with the
//   stock top face up), and the opponent's turn begins. An out-of-order discard
//   or end_turn is refused in both modes: it would end the turn itself, so no
//   stop could answer it. Moves that break the form of the rules (wrong suit or
//   colour, from a discard pile, …) are refused in both modes. Not offered: the
//   `off` leniency and `stopUndo`.
// - Demands (§8.5): while no base play is due and no stop can be called, the
//   opponent may send {"type":"demand","moves":[…]} with 1–8 layout-to-layout
//   moves, each valid when made, after which either (a) a space exists that did
//   not, while the mover's stock top lies face up, or (b) a layout top fits a
//   base. The moves are made as the mover's; after (a) the mover must fill a
//   space from his stock (turning it up first if need be) before anything but a
//   base play. `legal` lists the demands found with at most 3 moves (at most 6 of
//   them, shortest first; any other valid demand is accepted), and the opponent is
//   in `to_act` only while he has a listed action.
// - Ending (§8.7): a player wins the instant his stock, hand, turned card and
//   discard pile are all empty, and scores 30 + 2 per card in the opponent's
//   stock + 1 per card in the opponent's hand, discard pile and turned card,
//   paid in chips at option `stake` per point (a loser who has less pays what he
//   has; the rest is named `unpaid` in the result). The game is a draw, scoring
//   nothing, when at the start of a turn (1) the same complete position occurs for
//   the third time, (2) each player has turned his discard pile into his hand
//   twice since the last base play, or (3) the turn would exceed option
//   `max_turns` (default 600). Drawing by agreement is not offered (the host may
//   end the table). One game per table.
// - Termination: the only moves that can repeat within a turn are layout-to-layout
//   moves (every other move takes a card from the mover's own piles or the layout
//   for good, or turns one over), and at most 64 of them are allowed per turn,
//   demanded ones included; `max_turns` bounds the game.
// - A player leaving, or the table closing, ends the game unscored ("abandoned",
//   "closed").
// - Views are the same for both seats and spectators: everything face up (the
//   layout, the bases, both discard piles in full, the turned cards, each stock's
//   face-up run: the card turned up and any loaded on it) and counts for the
//   rest; the hands and the stock cards below the face-up run are never shown,
//   even to their owner. Piles carry "owners" / "top_owner" (whose
//   pack each shown card is from).
//
// Actions, view and result: docs/protocol.md "Russian Bank".
#pragma once

#include <memory>

#include "rules/registry.h"

namespace parlour::rules {

GameInfo russian_bank_info();

// A game that starts at a given position instead of a deal (tests, lessons);
// docs/protocol.md "Russian Bank" describes the position object. `options` are
// validated as for a table. Throws SetupError for a position that cannot occur.
std::unique_ptr<GameState> russian_bank_at(const Json& options, const Json& position);

// The level-1 bot: every compulsory move, then base plays, turning the stock,
// loads, stock and hand cards onto the layout, layout moves that open a space,
// and discarding; it calls stop whenever it can. Reads only the view and `legal`.
Json russian_bank_bot(const Json& view, const Json& legal, Rng& rng);

}  // namespace parlour::rules
