// Russian Bank's rules (rules/games/russian_bank.h says what they are), cut by
// rule, one file each:
//   game.cpp              the GameState interface: who acts, apply's dispatch, the
//                         deal's start, a player leaving, the table closing, the
//                         snapshot; the registry entry
//   setup.cpp             §8.1 the deal and who is player X; a game set up at a position
//   placements.cpp        the piles: what may be taken from where and put where (the
//                         form of the rules, refused in every stop mode), and moving a card
//   compulsory.cpp        §8.4 the compulsory order (P1–P4) and §8.5's demanded space;
//                         the mover's actions checked against them
//   stop_and_demands.cpp  the opponent: §8.6 calling stop, §8.5 demanding layout moves
//   turns_and_end.cpp     a turn's start, §8.7 the draws and the win, scoring in chips
//   view.cpp              what everyone sees (the same for both seats and spectators)
//   bot.cpp               the level-1 bot
// The piles' mechanics shared with Rabouge are in rules/building/.
#pragma once

#include <array>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rules/action.h"
#include "rules/building/moves.h"
#include "rules/building/packs.h"
#include "rules/building/shifts.h"
#include "rules/chip_book.h"
#include "rules/games/russian_bank.h"

namespace parlour::rules::russian_bank {

using building::OwnedCard;
using building::Pile;
using building::Placement;
using building::Priority;
using building::Reserve;
using building::Spot;
using building::Zone;

constexpr int players = 2;
constexpr int piles = 8;   // layout piles, and bases
constexpr int column = 4;  // layout cards each player deals
constexpr std::size_t stock_size = 12;
constexpr int layout_moves_per_turn = 64;
constexpr std::size_t demand_most_moves = 8;
constexpr int demand_search_depth = 3;
constexpr std::size_t demands_listed = 6;
constexpr int win_points = 30;

enum class StopRule { refuse, call };

// An action of the player to move.
struct Move {
  enum class Kind { place, turn_stock, turn_hand, end_turn };
  Kind kind = Kind::place;
  Placement placement;
  Card card;  // the card placed
};

inline bool places(const Move& m, Zone from, Zone to) {
  return m.kind == Move::Kind::place && m.placement.from.zone == from && m.placement.to.zone == to;
}
inline bool places_to(const Move& m, Zone to) { return m.kind == Move::Kind::place && m.placement.to.zone == to; }
// The turned card onto the mover's own discard pile (M12), not a load.
inline bool is_discard(const Move& m, int mover) {
  return places(m, Zone::turned, Zone::discard) && m.placement.to.index == mover;
}
inline bool ends_turn(const Move& m, int mover) { return is_discard(m, mover) || m.kind == Move::Kind::end_turn; }

// The move as an action of the legal list.
inline void write_action(JsonWriter& out, const Move& move) {
  switch (move.kind) {
    case Move::Kind::place: building::write_move_action(out, move.placement, move.card); return;
    case Move::Kind::turn_stock: write_bare_action(out, "turn_stock"); return;
    case Move::Kind::turn_hand: write_bare_action(out, "turn_hand"); return;
    case Move::Kind::end_turn: write_bare_action(out, "end_turn"); return;
  }
  out.null();
}

// The compulsory order of §8.4 (and §8.5's demanded space): what a refusal quotes.
inline const std::string rule_stock_first =
    "the stock card that fits a base goes there first (§8.4 P2: build from the stock before anything else)";
inline const std::string rule_base_first =
    "a centre play comes first (§8.4 P1: build on a base whenever possible, before playing on the layout, "
    "moving layout cards, loading or turning the hand)";
inline const std::string rule_demanded = "the space your opponent demanded must be filled from your stock (§8.5)";
inline const std::string rule_spaces =
    "every space in the layout must be filled before a hand card is turned up or the turn ends (§8.4 P3)";
inline const std::string rule_spaces_discard =
    "with the stock exhausted, every space in the layout must be filled before discarding (§8.4 P3)";
inline const std::string rule_hand_too_soon =
    "turn up your stock card before the hand (§8.4 P4: a hand card turned up too soon)";

// Why a placement breaks the form of the rules (refused in every stop mode).
enum class Fault {
  none,
  no_such_pile,
  empty_pile,
  stock_face_down,
  opponents_pile,
  from_discard,
  from_base,
  from_hand,
  onto_own_pile,
  onto_same_pile,
  base_mismatch,
  layout_mismatch,
  hand_into_space,
  load_mismatch,
  discard_not_turned,
  layout_limit,
};

// What a refusal for `fault` says (placements.cpp).
std::string fault_message(Fault fault, const Placement& p, std::optional<Card> card);

// The columns of layout cards each seat dealt, in deal order.
using Columns = std::array<std::array<Card, column>, players>;

// §8.1: the lowest card, then the next lowest; with equal ranks the earlier deal
// position of the equal cards, lowest rank first. -1 when still tied (setup.cpp).
int first_by_layout(const Columns& columns);

class RussianBank final : public GameState {
 public:
  std::unique_ptr<GameState> clone() const override { return std::make_unique<RussianBank>(*this); }
  explicit RussianBank(const GameSetup& setup);

