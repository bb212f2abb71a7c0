// The Rummy family's level-1 bots (rules/rummy/bot.h, rules/games/carousel/bot.cpp):
// stacked positions where the careful move is clear, the bot reading nothing but
// its view, and seeded games with bots in every seat and against random players.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "rules/random_play.h"
#include "rules/registry.h"
#include "rules/rummy/bot.h"
#include "rules/rummy/rules_json.h"
#include "tests/rules/harness.h"
#include "tests/rules/playout.h"
#include "tests/rules/rummy_kit.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_rummy_bot {

using parlour::rules::Json;
using parlour::rules::Phase;
using parlour::rules::Registry;
using parlour::rules::Rng;
using parlour::test::Harness;
using namespace parlour::test::rummy_kit;

namespace {

using Cards = std::vector<std::string>;

// The game's level-1 bot, asked for the seat to act.
Json bot_move(Harness& h, const std::string& game) {
  const auto* info = Registry::builtin().find(game);
  REQUIRE(info != nullptr);
  REQUIRE(info->bot);
  Rng rng(7);
  const int seat = h.game().to_act().front();
  return info->bot(h.game().view(seat), h.legal(seat), rng);
}

// The action's cards, sorted: a listing's order within a meld is the engine's.
Cards sorted_cards(const Json& action) {
  auto out = action.value("cards", Json::array()).get<Cards>();
  std::sort(out.begin(), out.end());
  return out;
}

// Asks the bot for the seat to act and plays its move.
Json bot_plays(Harness& h, const std::string& game) {
  const int seat = h.game().to_act().front();
  auto action = bot_move(h, game);
  h.act(seat, action);
  return action;
}

// Rummy, three players: seat 1 plays first, then 2, then the dealer 0. Seat 1
// holds a run, a pair of threes joined by the 4D, and a lone king.
const Cards run_pair_king = {"5H", "6H", "7H", "3C", "3D", "4D", "KS"};
const Cards second_hand = {"AC", "2D", "9S", "JC", "QH", "8C", "TD"};
const Cards dealer_hand = {"2S", "4S", "6S", "8S", "TS", "QS", "9D"};

}  // namespace

// ------------------------------------------------------------------ clear moves

TEST_CASE("Rummy bot: an upcard that fits nothing is left for the stock; a ready meld is melded; the lone king is discarded") {
  Harness h("rummy", options(), {100, 100, 100}, 1,
            deal_with_upcard({run_pair_king, second_hand, dealer_hand}, "JD", {"AS", "5C", "7C"}));
  CHECK(bot_plays(h, "rummy") == draw("stock"));  // AS
  const auto melded = bot_plays(h, "rummy");
  CHECK(melded["type"] == "meld");
  CHECK(sorted_cards(melded) == Cards{"5H", "6H", "7H"});
  CHECK(bot_plays(h, "rummy") == discard("KS"));
}

TEST_CASE("Rummy bot: takes the upcard that completes a meld") {
  Harness h("rummy", options(), {100, 100, 100}, 1,
            deal_with_upcard({run_pair_king, second_hand, dealer_hand}, "3S", {"AS", "5C", "7C"}));
  CHECK(bot_plays(h, "rummy") == draw("discard"));
  CHECK(bot_plays(h, "rummy")["type"] == "meld");
}

TEST_CASE("Rummy bot: melds the longest run its hand holds, not a part of it") {
  Harness h("rummy", options(), {100, 100, 100}, 1,
            deal_with_upcard({run_pair_king, second_hand, dealer_hand}, "JD", {"8H", "5C", "7C"}));
  CHECK(bot_plays(h, "rummy") == draw("stock"));  // 8H joins the run: a four-card meld
  const auto melded = bot_plays(h, "rummy");
  CHECK(melded["type"] == "meld");
  CHECK(sorted_cards(melded) == Cards{"5H", "6H", "7H", "8H"});
  CHECK(bot_plays(h, "rummy") == discard("KS"));
}

