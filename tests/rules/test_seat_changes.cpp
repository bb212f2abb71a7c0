// Games without a natural end, whose every deal settles its own chips, take a new
// player into a seat between deals (GameInfo::seats_change_between_deals); the
// others are played to their end by those who started them.
#include <doctest/doctest.h>

#include <algorithm>

#include "rules/random_play.h"
#include "rules/registry.h"
#include "tests/rules/harness.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_seat_changes {

using namespace parlour::test;
namespace rules = parlour::rules;

namespace {

void play_deal_out(Harness& h, rules::Rng& rng) {
  for (int step = 0; step < 5000 && h.game().phase() == rules::Phase::playing; ++step) {
    const auto acting = h.game().to_act();
    REQUIRE_FALSE(acting.empty());
    const int seat = acting.front();
    h.act(seat, rules::random_legal_action(h.legal(seat), rng));
  }
  REQUIRE(h.game().phase() != rules::Phase::playing);
}

int players_for(const rules::GameInfo& info) { return std::min(info.max_players, std::max(3, info.min_players) + 1); }

}  // namespace

TEST_CASE("the games that take a player between deals are those without a natural end (GAMES.md)") {
  std::vector<std::string> taking;
  for (const auto& info : rules::Registry::builtin().all())
    if (info.seats_change_between_deals) taking.push_back(info.id);
  std::sort(taking.begin(), taking.end());
  CHECK(taking == std::vector<std::string>{"rams", "red_and_black", "red_dog", "reversi", "rounce"});
}

TEST_CASE("a seat left in a deal is taken by a newcomer between deals, never during one, and is dealt in afresh") {
  for (const auto& info : rules::Registry::builtin().all()) {
    if (!info.seats_change_between_deals) continue;
    CAPTURE(info.id);
    const int players = players_for(info);
    const int newcomer = players - 1;
    Harness h(info.id, Json::object(), std::vector<std::int64_t>(players, 500), 11);
    rules::Rng rng(5);
    REQUIRE(h.game().phase() == rules::Phase::playing);
    CHECK_THROWS_AS(h.game().seat_taken(0, h.chips()), std::logic_error);
    h.leave(newcomer);
    play_deal_out(h, rng);
    REQUIRE(h.game().phase() == rules::Phase::deal_over);
    CHECK(h.game().view(std::nullopt)["seats"][newcomer]["left"] == true);
    const auto total = h.total();
    CHECK(h.game().seat_taken(newcomer, h.chips()).transfers.empty());
    h.next_deal();
    CHECK(h.total() == total);
    const auto seat = h.game().view(newcomer)["seats"][newcomer];
    CHECK(seat["left"] == false);
    CHECK(seat["status"] != "left");
    play_deal_out(h, rng);
  }
}

TEST_CASE("a seat changes hands between deals without leaving: the newcomer starts afresh (Red Dog: owes the ante)") {
  Harness h("red_dog", Json::object(), {500, 500, 500}, 3);
  rules::Rng rng(9);
  play_deal_out(h, rng);
  const auto pot = h.pool("pot");
  REQUIRE(pot > 0);
  h.game().seat_taken(2, h.chips());
  const auto before = h.chips();
  h.next_deal();
  // Seats 0 and 1 are in the pot already; the newcomer at seat 2 antes to join it.
  CHECK(h.chips(0) == before[0]);
  CHECK(h.chips(1) == before[1]);
  CHECK(h.chips(2) == before[2] - h.game().view(std::nullopt)["ante"].get<std::int64_t>());
}

TEST_CASE("the games played to their end refuse a newcomer's seat, between deals too") {
  for (const auto& info : rules::Registry::builtin().all()) {
    if (info.seats_change_between_deals) continue;
    CAPTURE(info.id);
    Harness h(info.id, Json::object(), std::vector<std::int64_t>(info.min_players, 500), 11);
    CHECK_THROWS_AS(h.game().seat_taken(0, h.chips()), std::logic_error);
  }
}

}  // namespace unity_test_seat_changes
