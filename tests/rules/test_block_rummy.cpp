// Block Rummy (Scarne), source 002 "Block Rummy"; rules/rummy.md §3.4 and §4.
#include <doctest/doctest.h>

#include <map>
#include <set>

#include "rules/registry.h"
#include "tests/rules/harness.h"
#include "tests/rules/rummy_kit.h"
#include "tests/rules/playout.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_block_rummy {

using parlour::rules::Json;
using parlour::rules::Phase;
using parlour::test::cards;
using parlour::test::Harness;
using parlour::test::view_pile;
using namespace parlour::test::rummy_kit;

namespace {

// Draw the stock top and discard it until the stock is gone.
void play_out_stock(Harness& h) {
  while (h.game().phase() == Phase::playing && !h.game().view(std::nullopt).contains("stock_gone")) {
    const int seat = h.game().to_act().front();
    h.act(seat, draw());
    h.act(seat, discard(last_card(h, seat)));
  }
}

const std::vector<std::string> opponent = {"KC", "QC", "9H", "7H", "5D", "3C", "2D"};

}  // namespace

TEST_CASE("block: 7 cards (6 as an option), no upcard, rummy only") {
  for (auto [players, size] : std::vector<std::pair<int, int>>{{2, 7}, {5, 7}, {6, 6}}) {
    Harness h("block_rummy", options({{"hand_size", size}}), std::vector<std::int64_t>(players, 100));
    auto view = h.game().view(1);
    CHECK(view["seats"][1]["cards"].size() == static_cast<std::size_t>(size));
    CHECK(view_pile(view, "discard")["top"].is_null());
    CHECK(h.legal(1) == Json::array({draw()}));
  }
  const auto* info = parlour::rules::Registry::builtin().find("block_rummy");
  REQUIRE(info != nullptr);
  CHECK(info->max_players_with(options({{"hand_size", 7}})) == 5);
  CHECK(parlour::rules::Registry::builtin().find("rummy") != nullptr);  // Block (Hoyle) stays an option of rummy
}

TEST_CASE("block: going out needs a final discard; the rummy on the first pick pays four units") {
  auto deck = deal_no_upcard({{"4S", "5S", "6S", "7S", "8S", "9S", "TS"}, opponent}, {"JS"});
  Harness h("block_rummy", options(), {100, 100}, 1, deck);
  h.act(1, draw());  // JS
  CHECK(h.refusal(1, go_rummy({{"4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS"}})) == "illegal_action");
  for (const auto& a : h.legal(1))
    if (a["type"] == "go_rummy") CHECK(a.contains("discard"));
  h.act(1, go_rummy({{"4S", "5S", "6S", "7S"}, {"8S", "9S", "TS"}}, "JS"));
  CHECK(h.game().result()["units"] == 4);
  CHECK(h.chips() == std::vector<std::int64_t>{96, 104});
}

TEST_CASE("block: going rummy before the stock is gone pays two units (points: twice each unmatched count)") {
  for (auto [payoff, paid] : std::vector<std::pair<std::string, int>>{{"units", 2}, {"points", 2 * 21}}) {
    auto deck = deal_no_upcard({{"7S", "7H", "7D", "KS", "KH", "KD", "2C"}, {"3H", "4H", "5H", "QS", "9D", "AD", "AC"}},
                      {"QD", "JD", "7C"});
    Harness h("block_rummy", options({{"payoff", payoff}}), {100, 100}, 1, deck);
    h.act(1, draw());
    h.act(1, discard("QD"));
    h.act(0, draw());
    h.act(0, discard("JD"));
    h.act(1, draw());  // 7C
    h.act(1, go_rummy({{"7S", "7H", "7D", "7C"}, {"KS", "KH", "KD"}}, "2C"));
    CHECK(h.chips() == std::vector<std::int64_t>{100 - paid, 100 + paid});
  }
}

namespace {

// Three players, 31 cards in the stock: the leader (seat 1) draws the last card,
// so C (seat 2) is the first to play after the stock.
Harness stock_gone_table(const std::vector<std::string>& b, const std::vector<std::string>& c,
                         const std::vector<std::string>& a) {
  Harness h("block_rummy", options(), {100, 100, 100}, 1, deal_no_upcard({b, c, a}));
  play_out_stock(h);
  return h;
}

}  // namespace

