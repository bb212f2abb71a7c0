// The turn engine shared by every Rummy game (rules/rummy.md §1.6–1.9). A game is
// a RummyConfig (rules/rummy/config.h) plus the scoring and settlement hooks it
// overrides; a game with a turn of its own (Carousel) overrides the draw and play
// stages' Legal/Apply pairs. The engine is cut by rule, one file each:
//   turn.cpp         the stages of a deal, who acts, their dispatch; dealing; a turn's start;
//                    the play stage; leaving
//   draws.cpp        the draw stage: the stock top, the upcard, a spread pile
//   melding.cpp      melds, lay-offs, the wild that moves
//   layout.cpp       the whole table laid out anew (Carousel's `layout`)
//   going_out.cpp    discarding, going rummy, going down, a hand emptied
//   call_window.cpp  the other players' call on a discard that lays off
//   stock_end.cpp    every rule for a stock that runs out, and so a turn's end
//   deal_end.cpp     the end of a deal and its result
//   settlement.cpp   paying a deal's points in chips (rules/rummy/settlement.h)
//   view.cpp         what each seat sees
//   snapshot.cpp     the whole state as JSON and back (rules/snapshot.h)
//
// Actions (PROTOCOL.md `act`):
//   {"type":"draw","from":"stock"|"discard"}     the stock top, or the upcard
//                                                (upcard_then_one_more: after "discard", a second draw)
//   {"type":"take","depth":D}                    spread pile: the card D below the top and all above it
//   {"type":"take_all"}                          spread pile, Polish rule: the whole pile
//   {"type":"meld","cards":[…],"wilds"?:[…]}     a new meld from the hand (wilds: what the wild cards stand for)
//   {"type":"lay_off","meld":M,"cards":[…],"wilds"?:[…]}  cards from the hand onto table meld M (its index in
//                                                the view); wilds: what the wild cards laid off stand for
//   {"type":"lay_off","meld":M,"cards":[C],"shift":S}  shift_on_natural: natural C takes the place of the run's
//                                                wild standing for C; that wild now stands for S, at an end
//   {"type":"discard","card":C}                  ends the turn
//   {"type":"go_rummy","melds":[[…],…],"discard"?:C}  games that meld only by going rummy: the whole hand at once
//                                                (a wild may be written "JK=8H" to say what it stands for)
//   {"type":"call","meld":M} / {"type":"pass"}   the call window after a discard (option `call`)
//   {"type":"decline"}                           Block: decline the upcard once the stock is gone
//   {"type":"layout","melds":[["9H","JK=8H",…],…]}  games that rearrange: the whole new table at once
//   {"type":"go_down","melds":[["9H","2C=TH","JH"],…],"shown"?:C}  Java, Rummy Poker: at the start of a
//                                                turn, before drawing, the whole hand melded, or all but the
//                                                shown card (worth go_down_shown_max or less); ends the deal
// Carousel adds its own (rules/games/carousel/turn.cpp): knock, finish, withdraw.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rules/game.h"
#include "rules/registry.h"
#include "rules/rummy/arrangement.h"
#include "rules/rummy/config.h"
#include "rules/rummy/meld.h"
#include "rules/rummy/values.h"
#include "rules/shared_json.h"
#include "rules/shoe.h"
#include "rules/snapshot.h"

namespace parlour::rules::rummy {

class Settlement;

// How a deal ended, for the game's scoring.
struct DealEnd {
  // showdown: the break's showdown, or Skip's end when the stock falls to the players
  // knock: Carousel's knock (an empty hand knocks by itself)
  enum class Kind { went_out, no_winner, block_showdown, stock_exhausted, showdown, knock } kind = Kind::no_winner;
  int winner = -1;
  bool rummy = false;  // went out in one turn with no earlier meld or lay-off
  // Filled in by the engine:
  bool first_turn = false;  // the winner went out on his first turn (first pick) of the deal
  bool after_break = false; // the break had begun
  int breaker = -1;         // break/showdown: the breaker (Skip: the player due to draw next)
  int knocker = -1;         // Kind::knock: who knocked
};

// A meld on the table and who put each card there (Five Hundred credits lay-offs).
struct TableMeld {
  Meld meld;
  std::vector<int> placed_by;  // per card
  bool melded_intact = false;  // put down as one action (Persian's set of four)

