// Royal Cassino (source 000 "ROYAL CASSINO" and neighbours; rules/other.md §10,
// example E22) played through the GameState interface with stacked decks.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>

#include "rules/cassino/bot.h"
#include "rules/cassino/cassino_game.h"
#include "rules/registry.h"
#include "rules/snapshot.h"
#include "tests/rules/harness.h"
#include "tests/rules/playout.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_royal_cassino {

using parlour::test::Harness;
using parlour::rules::Card;
using parlour::rules::Json;
using parlour::rules::Phase;

namespace {

std::vector<Card> deck_of(const std::vector<std::string>& names) {
  std::vector<Card> out;
  for (const auto& name : names) {
    auto card = parlour::rules::parse_card(name, parlour::rules::Ranks::with_eleven_twelve);
    REQUIRE_MESSAGE(card.has_value(), "not a card: " << name);
    out.push_back(*card);
  }
  return out;
}

// The first round as seat 0 deals it: two cards to each other player from his
// left, two face up to the table, two to himself; twice. `hands` by seat.
std::vector<Card> first_round(const std::vector<std::vector<std::string>>& hands, const std::vector<std::string>& table,
                              const std::vector<std::string>& then = {}) {
  std::vector<std::string> deck;
  for (int pass = 0; pass < 2; ++pass) {
    for (std::size_t seat = 1; seat < hands.size(); ++seat)
      deck.insert(deck.end(), hands[seat].begin() + 2 * pass, hands[seat].begin() + 2 * pass + 2);
    deck.insert(deck.end(), table.begin() + 2 * pass, table.begin() + 2 * pass + 2);
    deck.insert(deck.end(), hands[0].begin() + 2 * pass, hands[0].begin() + 2 * pass + 2);
  }
  deck.insert(deck.end(), then.begin(), then.end());
  return deck_of(deck);
}

Json capture(const std::string& card, const std::vector<std::string>& take, const std::vector<int>& builds = {}) {
  return {{"type", "capture"}, {"card", card}, {"take", take}, {"builds", builds}};
}
Json build(const std::string& card, const std::vector<std::string>& with, int value,
           const std::vector<int>& builds = {}) {
  return {{"type", "build"}, {"card", card}, {"with", with}, {"builds", builds}, {"value", value}};
}
Json trail(const std::string& card) { return {{"type", "trail"}, {"card", card}}; }

// The message an action is refused with (after Harness::refusal's checks that nothing changed).
std::string refusal_message(Harness& h, int seat, const Json& action) {
  CHECK(h.refusal(seat, action) == "illegal_action");
  try {
    h.act(seat, action);
  } catch (const parlour::rules::RulesError& e) {
    return e.what();
  }
  return "accepted";
}

Json pile(const Json& view, const std::string& id) {
  for (const auto& p : view["piles"])
    if (p["id"] == id) return p;
  return Json();
}

bool listed(const Json& legal, const Json& action) {
  return std::find(legal.begin(), legal.end(), action) != legal.end();
}

using Policy = std::function<Json(int seat, const Json& view, const Json& legal)>;

Json trail_if_possible(int, const Json&, const Json& legal) {
  for (const auto& action : legal)
    if (action["type"] == "trail") return action;
  return legal.front();
}

Json bot_policy(int, const Json& view, const Json& legal) {
  parlour::rules::Rng rng(1);
  return parlour::rules::cassino::cassino_bot(view, legal, rng);
}

// Plays until the deal (or the game) is over.
void play_deal(Harness& h, const Policy& choose) {
  while (h.game().phase() == Phase::playing) {
    const int seat = h.game().to_act().front();
    h.act(seat, choose(seat, h.game().view(seat), h.legal(seat)));
  }
}

// Everything the spectator can count: hands, stock, table, builds and captured piles.
std::size_t cards_counted(const Json& view) {
  std::size_t count = 0;
  for (const auto& seat : view["seats"]) count += seat["count"].get<std::size_t>();
  for (const auto& p : view["piles"]) count += p["count"].get<std::size_t>();
  for (const auto& meld : view["melds"]) count += meld["cards"].size();
  return count;
}

const std::vector<std::int64_t> chips2 = {1000, 1000};

}  // namespace

