#include "rules/rummy/bot.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "rules/rummy/arrangement.h"
#include "rules/rummy/card_lists.h"
#include "rules/rummy/rules_json.h"

namespace parlour::rules::rummy {

namespace {

// ------------------------------------------------------------------ reading the view

std::optional<Card> card_of(const Json& text) {
  if (!text.is_string()) return std::nullopt;
  const std::string s = text.get<std::string>();
  return parse_card(s.substr(0, s.find('=')));
}

std::vector<Card> cards_of(const Json& list) {
  std::vector<Card> out;
  if (!list.is_array()) return out;
  for (const auto& item : list)
    if (auto c = card_of(item)) out.push_back(*c);
  return out;
}

// A table meld as the view writes it ("9H", "JK=8H"); none if it does not read
// as a valid meld (it always does for a view the engine wrote).
std::optional<Meld> table_meld(const Json& cards, const MeldRules& rules) {
  try {
    const auto spec = read_meld_spec(cards, rules, "meld");
    auto check = validate_meld(spec.cards, rules, spec.declared);
    if (!check && !spec.declared.empty()) check = validate_meld(spec.cards, rules);
    if (check) return check.meld;
  } catch (const std::exception&) {
    // A natural deuce among declared wilds: read the cards alone below.
  }
  auto check = validate_meld(cards_of(cards), rules);
  if (check) return check.meld;
  return std::nullopt;
}

// ------------------------------------------------------------------ judging a hand

int count_of(const std::vector<Card>& cards, Card c) { return static_cast<int>(std::count(cards.begin(), cards.end(), c)); }

// Copies of `c` not in the hand and not face up: the fillers still to come.
int live(Card c, const std::vector<Card>& hand, const Seen& seen) {
  return std::max(0, seen.decks - count_of(hand, c) - count_of(seen.dead, c));
}

bool rank_ok(int rank, AceMode ace) {
  if (rank >= 2 && rank <= 13) return true;
  if (rank == 1) return ace != AceMode::high;
  if (rank == 14) return ace != AceMode::low;
  return false;
}

// The ranks (1..14, 14 the ace high) that would join `low` and `high` of a suit
// (low < high, at most two apart) into a run of three.
std::vector<int> run_fillers(int low, int high, AceMode ace) {
  std::vector<int> out;
  if (high - low == 1) {
    out = {low - 1, high + 1};
  } else if (high - low == 2) {
    out = {low + 1};
  }
  std::vector<int> ok;
  for (int r : out) {
    if (ace == AceMode::around && (r == 0 || r == 15)) r = r == 0 ? 13 : 2;
    if (ace == AceMode::around && r == 14) r = 1;
    if (rank_ok(r, ace) || (ace == AceMode::around && r >= 1 && r <= 13)) ok.push_back(r == 14 ? 1 : r);
  }
  return ok;
}

// How far apart two ranks of a suit are in a run, the ace counted where the rules allow.
int run_distance(int a, int b, AceMode ace) {
  int best = std::abs(a - b);
  auto high = [](int r) { return r == 1 ? 14 : r; };
  if (ace != AceMode::low) {
    best = std::min(best, std::abs(high(a) - high(b)));
    if (ace == AceMode::high && (a == 1 || b == 1)) best = std::abs(high(a) - high(b));
  }
  if (ace == AceMode::around) best = std::min(best, 13 - std::abs(a - b));
  return best;
}

// The live cards that would make a meld of `card` with another unmatched card:
// the third of a pair, the ends of a two-card run, the middle of a gapped one.
int outs_of(Card card, std::size_t index, const std::vector<Card>& unmatched, const std::vector<Card>& hand,
            const Seen& seen) {
  const auto& rules = seen.melds;
  int outs = 0;
  for (std::size_t j = 0; j < unmatched.size(); ++j) {
    if (j == index) continue;
    const Card other = unmatched[j];
    if (is_wild(other, rules)) {
      outs += 4;  // a wild with any card is a combination with many fillers
      continue;
    }
    if (card.is_joker() || other.is_joker()) {
      if (card.is_joker() && other.is_joker() && rules.jokers_own_rank)
        outs += std::max(0, seen.jokers - count_of(hand, card) - count_of(seen.dead, card));
      continue;
    }
    if (other.rank == card.rank && (other.suit != card.suit || rules.set_duplicates)) {
      for (Suit s : {Suit::spades, Suit::hearts, Suit::diamonds, Suit::clubs}) {
        if (rules.set_distinct_suits && (s == card.suit || s == other.suit)) continue;
        outs += live(Card{card.rank, s}, hand, seen);
      }
    }
    if (other.suit == card.suit && other.rank != card.rank && run_distance(card.rank, other.rank, rules.ace) <= 2) {
      int low = card.rank, high = other.rank;
      auto as_high = [](int r) { return r == 1 ? 14 : r; };
      if (std::abs(low - high) > 2) {  // the ace counts high here
        low = as_high(low);
        high = as_high(high);
      }
      if (low > high) std::swap(low, high);
      if (high - low <= 2)
        for (int r : run_fillers(low, high, rules.ace)) outs += live(Card{static_cast<std::uint8_t>(r), card.suit}, hand, seen);
    }
  }
  return outs;
}

// What an unmatched card left in the hand costs for the number of live fillers.
double kept_share(int outs) {
  if (outs <= 0) return 1.0;
  if (outs == 1) return 0.7;
  if (outs == 2) return 0.55;
  if (outs <= 4) return 0.45;
  return 0.38;
}

// Each unmatched card also costs this much: a hand must shed every one to go out;
// more where melds go down only by going rummy with the whole hand.
constexpr double per_unmatched_card = 2.0;
constexpr double going_out_card = 6.0;

bool lays_off_on_table(Card card, const Seen& seen) {
  if (!seen.lay_offs) return false;
  for (const auto& meld : seen.table)
    if (lays_off(meld, card, seen.melds)) return true;
  return false;
}

}  // namespace

bool is_big_hand(const std::vector<Card>& hand) { return hand.size() > kBigHand; }

double loose_card_cost(Card card, const Seen& seen) {
  if (is_wild(card, seen.melds)) return 0;
  int partners = 0;
  for (auto other : seen.hand) {
    if (other == card || other.is_joker() || card.is_joker()) continue;
    if (other.rank == card.rank) ++partners;
    else if (other.suit == card.suit && run_distance(card.rank, other.rank, seen.melds.ace) <= 2) ++partners;
  }
  return seen.values.in_hand(card) * (partners > 0 ? 0.4 : 1.0);
}

double hand_cost(const std::vector<Card>& hand, const Seen& seen) {
  const auto best = best_arrangement(hand, seen.melds, seen.values);
  double cost = 0;
  for (std::size_t i = 0; i < best.deadwood.size(); ++i) {
    const Card card = best.deadwood[i];
    if (is_wild(card, seen.melds)) {
      cost += 1.0;  // a wild fills almost any combination: keep it
      continue;
    }
    if (lays_off_on_table(card, seen)) {
      cost += 0.5;
      continue;
    }
    const double base = seen.going_out_only ? going_out_card : per_unmatched_card;
    cost += (seen.values.in_hand(card) + base) * kept_share(outs_of(card, i, best.deadwood, hand, seen));
  }
  return cost;
}

std::vector<Card> action_cards(const Json& action, const char* field) {
  std::vector<Card> out;
  const auto& list = action.value(field, Json());
  if (!list.is_array()) {
    if (auto c = card_of(list)) out.push_back(*c);
    return out;
  }
  for (const auto& item : list) {
    if (item.is_array()) {
      for (auto c : cards_of(item)) out.push_back(c);
    } else if (auto c = card_of(item)) {
      out.push_back(*c);
    }
  }
  return out;
}

Seen read_seen(const Json& view) {
  Seen seen;
  const Json& rules = view.value("rules", Json::object());
  seen.melds = meld_rules_from(rules.value("melds", Json()));
  seen.values = card_values_from(rules.value("values", Json()));
  seen.decks = std::max(1, rules.value("decks", 1));
  seen.jokers = rules.value("jokers", 0);
  seen.melds_score = rules.value("spread_pile", false);
  const bool in_break = view.contains("break");
  seen.lay_offs = !rules.value("rummy_only", false) || in_break;
  seen.going_out_only = rules.value("rummy_only", false);
  // The seat: the one whose cards the view shows; else the first to act.
  const auto& seats = view.value("seats", Json::array());
  for (const auto& s : seats) {
    const auto& cards = s.value("cards", Json::array());
    if (!cards.empty() && cards.front() != "??") {
      seen.seat = s.value("seat", -1);
      seen.hand = cards_of(cards);
      break;
    }
  }
  if (seen.seat < 0) {
    const auto& acting = view.value("turn", Json::object()).value("seats", Json::array());
    if (!acting.empty() && acting.front().is_number_integer()) seen.seat = acting.front().get<int>();
  }
  for (const auto& m : view.value("melds", Json::array())) {
    const auto& cards = m.value("cards", Json::array());
    for (auto c : cards_of(cards)) seen.dead.push_back(c);
    if (auto meld = table_meld(cards, seen.melds)) seen.table.push_back(*meld);
    else seen.table.push_back(Meld{});  // keeps the ids in step; lays nothing off
  }
  for (const auto& pile : view.value("piles", Json::array())) {
    const std::string id = pile.value("id", "");
    if (id == "stock") seen.stock = pile.value("count", 0);
    if (id != "discard") continue;
    if (pile.contains("cards")) seen.pile = cards_of(pile["cards"]);
    else if (auto top = card_of(pile.value("top", Json()))) seen.pile = {*top};
  }
  for (auto c : seen.pile) seen.dead.push_back(c);
  return seen;
}

namespace {

// ------------------------------------------------------------------ choosing

std::string type_of(const Json& action) { return action.value("type", ""); }

std::vector<Card> without(std::vector<Card> hand, const std::vector<Card>& cards) {
  for (auto c : cards) {
    auto it = std::find(hand.begin(), hand.end(), c);
    if (it != hand.end()) hand.erase(it);
  }
  return hand;
}

std::vector<Card> with(std::vector<Card> hand, const std::vector<Card>& cards) {
  hand.insert(hand.end(), cards.begin(), cards.end());
  return hand;
}

class Chooser {
 public:
  Chooser(const Json& view, const Json& legal, const BotHooks& hooks)
      : view_(view), legal_(legal), hooks_(hooks), seen_(read_seen(view)) {}

