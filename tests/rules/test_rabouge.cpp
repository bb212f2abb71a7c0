// Rabouge, source 001 and rules/other.md §9 (examples E20–E21).
#include <doctest/doctest.h>

#include <set>

#include "rules/games/rabouge.h"
#include "rules/snapshot.h"
#include "tests/rules/harness.h"
#include "tests/rules/playout.h"
#include "tests/rules/rb_kit.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_rabouge {

using namespace parlour::test;
using parlour::rules::Json;
using parlour::rules::Phase;
using parlour::rules::Rng;

namespace {

// One player's pack: the stock (top first) padded to 7 cards, then the supply
// (top first) padded with the pack's other cards, low ranks last.
std::vector<std::string> pack(std::vector<std::string> stock, std::vector<std::string> supply) {
  std::set<std::string> used(stock.begin(), stock.end());
  used.insert(supply.begin(), supply.end());
  std::vector<std::string> padding;
  for (const char* rank : {"K", "Q", "J", "T", "8", "7", "6", "4", "3", "2", "A", "9", "5"})
    for (const char* suit : {"S", "H", "D", "C"})
      if (!used.count(std::string(rank) + suit)) padding.push_back(std::string(rank) + suit);
  auto next = padding.begin();
  while (stock.size() < 7) stock.push_back(*next++);
  while (stock.size() + supply.size() < 52) supply.push_back(*next++);
  stock.insert(stock.end(), supply.begin(), supply.end());
  return stock;
}

Harness dealt(const std::vector<std::vector<std::string>>& packs, Json options = Json::object()) {
  std::vector<std::string> deck;
  for (const auto& p : packs) deck.insert(deck.end(), p.begin(), p.end());
  return Harness("rabouge", std::move(options), std::vector<std::int64_t>(packs.size(), 1000), 3, cards(deck));
}

Harness at(int players, const Json& position, Json options = Json::object(), std::int64_t chips = 1000) {
  return Harness(parlour::rules::rabouge_at(options, players, position), std::vector<std::int64_t>(players, chips));
}

// Piles of a position, each bottom first. Spelled out because nlohmann reads a
// lone two-card list as an object.
Json piles(const std::vector<std::vector<std::string>>& list) { return Json(list); }

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
std::vector<std::string> strings(std::initializer_list<const char*> items) { return {items.begin(), items.end()}; }

// A twelve-card pile from 5 up to 3, waiting for a 4.
Json twelve_from_five() { return {"5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS", "2S", "3S"}; }

}  // namespace

// ------------------------------------------------------------------ setup

TEST_CASE("Rabouge: with a pack each, seven cards form the stock with its top turned up and the rest the supply") {
  Harness h("rabouge", {}, {1000, 1000, 1000}, 4);
  const auto view = h.game().view(0);
  CHECK(view["layout"] == "building");
  CHECK(view["phase"] == "opening");
  CHECK(view["stock_size"] == 7);
  for (int seat = 0; seat < 3; ++seat) {
    CHECK(view["seats"][seat]["stock"] == 7);
    CHECK(view["seats"][seat]["stock_top"].is_string());
    CHECK(view["seats"][seat]["supply"] == 45);
    CHECK(view["seats"][seat]["cards"].size() == 45);
    CHECK_FALSE(pile(view, "stock:" + std::to_string(seat)).contains("cards"));
    CHECK(pile(view, "supply:" + std::to_string(seat))["top"].is_null());
  }
  CHECK(cards_in_piles(view) == 3 * 52);
}

TEST_CASE("Rabouge: the highest stock card leads, the ace counting low") {
  auto h = dealt({pack({"AS"}, {}), pack({"2S"}, {}), pack({"KH"}, {})});
  CHECK(h.game().to_act() == std::vector<int>{2});
  auto low_ace = dealt({pack({"AS"}, {}), pack({"2S"}, {})});
  CHECK(low_ace.game().to_act() == std::vector<int>{1});
}

TEST_CASE("Rabouge: a tie for the highest stock card is settled by the seed, and the log says so") {
  std::set<int> leads;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    auto a = pack({"QS"}, {});
    const auto b = pack({"QH"}, {});
    a.insert(a.end(), b.begin(), b.end());
    auto game = parlour::rules::Registry::create(*parlour::rules::Registry::builtin().find("rabouge"),
                                                 {Json::object(), 2, seed, cards(a), {1000, 1000}});
    const auto fx = game->start_next_deal({1000, 1000});
    CHECK(contains(fx.log.front(), "the draw"));
    leads.insert(game->to_act().front());
  }
  CHECK(leads == std::set<int>{0, 1});
}

