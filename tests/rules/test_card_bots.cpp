// The level-1 bots of the trick games (Rams, Rounce, Reversi) and the betting
// games (Red Dog, Red and Black, Ranter-Go-Round), issue 18: positions where the
// right move is clear, the bot reading its view and nothing else, and whole
// games of bots that the games accept to the end.
#include <doctest/doctest.h>

#include "rules/games/red_and_black.h"
#include "rules/games/red_dog.h"
#include "rules/random_play.h"
#include "rules/registry.h"
#include "tests/rules/harness.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_card_bots {

using parlour::test::cards;
using parlour::test::Harness;
using parlour::rules::Json;
using parlour::rules::Phase;
using parlour::rules::Rng;

namespace {

const parlour::rules::BotPolicy& bot_of(const std::string& game) {
  const auto* info = parlour::rules::Registry::builtin().find(game);
  REQUIRE(info != nullptr);
  REQUIRE(info->bot);
  return info->bot;
}

// The bot's move for the seat to act at this table.
Json bot_move(Harness& h, const std::string& game, std::uint64_t seed = 1) {
  Rng rng(seed);
  const int seat = h.game().to_act().front();
  return bot_of(game)(h.game().view(seat), h.legal(seat), rng);
}

Json card_play(const std::string& card) { return {{"type", "card"}, {"card", card}}; }
Json typed(const std::string& type) { return {{"type", type}}; }

// Rams and Rounce deal in packets of two then three, from the dealer's left, the
// widow dealt after the dealer, then the turned trump. Hands in declaring order.
std::vector<parlour::rules::Card> pool_trick_deck(const std::vector<std::vector<std::string>>& hands,
                                                  const std::vector<std::string>& widow, const std::string& turned) {
  std::vector<std::string> out;
  for (const auto& hand : hands) out.insert(out.end(), hand.begin(), hand.begin() + 2);
  out.insert(out.end(), widow.begin(), widow.begin() + 2);
  for (const auto& hand : hands) out.insert(out.end(), hand.begin() + 2, hand.end());
  out.insert(out.end(), widow.begin() + 2, widow.end());
  out.push_back(turned);
  return cards(out);
}

// Three players, seat 0 deals, seat 1 declares first; hearts are trumps.
Harness rams_table(const std::vector<std::string>& first_hand,
                   const std::vector<std::string>& second_hand = {"QS", "KS", "JS", "QC", "KC"},
                   const std::vector<std::string>& dealer_hand = {"7D", "8D", "9D", "TD", "JD"}) {
  return Harness("rams", Json::object(), {100, 100, 100}, 1,
                 pool_trick_deck({first_hand, second_hand, dealer_hand}, {"QD", "KD", "JC", "TS", "AD"}, "7H"));
}

// A view of a trick game in play, as the game writes it, for the bot alone.
Json trick_view(int me, const std::vector<std::string>& hand, const Json& plays, int players, const char* trump,
                const char* status_field) {
  Json seats = Json::array();
  for (int seat = 0; seat < players; ++seat) {
    Json line = {{"seat", seat}, {"cards", seat == me ? Json(hand) : Json::array({"??", "??"})}};
    if (std::string(status_field) == "active") line["status"] = "active";
    else line["in_deal"] = true;
    line["tricks"] = 0;
    seats.push_back(line);
  }
  return {{"seats", seats},
          {"trick", {{"plays", plays}, {"trump", trump ? Json(trump) : Json()}}},
          {"turn", {{"seats", {me}}, {"stage", "play"}}},
          {"last_trick", Json::array()}};
}

Json plays(const std::vector<std::pair<int, std::string>>& list) {
  Json out = Json::array();
  for (const auto& [seat, card] : list) out.push_back({{"seat", seat}, {"card", card}});
  return out;
}

Json legal_cards(const std::vector<std::string>& list) {
  Json out = Json::array();
  for (const auto& card : list) out.push_back(card_play(card));
  return out;
}

Json rams_play_view(int me, const std::vector<std::string>& hand, const Json& trick) {
  Json view = trick_view(me, hand, trick, 3, "H", "active");
  view["pools"] = {{"pool", 10}};
  view["piles"] = Json::array({{{"id", "widow"}, {"count", 0}}});
  view["turned"] = "7H";
  view["turned_taken"] = false;
  view["ranking"] = "ace_high";
  view["unit"] = 5;
  return view;
}

}  // namespace

