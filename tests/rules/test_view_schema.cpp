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

using parlour::rules::GameInfo;
using parlour::rules::Json;
using parlour::rules::Phase;
using parlour::rules::Registry;
using parlour::test::Harness;

namespace {

// Games whose rules show (some of) a player's hand cards to everyone: Red and
// Black deals the five cards face up; Ranter-Go-Round turns a king up and shows
// every card at the end of a deal.
const std::set<std::string> hands_face_up_by_rule = {"red_and_black", "ranter_go_round"};

bool is_card_text(const Json& value, bool hidden_allowed) {
  if (!value.is_string()) return false;
  std::string text = value.get<std::string>();
  if (hidden_allowed && text == "??") return true;
  // A meld's wild card may say what it stands for: "JK=8H".
  const auto declared = text.find('=');
  if (declared != std::string::npos) text = text.substr(0, declared);
  if (text == "JK") return true;
  return text.size() == 2 && std::string("A23456789TJQKEW").find(text[0]) != std::string::npos &&
         std::string("SHDC").find(text[1]) != std::string::npos;
}

bool is_count(const Json& value) { return value.is_number_integer() && value.get<long long>() >= 0; }

bool is_seat_or_null(const Json& value, int players) {
  return value.is_null() || (value.is_number_integer() && value.get<int>() >= 0 && value.get<int>() < players);
}

class Checker {
 public:
  explicit Checker(std::vector<std::string>& problems) : problems_(problems) {}

  void expect(bool ok, const std::string& what) {
    if (!ok) problems_.push_back(what);
  }