  Json choose() {
    if (auto a = whole_hand("go_down")) return *a;
    if (auto a = whole_hand("go_rummy")) return *a;
    if (auto a = first_of("call")) return *a;
    const std::string stage = view_.value("turn", Json::object()).value("stage", "");
    if (stage == "call_window") return first_of("pass").value_or(legal_.front());
    if (is_big_hand(seen_.hand)) return quick_choice();
    if (has("draw") || has("take") || has("take_all") || has("decline")) return draw();
    if (auto a = meld_or_lay_off()) return *a;
    if (has("discard")) return best_discard();
    return best_play_anyway();
  }

 private:
  bool has(const std::string& type) const {
    return std::any_of(legal_.begin(), legal_.end(), [&](const Json& a) { return type_of(a) == type; });
  }
  std::optional<Json> first_of(const std::string& type) const {
    for (const auto& a : legal_)
      if (type_of(a) == type) return a;
    return std::nullopt;
  }

  // Going rummy or going down ends the deal in the player's favour: always, the
  // listing worth most (a whole hand before one card shown, its bonus, the
  // lowest card kept back, the most melded).
  std::optional<Json> whole_hand(const std::string& type) const {
    const Json* best = nullptr;
    double best_score = -std::numeric_limits<double>::infinity();
    for (const auto& a : legal_) {
      if (type_of(a) != type) continue;
      double score = 0;
      std::vector<Meld> melds;
      for (const auto& list : a.value("melds", Json::array()))
        if (auto m = table_meld(list, seen_.melds)) melds.push_back(*m);
      int melded = 0;
      for (const auto& m : melds) melded += seen_.values.of_meld(m);
      if (hooks_.arrangement_worth) score += hooks_.arrangement_worth(melds);
      if (auto shown = card_of(a.value("shown", Json()))) score -= 25 + seen_.values.in_hand(*shown);
      if (auto discard = card_of(a.value("discard", Json()))) score += 0.001 * seen_.values.in_hand(*discard);
      score += 0.01 * melded;
      if (score > best_score) {
        best_score = score;
        best = &a;
      }
    }
    if (!best) return std::nullopt;
    return *best;
  }

