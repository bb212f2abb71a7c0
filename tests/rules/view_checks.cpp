#include "tests/rules/view_checks.h"

#include <algorithm>

namespace parlour::test {

const std::set<std::string> hands_face_up_by_rule = {"red_and_black", "ranter_go_round"};

namespace {

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

}  // namespace

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

std::size_t cards_in_play(const Json& view) {
  // A view without a part has none of its cards (a const Json's [] of a missing key is undefined).
  const auto part = [&](const char* name) { return view.contains(name) ? view[name] : Json::array(); };
  std::size_t count = 0;
  for (const auto& pile : part("piles")) count += pile["count"].get<std::size_t>();  // the stock and the discards
  for (const auto& seat : part("seats")) count += seat["count"].get<std::size_t>();
  for (const auto& meld : part("melds")) count += meld["cards"].size();
  return count;
}

}  // namespace parlour::test