TEST_CASE("Royal Cassino: the first round gives four each and four to the table, in twos, dealer last") {
  auto deck = first_round({{"AS", "2S", "3S", "4S"}, {"AH", "2H", "3H", "4H"}}, {"AD", "2D", "3D", "4D"});
  Harness h("royal_cassino", {}, chips2, 1, deck);
  const auto view = h.game().view(1);
  CHECK(view["layout"] == "cassino");
  CHECK(view["seats"][1]["cards"] == Json::array({"AH", "2H", "3H", "4H"}));
  CHECK(pile(view, "table")["cards"] == Json::array({"AD", "2D", "3D", "4D"}));
  CHECK(pile(view, "stock")["count"] == 40);
  CHECK(view["round"] == 1);
  CHECK(view["rounds"] == 6);
  CHECK(view["last"] == false);
  CHECK(h.game().to_act() == std::vector<int>{1});  // the dealer's left plays first
  for (int players : {3, 4}) {
    Harness more("royal_cassino", {}, std::vector<std::int64_t>(players, 100));
    CHECK(more.game().view(0)["rounds"] == (players == 3 ? 4 : 3));
    CHECK(pile(more.game().view(0), "stock")["count"] == 52 - 4 - 4 * players);
  }
}

TEST_CASE("Royal Cassino: \"last\" is announced before the final round and the deal passes left") {
  Harness h("royal_cassino", {{"target", 500}}, chips2, 3);
  for (int round = 1; round <= 6; ++round) {
    CHECK(h.game().view(0)["round"] == round);
    CHECK(h.game().view(0)["last"] == (round == 6));
    for (int play = 0; play < 8; ++play) {
      const int seat = h.game().to_act().front();
      h.act(seat, trail_if_possible(seat, h.game().view(seat), h.legal(seat)));
    }
  }
  CHECK(h.game().phase() == Phase::deal_over);
  h.next_deal();
  CHECK(h.game().view(0)["dealer"] == 1);
  CHECK(h.game().to_act() == std::vector<int>{0});
}

TEST_CASE("Royal Cassino: capturing by pairing and by sums, several at once") {
  auto deck = first_round({{"9D", "8D", "7D", "6D"}, {"5H", "7C", "KS", "4C"}}, {"5C", "2D", "3H", "9S"});
  Harness h("royal_cassino", {}, chips2, 1, deck);
  const auto legal = h.legal(1);
  CHECK(listed(legal, capture("5H", {"5C"})));
  CHECK(listed(legal, capture("5H", {"2D", "3H"})));
  CHECK(listed(legal, capture("5H", {"5C", "2D", "3H"})));
  CHECK(listed(legal, capture("9S", {})) == false);
  // Any valid order of the same cards is accepted.
  h.act(1, capture("5H", {"3H", "5C", "2D"}));
  const auto view = h.game().view(0);
  CHECK(view["seats"][1]["captured"] == 4);
  CHECK(pile(view, "table")["cards"] == Json::array({"9S"}));
  CHECK(view["last_capture"] == 1);
}

TEST_CASE("Royal Cassino: a capture whose cards do not add up is refused, naming the rule") {
  auto deck = first_round({{"9D", "8D", "7D", "6D"}, {"5H", "7C", "KS", "4C"}}, {"5C", "2D", "3H", "9S"});
  Harness h("royal_cassino", {}, chips2, 1, deck);
  CHECK(refusal_message(h, 1, capture("5H", {"5C", "9S"})).find("capturing: every card taken must pair") !=
        std::string::npos);
  CHECK(refusal_message(h, 1, capture("5H", {"5D"})).find("not a loose card on the table") != std::string::npos);
  CHECK(refusal_message(h, 1, capture("9D", {"9S"})).find("not in your hand") != std::string::npos);
  CHECK(h.refusal(0, capture("9D", {"9S"})) == "not_your_turn");
  CHECK(h.refusal(1, {{"type", "capture"}, {"card", "5H"}, {"take", "5C"}}) == "illegal_action");
  CHECK(h.refusal(1, {{"type", "pass"}}) == "illegal_action");
}

TEST_CASE("Royal Cassino (E22): a king captures 7 and 6, thirteen") {
  auto deck = first_round({{"9D", "8D", "2C", "6D"}, {"KS", "7D", "QS", "4C"}}, {"7C", "6H", "AS", "3D"});
  Harness h("royal_cassino", {}, chips2, 1, deck);
  CHECK(listed(h.legal(1), capture("KS", {"7C", "6H"})));
  h.act(1, capture("KS", {"7C", "6H"}));
  CHECK(h.game().view(1)["seats"][1]["captured"] == 3);
}