  double cost(const std::vector<Card>& hand) const { return hand_cost(hand, seen_); }

  // The least costly hand left after discarding one card, never `keep` (the card
  // just taken, which the rules may forbid discarding).
  double cost_after_best_discard(const std::vector<Card>& hand, std::optional<Card> keep) const {
    double best = std::numeric_limits<double>::infinity();
    for (auto c : discard_candidates(hand)) {
      if (keep && c == *keep && count_of(hand, c) == 1) continue;
      best = std::min(best, cost(without(hand, {c})));
    }
    return std::isinf(best) ? cost(hand) : best;
  }

  // The cards worth weighing as a discard: those the hand's best arrangement
  // leaves unmatched (a melded card is hardly ever the better discard), else all.
  std::vector<Card> discard_candidates(const std::vector<Card>& hand) const {
    auto unmatched = distinct(best_arrangement(hand, seen_.melds, seen_.values).deadwood);
    return unmatched.empty() ? distinct(hand) : unmatched;
  }

  // What the cards of a take are worth at once, in the games that score melds as
  // they are made: the value of the melds they join less what they add unmatched.
  double meld_points(const std::vector<Card>& hand) const {
    const auto best = best_arrangement(hand, seen_.melds, seen_.values);
    int melded = 0;
    for (const auto& m : best.melds) melded += seen_.values.of_meld(m);
    return melded;
  }

