#include "rules/games/java_rummy.h"

#include "rules/rummy/bot.h"

#include <algorithm>

#include "rules/games/straight_rummy.h"
#include "rules/pools.h"
#include "rules/view.h"

namespace parlour::rules {

namespace rummy {

RummyConfig java_config(const Json& options) {
  auto c = straight_base_config(options);
  c.values = CardValues::wild25();
  c.melds.deuces_wild = true;
  c.melds.jokers_wild = true;
  c.deal.pack.jokers = options.contains("jokers") ? options.at("jokers").get<int>() : 0;
  c.deal.hand_size = 7;
  c.deal.upcard = false;
  c.melding.rummy_only = true;
  c.melding.go_down = true;
  c.melding.go_down_shown_max = 5;
  c.stock.end = StockEnd::end_at_players;
  c.scoring.running_scores = true;
  return c;
}

GoDownFamily::GoDownFamily(const GameSetup& setup, RummyConfig config)
    : RummyBase(setup, std::move(config)), deal_limit_(setup.options.value("deals", 0)) {}

Json GoDownFamily::snapshot() const {
  Json out = RummyBase::snapshot();
  out["go_down"] = {{"over", over_}};
  return out;
}

void GoDownFamily::restore(const Json& snapshot) {
  RummyBase::restore(snapshot);
  over_ = field<bool>(member(snapshot, "go_down"), "over");
}

std::vector<int> GoDownFamily::counts() const {
  std::vector<int> out(players(), 0);
  for (int s = 0; s < players(); ++s)
    if (in_play(s)) out[s] = unmatched_count(s);
  return out;
}

std::vector<int> GoDownFamily::penalty_points(const DealEnd& end) const {
  auto points = counts();
  if (end.kind == DealEnd::Kind::went_out) points[end.winner] = end.rummy ? -25 : hand_count(end.winner);
  return points;
}

std::vector<int> GoDownFamily::best_of(const std::vector<int>& seats, bool lowest) const {
  std::vector<int> out;
  for (int s : seats) {
    if (out.empty() || (lowest ? scores_[s] < scores_[out.front()] : scores_[s] > scores_[out.front()])) out = {s};
    else if (scores_[s] == scores_[out.front()]) out.push_back(s);
  }
  return out;
}

bool GoDownFamily::deal_limit_reached() const {
  return (deal_limit_ > 0 && deals_played() >= deal_limit_) || deals_played() >= kMaxDeals;
}

}  // namespace rummy

namespace {

using namespace rummy;

const std::string pool_name = "pool";
constexpr int kJavaTarget = 100;

class JavaRummy final : public GoDownFamily {
 public:
  std::unique_ptr<GameState> clone() const override { return std::make_unique<JavaRummy>(*this); }
  explicit JavaRummy(const GameSetup& setup) : GoDownFamily(setup, java_config(setup.options)) {}

  Effects seat_left(int seat, const Balances& balances) override {
    Effects fx = RummyBase::seat_left(seat, balances);
    const auto still_in = seats_in_play();
    if (phase() == Phase::game_over && !over_ && still_in.size() == 1 && pool_ > 0) {
      fx.move(Account::of_pool(pool_name), Account::of_seat(still_in.front()), pool_,
              seat_tag(still_in.front()) + ", the last player left in the game, takes the pool of " +
                  std::to_string(pool_));
      fx.say(seat_tag(still_in.front()) + " is the last player in the game and takes the pool of " +
             std::to_string(pool_) + ".");
      pool_ = 0;
    }
    if (phase() == Phase::game_over) over_ = true;
    return fx;
  }

  // The family's state, and this game's pool under "java".
  Json snapshot() const override {
    Json out = GoDownFamily::snapshot();
    out["java"] = {{"pool", pool_}};
    return out;
  }

  void restore(const Json& snapshot) override {
    GoDownFamily::restore(snapshot);
    pool_ = field<std::int64_t>(member(snapshot, "java"), "pool");
    if (pool_ < 0) throw SnapshotError("expected the pool to hold no fewer than 0 chips, got " + std::to_string(pool_));
  }

  Effects close(const Balances& balances) override {
    Effects fx = close_pool(pool_name, pool_, dealer(), players(), [&](int s) { return !has_left(s); });
    fx.append(RummyBase::close(balances));
    return fx;
  }