TEST_CASE("Royal Cassino (E22): with ace_high an ace captures 10 and 4, fourteen") {
  auto deck = first_round({{"9D", "8D", "2C", "6D"}, {"AH", "7D", "QS", "4C"}}, {"TD", "4S", "5S", "3D"});
  Harness low("royal_cassino", {}, chips2, 1, deck);
  CHECK(low.refusal(1, capture("AH", {"TD", "4S"})) == "illegal_action");
  Harness h("royal_cassino", {{"ace_high", true}}, chips2, 1, deck);
  CHECK(listed(h.legal(1), capture("AH", {"TD", "4S"})));
  h.act(1, capture("AH", {"TD", "4S"}));
  CHECK(h.game().view(1)["seats"][1]["captured"] == 3);
}

TEST_CASE("Royal Cassino (E22): with the special pack a queen (14) captures a twelve-spot and a 2") {
  auto deck = first_round({{"9D", "8D", "2C", "6D"}, {"QH", "7D", "ES", "4C"}}, {"WS", "2H", "5S", "3D"});
  Harness h("royal_cassino", {{"special_pack", true}}, chips2, 1, deck);
  const auto legal = h.legal(1);
  CHECK(listed(legal, capture("QH", {"WS", "2H"})));
  CHECK(listed(legal, capture("ES", {"WS"})) == false);
  CHECK(pile(h.game().view(1), "stock")["count"] == 48);
  CHECK(h.game().view(1)["card_values"]["W"] == Json::array({12}));
  CHECK(h.game().view(1)["card_values"]["K"] == Json::array({15}));
  h.act(1, capture("QH", {"WS", "2H"}));
  CHECK(h.game().view(0)["seats"][1]["captured"] == 3);
}

TEST_CASE("Royal Cassino: special-pack values J 13, K 15, ace 1 or 16") {
  auto deck = first_round({{"JD", "KD", "2C", "6D"}, {"AH", "ED", "QS", "4C"}}, {"9S", "4H", "8S", "3D"});
  Harness h("royal_cassino", {{"special_pack", true}, {"ace_high", true}}, chips2, 1, deck);
  CHECK(listed(h.legal(1), capture("ED", {"8S", "3D"})));
  h.act(1, capture("ED", {"8S", "3D"}));
  CHECK(listed(h.legal(0), capture("JD", {"9S", "4H"})));
  h.act(0, build("2C", {"9S", "4H"}, 15));  // 2 + 9 + 4, taken by the king
  CHECK(h.game().view(0)["melds"][0]["value"] == 15);
  CHECK(h.game().view(0)["max_build"] == 16);
  // An ace counts 1 or 16, never 15: it cannot take the build.
  CHECK(listed(h.legal(1), capture("AH", {}, {1})) == false);
}

TEST_CASE("Royal Cassino: a build belongs to its builder, shows its value, and is taken whole") {
  auto deck = first_round({{"7D", "9D", "2C", "6D"}, {"3H", "7H", "9C", "QS"}}, {"4C", "2H", "7S", "8D"});
  Harness h("royal_cassino", {}, chips2, 1, deck);
  CHECK(listed(h.legal(1), build("3H", {"4C"}, 7)));
  h.act(1, build("3H", {"4C"}, 7));
  auto view = h.game().view(0);
  REQUIRE(view["melds"].size() == 1);
  CHECK(view["melds"][0]["value"] == 7);
  CHECK(view["melds"][0]["owner"] == 1);
  CHECK(view["melds"][0]["multiple"] == false);
  CHECK(view["seats"][1]["owns"] == Json::array({1}));
  // The opponent takes it with his own 7, the build and the loose 7 together.
  h.act(0, capture("7D", {"7S"}, {1}));
  view = h.game().view(0);
  CHECK(view["melds"].empty());
  CHECK(view["seats"][0]["captured"] == 4);
}

TEST_CASE("Royal Cassino: a build needs a card in hand to take it") {
  auto deck = first_round({{"7D", "9D", "2C", "6D"}, {"3H", "7H", "9C", "QS"}}, {"4C", "2H", "7S", "8D"});
  Harness h("royal_cassino", {}, chips2, 1, deck);
  CHECK(refusal_message(h, 1, build("3H", {"2H"}, 5)).find("keep a card to take his build") != std::string::npos);
  CHECK(refusal_message(h, 1, build("3H", {"2H"}, 7)).find("must total the value") != std::string::npos);
  CHECK(listed(h.legal(1), build("3H", {"2H"}, 5)) == false);
}