  Json draw() const {
    const Json* stock = nullptr;
    for (const auto& a : legal_)
      if (type_of(a) == "draw" && a.value("from", "") == "stock") stock = &a;
    const double now = cost(seen_.hand);
    // The default: a draw from the stock, worth about draw_worth; once Block's
    // stock is gone, declining, which the upcard must beat by helping at all.
    const auto decline = first_of("decline");
    const Json* best = stock ? stock : decline ? &*decline : nullptr;
    double best_gain = stock ? hooks_.draw_worth : decline ? 0.5 : -std::numeric_limits<double>::infinity();
    for (const auto& a : legal_) {
      const auto type = type_of(a);
      std::vector<Card> taken;
      if (type == "draw" && a.value("from", "") == "discard" && !seen_.pile.empty()) taken = {seen_.pile.back()};
      else if (type == "draw" && a.value("from", "") == "two_discards" && seen_.pile.size() >= 2)
        taken = {seen_.pile.end() - 2, seen_.pile.end()};
      else if (type == "take") {
        const auto depth = a.value("depth", -1);
        if (depth < 0 || depth >= static_cast<int>(seen_.pile.size()) || depth > 12) continue;
        taken.assign(seen_.pile.end() - 1 - depth, seen_.pile.end());
      } else if (type == "take_all") {
        if (seen_.pile.size() > 10) continue;
        taken = seen_.pile;
      } else {
        continue;
      }
      const auto hand = with(seen_.hand, taken);
      if (is_big_hand(hand)) continue;  // too many cards to weigh, and to hold
      // A single upcard may not be discarded again this turn.
      const std::optional<Card> keep = taken.size() == 1 ? std::optional<Card>(taken.front()) : std::nullopt;
      double gain = now - cost_after_best_discard(hand, keep);
      if (seen_.melds_score) gain += 0.5 * (meld_points(hand) - meld_points(seen_.hand));
      if (gain > best_gain) {
        best_gain = gain;
        best = &a;
      }
    }
    return best ? *best : legal_.front();
  }