  RussianBank(const Json& options, const Json& position) : RussianBank(options) { position_ = position; }

  Phase phase() const override { return phase_; }

  std::vector<int> to_act() const override;
  void write_legal_actions(int seat, const Balances&, JsonWriter& out) const override;
  Effects apply(int seat, const Json& action, const Balances& balances) override;
  Effects start_next_deal(const Balances& balances) override;
  Effects seat_left(int seat, const Balances&) override;
  Effects close(const Balances&) override;
  void write_view(std::optional<int> viewer, JsonWriter& out) const override;
  Json result() const override { return result_; }
  int deals_played() const override { return deals_; }

  // Everything play changes (game.cpp); the options, the seed and the stacked
  // deck come from the setup the game is restored with.
  Json snapshot() const override;
  void restore(const Json& snapshot) override;

 private:
  explicit RussianBank(const Json& options);

  int opponent() const { return 1 - mover_; }
  Reserve& mover_side() { return sides_[mover_]; }
  const Reserve& mover_side() const { return sides_[mover_]; }
  bool stop_callable() const { return stop_rule_ == StopRule::call && infraction_.has_value(); }

  // ------------------------------------------------------------ setup (setup.cpp)

  void deal(Effects& fx);
  void set_up(const Json& position);
  static void check_base(const Pile& base);

  // "stock_up": true (the default: the top card), false, or how many cards at
  // the top lie face up: the card the owner turned up and any loaded on it.
  void set_up_stock(int seat, Pile stock, const Json& up);

  // A stock holds its owner's cards as dealt, face down, but for the card he
  // turned up and, face up on it, each card loaded on the one beneath (same
  // suit, one rank up or down): the loads are what may come from either pack.
  static void check_stock_run(int seat, const Pile& stock, std::size_t face_up);
  void set_up_side(int seat, const Json& json);

  // ------------------------------------------------------------ the piles (placements.cpp)

  bool has_vacancy() const;

  // The base a card fits: a started base of its suit, or for an ace the first
  // empty one.
  std::optional<int> base_for(Card card) const;
  std::optional<int> first_empty_base() const;
  bool layout_fits_base(const building::Tableau& layout) const;
  bool any_base_play() const;

  static bool valid_seat(int index) { return index >= 0 && index < players; }
  static bool valid_pile(int index) { return index >= 0 && index < piles; }

  // The card at a source spot, if the mover may take it.
  Fault source_fault(const Spot& from) const;
  Card source_card(const Spot& from) const;
  Fault target_fault(const Spot& from, Card card, const Spot& to) const;
  Fault placement_fault(const Placement& p) const;

  // Why a turn_stock, turn_hand or end_turn cannot be made; empty if it can.
  std::string step_fault(Move::Kind kind) const;

  // ------------------------------------------------------------ legal moves (placements.cpp, compulsory.cpp)

