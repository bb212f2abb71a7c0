// The strong guarantee's checker (tests/rules/strong_guarantee.h) itself: it must
// catch a refusal that changes only what nobody sees, and an accepted action whose
// outcome is not a function of the state, as the playouts rely on it to.
#include <algorithm>
#include <functional>

#include <doctest/doctest.h>

#include "tests/rules/strong_guarantee.h"

// Each file its own namespace: test_rules is a unity build (tests/CMakeLists.txt).
namespace unity_test_strong_guarantee {

using parlour::rules::Balances;
using parlour::rules::Effects;
using parlour::rules::GameState;
using parlour::rules::Json;
using parlour::rules::Phase;

namespace {

// A game of one seat drawing the cards of a hidden stock, 1 to 3 at a time; the
// view shows the hand and the stock's size only.
class Draws : public GameState {
 public:
  enum class Bug { none, refusal_turns_the_stock, outcome_not_from_the_state };
  explicit Draws(Bug bug) : bug_(bug) {}

  std::unique_ptr<GameState> clone() const override { return std::make_unique<Draws>(*this); }
  Phase phase() const override { return stock_.empty() ? Phase::game_over : Phase::playing; }
  std::vector<int> to_act() const override { return stock_.empty() ? std::vector<int>{} : std::vector<int>{0}; }
  void write_legal_actions(int seat, const Balances&, parlour::rules::JsonWriter& out) const override {
    if (seat != 0 || stock_.empty()) return out.json(Json::array());
    out.json(Json::array({{{"type", "draw"}, {"n", {{"min", 1}, {"max", std::min<int>(3, stock_.size())}}}}}));
  }
  Effects apply(int seat, const Json& action, const Balances&) override {
    if (bug_ == Bug::refusal_turns_the_stock) std::rotate(stock_.begin(), stock_.begin() + 1, stock_.end());
    if (seat != 0) throw parlour::rules::not_your_turn("seat 0 draws");
    const auto n = action.value("n", Json()).is_number_integer() ? action["n"].get<int>() : 0;
    if (action.size() != 2 || action.value("type", "") != "draw" || n < 1 || n > 3 || n > static_cast<int>(stock_.size()))
      throw parlour::rules::illegal_action("draw 1 to 3 cards");
    static int calls = 0;  // shared by every copy: what a copy does depends on what others did
    for (int i = 0; i < n; ++i) {
      hand_.push_back(stock_.back());
      stock_.pop_back();
    }
    if (bug_ == Bug::outcome_not_from_the_state && ++calls % 2 == 0) hand_.push_back(0);
    return {};
  }
  Effects start_next_deal(const Balances&) override { return {}; }
  Effects seat_left(int, const Balances&) override { return {}; }
  Effects close(const Balances&) override { return {}; }
  void write_view(std::optional<int>, parlour::rules::JsonWriter& out) const override {
    out.json({{"hand", hand_}, {"stock", stock_.size()}});
  }
  Json result() const override { return nullptr; }
  Json snapshot() const override { return {{"hand", hand_}, {"stock", stock_}}; }
  void restore(const Json& snapshot) override {
    hand_ = snapshot.at("hand").get<decltype(hand_)>();
    stock_ = snapshot.at("stock").get<decltype(stock_)>();
  }
  int deals_played() const override { return 1; }

 private:
  Bug bug_;
  std::vector<int> stock_ = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  std::vector<int> hand_;
};

}  // namespace

TEST_CASE("the strong guarantee's checker passes a game that keeps it and catches one that breaks it") {
  const Balances chips = {100};
  const Json too_many = {{"type", "draw"}, {"n", 4}};
  const Json listed_draw = {{"type", "draw"}, {"n", 2}};
  parlour::rules::Rng rng(1);
  const Draws sound(Draws::Bug::none);
  CHECK(parlour::test::check_action(sound, chips, 0, too_many, rng, 40).empty());
  CHECK(parlour::test::check_action(sound, chips, 0, listed_draw, rng, 40).empty());
  CHECK(parlour::test::check_refusals(sound, chips, 0, sound.legal_actions(0, chips), rng, 20, 40).empty());

  // The refusal turns the hidden stock: nothing shows it until cards are drawn.
  const Draws turns(Draws::Bug::refusal_turns_the_stock);
  const auto hidden = parlour::test::check_action(turns, chips, 0, too_many, rng, 40);
  CHECK(hidden.find("hidden state") != std::string::npos);
  CHECK_FALSE(parlour::test::check_refusals(turns, chips, 0, turns.legal_actions(0, chips), rng, 3, 40).empty());

  const Draws drifts(Draws::Bug::outcome_not_from_the_state);
  CHECK(parlour::test::check_action(drifts, chips, 0, listed_draw, rng, 40).find("accepted by two copies") !=
        std::string::npos);
}

TEST_CASE("the mutations of a listed action change it in every way the checker promises") {
  parlour::rules::Rng rng(3);
  const Json listed = {{"type", "move"}, {"card", "QS"}, {"cards", {"2H", "3H"}}, {"amount", {{"min", 2}, {"max", 5}}}};
  const auto made = parlour::test::mutations(listed, rng);
  const auto has = [&](const std::function<bool(const Json&)>& ok) { return std::any_of(made.begin(), made.end(), ok); };
  CHECK(has([](const Json& a) { return a["type"] == "no_such_action"; }));
  CHECK(has([](const Json& a) { return a.contains("no_such_field"); }));
  CHECK(has([](const Json& a) { return !a.contains("card"); }));
  CHECK(has([](const Json& a) { return a.value("card", Json()) == "ZZ"; }));
  CHECK(has([](const Json& a) { return a.value("card", Json()).is_number(); }));
  CHECK(has([](const Json& a) { return a.value("amount", Json()) == 6; }));
  CHECK(has([](const Json& a) { return a.value("amount", Json()) == 1; }));
  CHECK(has([](const Json& a) { return a.value("amount", Json()).is_string(); }));
  CHECK(has([](const Json& a) { return a.value("cards", Json()).size() == 1; }));
  CHECK(has([](const Json& a) { return a.value("cards", Json()).size() == 3; }));
}

}  // namespace unity_test_strong_guarantee