// ------------------------------------------------------------- Rams, Rounce

TEST_CASE("Rams bot: a hopeless hand, no trump and no high card, takes the widow while it lasts, else passes") {
  Harness h = rams_table({"7S", "8S", "9S", "8C", "TC"}, {"7C", "8D", "9D", "TD", "JD"}, {"QS", "KS", "JS", "QC", "KC"});
  // Five fresh cards are worth more than a hand sure to take nothing and pay for it.
  CHECK(bot_move(h, "rams") == typed("take_widow"));
  h.act(1, typed("take_widow"));
  // Seat 2's hand is as hopeless and the widow is gone.
  CHECK(bot_move(h, "rams") == typed("pass"));
}

TEST_CASE("Rams bot: plays a hand of top trumps and aces, but no General while a trump may be out against it") {
  Harness h = rams_table({"AH", "KH", "QH", "AS", "AC"});
  CHECK(bot_move(h, "rams") == typed("play"));
}

TEST_CASE("Rams bot: announces General Rams with four top trumps and an ace: every trick is sure") {
  Harness h = rams_table({"AH", "KH", "QH", "JH", "AS"});
  CHECK(bot_move(h, "rams") == Json{{"type", "general"}, {"widow", false}});
}

TEST_CASE("Rams bot: with the old ranking the ace of trumps is below the jack, so the same hand is no General") {
  Harness h("rams", {{"old_ranking", true}}, {100, 100, 100}, 1,
            pool_trick_deck({{"AH", "QH", "JH", "TH", "AS"}, {"7C", "8C", "9C", "TC", "JC"},
                             {"7D", "8D", "9D", "TD", "JD"}},
                            {"QD", "KD", "QC", "KC", "AD"}, "7H"));
  CHECK(h.game().view(1)["ranking"] == "old");
  CHECK(bot_move(h, "rams") != Json{{"type", "general"}, {"widow", false}});
}

TEST_CASE("Rams bot: forced to play or pay, it plays a hand that may take a trick") {
  Harness h = rams_table({"7S", "8S", "9S", "8C", "TC"}, {"AH", "KS", "QS", "9C", "7C"});
  h.act(1, typed("pass"));
  REQUIRE(h.game().view(2)["forced"] == 2);
  CHECK(bot_move(h, "rams") == typed("play"));
}

TEST_CASE("Rams bot: the dealer takes up the turned trump for his weakest card") {
  Harness h = rams_table({"AH", "KH", "QH", "AS", "AC"}, {"7S", "8S", "9S", "8C", "TC"},
                         {"JS", "QS", "9C", "7C", "8D"});
  h.act(1, typed("play"));
  h.act(2, typed("pass"));
  h.act(0, typed("play"));
  REQUIRE(h.game().view(0)["turn"]["stage"] == "dealer_exchange");
  CHECK(bot_move(h, "rams") == Json{{"type", "exchange"}, {"card", "7C"}});
}

TEST_CASE("Rams bot: takes a trick with the card sure to hold it, and cheaply when last to play") {
  Rng rng(1);
  const auto& bot = bot_of("rams");
  // Seat 1 plays second of three: the ace of spades cannot be beaten, the queen can.
  CHECK(bot(rams_play_view(1, {"QS", "AS", "8D"}, plays({{0, "9S"}})), legal_cards({"QS", "AS"}), rng) ==
        card_play("AS"));
  // Seat 2 plays last: the queen is enough.
  CHECK(bot(rams_play_view(2, {"QS", "AS", "8D"}, plays({{0, "9S"}, {1, "TS"}})), legal_cards({"QS", "AS"}), rng) ==
        card_play("QS"));
  // It cannot take the trick: it keeps its trump and throws the low diamond.
  CHECK(bot(rams_play_view(2, {"8H", "8D", "9C"}, plays({{0, "9S"}, {1, "TH"}})),
            legal_cards({"8H", "8D", "9C"}), rng) == card_play("8D"));
}