  // Every move the form of the rules allows, in the listed order.
  std::vector<Move> candidates() const;

  // §8.4's compulsory order and §8.5's demanded space, as they stand now.
  std::vector<Priority<Move>> priorities() const;

  std::vector<Move> legal_moves() const { return building::keep_compulsory(candidates(), priorities()); }

  // ------------------------------------------------------------ the mover (compulsory.cpp, placements.cpp)

  // A move's card is filled in once its source is known to hold one.
  Move parse_mover_action(const std::string& type, const Json& action, std::optional<Card>& named) const;
  void apply_mover(const std::string& type, const Json& action, Effects& fx);
  void perform(const Move& move, Effects& fx);
  OwnedCard take(const Spot& from);

  // A load onto a stock lies face up on its face-up top (§8.2 load).
  void put(const Spot& to, const OwnedCard& card);
  void place(const Placement& p, Effects& fx);

  // ------------------------------------------------------------ the opponent (stop_and_demands.cpp)

  // Computed once per state (opponent_cache_); a reference, since to_act() asks
  // for it at every turn of play and needs no copy.
  const Json& opponent_actions() const;
  Json compute_opponent_actions() const;

  // The demand as listed: each step names the card it moves.
  Json demand_json(const std::vector<building::Shift>& shifts) const;

  bool demands_open() const { return !stop_callable() && !any_base_play() && layout_moves_ < layout_moves_per_turn; }

  // Whether `depth` layout moves could reach a demand's goal at all: a pile
  // short enough to be cleared, or a card that fits a base close enough to a top
  // (shifting cards never makes a card fit a base; only uncovering does). Spares
  // the search in most positions.
  bool demand_within_reach(int depth) const;

  // §8.5 (a) a new space for the face-up stock card, or (b) a layout card freed for a base.
  std::function<bool(const building::Tableau&)> demand_goal() const;
  void apply_opponent(const std::string& type, const Json& action, Effects& fx);
  void call_stop(Effects& fx);
  std::vector<building::MoveRequest> parse_demand(const Json& action) const;
  void demand(const Json& action, Effects& fx);

  // ------------------------------------------------------------ turns and the end (turns_and_end.cpp)

  void pass_turn(Effects& fx) { begin_turn(opponent(), fx); }

  void begin_turn(int seat, Effects& fx);
  std::uint64_t position_key() const;
  static int points_against(const Reserve& loser);
  void finish_won(int winner, Effects& fx);
  void finish_drawn(const std::string& reason, Effects& fx);
  void finish_unscored(const std::string& end, Effects& fx);
  void finish(const std::string& end, std::optional<int> winner, int points, const Json& draw_reason);

  // ------------------------------------------------------------ view (view.cpp)

  std::string seat_status(int seat) const;
  void write_seat(JsonWriter& out, int seat) const;
  void write_piles(JsonWriter& out) const;
  const char* phase_name() const;

  const StopRule stop_rule_;
  const std::int64_t stake_;
  const int max_turns_;
  std::uint64_t seed_ = 0;
  std::optional<std::vector<Card>> stacked_;
  Json position_;

  std::array<Reserve, players> sides_;
  building::Tableau layout_;
  std::array<Pile, piles> centre_;
  std::array<bool, players> left_ = {false, false};
  int first_ = 0;
  int mover_ = 0;
  int turn_number_ = 0;
  int layout_moves_ = 0;                    // layout-to-layout moves this turn
  std::optional<std::string> infraction_;   // the rule broken this turn (stop_rule call)
  bool demanded_fill_ = false;              // a demanded space awaits the stock
  std::array<int, players> recycles_ = {0, 0};  // discard piles turned over since the last base play
  std::map<std::uint64_t, int> positions_seen_;
  mutable std::optional<Json> opponent_cache_;

  ChipBook book_;
  Phase phase_ = Phase::deal_over;
  int deals_ = 0;
  Json result_;
};

}  // namespace parlour::rules::russian_bank
