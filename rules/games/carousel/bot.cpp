// Carousel's level-1 bot (rules/games/carousel.h): the shared Rummy bot's
// judgement of a hand (rules/rummy/bot.h) on Carousel's own turn, from the view
// and legal list only. Every card held counts at the deal's end, so the aim is a
// count of 5 or less to knock, or an empty hand. As source 002 advises, it draws
// a second card before melding unless laying out now would let it knock; once
// it lays out it goes on laying out (each layout chosen to leave the hand with the
// best prospects), then knocks if it may, else finishes.
#include "rules/games/carousel.h"

#include <algorithm>
#include <limits>
#include <map>
#include <stdexcept>

#include "rules/rummy/arrangement.h"
#include "rules/rummy/bot.h"
#include "rules/rummy/card_lists.h"

namespace parlour::rules::carousel {

namespace {

using rummy::Seen;

std::string type_of(const Json& action) { return action.value("type", ""); }

std::optional<Json> first_of(const Json& legal, const std::string& type) {
  for (const auto& a : legal)
    if (type_of(a) == type) return a;
  return std::nullopt;
}

// The hand's count if it laid out everything its best arrangement melds and laid
// off every other card that fits a table meld: what laying out now could reach.
int code_of(Card c) { return c.rank * 4 + static_cast<int>(c.suit); }

int reachable_count(const Seen& seen) {
  const auto best = rummy::best_arrangement(seen.hand, seen.melds, seen.values);
  int count = 0;
  for (auto c : best.deadwood) {
    const bool fits = std::any_of(seen.table.begin(), seen.table.end(),
                                  [&](const rummy::Meld& m) { return rummy::lays_off(m, c, seen.melds); });
    if (!fits) count += seen.values.in_hand(c);
  }
  return count;
}

// The hand left by a layout: the hand less the cards the new table has beyond the old.
std::vector<Card> hand_after(const Json& layout, const Seen& seen) {
  std::map<int, int> added;
  for (auto c : rummy::action_cards(layout, "melds")) ++added[code_of(c)];
  for (const auto& meld : seen.table)
    for (const auto& mc : meld.cards) --added[code_of(mc.card)];
  std::vector<Card> rest;
  for (auto c : seen.hand) {
    auto it = added.find(code_of(c));
    if (it != added.end() && it->second > 0) {
      --it->second;
      continue;
    }
    rest.push_back(c);
  }
  return rest;
}

rummy::MeldSpec spec_of(const rummy::Meld& meld) {
  rummy::MeldSpec spec;
  for (const auto& mc : meld.cards) {
    spec.cards.push_back(mc.card);
    if (mc.wild) spec.declared.push_back(mc.as);
  }
  return spec;
}

// A layout the listing leaves out (it lists single lay-offs, new melds and joker
// exchanges): one table meld without a wild taken apart and arranged anew with
// the hand, as a run split by a card or several cards laid off at once. Checked
// with the engine's own validate_layout, so only a valid layout is returned.
struct Rearranged {
  Json action;
  double cost = std::numeric_limits<double>::infinity();
};

Rearranged best_rearrangement(const Seen& seen) {
  Rearranged out;
  for (std::size_t i = 0; i < seen.table.size(); ++i) {
    const auto& meld = seen.table[i];
    if (meld.cards.empty() ||
        std::any_of(meld.cards.begin(), meld.cards.end(), [](const rummy::MeldCard& mc) { return mc.wild; }))
      continue;
    auto cards = seen.hand;
    for (const auto& mc : meld.cards) cards.push_back(mc.card);
    const auto arranged = rummy::best_arrangement(cards, seen.melds, seen.values);
    if (arranged.melds.size() < 2) continue;  // only the meld itself, or a listed lay-off
    std::vector<rummy::MeldSpec> specs;
    Json melds = Json::array();
    for (std::size_t j = 0; j < seen.table.size(); ++j) {
      if (j == i) continue;
      specs.push_back(spec_of(seen.table[j]));
      melds.push_back(rummy::meld_json(seen.table[j]));
    }
    for (const auto& m : arranged.melds) {
      specs.push_back(spec_of(m));
      melds.push_back(rummy::meld_json(m));
    }
    const auto check = rummy::validate_layout(seen.table, specs, seen.hand, seen.melds);
    if (!check) continue;
    auto rest = seen.hand;
    for (auto c : check.from_hand) rest.erase(std::find(rest.begin(), rest.end(), c));
    const double cost = rummy::hand_cost(rest, seen) + 0.01 * seen.values.of_cards(rest);
    if (cost < out.cost) out = {{{"type", "layout"}, {"melds", melds}}, cost};
  }
  return out;
}

// The listed layout that leaves the hand least costly (the hand's count as the
// tie-break); none if no layout is listed.
std::optional<Json> best_layout(const Json& legal, const Seen& seen, const Rearranged& rearranged) {
  const Json* best = rearranged.action.is_null() ? nullptr : &rearranged.action;
  double best_cost = rearranged.cost;
  std::map<std::vector<int>, double> judged;  // many layouts leave the same hand
  const bool big = rummy::is_big_hand(seen.hand);
  for (const auto& a : legal) {
    if (type_of(a) != "layout") continue;
    const auto rest = hand_after(a, seen);
    if (rest.size() >= seen.hand.size()) continue;
    if (big) {  // no search: the layout that sheds the most
      const double count = seen.values.of_cards(rest);
      if (count < best_cost) {
        best_cost = count;
        best = &a;
      }
      continue;
    }
    std::vector<int> key;
    for (auto c : rest) key.push_back(code_of(c));
    std::sort(key.begin(), key.end());
    auto it = judged.find(key);
    if (it == judged.end())
      it = judged.emplace(key, rummy::hand_cost(rest, seen) + 0.01 * seen.values.of_cards(rest)).first;
    if (it->second < best_cost) {
      best_cost = it->second;
      best = &a;
    }
  }
  if (!best) return std::nullopt;
  return *best;
}

Json choose(const Json& view, const Json& legal) {
  const Seen seen = rummy::read_seen(view);
  const int count = seen.values.of_cards(seen.hand);
  const bool final_round = view.contains("final_round") && !view["final_round"].is_null();
  const bool laying_out = view.value("melded_this_turn", false) || final_round;
  const int knock_max = view.value("knock_max", 5);
  const int drawn = view.value("drawn", 0);
  const auto draw = first_of(legal, "draw");
  const auto knock = first_of(legal, "knock");
  const auto finish = first_of(legal, "finish");
  // A layout is the player's at any time of the play stage (the listing holds a
  // subset): the bot's own rearrangements are offered there too.
  const bool play_stage = view.value("turn", Json::object()).value("stage", "") == "play";
  const bool may_lay_out = !seen.hand.empty() &&
                           (play_stage || std::any_of(legal.begin(), legal.end(), [](const Json& a) { return type_of(a) == "layout"; }));
  const auto layout = !may_lay_out                   ? std::nullopt
                      : rummy::is_big_hand(seen.hand) ? best_layout(legal, seen, Rearranged{})
                                                      : best_layout(legal, seen, best_rearrangement(seen));

  if (!laying_out && drawn == 0 && draw) return *draw;  // the turn's first card
  const bool can_knock_after_layouts = !rummy::is_big_hand(seen.hand) && reachable_count(seen) <= knock_max;
  if (layout && (laying_out || can_knock_after_layouts || drawn >= 1 || !draw)) return *layout;
  if (knock && count <= knock_max) return *knock;
  if (draw) return *draw;
  if (finish) return *finish;
  return legal.front();
}

}  // namespace

Json carousel_bot(const Json& view, const Json& legal, Rng&) {
  if (!legal.is_array() || legal.empty()) throw std::logic_error("carousel bot: no legal action to choose from");
  return choose(view, legal);
}

}  // namespace parlour::rules::carousel