TEST_CASE("Rabouge: options refuse a single pack and more players than packs") {
  const auto* info = parlour::rules::Registry::builtin().find("rabouge");
  CHECK_THROWS_AS(parlour::rules::Registry::create(*info, {{{"packs", 1}}, 2, 1, std::nullopt, {1000, 1000}}),
                  parlour::rules::SetupError);
  CHECK_THROWS_AS(parlour::rules::Registry::create(*info, {{{"packs", 3}}, 4, 1, std::nullopt, {1, 1, 1, 1}}),
                  parlour::rules::SetupError);
  CHECK_NOTHROW(parlour::rules::Registry::create(*info, {{{"packs", 3}}, 3, 1, std::nullopt, {1, 1, 1}}));
}

TEST_CASE("E21: stock sizes: 6 players with 12 packs have 14 cards each, with 9 packs 10") {
  Harness twelve("rabouge", {{"packs", 12}}, std::vector<std::int64_t>(6, 1000), 2);
  auto view = twelve.game().view(std::nullopt);
  CHECK(view["stock_size"] == 14);
  CHECK(view["seats"][0]["stock"] == 14);
  CHECK(view["seats"][0]["supply"] == 104 - 14);
  CHECK(cards_in_piles(view) == 12 * 52);
  Harness nine("rabouge", {{"packs", 9}}, std::vector<std::int64_t>(6, 1000), 2);
  view = nine.game().view(std::nullopt);
  CHECK(view["stock_size"] == 10);
  CHECK(view["seats"][5]["stock"] == 10);
  CHECK(view["seats"][5]["supply"] == 78 - 10);
  Harness uneven("rabouge", {{"packs", 4}}, std::vector<std::int64_t>(3, 1000), 2);
  view = uneven.game().view(std::nullopt);
  CHECK(view["stock_size"] == 9);
  CHECK(view["aside"] == 1);
  CHECK(view["seats"][2]["supply"] == 69 - 9);
  CHECK(cards_in_piles(view) + 1 == 4 * 52);
}

// ------------------------------------------------------------------ E20 and the opening

namespace {

Harness e20() {
  return dealt({pack({"QS", "2C", "2D", "2H", "2S", "3D", "3H"}, {"9S", "TH", "9H", "3C", "JD"}),
                pack({"5S"}, {"TD", "9C", "4D", "KH"})});
}

}  // namespace

TEST_CASE("E20: the first player's 9 is the starter; 10 and J follow it, the second 9 starts a pile, the 3 a discard pile; then the stock Q") {
  auto h = e20();
  REQUIRE(h.game().to_act() == std::vector<int>{0});
  CHECK(listed(h.legal(0)) == strings({"draw"}));
  CHECK(h.game().view(0)["draws_left"] == 5);
  h.act(0, action("draw"));
  auto view = h.game().view(0);
  CHECK(view["starter_rank"] == "9");
  CHECK(pile(view, "centre:0")["cards"] == Json::array({"9S"}));
  h.act(0, action("draw"));
  CHECK(listed(h.legal(0)) == strings({"turned:0>centre:0"}));
  CHECK(contains(refusal_message(h, 0, action("draw")), "drawn card"));
  h.act(0, move("turned:0", "centre:0"));
  h.act(0, action("draw"));
  CHECK(pile(h.game().view(0), "centre:1")["cards"] == Json::array({"9H"}));
  h.act(0, action("draw"));
  CHECK(pile(h.game().view(0), "discard:0:0")["cards"] == Json::array({"3C"}));
  h.act(0, action("draw"));
  CHECK(listed(h.legal(0)) == strings({"turned:0>centre:0"}));
  h.act(0, move("turned:0", "centre:0"));
  CHECK(listed(h.legal(0)) == strings({"stock:0>centre:0"}));
  h.act(0, move("stock:0", "centre:0"));
  view = h.game().view(0);
  CHECK(pile(view, "centre:0")["cards"] == Json::array({"9S", "TH", "JD", "QS"}));
  CHECK(pile(view, "centre:1")["cards"] == Json::array({"9H"}));
  CHECK(pile(view, "discard:0:0")["cards"] == Json::array({"3C"}));
  CHECK(view["seats"][0]["stock_top"] == "2C");
  CHECK(view["seats"][0]["opened"] == true);
  CHECK(h.game().to_act() == std::vector<int>{1});
}