  // The meld, its cards' placers and flag (snapshot.cpp). Reading one checks what
  // the engine later indexes by: a card list, a placer per card, seats in range.
  Json snapshot() const;
  static TableMeld restore(const Json& snapshot, int players);
};

class RummyBase : public GameState {
 public:
  RummyBase(const GameSetup& setup, RummyConfig config);

  Phase phase() const override;
  std::vector<int> to_act() const override;
  void write_legal_actions(int seat, const Balances& balances, JsonWriter& legal) const override;
  Effects apply(int seat, const Json& action, const Balances& balances) override;
  Effects start_next_deal(const Balances& balances) override;
  Effects seat_left(int seat, const Balances& balances) override;
  Effects close(const Balances& balances) override;
  void write_view(std::optional<int> viewer, JsonWriter& out) const override;
  Json result() const override { return result_.get(); }
  Json result_with_table_melds() const override;
  int deals_played() const override { return deals_; }
  std::optional<DeckSource> deck_source() const override { return shoe_.source(); }
  // Everything the engine holds that play changes (snapshot.cpp); the config and
  // the Shoe's pack come from the setup the game is restored with. A game with
  // state of its own overrides both, calls the base's and keeps its fields under
  // a key of its own ({"michigan": {...}}, {"java": {...}}).
  Json snapshot() const override;
  void restore(const Json& snapshot) override;
  // Running totals carried in from earlier play (a resumed table, lessons, tests).
  void set_scores(std::vector<int> totals) { scores_ = std::move(totals); }

  // Moves up to `amount` chips from `from` to `to`; what the payer cannot cover is
  // recorded in `summary["unpaid"]` (GAMES.md: never invented, never charged later).
  void pay(int from, int to, std::int64_t amount, const std::string& memo, Balances& chips, Effects& fx, Json& summary);
  int players() const { return static_cast<int>(hands_.size()); }
  int dealer() const { return dealer_; }
  // The seat is still playing: neither gone from the table nor eliminated.
  bool in_play(int seat) const { return !left_[seat] && !out_[seat]; }
  // The seats still playing, clockwise from the dealer's left: the only seats a
  // deal's settlement counts, pays or pays out to. A seat that has left holds no
  // cards; counted, he would be an empty hand that owes nothing and wins showdowns.
  std::vector<int> seats_in_play() const;

 protected:
  // The stages of a deal, each with one Legal/Apply pair (as OpenSpiel's
  // gin_rummy): draw (a turn's start), play (after the draw), call_window (the
  // others may call the discard), call_discard (the caller discards); then the
  // table's own stages between deals.
  enum class Stage { draw, play, call_window, call_discard, deal_over, game_over };

  // ---- the turn's two stages (draws.cpp; turn.cpp for play); a game with a turn
  // of its own (Carousel, rules/games/carousel/turn.cpp) overrides both pairs
  virtual void draw_legal_actions(int seat, JsonWriter& legal) const;
  virtual void apply_draw_action(int seat, const std::string& type, const Json& action, Balances& chips, Effects& fx);
  virtual void play_legal_actions(int seat, JsonWriter& legal) const;
  virtual void apply_play_action(int seat, const std::string& type, const Json& action, Balances& chips, Effects& fx);
  // A meld, lay-off or layout has emptied the seat's hand (going_out.cpp): he
  // goes out, or in the break his turn ends.
  virtual void on_hand_emptied(int seat, Balances& chips, Effects& fx);

  // ---- hooks a game overrides
  // Settles a finished deal: scores, chips (through pay()), and the result's summary.
  // The summary's `points` (filled by Settlement) are the points or units each seat
  // won or lost; a game that scores the deal otherwise writes its deal's points in
  // `deal_points`, and the result shows those as each seat's `points`.
  virtual void settle_deal(const DealEnd& end, Balances& chips, Effects& fx, Json& summary) = 0;
  // After settling: is the whole game over (targets, deal counts)?
  virtual bool game_finished() const;
  // Points a meld or lay-off scores when made (Michigan family); 0 elsewhere.
  virtual void on_meld_made(int seat, const TableMeld& meld, const std::vector<std::size_t>& new_cards, bool new_meld);
  // Members the game adds to every view, beside the engine's (view.cpp): written
  // into the view's object, which is open; none of the engine's names.
  virtual void write_extra_view(JsonWriter&) const {}
  // What the wild declarations of a whole-hand arrangement (go_rummy, go_down)
  // are worth to the player in the game's scoring (a bonus, a payoff): `legal`
  // lists one arrangement per different worth, so the server never picks a
  // declaration that costs the player. 0 where declarations change nothing.
  virtual int arrangement_worth(const std::vector<Meld>&) const { return 0; }

