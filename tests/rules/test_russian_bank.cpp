// Russian Bank, source 000 "RUSSIAN BANK" and rules/other.md §8 (examples E16–E19).
#include <doctest/doctest.h>

#include <set>

#include "rules/games/russian_bank.h"
#include "rules/random_play.h"
#include "rules/snapshot.h"
#include "tests/rules/harness.h"
#include "tests/rules/playout.h"
#include "tests/rules/rb_kit.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_russian_bank {

using namespace parlour::test;
using parlour::rules::Json;
using parlour::rules::Phase;
using parlour::rules::Rng;

namespace {

// One seat's pack in dealing order: stock (top first), four layout cards, hand
// (top first), padded to 12 and 36 cards with the pack's other cards, kings
// first, so that the padding plays no part in the first moves.
std::vector<std::string> pack(std::vector<std::string> stock, const std::vector<std::string>& column,
                              std::vector<std::string> hand) {
  std::set<std::string> used(stock.begin(), stock.end());
  used.insert(column.begin(), column.end());
  used.insert(hand.begin(), hand.end());
  std::vector<std::string> padding;
  for (const char* rank : {"K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2", "A"})
    for (const char* suit : {"S", "H", "D", "C"})
      if (!used.count(std::string(rank) + suit)) padding.push_back(std::string(rank) + suit);
  auto next = padding.begin();
  while (stock.size() < 12) stock.push_back(*next++);
  while (hand.size() < 36) hand.push_back(*next++);
  std::vector<std::string> out = stock;
  out.insert(out.end(), column.begin(), column.end());
  out.insert(out.end(), hand.begin(), hand.end());
  return out;
}

Harness dealt(const std::vector<std::string>& seat0, const std::vector<std::string>& seat1, Json options = Json::object()) {
  auto deck = seat0;
  deck.insert(deck.end(), seat1.begin(), seat1.end());
  return Harness("russian_bank", std::move(options), {1000, 1000}, 5, cards(deck));
}

Harness at(const Json& position, Json options = Json::object(), std::vector<std::int64_t> chips = {1000, 1000}) {
  return Harness(parlour::rules::russian_bank_at(options, position), std::move(chips));
}

// Eight black layout cards: no base play, no space and no layout move.
Json full_layout() { return {{"KS"}, {"QC"}, {"JS"}, {"TC"}, {"9S"}, {"8C"}, {"5S"}, {"4C"}}; }

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::vector<std::string> strings(std::initializer_list<const char*> items) { return {items.begin(), items.end()}; }

}  // namespace

// ------------------------------------------------------------------ setup

TEST_CASE("Russian Bank: each player deals a twelve-card stock face down, a column of four and a 36-card hand") {
  auto h = dealt(pack({"4S"}, {"9S", "8H", "7C", "KD"}, {}), pack({}, {"QH", "JC", "6D", "5H"}, {}));
  const auto view = h.game().view(0);
  CHECK(view["layout"] == "building");
  for (int seat = 0; seat < 2; ++seat) {
    const auto& s = view["seats"][seat];
    CHECK(s["stock"] == 12);
    CHECK(s["stock_top"].is_null());
    CHECK(s["hand"] == 36);
    CHECK(s["discard"] == 0);
    CHECK(s["turned"].is_null());
    CHECK(s["cards_left"] == 48);
    CHECK(s["cards"].size() == 36);
  }
  const std::vector<std::string> layout = {"9S", "8H", "7C", "KD", "QH", "JC", "6D", "5H"};
  for (int i = 0; i < 8; ++i) {
    const auto p = pile(view, "layout:" + std::to_string(i));
    CHECK(p["cards"] == Json::array({layout[i]}));
    CHECK(p["owners"] == Json::array({i < 4 ? 0 : 1}));
    CHECK(p["side"] == (i < 4 ? 0 : 1));
    CHECK(pile(view, "centre:" + std::to_string(i))["count"] == 0);
  }
  CHECK(cards_in_piles(view) == 104);
  CHECK_FALSE(pile(view, "stock:0").contains("cards"));
  CHECK(pile(view, "stock:0")["top"].is_null());
}

TEST_CASE("Russian Bank: the player who dealt the lowest layout card is X and moves first") {
  auto h = dealt(pack({}, {"5S", "9H", "JD", "KC"}, {}), pack({}, {"3S", "9D", "QC", "KH"}, {}));
  CHECK(h.game().to_act() == std::vector<int>{1});
  const auto view = h.game().view(std::nullopt);
  CHECK(view["first_player"] == 1);
  CHECK(view["seats"][1]["role"] == "X");
  CHECK(view["seats"][0]["role"] == "Y");
}

TEST_CASE("Russian Bank: tied for lowest, the next lowest card decides") {
  auto h = dealt(pack({}, {"3S", "5H", "9C", "KD"}, {}), pack({}, {"3H", "6S", "9D", "KC"}, {}));
  CHECK(h.game().view(std::nullopt)["first_player"] == 0);
}

TEST_CASE("Russian Bank: with four equal ranks, whoever dealt the lowest first is X") {
  auto h = dealt(pack({}, {"9S", "3H", "5C", "KD"}, {}), pack({}, {"3S", "9H", "5D", "KC"}, {}));
  CHECK(h.game().view(std::nullopt)["first_player"] == 1);
}

TEST_CASE("Russian Bank: columns alike in rank and deal order are settled by the seed, and the log says so") {
  const auto seat0 = pack({}, {"3S", "5H", "9C", "KD"}, {});
  const auto seat1 = pack({}, {"3H", "5S", "9D", "KC"}, {});
  auto deck = seat0;
  deck.insert(deck.end(), seat1.begin(), seat1.end());
  std::set<int> firsts;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    auto game = parlour::rules::Registry::create(*parlour::rules::Registry::builtin().find("russian_bank"),
                                                 {Json::object(), 2, seed, cards(deck), {1000, 1000}});
    const auto fx = game->start_next_deal({1000, 1000});
    CHECK(contains(fx.log.front(), "alike"));
    firsts.insert(game->view(std::nullopt)["first_player"].get<int>());
  }
  CHECK(firsts == std::set<int>{0, 1});
}

TEST_CASE("Russian Bank: a stacked deck that repeats a card of one pack is refused") {
  auto deck = pack({}, {"3S", "5H", "9C", "KD"}, {});
  deck[1] = deck[0];
  CHECK_THROWS_AS(parlour::rules::Registry::create(*parlour::rules::Registry::builtin().find("russian_bank"),
                                                   {Json::object(), 2, 1, cards(deck), {1000, 1000}}),
                  parlour::rules::SetupError);
}

// ------------------------------------------------------------------ E16