TEST_CASE("Rabouge: the next player's opening draws four cards with no new starter") {
  auto h = e20();
  for (const auto* step : {"draw", "draw", "move", "draw", "draw", "draw", "move", "stock"}) {
    const std::string s = step;
    if (s == "draw") h.act(0, action("draw"));
    else if (s == "move") h.act(0, move("turned:0", "centre:0"));
    else h.act(0, move("stock:0", "centre:0"));
  }
  REQUIRE(h.game().to_act() == std::vector<int>{1});
  CHECK(h.game().view(1)["draws_left"] == 4);
  h.act(1, action("draw"));
  CHECK(listed(h.legal(1)) == strings({"turned:1>centre:1"}));
  h.act(1, move("turned:1", "centre:1"));
  h.act(1, action("draw"));
  CHECK(pile(h.game().view(1), "centre:2")["cards"] == Json::array({"9C"}));
  h.act(1, action("draw"));
  CHECK(pile(h.game().view(1), "discard:1:0")["cards"] == Json::array({"4D"}));
  h.act(1, action("draw"));
  CHECK(listed(h.legal(1)) == strings({"turned:1>centre:0"}));
  h.act(1, move("turned:1", "centre:0"));
  CHECK(h.game().to_act() == std::vector<int>{0});
  CHECK(h.game().view(0)["phase"] == "play");
}

TEST_CASE("Rabouge: play goes anticlockwise, to the previous seat") {
  auto h = dealt({pack({"2S"}, {"AS", "AH", "AD", "AC", "KD"}), pack({"KH"}, {"2H", "2D", "3C", "3D"}),
                  pack({"3S"}, {"4H", "4D", "4C", "4S"})});
  REQUIRE(h.game().to_act() == std::vector<int>{1});
  for (int i = 0; i < 5; ++i) {
    h.act(1, action("draw"));
    for (auto legal = h.legal(1); h.game().to_act() == std::vector<int>{1} && !lists(legal, "draw"); legal = h.legal(1))
      h.act(1, legal[0]);
  }
  CHECK(h.game().to_act() == std::vector<int>{0});
}

TEST_CASE("Rabouge: a starter-rank card on the mover's stock starts a pile at once, and the next stock card is turned") {
  auto h9 = dealt({pack({"QS", "2C", "2D", "2H", "2S", "3D", "3H"}, {"9S", "TH", "9H", "3C", "JD"}),
                   pack({"9D", "5S"}, {"TD", "9C", "4D", "KH"})});
  for (const auto* step : {"draw", "draw", "move", "draw", "draw", "draw", "move", "stock"}) {
    const std::string s = step;
    if (s == "draw") h9.act(0, action("draw"));
    else if (s == "move") h9.act(0, move("turned:0", "centre:0"));
    else h9.act(0, move("stock:0", "centre:0"));
  }
  const auto view = h9.game().view(1);
  CHECK(pile(view, "centre:2")["cards"] == Json::array({"9D"}));
  CHECK(view["seats"][1]["stock_top"] == "5S");
  CHECK(view["seats"][1]["stock"] == 6);
}

// ------------------------------------------------------------------ later turns

TEST_CASE("Rabouge: the stock card that fits comes before a discard top, because it counts double") {
  auto h = at(2, {{"starter", "5"},
                  {"centre", piles({{"5S", "6H"}})},
                  {"seats", {{{"stock", {"KD", "7C"}}, {"supply", {"2S"}}, {"discards", piles({{"7D"}})}}, {{"stock", {"JC"}}, {"supply", {"2C"}}}}}});
  CHECK(listed(h.legal(0)) == strings({"stock:0>centre:0"}));
  CHECK(contains(refusal_message(h, 0, move("discard:0:0", "centre:0")), "counts double"));
  h.act(0, move("stock:0", "centre:0"));
  CHECK(h.game().view(0)["seats"][0]["stock_top"] == "KD");
  CHECK(listed(h.legal(0)) == strings({"draw"}));
}

TEST_CASE("Rabouge: every centre play comes before drawing") {
  auto h = at(2, {{"starter", "5"},
                  {"centre", piles({{"5S"}})},
                  {"seats", {{{"stock", {"KD"}}, {"supply", {"2S"}}, {"discards", piles({{"6D"}})}}, {{"stock", {"JC"}}, {"supply", {"2C"}}}}}});
  CHECK(listed(h.legal(0)) == strings({"discard:0:0>centre:0"}));
  CHECK(contains(refusal_message(h, 0, action("draw")), "every centre play comes before drawing"));
}