TEST_CASE("Rounce bot: having taken the widow, it discards the card least worth keeping") {
  Rng rng(1);
  Json view = rams_play_view(1, {"AH", "KS", "7D", "QC", "3C", "9H"}, Json::array());
  view["turn"]["stage"] = "widow_discard";
  Json legal = Json::array();
  for (const auto& card : {"AH", "KS", "7D", "QC", "3C", "9H"}) legal.push_back({{"type", "discard"}, {"card", card}});
  CHECK(bot_of("rounce")(view, legal, rng) == Json{{"type", "discard"}, {"card", "3C"}});
}

// ------------------------------------------------------------------ Reversi

TEST_CASE("Reversi bot: plays the highest card that stays under the trick's winner") {
  Rng rng(1);
  const Json view = trick_view(1, {"AS", "QS", "3S", "5H"}, plays({{0, "KS"}}), 4, nullptr, "in_deal");
  CHECK(bot_of("reversi")(view, legal_cards({"AS", "QS", "3S"}), rng) == card_play("QS"));
}

TEST_CASE("Reversi bot: void in the suit led, it throws away its most dangerous card") {
  Rng rng(1);
  const Json view = trick_view(1, {"2C", "AS", "KH"}, plays({{0, "4D"}}), 4, nullptr, "in_deal");
  CHECK(bot_of("reversi")(view, legal_cards({"2C", "AS", "KH"}), rng) == card_play("AS"));
}

TEST_CASE("Reversi bot: leads the card with most cards out above it; when it must win, wins with its highest") {
  Rng rng(1);
  const auto& bot = bot_of("reversi");
  CHECK(bot(trick_view(1, {"9S", "2H", "AC"}, Json::array(), 4, nullptr, "in_deal"), legal_cards({"9S", "2H", "AC"}),
            rng) == card_play("2H"));
  // Last of four to play and every spade it holds beats the ten: it takes the trick with its ace.
  CHECK(bot(trick_view(3, {"JS", "AS"}, plays({{0, "TS"}, {1, "2S"}, {2, "4S"}}), 4, nullptr, "in_deal"),
            legal_cards({"JS", "AS"}), rng) == card_play("AS"));
}

TEST_CASE("Reversi bot: goes for every trick only when it has taken them all and cannot lose one") {
  Rng rng(1);
  Json view = trick_view(1, {"KS", "AS"}, Json::array(), 4, nullptr, "in_deal");
  view["tricks_per_deal"] = 13;
  view["seats"][1]["tricks"] = 11;
  CHECK(bot_of("reversi")(view, legal_cards({"AS", "KS"}), rng) == card_play("AS"));
  view["seats"][1]["tricks"] = 10;  // someone else took one: no reversis, so it avoids
  CHECK(bot_of("reversi")(view, legal_cards({"AS", "KS"}), rng) == card_play("KS"));
}

// ------------------------------------------------------------------ Red Dog

namespace {

// Hands in play order (the dealer's left first), dealt a card at a time, then the cards to turn.
std::vector<parlour::rules::Card> red_dog_deck(const std::vector<std::vector<std::string>>& hands,
                                               const std::vector<std::string>& turns) {
  std::vector<std::string> deck;
  for (std::size_t round = 0; round < hands[0].size(); ++round)
    for (const auto& hand : hands) deck.push_back(hand[round]);
  deck.insert(deck.end(), turns.begin(), turns.end());
  return cards(deck);
}

// Two players, ante 10: seat 1 bets first into a pot of 20.
Harness red_dog_table(const std::vector<std::string>& hand,
                      const std::vector<std::string>& dealer_hand = {"2D", "3D", "4C", "6C", "7C"},
                      const std::string& turned = "8H") {
  return Harness("red_dog", {{"ante", 10}}, {100, 100}, 1, red_dog_deck({hand, dealer_hand}, {turned}));
}

Json bet(std::int64_t amount) { return {{"type", "bet"}, {"amount", amount}}; }

}  // namespace

TEST_CASE("Red Dog bot: a hopeless hand bets the minimum, never the pot") {
  Harness h = red_dog_table({"2S", "3H", "4D", "5C", "6S"});
  // Of the 47 cards it has not seen, its hand beats 9: 3S 4S 5S, 2H, 2D 3D, 2C 3C 4C.
  CHECK(parlour::rules::red_dog_win_chance(h.game().view(1)) == doctest::Approx(9.0 / 47));
  CHECK(bot_move(h, "red_dog") == bet(1));
}