  // The meld or lay-off that costs the hand least, if it costs nothing: what the
  // best arrangement melds, a card that lays off. Larger plays first.
  std::optional<Json> meld_or_lay_off() const {
    const double now = cost(seen_.hand);
    const Json* best = nullptr;
    double best_score = -std::numeric_limits<double>::infinity();
    for (const auto& a : legal_) {
      const auto type = type_of(a);
      if (type != "meld" && type != "lay_off") continue;
      const auto cards = action_cards(a, "cards");
      const double after = cost(without(seen_.hand, cards));
      double score = now - after + 0.1 * static_cast<double>(cards.size());
      if (seen_.melds_score) score += 0.05 * seen_.values.of_cards(cards);
      if (score > best_score) {
        best_score = score;
        best = &a;
      }
    }
    if (!best || best_score < 0) return std::nullopt;
    return *best;
  }

  // Every card that may be discarded, the one whose loss leaves the cheapest hand.
  Json best_discard() const {
    const Json* best = nullptr;
    double best_cost = std::numeric_limits<double>::infinity();
    const auto candidates = discard_candidates(seen_.hand);
    const bool any_candidate = std::any_of(legal_.begin(), legal_.end(), [&](const Json& a) {
      const auto cards = action_cards(a, "card");
      return type_of(a) == "discard" && !cards.empty() && holds(candidates, cards.front());
    });
    for (const auto& a : legal_) {
      if (type_of(a) != "discard") continue;
      const auto cards = action_cards(a, "card");
      if (any_candidate && (cards.empty() || !holds(candidates, cards.front()))) continue;
      double after = cost(without(seen_.hand, cards));
      // Feeding a spread pile a card that lays off gives the next player points.
      if (seen_.melds_score && !cards.empty() && lays_off_on_table(cards.front(), seen_))
        after += 0.3 * seen_.values.in_hand(cards.front());
      if (after < best_cost) {
        best_cost = after;
        best = &a;
      }
    }
    return best ? *best : legal_.front();
  }

  // No discard is allowed yet (the break's melds, a card taken that must be used):
  // the play that costs least.
  Json best_play_anyway() const {
    const Json* best = nullptr;
    double best_cost = std::numeric_limits<double>::infinity();
    for (const auto& a : legal_) {
      const auto cards = action_cards(a, "cards");
      const double after = cost(without(seen_.hand, cards)) - 0.1 * static_cast<double>(cards.size());
      if (after < best_cost) {
        best_cost = after;
        best = &a;
      }
    }
    return best ? *best : legal_.front();
  }

  // A hand too big to weigh move by move (a player who hoarded, whose seat the
  // bot covers): the stock, then the largest play, then the highest loose card,
  // with no arrangement searched, so that a move never takes long.
  Json quick_choice() const {
    if (auto stock = first_of("draw"); stock && stock->value("from", "") == "stock") return *stock;
    const Json* best = nullptr;
    std::size_t most = 0;
    for (const auto& a : legal_) {
      const auto type = type_of(a);
      if (type != "meld" && type != "lay_off") continue;
      const auto size = action_cards(a, "cards").size();
      if (size > most) {
        most = size;
        best = &a;
      }
    }
    if (best) return *best;
    double best_cost = -1;
    for (const auto& a : legal_) {
      if (type_of(a) != "discard") continue;
      const auto cards = action_cards(a, "card");
      if (cards.empty()) continue;
      const double cost = loose_card_cost(cards.front(), seen_);
      if (cost > best_cost) {
        best_cost = cost;
        best = &a;
      }
    }
    return best ? *best : legal_.front();
  }

  const Json& view_;
  const Json& legal_;
  const BotHooks& hooks_;
  Seen seen_;
};

}  // namespace

BotPolicy rummy_bot_with(BotHooks hooks) {
  return [hooks = std::move(hooks)](const Json& view, const Json& legal, Rng&) -> Json {
    if (!legal.is_array() || legal.empty()) throw std::logic_error("rummy bot: no legal action to choose from");
    return Chooser(view, legal, hooks).choose();
  };
}

Json rummy_bot(const Json& view, const Json& legal, Rng& rng) {
  static const BotPolicy policy = rummy_bot_with({});
  return policy(view, legal, rng);
}

}  // namespace parlour::rules::rummy