TEST_CASE("Queen City bot: goes rummy as soon as the whole hand melds, discarding the queen") {
  Harness h("queen_city_rummy", options(), {100, 100, 100}, 1,
            deal_no_upcard({{"5H", "6H", "7H", "KC", "KD", "KH", "QD"}, second_hand, dealer_hand}, {"8H"}, 10));
  const auto action = bot_plays(h, "queen_city_rummy");  // draws 8H
  CHECK(action == draw("stock"));
  const auto rummy = bot_move(h, "queen_city_rummy");
  CHECK(rummy["type"] == "go_rummy");
  CHECK(rummy["discard"] == "QD");
  h.act(1, rummy);
  CHECK(h.game().result()["winner"] == 1);
}

TEST_CASE("Java bot: goes down with the whole hand rather than keep a card back") {
  // 5H-8H and three kings: the whole hand, or 6H-8H and the kings showing the 5H.
  Harness h("java_rummy", options(), {100, 100, 100}, 1,
            deal_no_upcard({{"5H", "6H", "7H", "8H", "KC", "KD", "KH"}, second_hand, dealer_hand}, {}, 10));
  const auto legal = h.legal(1);
  CHECK(listed(legal, "go_down").size() >= 2);
  const auto action = bot_move(h, "java_rummy");
  CHECK(action["type"] == "go_down");
  CHECK_FALSE(action.contains("shown"));
}

TEST_CASE("Rummy Poker bot: of two go-downs, the one whose declaration earns the straight flush bonus") {
  // Called with a view and a legal list only (no game): 3S-5S with the joker as
  // the 4S is a straight flush (50); a set of threes with the joker as the 3H earns nothing.
  Harness h("rummy_poker", options(), {100, 100, 100}, 1);
  Json view = h.game().view(1);
  view["seats"][1]["cards"] = {"3S", "JK", "5S"};
  view["seats"][1]["count"] = 3;
  const Json plain = {{"type", "go_down"}, {"melds", {{"3S", "JK=3H", "3D"}}}};
  const Json flush = {{"type", "go_down"}, {"melds", {{"3S", "JK=4S", "5S"}}}};
  const auto* info = Registry::builtin().find("rummy_poker");
  Rng rng(1);
  CHECK(info->bot(view, Json::array({plain, flush}), rng) == flush);
  CHECK(info->bot(view, Json::array({flush, plain}), rng) == flush);
}

TEST_CASE("Block bot: declines an upcard that does not help once the stock is gone") {
  // Called with a view and a legal list only: the Block choice after the stock.
  Harness h("block_rummy", options(), {100, 100, 100}, 1,
            deal_no_upcard({{"5H", "6H", "7H", "KC", "KD", "AS", "3C"}, second_hand, dealer_hand}, {}, 10));
  Json view = h.game().view(1);
  view["piles"][1]["top"] = "JS";
  view["piles"][1]["count"] = 1;
  view["stock_gone"] = true;
  const Json legal = {draw("discard"), {{"type", "decline"}}};
  CHECK(bot_move(h, "block_rummy") == draw("stock"));  // the game itself: a stock draw
  const auto* info = Registry::builtin().find("block_rummy");
  Rng rng(1);
  CHECK(info->bot(view, legal, rng) == Json{{"type", "decline"}});
  view["piles"][1]["top"] = "KH";  // the third king: worth taking
  CHECK(info->bot(view, legal, rng) == draw("discard"));
}

TEST_CASE("Michigan bot: takes a spread-pile card that melds at once, then melds it") {
  // Seat 1 holds 9C 9D; the pile's second card is the 9S: taking it (with the
  // top card above it) makes a meld worth points at once.
  Harness h("michigan_rummy", options(), {1000, 1000, 1000}, 1);
  Json view = h.game().view(1);
  view["seats"][1]["cards"] = {"9C", "9D", "2H", "4S", "6C", "8D", "TH"};
  view["piles"][1]["cards"] = {"3H", "9S", "KC"};
  view["piles"][1]["top"] = "KC";
  view["piles"][1]["count"] = 3;
  const Json legal = {draw("stock"), {{"type", "take"}, {"depth", 1}, {"card", "9S"}}};
  const auto* info = Registry::builtin().find("michigan_rummy");
  Rng rng(1);
  CHECK(info->bot(view, legal, rng) == legal[1]);
}