TEST_CASE("Red Dog bot: a strong hand bets the whole pot") {
  Harness h = red_dog_table({"AS", "AH", "KD", "5C", "9S"});
  // 11 spades, 12 hearts, 11 diamonds and 3 clubs of the 47 unseen.
  CHECK(parlour::rules::red_dog_win_chance(h.game().view(1)) == doctest::Approx(37.0 / 47));
  CHECK(bot_move(h, "red_dog") == bet(20));
}

TEST_CASE("Red Dog bot: the turned cards are seen, so they no longer count among the cards to come") {
  Harness h = red_dog_table({"2S", "3H", "4D", "5C", "6S"}, {"AS", "KS", "QS", "JS", "TS"}, "8H");
  h.act(1, bet(1));
  // The dealer's spades beat every unseen spade below the ten: 2S..6S are in seat 1's
  // hand (unseen to him), 7S 8S 9S too; 8H is turned and out of the count.
  CHECK(parlour::rules::red_dog_win_chance(h.game().view(0)) == doctest::Approx(8.0 / 46));
  CHECK(bot_move(h, "red_dog") == bet(1));
}

// ------------------------------------------------------------------ Red and Black

TEST_CASE("Red and Black bot: before any card is seen neither colour is better, so it bets a chip") {
  Harness h("red_and_black", Json::object(), {1000, 1000, 1000});
  CHECK(parlour::rules::red_and_black_edge(h.game().view(1), true) == doctest::Approx(0.0));
  CHECK(bot_move(h, "red_and_black") == Json{{"type", "bet"}, {"colour", "red"}, {"amount", 1}});
}

TEST_CASE("Red and Black bot: dealt in turn, it names the colour the stock holds more of and bets up") {
  Harness h("red_and_black", {{"sequential", true}}, {1000, 1000, 1000}, 1, cards({"AH", "2H", "3D", "4H", "5D"}));
  h.act(1, {{"type", "bet"}, {"colour", "red"}, {"amount", 1}});  // five red: the bank pays 2
  // 26 black and 21 red left: black is worth 0.2366 a chip; the stake is that times
  // four of the way from 1 to the most the bank covers, 499.
  CHECK(parlour::rules::red_and_black_edge(h.game().view(2), false) == doctest::Approx(0.23661).epsilon(1e-4));
  CHECK(bot_move(h, "red_and_black") == Json{{"type", "bet"}, {"colour", "black"}, {"amount", 472}});
}

// ------------------------------------------------------------------ Ranter-Go-Round

namespace {

// Three players, seat 0 deals: cards in play order (seat 1, seat 2, the dealer).
Harness ranter_table(const std::vector<std::string>& dealt) {
  return Harness("ranter_go_round", Json::object(), {100, 100, 100}, 1, cards(dealt));
}

}  // namespace

TEST_CASE("Ranter-Go-Round bot: exchanges a low card and stands on a high one") {
  Harness low = ranter_table({"AS", "9D", "8C"});
  CHECK(bot_move(low, "ranter_go_round") == typed("exchange"));
  Harness middling = ranter_table({"5S", "9D", "8C"});  // against two: a five is likelier lowest than a new card
  CHECK(bot_move(middling, "ranter_go_round") == typed("exchange"));
  Harness high = ranter_table({"6S", "9D", "8C"});
  CHECK(bot_move(high, "ranter_go_round") == typed("stand"));
}

TEST_CASE("Ranter-Go-Round bot: the dealer draws to a two and stands on a seven") {
  for (const auto& [dealer_card, expected] : {std::pair{"2C", "draw"}, std::pair{"7C", "stand"}}) {
    CAPTURE(dealer_card);
    Harness h = ranter_table({"QS", "JD", dealer_card});
    h.act(1, typed("stand"));
    h.act(2, typed("stand"));
    CHECK(bot_move(h, "ranter_go_round") == typed(expected));
  }
}

// ------------------------------------------------------------------ the bot reads its view only