 private:
  void settle_deal(const DealEnd& end, Balances& chips, Effects& fx, Json& summary) override {
    const auto points = penalty_points(end);
    summary["counts"] = counts();
    if (end.kind == DealEnd::Kind::went_out && !end.rummy) summary["shown"] = to_string(hand(end.winner).front());
    std::vector<int> reached;
    std::vector<int> below;
    for (int s : seats_in_play()) {
      scores_[s] += points[s];
      
      (scores_[s] >= kJavaTarget ? reached : below).push_back(s);
    }
    summary["deal_points"] = points;
    std::vector<int> pool_winners;
    if (below.empty()) {
      // Everyone still in reached the target this deal: the lowest total wins.
      pool_winners = best_of(reached, true);
      fx.say("Every player still in has reached " + std::to_string(kJavaTarget) + ": the lowest total wins the pool.");
    } else if (below.size() == 1) {
      pool_winners = below;
    } else if (deal_limit_reached()) {
      pool_winners = best_of(below, true);
      fx.say("The last deal is played: the lowest total still in wins the pool.");
    }
    Json out = Json::array();
    for (int s : reached) {
      if (std::find(pool_winners.begin(), pool_winners.end(), s) != pool_winners.end()) continue;
      eliminate(s);
      out.push_back(s);
      fx.say(seat_tag(s) + " has " + std::to_string(scores_[s]) + " points and is eliminated.");
      pool_ += pay_into_pool(s, pool_name, config().scoring.stake,
                             seat_tag(s) + " reached " + std::to_string(scores_[s]) + " of " + std::to_string(kJavaTarget) +
                                 " points and is eliminated: his stake into the pool",
                             chips, fx, summary);
    }
    summary["eliminated"] = out;
    if (!pool_winners.empty()) {
      over_ = true;
      summary["pool_winners"] = pool_winners;
      Effects shares = share_out_pool(pool_name, pool_, pool_winners,
                                      pool_winners.size() == 1 ? seat_tag(pool_winners.front()) + " wins the game"
                                                               : "the game ends in a tie for the lowest score");
      for (const auto& t : shares.transfers) {
        chips[t.to.seat] += t.amount;
        summary["chips"][t.to.seat] = summary["chips"][t.to.seat].get<std::int64_t>() + t.amount;
      }
      if (pool_winners.size() == 1)
        fx.say(seat_tag(pool_winners.front()) + " wins the game and the pool of " + std::to_string(pool_) + ".");
      fx.append(std::move(shares));
      pool_ = 0;
    }
    summary["pool"] = pool_;
  }

  void write_extra_view(JsonWriter& out) const override {
    view::one_pool(out, "pool", pool_);
    out.array_field("eliminated", [&] {
      for (int s = 0; s < players(); ++s) out.boolean(eliminated(s));
    });
    out.field("target", kJavaTarget);
  }

  std::int64_t pool_ = 0;
};

}  // namespace

GameInfo java_rummy_info() {
  GameInfo info;
  info.view_constants = {"target"};  // set by the options (registry.h)
  info.id = "java_rummy";
  info.name = "Java Rummy";
  info.aliases = {"Elimination Rummy", "Freeze Out"};
  info.min_players = 2;
  info.max_players = 6;
  info.summary = "Seven cards, deuces wild; go down before drawing with all seven, or six and a seventh worth 5 or "
                 "less; penalty points, and at 100 a player is out and pays a chip into the pool the last one in "
                 "takes. Scarne rules, source 002.";
  info.source = "002";
  info.options = common_rummy_options();
  info.options[0].description = "Chips an eliminated player puts into the pool.";
  info.options[1] = {"deals", OptionSpec::Type::integer, 0, {}, 0, GoDownFamily::kMaxDeals,
                     "0: play until one player is left in; N: stop after N deals at the latest, the lowest total "
                     "still in taking the pool."};
  info.options.push_back({"jokers", OptionSpec::Type::integer, 0, {0, 1, 2}, 0, 2,
                          "Jokers added to the pack (wild, like the deuces)."});
  info.bot = rummy::rummy_bot;
  info.create = [](const GameSetup& setup) -> std::unique_ptr<GameState> { return std::make_unique<JavaRummy>(setup); };
  return info;
}

}  // namespace parlour::rules