TEST_CASE("block: the stock is drawn to the end (no break); then only the upcard, or a refusal that ends play") {
  auto h = stock_gone_table({"7S", "7H", "7D", "7C", "AC", "5H", "4S"}, {"KS", "QH", "JD", "9C", "8S", "6H", "6D"},
                            {"2S", "2H", "2C", "2D", "3S", "3D", "9D"});
  auto view = h.game().view(2);
  CHECK(view_pile(view, "stock")["count"] == 0);
  CHECK(!view.contains("break"));
  CHECK(h.game().to_act() == std::vector<int>{2});
  CHECK(h.legal(2) == Json::array({draw("discard"), {{"type", "decline"}}}));
  CHECK(h.refusal(2, draw()) == "illegal_action");
  h.act(2, {{"type", "decline"}});
  // Counts are unmatched counts: B 1+5+4 = 10, C 59, A 3+3+9 = 15. B wins the differences.
  auto result = h.game().result();
  CHECK(result["end"] == "showdown");
  CHECK(result["counts"] == Json::array({15, 10, 59}));
  CHECK(h.chips() == std::vector<std::int64_t>{95, 154, 51});
}

TEST_CASE("block: tied low counts share the winnings, the odd chip clockwise from the dealer's left") {
  auto h = stock_gone_table({"7S", "7H", "7D", "7C", "AC", "5H", "4S"}, {"KS", "QH", "JD", "9C", "8S", "6H", "6D"},
                            {"2S", "2H", "2C", "2D", "3S", "3D", "4C"});
  h.act(2, {{"type", "decline"}});
  CHECK(h.game().result()["counts"] == Json::array({10, 10, 59}));
  CHECK(h.game().result()["winners"] == Json::array({1, 0}));
  CHECK(h.chips() == std::vector<std::int64_t>{124, 125, 51});
}

TEST_CASE("block: after the stock a player who takes the upcard must discard another card; play goes on") {
  auto h = stock_gone_table({"7S", "7H", "7D", "7C", "AC", "5H", "4S"}, {"KS", "QH", "JD", "9C", "8S", "6H", "6D"},
                            {"2S", "2H", "2C", "2D", "3S", "3D", "9D"});
  const std::string upcard = view_pile(h.game().view(2), "discard")["top"];
  h.act(2, draw("discard"));
  CHECK(h.refusal(2, discard(upcard)) == "illegal_action");
  h.act(2, discard("KS"));
  CHECK(h.game().to_act() == std::vector<int>{0});
  CHECK(h.legal(0) == Json::array({draw("discard"), {{"type", "decline"}}}));
  h.act(0, {{"type", "decline"}});
  CHECK(h.game().phase() == Phase::deal_over);
}

TEST_CASE("block: play after the stock is capped at twice the players' turns (R-B1)") {
  auto h = stock_gone_table({"7S", "7H", "7D", "7C", "AC", "5H", "4S"}, {"KS", "QH", "JD", "9C", "8S", "6H", "6D"},
                            {"2S", "2H", "2C", "2D", "3S", "3D", "9D"});
  int turns = 0;
  while (h.game().phase() == Phase::playing) {
    const int seat = h.game().to_act().front();
    h.act(seat, draw("discard"));
    // Discard the first card that is not the one just taken.
    const Json hand = h.game().view(seat)["seats"][seat]["cards"];
    h.act(seat, discard(hand[0]));
    ++turns;
  }
  CHECK(turns == 6);
  CHECK(h.game().result()["end"] == "showdown");
}

namespace {

void random_games(Json opts, int players_lo, int players_hi) {
  auto ends = random_deal_ends("block_rummy", std::move(opts), players_lo, players_hi);
  CHECK(ends["showdown"] > 0);
  CHECK(ends["went_out"] > 0);
  CHECK(ends.size() == 2);  // no deal ended any other way
}

}  // namespace

TEST_CASE("random deals: block, seven cards") { random_games(options(), 2, 5); }
TEST_CASE("random deals: block, six cards, points") { random_games(options({{"hand_size", 6}, {"payoff", "points"}}), 2, 6); }

}  // namespace unity_test_block_rummy