  // ---- for a game's own snapshot (snapshot.cpp)
  // The member `key`: one entry per seat, or SnapshotError.
  template <typename T>
  std::vector<T> seat_list_field(const Json& json, const char* key) const {
    expect_size(member(json, key), hands_.size(), key);
    return field<std::vector<T>>(json, key);
  }
  // The member `key`: a seat, or -1 (none) where `or_none`; else SnapshotError.
  int seat_field(const Json& json, const char* key, bool or_none = false) const;

  // ---- helpers for games
  int left_of(int seat) const { return (seat + 1) % players(); }
  const std::vector<Card>& hand(int seat) const { return hands_[seat]; }
  const std::vector<TableMeld>& table() const { return table_; }
  const RummyConfig& config() const { return config_; }
  int hand_count(int seat) const { return config_.values.of_cards(hands_[seat]); }
  // The count of the cards left unmatched by the hand's best arrangement.
  int unmatched_count(int seat) const;
  // The seat with the lowest count; ties go to the first in clockwise order from `first`.
  int lowest_from(const std::vector<int>& counts, int first) const;
  bool in_break() const { return in_break_; }
  // Counts every turn begun at this table: a new value means a new turn.
  std::int64_t turn_serial() const { return turns_begun_; }
  // Elimination (Java): the seat takes no further part: not dealt in, skipped,
  // never the dealer; it stays seated.
  void eliminate(int seat) { out_[seat] = true; }
  bool eliminated(int seat) const { return out_[seat]; }
  bool has_left(int seat) const { return left_[seat]; }
  // The seats in play with the highest running score (scores_), clockwise from the
  // dealer's left: the game's leaders when a game to a target ends.
  std::vector<int> top_scorers() const;
  // A game played to `target` points (Michigan, Five Hundred): once a leader has it,
  // or the deals are `capped`, the leaders collect the difference of scores from
  // every other seat in play; leaders tied at the target play another deal.
  // Returns whether the game is over.
  bool settle_game_to_target(int target, bool capped, Settlement& pay_out, Effects& fx);
  // As pay(), into one of the table's pools; returns what was paid.
  std::int64_t pay_into_pool(int from, const std::string& pool, std::int64_t amount, const std::string& memo,
                             Balances& chips, Effects& fx, Json& summary);

  // ---- for a game that runs its own turn (Carousel): the pieces its stages are built of
  // Moves the turn on to a stage: to play once the draw is done, as draws.cpp does for
  // the base's own draws (Carousel's final meld round starts each turn there too).
  void set_stage(Stage stage) { stage_ = stage; }
  int turn() const { return turn_; }  // whose turn it is
  bool stock_empty() const { return stock_.empty(); }
  // Moves the stock's top card into the seat's hand, counted as drawn this turn.
  void draw_from_stock(int seat);
  int drawn_this_turn() const { return drawn_this_turn_; }
  // Melds, lay-offs and layouts made this turn.
  int plays_this_turn() const { return plays_this_turn_; }
  // The seat's turn begins at the draw stage, with this turn's counts cleared (turn.cpp).
  void begin_turn(int seat, Effects& fx);
  // The deal is over: the game settles it and the engine writes the result (deal_end.cpp).
  void end_deal(const DealEnd& end, Balances& chips, Effects& fx);
  // The `layout` action (melding.rearrange) and a useful subset of layouts to list (layout.cpp).
  void apply_layout(int seat, const Json& action, Balances& chips, Effects& fx);
  void list_layouts(int seat, JsonWriter& legal) const;
  // StockEnd::final_meld_round (stock_end.cpp), asked as each turn ends: the first
  // begins the round once the stock is out, with `turns` turns to play; the second
  // counts a turn of the round as played and says whether it was the last.
  void begin_final_meld_round_once_stock_is_out(int turns, Effects& fx);
  bool final_meld_round_over(Effects& fx);
  bool in_final_meld_round() const { return final_round_; }
  int final_meld_turns_left() const { return final_turns_left_; }
  // The view (view.cpp) with the parts a game's table lacks left out: Carousel
  // has no discard pile.
  struct ViewParts {
    bool discard_pile = true;
  };
  // False where the melds belong to the whole table (Carousel: anyone may
  // rearrange them): the view then names no owner (null). result() still does,
  // as version 1's result schema has it (an integer); result_with_table_melds()
  // does not (the `table_melds` feature).
  virtual bool melds_have_owners() const { return true; }
  void write_view_of(std::optional<int> viewer, const ViewParts& parts, JsonWriter& out) const;

