#include "rules/games/rummy_poker.h"

#include <algorithm>

#include "rules/games/java_rummy.h"
#include "rules/rummy/bot.h"
#include "rules/rummy/settlement.h"

namespace parlour::rules {

namespace {

using namespace rummy;

constexpr int kRummyPokerTarget = 100;

RummyConfig poker_config(const Json& options) {
  auto c = java_config(options);
  c.deal.pack.decks = 2;
  c.deal.pack.jokers = 4;
  c.melds.set_duplicates = true;
  c.melds.set_max = 8;
  c.values = CardValues::poker10();
  c.deal.hand_size = 10;
  c.melding.go_down_shown_max = 3;
  return c;
}

class RummyPoker final : public GoDownFamily {
 public:
  std::unique_ptr<GameState> clone() const override { return std::make_unique<RummyPoker>(*this); }
  explicit RummyPoker(const GameSetup& setup)
      : GoDownFamily(setup, poker_config(setup.options)), penalty_(setup.options.value("scoring", "positive") == "penalty") {}

 private:
  // R-RP2: the winner's melded cards, each as the card it stands for.
  int bonus(int winner) const {
    std::vector<Meld> melds;
    for (const auto& tm : table())
      if (tm.meld.owner == winner) melds.push_back(tm.meld);
    return bonus_of(melds);
  }

  // A declaration that makes a straight or a flush is worth its bonus.
  int arrangement_worth(const std::vector<Meld>& melds) const override { return bonus_of(melds); }

 public:
  // The straight or flush bonus of melds (R-RP2); the bot weighs go-downs with it.
  static int bonus_of(const std::vector<Meld>& melds) {
    std::vector<Card> cards;
    for (const auto& meld : melds)
      for (const auto& mc : meld.cards) cards.push_back(mc.as);
    if (cards.empty()) return 0;
    const bool flush = std::all_of(cards.begin(), cards.end(), [&](Card c) { return c.suit == cards.front().suit; });
    std::vector<int> ranks;
    for (auto c : cards) ranks.push_back(c.rank);
    std::sort(ranks.begin(), ranks.end());
    bool straight = true;
    for (std::size_t i = 1; i < ranks.size(); ++i) straight = straight && ranks[i] == ranks[i - 1] + 1;
    return straight && flush ? 50 : straight || flush ? 25 : 0;
  }

 private:
  void settle_deal(const DealEnd& end, Balances& chips, Effects& fx, Json& summary) override {
    const auto all_counts = counts();
    summary["counts"] = all_counts;
    std::vector<int> points(players(), 0);
    const bool won = end.kind == DealEnd::Kind::went_out;
    if (won) {
      const int b = bonus(end.winner);
      summary["bonus"] = b;
      if (!end.rummy) summary["shown"] = to_string(hand(end.winner).front());
      if (b > 0) fx.say(seat_tag(end.winner) + (b == 50 ? " melded a straight flush: " : " earns a bonus of ") +
                        std::to_string(b) + ".");
      if (penalty_) {
        points = penalty_points(end);
        points[end.winner] -= b;
      } else {
        for (int s = 0; s < players(); ++s)
          if (s != end.winner) points[end.winner] += all_counts[s];
        points[end.winner] += b - hand_count(end.winner);
      }
    } else if (penalty_) {
      points = penalty_points(end);
    }
    const auto seats = seats_in_play();
    bool reached = false;
    for (int s : seats) {
      scores_[s] += points[s];
      reached = reached || scores_[s] >= kRummyPokerTarget;
    }
    summary["deal_points"] = points;
    if (!reached && !deal_limit_reached()) return;
    over_ = true;
    // The winner: the first to 100 (positive), the lowest total (penalty).
    const auto winners = best_of(seats, penalty_);
    summary["game_winners"] = winners;
    Settlement pay_out{*this, chips, fx, summary, config().scoring.stake};
    for (int s : seats) {
      if (std::find(winners.begin(), winners.end(), s) != winners.end()) continue;
      const int diff = std::abs(scores_[s] - scores_[winners.front()]);
      pay_out.split(s, winners, diff,
                    "the game ends: " + seat_tag(s) + " has " + std::to_string(scores_[s]) + " points, " +
                        (winners.size() == 1 ? "the winner " : "the tied winners ") +
                        std::to_string(scores_[winners.front()]) + ": he pays the difference");
    }
    fx.say(winners.size() == 1 ? seat_tag(winners.front()) + " wins the game with " +
                                     std::to_string(scores_[winners.front()]) + "."
                               : "The game ends with the best score tied.");
  }

  void write_extra_view(JsonWriter& out) const override {
    out.field("target", kRummyPokerTarget);
    out.field("scoring", penalty_ ? "penalty" : "positive");
  }

  bool penalty_;
};

}  // namespace

GameInfo rummy_poker_info() {
  GameInfo info;
  info.view_constants = {"target", "scoring"};  // set by the options (registry.h)
  info.id = "rummy_poker";
  info.name = "Rummy Poker";
  info.aliases = {};
  info.min_players = 2;
  info.max_players = 6;
  info.summary = "Java Rummy with two packs and four jokers: ten cards, go down before drawing with all ten or nine "
                 "and a three; straight and flush bonuses; first to 100 wins. Scarne rules, source 002.";
  info.source = "002";
  info.options = common_rummy_options();
  info.options[0].description = "Chips per point of the final difference of scores.";
  info.options[1] = {"deals", OptionSpec::Type::integer, 0, {}, 0, GoDownFamily::kMaxDeals,
                     "0: play to 100; N: stop after N deals at the latest, the leader collecting the differences."};
  info.options.push_back({"scoring", OptionSpec::Type::enumeration, "positive", {"positive", "penalty"}, std::nullopt,
                          std::nullopt,
                          "positive: the deal winner scores the others' counts and bonuses, first to 100 wins; "
                          "penalty: Java's penalty points (bonuses subtract), at 100 the lowest total wins."});
  info.bot = rummy::rummy_bot_with({[](const std::vector<rummy::Meld>& melds) { return RummyPoker::bonus_of(melds); }});
  info.create = [](const GameSetup& setup) -> std::unique_ptr<GameState> { return std::make_unique<RummyPoker>(setup); };
  return info;
}

}  // namespace parlour::rules
