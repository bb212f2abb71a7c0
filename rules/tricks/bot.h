// The level-1 bots of the trick games (Rams, Rounce, Reversi), and the card-play
// heuristics they share. A bot reads only its seat's view and legal list; what
// it knows of the cards is what the view shows: its own hand, the trick being
// played, the last trick, the turned trump. Cards played in earlier tricks are
// not in the view, so they count as unseen (the bot is a little pessimistic
// late in a deal rather than keep a memory the view cannot back).
#pragma once

#include <optional>
#include <vector>

#include "rules/bot.h"
#include "rules/tricks/tricks.h"

namespace parlour::rules::tricks {

// What a seat sees of a trick game, read from its view.
struct TrickSight {
  int me = -1;
  std::vector<Card> hand;
  Trick trick;            // the trick being played, lead first
  TrickRules rules;       // trump and rank order (the duties are in the legal list)
  int in_trick = 0;       // how many players play to each trick
  double rivals = 2;      // how many may play against this hand: those yet to declare count half
  std::vector<Card> unseen;  // cards of the pack that the seat has not seen

  int to_play_after_me() const { return in_trick - static_cast<int>(trick.size()) - 1; }
  bool is_trump(Card card) const { return rules.trump && card.suit == *rules.trump; }
  // Unseen cards of `card`'s suit that rank above (or below) it.
  int unseen_above(Card card) const;
  int unseen_below(Card card) const;
};

// The cards of the pack not in `seen` (a pack holds each card once).
std::vector<Card> unseen_of(const std::vector<Card>& pack, const std::vector<Card>& seen);

// Card play, given the cards the legal list allows (non-empty).
// Aiming to take the trick: the cheapest card sure to hold it, else the best try;
// shed the least useful card when the trick cannot be won.
Card play_to_win(const TrickSight& sight, const std::vector<Card>& playable);
// Aiming to lose the trick: the highest card that stays under the winning card;
// when every card would win, the highest if nobody can overtake it, else the lowest.
Card play_to_lose(const TrickSight& sight, const std::vector<Card>& playable);
// The card least worth keeping when aiming to take tricks.
Card least_useful(const TrickSight& sight, const std::vector<Card>& cards);

// How many tricks a hand may be expected to take when the pack's other cards
// are in unknown hands: top trumps and aces nearly always, guarded kings and
// low trumps sometimes.
double expected_tricks(const std::vector<Card>& hand, const TrickSight& sight);
// The chance that `card` of `hand` takes a trick, by the same rule of thumb.
double trick_chance(Card card, const std::vector<Card>& hand, const TrickSight& sight);
// Whether a hand takes all five tricks however the other cards lie (General Rams).
bool sure_of_every_trick(const std::vector<Card>& hand, const TrickSight& sight);

// Rams and Rounce: `short_pack` says which pack the game uses (the view says
// the trump, the rank order and the ante unit).
BotPolicy pool_trick_bot(bool short_pack);

// Reversi: avoid tricks; go for all of them only with a hand that cannot fail.
Json reversi_bot(const Json& view, const Json& legal, Rng& rng);

}  // namespace parlour::rules::tricks
