#include "tests/rules/rummy_kit.h"

#include <algorithm>
#include <set>

#include "rules/rng.h"
#include "rules/rummy/rummy_base.h"
#include "tests/rules/playout.h"

namespace parlour::test::rummy_kit {

namespace {
std::vector<std::string> in_dealing_order(const std::vector<std::vector<std::string>>& hands) {
  std::vector<std::string> deck;
  for (std::size_t round = 0; round < hands[0].size(); ++round)
    for (const auto& hand : hands) deck.push_back(hand[round]);
  return deck;
}
}  // namespace

std::vector<rules::Card> deal_with_upcard(const std::vector<std::vector<std::string>>& hands, const std::string& upcard,
                                          const std::vector<std::string>& stock) {
  auto deck = in_dealing_order(hands);
  deck.push_back(upcard);
  deck.insert(deck.end(), stock.begin(), stock.end());
  return cards(deck);
}

std::vector<rules::Card> deal_no_upcard(const std::vector<std::vector<std::string>>& hands,
                                        const std::vector<std::string>& top, int fillers,
                                        const std::vector<std::string>& then) {
  auto deck = in_dealing_order(hands);
  deck.insert(deck.end(), top.begin(), top.end());
  std::set<std::string> used(deck.begin(), deck.end());
  used.insert(then.begin(), then.end());
  for (const auto& card : all_cards)
    if (fillers > 0 && !used.count(card)) {
      deck.push_back(card);
      used.insert(card);
      --fillers;
    }
  deck.insert(deck.end(), then.begin(), then.end());
  return cards(deck);
}

std::vector<rules::Card> deal_leader_hand(const std::vector<std::string>& lead, const std::string& draw_card,
                                          int players, std::uint64_t seed) {
  std::vector<std::string> rest;
  for (const auto& c : all_cards)
    if (std::find(lead.begin(), lead.end(), c) == lead.end() && c != draw_card) rest.push_back(c);
  rules::Rng rng(seed);
  rng.shuffle(rest);
  std::vector<std::string> names;
  std::size_t next = 0;
  for (const auto& card : lead) {
    names.push_back(card);
    for (int p = 1; p < players; ++p) names.push_back(rest[next++]);
  }
  names.push_back(draw_card);
  return cards(names);
}

std::map<std::string, int> random_deal_ends(const std::string& game, Json options, int players_lo, int players_hi) {
  Playout spec;
  spec.game = game;
  spec.options = std::move(options);
  spec.min_deals = 1000;
  spec.players_lo = players_lo;
  spec.players_hi = players_hi;
  std::map<std::string, int> ends;
  spec.after_game = [&ends](Harness& h) { ++ends[h.game().result()["end"].get<std::string>()]; };
  random_playouts(spec);
  return ends;
}

std::unique_ptr<rules::GameState> from_snapshot(Harness& h) {
  return h.restored(Json::parse(h.game().snapshot().dump()));
}

std::vector<std::string> sorted(std::vector<std::string> cards) {
  std::sort(cards.begin(), cards.end());
  return cards;
}

std::vector<std::string> sorted_hand(const rules::GameState& game, int seat) {
  return sorted(game.view(seat)["seats"][seat]["cards"].get<std::vector<std::string>>());
}

Json draw(const std::string& from) { return {{"type", "draw"}, {"from", from}}; }
Json take(int depth) { return {{"type", "take"}, {"depth", depth}}; }
Json discard(const std::string& card) { return {{"type", "discard"}, {"card", card}}; }
Json meld(std::vector<std::string> cards_) { return {{"type", "meld"}, {"cards", cards_}}; }
Json lay_off(int meld_index, std::vector<std::string> cards_) {
  return {{"type", "lay_off"}, {"meld", meld_index}, {"cards", cards_}};
}
Json go_rummy(std::vector<std::vector<std::string>> melds, std::optional<std::string> discard_card) {
  Json action = {{"type", "go_rummy"}, {"melds", melds}};
  if (discard_card) action["discard"] = *discard_card;
  return action;
}
Json go_down(std::vector<std::vector<std::string>> melds, std::optional<std::string> shown) {
  Json action = {{"type", "go_down"}, {"melds", melds}};
  if (shown) action["shown"] = *shown;
  return action;
}

void totals(Harness& h, std::vector<int> scores) {
  dynamic_cast<rules::rummy::RummyBase&>(h.game()).set_scores(std::move(scores));
}

Json deal_points(const Json& result) {
  Json out = Json::array();
  for (const auto& seat : result["seats"]) out.push_back(seat["points"]);
  return out;
}

std::vector<Json> listed(const Json& legal, const std::string& type) {
  std::vector<Json> out;
  for (const auto& a : legal)
    if (a["type"] == type) out.push_back(a);
  return out;
}
Json options(std::initializer_list<std::pair<const char*, Json>> set) {
  Json o = Json::object();
  for (const auto& [k, v] : set) o[k] = v;
  return o;
}

std::string last_card(Harness& h, int seat) { return h.game().view(seat)["seats"][seat]["cards"].back(); }

void play_to_break(Harness& h) {
  while (h.game().phase() == rules::Phase::playing && !h.game().view(std::nullopt).contains("break")) {
    const int seat = h.game().to_act().front();
    h.act(seat, draw());
    h.act(seat, discard(last_card(h, seat)));
  }
}

void play_deal_plainly(Harness& h) {
  const std::vector<std::string> preferred = {"go_rummy", "go_down", "meld", "lay_off", "decline", "draw", "discard"};
  for (int steps = 0; h.game().phase() == rules::Phase::playing; ++steps) {
    REQUIRE(steps < 10000);
    const int seat = h.game().to_act().front();
    const auto legal = h.legal(seat);
    REQUIRE(!legal.empty());
    Json chosen = legal.front();
    for (auto it = preferred.rbegin(); it != preferred.rend(); ++it)
      for (const auto& a : legal)
        if (a["type"] == *it && (a["type"] != "draw" || a["from"] == "stock")) {
          chosen = a;
          break;
        }
    h.act(seat, chosen);
  }
}

bool has_action(const Json& legal, const Json& action) {
  for (const auto& a : legal)
    if (a == action) return true;
  return false;
}

}  // namespace parlour::test::rummy_kit