TEST_CASE("E16: the ace goes to the centre, then the two and the three; Q on K and J on Q, but not the 5 on the 6") {
  auto h = dealt(pack({"4S"}, {"AS", "2S", "3S", "KC"}, {}), pack({}, {"QH", "JC", "6D", "5H"}, {}));
  REQUIRE(h.game().to_act() == std::vector<int>{0});
  CHECK(listed(h.legal(0)) == strings({"layout:0>centre:0", "turn_stock"}));
  CHECK(contains(refusal_message(h, 0, move("layout:4", "layout:3")), "a centre play comes first"));
  h.act(0, move("layout:0", "centre:0"));
  CHECK(listed(h.legal(0)) == strings({"layout:1>centre:0", "turn_stock"}));
  h.act(0, move("layout:1", "centre:0"));
  CHECK(listed(h.legal(0)) == strings({"layout:2>centre:0", "turn_stock"}));
  h.act(0, move("layout:2", "centre:0"));
  CHECK(lists(h.legal(0), "layout:4>layout:3"));
  CHECK_FALSE(lists(h.legal(0), "layout:7>layout:6"));
  h.act(0, move("layout:4", "layout:3"));
  CHECK(lists(h.legal(0), "layout:5>layout:3"));
  h.act(0, move("layout:5", "layout:3"));
  CHECK(contains(refusal_message(h, 0, move("layout:7", "layout:6")), "alternating colour"));
  const auto view = h.game().view(0);
  int spaces = 0;
  for (int i = 0; i < 8; ++i) spaces += pile(view, "layout:" + std::to_string(i))["count"] == 0 ? 1 : 0;
  CHECK(spaces == 5);
  CHECK(pile(view, "layout:3")["cards"] == Json::array({"KC", "QH", "JC"}));
  CHECK(pile(view, "centre:0")["cards"] == Json::array({"AS", "2S", "3S"}));
  CHECK_FALSE(lists(h.legal(0), "turn_hand"));
  h.act(0, action("turn_stock"));
  CHECK(listed(h.legal(0)) == strings({"stock:0>centre:0"}));
  CHECK(contains(refusal_message(h, 0, move("stock:0", "layout:0")), "§8.4 P2"));
}

// ------------------------------------------------------------------ E17 loading

TEST_CASE("E17: Y feeds 7, 6 and 5 of clubs onto X's 8, fills the two spaces from his stock, and loads K on Q") {
  const Json position = {
      {"first", 0},
      {"mover", 1},
      {"turn", 2},
      {"layout", {{"6C"}, {"5C"}, {"KS"}, {"JH"}, {"7S"}, {"3S"}, {"QC"}, {"9S"}}},
      {"seats",
       {{{"stock", {"2D", "8C"}}, {"hand", {"3D", "4D"}}, {"discard", {"9H", "QD"}}},
        {{"stock", {"TD", "2H", "4H", "7C"}}, {"stock_up", false}, {"hand", {"5D", "KH", "KD"}}}}}};
  auto h = at(position);
  REQUIRE(h.game().to_act().front() == 1);
  CHECK(lists(h.legal(1), "turn_stock"));
  h.act(1, action("turn_stock"));
  CHECK(lists(h.legal(1), "stock:1>stock:0"));
  h.act(1, move("stock:1", "stock:0"));
  CHECK(lists(h.legal(1), "layout:0>stock:0"));
  h.act(1, move("layout:0", "stock:0"));
  CHECK(lists(h.legal(1), "layout:1>stock:0"));
  h.act(1, move("layout:1", "stock:0"));
  const auto x_stock = pile(h.game().view(0), "stock:0");
  CHECK(x_stock["top"] == "5C");
  CHECK(x_stock["top_owner"] == 0);
  CHECK(x_stock["count"] == 5);
  CHECK(contains(refusal_message(h, 1, action("turn_hand")), "§8.4 P3"));
  h.act(1, action("turn_stock"));
  h.act(1, move("stock:1", "layout:0"));
  h.act(1, action("turn_stock"));
  CHECK(contains(refusal_message(h, 1, action("turn_hand")), "§8.4 P3"));
  h.act(1, move("stock:1", "layout:1"));
  CHECK(contains(refusal_message(h, 1, action("turn_hand")), "§8.4 P4"));
  h.act(1, action("turn_stock"));
  REQUIRE(lists(h.legal(1), "turn_hand"));
  h.act(1, action("turn_hand"));
  CHECK(lists(h.legal(1), "turned:1>discard:0"));
  h.act(1, move("turned:1", "discard:0"));
  const auto x_discard = pile(h.game().view(0), "discard:0");
  CHECK(x_discard["cards"] == Json::array({"9H", "QD", "KD"}));
  CHECK(x_discard["owners"] == Json::array({0, 0, 1}));
  CHECK(lists(h.legal(1), "turn_hand"));
  CHECK(h.game().to_act().front() == 1);
}

TEST_CASE("E17: loading needs the same suit: K of hearts cannot go on X's Q of diamonds") {
  const Json position = {{"first", 0},
                         {"mover", 1},
                         {"layout", full_layout()},
                         {"seats",
                          {{{"stock", {"2D", "8C"}}, {"discard", {"9H", "QD"}}},
                           {{"stock", {"3C", "JC"}}, {"turned", "KH"}, {"hand", {"5D"}}}}}};
  auto h = at(position);
  CHECK_FALSE(lists(h.legal(1), "turned:1>discard:0"));
  CHECK(contains(refusal_message(h, 1, move("turned:1", "discard:0")), "same suit"));
  CHECK(lists(h.legal(1), "turned:1>discard:1"));
}

TEST_CASE("E17: with a club base at 4, X must build 5, 6, 7 and 8 of clubs from his stock in that order") {
  const Json position = {{"first", 0},
                         {"mover", 0},
                         {"layout", full_layout()},
                         {"centre", {{"AC", "2C", "3C", "4C"}}},
                         {"seats",
                          {{{"stock", {"2D", "8C", "7C/1", "6C/1", "5C/1"}}, {"stock_up", 4}, {"hand", {"3D"}}},
                           {{"stock", {"JH"}}, {"hand", {"5D"}}}}}};
  auto h = at(position);
  for (const char* card : {"5C", "6C", "7C", "8C"}) {
    CAPTURE(card);
    CHECK(listed(h.legal(0)) == strings({"stock:0>centre:0"}));
    h.act(0, {{"type", "move"}, {"card", card}, {"from", "stock:0"}, {"to", "centre:0"}});
  }
  CHECK(pile(h.game().view(0), "centre:0")["top"] == "8C");
  CHECK(pile(h.game().view(0), "stock:0")["top"].is_null());
  CHECK(lists(h.legal(0), "turn_stock"));
}

// ------------------------------------------------------------------ loaded cards stay face up

namespace {

// E17 played out: X (seat 0) ended his turn with 8♣ face up on his stock (2♦
// dealt beneath it) and Q♦ on his discard pile. Y turns up 7♣ and loads it on
// X's 8♣, then 6♣ and 5♣ from the layout; he fills the two spaces from his
// stock, turns up 10♦, loads K♦ from his hand on X's Q♦ and discards K♥. X's
// hand holds A♣ 2♣ 3♣ 4♣ on top; the layout offers him a move (J♥ or J♦ on
// Q♣) and a load (J♦ on Y's 10♦).
Harness e17_loaded(const Json& options = Json::object()) {
  const Json position = {
      {"first", 0},
      {"mover", 1},
      {"turn", 2},
      {"layout", {{"6C"}, {"5C"}, {"KS"}, {"JH"}, {"7S"}, {"3S"}, {"QC"}, {"JD"}}},
      {"seats",
       {{{"stock", {"2D", "8C"}}, {"hand", {"3D", "4C", "3C", "2C", "AC"}}, {"discard", {"9H", "QD"}}},
        {{"stock", {"TD", "2H", "4H", "7C"}}, {"stock_up", false}, {"hand", {"5D", "KH", "KD"}}}}}};
  auto h = at(position, options);
  for (const auto& step : {action("turn_stock"), move("stock:1", "stock:0"), move("layout:0", "stock:0"),
                           move("layout:1", "stock:0"), action("turn_stock"), move("stock:1", "layout:0"),
                           action("turn_stock"), move("stock:1", "layout:1"), action("turn_stock"),
                           action("turn_hand"), move("turned:1", "discard:0"), action("turn_hand"),
                           move("turned:1", "discard:1")})
    h.act(1, step);
  REQUIRE(h.game().view(0)["mover"] == 0);
  return h;
}

// X builds A♣–4♣ from his hand, then the loaded 5♣ from his stock.
void x_builds_clubs_to_five(Harness& h) {
  for (int card = 0; card < 4; ++card) {
    h.act(0, action("turn_hand"));
    h.act(0, move("turned:0", "centre:0"));
  }
  h.act(0, move("stock:0", "centre:0"));
  REQUIRE(pile(h.game().view(0), "centre:0")["top"] == "5C");
}

}  // namespace

