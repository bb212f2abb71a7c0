// Carousel's game object (rules/games/carousel.h says the rules): the shared Rummy
// engine with a turn of its own (turn.cpp) — the engine's draw and play stages
// replaced by the draw-meld cycle — and its scoring (carousel.cpp).
#pragma once

#include <vector>

#include "rules/games/carousel.h"
#include "rules/rummy/rummy_base.h"

namespace parlour::rules::carousel {

inline constexpr int kTarget = 150;
inline constexpr int kMaxDeals = 200;  // every game ends, whatever the cards do
inline constexpr int kUndercut = 10;
inline constexpr int kGoingOut = 25;
inline constexpr int kDrawsPerTurn = 3;  // the third draw ends the turn
inline constexpr int kKnockMax = 5;      // knock with a count of at most this

class Carousel final : public rummy::RummyBase {
 public:
  std::unique_ptr<GameState> clone() const override { return std::make_unique<Carousel>(*this); }
  explicit Carousel(const GameSetup& setup);

  Effects start_next_deal(const Balances& balances) override;
  Effects close(const Balances& balances) override;
  Json result() const override { return closed_result_.is_null() ? RummyBase::result() : closed_result_; }
  void write_view(std::optional<int> viewer, JsonWriter& out) const override;
  std::optional<TurnTimer> turn_timer() const override;
  // The engine's state, and this game's under "carousel" (carousel.cpp).
  Json snapshot() const override;
  void restore(const Json& snapshot) override;

 private:
  // ---- the turn (turn.cpp): DRAW1 → options → DRAW2 → options → DRAW3 ends it
  void draw_legal_actions(int seat, JsonWriter& legal) const override;
  void apply_draw_action(int seat, const std::string& type, const Json& action, Balances& chips,
                         Effects& fx) override;
  void play_legal_actions(int seat, JsonWriter& legal) const override;
  void apply_play_action(int seat, const std::string& type, const Json& action, Balances& chips,
                         Effects& fx) override;
  void on_hand_emptied(int seat, Balances& chips, Effects& fx) override;
  void draw(int seat, const Json& action, Balances& chips, Effects& fx);
  void knock(int seat, Balances& chips, Effects& fx);
  void finish(int seat, Balances& chips, Effects& fx);
  void withdraw(int seat, Balances& chips, Effects& fx);
  void end_turn(Balances& chips, Effects& fx);
  // Still in this deal: at the table and not withdrawn.
  bool in_deal(int seat) const { return !has_left(seat) && !withdrawn_[seat]; }
  int next_seat_in_deal(int from) const;  // -1 when every player is withdrawn or gone
  int players_in_deal() const;

  // ---- scoring (carousel.cpp)
  void settle_deal(const rummy::DealEnd& end, Balances& chips, Effects& fx, Json& summary) override;
  void settle_game(int winner, Balances& chips, Effects& fx, Json& summary);
  std::vector<int> top_scorers() const;
  bool game_finished() const override { return over_; }
  void write_extra_view(JsonWriter& out) const override;
  bool melds_have_owners() const override { return false; }

  int deal_limit_;
  int time_limit_;
  bool over_ = false;
  std::vector<int> deals_won_;
  std::vector<bool> withdrawn_;  // this deal: out of it (no more turns, cannot win)
  int knocker_ = -1;             // who knocked this deal
  Json closed_result_;
};

}  // namespace parlour::rules::carousel
