// Every game's view follows the common schema of rules/view.h (docs/protocol.md
// "View schema"), for every seat and for a spectator, at every step of random
// games: the required parts with their types, the optional parts well formed
// where present, the layout the catalogue names, and no hidden card: a seat's
// view differs from a spectator's only in that seat's own entry, and a
// spectator sees no card of a hand unless the game's rules lay hands face up.
// The keys a game names as its view's constants are the same in every view of
// a table, all table long.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "rules/random_play.h"
#include "rules/rng.h"
#include "tests/rules/harness.h"
#include "tests/rules/view_checks.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_view_schema {

using parlour::rules::GameInfo;
using parlour::rules::Json;
using parlour::rules::Phase;
using parlour::rules::Registry;
using parlour::test::Harness;
using parlour::test::hands_face_up_by_rule;
using parlour::test::hidden_hand_problems;
using parlour::test::leaks;
using parlour::test::schema_problems;

namespace {

// What a view holds of each of the game's view constants (GameInfo::view_constants):
// its value, or nullopt where the view has no such key.
using Constants = std::map<std::string, std::optional<Json>>;

Constants constants_of(const Json& view, const GameInfo& info) {
  Constants out;
  for (const auto& key : info.view_constants)
    out[key] = view.contains(key) ? std::optional<Json>(view[key]) : std::nullopt;
  return out;
}

// A state push sends the view's constants once per connection, so they must be
// the same in every seat's view and a spectator's, all table long: `table`
// holds what the table's first view had.
void check_constants(const Json& view, const GameInfo& info, std::optional<Constants>& table, const std::string& whose) {
  const auto now = constants_of(view, info);
  if (!table) table = now;
  for (const auto& [key, value] : now)
    CHECK_MESSAGE(value == table->at(key), whose << "'s view changes the constant '" << key << "' from "
                                              << (table->at(key) ? table->at(key)->dump() : "absent") << " to "
                                              << (value ? value->dump() : "absent"));
}

void check_every_view(Harness& h, const GameInfo& info, int players, std::optional<Constants>& constants) {
  const auto to_act = h.game().to_act();
  const Json spectator = h.game().view(std::nullopt);
  check_constants(spectator, info, constants, "a spectator");
  auto problems = schema_problems(spectator, info, players, to_act);
  CHECK_MESSAGE(problems.empty(), "spectator: " << Json(problems).dump() << "\n" << spectator.dump());
  std::vector<Json> own_entries;
  for (int seat = 0; seat < players; ++seat) {
    const Json view = h.game().view(seat);
    check_constants(view, info, constants, "seat " + std::to_string(seat));
    problems = schema_problems(view, info, players, to_act);
    CHECK_MESSAGE(problems.empty(), "seat " << seat << ": " << Json(problems).dump() << "\n" << view.dump());
    const auto leaked = leaks(view, spectator, seat);
    CHECK_MESSAGE(leaked.empty(), "seat " << seat << " sees more than a spectator: " << Json(leaked).dump());
    own_entries.push_back(view["seats"][seat]);
  }
  problems = hidden_hand_problems(spectator, own_entries, hands_face_up_by_rule.count(info.id) > 0);
  CHECK_MESSAGE(problems.empty(), Json(problems).dump());
}

}  // namespace

TEST_CASE("every game's every view validates against the common schema, hides what is hidden and keeps its constants") {
  for (const auto& info : Registry::builtin().all()) {
    CAPTURE(info.id);
    std::set<int> player_counts = {info.min_players, std::min(info.max_players, std::max(info.min_players, 4))};
    for (int players : player_counts) {
      CAPTURE(players);
      for (std::uint64_t seed = 1; seed <= 2; ++seed) {
        CAPTURE(seed);
        Harness h(info.id, Json::object(), std::vector<std::int64_t>(players, 500), seed, std::nullopt,
                  parlour::test::drawn_dealer);
        parlour::rules::Rng rng(seed);
        std::optional<Constants> constants;
        for (int step = 0; step < 160; ++step) {
          check_every_view(h, info, players, constants);
          if (h.game().phase() == Phase::game_over) break;
          if (h.game().phase() == Phase::deal_over) {
            h.next_deal();
            continue;
          }
          const auto acting = h.game().to_act();
          const int seat = acting[rng.below(acting.size())];
          h.act(seat, parlour::rules::random_legal_action(h.legal(seat), rng));
        }
      }
    }
  }
}

TEST_CASE("the schema check finds what is wrong with a view") {
  const auto& info = *Registry::builtin().find("red_dog");
  Json good = {{"layout", "betting"},
               {"phase", "betting"},
               {"deal", 1},
               {"dealer", 0},
               {"seats", {{{"seat", 0}, {"count", 2}, {"cards", {"AS", "KH"}}, {"status", "waiting"}, {"left", false}},
                          {{"seat", 1}, {"count", 2}, {"cards", {"??", "??"}}, {"status", "waiting"}, {"left", false}}}},
               {"piles", {{{"id", "stock"}, {"owner", nullptr}, {"count", 40}, {"top", nullptr}}}},
               {"pools", {{"pot", 2}}},
               {"turn", {{"seats", {1}}, {"stage", "bet"}}}};
  CHECK(schema_problems(good, info, 2, {1}).empty());

  Json bad = good;
  bad["layout"] = "rummy";
  bad["seats"][1]["count"] = 3;
  bad["piles"][0]["cards"] = {"2C"};
  bad["turn"]["seats"] = {0};
  bad.erase("dealer");
  const auto problems = schema_problems(bad, info, 2, {1});
  CHECK(problems.size() >= 5);

  Json seen_by_seat_0 = good;
  Json seen_by_spectator = good;
  seen_by_spectator["seats"][0]["cards"] = {"??", "??"};
  CHECK(leaks(seen_by_seat_0, seen_by_spectator, 0).empty());
  seen_by_seat_0["seats"][1]["cards"] = {"QD", "JC"};
  CHECK_FALSE(leaks(seen_by_seat_0, seen_by_spectator, 0).empty());

  CHECK_FALSE(hidden_hand_problems(good, {good["seats"][0], good["seats"][1]}, false).empty());
  CHECK(hidden_hand_problems(seen_by_spectator, {good["seats"][0], good["seats"][1]}, false).empty());
}

}  // namespace unity_test_view_schema
