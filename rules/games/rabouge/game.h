// Rabouge's rules (rules/games/rabouge.h says what they are), cut by rule, one
// file each:
//   game.cpp      the GameState interface: who acts, apply's dispatch, a deal's
//                 start, a player leaving, the table closing, the snapshot; the
//                 registry entry
//   setup.cpp     §9.1–9.4 the deal, the lead and the opening turn's own rules
//                 (the starters, a first discard pile); a game set up at a position
//   moves.cpp     the centre piles, what may be taken from where and put where,
//                 and §9.4's compulsory order
//   playing.cpp   §9.4 moving a card, drawing, laying aside, passing; what
//                 follows by itself after each action; the turns
//   payments.cpp  §9.5 the marks paid in play: a rabouge claimed, a stock used up
//   end.cpp       §9.5 the win, the impasse and the end of a deal, with its result
//   view.cpp      what everyone sees
//   bot.cpp       the level-1 bot
// The piles' mechanics shared with Russian Bank are in rules/building/.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rules/action.h"
#include "rules/building/moves.h"
#include "rules/building/packs.h"
#include "rules/chip_book.h"
#include "rules/games/rabouge.h"

namespace parlour::rules::rabouge {

using building::OwnedCard;
using building::Pile;
using building::Placement;
using building::Priority;
using building::Reserve;
using building::Spot;
using building::Zone;

constexpr std::size_t pile_full = 13;  // a rabouge
constexpr int discard_slots = 4;
constexpr int first_opening_draws = 5;  // the starter and four more
constexpr int later_opening_draws = 4;
constexpr std::int64_t marks_per_stock_card = 2;

// An action of the player to move.
struct Move {
  enum class Kind { place, draw, pass };
  Kind kind = Kind::place;
  Placement placement;
  Card card;  // the card placed
};

inline bool places_from(const Move& m, Zone from) { return m.kind == Move::Kind::place && m.placement.from.zone == from; }
inline bool places_to(const Move& m, Zone to) { return m.kind == Move::Kind::place && m.placement.to.zone == to; }

// The move as an action of the legal list.
inline void write_action(JsonWriter& out, const Move& move) {
  switch (move.kind) {
    case Move::Kind::place: building::write_move_action(out, move.placement, move.card); return;
    case Move::Kind::draw: write_bare_action(out, "draw"); return;
    case Move::Kind::pass: write_bare_action(out, "pass"); return;
  }
  out.null();
}

inline const std::string rule_drawn_first = "the drawn card must be placed before anything else (§9.4)";
inline const std::string rule_opening_draws = "the opening turn draws its cards first, one at a time (§9.4)";
inline const std::string rule_drawn_fits = "a drawn card that fits a centre pile must be played there (§9.4)";
inline const std::string rule_stock_first =
    "the stock card fits a centre pile and must be played before a discard, because it counts double (§9.4)";
inline const std::string rule_centre_first = "every centre play comes before drawing or passing (§9.4)";

inline std::string rank_letter(int rank) { return std::string(1, to_string(Card{static_cast<std::uint8_t>(rank)})[0]); }

struct Player {
  Reserve cards;  // stock (top face up), supply as `hand`, the drawn card as `turned`, four discard slots
  bool opened = false;
  bool stock_paid = false;  // has been paid for exhausting his stock
  int rabouges = 0;
  bool left = false;

  // The player's whole state (rules/snapshot.h; game.cpp); restore() keeps the
  // four discard slots.
  Json snapshot() const;
  void restore(const Json& snapshot, int seats);
};

struct CentrePile {
  int id = 0;
  Pile cards;

  // A pile of play is never empty nor full (a full one leaves play): restore()
  // refuses one that is (game.cpp).
  Json snapshot() const;
  static CentrePile restore(const Json& snapshot, int seats);
};

class Rabouge final : public GameState {
 public:
  std::unique_ptr<GameState> clone() const override { return std::make_unique<Rabouge>(*this); }
  Rabouge(const Json& options, int players, std::uint64_t seed, std::optional<std::vector<Card>> stacked);
  Rabouge(const Json& options, int players, const Json& position);

  Phase phase() const override { return phase_; }

  std::vector<int> to_act() const override;
  void write_legal_actions(int seat, const Balances&, JsonWriter& out) const override;
  Effects apply(int seat, const Json& action, const Balances& balances) override;
  Effects start_next_deal(const Balances& balances) override;
  Effects seat_left(int seat, const Balances& balances) override;
  Effects close(const Balances&) override;
  void write_view(std::optional<int> viewer, JsonWriter& out) const override;
  Json result() const override { return result_; }
  int deals_played() const override { return deals_; }

  // Everything play changes (game.cpp); the options, the seed and the stacked
  // deck come from the setup the game is restored with.
  Json snapshot() const override;
  void restore(const Json& snapshot) override;

 private:
  // Refuses a restored state that later play would index out of range (game.cpp).
  void check_restored() const;