TEST_CASE("Rabouge: a drawn card that fits must be played; one that does not goes on a discard pile and ends the turn") {
  auto h = at(2, {{"starter", "5"},
                  {"centre", piles({{"5S", "6H"}})},
                  {"seats", {{{"stock", {"KD"}}, {"supply", {"2H", "7C"}}}, {{"stock", {"JC"}}, {"supply", {"2C"}}}}}});
  CHECK(listed(h.legal(0)) == strings({"draw"}));
  h.act(0, action("draw"));
  CHECK(listed(h.legal(0)) == strings({"turned:0>centre:0"}));
  CHECK(contains(refusal_message(h, 0, move("turned:0", "discard:0:0")), "must be played there"));
  h.act(0, move("turned:0", "centre:0"));
  h.act(0, action("draw"));
  CHECK(listed(h.legal(0)) ==
        strings({"turned:0>discard:0:0", "turned:0>discard:0:1", "turned:0>discard:0:2", "turned:0>discard:0:3"}));
  h.act(0, move("turned:0", "discard:0:2"));
  CHECK(pile(h.game().view(0), "discard:0:2")["cards"] == Json::array({"2H"}));
  CHECK(h.game().to_act() == std::vector<int>{1});
}

TEST_CASE("Rabouge: a drawn starter-rank card starts a pile, and one uncovered on a discard pile does too") {
  auto h = at(2, {{"starter", "5"},
                  {"centre", piles({{"5S"}})},
                  {"seats",
                   {{{"stock", {"KD"}}, {"supply", {"2H", "5C"}}, {"discards", piles({{"5D", "6C"}})}},
                    {{"stock", {"JC"}}, {"supply", {"2C"}}}}}});
  h.act(0, move("discard:0:0", "centre:0"));
  auto view = h.game().view(0);
  CHECK(pile(view, "centre:1")["cards"] == Json::array({"5D"}));
  CHECK(pile(view, "discard:0:0")["count"] == 0);
  h.act(0, action("draw"));
  view = h.game().view(0);
  CHECK(pile(view, "centre:2")["cards"] == Json::array({"5C"}));
  CHECK(listed(h.legal(0)) == strings({"draw"}));
}

namespace {

// E21's position: seat 1 to move, a centre pile of twelve from the five, and
// seat 1's stock card a king that makes it thirteen.
Json e21_position() {
  return {{"mover", 1},
          {"starter", "5"},
          {"centre", Json::array({twelve_from_five()})},
          {"seats",
           {{{"stock", {"KD"}}, {"supply", {"2C"}}},
            {{"stock", {"KC", "4H"}}, {"supply", {"2D"}}},
            {{"stock", {"QC"}}, {"supply", {"2H"}}}}}};
}

// Seat 0 holds one stock card, the 9♣, which plays on the centre pile ending 8♠; the
// others hold 3 and 5 stock cards (E21's payment for the last stock card).
Json last_stock_card_position() {
  return {{"starter", "5"},
          {"centre", piles({{"5S", "6S", "7S", "8S"}})},
          {"seats",
           {{{"stock", {"9C"}}, {"supply", {"2C"}}},
            {{"stock", {"KC", "QD", "4H"}}, {"supply", {"2D"}}},
            {{"stock", {"QC", "JC", "TC", "3C", "3D"}}, {"supply", {"2H"}}}}}};
}

}  // namespace

TEST_CASE("E21: the 13th card on a pile claims a rabouge, the pile leaves play, and option rabouge_stake is paid") {
  auto h = at(3, e21_position(), {{"rabouge_stake", 2}, {"stake", 3}});
  CHECK(listed(h.legal(1)) == strings({"stock:1>centre:0"}));
  h.act(1, move("stock:1", "centre:0"));
  const auto view = h.game().view(std::nullopt);
  CHECK(view["seats"][1]["rabouges"] == 1);
  CHECK(view["scores"] == Json::array({0, 1, 0}));
  CHECK(view["rabouge_cards"] == 13);
  for (const auto& p : view["piles"]) CHECK(p["id"].get<std::string>().rfind("centre:", 0) != 0);
  CHECK(h.chips() == std::vector<std::int64_t>{994, 1012, 994});
}

