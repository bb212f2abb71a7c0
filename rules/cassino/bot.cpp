#include "rules/cassino/bot.h"

#include <stdexcept>

#include "rules/cards.h"

namespace parlour::rules::cassino {

namespace {

Card card_of(const Json& text) {
  auto card = parse_card(text.get<std::string>(), Ranks::with_eleven_twelve);
  if (!card) throw std::logic_error("cassino bot: not a card: " + text.dump());
  return *card;
}

// What taking a card is worth at the deal's scoring: every card counts towards
// the majority, spades towards theirs, and the scoring cards most of all.
double worth(Card card, bool spade_scoring) {
  double points = 1.0;
  if (card.suit == Suit::spades) points += spade_scoring ? 1.5 : 0.5;
  if (card.rank == ace) points += 3.0;
  if (card == Card{10, Suit::diamonds}) points += 6.0;
  if (card == Card{2, Suit::spades}) points += 3.0;
  if (spade_scoring && card.suit == Suit::spades && (card.rank == ace || card.rank == 2 || card.rank == jack))
    points += 3.0;
  return points;
}

struct Seen {
  const Json& view;
  bool spade_scoring = view["rules"].value("spade", false);

  const Json* build(int id) const {
    for (const auto& meld : view["melds"])
      if (meld["id"] == id) return &meld;
    return nullptr;
  }
  const Json& table() const {
    for (const auto& pile : view["piles"])
      if (pile["id"] == "table") return pile;
    throw std::logic_error("cassino bot: the view has no table");
  }
  double cards_worth(const Json& action, const char* loose_field) const {
    double total = worth(card_of(action["card"]), spade_scoring);
    for (const auto& text : action[loose_field]) total += worth(card_of(text), spade_scoring);
    for (const auto& id : action["builds"])
      if (const auto* meld = build(id.get<int>()))
        for (const auto& text : (*meld)["cards"]) total += worth(card_of(text), spade_scoring);
    return total;
  }
  bool sweeps(const Json& capture) const {
    return capture["take"].size() == table()["count"].get<std::size_t>() &&
           capture["builds"].size() == view["melds"].size();
  }
  // A card worth little that pairs nothing on the table gives least away.
  double usefulness(const Json& trail) const {
    const Card card = card_of(trail["card"]);
    double use = worth(card, spade_scoring);
    for (const auto& text : table()["cards"])
      if (card_of(text).rank == card.rank) use += 2.0;
    return use;
  }
};

}  // namespace

Json cassino_bot(const Json& view, const Json& legal, Rng&) {
  if (!legal.is_array() || legal.empty()) throw std::logic_error("cassino bot: no legal action");
  const Seen seen{view};
  const Json* best = nullptr;
  double best_score = -1e9;
  auto consider = [&](const Json& action, double score) {
    if (score > best_score) {
      best = &action;
      best_score = score;
    }
  };
  for (const auto& action : legal) {
    const auto type = action["type"].get<std::string>();
    if (type == "capture") consider(action, 100.0 + seen.cards_worth(action, "take") + (seen.sweeps(action) ? 8.0 : 0));
    else if (type == "build") consider(action, 50.0 + seen.cards_worth(action, "with"));
    else consider(action, -seen.usefulness(action));
  }
  return *best;
}

}  // namespace parlour::rules::cassino
