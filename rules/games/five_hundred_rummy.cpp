#include "rules/games/five_hundred_rummy.h"

#include "rules/rummy/bot.h"

#include <algorithm>
#include <cstdlib>
#include <limits>

#include "rules/rummy/michigan_family.h"
#include "rules/rummy/rules_json.h"
#include "rules/rummy/rummy_base.h"
#include "rules/rummy/settlement.h"

namespace parlour::rules {

namespace rummy {

namespace {

constexpr int kMaxDeals = 200;  // every game ends, whatever the cards do

class FiveHundredFamily final : public RummyBase {
 public:
  std::unique_ptr<GameState> clone() const override { return std::make_unique<FiveHundredFamily>(*this); }
  FiveHundredFamily(const GameSetup& setup, const RummyConfig& config, const FiveHundredRules& rules)
      : RummyBase(setup, config), rules_(rules) {}

  Effects start_next_deal(const Balances& balances) override {
    Effects fx = RummyBase::start_next_deal(balances);
    intact_fours_.clear();
    return fx;
  }

  Effects seat_left(int seat, const Balances& balances) override {
    Effects fx = RummyBase::seat_left(seat, balances);
    if (rules_.partnership && phase() != Phase::game_over) {
      fx.say("A partnership game needs all four players; the game is over.");
      fx.append(RummyBase::close(balances));
    }
    return fx;
  }

  // The engine's state, and this game's under "five_hundred".
  Json snapshot() const override {
    Json out = RummyBase::snapshot();
    out["five_hundred"] = {{"over", over_}, {"team_scores", team_scores_}, {"intact_fours", intact_fours_}};
    return out;
  }

  void restore(const Json& snapshot) override {
    RummyBase::restore(snapshot);
    const auto& own = member(snapshot, "five_hundred");
    over_ = field<bool>(own, "over");
    expect_size(member(own, "team_scores"), 2, "team scores");
    team_scores_ = field<std::vector<int>>(own, "team_scores");
    intact_fours_ = field<std::vector<std::size_t>>(own, "intact_fours");
    for (const auto m : intact_fours_)
      if (m >= table().size())
        throw SnapshotError("expected an intact set of four on the table, got meld " + std::to_string(m) + " of " +
                            std::to_string(table().size()));
  }

 private:
  static int team_of(int seat) { return seat % 2; }

  void on_meld_made(int, const TableMeld& tm, const std::vector<std::size_t>&, bool new_meld) override {
    if (rules_.four_intact_double && new_meld && tm.meld.kind != MeldKind::run && tm.meld.cards.size() == 4)
      intact_fours_.push_back(static_cast<std::size_t>(&tm - table().data()));
  }

  // What the seat's melded and laid-off cards are worth (a set of four melded
  // intact counting double where the game says so).
  int melded_value(int seat) const {
    int total = 0;
    for (std::size_t m = 0; m < table().size(); ++m) {
      const auto& tm = table()[m];
      const bool doubled = std::find(intact_fours_.begin(), intact_fours_.end(), m) != intact_fours_.end();
      for (std::size_t i = 0; i < tm.meld.cards.size(); ++i)
        if (tm.placed_by[i] == seat) total += config().values.in_meld(tm.meld, i) * (doubled ? 2 : 1);
    }
    return total;
  }

  void settle_deal(const DealEnd& end, Balances& chips, Effects& fx, Json& summary) override {
    std::vector<int> melded(players()), in_hand(players()), deal(players());
    for (int s = 0; s < players(); ++s) {
      melded[s] = melded_value(s);
      in_hand[s] = hand_count(s);
      deal[s] = melded[s] - in_hand[s];
    }
    if (end.kind == DealEnd::Kind::went_out && rules_.going_out_bonus > 0) {
      deal[end.winner] += rules_.going_out_bonus;
      summary["going_out_bonus"] = rules_.going_out_bonus;
      fx.say(seat_tag(end.winner) + "'s side scores " + std::to_string(rules_.going_out_bonus) + " for going out.");
    }
    for (int s = 0; s < players(); ++s) {
      scores_[s] += deal[s];
      if (in_play(s))
        fx.say(seat_tag(s) + " melded " + std::to_string(melded[s]) + " and holds " + std::to_string(in_hand[s]) +
               ": " + (deal[s] >= 0 ? "+" : "") + std::to_string(deal[s]) + ".");
    }
    summary["melded"] = melded;
    summary["in_hand"] = in_hand;
    summary["deal_points"] = deal;
    if (rules_.partnership) {
      std::vector<int> team_deal(2, 0);
      for (int s = 0; s < players(); ++s) team_deal[team_of(s)] += deal[s];
      for (int t = 0; t < 2; ++t) team_scores_[t] += team_deal[t];
      summary["team_deal_points"] = team_deal;
      summary["team_scores"] = team_scores_;
    }
    Settlement pay_out{*this, chips, fx, summary, config().scoring.stake};
    const int played = deals_played();
    const bool capped = rules_.target == 0 ? played >= rules_.deals
                                           : (rules_.deals > 0 && played >= rules_.deals) || played >= kMaxDeals;
    if (rules_.partnership) return settle_teams(capped, pay_out, fx);
    settle_players(capped, pay_out, fx);
  }