TEST_CASE("E21: a player who plays his last stock card is paid 2 Marks per card in each other stock") {
  auto h = at(3, last_stock_card_position());
  const auto fx = h.act(0, move("stock:0", "centre:0"));
  CHECK(h.chips() == std::vector<std::int64_t>{1016, 994, 990});
  CHECK(fx.transfers.size() == 2);
  CHECK(h.game().view(0)["seats"][0]["stock"] == 0);
}

TEST_CASE("Rabouge: stock payments are in chips of the stake, and a payer who has less pays what he has") {
  auto h = at(3,
              {{"starter", "5"},
               {"centre", piles({{"5S", "6S", "7S", "8S"}})},
               {"seats",
                {{{"stock", {"9C"}}, {"discards", piles({{"KH"}})}},
                 {{"stock", {"KC", "QD", "4H"}}, {"supply", {"2D"}}},
                 {{"stock", {"QC", "JC", "TC", "3C", "3D"}}, {"supply", {"2H"}}}}}},
              {{"stake", 3}}, 20);
  h.act(0, move("stock:0", "centre:0"));
  CHECK(h.chips() == std::vector<std::int64_t>{20 + 18 + 20, 2, 0});
  h.close();
  const auto result = h.game().result();
  CHECK(result["end"] == "closed");
  CHECK(result["seats"][2]["unpaid"] == 10);
  CHECK(result["seats"][0]["chips"] == 38);
}

// ------------------------------------------------------------------ the end

TEST_CASE("Rabouge: the first player to get rid of every card wins at once, paid the win stake and the card count") {
  auto h = at(2,
              {{"starter", "5"},
               {"centre", piles({{"5S", "6H"}})},
               {"seats",
                {{{"discards", piles({{"7C"}})}},
                 {{"stock", {"KC", "QD"}}, {"supply", {"2D", "3D", "4D"}}, {"discards", piles({{"8H"}})}}}}},
              {{"win_stake", 3}, {"card_count", true}, {"stake", 2}});
  h.act(0, move("discard:0:0", "centre:0"));
  CHECK(h.game().phase() == Phase::game_over);
  const auto result = h.game().result();
  CHECK(result["end"] == "won");
  CHECK(result["winners"] == Json::array({0}));
  const std::int64_t marks = 3 + 2 * 2 + 3 + 1;
  CHECK(h.chips() == std::vector<std::int64_t>{1000 + 2 * marks, 1000 - 2 * marks});
  CHECK(result["seats"][0]["outcome"] == "won");
  CHECK(result["seats"][1]["outcome"] == "lost");
}

TEST_CASE("Rabouge: with nothing to play and the supply spent a player passes; a round of passes is an impasse won by the most rabouges") {
  auto h = at(2,
              {{"starter", "5"},
               {"centre", piles({{"5S"}})},
               {"seats",
                {{{"stock", {"KC"}}, {"rabouges", 1}},
                 {{"discards", piles({{"8H"}, {"9H"}})}}}}},
              {{"win_stake", 5}});
  CHECK(listed(h.legal(0)) == strings({"pass"}));
  h.act(0, action("pass"));
  CHECK(h.game().phase() == Phase::playing);
  CHECK(h.game().view(1)["passes"] == 1);
  h.act(1, action("pass"));
  CHECK(h.game().phase() == Phase::game_over);
  const auto result = h.game().result();
  CHECK(result["end"] == "impasse");
  CHECK(result["winners"] == Json::array({0}));
  CHECK(h.chips() == std::vector<std::int64_t>{1005, 995});
}

TEST_CASE("Rabouge: an impasse between equal rabouges goes to the fewest cards, stock cards counting double") {
  auto h = at(2, {{"starter", "5"},
                  {"centre", piles({{"5S"}})},
                  {"seats", {{{"stock", {"KC", "QC"}}}, {{"discards", piles({{"8H"}, {"9H"}, {"TH"}})}}}}});
  h.act(0, action("pass"));
  h.act(1, action("pass"));
  CHECK(h.game().result()["winners"] == Json::array({1}));
}

TEST_CASE("Rabouge: a full tie shares the win, and each loser pays every winner") {
  auto h = at(3,
              {{"starter", "5"},
               {"centre", piles({{"5S"}})},
               {"seats",
                {{{"stock", {"KC"}}, {"rabouges", 1}},
                 {{"stock", {"KD"}}, {"rabouges", 1}},
                 {{"stock", {"KH"}}}}}},
              {{"win_stake", 2}});
  for (int seat : {0, 2, 1}) {
    REQUIRE(h.game().to_act() == std::vector<int>{seat});
    h.act(seat, action("pass"));
  }
  CHECK(h.game().result()["winners"] == Json::array({0, 1}));
  CHECK(h.chips() == std::vector<std::int64_t>{1002, 1002, 996});
}