TEST_CASE("Card bots read only their view: other hands, the widow and the cards to come change nothing") {
  SUBCASE("Rams: the first to declare, whose choice weighs the unseen widow") {
    const std::vector<std::string> hand = {"KH", "9H", "AS", "8C", "7C"};
    Harness one = rams_table(hand);
    Harness other("rams", Json::object(), {100, 100, 100}, 1,
                  pool_trick_deck({hand, {"AD", "KD", "QD", "JD", "TD"}, {"AH", "QH", "JH", "TH", "KS"}},
                                  {"7S", "8S", "9S", "TS", "JS"}, "7H"));
    REQUIRE(one.game().view(1) == other.game().view(1));
    CHECK(bot_move(one, "rams", 7) == bot_move(other, "rams", 7));
  }
  SUBCASE("Rounce: the first to declare, with other hands and another widow") {
    const std::vector<std::string> hand = {"KH", "9H", "AS", "8C", "2D"};
    auto table = [&](const std::vector<std::vector<std::string>>& others, const std::vector<std::string>& widow) {
      return Harness("rounce", Json::object(), {100, 100, 100}, 1,
                     pool_trick_deck({hand, others[0], others[1]}, widow, "3H"));
    };
    Harness one = table({{"AH", "QH", "JH", "TH", "KS"}, {"AD", "KD", "QD", "JD", "TD"}}, {"2S", "3S", "4S", "5S", "6S", "7S"});
    Harness other = table({{"2C", "3C", "4C", "5C", "6C"}, {"7C", "9C", "TC", "JC", "QC"}}, {"AH", "QH", "JH", "AD", "KD", "QD"});
    REQUIRE(one.game().view(1) == other.game().view(1));
    CHECK(bot_move(one, "rounce", 3) == bot_move(other, "rounce", 3));
  }
  SUBCASE("Reversi: the other hands, dealt a card at a time") {
    // Three players: 2S is out and seventeen cards each. Seat 1 (first from the
    // dealer's left) holds the same seventeen; the others' cards are swapped round.
    const std::vector<std::string> mine = {"AS", "KS", "QS", "3H", "4H", "5H", "6H", "7H", "8H",
                                           "9D", "TD", "JD", "QD", "KD", "AD", "2C", "3C"};
    const std::vector<std::string> rest_one = {"JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2H", "TH", "JH",
                                               "QH", "KH", "AH", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "4C", "5C",
                                               "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC", "9H"};
    auto deal = [&](const std::vector<std::string>& rest) {
      std::vector<std::string> deck;
      for (std::size_t i = 0; i < mine.size(); ++i) {
        deck.push_back(mine[i]);
        deck.push_back(rest[2 * i]);
        deck.push_back(rest[2 * i + 1]);
      }
      deck.push_back("2S");  // the card taken out for three players, dealt last
      return Harness("reversi", Json::object(), {100, 100, 100}, 1, cards(deck));
    };
    std::vector<std::string> rest_other(rest_one.rbegin(), rest_one.rend());
    Harness one = deal(rest_one);
    Harness other = deal(rest_other);
    REQUIRE(one.game().view(1) == other.game().view(1));
    CHECK(bot_move(one, "reversi") == bot_move(other, "reversi"));
  }
  SUBCASE("Red Dog: the dealer's hand and the card to be turned") {
    const std::vector<std::string> hand = {"KS", "9H", "7D", "5C", "QD"};
    Harness one = red_dog_table(hand, {"2D", "3D", "4C", "6C", "7C"}, "8H");
    Harness other = red_dog_table(hand, {"AH", "AD", "AC", "KH", "JC"}, "2S");
    REQUIRE(one.game().view(1) == other.game().view(1));
    CHECK(bot_move(one, "red_dog") == bot_move(other, "red_dog"));
  }
  SUBCASE("Ranter-Go-Round: the neighbour's card") {
    Harness one = ranter_table({"4S", "KD", "8C"});
    Harness other = ranter_table({"4S", "2D", "8C"});
    // The king is turned up at once, so the views differ; a queen and a two do not.
    Harness third = ranter_table({"4S", "QD", "8C"});
    REQUIRE(other.game().view(1) == third.game().view(1));
    CHECK(bot_move(other, "ranter_go_round") == bot_move(third, "ranter_go_round"));
    CHECK(bot_move(one, "ranter_go_round") == typed("stand"));  // the neighbour's king cannot be exchanged with
  }
}

// ------------------------------------------------------------------ whole games

