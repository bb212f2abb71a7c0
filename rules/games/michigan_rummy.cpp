#include "rules/games/michigan_rummy.h"

#include "rules/rummy/bot.h"

#include <algorithm>

#include "rules/rummy/michigan_family.h"
#include "rules/rummy/rules_json.h"
#include "rules/rummy/rummy_base.h"
#include "rules/rummy/settlement.h"

namespace parlour::rules {

namespace {

using namespace rummy;

constexpr int kMaxDeals = 200;  // every game ends, whatever the cards do

RummyConfig michigan_config(const Json& options, int players) {
  RummyConfig c = michigan_family_config(options, players);
  c.draw.take_whole_pile = option_on(options, "polish");
  return c;
}

class MichiganRummy final : public RummyBase {
 public:
  std::unique_ptr<GameState> clone() const override { return std::make_unique<MichiganRummy>(*this); }
  explicit MichiganRummy(const GameSetup& setup)
      : RummyBase(setup, michigan_config(setup.options, setup.players)),
        target_(setup.options.at("target").get<int>()),
        deal_limit_(setup.options.at("deals").get<int>()),
        settle_each_deal_(option_on(setup.options, "settle_each_deal")),
        banked_(setup.players, 0),
        deal_points_(setup.players, 0) {
    if (settle_each_deal_ && deal_limit_ == 0) deal_limit_ = setup.players;
  }

  Effects start_next_deal(const Balances& balances) override {
    Effects fx = RummyBase::start_next_deal(balances);
    // A deal abandoned half-way scores nothing: start again from the banked scores.
    scores_ = banked_;
    std::fill(deal_points_.begin(), deal_points_.end(), 0);
    return fx;
  }

  Effects seat_left(int seat, const Balances& balances) override {
    const bool was_playing = phase() == Phase::playing;
    Effects fx = RummyBase::seat_left(seat, balances);
    if (was_playing) {  // the deal is abandoned: its points go too
      scores_ = banked_;
      std::fill(deal_points_.begin(), deal_points_.end(), 0);
    }
    return fx;
  }

  // The engine's state, and this game's under "michigan".
  Json snapshot() const override {
    Json out = RummyBase::snapshot();
    out["michigan"] = {{"over", over_}, {"banked", banked_}, {"deal_points", deal_points_}};
    return out;
  }

  void restore(const Json& snapshot) override {
    RummyBase::restore(snapshot);
    const auto& own = member(snapshot, "michigan");
    over_ = field<bool>(own, "over");
    banked_ = seat_list_field<int>(own, "banked");
    deal_points_ = seat_list_field<int>(own, "deal_points");
  }

 private:
  // Melds and lay-offs score when made, for the player who makes them.
  void on_meld_made(int seat, const TableMeld& tm, const std::vector<std::size_t>& new_cards, bool) override {
    int points = 0;
    for (auto i : new_cards) points += config().values.in_meld(tm.meld, i);
    deal_points_[seat] += points;
    scores_[seat] += points;
  }

  void settle_deal(const DealEnd& end, Balances& chips, Effects& fx, Json& summary) override {
    if (end.kind == DealEnd::Kind::went_out) {
      int cards_left = 0;
      for (int s = 0; s < players(); ++s)
        if (s != end.winner) cards_left += hand_count(s);
      deal_points_[end.winner] += cards_left;
      scores_[end.winner] += cards_left;
      summary["cards_left"] = cards_left;
      fx.say(seat_tag(end.winner) + " scores " + std::to_string(cards_left) + " for the cards left in the other hands.");
    } else {
      // "Otherwise, there is no winner and each player simply scores the total of
      // his meld less whatever points are remaining in his hand."
      for (int s = 0; s < players(); ++s) {
        deal_points_[s] -= hand_count(s);
        scores_[s] -= hand_count(s);
      }
    }
    banked_ = scores_;
    summary["deal_points"] = deal_points_;
    Settlement pay_out{*this, chips, fx, summary, config().scoring.stake};

    if (settle_each_deal_) {
      if (end.kind == DealEnd::Kind::went_out) {
        const int w = end.winner;
        for (int s = 0; s < players(); ++s) {
          if (s == w || !in_play(s)) continue;
          const std::int64_t diff = deal_points_[w] - deal_points_[s];
          const std::string memo = seat_tag(w) + " went out: the deal's points " + std::to_string(deal_points_[w]) +
                                   " against " + seat_tag(s) + "'s " + std::to_string(deal_points_[s]) +
                                   ", the lower pays the difference";
          if (diff > 0) pay_out.points(s, w, diff, memo);
          else pay_out.points(w, s, -diff, memo);
        }
      }
      over_ = deals_played() >= deal_limit_;
      return;
    }

    // Playing to the target.
    const bool capped = (deal_limit_ > 0 && deals_played() >= deal_limit_) || deals_played() >= kMaxDeals;
    if (settle_game_to_target(target_, capped, pay_out, fx)) over_ = true;
  }

  bool game_finished() const override { return over_; }

  void write_extra_view(JsonWriter& out) const override {
    out.field("deal_points", deal_points_);
    if (settle_each_deal_) out.field("deals_to_play", deal_limit_);
    else out.field("target", target_);
  }

  int target_;
  int deal_limit_;
  bool settle_each_deal_;
  bool over_ = false;
  std::vector<int> banked_;       // running scores at the start of the deal
  std::vector<int> deal_points_;  // this deal's points per seat
};

}  // namespace

GameInfo michigan_rummy_info() {
  GameInfo info;
  info.view_constants = {"target", "deals_to_play"};  // set by the options (registry.h)
  info.id = "michigan_rummy";
  info.name = "Michigan Rummy";
  info.aliases = {"Polish Rummy"};
  info.min_players = 2;
  info.max_players = 8;
  info.summary =
      "Rummy with a spread discard pile: take any card with all above it if you meld it at once. Melds score as they "
      "are made, going out adds the other hands' counts; first to 500 collects the differences. Option polish: take "
      "the whole pile. Hoyle/Gibson rules, source 000.";
  info.source = "000";
  auto flag = [](const char* name, const char* description) {
    return OptionSpec{name, OptionSpec::Type::boolean, false, {}, std::nullopt, std::nullopt, description};
  };
  info.options = {
      {"stake", OptionSpec::Type::integer, 1, {}, 1, 1000, "Chips per point."},
      {"target", OptionSpec::Type::integer, 500, {}, 50, 5000,
       "The game ends when a player reaches this score; he collects the differences."},
      {"deals", OptionSpec::Type::integer, 0, {}, 0, 200,
       "With settle_each_deal: deals to play (0: each player deals once). Otherwise 0: play to the target; N: stop "
       "after N deals at the latest, the leader collecting the differences."},
      flag("settle_each_deal", "Settle after every deal (the winner collects the difference of deal points) instead "
                               "of playing to the target."),
      flag("polish", "Polish Rummy: the whole discard pile may be taken, with no duty to meld."),
      top_card_free_option(),
      {"max_restocks", OptionSpec::Type::integer, 1, {}, 0, 10,
       "Times the discard pile may be turned over as a new stock before the deal ends with no winner."},
  };
  info.bot = rummy::rummy_bot;
  info.create = [](const GameSetup& setup) -> std::unique_ptr<GameState> {
    return std::make_unique<MichiganRummy>(setup);
  };
  return info;
}

}  // namespace parlour::rules