TEST_CASE("Rabouge: bad input is refused with its code and changes nothing") {
  auto h = at(2, {{"starter", "5"},
                  {"centre", piles({{"5S"}})},
                  {"seats", {{{"stock", {"KD", "6C"}}, {"supply", {"2S"}}, {"discards", piles({{"6D", "3C"}})}}, {{"stock", {"6H"}}, {"supply", {"2C"}}}}}});
  refusal_message(h, 1, move("stock:1", "centre:0"), "not_your_turn");
  CHECK(contains(refusal_message(h, 0, move("stock:1", "centre:0")), "only your own"));
  CHECK(contains(refusal_message(h, 0, move("centre:0", "discard:0:1")), "stays there"));
  CHECK(contains(refusal_message(h, 0, {{"type", "move"}, {"card", "6D"}, {"from", "discard:0:0"}, {"to", "centre:0"}}),
                 "not the top card"));
  CHECK(contains(refusal_message(h, 0, move("discard:0:0", "centre:0")), "does not fit"));
  CHECK(contains(refusal_message(h, 0, move("stock:0", "discard:0:1")), "only a drawn card"));
  CHECK(contains(refusal_message(h, 0, move("stock:0", "centre:7")), "no centre pile"));
  CHECK(contains(refusal_message(h, 0, move("supply:0", "centre:0")), "one at a time"));
  CHECK(contains(refusal_message(h, 0, action("pass")), "draw instead"));
  CHECK(contains(refusal_message(h, 0, action("stop")), "unknown action"));
}

TEST_CASE("Rabouge: an opening draw that fits nothing starts a discard pile by itself") {
  auto h = e20();
  h.act(0, action("draw"));
  h.act(0, action("draw"));
  CHECK(contains(refusal_message(h, 0, move("turned:0", "discard:0:0")), "by itself"));
}

TEST_CASE("Rabouge: views show every face-up card to everyone and never a supply card or a stock card below the top") {
  auto h = at(2, {{"starter", "5"},
                  {"centre", piles({{"5S"}})},
                  {"seats", {{{"stock", {"QH", "KD"}}, {"supply", {"JD", "2S"}}, {"discards", piles({{"8D", "7C"}})}}, {{"stock", {"QS", "JS"}}, {"supply", {"4C"}}}}}});
  const auto spectator = h.game().view(std::nullopt);
  for (std::optional<int> viewer : {std::optional<int>(0), std::optional<int>(1)}) {
    auto view = h.game().view(viewer);
    view["viewer"] = Json();
    CHECK(view == spectator);
  }
  const auto shown = shown_cards(spectator);
  for (const char* hidden : {"QH", "JD", "2S", "QS", "4C"}) CHECK(std::count(shown.begin(), shown.end(), hidden) == 0);
  for (const char* seen : {"KD", "8D", "7C", "JS", "5S"}) CHECK(std::count(shown.begin(), shown.end(), seen) == 1);
  CHECK(spectator["seats"][0]["cards"] == Json::array({"??", "??"}));
  CHECK(pile(spectator, "centre:0")["next"] == "6");
}

TEST_CASE("Rabouge: a player who leaves is skipped; with one player left the game ends unscored") {
  Harness h("rabouge", {}, {1000, 1000, 1000}, 9);
  const int first = h.game().to_act().front();
  h.leave(first);
  const int next = h.game().to_act().front();
  CHECK(next == (first + 2) % 3);
  h.leave((first + 1) % 3);
  CHECK(h.game().phase() == Phase::game_over);
  CHECK(h.game().result()["end"] == "abandoned");
}

// ------------------------------------------------------------------ the bot

