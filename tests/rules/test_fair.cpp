// rules/sha256.h against FIPS 180-4's examples, and rules/fair.h: the seed
// material's exact text, and every game that deals from a Shoe dealing each deal
// from the top of the deck its seed shuffles.
#include <doctest/doctest.h>

#include "rules/fair.h"
#include "rules/random_play.h"
#include "rules/registry.h"
#include "rules/sha256.h"
#include "rules/shoe.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_fair {

using namespace parlour::rules;
using Json = nlohmann::json;

TEST_CASE("SHA-256 of the FIPS 180-4 examples: 'abc', the empty message, the 448-bit message") {
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST_CASE("SHA-256 across block boundaries: the 896-bit message and a million 'a's") {
  CHECK(sha256_hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrst"
                   "nopqrstu") == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
  CHECK(sha256_hex(std::string(1'000'000, 'a')) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("the seed material of a deal is scheme|table|deal|seed|salt, and the commitment its SHA-256") {
  CHECK(fair::seed_material("t1a2b3c4d", 3, 18446744073709551615ULL, "00ff") ==
        "parlour-fair-1|t1a2b3c4d|3|18446744073709551615|00ff");
  CHECK(fair::commitment("t1a2b3c4d", 3, 18446744073709551615ULL, "00ff") ==
        sha256_hex("parlour-fair-1|t1a2b3c4d|3|18446744073709551615|00ff"));
  CHECK(fair::commitment("t1", 1, 7, "") != fair::commitment("t1", 2, 7, ""));
  CHECK(fair::commitment("t1", 1, 7, "") != fair::commitment("t2", 1, 7, ""));
}

TEST_CASE("shoe_deck gives each deal's stock exactly as the Shoe dealt it") {
  Shoe shoe(PackSpec{}, 42, std::nullopt);
  const auto first = shoe.next_deal().cards_left();
  const auto second = shoe.next_deal().cards_left();
  CHECK(fair::shoe_deck(PackSpec{}, 42, 1, std::nullopt) == first);
  CHECK(fair::shoe_deck(PackSpec{}, 42, 2, std::nullopt) == second);
  CHECK(first.size() == 52);
  CHECK(first != second);
  const std::vector<Card> stacked = {*parse_card("AS"), *parse_card("KH")};
  const auto stacked_first = fair::shoe_deck(PackSpec{}, 42, 1, stacked);
  CHECK(to_string(stacked_first[0]) == "AS");
  CHECK(to_string(stacked_first[1]) == "KH");
  CHECK_THROWS_AS(fair::shoe_deck(PackSpec{}, 42, 0, std::nullopt), std::invalid_argument);
}

TEST_CASE("seed 42's first two decks begin as web-client/js/fair.js computes them (the browser's re-shuffle)") {
  auto top = [](const std::vector<Card>& deck) {
    std::string text;
    for (std::size_t i = 0; i < 8; ++i) text += (i ? " " : "") + to_string(deck[i]);
    return text;
  };
  CHECK(top(fair::shoe_deck(PackSpec{}, 42, 1, std::nullopt)) == "AD 7H 7D 3D KS 6C 8C 3H");
  CHECK(top(fair::shoe_deck(PackSpec{}, 42, 2, std::nullopt)) == "TS JS 8C 9S 9H 4S 5H 6D");
}

TEST_CASE("check_dealt refuses a hand that is not from the top of the deck") {
  const auto deck = fair::shoe_deck(PackSpec{}, 9, 1, std::nullopt);
  const Json spectator = {{"piles", {{{"id", "stock"}, {"count", 50}}}}};
  auto seat_view = [&](int seat, const std::string& a, const std::string& b) {
    Json seats = Json::array();
    seats.push_back({{"seat", seat}, {"cards", {a, b}}});
    return Json{{"seats", seats}};
  };
  CHECK_FALSE(fair::check_dealt(deck, {seat_view(0, to_string(deck[0]), to_string(deck[1]))}, spectator));
  const auto wrong = fair::check_dealt(deck, {seat_view(0, to_string(deck[0]), to_string(deck[2]))}, spectator);
  REQUIRE(wrong);
  CHECK(*wrong == to_string(deck[2]) + " (seat 0's hand) is not among the top 2 cards of the deck");
}

namespace {

// Every view a deal's start shows, per seat and a spectator's.
std::vector<Json> seat_views(const GameState& game, int players) {
  std::vector<Json> views;
  for (int seat = 0; seat < players; ++seat) views.push_back(game.view(seat));
  return views;
}

void check_deal_start(const GameInfo& info, const GameState& game, int players, std::uint64_t seed) {
  const auto source = game.deck_source();
  if (!source || game.phase() != Phase::playing) return;
  const auto deck = fair::shoe_deck(source->pack, seed, source->shuffles, std::nullopt);
  const auto problem = fair::check_dealt(deck, seat_views(game, players), game.view(std::nullopt));
  INFO(info.id, " deal ", source->shuffles, " seed ", seed);
  CHECK_FALSE(problem);
  if (problem) MESSAGE(*problem);
}

}  // namespace

TEST_CASE("every game dealt from a Shoe deals each deal from the top of the deck its seed shuffles") {
  int checked_games = 0;
  for (const auto& info : Registry::builtin().all()) {
    const auto options = Registry::validate_options(info, Json::object());
    const int players = std::max(info.min_players, std::min(3, info.max_players_with(options)));
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      GameSetup setup{options, players, seed, std::nullopt, Balances(players, 1000)};
      auto game = Registry::create(info, setup);
      if (!game->deck_source()) break;  // the building games lay out their own packs
      if (seed == 1) ++checked_games;
      Balances chips(players, 1000);
      game->start_next_deal(chips);
      check_deal_start(info, *game, players, seed);
      Rng rng(seed);
      for (int step = 0; step < 3000 && game->phase() != Phase::game_over; ++step) {
        if (game->phase() == Phase::deal_over) {
          if (game->deals_played() >= 4) break;
          game->start_next_deal(chips);
          check_deal_start(info, *game, players, seed);
          continue;
        }
        const auto acting = game->to_act();
        if (acting.empty()) break;
        const auto legal = game->legal_actions(acting.front(), chips);
        if (legal.empty()) break;
        game->apply(acting.front(), random_legal_action(legal, rng), chips);
      }
    }
  }
  CHECK(checked_games >= 20);
}

}  // namespace unity_test_fair
