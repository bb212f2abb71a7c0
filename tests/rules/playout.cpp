#include "tests/rules/playout.h"

#include "rules/random_play.h"

namespace parlour::test {

namespace {

struct Step {
  int seat;  // -1: the next deal
  Json action;
};

std::size_t cards_in_play(const Json& view) {
  std::size_t count = view["stock"].get<std::size_t>();
  count += view.contains("pile") ? view["pile"].size() : view.value("pile_size", std::size_t{0});  // Carousel: no pile
  for (const auto& hand : view["hands"]) count += hand["count"].get<std::size_t>();
  for (const auto& meld : view["table"]) count += meld["cards"].size();
  return count;
}

// Replays the game to this point once per listed action and applies it there.
void every_listed_action_applies(const Playout& spec, int players, std::uint64_t seed, const std::vector<Step>& history,
                                 int seat, const Json& legal) {
  for (const auto& action : legal) {
    Harness replay(spec.game, spec.options, std::vector<std::int64_t>(players, 1000), seed, std::nullopt, drawn_dealer);
    for (const auto& step : history) {
      if (step.seat < 0) replay.next_deal();
      else replay.act(step.seat, step.action);
    }
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
        every_listed_action_applies(spec, players, seed, history, seat, legal);
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

}  // namespace parlour::test