TEST_CASE("Royal Cassino: a build owner may not trail, and must keep the card that takes it") {
  auto deck = first_round({{"7D", "9D", "2C", "6D"}, {"3H", "7H", "9C", "QS"}}, {"4C", "2H", "7S", "8D"});
  Harness h("royal_cassino", {}, chips2, 1, deck);
  h.act(1, build("3H", {"4C"}, 7));
  h.act(0, trail("6D"));
  const auto message = refusal_message(h, 1, trail("QS"));
  CHECK(message.find("owns a build may not trail") != std::string::npos);
  for (const auto& action : h.legal(1)) CHECK(action["type"] != "trail");
  // The 7 may take the build (and the loose 7), but not go anywhere else.
  CHECK(listed(h.legal(1), capture("7H", {"7S"}, {1})));
  CHECK(refusal_message(h, 1, build("7H", {"2H"}, 9)).find("keep a card to take it") != std::string::npos);
}

TEST_CASE("Royal Cassino: raising a simple build, by its owner or anyone holding the new value") {
  auto deck = first_round({{"2D", "9D", "KC", "6D"}, {"3H", "7H", "9C", "QS"}}, {"4C", "2H", "7S", "8D"});
  Harness h("royal_cassino", {}, chips2, 1, deck);
  h.act(1, build("3H", {"4C"}, 7));
  CHECK(listed(h.legal(0), build("2D", {}, 9, {1})));
  h.act(0, build("2D", {}, 9, {1}));
  auto view = h.game().view(1);
  REQUIRE(view["melds"].size() == 1);
  CHECK(view["melds"][0]["id"] == 1);
  CHECK(view["melds"][0]["value"] == 9);
  CHECK(view["melds"][0]["owner"] == 0);
  CHECK(view["seats"][1]["owns"].empty());
  // No longer owning a build, seat 1 may trail again; seat 0 may not.
  CHECK(listed(h.legal(1), trail("QS")));
  h.act(1, trail("QS"));
  CHECK(h.refusal(0, trail("KC")) == "illegal_action");
}

TEST_CASE("Royal Cassino: a multiple build can never be changed, only taken") {
  auto deck = first_round({{"2D", "9D", "KC", "6D"}, {"3H", "7H", "7C", "QS"}}, {"4C", "2H", "7S", "8D"});
  Harness h("royal_cassino", {}, chips2, 1, deck);
  CHECK(listed(h.legal(1), build("3H", {"4C", "7S"}, 7)));
  h.act(1, build("3H", {"4C", "7S"}, 7));
  const auto view = h.game().view(0);
  REQUIRE(view["melds"].size() == 1);
  CHECK(view["melds"][0]["multiple"] == true);
  CHECK(view["melds"][0]["groups"] == Json::array({Json::array({"3H", "4C"}), Json::array({"7S"})}));
  CHECK(refusal_message(h, 0, build("2D", {}, 9, {1})).find("multiple build can never be changed") !=
        std::string::npos);
  for (const auto& action : h.legal(0))
    if (action["type"] == "build") CHECK(action["builds"].empty());
  h.act(0, trail("2D"));
  h.act(1, capture("7H", {}, {1}));
  CHECK(h.game().view(0)["seats"][1]["captured"] == 4);
}

TEST_CASE("Royal Cassino: a Royal build to 13 taken with a king") {
  auto deck = first_round({{"2D", "9D", "KC", "6D"}, {"5H", "KH", "7C", "QS"}}, {"8C", "2H", "7S", "AD"});
  Harness h("royal_cassino", {}, chips2, 1, deck);
  CHECK(listed(h.legal(1), build("5H", {"8C"}, 13)));
  CHECK(listed(h.legal(1), build("QS", {"AD"}, 13)));
  h.act(1, build("5H", {"8C"}, 13));
  h.act(0, capture("KC", {}, {1}));  // the opponent's king takes it first
  CHECK(h.game().view(0)["seats"][0]["captured"] == 3);
}

TEST_CASE("Royal Cassino: with ace_high a build of 14 is taken by an ace") {
  auto deck = first_round({{"2D", "9D", "KC", "6D"}, {"2S", "AH", "7C", "QS"}}, {"QC", "2H", "7S", "5D"});
  Harness low("royal_cassino", {}, chips2, 1, deck);
  CHECK(low.refusal(1, build("2S", {"QC"}, 14)) == "illegal_action");
  Harness h("royal_cassino", {{"ace_high", true}}, chips2, 1, deck);
  CHECK(listed(h.legal(1), build("2S", {"QC"}, 14)));
  h.act(1, build("2S", {"QC"}, 14));
  h.act(0, trail("6D"));
  CHECK(listed(h.legal(1), capture("AH", {}, {1})));
  h.act(1, capture("AH", {}, {1}));
  CHECK(h.game().view(0)["seats"][1]["captured"] == 3);
}