  int players() const { return static_cast<int>(players_.size()); }
  int seated() const;
  Reserve& mine() { return players_[mover_].cards; }
  const Reserve& mine() const { return players_[mover_].cards; }
  bool opening() const { return !players_[mover_].opened; }
  std::size_t stock_size() const { return static_cast<std::size_t>(7 * packs_ / players()); }

  // ------------------------------------------------------------ setup (setup.cpp)

  void deal();

  // The highest stock card leads, the ace low; ties go by the seed.
  int lead(Effects& fx) const;
  void set_up(const Json& position);
  void check_centre_pile(const Pile& pile) const;
  static void set_up_player(Player& player, const Json& json);

  // ------------------------------------------------------------ centre piles (moves.cpp)

  bool fits(Card card, const CentrePile& pile) const { return building::builds_up_by_rank(card, pile.cards, pile_full); }

  bool fits_any(std::optional<Card> card) const;
  const CentrePile* pile_with_id(int id) const;

  bool is_starter(Card card) const { return starter_rank_ && card.rank == *starter_rank_; }

  std::optional<Card> discard_top(int slot) const { return building::top_card(mine().discards[slot]); }

  bool any_centre_play() const;

  // ------------------------------------------------------------ legal moves (moves.cpp)

  // The mover's card at a source spot, if he may move it.
  std::optional<Card> card_at(const Spot& from) const;

  // Why the mover has no card to move at `from` (card_at found none).
  std::string source_fault(const Spot& from) const;

  // Whether `to` takes the card: a centre pile it fits, or (a drawn card after
  // the opening) one of the mover's discard slots.
  bool takes(const Spot& from, Card card, const Spot& to) const;

  // Why `to` does not take the card (takes() said no).
  std::string target_fault(const Spot& from, Card card, const Spot& to) const;
  std::string step_fault(Move::Kind kind) const;
  std::vector<Move> candidates() const;
  std::vector<Priority<Move>> priorities() const;

  std::vector<Move> legal_moves() const { return building::keep_compulsory(candidates(), priorities()); }

  Move parse_action(const Json& action, std::optional<Card>& named) const;

  // Throws unless the move is legal now; fills in the card a placement moves.
  void check(Move& move, std::optional<Card> named) const;

  // ------------------------------------------------------------ playing (playing.cpp, payments.cpp, setup.cpp)

  void perform(const Move& move, Effects& fx);
  void draw(Effects& fx);
  void lay_aside(int slot, Effects& fx);
  OwnedCard take(const Spot& from);
  void play_to_centre(const Placement& p, Effects& fx);
  void claim_rabouge(const CentrePile& pile, Effects& fx);
  void stock_used(Effects& fx);

  // Marks are paid in chips at the table's stake; the memo says so when a Mark is not one chip.
  void pay(int from, int to, std::int64_t marks, const std::string& memo, Effects& fx);
  static std::string marks_text(std::int64_t marks);
  std::vector<int> opponents() const;
  void new_pile(OwnedCard card, const std::string& from, Effects& fx);

  // The equal-rank rule (every r0 card of the mover starts a pile at once), then
  // the win, then the end of an opening turn with nothing left to play.
  void settle_automatic(Effects& fx);
  void lay_starters(Effects& fx);

  // Opening: a drawn card that fits nowhere starts a discard pile by itself.
  void start_discard_pile(Effects& fx);
  void pass(Effects& fx);
  void next_turn(Effects& fx);
  void begin_turn(int seat, Effects& fx);

  // ------------------------------------------------------------ the end (end.cpp)

  // Cards left, stock cards counting double: the impasse's tie-break.
  static std::int64_t weighted_cards(const Reserve& r);
  void impasse(Effects& fx);
  void finish(const std::string& end, const std::vector<int>& winners, Effects& fx);

  // ------------------------------------------------------------ view (view.cpp)

  std::string seat_status(int seat) const;
  void write_seat(JsonWriter& out, int seat) const;
  void write_piles(JsonWriter& out) const;
  const char* phase_name() const;

  const int packs_;
  const std::int64_t stake_;
  const std::int64_t win_stake_;
  const bool card_count_;
  const std::int64_t rabouge_stake_;
  const std::uint64_t seed_;
  const std::optional<std::vector<Card>> stacked_;
  Json position_;

  std::vector<Player> players_;
  std::vector<CentrePile> centre_;
  int next_pile_id_ = 0;
  std::optional<int> starter_rank_;
  int mover_ = 0;
  int draws_left_ = 0;           // cards the opening turn still draws
  int passes_ = 0;               // passes in a row, no card moved
  std::size_t aside_ = 0;        // set aside unseen when the packs do not share evenly
  std::size_t rabouge_cards_ = 0;  // cards of completed piles, out of play
  ChipBook book_;
  Phase phase_ = Phase::deal_over;
  int deals_ = 0;
  Json result_;
};

}  // namespace parlour::rules::rabouge
