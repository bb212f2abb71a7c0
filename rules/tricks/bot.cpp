#include "rules/tricks/bot.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "rules/tricks/pool_trick.h"

namespace parlour::rules::tricks {

namespace {

std::optional<Card> read_card(const Json& text) {
  if (!text.is_string()) return std::nullopt;
  return parse_card(text.get<std::string>());
}

std::vector<Card> read_cards(const Json& texts) {
  std::vector<Card> out;
  if (!texts.is_array()) return out;
  for (const auto& text : texts)
    if (auto card = read_card(text)) out.push_back(*card);
  return out;
}

Trick read_plays(const Json& plays) {
  Trick out;
  if (!plays.is_array()) return out;
  for (const auto& play : plays)
    if (auto card = read_card(play.value("card", Json()))) out.push_back({play.value("seat", -1), *card});
  return out;
}

std::optional<Suit> read_suit(const Json& letter) {
  if (!letter.is_string()) return std::nullopt;
  auto card = parse_card("A" + letter.get<std::string>());
  if (!card) return std::nullopt;
  return card->suit;
}

int seat_to_act(const Json& view) {
  const auto& seats = view.at("turn").at("seats");
  if (!seats.is_array() || seats.empty()) throw std::logic_error("trick bot: the view says nobody is to act");
  return seats.front().get<int>();
}

std::vector<Card> card_options(const Json& legal, const char* type) {
  std::vector<Card> out;
  for (const auto& action : legal)
    if (action.value("type", "") == type)
      if (auto card = read_card(action.value("card", Json()))) out.push_back(*card);
  return out;
}

const Json* find_action(const Json& legal, const std::string& type) {
  for (const auto& action : legal)
    if (action.value("type", "") == type) return &action;
  return nullptr;
}

// Higher is better to keep when taking tricks: any trump above any plain card.
int keep_value(const TrickSight& sight, Card card) {
  return (sight.is_trump(card) ? 100 : 0) + rank_value(card, sight.rules.order);
}

int suit_length(const std::vector<Card>& hand, Suit suit) {
  return static_cast<int>(std::count_if(hand.begin(), hand.end(), [&](Card c) { return c.suit == suit; }));
}

}  // namespace

int TrickSight::unseen_above(Card card) const {
  return static_cast<int>(std::count_if(unseen.begin(), unseen.end(), [&](Card c) {
    return c.suit == card.suit && rank_value(c, rules.order) > rank_value(card, rules.order);
  }));
}

int TrickSight::unseen_below(Card card) const {
  return static_cast<int>(std::count_if(unseen.begin(), unseen.end(), [&](Card c) {
    return c.suit == card.suit && rank_value(c, rules.order) < rank_value(card, rules.order);
  }));
}

std::vector<Card> unseen_of(const std::vector<Card>& pack, const std::vector<Card>& seen) {
  std::vector<Card> out;
  for (auto card : pack)
    if (!holds(seen, card)) out.push_back(card);
  return out;
}

Card least_useful(const TrickSight& sight, const std::vector<Card>& cards) {
  if (cards.empty()) throw std::logic_error("trick bot: no card to choose from");
  // Among equals, a card of a short plain suit goes first: it makes a void.
  return *std::min_element(cards.begin(), cards.end(), [&](Card a, Card b) {
    const int va = keep_value(sight, a), vb = keep_value(sight, b);
    if (va != vb) return va < vb;
    return suit_length(sight.hand, a.suit) < suit_length(sight.hand, b.suit);
  });
}

namespace {

// The lead when taking tricks: draw trumps with the top trump, cash a top plain
// card, lead a trump from length, else give the lead away with a low card.
Card lead_to_win(const TrickSight& sight, const std::vector<Card>& playable) {
  std::vector<Card> trumps, top_trumps, top_plain;
  for (auto card : playable) {
    const bool top = sight.unseen_above(card) == 0;
    if (sight.is_trump(card)) {
      trumps.push_back(card);
      if (top) top_trumps.push_back(card);
    } else if (top) {
      top_plain.push_back(card);
    }
  }
  const bool trumps_out = std::any_of(sight.unseen.begin(), sight.unseen.end(), [&](Card c) { return sight.is_trump(c); });
  auto highest = [&](const std::vector<Card>& cards) {
    return *std::max_element(cards.begin(), cards.end(), [&](Card a, Card b) {
      return rank_value(a, sight.rules.order) < rank_value(b, sight.rules.order);
    });
  };
  if (trumps_out && !top_trumps.empty() && trumps.size() >= 2) return highest(top_trumps);
  if (!top_plain.empty()) return top_plain.front();
  if (!top_trumps.empty()) return highest(top_trumps);
  if (trumps.size() >= 3) return highest(trumps);
  return least_useful(sight, playable);
}

// Could any unseen card beat `card` in this trick? Opponents are taken to
// follow suit, so a plain card is beaten only by a higher one of its suit.
bool may_be_beaten(const TrickSight& sight, Card card) { return sight.unseen_above(card) > 0; }

}  // namespace

Card play_to_win(const TrickSight& sight, const std::vector<Card>& playable) {
  if (playable.empty()) throw std::logic_error("trick bot: no card to play");
  if (sight.trick.empty()) return lead_to_win(sight, playable);
  const Card best = sight.trick[winning_index(sight.trick, sight.rules)].card;
  const Suit led = sight.trick.front().card.suit;
  std::vector<Card> winners;
  for (auto card : playable)
    if (beats(card, best, led, sight.rules)) winners.push_back(card);
  if (winners.empty()) return least_useful(sight, playable);
  auto cheapest = [&](const std::vector<Card>& cards) {
    return *std::min_element(cards.begin(), cards.end(),
                             [&](Card a, Card b) { return keep_value(sight, a) < keep_value(sight, b); });
  };
  if (sight.to_play_after_me() <= 0) return cheapest(winners);
  std::vector<Card> safe;
  for (auto card : winners)
    if (!may_be_beaten(sight, card)) safe.push_back(card);
  if (!safe.empty()) return cheapest(safe);
  return *std::max_element(winners.begin(), winners.end(),
                           [&](Card a, Card b) { return keep_value(sight, a) < keep_value(sight, b); });
}

Card play_to_lose(const TrickSight& sight, const std::vector<Card>& playable) {
  if (playable.empty()) throw std::logic_error("trick bot: no card to play");
  const auto rank = [&](Card c) { return rank_value(c, sight.rules.order); };
  if (sight.trick.empty()) {
    // Lead the card most others can beat: many unseen cards above it.
    return *std::max_element(playable.begin(), playable.end(), [&](Card a, Card b) {
      const int above_a = sight.unseen_above(a), above_b = sight.unseen_above(b);
      if (above_a != above_b) return above_a < above_b;
      return rank(a) > rank(b);
    });
  }
  const Card best = sight.trick[winning_index(sight.trick, sight.rules)].card;
  const Suit led = sight.trick.front().card.suit;
  std::vector<Card> under, over;
  for (auto card : playable) (beats(card, best, led, sight.rules) ? over : under).push_back(card);
  auto by_rank = [&](Card a, Card b) { return rank(a) < rank(b); };
  if (!under.empty()) {
    const bool following = under.front().suit == led || sight.is_trump(under.front());
    if (following) return *std::max_element(under.begin(), under.end(), by_rank);
    // Void: throw away the card likeliest to take a trick later, the one
    // with the fewest unseen cards above it, the highest among equals.
    return *std::min_element(under.begin(), under.end(), [&](Card a, Card b) {
      const int above_a = sight.unseen_above(a), above_b = sight.unseen_above(b);
      if (above_a != above_b) return above_a < above_b;
      return rank(a) > rank(b);
    });
  }
  // Every card takes the trick so far: the last to play takes it with his
  // highest; an earlier player hopes to be overtaken with his lowest.
  if (sight.to_play_after_me() <= 0) return *std::max_element(over.begin(), over.end(), by_rank);
  return *std::min_element(over.begin(), over.end(), by_rank);
}

double trick_chance(Card card, const std::vector<Card>& hand, const TrickSight& sight) {
  const int above = sight.unseen_above(card);
  const int length = suit_length(hand, card.suit);
  double chance = 0.05;
  if (sight.is_trump(card)) {
    if (above == 0) chance = 0.95;
    else if (above == 1) chance = length >= 2 ? 0.7 : 0.45;
    else if (above == 2) chance = length >= 3 ? 0.55 : 0.3;
    else chance = 0.2;
  } else if (above == 0) {
    chance = 0.8;
  } else if (above == 1) {
    chance = length >= 2 ? 0.4 : 0.2;
  }
  // The figures above fit two rivals (in self-play of the bots, a hand's tricks
  // against two rivals came out as these figures add up); each rival more is
  // one more hand that may beat the card, each fewer one less.
  return std::pow(chance, std::max(sight.rivals, 0.0) / 2.0);
}

double expected_tricks(const std::vector<Card>& hand, const TrickSight& sight) {
  double total = 0;
  for (auto card : hand) total += trick_chance(card, hand, sight);
  return total;
}

bool sure_of_every_trick(const std::vector<Card>& hand, const TrickSight& sight) {
  if (!sight.rules.trump) return false;
  std::vector<Card> trumps_out;
  for (auto card : sight.unseen)
    if (sight.is_trump(card)) trumps_out.push_back(card);
  int top_trumps = 0;  // trumps above every trump outstanding
  for (auto card : hand) {
    if (!sight.is_trump(card)) {
      if (sight.unseen_above(card) > 0) return false;  // a plain card that can be beaten
      continue;
    }
    if (sight.unseen_above(card) == 0) ++top_trumps;
  }
  // Each round of top trumps draws at least one trump from every hand that has
  // one; four rounds exhaust any hand but the rare one holding five.
  const int rounds_needed = std::min<int>(static_cast<int>(trumps_out.size()), 4);
  return top_trumps >= rounds_needed;
}

namespace {

// ---------------------------------------------------------------- Rams, Rounce

struct PoolSight {
  TrickSight sight;
  std::int64_t unit = 5;
  std::int64_t pool = 0;
  std::size_t widow_size = 0;
  std::optional<Card> turned;
};

PoolSight read_pool_view(const Json& view, bool short_pack) {
  PoolSight out{TrickSight{}, 5, 0, 0, std::nullopt};
  auto& sight = out.sight;
  sight.me = seat_to_act(view);
  const auto& seats = view.at("seats");
  sight.hand = read_cards(seats.at(static_cast<std::size_t>(sight.me)).at("cards"));
  sight.trick = read_plays(view.at("trick").value("plays", Json::array()));
  sight.rules.trump = read_suit(view.at("trick").value("trump", Json()));
  sight.rules.order = view.value("ranking", "ace_high") == "old" ? RankOrder::rams_old : RankOrder::ace_high;
  // Rivals: the others playing, and half of those yet to declare (some pass).
  sight.rivals = 0;
  for (const auto& seat : seats) {
    const auto status = seat.value("status", "");
    if (status == "active") ++sight.in_trick;
    if (seat.value("seat", -1) == sight.me) continue;
    if (status == "active") sight.rivals += 1;
    if (status == "undeclared") sight.rivals += 0.5;
  }
  out.unit = view.value("unit", std::int64_t{5});
  out.pool = view.value("pools", Json::object()).value("pool", std::int64_t{0});
  for (const auto& pile : view.value("piles", Json::array()))
    if (pile.value("id", "") == "widow") out.widow_size = pile.value("count", std::size_t{0});
  out.turned = read_card(view.value("turned", Json()));

  std::vector<Card> seen = sight.hand;
  for (const auto& play : sight.trick) seen.push_back(play.card);
  for (const auto& play : read_plays(view.value("last_trick", Json::array()))) seen.push_back(play.card);
  // The turned trump is out of play unless the dealer took it up.
  if (out.turned && !view.value("turned_taken", false)) seen.push_back(*out.turned);
  sight.unseen = unseen_of(make_pack(PackSpec{short_pack, 0, 1}), seen);
  return out;
}

// What playing `hand` is worth in chips: a share of the pool a trick, less the
// unit paid by a player who takes none.
double play_value(const PoolSight& ps, const std::vector<Card>& hand) {
  const double share = static_cast<double>(ps.pool / 5);
  double none = 1.0;  // the chance of taking no trick, the cards taken as independent
  double expected = 0;
  for (auto card : hand) {
    const double chance = trick_chance(card, hand, ps.sight);
    expected += chance;
    none *= 1.0 - chance;
  }
  return share * expected - static_cast<double>(ps.unit) * none;
}

// The best five of `cards` for taking tricks (Rounce's widow holds six).
std::vector<Card> best_five(const TrickSight& sight, std::vector<Card> cards) {
  while (cards.size() > 5) remove_card(cards, least_useful(sight, cards));
  return cards;
}

// The widow's worth, averaged over hands drawn from the unseen cards (the widow
// is some of them); deterministic given the Rng.
double widow_value(const PoolSight& ps, Rng& rng) {
  const std::size_t size = ps.widow_size;
  if (size == 0 || ps.sight.unseen.size() < size) return -1e9;
  constexpr int samples = 24;
  double total = 0;
  std::vector<Card> pool = ps.sight.unseen;
  for (int i = 0; i < samples; ++i) {
    for (std::size_t k = 0; k < size; ++k) std::swap(pool[k], pool[k + rng.below(pool.size() - k)]);
    std::vector<Card> widow(pool.begin(), pool.begin() + static_cast<std::ptrdiff_t>(size));
    total += play_value(ps, best_five(ps.sight, widow));
  }
  return total / samples;
}

Json declare(const PoolSight& ps, const Json& legal, Rng& rng) {
  const auto& hand = ps.sight.hand;
  for (const auto& action : legal)
    if (action.value("type", "") == "general" && !action.value("widow", true) && sure_of_every_trick(hand, ps.sight))
      return action;
  struct Choice {
    const char* type;
    double value;
  };
  std::vector<Choice> choices;
  if (find_action(legal, "pass")) choices.push_back({"pass", 0.0});
  if (find_action(legal, "pay_dealer")) choices.push_back({"pay_dealer", -static_cast<double>(ps.unit)});
  if (find_action(legal, "play")) choices.push_back({"play", play_value(ps, hand)});
  if (find_action(legal, "take_widow")) choices.push_back({"take_widow", widow_value(ps, rng)});
  if (choices.empty()) return legal.front();
  // Ties go to the earlier choice: pass before play, play before the widow.
  const auto best = std::max_element(choices.begin(), choices.end(),
                                     [](const Choice& a, const Choice& b) { return a.value < b.value; });
  return *find_action(legal, best->type);
}

// The dealer may take up the turned trump for a card of his hand: his least
// useful card, when the trump is worth more to him.
Json exchange_for_trump(const PoolSight& ps, const Json& legal) {
  const Json* keep = find_action(legal, "keep");
  const auto offered = card_options(legal, "exchange");
  if (!ps.turned || offered.empty()) return keep ? *keep : legal.front();
  const Card given = least_useful(ps.sight, offered);
  auto hand = ps.sight.hand;
  remove_card(hand, given);
  hand.push_back(*ps.turned);
  if (expected_tricks(hand, ps.sight) > expected_tricks(ps.sight.hand, ps.sight)) return card_action("exchange", given);
  return keep ? *keep : legal.front();
}

Json pool_trick_move(const Json& view, const Json& legal, Rng& rng, bool short_pack) {
  if (!legal.is_array() || legal.empty()) throw std::logic_error("trick bot: no legal action");
  const PoolSight ps = read_pool_view(view, short_pack);
  const std::string stage = view.at("turn").value("stage", "");
  if (stage == "declare") return declare(ps, legal, rng);
  if (stage == "general") {
    // Against a General: the widow if it promises more than the hand.
    const Json* widow = find_action(legal, "take_widow");
    const Json* play = find_action(legal, "play");
    if (widow && (!play || widow_value(ps, rng) > play_value(ps, ps.sight.hand))) return *widow;
    return play ? *play : legal.front();
  }
  if (stage == "widow_discard") {
    const auto cards = card_options(legal, "discard");
    if (cards.empty()) return legal.front();
    return card_action("discard", least_useful(ps.sight, cards));
  }
  if (stage == "dealer_exchange") return exchange_for_trump(ps, legal);
  const auto cards = card_options(legal, "card");
  if (cards.empty()) return legal.front();
  return card_action("card", play_to_win(ps.sight, cards));
}

// --------------------------------------------------------------------- Reversi

// The twos Reversi takes out so that the pack deals evenly (rules/games/reversi.cpp).
std::vector<Card> reversi_pack(int players) {
  std::vector<Card> out;
  for (auto card : make_pack(PackSpec{})) {
    const bool removed = card.rank == 2 && ((players == 3 && card.suit == Suit::spades) ||
                                            (players == 5 && (card.suit == Suit::spades || card.suit == Suit::clubs)) ||
                                            players == 6);
    if (!removed) out.push_back(card);
  }
  return out;
}

// Reversis: the bot has taken every trick so far and the cards it keeps after
// `card` are all masters, so it cannot lose a trick from here.
bool slam_is_sure(const TrickSight& sight, int taken, int played, Card card) {
  if (taken != played) return false;
  for (auto held : sight.hand)
    if (held != card && sight.unseen_above(held) > 0) return false;
  if (sight.unseen_above(card) > 0) return false;
  if (sight.trick.empty()) return true;
  const Card best = sight.trick[winning_index(sight.trick, sight.rules)].card;
  return beats(card, best, sight.trick.front().card.suit, sight.rules);
}

}  // namespace

BotPolicy pool_trick_bot(bool short_pack) {
  return [short_pack](const Json& view, const Json& legal, Rng& rng) {
    return pool_trick_move(view, legal, rng, short_pack);
  };
}

Json reversi_bot(const Json& view, const Json& legal, Rng&) {
  if (!legal.is_array() || legal.empty()) throw std::logic_error("reversi bot: no legal action");
  TrickSight sight;
  sight.me = seat_to_act(view);
  const auto& seats = view.at("seats");
  sight.hand = read_cards(seats.at(static_cast<std::size_t>(sight.me)).at("cards"));
  sight.trick = read_plays(view.at("trick").value("plays", Json::array()));
  for (const auto& seat : seats)
    if (seat.value("in_deal", false)) ++sight.in_trick;
  std::vector<Card> seen = sight.hand;
  for (const auto& play : sight.trick) seen.push_back(play.card);
  for (const auto& play : read_plays(view.value("last_trick", Json::array()))) seen.push_back(play.card);
  sight.unseen = unseen_of(reversi_pack(sight.in_trick), seen);

  const auto cards = card_options(legal, "card");
  if (cards.empty()) return legal.front();
  const int taken = seats.at(static_cast<std::size_t>(sight.me)).value("tricks", 0);
  const int played = view.value("tricks_per_deal", 0) - static_cast<int>(sight.hand.size());
  for (auto card : cards)
    if (slam_is_sure(sight, taken, played, card)) return card_action("card", card);
  return card_action("card", play_to_lose(sight, cards));
}

}  // namespace parlour::rules::tricks