TEST_CASE("Rabouge bot: lays a drawn card where the card beneath will follow it, else in an empty slot") {
  Rng rng(1);
  const Json view = {{"viewer", 0},
                     {"piles",
                      {{{"id", "turned:0"}, {"count", 1}, {"top", "7C"}},
                       {{"id", "discard:0:0"}, {"count", 2}, {"top", "KD"}},
                       {{"id", "discard:0:1"}, {"count", 0}, {"top", nullptr}},
                       {{"id", "discard:0:2"}, {"count", 3}, {"top", "8H"}},
                       {{"id", "discard:0:3"}, {"count", 1}, {"top", "2S"}}}}};
  const Json legal = Json::array({move("turned:0", "discard:0:0"), move("turned:0", "discard:0:1"),
                                  move("turned:0", "discard:0:2"), move("turned:0", "discard:0:3")});
  CHECK(parlour::rules::rabouge_bot(view, legal, rng) == move("turned:0", "discard:0:2"));
  const Json no_follower = Json::array({move("turned:0", "discard:0:0"), move("turned:0", "discard:0:1"),
                                        move("turned:0", "discard:0:3")});
  CHECK(parlour::rules::rabouge_bot(view, no_follower, rng) == move("turned:0", "discard:0:1"));
  const Json piles_only = Json::array({move("turned:0", "discard:0:0"), move("turned:0", "discard:0:3")});
  CHECK(parlour::rules::rabouge_bot(view, piles_only, rng) == move("turned:0", "discard:0:3"));
}

TEST_CASE("Rabouge bot: bots finish their games") {
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    CAPTURE(seed);
    const int players = 2 + static_cast<int>(seed % 4);
    Harness h("rabouge", {}, std::vector<std::int64_t>(players, 1000), seed);
    play_with_bots(h, "rabouge", seed, 20000);
    CHECK(h.game().phase() == Phase::game_over);
  }
}

// ------------------------------------------------------------------ snapshots

TEST_CASE("Rabouge: a game restored from a snapshot taken mid-opening draws the same hidden supply cards") {
  auto h = e20();
  h.act(0, action("draw"));  // the 9 of spades, the starter, starts centre:0
  const auto restored = h.restored(Json::parse(h.game().snapshot().dump()));
  CHECK(restored->view(1) == h.game().view(1));
  restored->apply(0, action("draw"), h.chips());
  CHECK(restored->view(1)["seats"][0]["turned"] == "TH");
  restored->apply(0, move("turned:0", "centre:0"), h.chips());
  restored->apply(0, action("draw"), h.chips());
  CHECK(pile(restored->view(1), "centre:1")["cards"] == Json::array({"9H"}));
}

TEST_CASE("Rabouge: a snapshot that does not fit the game is refused, naming what was expected") {
  auto h = e20();
  h.act(0, action("draw"));
  const auto snapshot = h.game().snapshot();
  const auto refused = [&](const std::function<void(Json&)>& spoil, const std::string& named) {
    auto bad = snapshot;
    spoil(bad);
    try {
      h.restored(bad);
      FAIL("a spoilt snapshot was taken: " << bad.dump());
    } catch (const parlour::rules::SnapshotError& e) {
      CHECK_MESSAGE(contains(e.what(), named), e.what());
    }
  };
  refused([](Json& s) { s["mover"] = 2; }, "\"mover\"");
  refused([](Json& s) { s["players"].erase(1); }, "players");
  refused([](Json& s) { s["players"][1]["cards"]["discards"].erase(0); }, "discard piles");
  refused([](Json& s) { s["starter_rank"] = 14; }, "\"starter_rank\"");
  refused([](Json& s) { s["centre"][0]["cards"] = {{"cards", Json::array()}, {"owners", Json::array()}}; },
          "centre pile");
  refused([](Json& s) { s["centre"].push_back(s["centre"][0]); }, "distinct ids");
  refused([](Json& s) { s["next_pile_id"] = 0; }, "distinct ids");
  refused([](Json& s) { s["players"][1]["left"] = true; }, "two seated players");
  refused([](Json& s) { s["book"]["net"] = Json::array({0, 0, 0}); }, "chip book");
  refused([](Json& s) { s["phase"] = 2; }, "result");
  // Seat 1 has yet to open: an opening may lay aside four drawn cards, each on an empty slot.
  refused(
      [](Json& s) {
        s["players"][1]["cards"]["discards"][3] = {{"cards", Json::array({"2C"})}, {"owners", Json::array({1})}};
      },
      "empty discard slots");
  CHECK_NOTHROW(h.restored(snapshot));
}

// ------------------------------------------------------------------ random play