TEST_CASE("Carousel bot: draws, lays out every meld it holds and knocks with what is left") {
  Harness h("carousel", options(), {1000, 1000, 1000}, 1,
            deal_no_upcard({{"3S", "4S", "5S", "7H", "8H", "9H", "JC", "QC", "KC", "2D"},
                            {"AS", "AS", "AH", "AH", "AD", "AD", "3C", "3C", "KS", "KH"},
                            {"2S", "2S", "2H", "2H", "6D", "6D", "4C", "4C", "QS", "QH"}},
                           {"AC"}));
  CHECK(bot_plays(h, "carousel") == draw("stock"));  // AC: three melds, 2D and AC count 3
  Json last;
  int layouts = 0;
  while (h.game().phase() == Phase::playing && h.game().to_act().front() == 1) {
    last = bot_plays(h, "carousel");
    if (last["type"] == "layout") ++layouts;
  }
  CHECK(layouts >= 1);
  CHECK(last == Json{{"type", "knock"}});
  const auto result = h.game().result();
  CHECK(result["end"] == "knock");
  CHECK(result["knocker"] == 1);
  CHECK(result["counts"][1] == 3);  // 2D and AC
}

TEST_CASE("Carousel bot: splits a table run with the card it holds, a layout the listing leaves out") {
  // The table holds 3H-7H and the hand 5H KC KD: the run becomes 3H-5H and
  // 5H-7H. The legal list offers no layout for it (it lists single lay-offs, new
  // melds and joker exchanges), but any valid layout is the player's to make.
  Harness h("carousel", options(), {1000, 1000, 1000}, 1);
  Json view = h.game().view(1);
  view["seats"][1]["cards"] = {"5H", "KC", "KD"};
  view["seats"][1]["count"] = 3;
  view["melds"] = {{{"id", 0}, {"owner", nullptr}, {"cards", {"3H", "4H", "5H", "6H", "7H"}}}};
  view["melded_this_turn"] = true;
  view["drawn"] = 1;
  view["turn"] = {{"seats", {1}}, {"stage", "play"}};
  const auto* info = Registry::builtin().find("carousel");
  Rng rng(1);
  const auto chosen = info->bot(view, Json::array({{{"type", "finish"}}}), rng);
  REQUIRE(chosen["type"] == "layout");
  REQUIRE(chosen["melds"].size() == 2);
  std::vector<Cards> melds = {sorted_cards({{"cards", chosen["melds"][0]}}), sorted_cards({{"cards", chosen["melds"][1]}})};
  std::sort(melds.begin(), melds.end());
  CHECK(melds == std::vector<Cards>{{"3H", "4H", "5H"}, {"5H", "6H", "7H"}});
}

TEST_CASE("Carousel bot: covering a player who hoarded, it plays a listed move from a hand too big to search") {
  // Seat 1 draws three cards a turn and never lays out; seat 2 is the bot. Then
  // the bot takes seat 1 over, its hand past kBigHand: it plays by rules of
  // thumb, every move accepted, until the turn passes.
  Harness h("carousel", options({{"deals", 1}}), {1000, 1000}, 3);
  const auto* info = Registry::builtin().find("carousel");
  Rng rng(3);
  while (h.game().phase() == Phase::playing && h.game().view(1)["seats"][1]["count"].get<std::size_t>() <=
                                                   parlour::rules::rummy::kBigHand + 4) {
    const int seat = h.game().to_act().front();
    if (seat == 1) h.act(1, draw());
    else h.act(seat, info->bot(h.game().view(seat), h.legal(seat), rng));
  }
  REQUIRE(h.game().phase() == Phase::playing);
  while (h.game().phase() == Phase::playing && h.game().to_act().front() != 1) {
    const int seat = h.game().to_act().front();
    h.act(seat, info->bot(h.game().view(seat), h.legal(seat), rng));
  }
  REQUIRE(h.game().phase() == Phase::playing);
  REQUIRE(parlour::rules::rummy::is_big_hand(parlour::rules::rummy::read_seen(h.game().view(1)).hand));
  int moves = 0;
  while (h.game().phase() == Phase::playing && h.game().to_act().front() == 1 && moves < 200) {
    h.act(1, info->bot(h.game().view(1), h.legal(1), rng));
    ++moves;
  }
  CHECK(moves > 0);
  CHECK(moves < 200);
}

