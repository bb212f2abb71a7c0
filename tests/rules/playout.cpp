#include "tests/rules/playout.h"

#include "rules/random_play.h"
#include "rules/snapshot.h"
#include "tests/rules/strong_guarantee.h"
#include "tests/rules/view_checks.h"

namespace parlour::test {

namespace {

constexpr int kGuaranteeTries = 3;   // actions made up from a listed one, at a step checked
constexpr int kGuaranteeSteps = 20;  // steps both states are then played on
constexpr int kSnapshotSteps = 8;    // steps a game and its restored snapshot are played on, compared
constexpr std::uint64_t kSnapshotDealEndsOneIn = 5;  // deals' ends at which a snapshot is restored: one in this many

struct Step {
  int seat;  // -1: the next deal; -2: chips spent elsewhere, action {"seat","amount"}; -3: a player leaves, action {"seat"}
  Json action;
};

void replay_step(Harness& h, const Step& step) {
  if (step.seat == -1) h.next_deal();
  else if (step.seat == -2) h.spend_elsewhere(step.action["seat"].get<int>(), step.action["amount"].get<std::int64_t>());
  else if (step.seat == -3) h.leave(step.action["seat"].get<int>());
  else h.act(step.seat, step.action);
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

// The same, each listed action applied to its own copy of the game as it stands.
void every_listed_action_applies_to_a_copy(const Playout& spec, Harness& h, int seat, const Json& legal) {
  for (const auto& listed : legal)
    for (const auto& action : as_sent(listed)) {
      auto copy = spec.copy_game(h.game());
      CHECK_NOTHROW(copy->apply(seat, action, h.chips()));
    }
}

// The strong guarantee (tests/rules/strong_guarantee.h) at this step, with the
// check's own rng so that the games played stay the same whether it runs or not.
void strong_guarantee_holds(Harness& h, int seat, const Json& legal, rules::Rng& rng) {
  for (const auto& problem : check_refusals(h.game(), h.chips(), seat, legal, rng, kGuaranteeTries, kGuaranteeSteps))
    FAIL_CHECK(problem);
}

}  // namespace

// A snapshot restored is the same game (rules/snapshot.h): it shows the same and
// plays on the same; its own snapshot is the one it was made from; and it goes
// through JSON text, as the server stores it.
void snapshot_round_trips(Harness& h, rules::Rng& rng) {
  const Json snapshot = h.game().snapshot();
  std::unique_ptr<rules::GameState> restored;
  REQUIRE_NOTHROW(restored = h.restored(Json::parse(snapshot.dump())));
  CHECK(restored->snapshot() == snapshot);
  auto copy = h.game().clone();
  const auto differ = differences(*copy, *restored, h.chips());
  if (!differ.empty()) FAIL_CHECK("restored from its snapshot, the game shows otherwise: " << differ);
  const auto apart = drive_apart(*copy, *restored, h.chips(), rng, kSnapshotSteps);
  if (!apart.empty()) FAIL_CHECK("restored from its snapshot, the game plays on otherwise: " << apart);
}

int random_playouts(const Playout& spec) {
  int deals = 0;
  int games = 0;
  for (int g = 1; games < spec.min_games || deals < spec.min_deals; ++g, ++games) {
    REQUIRE_MESSAGE(games < spec.max_games, games << " games played only " << deals << " deals");
    rules::Rng rng(static_cast<std::uint64_t>(g) * 7919 + spec.seed_base);
    const Json options = spec.options_for ? spec.options_for(rng) : spec.options;
    const int players = spec.players_for ? spec.players_for(options, rng)
                                         : static_cast<int>(rng.between(spec.players_lo, spec.players_hi));
    const auto chips = spec.chips_for ? spec.chips_for(players, rng) : std::vector<std::int64_t>(players, 1000);
    const auto seed = static_cast<std::uint64_t>(g) + spec.seed_base;
    CAPTURE(g);
    CAPTURE(options);
    CAPTURE(players);
    Harness h(spec.game, options, chips, seed, std::nullopt, drawn_dealer);
    rules::Rng guarantee_rng(seed * 104723 + 11);
    const auto total = h.total();
    std::vector<Step> history;
    const auto check_cards = [&] {
      if (spec.cards_conserved) spec.cards_conserved(h);
      else REQUIRE(cards_in_play(h.game().view(std::nullopt)) == spec.pack_size(players));
    };
    if (spec.deal_starts && h.game().phase() == rules::Phase::playing) spec.deal_starts(h);
    rules::Rng snapshot_rng(seed * 7907 + 5);
    for (int steps = 0; h.game().phase() != rules::Phase::game_over && steps < spec.max_steps; ++steps) {
      if (h.game().phase() == rules::Phase::deal_over) {
        if (spec.snapshot_one_in > 0 && snapshot_rng.below(kSnapshotDealEndsOneIn) == 0) snapshot_round_trips(h, snapshot_rng);
        h.next_deal();
        history.push_back({-1, {}});
        if (spec.deal_starts && h.game().phase() == rules::Phase::playing) spec.deal_starts(h);
        continue;
      }
      const auto acting = h.game().to_act();
      REQUIRE_MESSAGE(!acting.empty(), "nobody to act: " << h.game().view(std::nullopt).dump());
      const int seat = acting[rng.below(acting.size())];
      const auto legal = h.legal(seat);
      REQUIRE_MESSAGE(!legal.empty(), "no legal action for seat " << seat << ": " << h.game().view(seat).dump());
      if (spec.before_step) spec.before_step(h, seat, legal);
      if (g <= spec.replays && history.size() < 300 && rng.below(50) == 0)
        every_listed_action_applies(spec.game, options, chips, seed, history, seat, legal);
      if (spec.copy_game && rng.below(static_cast<std::uint64_t>(spec.copy_one_in)) == 0)
        every_listed_action_applies_to_a_copy(spec, h, seat, legal);
      if (guarantee_rng.below(static_cast<std::uint64_t>(spec.guarantee_one_in)) == 0)
        strong_guarantee_holds(h, seat, legal, guarantee_rng);
      if (spec.snapshot_one_in > 0 && snapshot_rng.below(static_cast<std::uint64_t>(spec.snapshot_one_in)) == 0)
        snapshot_round_trips(h, snapshot_rng);
      const auto action = spec.choose ? spec.choose(legal, rng) : rules::random_legal_action(legal, rng);
      REQUIRE_NOTHROW(h.act(seat, action));
      history.push_back({seat, action});
      if (spec.leave_one_in > 0 && rng.below(static_cast<std::uint64_t>(spec.leave_one_in)) == 0) {
        const int leaving = static_cast<int>(rng.below(static_cast<std::uint64_t>(players)));
        h.leave(leaving);
        history.push_back({-3, {{"seat", leaving}}});
      }
      check_cards();
      REQUIRE(h.total() == total);
      if (spec.after_step) spec.after_step(h);
      if (spec.deal_over && h.game().phase() != rules::Phase::playing) spec.deal_over(h);
    }
    REQUIRE(h.game().phase() == rules::Phase::game_over);
    CHECK(h.total() == total);
    if (spec.snapshot_one_in > 0 && snapshot_rng.below(2) == 0) snapshot_round_trips(h, snapshot_rng);
    if (spec.after_game) spec.after_game(h);
    deals += h.game().deals_played();
  }
  return games;
}

// Every game names a rest it could not pay in one shape (docs/protocol.md
// "Results, game by game"): {"seat", "to": {"seat"} or {"pool"}, "amount", "memo"};
// a seat's line, where it has an "unpaid" sum, adds up its entries.
static void unpaid_in_one_shape(const Json& result, int players) {
  if (!result.is_object() || !result.contains("unpaid")) return;
  const auto& unpaid = result["unpaid"];
  REQUIRE(unpaid.is_array());
  std::vector<std::int64_t> owed(static_cast<std::size_t>(players), 0);
  for (const auto& entry : unpaid) {
    CAPTURE(entry.dump());
    REQUIRE(entry.is_object());
    CHECK(entry.size() == 4);
    REQUIRE(entry.contains("seat"));
    REQUIRE(entry["seat"].is_number_integer());
    const int seat = entry["seat"];
    REQUIRE((seat >= 0 && seat < players));
    REQUIRE(entry.contains("amount"));
    CHECK(entry["amount"].get<std::int64_t>() > 0);
    CHECK((entry.contains("memo") && entry["memo"].is_string() && !entry["memo"].get<std::string>().empty()));
    REQUIRE(entry.contains("to"));
    const auto& to = entry["to"];
    REQUIRE(to.is_object());
    CHECK(to.size() == 1);
    CHECK(((to.contains("seat") && to["seat"].is_number_integer() && to["seat"] != seat) ||
           (to.contains("pool") && to["pool"].is_string())));
    owed[static_cast<std::size_t>(seat)] += entry["amount"].get<std::int64_t>();
  }
  if (!result.contains("seats") || !result["seats"].is_array()) return;
  for (const auto& line : result["seats"])
    if (line.is_object() && line.contains("unpaid") && line["unpaid"].is_number_integer())
      CHECK(line["unpaid"].get<std::int64_t>() == owed.at(line["seat"].get<std::size_t>()));
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
    rules::Rng guarantee_rng(seed * 104723 + 13);
    const auto start_total = h.total();
    std::int64_t spent = 0;
    std::vector<Step> history;
    while (h.game().phase() != rules::Phase::game_over) {
      if (h.game().phase() == rules::Phase::deal_over) {
        unpaid_in_one_shape(h.game().result(), players);
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
      if (guarantee_rng.below(static_cast<std::uint64_t>(spec.guarantee_one_in)) == 0)
        strong_guarantee_holds(h, seat, legal, guarantee_rng);
      const auto action = rules::random_legal_action(legal, rng);
      REQUIRE_NOTHROW(h.act(seat, action));
      history.push_back({seat, action});
      REQUIRE(h.total() == start_total - spent);
    }
    unpaid_in_one_shape(h.game().result(), players);
    h.close();
    CHECK(h.total() == start_total - spent);
    for (int s = 0; s < players; ++s) CHECK(h.chips(s) >= 0);
    deals += h.game().deals_played();
  }
  return deals;
}

}  // namespace parlour::test
