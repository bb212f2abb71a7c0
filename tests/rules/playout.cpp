#include "tests/rules/playout.h"

#include "rules/random_play.h"

namespace parlour::test {

namespace {

struct Step {
  int seat;  // -1: the next deal; -2: chips spent elsewhere, action {"seat","amount"}
  Json action;
};

void replay_step(Harness& h, const Step& step) {
  if (step.seat == -1) h.next_deal();
  else if (step.seat == -2) h.spend_elsewhere(step.action["seat"].get<int>(), step.action["amount"].get<std::int64_t>());
  else h.act(step.seat, step.action);
}

std::size_t cards_in_play(const Json& view) {
  std::size_t count = 0;
  for (const auto& pile : view["piles"]) count += pile["count"].get<std::size_t>();  // the stock and the discards
  for (const auto& seat : view["seats"]) count += seat["count"].get<std::size_t>();
  for (const auto& meld : view["melds"]) count += meld["cards"].size();
  return count;
}

// Replays the game to this point once per listed action and applies it there.
// A listed action as a player sends it: every {"min","max"} bound at its min, and at its max.
std::vector<Json> as_sent(const Json& listed) {
  Json low = listed;
  Json high = listed;
  bool ranged = false;
  for (const auto& [key, value] : listed.items())
    if (value.is_object() && value.contains("min") && value.contains("max")) {
      low[key] = value["min"];
      high[key] = value["max"];
      ranged = true;
    }
  if (!ranged) return {listed};
  return {low, high};
}

void every_listed_action_applies(const std::string& game, const Json& options, const std::vector<std::int64_t>& chips,
                                 std::uint64_t seed, const std::vector<Step>& history, int seat, const Json& legal) {
  for (const auto& listed : legal)
    for (const auto& action : as_sent(listed)) {
      Harness replay(game, options, chips, seed, std::nullopt, drawn_dealer);
      for (const auto& step : history) replay_step(replay, step);
      CHECK_NOTHROW(replay.act(seat, action));
    }
}

}  // namespace

int random_playouts(const Playout& spec) {
  int deals = 0;
  int games = 0;
  for (int g = 1; deals < spec.min_deals; ++g, ++games) {
    rules::Rng rng(static_cast<std::uint64_t>(g) * 7919 + spec.seed_base);
    const int players = static_cast<int>(rng.between(spec.players_lo, spec.players_hi));
    const auto seed = static_cast<std::uint64_t>(g) + spec.seed_base;
    Harness h(spec.game, spec.options, std::vector<std::int64_t>(players, 1000), seed, std::nullopt, drawn_dealer);
    const auto total = h.total();
    const auto pack = spec.pack_size(players);
    std::vector<Step> history;
    for (int steps = 0; h.game().phase() != rules::Phase::game_over && steps < 100000; ++steps) {
      if (h.game().phase() == rules::Phase::deal_over) {
        h.next_deal();
        history.push_back({-1, {}});
        continue;
      }
      const auto acting = h.game().to_act();
      const int seat = acting[rng.below(acting.size())];
      const auto legal = h.legal(seat);
      REQUIRE_MESSAGE(!legal.empty(), "no legal action for seat " << seat << ": " << h.game().view(seat).dump());
      if (g <= spec.replays && history.size() < 300 && rng.below(50) == 0)
        every_listed_action_applies(spec.game, spec.options, std::vector<std::int64_t>(players, 1000), seed, history,
                                    seat, legal);
      const auto action = rules::random_legal_action(legal, rng);
      REQUIRE_NOTHROW(h.act(seat, action));
      history.push_back({seat, action});
      REQUIRE(cards_in_play(h.game().view(std::nullopt)) == pack);
      REQUIRE(h.total() == total);
    }
    REQUIRE(h.game().phase() == rules::Phase::game_over);
    CHECK(h.total() == total);
    if (spec.after_game) spec.after_game(h);
    deals += h.game().deals_played();
  }
  return games;
}

int low_chip_games(const LowChips& spec) {
  int deals = 0;
  for (int g = 1; g <= spec.games; ++g) {
    rules::Rng rng(static_cast<std::uint64_t>(g) * 104729 + spec.seed_base);
    const int players = static_cast<int>(rng.between(spec.players_lo, spec.players_hi));
    std::vector<std::int64_t> chips;
    for (int s = 0; s < players; ++s) chips.push_back(rng.between(spec.chips_lo, spec.chips_hi));
    const auto seed = static_cast<std::uint64_t>(g) + spec.seed_base;
    CAPTURE(g);
    CAPTURE(players);
    Harness h(spec.game, spec.options, chips, seed, std::nullopt, drawn_dealer);
    const auto start_total = h.total();
    std::int64_t spent = 0;
    std::vector<Step> history;
    while (h.game().phase() != rules::Phase::game_over) {
      if (h.game().phase() == rules::Phase::deal_over) {
        if (spec.deal_cap > 0 && h.game().deals_played() >= spec.deal_cap) break;
        REQUIRE(h.game().deals_played() < spec.max_deals);
        h.next_deal();
        history.push_back({-1, {}});
        continue;
      }
      if (rng.below(25) == 0) {
        const int seat = static_cast<int>(rng.below(static_cast<std::uint64_t>(players)));
        const auto amount = rng.between(0, std::max<std::int64_t>(h.chips(seat), 0));
        h.spend_elsewhere(seat, amount);
        spent += amount;
        history.push_back({-2, {{"seat", seat}, {"amount", amount}}});
      }
      const auto acting = h.game().to_act();
      REQUIRE(!acting.empty());
      const int seat = acting[rng.below(acting.size())];
      const auto legal = h.legal(seat);
      REQUIRE_MESSAGE(!legal.empty(), "no legal action for seat " << seat << ": " << h.game().view(seat).dump());
      if (g <= spec.replays && history.size() < 400 && rng.below(40) == 0)
        every_listed_action_applies(spec.game, spec.options, chips, seed, history, seat, legal);
      const auto action = rules::random_legal_action(legal, rng);
      REQUIRE_NOTHROW(h.act(seat, action));
      history.push_back({seat, action});
      REQUIRE(h.total() == start_total - spent);
    }
    h.close();
    CHECK(h.total() == start_total - spent);
    for (int s = 0; s < players; ++s) CHECK(h.chips(s) >= 0);
    deals += h.game().deals_played();
  }
  return deals;
}

}  // namespace parlour::test