TEST_CASE("Royal Cassino: a capture that clears the table is a sweep; option sweeps off scores none") {
  auto deck = first_round({{"2D", "9D", "KC", "6D"}, {"9H", "7H", "7C", "QS"}}, {"4C", "5H", "2H", "7S"});
  for (bool sweeps : {true, false}) {
    Harness h("royal_cassino", {{"sweeps", sweeps}, {"target", 500}}, chips2, 1, deck);
    h.act(1, capture("9H", {"4C", "5H", "2H", "7S"}));
    CHECK(h.game().view(0)["seats"][1]["sweeps"] == 1);
    CHECK(h.game().view(0)["sides"][1]["sweeps"] == 1);
    play_deal(h, trail_if_possible);
    const auto result = h.game().result();
    const auto& items = result["items"];
    const bool scored = std::any_of(items.begin(), items.end(), [](const Json& i) { return i["item"] == "sweep"; });
    CHECK(scored == sweeps);
    CHECK(result["sides"][1]["sweeps"] == 1);
  }
}

TEST_CASE("Royal Cassino: the last to capture takes what is left on the table, which is no sweep") {
  // Seat 1 captures once, as soon as it can; everything else is trailed.
  bool captured = false;
  Policy once = [&](int seat, const Json& view, const Json& legal) {
    if (seat == 1 && !captured)
      for (const auto& action : legal)
        if (action["type"] == "capture" && action["take"].size() == 1) {
          captured = true;
          return action;
        }
    return trail_if_possible(seat, view, legal);
  };
  Harness h("royal_cassino", {{"target", 500}}, chips2, 5);
  play_deal(h, once);
  REQUIRE(captured);
  const auto result = h.game().result();
  CHECK(result["residue"]["seat"] == 1);
  CHECK(result["sides"][1]["cards"] == 52);
  CHECK(result["sides"][1]["sweeps"] == 0);
  CHECK(result["sides"][1]["points"] == 11);
  // Nobody captures at all: the dealer takes the table.
  Harness none("royal_cassino", {{"target", 500}}, chips2, 5);
  play_deal(none, trail_if_possible);
  CHECK(none.game().result()["residue"]["seat"] == 0);
  CHECK(none.game().result()["residue"]["cards"].size() == 52);
  CHECK(none.game().result()["sides"][0]["points"] == 11);
  CHECK(none.game().result()["scores"] == Json::array({11, 0}));
  CHECK(none.game().phase() == Phase::deal_over);
}

TEST_CASE("Royal Cassino: the count-out at the target and chips per point of difference") {
  // The dealer takes all 52: cards 3, spades 1, Big Cassino 2 reach 5; the rest is not counted.
  Harness h("royal_cassino", {{"target", 5}, {"stake", 3}}, chips2, 5);
  play_deal(h, trail_if_possible);
  CHECK(h.game().phase() == Phase::game_over);
  const auto result = h.game().result();
  CHECK(result["end"] == "game");
  CHECK(result["winner"] == 0);
  CHECK(result["counted"] == 3);
  CHECK(result["scores"] == Json::array({6, 0}));
  CHECK(h.chips() == std::vector<std::int64_t>{1000 + 18, 1000 - 18});
  CHECK(result["seats"][0]["chips"] == 18);
  CHECK(result["seats"][1]["chips"] == -18);
}

TEST_CASE("Royal Cassino: a fixed stake per game, and a loser pays what he has with the rest named unpaid") {
  Harness fixed("royal_cassino", {{"target", 5}, {"game_stake", 50}}, chips2, 5);
  play_deal(fixed, trail_if_possible);
  CHECK(fixed.chips() == std::vector<std::int64_t>{1050, 950});
  Harness poor("royal_cassino", {{"target", 5}, {"stake", 3}}, {1000, 7}, 5);
  play_deal(poor, trail_if_possible);
  CHECK(poor.chips() == std::vector<std::int64_t>{1007, 0});
  const auto unpaid = poor.game().result()["unpaid"];
  REQUIRE(unpaid.size() == 1);
  CHECK(unpaid[0]["seat"] == 1);
  CHECK(unpaid[0]["amount"] == 11);
}

TEST_CASE("Royal Spade Cassino: spade points, count-out, and the lurch doubling") {
  // Target 11 (lurch under 6): cards 3, spades 1, Big Cassino 2, four aces, then A♠'s 2 spade points: 12.
  Harness h("royal_cassino", {{"spade", true}, {"target", 11}, {"stake", 2}}, chips2, 5);
  play_deal(h, trail_if_possible);
  const auto result = h.game().result();
  CHECK(result["scores"] == Json::array({12, 0}));
  CHECK(result["items"][7]["item"] == "spade");
  CHECK(result["items"][7]["card"] == "AS");
  CHECK(result["counted"] == 8);
  CHECK(result["lurched"] == Json::array({1}));
  CHECK(h.chips() == std::vector<std::int64_t>{1000 + 48, 1000 - 48});
  // A whole deal is worth 26 to the side that took everything; game 61 by default.
  Harness full("royal_cassino", {{"spade", true}}, chips2, 5);
  play_deal(full, trail_if_possible);
  CHECK(full.game().result()["sides"][0]["points"] == 26);
  CHECK(full.game().result()["target"] == 61);
  CHECK(full.game().phase() == Phase::deal_over);
}