 private:
  std::vector<std::string>& problems_;
};

void check_seats(const Json& seats, int players, Checker& check) {
  if (!seats.is_array() || static_cast<int>(seats.size()) != players) {
    check.expect(false, "seats: one entry per seat");
    return;
  }
  for (int i = 0; i < players; ++i) {
    const auto& seat = seats[i];
    const std::string where = "seats[" + std::to_string(i) + "]";
    if (!seat.is_object()) {
      check.expect(false, where + ": an object");
      continue;
    }
    check.expect(seat.value("seat", -1) == i, where + ".seat is " + std::to_string(i));
    check.expect(seat.contains("count") && is_count(seat["count"]), where + ".count: a number");
    const auto& cards = seat.value("cards", Json());
    check.expect(cards.is_array() && std::all_of(cards.begin(), cards.end(), [](const Json& c) { return is_card_text(c, true); }),
                 where + ".cards: cards or \"??\"");
    check.expect(cards.is_array() && seat.value("count", Json()) == cards.size(), where + ".count is the size of cards");
    check.expect(seat.contains("status") && seat["status"].is_string(), where + ".status: a string");
    check.expect(seat.contains("left") && seat["left"].is_boolean(), where + ".left: true or false");
  }
}

void check_piles(const Json& piles, int players, Checker& check) {
  check.expect(piles.is_array(), "piles: an array");
  std::set<std::string> ids;
  for (const auto& pile : piles) {
    const std::string id = pile.value("id", "");
    const std::string where = "pile '" + id + "'";
    check.expect(!id.empty() && ids.insert(id).second, where + ": a unique id");
    check.expect(pile.contains("owner") && is_seat_or_null(pile["owner"], players), where + ".owner: a seat or null");
    check.expect(pile.contains("count") && is_count(pile["count"]), where + ".count: a number");
    check.expect(pile.contains("top") && (pile["top"].is_null() || is_card_text(pile["top"], false)),
                 where + ".top: a card or null");
    if (pile.contains("cards")) {
      const auto& cards = pile["cards"];
      check.expect(cards.is_array() && cards.size() == pile.value("count", Json()) &&
                       std::all_of(cards.begin(), cards.end(), [](const Json& c) { return is_card_text(c, false); }),
                   where + ".cards: every card face up, as many as count");
      check.expect(cards.empty() || cards.back() == pile["top"], where + ": the last card is the top");
    }
    // A stock is face down: its order is never shown, but for a face-up run at
    // its top (Russian Bank: the card turned up and any loaded on it).
    if (id.rfind("stock", 0) == 0) check.expect(!pile.contains("cards"), where + ": a stock shows no cards");
    if (pile.contains("face_up")) {
      const auto& run = pile["face_up"];
      check.expect(run.is_array() && run.size() <= pile.value("count", std::size_t{0}) &&
                       std::all_of(run.begin(), run.end(), [](const Json& c) { return is_card_text(c, false); }),
                   where + ".face_up: face-up cards, at most count");
      check.expect(run.is_array() && (run.empty() ? pile["top"].is_null() : run.back() == pile["top"]),
                   where + ": the face-up run ends in the top");
    }
  }
}

void check_melds(const Json& melds, int players, Checker& check) {
  check.expect(melds.is_array(), "melds: an array");
  for (const auto& meld : melds) {
    check.expect(meld.contains("id") && meld["id"].is_number_integer(), "meld.id: a number");
    check.expect(meld.contains("owner") && is_seat_or_null(meld["owner"], players), "meld.owner: a seat or null");
    const auto& cards = meld.value("cards", Json());
    check.expect(cards.is_array() && !cards.empty() &&
                     std::all_of(cards.begin(), cards.end(), [](const Json& c) { return is_card_text(c, false); }),
                 "meld.cards: face-up cards");
  }
}

void check_trick(const Json& trick, int players, Checker& check) {
  check.expect(trick.is_object() && trick.contains("plays") && trick["plays"].is_array(), "trick.plays: an array");
  for (const auto& play : trick.value("plays", Json::array()))
    check.expect(is_seat_or_null(play.value("seat", Json()), players) && play["seat"].is_number() &&
                     is_card_text(play.value("card", Json()), false),
                 "trick.plays[]: {seat, card}");
  const auto& trump = trick.value("trump", Json("missing"));
  check.expect(trump.is_null() || (trump.is_string() && trump.get<std::string>().size() == 1 &&
                                   std::string("SHDC").find(trump.get<std::string>()) != std::string::npos),
               "trick.trump: a suit letter or null");
}

// Everything wrong with `view` against the common schema (empty: it validates).
std::vector<std::string> schema_problems(const Json& view, const GameInfo& info, int players,
                                         const std::vector<int>& to_act) {
  std::vector<std::string> problems;
  Checker check(problems);
  if (!view.is_object()) return {"the view is not an object"};
  check.expect(view.value("layout", "") == info.layout, "layout is the catalogue's \"" + info.layout + "\"");
  check.expect(view.contains("phase") && view["phase"].is_string() && !view["phase"].get<std::string>().empty(),
               "phase: a name");
  check.expect(view.contains("deal") && is_count(view["deal"]), "deal: a number");
  check.expect(view.contains("dealer") && is_seat_or_null(view["dealer"], players), "dealer: a seat or null");
  check_seats(view.value("seats", Json()), players, check);
  const auto& turn = view.value("turn", Json());
  check.expect(turn.is_object() && turn.contains("stage") && turn["stage"].is_string(), "turn.stage: a name");
  check.expect(turn.is_object() && turn.value("seats", Json()) == Json(to_act), "turn.seats: the seats to act");
  if (view.contains("piles")) check_piles(view["piles"], players, check);
  if (view.contains("melds")) check_melds(view["melds"], players, check);
  if (view.contains("trick")) check_trick(view["trick"], players, check);
  if (view.contains("pools")) {
    const auto& pools = view["pools"];
    check.expect(pools.is_object() && std::all_of(pools.begin(), pools.end(), [](const Json& n) { return n.is_number_integer(); }),
                 "pools: chips by pool name");
  }
  if (view.contains("scores")) {
    const auto& scores = view["scores"];
    check.expect(scores.is_array() && static_cast<int>(scores.size()) == players &&
                     std::all_of(scores.begin(), scores.end(), [](const Json& n) { return n.is_number(); }),
                 "scores: a number per seat");
  }
  return problems;
}

// What of `seen_by_seat` the seat alone may see, beyond what a spectator sees:
// the differences outside the seat's own entry (empty: none).
std::vector<std::string> leaks(Json seen_by_seat, Json seen_by_spectator, int seat) {
  std::vector<std::string> out;
  for (Json* view : {&seen_by_seat, &seen_by_spectator}) {
    if (view->contains("seats") && (*view)["seats"].is_array()) (*view)["seats"][seat] = nullptr;
    view->erase("viewer");  // the building games name the view's seat for their bots
  }
  if (seen_by_seat != seen_by_spectator)
    for (const auto& op : Json::diff(seen_by_spectator, seen_by_seat)) out.push_back(op.dump());
  return out;
}

// The spectator's cards of each hand: "??" unless the game shows hands face up,
// and then only cards the seat holds.
std::vector<std::string> hidden_hand_problems(const Json& spectator, const std::vector<Json>& own_entries,
                                              bool face_up_by_rule) {
  std::vector<std::string> out;
  for (std::size_t seat = 0; seat < own_entries.size(); ++seat) {
    const auto& seen = spectator["seats"][seat]["cards"];
    std::multiset<std::string> held;
    for (const auto& card : own_entries[seat]["cards"]) held.insert(card.get<std::string>());
    for (const auto& card : seen) {
      if (card == "??") continue;
      if (!face_up_by_rule) out.push_back("a spectator sees " + card.dump() + " of seat " + std::to_string(seat));
      else if (auto it = held.find(card.get<std::string>()); it != held.end()) held.erase(it);
      else out.push_back("a spectator sees " + card.dump() + ", which seat " + std::to_string(seat) + " does not hold");
    }
  }
  return out;
}

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