  std::vector<int> scores_;  // running points, where a game keeps them

 private:
  // What pay() and pay_into_pool() both do, through rules::pay_and_announce.
  std::int64_t pay_from_seat(int from, const Account& to, std::int64_t amount, const std::string& memo,
                             Balances& chips, Effects& fx, Json& summary);

  // turn.cpp
  void deal(Effects& fx);
  void next_turn(Effects& fx);  // the turn passes left of turn_
  int active_players() const;

  // draws.cpp
  void apply_draw(int seat, const Json& action, Effects& fx);
  void draw_upcard_then_one_more(int seat, const std::string& from, Effects& fx);
  void apply_take(int seat, const Json& action, Effects& fx);
  void apply_take_all(int seat, Effects& fx);
  void apply_decline(int seat, Balances& chips, Effects& fx);
  bool usable_take(int seat, std::size_t depth, bool must_use) const;
  // Polish: the whole pile recycles into a hand with no stock drawn, so a deal of
  // nothing but whole-pile takes would never end (R-G3): at most 2 × players a deal.
  int whole_pile_takes_max() const { return 2 * players(); }
  void take_stock_top(int seat);
  void list_draws(int seat, JsonWriter& legal) const;

  // melding.cpp (layout.cpp shares its checks)
  void apply_meld(int seat, const Json& action, Balances& chips, Effects& fx);
  void apply_lay_off(int seat, const Json& action, Balances& chips, Effects& fx);
  void apply_shift_lay_off(int seat, const Json& action, Balances& chips, Effects& fx);
  std::vector<Card> cards_from_hand(int seat, const Json& list, const char* field) const;
  std::string why_not_keep(int seat, const std::vector<Card>& remaining, const std::vector<Card>& played) const;
  void forget_upcard_if_played(const std::vector<Card>& played);
  std::vector<Card> hand_without(int seat, const std::vector<Card>& cards) const;
  void check_may_keep(int seat, const std::vector<Card>& cards) const;
  void check_must_use(const std::vector<Card>& used) const;
  void remove_from_hand(int seat, const std::vector<Card>& cards);
  // Every meld, lay-off and layout takes its cards from the hand this way: the
  // checks above (refusing the play), then out of the hand.
  void play_from_hand(int seat, const std::vector<Card>& cards);
  void list_melds_and_lay_offs(int seat, JsonWriter& legal) const;
  void list_lay_offs(const std::vector<Card>& singles, JsonWriter& legal) const;
  void list_shift_lay_offs(const std::vector<Card>& singles, JsonWriter& legal) const;

  // going_out.cpp
  void apply_discard(int seat, const Json& action, Balances& chips, Effects& fx);
  void apply_go_rummy(int seat, const Json& action, Balances& chips, Effects& fx);
  void apply_go_down(int seat, const Json& action, Balances& chips, Effects& fx);
  std::vector<Meld> melds_from_hand(const Json& action, const std::string& what, std::vector<Card>& hand) const;
  void put_down(int seat, std::vector<Meld> made);
  void after_hand_change(int seat, Balances& chips, Effects& fx);
  void check_break_discard(int seat) const;
  void list_discards(int seat, JsonWriter& legal) const;
  void list_go_rummy(int seat, JsonWriter& legal) const;
  void list_go_down(int seat, JsonWriter& legal) const;
  void write_go_down_meld(JsonWriter& legal, const Meld& meld) const;
  void write_go_rummy_meld(JsonWriter& legal, const Meld& meld) const;
  using MeldWriter = void (RummyBase::*)(JsonWriter&, const Meld&) const;
  void list_arrangements(JsonWriter& legal, const char* type, const std::vector<Meld>& melds, MeldWriter write_meld,
                         const char* kept_key, std::optional<Card> kept) const;
  // The arrangement, then one more for each other worth its wilds' declarations may have.
  std::vector<std::vector<Meld>> arrangements_by_worth(const std::vector<Meld>& melds) const;