TEST_CASE("Royal Cassino: partnerships score as sides and each loser pays the opponent on his left") {
  Harness h("royal_cassino", {{"partnership", true}, {"target", 5}}, {100, 100, 100, 100}, 5);
  CHECK(h.game().view(0)["sides"].size() == 2);
  CHECK(h.game().view(0)["sides"][0]["seats"] == Json::array({0, 2}));
  play_deal(h, trail_if_possible);
  CHECK(h.game().result()["winner_seats"] == Json::array({0, 2}));
  CHECK(h.chips() == std::vector<std::int64_t>{106, 94, 106, 94});
  CHECK(h.game().result()["scores"] == Json::array({6, 0, 6, 0}));
}

TEST_CASE("Royal Cassino: per_deal_game settles every deal by the differences and plays on") {
  Harness h("royal_cassino", {{"per_deal_game", true}, {"deals", 2}}, {100, 100, 100}, 5);
  play_deal(h, trail_if_possible);
  CHECK(h.game().phase() == Phase::deal_over);
  CHECK(h.game().result()["winner"] == 0);
  CHECK(h.chips() == std::vector<std::int64_t>{122, 89, 89});
  h.next_deal();
  play_deal(h, trail_if_possible);
  CHECK(h.game().phase() == Phase::game_over);  // the deal limit
  CHECK(h.game().result()["end"] == "deal_limit");
}

TEST_CASE("Royal Cassino: contradictory options and partnerships without four players are refused") {
  const auto* info = parlour::rules::Registry::builtin().find("royal_cassino");
  REQUIRE(info != nullptr);
  CHECK(info->layout == "cassino");
  CHECK(static_cast<bool>(info->bot));
  using parlour::rules::Registry;
  using parlour::rules::SetupError;
  CHECK_THROWS_WITH_AS(Registry::validate_options(*info, {{"per_deal_game", true}, {"target", 21}}),
                       doctest::Contains("no 'target'"), SetupError);
  CHECK_THROWS_WITH_AS(Registry::validate_options(*info, {{"per_deal_game", true}, {"spade", true}}),
                       doctest::Contains("Spade Cassino is a game to 61"), SetupError);
  CHECK_THROWS_WITH_AS(Registry::validate_options(*info, {{"stake", 2}, {"game_stake", 5}}),
                       doctest::Contains("choose one way to settle"), SetupError);
  for (const Json& options : {Json{{"draw", true}, {"spade", true}, {"ace_high", true}, {"special_pack", true}},
                             Json{{"draw", true}, {"partnership", true}}})
    CHECK_NOTHROW(Registry::validate_options(*info, options));
  parlour::rules::GameSetup setup{Json{{"partnership", true}}, 3, 1, std::nullopt, {10, 10, 10}};
  CHECK_THROWS_WITH_AS(Registry::create(*info, setup), doctest::Contains("partnerships need four players"), SetupError);
  CHECK_THROWS_AS(Harness("royal_cassino", {}, std::vector<std::int64_t>(5, 10)), SetupError);
}

TEST_CASE("Royal Draw Cassino: each play is followed by a draw to four, and no \"last\"") {
  Harness h("royal_cassino", {{"draw", true}, {"target", 500}}, chips2, 7);
  CHECK(h.game().view(0)["rounds"].is_null());
  int plays = 0;
  while (h.game().phase() == Phase::playing) {
    const int seat = h.game().to_act().front();
    const auto stock = pile(h.game().view(seat), "stock")["count"].get<int>();
    h.act(seat, trail_if_possible(seat, h.game().view(seat), h.legal(seat)));
    ++plays;
    if (stock > 0 && h.game().phase() == Phase::playing) CHECK(h.game().view(seat)["seats"][seat]["count"] == 4);
    CHECK(h.game().view(0)["last"] == false);
  }
  CHECK(plays == 48);
  CHECK(h.game().result()["residue"]["cards"].size() == 52);
}

