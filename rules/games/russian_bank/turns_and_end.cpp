// A turn's start, §8.7's draws (repetition, recycling, the turn limit) and the
// win, and the result with its chips.
#include "rules/games/russian_bank/game.h"

namespace parlour::rules::russian_bank {

void RussianBank::begin_turn(int seat, Effects& fx) {
  mover_ = seat;
  layout_moves_ = 0;
  infraction_.reset();
  demanded_fill_ = false;
  ++turn_number_;
  if (turn_number_ > max_turns_) return finish_drawn("turn_limit", fx);
  if (recycles_[0] >= 2 && recycles_[1] >= 2) return finish_drawn("recycling", fx);
  if (++positions_seen_[position_key()] >= 3) return finish_drawn("repetition", fx);
  fx.say("Turn " + std::to_string(turn_number_) + ": " + seat_tag(seat) + " to move.");
}

std::uint64_t RussianBank::position_key() const {
  std::uint64_t key = 1469598103934665603ULL;
  const auto mix = [&key](std::uint64_t value) {
    key ^= value;
    key *= 1099511628211ULL;
  };
  const auto mix_pile = [&mix](const Pile& pile) {
    mix(1000 + pile.size());
    for (const auto& owned : pile) mix(static_cast<std::uint64_t>(owned.card.rank * 8 + static_cast<int>(owned.card.suit) * 2 + owned.owner));
  };
  mix(static_cast<std::uint64_t>(mover_));
  for (const auto& pile : layout_) mix_pile(pile);
  for (const auto& pile : centre_) mix_pile(pile);
  for (const auto& side : sides_) {
    mix_pile(side.stock());
    mix(1000 + side.stock_face_up());
    mix_pile(side.hand);
    mix_pile(side.discards[0]);
    mix_pile(side.turned ? Pile{*side.turned} : Pile{});
  }
  return key;
}

int RussianBank::points_against(const Reserve& loser) {
  return win_points + 2 * static_cast<int>(loser.stock().size()) + static_cast<int>(loser.hand.size()) +
         static_cast<int>(loser.discards[0].size()) + (loser.turned ? 1 : 0);
}

void RussianBank::finish_won(int winner, Effects& fx) {
  const int loser = 1 - winner;
  const int points = points_against(sides_[loser]);
  fx.say(seat_tag(winner) + " has got rid of every card and wins " + std::to_string(points) + " points.");
  book_.seat_to_seat(loser, winner, points * stake_,
                     seat_tag(winner) + " got rid of every card: " + std::to_string(points) +
                         " points (30 for the game, 2 a card in " + seat_tag(loser) +
                         "'s stock, 1 a card in his hand, discard and turned card)" +
                         (stake_ == 1 ? "" : ", at " + std::to_string(stake_) + " chips a point"),
                     fx);
  finish("won", winner, points, Json());
}

namespace {

// The result keeps the reason's code (turn_limit, recycling, repetition); the log says it in words.
std::string draw_reason_words(const std::string& reason) {
  if (reason == "turn_limit") return "the turn limit was reached";
  if (reason == "recycling") return "each player has turned the discard pile over twice with no card going to the centre";
  if (reason == "repetition") return "the same position came up a third time";
  return reason;
}

}  // namespace

void RussianBank::finish_drawn(const std::string& reason, Effects& fx) {
  fx.say("The game is a draw: " + draw_reason_words(reason) + ".");
  finish("draw", std::nullopt, 0, reason);
}

void RussianBank::finish_unscored(const std::string& end, Effects& fx) {
  fx.say(unscored_end_sentence(end));
  finish(end, std::nullopt, 0, Json());
}

void RussianBank::finish(const std::string& end, std::optional<int> winner, int points, const Json& draw_reason) {
  phase_ = Phase::game_over;
  infraction_.reset();
  opponent_cache_.reset();
  Json left = Json::array();
  Json seats = Json::array();
  for (int seat = 0; seat < players; ++seat) {
    const auto& side = sides_[seat];
    left.push_back({{"seat", seat},
                    {"stock", side.stock().size()},
                    {"hand", side.hand.size()},
                    {"discard", side.discards[0].size()},
                    {"turned", side.turned ? 1 : 0}});
    const std::string outcome = !winner ? end : *winner == seat ? "won" : "lost";
    const int signed_points = !winner ? 0 : *winner == seat ? points : -points;
    seats.push_back(book_.seat_result(seat, {{"points", signed_points}, {"outcome", outcome}}));
  }
  result_ = book_.deal_result({{"deal", deals_},
                               {"end", end},
                               {"winner", winner ? Json(*winner) : Json()},
                               {"points", points},
                               {"draw_reason", draw_reason},
                               {"turns", turn_number_},
                               {"left", left},
                               {"seats", seats}});
}

}  // namespace parlour::rules::russian_bank