  void settle_teams(bool capped, Settlement& pay_out, Effects& fx) {
    const int a = team_scores_[0];
    const int b = team_scores_[1];
    const bool reached = rules_.target > 0 && std::max(a, b) >= rules_.target;
    if (reached && a == b && !capped) {
      fx.say("Both sides are tied at " + std::to_string(a) + ": another deal.");
      return;
    }
    if (!reached && !capped) return;
    over_ = true;
    if (a == b) {
      fx.say("The game ends with the sides tied at " + std::to_string(a) + ": no chips move.");
      return;
    }
    const int winners = a > b ? 0 : 1;
    const int margin = std::abs(a - b);
    pay_out.summary["game_winners"] = {winners, winners + 2};
    pay_out.summary["margin"] = margin;
    fx.say(seat_tag(winners) + " and " + seat_tag(winners + 2) + " win the game by " + std::to_string(margin) + ".");
    // team_diff: each loser pays the margin to the winner seated at his left.
    for (int s = 0; s < players(); ++s)
      if (team_of(s) != winners)
        pay_out.points(s, left_of(s), margin,
                       "the game ends: the side of " + seat_tag(winners) + " and " + seat_tag(winners + 2) +
                           " wins by " + std::to_string(margin) + ": each loser pays the margin to the winner on his left");
  }

  void settle_players(bool capped, Settlement& pay_out, Effects& fx) {
    // A target of 0 is a game of a fixed number of deals: no score ends it early.
    const int target = rules_.target > 0 ? rules_.target : std::numeric_limits<int>::max();
    if (settle_game_to_target(target, capped, pay_out, fx)) over_ = true;
  }

  bool game_finished() const override { return over_; }

  void write_extra_view(JsonWriter& out) const override {
    out.array_field("melded", [&] {
      for (int s = 0; s < players(); ++s) out.integer(melded_value(s));
    });
    if (rules_.target > 0) out.field("target", rules_.target);
    else out.field("deals_to_play", rules_.deals);
    if (rules_.partnership)
      out.array_field("teams", [&] {
        write_team(out, {0, 2}, team_scores_[0]);
        write_team(out, {1, 3}, team_scores_[1]);
      });
  }

  static void write_team(JsonWriter& out, const std::vector<int>& seats, int score) {
    out.object([&] {
      out.field("seats", seats);
      out.field("score", score);
    });
  }

  FiveHundredRules rules_;
  bool over_ = false;
  std::vector<int> team_scores_ = {0, 0};
  std::vector<std::size_t> intact_fours_;  // table indexes of sets of four melded in one action
};

}  // namespace

std::unique_ptr<GameState> make_five_hundred_family(const GameSetup& setup, const RummyConfig& config,
                                                    const FiveHundredRules& rules) {
  if (rules.partnership && setup.players != 4)
    throw SetupError("a partnership game needs exactly four players, got " + std::to_string(setup.players));
  return std::make_unique<FiveHundredFamily>(setup, config, rules);
}

}  // namespace rummy

namespace {

using namespace rummy;

RummyConfig five_hundred_config(const Json& options, int players) {
  RummyConfig c = michigan_family_config(options, players);
  const bool turn_over = options.at("after_stock").get<std::string>() == "turn_over";
  c.stock.end = turn_over ? StockEnd::turn_over : StockEnd::end_deal;
  return c;
}

}  // namespace

GameInfo five_hundred_rummy_info() {
  GameInfo info;
  info.view_constants = {"target", "deals_to_play"};  // set by the options (registry.h)
  info.id = "five_hundred_rummy";
  info.name = "Five Hundred Rummy";
  info.aliases = {"Pinochle Rummy", "500 Rum", "500 Rummy"};
  info.min_players = 2;
  info.max_players = 8;
  info.summary =
      "Michigan's spread discard pile, but each player keeps his melds and lay-offs and scores them less the cards "
      "left in his hand when a player goes out or the stock runs out; first to 500 collects the differences. Option "
      "partnership for four. Hoyle/Gibson rules, source 000.";
  info.source = "000";
  info.options = {
      {"stake", OptionSpec::Type::integer, 1, {}, 1, 1000, "Chips per point."},
      {"target", OptionSpec::Type::integer, 500, {}, 50, 5000,
       "The game ends when a player (a side) reaches this score; the winner collects the differences."},
      {"deals", OptionSpec::Type::integer, 0, {}, 0, 200,
       "0: play to the target; N: stop after N deals at the latest, the leader collecting the differences."},
      {"partnership", OptionSpec::Type::boolean, false, {}, std::nullopt, std::nullopt,
       "Four players, partners opposite (seats 0+2 against 1+3), scores combined; the losers pay the margin."},
      {"after_stock", OptionSpec::Type::enumeration, "end", {"end", "turn_over"}, std::nullopt, std::nullopt,
       "When the stock runs out: end the deal, or turn the discard pile over as a new stock."},
      {"max_restocks", OptionSpec::Type::integer, 1, {}, 0, 10,
       "after_stock turn_over: times the pile may be turned over before the deal ends."},
      top_card_free_option(),
  };
  info.max_players_for = [](const Json& options) { return option_on(options, "partnership") ? 4 : 8; };
  info.bot = rummy::rummy_bot;
  info.create = [](const GameSetup& setup) -> std::unique_ptr<GameState> {
    FiveHundredRules rules;
    rules.partnership = option_on(setup.options, "partnership");
    rules.target = setup.options.at("target").get<int>();
    rules.deals = setup.options.at("deals").get<int>();
    return make_five_hundred_family(setup, five_hundred_config(setup.options, setup.players), rules);
  };
  return info;
}

}  // namespace parlour::rules