TEST_CASE("Royal Cassino: the special pack deals seven rounds to two; to three the few left over go face up") {
  Harness two("royal_cassino", {{"special_pack", true}, {"target", 500}}, chips2, 3);
  CHECK(two.game().view(0)["rounds"] == 7);
  play_deal(two, trail_if_possible);
  CHECK(two.game().result()["residue"]["cards"].size() == 60);

  Harness three("royal_cassino", {{"special_pack", true}, {"target", 500}}, {100, 100, 100}, 3);
  CHECK(three.game().view(0)["rounds"] == 5);
  while (three.game().view(0)["round"] != 5) {
    const int seat = three.game().to_act().front();
    three.act(seat, trail_if_possible(seat, three.game().view(seat), three.legal(seat)));
  }
  const auto view = three.game().view(0);
  CHECK(view["last"] == true);
  for (const auto& seat : view["seats"]) CHECK(seat["count"] == 2);
  CHECK(pile(view, "stock")["count"] == 0);
  CHECK(pile(view, "table")["count"] == 4 + 4 * 12 + 2);  // everything trailed, then two left over
  CHECK(cards_counted(view) == 60);
}

TEST_CASE("Royal Cassino: views hide other hands and the stock; a spectator sees no hand") {
  auto deck = first_round({{"9D", "8D", "7D", "6D"}, {"5H", "7C", "KS", "4C"}}, {"5C", "2D", "3H", "9S"});
  Harness h("royal_cassino", {}, chips2, 1, deck);
  const auto mine = h.game().view(1);
  CHECK(mine["seats"][1]["cards"] == Json::array({"5H", "7C", "KS", "4C"}));
  CHECK(mine["seats"][0]["cards"] == Json::array({"??", "??", "??", "??"}));
  CHECK(mine["seats"][0]["count"] == 4);
  const auto spectator = h.game().view(std::nullopt);
  for (const auto& seat : spectator["seats"]) CHECK(seat["cards"] == Json::array({"??", "??", "??", "??"}));
  const auto stock = pile(spectator, "stock");
  CHECK(stock["count"] == 40);
  CHECK(stock["top"].is_null());
  CHECK_FALSE(stock.contains("cards"));
  const auto text = mine.dump();
  for (const char* hidden : {"9D", "8D", "7D", "6D"}) CHECK(text.find(hidden) == std::string::npos);
  CHECK(h.legal(0).empty());
  CHECK(cards_counted(spectator) == 52);
}

TEST_CASE("Royal Cassino bot: takes the most valuable capture, keeps its build's card, trails the least useful") {
  // The bot sees only a view and a legal list.
  auto deck = first_round({{"TD", "2D", "KC", "6D"}, {"5H", "7H", "9C", "QS"}}, {"TC", "5C", "8S", "4D"});
  Harness h("royal_cassino", {}, chips2, 1, deck);
  h.act(1, trail("QS"));
  // Seat 0: TD takes TC (a 10 and Big Cassino) rather than 2D with anything smaller.
  auto choice = bot_policy(0, h.game().view(0), h.legal(0));
  CHECK(choice["type"] == "capture");
  CHECK(choice["card"] == "TD");
  // With nothing to capture or build, the bot trails a plain card, not an ace or Big Cassino.
  Json view = h.game().view(0);
  const Json trails = Json::array({trail("AS"), trail("TD"), trail("7C")});
  parlour::rules::Rng rng(1);
  CHECK(parlour::rules::cassino::cassino_bot(view, trails, rng) == trail("7C"));
  // Owning a build, it never gives up the card that takes it (the legal list keeps that duty).
  Harness owner("royal_cassino", {}, chips2, 1,
                first_round({{"2D", "9D", "KC", "6D"}, {"3H", "7H", "9C", "QS"}}, {"4C", "2H", "7S", "8D"}));
  owner.act(1, build("3H", {"4C"}, 7));
  owner.act(0, trail("6D"));
  const auto pick = bot_policy(1, owner.game().view(1), owner.legal(1));
  CHECK((pick["card"] != "7H" || (pick["type"] == "capture" && pick["builds"] == Json::array({1}))));
  // A whole game, bot against bot.
  Harness game("royal_cassino", {}, chips2, 11);
  for (int guard = 0; guard < 50 && game.game().phase() != Phase::game_over; ++guard) {
    play_deal(game, bot_policy);
    if (game.game().phase() == Phase::deal_over) game.next_deal();
  }
  CHECK(game.game().phase() == Phase::game_over);
  CHECK(game.total() == 2000);
}