// ------------------------------------------------------------------ the view alone

TEST_CASE("Rummy bot reads only its view: the same view with other hidden cards gives the same moves") {
  // Seat 1's hand, the upcard and the stock's top card are the same; the other
  // hands and the rest of the stock differ.
  Harness a("rummy", options(), {100, 100, 100}, 1,
            deal_with_upcard({run_pair_king, second_hand, dealer_hand}, "JD", {"AS", "5C", "7C"}));
  Harness b("rummy", options(), {100, 100, 100}, 1,
            deal_with_upcard({run_pair_king, dealer_hand, {"5C", "7C", "9S", "JC", "QH", "8C", "TD"}}, "JD",
                             {"AS", "AC", "2D"}));
  for (int step = 0; step < 3; ++step) {
    REQUIRE(a.game().view(1) == b.game().view(1));
    const auto move = bot_move(a, "rummy");
    CHECK(bot_move(b, "rummy") == move);
    a.act(1, move);
    b.act(1, move);
  }
}

TEST_CASE("Rummy bot works from a view written out by hand, with no game behind it") {
  const Json view = Json::parse(R"({
    "layout": "rummy", "phase": "play", "deal": 1, "dealer": 0,
    "rules": {"melds": {"set_min": 3, "set_max": 4, "run_min": 3, "ace": "low"},
              "values": {"ace": 1, "face": 10}, "decks": 1, "rummy_only": false},
    "seats": [{"seat": 0, "count": 2, "cards": ["??", "??"], "status": "waiting", "left": false},
              {"seat": 1, "count": 5, "cards": ["4C", "4D", "4S", "QH", "2C"], "status": "to_play", "left": false}],
    "piles": [{"id": "stock", "owner": null, "count": 20, "top": null},
              {"id": "discard", "owner": null, "count": 1, "top": "9D"}],
    "melds": [], "turn": {"seats": [1], "stage": "play"}})");
  const Json legal = {meld({"4C", "4D", "4S"}), discard("4C"), discard("4D"), discard("4S"), discard("QH"), discard("2C")};
  Rng rng(1);
  CHECK(parlour::rules::rummy::rummy_bot(view, legal, rng) == meld({"4C", "4D", "4S"}));
  CHECK(parlour::rules::rummy::rummy_bot(view, Json::array({discard("4C"), discard("QH"), discard("2C")}), rng) ==
        discard("QH"));
}

// ------------------------------------------------------------------ seeded games