TEST_CASE("E17: a loaded stock shows every loaded card face up to both players, on the card they were loaded on") {
  auto h = e17_loaded();
  for (std::optional<int> viewer : {std::optional<int>(0), std::optional<int>(1), std::optional<int>()}) {
    const auto x_stock = pile(h.game().view(viewer), "stock:0");
    CHECK(x_stock["count"] == 5);
    CHECK(x_stock["top"] == "5C");
    CHECK(x_stock["face_up"] == Json::array({"8C", "7C", "6C", "5C"}));
    CHECK(x_stock["owners"] == Json::array({0, 1, 0, 0}));
  }
}

TEST_CASE("E17: after X builds the loaded 5 of clubs, the 6 beneath it lies face up for both players") {
  auto h = e17_loaded();
  x_builds_clubs_to_five(h);
  for (std::optional<int> viewer : {std::optional<int>(0), std::optional<int>(1), std::optional<int>()}) {
    const auto view = h.game().view(viewer);
    const auto x_stock = pile(view, "stock:0");
    CHECK(x_stock["top"] == "6C");
    CHECK(x_stock["top_owner"] == 0);
    CHECK(x_stock["face_up"] == Json::array({"8C", "7C", "6C"}));
    CHECK(view["seats"][0]["stock_top"] == "6C");
  }
}

TEST_CASE("E17, P2: the loaded card beneath must be built next: nothing else is listed, and the rest is refused with the rule") {
  auto h = e17_loaded();
  x_builds_clubs_to_five(h);
  CHECK(listed(h.legal(0)) == strings({"stock:0>centre:0"}));
  CHECK(contains(refusal_message(h, 0, move("layout:3", "layout:6")), "§8.4 P2"));
  CHECK(contains(refusal_message(h, 0, move("layout:7", "stock:1")), "§8.4 P2"));
  CHECK(contains(refusal_message(h, 0, action("turn_hand")), "§8.4 P2"));
  CHECK(contains(refusal_message(h, 0, action("turn_stock")), "already face up"));
  CHECK(h.legal(1).empty());
}

TEST_CASE("E17: loaded three deep, X builds 6, 7 and 8 of clubs in turn, and only then turns up the card dealt beneath") {
  auto h = e17_loaded();
  x_builds_clubs_to_five(h);
  for (const char* card : {"6C", "7C", "8C"}) {
    CAPTURE(card);
    CHECK(pile(h.game().view(1), "stock:0")["top"] == card);
    CHECK(listed(h.legal(0)) == strings({"stock:0>centre:0"}));
    h.act(0, move("stock:0", "centre:0"));
  }
  const auto x_stock = pile(h.game().view(1), "stock:0");
  CHECK(x_stock["count"] == 1);
  CHECK(x_stock["top"].is_null());
  CHECK(x_stock["face_up"] == Json::array());
  CHECK(lists(h.legal(0), "turn_stock"));
  CHECK(lists(h.legal(0), "layout:3>layout:6"));
  h.act(0, action("turn_stock"));
  CHECK(pile(h.game().view(1), "stock:0")["top"] == "2D");
}

TEST_CASE("E17: loaded cards played off the stock back onto the opponent's or onto the layout leave the next face up") {
  Json layout = full_layout();
  layout[5] = {"8H"};
  layout[7] = {"3S"};
  const Json position = {{"layout", layout},
                         {"seats",
                          {{{"stock", {"2D", "8C", "7C/1", "6C/1", "5C/1"}}, {"stock_up", 4}, {"hand", {"3D"}}},
                           {{"stock", {"JH", "4C"}}, {"hand", {"5D"}}}}}};
  auto h = at(position);
  h.act(0, move("stock:0", "stock:1"));  // 5♣ loaded back on Y's 4♣
  CHECK(pile(h.game().view(1), "stock:0")["top"] == "6C");
  h.act(0, move("stock:0", "stock:1"));  // 6♣ on the 5♣
  CHECK(pile(h.game().view(1), "stock:0")["top"] == "7C");
  CHECK(lists(h.legal(0), "stock:0>layout:5"));
  h.act(0, move("stock:0", "layout:5"));  // 7♣ on the 8♥
  const auto x_stock = pile(h.game().view(1), "stock:0");
  CHECK(x_stock["top"] == "8C");
  CHECK(x_stock["face_up"] == Json::array({"8C"}));
  const auto y_stock = pile(h.game().view(0), "stock:1");
  CHECK(y_stock["face_up"] == Json::array({"4C", "5C", "6C"}));
  CHECK(y_stock["owners"] == Json::array({1, 1, 1}));
}

TEST_CASE("E17: a card loaded on the discard pile stays in sight of both beneath later discards, and never comes off") {
  const Json position = {{"layout", full_layout()},
                         {"seats",
                          {{{"stock", {"KC"}}, {"turned", "2S"}, {"discard", {"9H", "QD", "KD/1"}}},
                           {{"stock", {"JH"}}, {"hand", {"5D"}}}}}};
  auto h = at(position);
  CHECK(contains(refusal_message(h, 0, move("discard:0", "layout:0")), "discard pile"));
  h.act(0, move("turned:0", "discard:0"));
  for (std::optional<int> viewer : {std::optional<int>(0), std::optional<int>(1), std::optional<int>()}) {
    const auto x_discard = pile(h.game().view(viewer), "discard:0");
    CHECK(x_discard["cards"] == Json::array({"9H", "QD", "KD", "2S"}));
    CHECK(x_discard["owners"] == Json::array({0, 0, 1, 0}));
  }
}