  // call_window.cpp
  void open_call_window(int discarder, Effects& fx);
  void call_window_legal_actions(int seat, JsonWriter& legal) const;
  void apply_call_window_action(int seat, const std::string& type, const Json& action, Balances& chips, Effects& fx);
  void call_discard_legal_actions(int seat, JsonWriter& legal) const;
  void apply_call_discard_action(int seat, const std::string& type, const Json& action, Balances& chips, Effects& fx);
  void apply_call(int seat, const Json& action, Balances& chips, Effects& fx);
  void apply_pass(int seat, Balances& chips, Effects& fx);
  void resolve_call_window(Balances& chips, Effects& fx);

  // stock_end.cpp
  void note_turn_begun_for_stock();
  bool can_draw_from_stock() const;
  void prepare_stock_draw(Effects& fx);
  bool take_upcard_restocking(Effects& fx);
  bool upcard_restocks_pair() const;
  void after_draw_for_stock(Effects& fx);
  void finish_turn(Balances& chips, Effects& fx);
  void stock_down_to_players(Balances& chips, Effects& fx);
  void count_down_break(Balances& chips, Effects& fx);
  bool stock_is_dead() const;
  const char* showdown_end_name() const;
  void restock_for_draw(bool take_upcard, Effects& fx);
  bool reshuffle_except_top(Effects& fx);

  // snapshot.cpp
  void restore_call_window(const Json& snapshot);

  // view.cpp
  void write_seat(JsonWriter& out, int seat, std::optional<int> viewer, const std::vector<int>& acting) const;
  Json table_view() const;  // the result's melds

  RummyConfig config_;
  Shoe shoe_;
  Rng reshuffle_rng_;  // StockEnd::reshuffle_except_top
  std::vector<Card> stock_;  // top at the back
  std::vector<Card> pile_;   // discard pile, top at the back
  std::vector<std::vector<Card>> hands_;
  std::vector<TableMeld> table_;
  std::vector<bool> melded_this_deal_;
  std::vector<bool> melded_before_this_turn_;
  std::vector<bool> left_;
  std::vector<bool> out_;  // eliminated (Java)
  int dealer_ = 0;
  int deals_ = 0;
  int turn_ = 0;
  Stage stage_ = Stage::deal_over;
  int restocks_ = 0;
  int whole_pile_takes_ = 0;  // Polish take_all this deal
  bool stock_gone_ = false;     // Block/end_deal: the stock has run out this deal
  int turns_after_stock_ = 0;
  std::optional<Card> taken_upcard_;     // the single upcard taken this turn (R-G1)
  std::optional<Card> must_use_;         // Michigan: the card that must be melded now
  int drawn_this_turn_ = 0;              // cards drawn so far this turn (upcard_then_one_more, Carousel)
  int plays_this_turn_ = 0;              // melds, lay-offs and layouts this turn (Skip, Carousel)
  std::vector<int> turns_taken_;         // per seat, this deal
  std::int64_t turns_begun_ = 0;         // every turn of every deal
  bool in_break_ = false;                // Straight family: the break has begun
  int breaker_ = -1;
  int break_turns_left_ = 0;
  bool final_round_ = false;             // StockEnd::final_meld_round has begun
  int final_turns_left_ = 0;
  std::vector<int> call_order_;          // call window: seats from the discarder's left
  std::vector<int> call_answer_;         // 0 waiting, 1 call, -1 pass, per entry of call_order_
  std::vector<int> call_meld_;
  int discarder_ = -1;    // whose discard the call window is about
  int caller_ = -1;       // the winning caller, who must now discard
  int resume_from_ = -1;  // play resumes at this seat's left
  SharedJson result_;  // the last deal's, set whole at its end
};

// The view's "rules" (view.cpp): the meld rules, card values, pack and melding
// rules of the game as configured, public knowledge at the table.
void write_rules_view(JsonWriter& out, const RummyConfig& config);

// Options every Rummy game shares, and the check for player counts by pack size.
std::vector<OptionSpec> common_rummy_options();

}  // namespace parlour::rules::rummy