namespace {

struct BotTable {
  std::string game;
  Json options;
  int players;
};

// Seeded games, the level-1 bot in every seat (`all_bots`) or in one seat against
// random players: every bot action is accepted, chips are conserved, games end.
void play_bot_games(const BotTable& table, int games, bool all_bots) {
  const auto* info = Registry::builtin().find(table.game);
  REQUIRE(info != nullptr);
  REQUIRE(info->bot);
  for (int g = 0; g < games; ++g) {
    const std::uint64_t seed = 1000 + static_cast<std::uint64_t>(g);
    Harness h(table.game, table.options, std::vector<std::int64_t>(table.players, 100000), seed);
    Rng rng(seed * 31 + 7);
    Rng snapshot_rng(seed * 7907 + 5);  // its own, so the games played stay the same
    const auto total = h.total();
    const int bot_seat = g % table.players;
    int steps = 0;
    for (; h.game().phase() != Phase::game_over && steps < 30000; ++steps) {
      if (h.game().phase() == Phase::deal_over) {
        parlour::test::snapshot_round_trips(h, snapshot_rng);
        h.next_deal();
        continue;
      }
      const int seat = h.game().to_act().front();
      const auto legal = h.legal(seat);
      REQUIRE_FALSE(legal.empty());
      if (snapshot_rng.below(150) == 0) parlour::test::snapshot_round_trips(h, snapshot_rng);
      const bool bot = all_bots || seat == bot_seat;
      const auto action = bot ? info->bot(h.game().view(seat), legal, rng) : parlour::rules::random_legal_action(legal, rng);
      INFO(table.game << " " << table.options.dump() << " seed " << seed << ": " << action.dump());
      h.act(seat, action);  // a refused action fails the test here
      REQUIRE(h.total() == total);
    }
    CHECK_MESSAGE(h.game().phase() == Phase::game_over, table.game << " seed " << seed << " did not end");
  }
}

const std::vector<BotTable> bot_tables = {
    {"rummy", options({{"deals", 3}}), 3},
    {"rummy", options({{"deals", 2}, {"call", true}}), 4},
    {"rummy", options({{"deals", 2}, {"wild_card", true}, {"jokers", 2}}), 3},
    {"rummy", options({{"deals", 2}, {"block", true}}), 3},
    {"rummy", options({{"deals", 2}, {"boathouse", true}, {"boathouse_two_discards", true}}), 3},
    {"rummy", options({{"deals", 2}, {"two_meld", true}, {"high_low", true}}), 2},
    {"rummy", options({{"deals", 2}, {"one_meld", true}, {"round_the_corner", true}}), 5},
    {"michigan_rummy", options({{"deals", 2}}), 3},
    {"michigan_rummy", options({{"deals", 2}, {"polish", true}}), 4},
    {"five_hundred_rummy", options({{"deals", 2}}), 3},
    {"five_hundred_rummy", options({{"deals", 2}, {"partnership", true}}), 4},
    {"persian_rummy", options({{"deals", 2}}), 4},
    {"straight_rummy", options({{"deals", 2}}), 3},
    {"queen_city_rummy", options({{"deals", 2}}), 4},
    {"block_rummy", options({{"deals", 2}}), 3},
    {"skip_rummy", options({{"deals", 2}}), 3},
    {"round_the_corner_rummy", options({{"deals", 2}}), 3},
    {"java_rummy", options({{"deals", 2}, {"jokers", 2}}), 3},
    {"double_rummy", options({{"deals", 2}}), 3},
    {"rummy_poker", options({{"deals", 2}}), 3},
    {"carousel", options({{"deals", 2}}), 3},
    {"carousel", options({{"deals", 2}, {"ace_high_runs", true}}), 2},
};

}  // namespace

TEST_CASE("Rummy family bots: seeded games with a bot in every seat, and one bot against random players") {
  for (const auto& table : bot_tables) {
    CAPTURE(table.game);
    play_bot_games(table, 20, true);
    play_bot_games(table, 20, false);
  }
}

TEST_CASE("every Rummy family game has a level-1 bot") {
  for (const char* game : {"rummy", "michigan_rummy", "five_hundred_rummy", "persian_rummy", "straight_rummy",
                           "queen_city_rummy", "block_rummy", "skip_rummy", "round_the_corner_rummy", "java_rummy",
                           "rummy_poker", "double_rummy", "carousel"}) {
    CAPTURE(game);
    const auto* info = Registry::builtin().find(game);
    REQUIRE(info != nullptr);
    CHECK(static_cast<bool>(info->bot));
  }
}

// The bot knows a game's meld rules and card values only from the view's
// "rules" block: every value written must read back as itself.
TEST_CASE("the view's meld rules and card values read back as they were written") {
  using namespace parlour::rules::rummy;
  MeldRules carousel;
  carousel.set_distinct_suits = true;
  carousel.ace = AceMode::around;
  carousel.jokers_wild = true;
  MeldRules persian;
  persian.set_max = 8;
  persian.set_duplicates = true;
  persian.ace = AceMode::low_or_high;
  persian.jokers_own_rank = true;
  persian.run_min = 4;
  MeldRules java;
  java.ace = AceMode::high;
  java.deuces_wild = true;
  for (const auto& rules : {MeldRules{}, carousel, persian, java}) {
    const Json written = meld_rules_json(rules);
    CAPTURE(written.dump());
    CHECK(meld_rules_json(meld_rules_from(written)) == written);
  }
  for (const auto& values : {CardValues::basic(), CardValues::ace11(), CardValues::michigan(), CardValues::wild25()}) {
    const Json written = card_values_json(values);
    CAPTURE(written.dump());
    CHECK(card_values_json(card_values_from(written)) == written);
  }
  CHECK(meld_rules_json(meld_rules_from(Json())) == meld_rules_json(MeldRules{}));
}

}  // namespace unity_test_rummy_bot