TEST_CASE("Russian Bank: a written position lays loaded cards face up on the card they were loaded on") {
  const auto refused = [](const Json& x_seat) {
    const Json position = {{"layout", full_layout()}, {"seats", {x_seat, {{"stock", {"JH"}}}}}};
    try {
      at(position);  // a position is laid out when play starts
    } catch (const parlour::rules::SetupError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK(contains(refused({{"stock", {"2D", "8C", "7C/1"}}}), "7C of seat 1's pack where no load lies"));
  CHECK(contains(refused({{"stock", {"2D", "8C", "6C"}}, {"stock_up", 2}}), "6C face up on 8C"));
  CHECK(contains(refused({{"stock", {"8C"}}, {"stock_up", 2}}), "'stock_up'"));
  CHECK(refused({{"stock", {"2D", "8C", "7C/1"}}, {"stock_up", 2}}) == "accepted");
}

TEST_CASE("Russian Bank bot: after building a loaded card it builds the loaded cards beneath, as the rules oblige") {
  auto h = e17_loaded();
  x_builds_clubs_to_five(h);
  Rng rng(1);
  for (const char* card : {"6C", "7C", "8C"}) {
    CAPTURE(card);
    const auto chosen = parlour::rules::russian_bank_bot(h.game().view(0), h.legal(0), rng);
    CHECK(chosen["from"] == "stock:0");
    CHECK(chosen["to"] == "centre:0");
    h.act(0, chosen);
  }
  CHECK(pile(h.game().view(0), "centre:0")["top"] == "8C");
}

TEST_CASE("Stop rule, call: a stop after a loaded card was passed over plays it to its base, and the next loaded card stays face up") {
  auto h = e17_loaded({{"stop_rule", "call"}});
  x_builds_clubs_to_five(h);
  h.act(0, move("layout:3", "layout:6"));  // J♥ on Q♣ before the 6♣: out of order
  CHECK(contains(h.game().view(1)["infraction"].get<std::string>(), "§8.4 P2"));
  REQUIRE(listed(h.legal(1)) == strings({"stop"}));
  h.act(1, action("stop"));
  const auto view = h.game().view(0);
  CHECK(view["mover"] == 1);
  CHECK(pile(view, "centre:0")["top"] == "6C");
  CHECK(pile(view, "stock:0")["top"] == "7C");
  CHECK(pile(view, "stock:0")["face_up"] == Json::array({"8C", "7C"}));
}

// ------------------------------------------------------------------ E18 priorities

TEST_CASE("E18: with 6 of hearts on the stock and in the layout, the stock card goes to the 5 first") {
  Json layout = full_layout();
  layout[4] = {"6H/1"};
  const Json position = {{"layout", layout},
                         {"centre", {{"AH", "2H", "3H", "4H", "5H"}}},
                         {"seats", {{{"stock", {"9S", "6H"}}, {"hand", {"3D"}}}, {{"stock", {"JH"}}}}}};
  auto h = at(position);
  CHECK(listed(h.legal(0)) == strings({"stock:0>centre:0"}));
  CHECK(contains(refusal_message(h, 0, move("layout:4", "centre:0")), "§8.4 P2"));
  h.act(0, move("stock:0", "centre:0"));
  CHECK(pile(h.game().view(0), "centre:0")["top_owner"] == 0);
}

TEST_CASE("E18: a space must be filled before the hand is turned (refused with the rule)") {
  Json layout = full_layout();
  layout[2] = Json::array();
  const Json position = {{"layout", layout}, {"seats", {{{"stock", {"9S", "7C"}}, {"hand", {"3D"}}}, {{"stock", {"JH"}}}}}};
  auto h = at(position);
  CHECK_FALSE(lists(h.legal(0), "turn_hand"));
  CHECK(lists(h.legal(0), "stock:0>layout:2"));
  CHECK(lists(h.legal(0), "layout:0>layout:2"));
  const auto message = refusal_message(h, 0, action("turn_hand"));
  CHECK(contains(message, "every space in the layout must be filled"));
}

TEST_CASE("E18: no card is ever taken from either discard pile") {
  const Json position = {{"layout", full_layout()},
                         {"seats", {{{"stock", {"9S", "7C"}}, {"discard", {"QH"}}}, {{"stock", {"JH"}}, {"discard", {"JC"}}}}}};
  auto h = at(position);
  CHECK(contains(refusal_message(h, 0, move("discard:0", "layout:0")), "discard pile"));
  CHECK(contains(refusal_message(h, 0, move("discard:1", "layout:1")), "discard pile"));
}

// ------------------------------------------------------------------ E19 scoring

namespace {

Json e19_position() {
  return {{"layout", full_layout()},
          {"centre", {{"AS", "2S", "3S", "4S", "5S", "6S"}}},
          {"seats",
           {{{"stock", {"7S"}}},
            {{"stock", {"2H", "3H", "4H", "5H", "6H"}},
             {"hand", {"7H", "8H", "9H", "TH", "JH", "QH", "KH", "AD", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D",
                       "TD", "JD", "QD", "KD"}},
             {"discard", {"AC", "2C", "3C", "5C", "6C", "7C", "TC"}}}}}};
}

}  // namespace

TEST_CASE("E19: X plays his last card against stock 5, hand 20, discard 7 and scores 67") {
  auto h = at(e19_position());
  h.act(0, move("stock:0", "centre:0"));
  CHECK(h.game().phase() == Phase::game_over);
  CHECK(h.game().to_act().empty());
  const auto result = h.game().result();
  CHECK(result["end"] == "won");
  CHECK(result["winner"] == 0);
  CHECK(result["points"] == 67);
  CHECK(result["seats"][0]["points"] == 67);
  CHECK(result["seats"][1]["points"] == -67);
  CHECK(result["seats"][0]["chips"] == 67);
  CHECK(result["seats"][1]["chips"] == -67);
  CHECK(h.chips() == std::vector<std::int64_t>{1067, 933});
  CHECK(result["left"][1] == Json{{"seat", 1}, {"stock", 5}, {"hand", 20}, {"discard", 7}, {"turned", 0}});
}

TEST_CASE("Russian Bank: points are paid at the stake, and a loser who has less pays what he has") {
  auto h = at(e19_position(), {{"stake", 2}}, {1000, 50});
  h.act(0, move("stock:0", "centre:0"));
  CHECK(h.chips() == std::vector<std::int64_t>{1050, 0});
  const auto result = h.game().result();
  CHECK(result["seats"][1]["unpaid"] == 134 - 50);
  CHECK(result["unpaid"][0]["amount"] == 84);
}

// ------------------------------------------------------------------ §8.4 one rule at a time

TEST_CASE("Russian Bank: a base play comes before layout moves, loads and the hand") {
  Json layout = full_layout();
  layout[7] = {"AD/1"};
  layout[1] = {"QH"};
  const Json position = {{"layout", layout},
                         {"seats", {{{"stock", {"2D", "JC"}}, {"hand", {"3D"}}}, {{"stock", {"QC"}}}}}};
  auto h = at(position);
  CHECK(listed(h.legal(0)) == strings({"layout:7>centre:0"}));
  CHECK(contains(refusal_message(h, 0, move("stock:0", "stock:1")), "a centre play comes first"));
  CHECK(contains(refusal_message(h, 0, move("layout:1", "layout:0")), "a centre play comes first"));
  CHECK(contains(refusal_message(h, 0, action("turn_hand")), "a centre play comes first"));
}

TEST_CASE("Russian Bank: an ace is listed to the first empty base, and any empty base takes it") {
  Json layout = full_layout();
  layout[7] = {"AD/1"};
  const Json position = {{"layout", layout}, {"seats", {{{"stock", {"2D", "JC"}}}, {{"stock", {"QC"}}}}}};
  auto h = at(position);
  CHECK(listed(h.legal(0)) == strings({"layout:7>centre:0"}));
  h.act(0, move("layout:7", "centre:5"));
  CHECK(pile(h.game().view(0), "centre:5")["cards"] == Json::array({"AD"}));
}

TEST_CASE("Russian Bank: the stock may be turned before a base play, and a stock card that fits a base then comes first") {
  Json layout = full_layout();
  layout[7] = {"AD/1"};
  const Json position = {{"layout", layout},
                         {"seats", {{{"stock", {"2D", "AC"}}, {"stock_up", false}}, {{"stock", {"QC"}}}}}};
  auto h = at(position);
  CHECK(listed(h.legal(0)) == strings({"layout:7>centre:0", "turn_stock"}));
  h.act(0, action("turn_stock"));
  CHECK(listed(h.legal(0)) == strings({"stock:0>centre:0"}));
}

TEST_CASE("Russian Bank: the hand is not turned while the stock card lies face down, and the stock turns one card at a time") {
  const Json position = {{"layout", full_layout()},
                         {"seats", {{{"stock", {"2D", "JC"}}, {"stock_up", false}, {"hand", {"3D"}}}, {{"stock", {"QC"}}}}}};
  auto h = at(position);
  CHECK_FALSE(lists(h.legal(0), "turn_hand"));
  CHECK(contains(refusal_message(h, 0, action("turn_hand")), "§8.4 P4"));
  h.act(0, action("turn_stock"));
  CHECK(contains(refusal_message(h, 0, action("turn_stock")), "one card at a time"));
  CHECK(lists(h.legal(0), "turn_hand"));
}

TEST_CASE("Russian Bank: the hand card fills a space only once the stock is exhausted") {
  Json layout = full_layout();
  layout[2] = Json::array();
  auto with_stock = at({{"layout", layout}, {"seats", {{{"stock", {"KC"}}, {"turned", "QH"}}, {{"stock", {"QC"}}}}}});
  CHECK_FALSE(lists(with_stock.legal(0), "turned:0>layout:2"));
  CHECK(contains(refusal_message(with_stock, 0, move("turned:0", "layout:2")), "§8.3 M5"));
  CHECK(lists(with_stock.legal(0), "turned:0>discard:0"));

  auto stock_gone =
      at({{"layout", layout}, {"seats", {{{"turned", "QH"}, {"discard", {"2S"}}}, {{"stock", {"QC"}}, {"discard", {"JH"}}}}}});
  CHECK(lists(stock_gone.legal(0), "turned:0>layout:2"));
  CHECK(lists(stock_gone.legal(0), "turned:0>discard:1"));
  CHECK_FALSE(lists(stock_gone.legal(0), "turned:0>discard:0"));
  CHECK(contains(refusal_message(stock_gone, 0, move("turned:0", "discard:0")), "before discarding"));
  stock_gone.act(0, move("turned:0", "layout:2"));
  CHECK(lists(stock_gone.legal(0), "turn_hand"));
}

TEST_CASE("Russian Bank: discarding the turned card ends the turn, and the next player's stock top is face up") {
  const Json position = {{"layout", full_layout()},
                         {"seats", {{{"stock", {"KC"}}, {"turned", "QH"}, {"hand", {"2D"}}}, {{"stock", {"3C", "JH"}}}}}};
  auto h = at(position);
  h.act(0, move("turned:0", "discard:0"));
  const auto view = h.game().view(std::nullopt);
  CHECK(view["mover"] == 1);
  CHECK(view["turn_number"] == 2);
  CHECK(view["seats"][1]["stock_top"] == "JH");
  CHECK(h.legal(0).empty());
}

TEST_CASE("Russian Bank: a spent hand is replaced by the discard pile turned over, first discard on top") {
  const Json position = {{"layout", full_layout()},
                         {"seats", {{{"stock", {"KC"}}, {"discard", {"2D", "3S", "4H"}}}, {{"stock", {"JH"}}}}}};
  auto h = at(position);
  const auto fx = h.act(0, action("turn_hand"));
  CHECK(contains(fx.log.front(), "turns the discard pile over"));
  const auto view = h.game().view(0);
  CHECK(view["seats"][0]["turned"] == "2D");
  CHECK(view["seats"][0]["hand"] == 2);
  CHECK(view["seats"][0]["discard"] == 0);
  CHECK(view["recycles"] == Json::array({1, 0}));
}

TEST_CASE("Russian Bank: a player with only a stock left ends his turn with end_turn") {
  auto h = at({{"layout", full_layout()}, {"seats", {{{"stock", {"KC"}}}, {{"stock", {"JH"}}, {"hand", {"2C"}}}}}});
  CHECK(listed(h.legal(0)) == strings({"end_turn"}));
  h.act(0, action("end_turn"));
  CHECK(h.game().view(0)["mover"] == 1);
  CHECK(contains(refusal_message(h, 1, action("end_turn")), "§8.3 M13"));
}

TEST_CASE("Russian Bank: taking from a base, the opponent's stock, hand or turned card, or one's own hand, is refused") {
  const Json position = {{"layout", full_layout()},
                         {"centre", {{"AH"}}},
                         {"seats",
                          {{{"stock", {"KC"}}, {"hand", {"2D"}}},
                           {{"stock", {"JH"}}, {"turned", "2S"}, {"hand", {"3C"}}}}}};
  auto h = at(position);
  CHECK(contains(refusal_message(h, 0, move("centre:0", "layout:0")), "never be withdrawn"));
  CHECK(contains(refusal_message(h, 0, move("stock:1", "layout:0")), "opponent"));
  CHECK(contains(refusal_message(h, 0, move("turned:1", "layout:0")), "opponent"));
  CHECK(contains(refusal_message(h, 0, move("hand:1", "layout:0")), "opponent"));
  CHECK(contains(refusal_message(h, 0, move("hand:0", "layout:0")), "turn_hand"));
  CHECK(contains(refusal_message(h, 0, move("stock:0", "discard:0")), "only the turned hand card"));
  CHECK(contains(refusal_message(h, 0, move("layout:0", "stock:0")), "your own"));
}

TEST_CASE("Russian Bank: bad input is refused with its code and changes nothing") {
  const Json position = {{"layout", {{"9S", "8H", "7C"}, {"6D"}, {"JS"}, {"TD"}, {"9C"}, {"8D"}, {"5H"}, {"4C"}}},
                         {"seats", {{{"stock", {"KC"}}, {"hand", {"2D"}}}, {{"stock", {"JH"}}}}}};
  auto h = at(position);
  CHECK(contains(refusal_message(h, 0, {{"type", "move"}, {"card", "8H"}, {"from", "layout:0"}, {"to", "layout:2"}}),
                 "not the top card"));
  CHECK(contains(refusal_message(h, 0, move("layout:6", "layout:1")), "alternating colour"));
  CHECK(contains(refusal_message(h, 0, move("layout:1", "centre:0")), "bases are built up in suit"));
  refusal_message(h, 1, move("stock:1", "layout:0"), "not_your_turn");
  refusal_message(h, 2, action("turn_hand"), "not_your_turn");
  CHECK(contains(refusal_message(h, 0, move("layout:9", "layout:0")), "no pile"));
  CHECK(contains(refusal_message(h, 0, move("pile:1", "layout:0")), "not a pile"));
  CHECK(contains(refusal_message(h, 0, action("shuffle")), "unknown action"));
  CHECK(contains(refusal_message(h, 0, {{"type", "turn_hand"}, {"extra", 1}}), "unexpected field"));
  CHECK(contains(refusal_message(h, 0, move("layout:0", "layout:0")), "already on"));
}

// ------------------------------------------------------------------ §8.6 the Stop rule

namespace {

Json stop_position() {
  return {{"layout", full_layout()},
          {"centre", {{"AH", "2H", "3H", "4H", "5H", "6H"}}},
          {"seats", {{{"stock", {"9S", "7H"}}, {"hand", {"QD"}}}, {{"stock", {"2C"}}, {"hand", {"3D"}}}}}};
}

}  // namespace

TEST_CASE("Stop rule, refuse: an out-of-order move is refused naming the rule, and stop is never called") {
  auto h = at(stop_position());
  CHECK(contains(refusal_message(h, 0, action("turn_hand")), "§8.4 P2"));
  CHECK(h.game().to_act() == std::vector<int>{0});
  CHECK(contains(refusal_message(h, 1, action("stop")), "option stop_rule"));
}

TEST_CASE("Stop rule, call: an out-of-order move is accepted, and the opponent's stop ends the turn and makes the required play") {
  auto h = at(stop_position(), {{"stop_rule", "call"}});
  CHECK(contains(refusal_message(h, 1, action("stop")), "nothing to stop"));
  CHECK(contains(refusal_message(h, 0, action("stop")), "opponent"));
  const auto fx = h.act(0, action("turn_hand"));
  CHECK(contains(fx.log.front(), "out of order"));
  CHECK(h.game().to_act() == std::vector<int>{0, 1});
  CHECK(listed(h.legal(1)) == strings({"stop"}));
  auto view = h.game().view(1);
  CHECK(view["turn"]["stage"] == "stop_window");
  CHECK(contains(view["infraction"].get<std::string>(), "§8.4 P2"));
  h.act(1, action("stop"));
  view = h.game().view(1);
  CHECK(view["mover"] == 1);
  CHECK(pile(view, "centre:0")["top"] == "7H");
  CHECK(pile(view, "discard:0")["cards"] == Json::array({"QD"}));
  CHECK(view["seats"][0]["stock_top"] == "9S");
  CHECK(view["seats"][0]["turned"].is_null());
  CHECK(view["infraction"].is_null());
  CHECK(h.legal(0).empty());
}

TEST_CASE("Stop rule, call: the window closes when the turn ends") {
  Json layout = full_layout();
  layout[2] = Json::array();
  auto h = at({{"layout", layout}, {"seats", {{{"stock", {"9S", "7C"}}, {"hand", {"3D"}}}, {{"stock", {"JH"}}}}}},
              {{"stop_rule", "call"}});
  h.act(0, action("turn_hand"));
  CHECK(listed(h.legal(1)) == strings({"stop"}));
  h.act(0, move("turned:0", "discard:0"));
  CHECK(h.game().view(1)["mover"] == 1);
  CHECK(contains(refusal_message(h, 0, action("stop")), "nothing to stop"));
  CHECK(h.game().view(1)["infraction"].is_null());
}

TEST_CASE("Stop rule, call: an out-of-order move that would end the turn is refused even so") {
  Json layout = full_layout();
  layout[2] = Json::array();
  auto h = at({{"layout", layout}, {"seats", {{{"turned", "QH"}, {"discard", {"2S"}}}, {{"stock", {"QC"}}}}}},
              {{"stop_rule", "call"}});
  CHECK(contains(refusal_message(h, 0, move("turned:0", "discard:0")), "could never be stopped"));
}

// ------------------------------------------------------------------ §8.5 demands

TEST_CASE("Demands: the opponent may have a lone 8 put on a 9, and the space is then filled from the stock") {
  const Json position = {{"layout", {{"8S"}, {"KD", "9H"}, {"QS"}, {"QH"}, {"KC"}, {"4H"}, {"6S"}, {"3D"}}},
                         {"seats", {{{"stock", {"2D", "9C"}}, {"hand", {"5C"}}}, {{"stock", {"JH"}}}}}};
  auto h = at(position);
  CHECK(h.game().to_act() == std::vector<int>{0, 1});
  CHECK(lists(h.legal(1), "demand layout:0>layout:1"));
  CHECK(lists(h.legal(0), "turn_hand"));
  h.act(1, {{"type", "demand"}, {"moves", {{{"from", "layout:0"}, {"to", "layout:1"}, {"card", "8S"}}}}});
  CHECK(listed(h.legal(0)) == strings({"stock:0>layout:0"}));
  CHECK(contains(refusal_message(h, 0, action("turn_hand")), "§8.5"));
  CHECK(h.game().to_act() == std::vector<int>{0});
  h.act(0, move("stock:0", "layout:0"));
  CHECK(h.game().view(0)["demanded_space"] == false);
}

TEST_CASE("Demands: the opponent may have layout cards shifted to free a card for a base (the 9-8-7 and 10-9 example)") {
  const Json position = {{"layout", {{"9S", "8H", "7C"}, {"TD", "9C"}, Json::array(), {"KH"}, {"QS/1"}, {"JD/1"}, {"5C/1"}, {"4H/1"}}},
                         {"centre", {{"AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S"}}},
                         {"seats", {{{"stock", {"KC"}}, {"hand", {"2D"}}}, {{"stock", {"JH"}}}}}};
  auto h = at(position);
  REQUIRE(lists(h.legal(1), "demand layout:0>layout:2,layout:0>layout:1"));
  const Json listed_demand = h.legal(1)[0];
  CHECK(listed_demand["moves"][0]["card"] == "7C");
  CHECK(listed_demand["moves"][1]["card"] == "8H");
  const auto fx = h.act(1, {{"type", "demand"}, {"moves", {{{"from", "layout:0"}, {"to", "layout:2"}}, {{"from", "layout:0"}, {"to", "layout:1"}}}}});
  CHECK(listed(h.legal(0)) == strings({"layout:0>centre:0"}));
  // The log counts piles from one, as the felt does, in words.
  CHECK(fx.log.front() == "{seat:1} demands 2 layout moves of {seat:0}: Layout 1 to Layout 3, Layout 1 to Layout 2.");
  const auto played = h.act(0, move("layout:0", "centre:0"));
  CHECK(played.log.front() == "{seat:0} moves 9S from Layout 1 to Centre 1.");
}

TEST_CASE("Demands: a demand that opens nothing, cannot be made, comes while a base play is due, or comes from the mover is refused") {
  const Json position = {{"layout", {{"9S", "8H", "7C"}, {"TD", "9C"}, Json::array(), {"KH"}, {"QS/1"}, {"JD/1"}, {"5C/1"}, {"4H/1"}}},
                         {"centre", {{"AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S"}}},
                         {"seats", {{{"stock", {"KC"}}, {"hand", {"2D"}}}, {{"stock", {"JH"}}}}}};
  auto h = at(position);
  const auto demand = [](std::vector<std::pair<int, int>> steps) {
    Json moves = Json::array();
    for (auto [from, to] : steps)
      moves.push_back({{"from", "layout:" + std::to_string(from)}, {"to", "layout:" + std::to_string(to)}});
    return Json{{"type", "demand"}, {"moves", moves}};
  };
  CHECK(contains(refusal_message(h, 1, demand({{5, 4}})), "must open a space"));
  CHECK(contains(refusal_message(h, 1, demand({{3, 4}})), "demanded move 1"));
  CHECK(contains(refusal_message(h, 1, demand({})), "1 to 8"));
  CHECK(contains(refusal_message(h, 1, {{"type", "demand"}, {"moves", {{{"from", "stock:0"}, {"to", "layout:2"}}}}}),
                 "layout pile to layout pile"));
  CHECK(contains(refusal_message(h, 0, demand({{0, 2}, {0, 1}})), "opponent"));
  h.act(1, demand({{0, 2}, {0, 1}}));
  CHECK(contains(refusal_message(h, 1, demand({{5, 4}})), "base play is already due"));
}

TEST_CASE("Russian Bank: at most 64 layout-to-layout moves a turn") {
  Json layout = full_layout();
  layout[1] = Json::array();
  auto h = at({{"layout", layout}, {"seats", {{{"stock", {"KC"}}, {"hand", {"2D"}}}, {{"stock", {"JH"}}}}}});
  for (int i = 0; i < 64; ++i) {
    REQUIRE(lists(h.legal(0), i % 2 == 0 ? "layout:0>layout:1" : "layout:1>layout:0"));
    h.act(0, i % 2 == 0 ? move("layout:0", "layout:1") : move("layout:1", "layout:0"));
  }
  CHECK_FALSE(lists(h.legal(0), "layout:0>layout:1"));
  CHECK(contains(refusal_message(h, 0, move("layout:0", "layout:1")), "at most 64"));
  CHECK(lists(h.legal(0), "stock:0>layout:1"));
}

// ------------------------------------------------------------------ §8.7 draws

TEST_CASE("Russian Bank: the same position at the start of a turn for the third time is a draw") {
  auto h = at({{"layout", full_layout()}, {"seats", {{{"stock", {"KH"}}}, {{"stock", {"KC"}}}}}});
  for (int i = 0; i < 4; ++i) {
    REQUIRE(h.game().phase() == Phase::playing);
    h.act(i % 2, action("end_turn"));
  }
  CHECK(h.game().phase() == Phase::game_over);
  const auto result = h.game().result();
  CHECK(result["end"] == "draw");
  CHECK(result["draw_reason"] == "repetition");
  CHECK(result["seats"][0]["chips"] == 0);
  CHECK(h.chips() == std::vector<std::int64_t>{1000, 1000});
}

TEST_CASE("Russian Bank: both players turning their discard pile over twice with no base play is a draw") {
  auto h = at({{"layout", full_layout()}, {"seats", {{{"discard", {"KH"}}}, {{"discard", {"KC"}}}}}});
  for (int i = 0; i < 4; ++i) {
    const int seat = i % 2;
    h.act(seat, action("turn_hand"));
    h.act(seat, move("turned:" + std::to_string(seat), "discard:" + std::to_string(seat)));
  }
  CHECK(h.game().result()["draw_reason"] == "recycling");
}

TEST_CASE("Russian Bank: the game is a draw when it would pass option max_turns") {
  auto h = at({{"turn", 10}, {"layout", full_layout()}, {"seats", {{{"stock", {"KH"}}}, {{"stock", {"KC"}}}}}},
              {{"max_turns", 10}});
  const auto fx = h.act(0, action("end_turn"));
  CHECK(h.game().result()["draw_reason"] == "turn_limit");
  CHECK(contains(fx.log.back(), "The game is a draw: the turn limit was reached."));
}

TEST_CASE("Russian Bank: a player leaving ends the game unscored") {
  auto h = at(e19_position());
  const auto fx = h.leave(1);
  CHECK(h.game().phase() == Phase::game_over);
  CHECK(h.game().result()["end"] == "abandoned");
  CHECK(fx.log.back() == "The game ends unscored: a player left.");
  CHECK(h.chips() == std::vector<std::int64_t>{1000, 1000});
}

// ------------------------------------------------------------------ views

TEST_CASE("Russian Bank: views show every face-up card to everyone and never a hand card or a stock card below the face-up ones") {
  const Json position = {
      {"layout", full_layout()},
      {"seats",
       {{{"stock", {"TD", "9D", "8D/1"}}, {"stock_up", 2}, {"hand", {"QH", "JD"}}}, {{"stock", {"2C", "JH"}}, {"stock_up", false}}}}};
  auto h = at(position);
  Json first = h.game().view(std::nullopt);
  for (std::optional<int> viewer : {std::optional<int>(0), std::optional<int>(1), std::optional<int>()}) {
    auto view = h.game().view(viewer);
    CHECK(view["viewer"] == (viewer ? Json(*viewer) : Json()));
    view["viewer"] = Json();
    CHECK(view == first);
    const auto shown = shown_cards(view);
    for (const char* hidden : {"TD", "QH", "JD", "2C", "JH"}) CHECK(std::count(shown.begin(), shown.end(), hidden) == 0);
    CHECK(std::count(shown.begin(), shown.end(), "9D") == 1);
    CHECK(std::count(shown.begin(), shown.end(), "8D") == 1);
    CHECK(view["seats"][0]["cards"] == Json::array({"??", "??"}));
  }
  h.act(0, action("turn_hand"));
  const auto shown = shown_cards(h.game().view(1));
  CHECK(std::count(shown.begin(), shown.end(), "JD") == 1);
  CHECK(std::count(shown.begin(), shown.end(), "QH") == 0);
}

// ------------------------------------------------------------------ the bot

TEST_CASE("Russian Bank bot: calls stop when it can, loads before building, builds from the stock before the hand") {
  Rng rng(1);
  const Json view = {{"viewer", 0}, {"piles", Json::array({{{"id", "layout:0"}, {"count", 2}}, {{"id", "layout:1"}, {"count", 0}}})}};
  using parlour::rules::russian_bank_bot;
  CHECK(russian_bank_bot(view, Json::array({action("stop")}), rng) == action("stop"));
  const Json legal = Json::array({action("turn_hand"), move("layout:0", "layout:1"), move("stock:0", "layout:0"),
                                  move("turned:0", "stock:1"), move("turned:0", "discard:0")});
  CHECK(russian_bank_bot(view, legal, rng) == move("turned:0", "stock:1"));
  const Json builds = Json::array({action("turn_hand"), move("turned:0", "layout:0"), move("stock:0", "layout:0")});
  CHECK(russian_bank_bot(view, builds, rng) == move("stock:0", "layout:0"));
  const Json last = Json::array({move("layout:0", "layout:1"), move("turned:0", "discard:0")});
  CHECK(russian_bank_bot(view, last, rng) == move("turned:0", "discard:0"));
}

TEST_CASE("Russian Bank bot: two bots finish their games without shuffling the layout to and fro") {
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    CAPTURE(seed);
    Harness h("russian_bank", {{"stop_rule", seed % 2 ? "refuse" : "call"}}, {1000, 1000}, seed);
    int most_layout_moves = 0;
    const int actions = play_with_bots(h, "russian_bank", seed, 20000, [&](const Json& view) {
      most_layout_moves = std::max(most_layout_moves, view["layout_moves"]["made"].get<int>());
    });
    CHECK(h.game().phase() == Phase::game_over);
    const auto end = h.game().result()["end"];
    CHECK((end == "won" || end == "draw"));
    CHECK(actions < 3000);
    CHECK(most_layout_moves < 16);
  }
}

// ------------------------------------------------------------------ snapshots

namespace {

// X (seat 0: the 2 of spades is the lowest layout card) has turned up his
// stock's king of hearts; the queen of spades tops his hand, unseen by anyone.
Harness x_turned_up_the_stock() {
  auto h = dealt(pack({"KH", "7D"}, {"2S", "4H", "6C", "8D"}, {"QS", "5C"}), pack({}, {"3S", "5D", "9C", "JH"}, {}));
  REQUIRE(h.game().to_act().front() == 0);
  h.act(0, action("turn_stock"));
  return h;
}

}  // namespace

TEST_CASE("Russian Bank: a game restored from a snapshot taken mid-game turns up the same hidden hand card") {
  auto h = x_turned_up_the_stock();
  const auto restored = h.restored(Json::parse(h.game().snapshot().dump()));
  CHECK(restored->view(1) == h.game().view(1));
  restored->apply(0, action("turn_hand"), h.chips());
  CHECK(restored->view(1)["seats"][0]["turned"] == "QS");
  CHECK(pile(restored->view(1), "stock:0")["top"] == "KH");
}

TEST_CASE("Russian Bank: a snapshot that does not fit the game is refused, naming what was expected") {
  auto h = x_turned_up_the_stock();
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
  refused([](Json& s) { s["layout"].erase(0); }, "layout piles");
  refused([](Json& s) { s["centre"].push_back(s["centre"][0]); }, "bases");
  refused([](Json& s) { s["sides"].erase(1); }, "sides");
  refused([](Json& s) { s["left"] = Json::array({false}); }, "left");
  refused([](Json& s) { s["layout_moves"] = 65; }, "\"layout_moves\"");
  refused([](Json& s) { s["book"]["net"] = Json::array({0}); }, "chip book");
  refused([](Json& s) { s["phase"] = 2; }, "result");  // finished, but with no result for the seats to read
  refused([](Json& s) { s["sides"][0]["stock_face_up"] = 13; }, "face-up");
  CHECK_NOTHROW(h.restored(snapshot));
}

// ------------------------------------------------------------------ random play

namespace {

bool is_shift(const Json& entry) {
  return entry["type"] == "move" && entry["from"].get<std::string>().rfind("layout:", 0) == 0 &&
         entry["to"].get<std::string>().rfind("layout:", 0) == 0;
}

// A random legal action; layout-to-layout moves are taken only one time in
// eight when anything else is listed, so that random games stay short.
Json random_action(const Json& legal, Rng& rng) {
  Json chosen = legal[rng.below(legal.size())];
  if (!is_shift(chosen) || rng.below(8) == 0) return chosen;
  Json others = Json::array();
  for (const auto& entry : legal)
    if (!is_shift(entry)) others.push_back(entry);
  return others.empty() ? chosen : others[rng.below(others.size())];
}

// The one kind of unlisted move the rules allow: an ace to another empty base
// than the one listed.
bool ace_to_another_empty_base(const Json& probe, const Json& legal) {
  if (probe["type"] != "move" || probe["to"].get<std::string>().rfind("centre:", 0) != 0) return false;
  for (const auto& entry : legal)
    if (entry["type"] == "move" && entry["from"] == probe["from"] && entry["card"].get<std::string>()[0] == 'A' &&
        entry["to"].get<std::string>().rfind("centre:", 0) == 0)
      return true;
  return false;
}

}  // namespace

TEST_CASE("Russian Bank: 1,000 seeded random games conserve cards and chips, always end, apply what they list, refuse the rest") {
  int snapshots = 0;
  int won = 0, drawn = 0, stops = 0, demands = 0, infractions = 0;
  for (std::uint64_t g = 1; g <= 1000; ++g) {
    CAPTURE(g);
    const bool call = g % 2 == 0;
    const std::int64_t stake = 1 + static_cast<std::int64_t>(g % 3);
    const Json options = {{"stop_rule", call ? "call" : "refuse"}, {"stake", stake}};
    const Replay replay{"russian_bank", options, 2, g};
    Harness h("russian_bank", options, {1000, 1000}, g);
    Rng rng(g * 7919);
    // Its own rng, so that the games played stay the same. A snapshot check plays
    // 12 steps comparing every view after each (7 ms): one step in 600 restores
    // about 800 snapshots, and the end of one game in two one more.
    Rng snapshot_rng(g * 7907 + 5);
    std::vector<Step> history;
    const bool deep = g <= 6;
    for (int steps = 0; h.game().phase() == Phase::playing && steps < 100000; ++steps) {
      const auto acting = h.game().to_act();
      const int seat = acting[rng.below(acting.size())];
      const auto legal = h.legal(seat);
      REQUIRE_FALSE(legal.empty());
      if (snapshot_rng.below(600) == 0) {
        ++snapshots;
        snapshot_round_trips(h, snapshot_rng);
      }
      if (deep && history.size() < 300 && rng.below(25) == 0) {
        every_listed_action_applies(replay, history, seat, legal);
        if (!call)
          unlisted_actions_refused(replay, history, seat, legal,
                                   probe_actions(h.game().view(seat), {"turn_stock", "turn_hand", "end_turn", "stop"}),
                                   ace_to_another_empty_base);
      }
      if (call && seat == acting.front() && rng.below(10) == 0 && !lists(legal, "turn_hand")) {
        try {
          h.act(seat, action("turn_hand"));
          history.push_back({seat, action("turn_hand")});
          ++infractions;
          continue;
        } catch (const parlour::rules::RulesError&) {
        }
      }
      const Json chosen = random_action(legal, rng);
      stops += chosen["type"] == "stop" ? 1 : 0;
      demands += chosen["type"] == "demand" ? 1 : 0;
      REQUIRE_NOTHROW(h.act(seat, chosen));
      history.push_back({seat, chosen});
      REQUIRE(h.total() == 2000);
      if (steps % 64 == 0) REQUIRE(cards_in_piles(h.game().view(std::nullopt)) == 104);
      if (steps % 128 == 0) check_public_view(h.game(), steps / 128 % 2);
    }
    REQUIRE(h.game().phase() == Phase::game_over);
    if (snapshot_rng.below(2) == 0) snapshot_round_trips(h, snapshot_rng);  // the game's one deal is over
    CHECK(cards_in_piles(h.game().view(std::nullopt)) == 104);
    const auto result = h.game().result();
    if (result["end"] == "won") {
      ++won;
      const int winner = result["winner"].get<int>();
      CHECK(h.chips(winner) == 1000 + result["points"].get<std::int64_t>() * stake);
    } else {
      ++drawn;
      CHECK(result["end"] == "draw");
      CHECK(h.chips() == std::vector<std::int64_t>{1000, 1000});
    }
  }
  MESSAGE("snapshots restored mid-game " << snapshots << ", won " << won << ", drawn " << drawn << ", stops " << stops
                                         << ", demands " << demands << ", infractions " << infractions);
  CHECK(won > 0);
  CHECK(stops > 0);
  CHECK(demands > 0);
}

// The table adds "Russian Bank: " and each {seat:N}'s name to this memo.
TEST_CASE("ledger memo: the winner's points, how they are counted, and the stake") {
  auto h = at(e19_position(), {{"stake", 2}}, {1000, 1000});
  const auto fx = h.act(0, move("stock:0", "centre:0"));
  REQUIRE(fx.transfers.size() == 1);
  CHECK(fx.transfers[0].memo ==
        "{seat:0} got rid of every card: 67 points (30 for the game, 2 a card in {seat:1}'s stock, 1 a card in his "
        "hand, discard and turned card), at 2 chips a point");
}

TEST_CASE("a refused move leaves everything as it was, the chips the game last saw included, after chips went elsewhere") {
  parlour::test::Harness h("russian_bank", Json::object(), {100, 100});
  const int mover = h.game().to_act().front();
  h.spend_elsewhere(1 - mover, 15);
  const auto before = h.game().snapshot();
  CHECK_THROWS_AS(h.game().apply(mover, {{"type", "H AA"}, {"card", "TC"}, {"from", "turned:0"}, {"to", "layout:1"}},
                                 h.chips()),
                  parlour::rules::RulesError);
  CHECK(h.game().snapshot() == before);
}

}  // namespace unity_test_russian_bank
