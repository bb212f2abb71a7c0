// The default action a table plays for a seat whose turn clock ran out
// (rules/default_action.h): for every registered game, from positions reached
// by seeded random play, the default is one of the listed actions (bounds at
// their min) and the game accepts it; and each family's choice on hand-made lists.
#include <doctest/doctest.h>

#include <algorithm>

#include "rules/default_action.h"
#include "rules/random_play.h"
#include "rules/rng.h"
#include "tests/rules/harness.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_default_action {

using parlour::rules::Json;
using parlour::rules::Phase;
using parlour::rules::Registry;
using parlour::test::Harness;
namespace rules = parlour::rules;

namespace {

// Whether `action` is `listed` as a player may send it: equal but for bounds, each at its min.
bool matches_at_min(const Json& listed, const Json& action) {
  if (!listed.is_object() || !action.is_object() || listed.size() != action.size()) return false;
  for (const auto& [key, value] : listed.items()) {
    if (!action.contains(key)) return false;
    const bool bounded = value.is_object() && value.contains("min") && value.contains("max");
    if (bounded ? action[key] != value["min"] : action[key] != value) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("every game's default action is listed and accepted, from positions of seeded random play") {
  for (const auto& info : Registry::builtin().all()) {
    CAPTURE(info.id);
    REQUIRE(info.default_action);
    int defaults_played = 0;
    for (std::uint64_t g = 1; g <= 6; ++g) {
      rules::Rng rng(g * 104729 + 17);
      const int players =
          static_cast<int>(rng.between(info.min_players, std::min(info.max_players, info.min_players + 2)));
      Harness h(info.id, Json::object(), std::vector<std::int64_t>(players, 1000), g, std::nullopt,
                parlour::test::drawn_dealer);
      for (int step = 0; step < 600 && h.game().phase() != Phase::game_over; ++step) {
        if (h.game().phase() == Phase::deal_over) {
          h.next_deal();
          continue;
        }
        const auto acting = h.game().to_act();
        REQUIRE(!acting.empty());
        const int seat = acting[rng.below(acting.size())];
        const auto legal = h.legal(seat);
        REQUIRE(!legal.empty());
        const auto view = h.game().view(seat);
        const auto fallback = info.default_for(view, legal);
        CAPTURE(fallback.dump());
        CHECK(fallback == info.default_for(view, legal));  // deterministic
        CHECK(std::any_of(legal.begin(), legal.end(), [&](const Json& l) { return matches_at_min(l, fallback); }));
        // Every third step plays the default (the game must take it), the rest wander at random.
        if (rng.below(3) == 0) {
          CHECK_NOTHROW(h.act(seat, fallback));
          ++defaults_played;
        } else {
          h.act(seat, rules::random_legal_action(legal, rng));
        }
      }
    }
    CHECK(defaults_played > 20);
  }
}

TEST_CASE("a game played by its default action alone goes on: every game, two seats, 300 steps") {
  for (const auto& info : Registry::builtin().all()) {
    CAPTURE(info.id);
    const int players = std::max(2, info.min_players);
    Harness h(info.id, Json::object(), std::vector<std::int64_t>(players, 1000), 3, std::nullopt,
              parlour::test::drawn_dealer);
    for (int step = 0; step < 300 && h.game().phase() != Phase::game_over; ++step) {
      if (h.game().phase() == Phase::deal_over) {
        h.next_deal();
        continue;
      }
      const int seat = h.game().to_act().front();
      const auto legal = h.legal(seat);
      REQUIRE(!legal.empty());
      const auto action = info.default_for(h.game().view(seat), legal);
      CAPTURE(action.dump());
      REQUIRE_NOTHROW(h.act(seat, action));
    }
  }
}

TEST_CASE("each family's default: stand or the lowest bet, pass or the lowest card, draw then shed, trail low") {
  const Json none = Json::object();
  SUBCASE("betting") {
    CHECK(rules::betting_default(none, Json::parse(R"([{"type":"stand"},{"type":"draw"}])")) ==
          Json{{"type", "stand"}});
    CHECK(rules::betting_default(none, Json::parse(R"([{"type":"bet","amount":{"min":3,"max":40}}])")) ==
          Json::parse(R"({"type":"bet","amount":3})"));
    CHECK(rules::betting_default(none, Json::parse(R"([{"type":"bet","colour":"red","amount":{"min":1,"max":9}},
                                                       {"type":"bet","colour":"black","amount":{"min":1,"max":9}}])")) ==
          Json::parse(R"({"type":"bet","colour":"red","amount":1})"));
  }
  SUBCASE("tricks") {
    CHECK(rules::tricks_default(none, Json::parse(R"([{"type":"play"},{"type":"pass"}])")) == Json{{"type", "pass"}});
    CHECK(rules::tricks_default(none, Json::parse(R"([{"type":"card","card":"AS"},{"type":"card","card":"3H"},
                                                      {"type":"card","card":"KD"}])")) ==
          Json::parse(R"({"type":"card","card":"3H"})"));
    CHECK(rules::tricks_default(none, Json::parse(R"([{"type":"keep"},{"type":"exchange","card":"2C"}])")) ==
          Json{{"type", "keep"}});
  }
  SUBCASE("rummy") {
    const auto view = Json::parse(R"({"turn":{"seats":[1],"stage":"play"},
        "seats":[{"seat":0,"cards":["??","??"]},{"seat":1,"cards":["KH","2C","9D"]}]})");
    CHECK(rules::rummy_default(view, Json::parse(R"([{"type":"draw","from":"discard"},{"type":"draw","from":"stock"}])")) ==
          Json::parse(R"({"type":"draw","from":"stock"})"));
    // The card just drawn (held last) goes back out.
    CHECK(rules::rummy_default(view, Json::parse(R"([{"type":"meld","cards":["KH","KS","KD"]},
        {"type":"discard","card":"KH"},{"type":"discard","card":"2C"},{"type":"discard","card":"9D"}])")) ==
          Json::parse(R"({"type":"discard","card":"9D"})"));
    // It may not be discarded: the highest-valued card instead.
    CHECK(rules::rummy_default(view, Json::parse(R"([{"type":"discard","card":"2C"},{"type":"discard","card":"KH"}])")) ==
          Json::parse(R"({"type":"discard","card":"KH"})"));
    CHECK(rules::rummy_default(view, Json::parse(R"([{"type":"draw","from":"discard"},{"type":"decline"}])")) ==
          Json{{"type", "decline"}});
    CHECK(rules::rummy_default(view, Json::parse(R"([{"type":"layout","melds":[]},{"type":"finish"}])")) ==
          Json{{"type", "finish"}});
  }
  SUBCASE("building") {
    CHECK(rules::building_default(none, Json::parse(R"([{"type":"move","card":"7D","from":"stock:1","to":"layout:5"},
        {"type":"move","card":"AH","from":"layout:6","to":"centre:0"},{"type":"turn_hand"}])")) ==
          Json::parse(R"({"type":"move","card":"AH","from":"layout:6","to":"centre:0"})"));
    CHECK(rules::building_default(none, Json::parse(R"([{"type":"move","card":"7D","from":"stock:1","to":"layout:5"},
        {"type":"turn_stock"}])")) == Json{{"type", "turn_stock"}});
  }
  SUBCASE("cassino") {
    CHECK(rules::cassino_default(none, Json::parse(R"([{"type":"capture","card":"5S","take":["5D"],"builds":[]},
        {"type":"trail","card":"KH"},{"type":"trail","card":"4S"}])")) ==
          Json::parse(R"({"type":"trail","card":"4S"})"));
    CHECK(rules::cassino_default(none, Json::parse(R"([{"type":"capture","card":"KH","take":[],"builds":[1]}])")) ==
          Json::parse(R"({"type":"capture","card":"KH","take":[],"builds":[1]})"));
  }
  SUBCASE("generic") {
    CHECK(rules::generic_default(none, Json::parse(R"([{"type":"bid","n":{"min":2,"max":5}},{"type":"skip"}])")) ==
          Json{{"type", "skip"}});
    CHECK(rules::generic_default(none, Json::parse(R"([{"type":"bid","n":{"min":2,"max":5}}])")) ==
          Json::parse(R"({"type":"bid","n":2})"));
  }
}

}  // namespace unity_test_default_action