namespace {

// Random games of one option set: cards and chips conserved after every play,
// every game ends, and now and then every listed action is applied to a copy.
void random_games(const Json& options, int games, int players_lo, int players_hi, std::size_t pack) {
  parlour::test::Playout spec;
  spec.game = "royal_cassino";
  spec.options = options;
  spec.min_games = games;
  spec.min_deals = 0;
  spec.max_steps = 20000;
  spec.players_lo = players_lo;
  spec.players_hi = players_hi;
  spec.chips_for = [](int players, parlour::rules::Rng&) { return std::vector<std::int64_t>(players, 300); };
  spec.pack_size = [pack](int) { return pack; };
  spec.copy_game = parlour::rules::cassino::copy_cassino;
  spec.copy_one_in = 80;
  parlour::test::random_playouts(spec);
}

}  // namespace

TEST_CASE("Royal Cassino randomized: 1,000 games of each option set conserve cards and chips and end") {
  const int games = 1000;
  // Small targets keep each game to a deal or two; the full targets are played
  // by the scripted tests above.
  random_games({{"target", 11}}, games, 2, 4, 52);
  random_games({{"target", 11}, {"ace_high", true}, {"sweeps", false}}, games, 2, 4, 52);
  random_games({{"target", 11}, {"special_pack", true}, {"ace_high", true}}, games, 2, 4, 60);
  random_games({{"target", 11}, {"draw", true}}, games, 2, 4, 52);
  random_games({{"target", 15}, {"spade", true}, {"game_stake", 20}}, games, 2, 4, 52);
  random_games({{"target", 11}, {"partnership", true}, {"draw", true}, {"spade", true}}, games, 4, 4, 52);
  random_games({{"per_deal_game", true}, {"deals", 1}, {"special_pack", true}, {"draw", true}}, games, 2, 4, 60);
}

// The result's settlement carries the memos the ledger shows (the table adds
// "Royal Cassino: " and each {seat:N}'s name).
TEST_CASE("ledger memos: the game's winner, the score, and why the loser pays what he pays") {
  Harness h("royal_cassino", {{"target", 5}, {"stake", 3}}, chips2, 5);
  play_deal(h, trail_if_possible);
  auto settlement = h.game().result()["settlement"];
  REQUIRE(settlement.size() == 1);
  CHECK(settlement[0]["memo"] == "{seat:0} wins the game 6 to 0 of {seat:1}: the difference in points");

  Harness lurch("royal_cassino", {{"spade", true}, {"target", 11}, {"stake", 2}}, chips2, 5);
  play_deal(lurch, trail_if_possible);
  settlement = lurch.game().result()["settlement"];
  REQUIRE(settlement.size() == 1);
  CHECK(settlement[0]["memo"] ==
        "{seat:0} wins the game 12 to 0 of {seat:1}: the difference in points, doubled for a lurch (below 6)");

  Harness sides("royal_cassino", {{"partnership", true}, {"target", 5}}, {100, 100, 100, 100}, 5);
  play_deal(sides, trail_if_possible);
  settlement = sides.game().result()["settlement"];
  REQUIRE(settlement.size() == 2);
  CHECK(settlement[0]["memo"] == "{seat:0} and {seat:2} win the game 6 to 0 of {seat:1} and {seat:3}: the difference in points");
}

TEST_CASE("Royal Cassino snapshot: restored with a build on the table, the hidden hands and the build come back") {
  auto deck = first_round({{"7D", "9D", "2C", "6D"}, {"3H", "7H", "9C", "QS"}}, {"4C", "2H", "7S", "8D"},
                          {"5S", "5H", "5D", "5C"});
  Harness h("royal_cassino", {}, chips2, 1, deck);
  h.act(1, build("3H", {"4C"}, 7));
  auto restored = h.restored(Json::parse(h.game().snapshot().dump()));
  // A snapshot short of any field, or naming a seat or turn the table has not, is refused.
  h.spoilt_snapshots_refused({"dealer", "turn"});
  CHECK(restored->view(0)["seats"][0]["cards"] == Json::array({"7D", "9D", "2C", "6D"}));
  CHECK(restored->view(1)["seats"][1]["cards"] == Json::array({"7H", "9C", "QS"}));
  const auto view = restored->view(std::nullopt);
  REQUIRE(view["melds"].size() == 1);
  CHECK(view["melds"][0]["owner"] == 1);
  CHECK(view["melds"][0]["groups"] == Json::array({Json::array({"3H", "4C"})}));
  CHECK(parlour::test::view_pile(view, "stock")["count"] == 52 - 12);
  // The build is taken whole from the restored table, as from the original.
  restored->apply(0, capture("7D", {"7S"}, {1}), chips2);
  CHECK(restored->view(0)["seats"][0]["captured"] == 4);
}

}  // namespace unity_test_royal_cassino