TEST_CASE("Rabouge: 1,000 seeded random games conserve cards and chips, always end, apply what they list, refuse the rest") {
  int snapshots = 0;
  int won = 0, impasses = 0, rabouges = 0;
  for (std::uint64_t g = 1; g <= 1000; ++g) {
    CAPTURE(g);
    Rng rng(g * 104729);
    const int players = static_cast<int>(rng.between(2, 8));
    const int packs = rng.below(4) == 0 ? static_cast<int>(rng.between(players + 1, players + 4)) : 0;
    const Json options = {{"packs", packs},
                          {"stake", rng.between(1, 3)},
                          {"win_stake", rng.between(0, 5)},
                          {"card_count", rng.below(2) == 0},
                          {"rabouge_stake", rng.between(0, 2)}};
    const Replay replay{"rabouge", options, players, g};
    Harness h("rabouge", options, std::vector<std::int64_t>(players, 1000), g);
    const auto total = h.total();
    const std::size_t cards = 52 * static_cast<std::size_t>(packs == 0 ? players : packs);
    std::vector<Step> history;
    const bool deep = g <= 4;
    // Its own rng, so that the games played stay the same. A snapshot check plays
    // 12 steps comparing every seat's view after each (about 20 ms a check): one
    // step in 2,000 restores about 300 snapshots, and the end of one game in two one more.
    Rng snapshot_rng(g * 7907 + 5);
    for (int steps = 0; h.game().phase() == Phase::playing && steps < 100000; ++steps) {
      const int seat = h.game().to_act().front();
      const auto legal = h.legal(seat);
      REQUIRE_FALSE(legal.empty());
      if (snapshot_rng.below(2000) == 0) {
        ++snapshots;
        snapshot_round_trips(h, snapshot_rng);
      }
      if (deep && history.size() < 300 && rng.below(25) == 0) {
        every_listed_action_applies(replay, history, seat, legal);
        unlisted_actions_refused(replay, history, seat, legal,
                                 probe_actions(h.game().view(seat), {"draw", "pass", "turn_hand", "stop"}),
                                 [](const Json&, const Json&) { return false; });
      }
      const Json chosen = legal[rng.below(legal.size())];
      REQUIRE_NOTHROW(h.act(seat, chosen));
      history.push_back({seat, chosen});
      REQUIRE(h.total() == total);
      if (steps % 64 == 0) {
        const auto view = h.game().view(std::nullopt);
        REQUIRE(cards_in_piles(view) + view["aside"].get<std::size_t>() + view["rabouge_cards"].get<std::size_t>() ==
                cards);
      }
      if (steps % 128 == 0) check_public_view(h.game(), steps / 128 % players);
    }
    REQUIRE(h.game().phase() == Phase::game_over);
    if (snapshot_rng.below(2) == 0) snapshot_round_trips(h, snapshot_rng);  // the game's one deal is over
    const auto view = h.game().view(std::nullopt);
    CHECK(cards_in_piles(view) + view["aside"].get<std::size_t>() + view["rabouge_cards"].get<std::size_t>() == cards);
    const auto result = h.game().result();
    CHECK_FALSE(result["winners"].empty());
    won += result["end"] == "won" ? 1 : 0;
    impasses += result["end"] == "impasse" ? 1 : 0;
    for (const auto& count : result["rabouges"]) rabouges += count.get<int>();
  }
  MESSAGE("snapshots restored mid-game " << snapshots << ", won " << won << ", impasses " << impasses
                                         << ", rabouges " << rabouges);
  CHECK(won + impasses == 1000);
  CHECK(won > 0);
  CHECK(rabouges > 0);
}

// The table adds "Rabouge: " and each {seat:N}'s name to these memos.
TEST_CASE("ledger memos: a rabouge claimed and the last stock card paid, in Marks at the stake") {
  auto h = at(3, e21_position(), {{"rabouge_stake", 2}, {"stake", 3}});
  const auto claimed = h.act(1, move("stock:1", "centre:0"));
  REQUIRE(claimed.transfers.size() == 2);
  CHECK(claimed.transfers[0].memo ==
        "{seat:1} completed a rabouge, a centre pile of 13: each opponent pays 2 Marks, at 3 chips a Mark");

  auto last = at(3, last_stock_card_position());
  const auto fx = last.act(0, move("stock:0", "centre:0"));
  REQUIRE(fx.transfers.size() == 2);
  CHECK(fx.transfers[0].memo == "{seat:0} played his last stock card: 2 Marks for each of the 3 cards left in {seat:1}'s stock");
  CHECK(fx.transfers[1].memo == "{seat:0} played his last stock card: 2 Marks for each of the 5 cards left in {seat:2}'s stock");
}

}  // namespace unity_test_rabouge