namespace {

struct BotGames {
  std::string game;
  Json options;
  int players_lo;
  int players_hi;
};

// Plays seeded games with the level-1 bot in every seat (`bots_everywhere`) or
// in one seat against random players; every action must be accepted, no chip
// may appear or vanish, and every game must end.
void play_bot_games(const BotGames& spec, bool bots_everywhere, int games) {
  const auto& bot = bot_of(spec.game);
  for (int g = 0; g < games; ++g) {
    const auto seed = static_cast<std::uint64_t>(1000 + g);
    Rng rng(seed);
    const int players = spec.players_lo + static_cast<int>(rng.below(spec.players_hi - spec.players_lo + 1));
    const int careful_seat = g % players;
    CAPTURE(spec.game);
    CAPTURE(seed);
    CAPTURE(players);
    Harness h(spec.game, spec.options, std::vector<std::int64_t>(players, 500), seed, std::nullopt,
              parlour::test::drawn_dealer);
    const auto total = h.total();
    int steps = 0;
    for (; h.game().phase() != Phase::game_over && steps < 20000; ++steps) {
      if (h.game().phase() == Phase::deal_over) {
        h.next_deal();
        continue;
      }
      const auto acting = h.game().to_act();
      REQUIRE(!acting.empty());
      const int seat = acting.front();
      const Json legal = h.legal(seat);
      REQUIRE(!legal.empty());
      const bool careful = bots_everywhere || seat == careful_seat;
      const Json action = careful ? bot(h.game().view(seat), legal, rng) : parlour::rules::random_legal_action(legal, rng);
      CAPTURE(action);
      REQUIRE_NOTHROW(h.act(seat, action));
      REQUIRE(h.total() == total);
    }
    CHECK(h.game().phase() == Phase::game_over);
    h.close();
    CHECK(h.total() == total);
  }
}

const std::vector<BotGames> card_bot_games = {
    {"rams", {{"deals", 6}}, 3, 5},
    {"rams", {{"deals", 6}, {"old_ranking", true}, {"packets", "3-2"}}, 3, 5},
    {"rounce", {{"deals", 6}}, 3, 9},
    {"reversi", {{"deals", 3}}, 3, 6},
    {"red_dog", {{"deals", 8}}, 2, 8},
    {"red_dog", {{"deals", 8}, {"hand_size", 3}, {"ante_per_deal", true}}, 2, 10},
    {"red_and_black", {{"deals", 8}}, 2, 10},
    {"red_and_black", {{"deals", 8}, {"sequential", true}, {"cover_double", true}}, 2, 10},
    {"ranter_go_round", {{"deals", 40}}, 2, 12},
    {"ranter_go_round", {{"deals", 40}, {"king_skip", true}}, 2, 12},
};

}  // namespace

TEST_CASE("Card bots in every seat play whole games the rules accept, chips conserved") {
  for (const auto& spec : card_bot_games) play_bot_games(spec, /*bots_everywhere=*/true, 30);
}

TEST_CASE("A card bot in one seat against random players plays whole games the rules accept, chips conserved") {
  for (const auto& spec : card_bot_games) play_bot_games(spec, /*bots_everywhere=*/false, 30);
}

// How the betting bots size a stake: a share of the listed range, rounded; a
// range that is not one is refused rather than read.
TEST_CASE("a bot's stake at a share of the listed range stays inside it, and an empty range is refused") {
  using parlour::rules::amount_at_share;
  const Json one_to_ten = {{"min", 1}, {"max", 10}};
  CHECK(amount_at_share(one_to_ten, 0.0) == 1);
  CHECK(amount_at_share(one_to_ten, 0.5) == 6);  // 1 + round(4.5)
  CHECK(amount_at_share(one_to_ten, 1.0) == 10);
  CHECK(amount_at_share(one_to_ten, -3.0) == 1);
  CHECK(amount_at_share(one_to_ten, 7.0) == 10);
  CHECK(amount_at_share(Json{{"min", 4}, {"max", 4}}, 0.7) == 4);
  CHECK_THROWS_AS(amount_at_share(Json{{"min", 5}, {"max", 4}}, 0.5), std::logic_error);
  CHECK_THROWS_AS(amount_at_share(Json{{"min", 1}}, 0.5), std::logic_error);
  CHECK_THROWS_AS(amount_at_share(Json{{"min", "1"}, {"max", 2}}, 0.5), std::logic_error);
}

}  // namespace unity_test_card_bots
