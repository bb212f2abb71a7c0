// What a Rummy game tells the shared engine (rules/rummy/rummy_base.h), grouped
// by the part of the rules each setting belongs to, every default here: a game
// is one RummyConfig plus the scoring hooks it overrides. The defaults are 000
// Rummy's (rules/rummy.md §2.1): seven cards, an upcard, draw from the stock or
// take the upcard, meld and lay off as you go, discard, the pile turned over
// once when the stock runs out.
#pragma once

#include <cstdint>

#include "rules/cards.h"
#include "rules/rummy/meld.h"
#include "rules/rummy/values.h"

namespace parlour::rules::rummy {

// Dealing (rules/rummy.md §1.6).
struct DealRules {
  PackSpec pack;       // one 52-card pack
  int hand_size = 7;
  bool upcard = true;  // turn the top of the stock to start the discard pile
};

// Drawing (draws.cpp): the stock top, or what a game lets a player take from the pile.
struct DrawRules {
  bool spread_pile = false;      // Michigan family: any card of the pile with all above it
  bool must_use_taken = false;   // Michigan family: the deepest card taken is melded at once
  bool top_card_free = false;    // Michigan option: the top card alone carries no duty
  bool take_whole_pile = false;  // Polish Rummy
  bool boathouse = false;        // the upcard only together with the stock top
  bool boathouse_two_discards = false;  // Boathouse: the two top discards may be taken
  // Round-the-Corner: the draw is the stock top alone, or the upcard and then one
  // more card (the stock top or the new upcard) before the player may play.
  bool upcard_then_one_more = false;
};

// Melding and laying off (melding.cpp, going_out.cpp).
struct MeldingRules {
  bool rummy_only = false;  // no meld before going rummy with the whole hand
  // Skip: at most this many melds/lay-offs a turn (0: any), a meld of exactly
  // this many cards (0: any), a lay-off of at most this many cards (0: any).
  int max_plays_per_turn = 0;
  int meld_cards_exact = 0;
  int lay_off_cards_max = 0;
  // Wild policy shift_on_natural (Double Rummy, rules/rummy.md §1.3): a natural card
  // equal to what a run's wild stands for is laid off in its place, and the wild
  // moves to an end of the run that can extend, re-declared by the player
  // (`lay_off` with "shift"); a wild never returns to a hand.
  bool shift_on_natural = false;
  bool rearrange = false;  // Carousel: one `layout` action lays out the whole table anew
  // Java, Rummy Poker: melds are made only by going down (`go_down`) at the start
  // of a turn before drawing: the whole hand, or all but one card shown that
  // counts at most `go_down_shown_max` (-1: never); it ends the deal with no draw
  // and no discard. Otherwise the turn is a draw then a discard (set rummy_only too).
  bool go_down = false;
  int go_down_shown_max = -1;
};

// Discarding and going out (going_out.cpp, call_window.cpp).
struct DiscardRules {
  bool no_discard_taken_upcard = true;  // R-G1: not the single upcard taken this turn
  bool final_discard_required = false;  // Block: going out ends with a discard
  bool needs_earlier_meld = false;      // Two-Meld: no going out without an earlier turn's meld
  bool call = false;  // on a discard that lays off, another player may call "Rummy!" and lay it off
};

// What happens when the stock runs out (stock_end.cpp holds every variant).
enum class StockEnd {
  turn_over,     // 000 Rummy: take the upcard and turn the rest, or turn the whole pile and draw
  end_deal,      // Five Hundred, Persian: the deal ends once the last stock card is drawn
  discard_only,  // Block: draw only the upcard until someone declines
  // 002 Straight family: once a turn ends with no more stock cards than players,
  // the break: the next player (the breaker) and each other in turn play one last
  // turn (stock top, or the upcard only to meld it at once; put down every meld,
  // lay off on any meld, discard), then the showdown of unmatched counts.
  break_at_players,
  end_at_players,  // Skip: once a turn ends with no more stock cards than players, the deal ends
  // Round-the-Corner: as soon as the stock is empty, the discard pile but its top
  // card is shuffled (seeded) into a new stock, at most `max_restocks` times; when
  // that cap is reached, or the pile holds too few cards to restock, the deal is
  // void (DealEnd::Kind::no_winner) at the end of the turn.
  reshuffle_except_top,
  // Carousel (R-CA3): once the last stock card is drawn and its drawer ends his
  // turn without knocking, each player in turn (from the drawer's left, the
  // drawer last) has one more chance to lay out, with no drawing and no knocking.
  final_meld_round,
};

struct StockRules {
  StockEnd end = StockEnd::turn_over;
  int max_restocks = 1;       // R-G3: turn_over and reshuffle_except_top
  int after_stock_turns = 0;  // discard_only, R-B1: the turns played after the stock (0: 2 × players)
};

// Scores and chips.
struct ScoringRules {
  std::int64_t stake = 1;  // chips per point (or per unit)
  int deals = 0;           // 0: each player deals once
  // The game keeps a running score per seat (Michigan family, Java, Rummy Poker,
  // Carousel): shown as `scores` in the view and the results. Games that settle
  // every deal in chips keep none and show none.
  bool running_scores = false;
};

struct RummyConfig {
  DealRules deal;
  MeldRules melds;    // what a meld is (rules/rummy/meld.h)
  CardValues values;  // what the cards count (rules/rummy/values.h)
  DrawRules draw;
  MeldingRules melding;
  DiscardRules discard;
  StockRules stock;
  ScoringRules scoring;
};

}  // namespace parlour::rules::rummy
