#include "rules/games/carousel.h"

#include <algorithm>

#include "rules/games/carousel/carousel_game.h"

namespace parlour::rules {

namespace carousel {

std::vector<std::int64_t> final_scores(const std::vector<int>& running, const std::vector<int>& deals_won, int winner) {
  std::vector<std::int64_t> out;
  for (std::size_t s = 0; s < running.size(); ++s)
    out.push_back(std::int64_t{running[s]} + 25 * std::int64_t{deals_won[s]} +
                  (static_cast<int>(s) == winner ? 100 : 0));
  return out;
}

std::vector<SettlementLine> settlement(const std::vector<std::int64_t>& finals, const std::vector<int>& running,
                                       int winner, const std::vector<bool>& in) {
  std::vector<SettlementLine> lines;
  const int n = static_cast<int>(finals.size());
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) {
      if (!in[a] || !in[b] || finals[a] == finals[b]) continue;
      const int from = finals[a] < finals[b] ? a : b;
      const int to = from == a ? b : a;
      const bool doubled = to == winner && running[from] == 0;
      const std::int64_t diff = finals[to] - finals[from];
      lines.push_back({from, to, doubled ? 2 * diff : diff, doubled});
    }
  return lines;
}

namespace {

using namespace rummy;

RummyConfig carousel_config(const GameSetup& setup) {
  RummyConfig c;
  c.deal.pack.decks = setup.players == 2 ? 1 : 2;
  c.deal.pack.jokers = setup.players == 2 ? 1 : 2;
  c.melds.set_max = 4;
  c.melds.set_distinct_suits = true;
  c.melds.jokers_wild = true;
  c.melds.ace = setup.options.at("ace_high_runs").get<bool>() ? AceMode::low_or_high : AceMode::low;
  c.values = CardValues{1, 1, 10, 25, 2};
  c.deal.hand_size = 10;
  c.deal.upcard = false;
  c.melding.rearrange = true;
  c.discard.no_discard_taken_upcard = false;
  c.stock.end = StockEnd::final_meld_round;
  c.scoring.stake = setup.options.at("stake").get<std::int64_t>();
  c.scoring.running_scores = true;
  c.scoring.deals = kMaxDeals;
  return c;
}

}  // namespace

Carousel::Carousel(const GameSetup& setup)
    : RummyBase(setup, carousel_config(setup)),
      deal_limit_(setup.options.at("deals").get<int>()),
      time_limit_(setup.options.at("turn_time_limit_s").get<int>()),
      deals_won_(setup.players, 0),
      withdrawn_(setup.players, false) {
  if (deal_limit_ == 0 || deal_limit_ > kMaxDeals) deal_limit_ = kMaxDeals;
}

Effects Carousel::start_next_deal(const Balances& balances) {
  Effects fx = RummyBase::start_next_deal(balances);
  knocker_ = -1;
  std::fill(withdrawn_.begin(), withdrawn_.end(), false);
  return fx;
}

Json Carousel::snapshot() const {
  Json out = RummyBase::snapshot();
  out["carousel"] = {{"over", over_},       {"deals_won", deals_won_},         {"withdrawn", withdrawn_},
                     {"knocker", knocker_}, {"closed_result", closed_result_}};
  return out;
}

void Carousel::restore(const Json& snapshot) {
  RummyBase::restore(snapshot);
  const auto& own = member(snapshot, "carousel");
  over_ = field<bool>(own, "over");
  deals_won_ = seat_list_field<int>(own, "deals_won");
  withdrawn_ = seat_list_field<bool>(own, "withdrawn");
  knocker_ = seat_field(own, "knocker", true);
  closed_result_ = field<Json>(own, "closed_result");
}

// Mid-game: the final settlement of what is settled so far (running scores and
// deals won), with no game winner.
Effects Carousel::close(const Balances& balances) {
  Effects fx;
  if (phase() == Phase::game_over) return RummyBase::close(balances);
  fx.say("The table closes before anyone has reached " + std::to_string(kTarget) +
         ": the scores so far are settled, with no game bonus.");
  Balances chips = balances;
  Json summary = {{"chips", std::vector<std::int64_t>(players(), 0)},
                  {"points", std::vector<std::int64_t>(players(), 0)}};
  settle_game(-1, chips, fx, summary);
  // Members set one by one and moved in: braced lists copy every nested value again.
  Json seats = Json::array();
  for (int s = 0; s < players(); ++s) {
    Json seat = Json::object();
    seat["seat"] = s;
    seat["chips"] = summary["chips"][s];
    seats.push_back(std::move(seat));
  }
  closed_result_ = Json::object();
  closed_result_["deal"] = deals_played();
  closed_result_["dealer"] = dealer();
  closed_result_["end"] = "closed";
  closed_result_["seats"] = std::move(seats);
  closed_result_["scores"] = scores_;
  closed_result_["deals_won"] = deals_won_;
  for (const auto& key : {"game_winner", "final_scores", "settlement", "unpaid"})
    if (summary.contains(key)) closed_result_[key] = std::move(summary[key]);
  fx.append(RummyBase::close(balances));
  return fx;
}

void Carousel::settle_deal(const DealEnd& end, Balances& chips, Effects& fx, Json& summary) {
  std::vector<int> counts;
  for (int s = 0; s < players(); ++s) counts.push_back(hand_count(s));
  summary["counts"] = counts;
  std::vector<int> points(players(), 0);
  std::vector<int> bonuses(players(), 0);
  std::vector<int> winners;
  // The seats that may win: still at the table and not withdrawn.
  auto may_win = [&](int s) { return in_play(s) && !withdrawn_[s]; };
  auto lowest = [&](auto&& among) {
    int low = -1;
    for (int s = 0; s < players(); ++s)
      if (among(s) && (low < 0 || counts[s] < low)) low = counts[s];
    return low;
  };
  // What a winner with count `low` is credited: the difference from every other
  // hand (a withdrawn hand never below the winner's).
  auto differences = [&](int winner) {
    int total = 0;
    for (int s = 0; s < players(); ++s) {
      if (s == winner || !in_play(s)) continue;
      const int diff = counts[s] - counts[winner];
      total += withdrawn_[s] ? std::max(diff, 0) : diff;
    }
    return total;
  };
  if (end.kind == DealEnd::Kind::knock) {
    const int k = end.knocker;
    const int low = lowest([&](int s) { return s != k && may_win(s); });
    if (low >= 0 && low <= counts[k]) {
      for (int i = 1; i <= players(); ++i) {
        const int s = (k + i) % players();
        if (s != k && may_win(s) && counts[s] == low) winners.push_back(s);
      }
      for (int w : winners) {
        bonuses[w] = kUndercut;
        points[w] = differences(w) + kUndercut;
        fx.say(seat_tag(w) + " undercuts the knocker with " + std::to_string(low) + " and scores " +
               std::to_string(points[w]) + ".");
      }
      summary["undercut"] = true;
    } else {
      winners = {k};
      if (hand(k).empty()) bonuses[k] = kGoingOut;
      points[k] = differences(k) + bonuses[k];
      fx.say(seat_tag(k) + " wins the deal and scores " + std::to_string(points[k]) + ".");
      summary["undercut"] = false;
    }
  } else if (end.kind == DealEnd::Kind::stock_exhausted) {
    const int low = lowest(may_win);
    if (low >= 0) {
      for (int i = 1; i <= players(); ++i) {
        const int s = (dealer() + i) % players();
        if (may_win(s) && counts[s] == low) winners.push_back(s);
      }
      for (int w : winners) {
        points[w] = differences(w);
        fx.say(seat_tag(w) + " has the lowest count, " + std::to_string(low) + ", and scores " +
               std::to_string(points[w]) + ".");
      }
    }
  }
  for (int w : winners) {
    scores_[w] += points[w];
    ++deals_won_[w];
  }
  summary["winners"] = winners;
  summary["deal_points"] = points;
  summary["bonuses"] = bonuses;
  summary["deals_won"] = deals_won_;

  // The game: someone at the target, the highest alone; or the deal cap.
  std::vector<int> leaders = top_scorers();
  const bool reached = !leaders.empty() && scores_[leaders.front()] >= kTarget;
  const bool capped = deals_played() >= deal_limit_;
  if (reached && leaders.size() > 1 && !capped) {
    fx.say("Two or more players are tied for the highest score: another deal.");
    return;
  }
  if (!reached && !capped) return;
  over_ = true;
  const int winner = leaders.size() == 1 ? leaders.front() : -1;
  if (winner >= 0) fx.say(seat_tag(winner) + " wins the game with " + std::to_string(scores_[winner]) + ".");
  else fx.say("The game ends with no single winner.");
  settle_game(winner, chips, fx, summary);
}

// The final settlement: bonuses, then every pair settles the difference.
void Carousel::settle_game(int winner, Balances& chips, Effects& fx, Json& summary) {
  std::vector<bool> in(players());
  for (int s = 0; s < players(); ++s) in[s] = in_play(s);
  const auto finals = carousel::final_scores(scores_, deals_won_, winner);
  Json lines = Json::array();
  for (const auto& line : carousel::settlement(finals, scores_, winner, in)) {
    const std::int64_t owed = line.points * config().scoring.stake;
    lines.push_back({{"from", line.from}, {"to", line.to}, {"points", line.points}, {"chips", owed},
                     {"double", line.doubled}});
    const std::string scores = seat_tag(line.from) + " ends on " + std::to_string(finals[line.from]) + ", " +
                               seat_tag(line.to) + " on " + std::to_string(finals[line.to]);
    pay(line.from, line.to, owed,
        line.doubled ? "the game ends: " + scores + "; " + seat_tag(line.from) +
                           " scored no points all game and pays the winner double the difference"
                     : "the game ends: " + scores + "; the lower pays the difference",
        chips, fx, summary);
  }
  summary["game_winner"] = winner >= 0 ? Json(winner) : Json();
  summary["final_scores"] = finals;
  summary["settlement"] = lines;
}

// Seats still at the table with the highest running score.
std::vector<int> Carousel::top_scorers() const {
  std::vector<int> out;
  for (int s = 0; s < players(); ++s) {
    if (!in_play(s)) continue;
    if (out.empty() || scores_[s] > scores_[out.front()]) out = {s};
    else if (scores_[s] == scores_[out.front()]) out.push_back(s);
  }
  return out;
}

// R-CA4: the server withdraws a player whose turn outlasts the limit.
std::optional<TurnTimer> Carousel::turn_timer() const {
  if (time_limit_ <= 0 || phase() != Phase::playing) return std::nullopt;
  const auto acting = to_act();
  if (acting.size() != 1) return std::nullopt;
  return TurnTimer{acting.front(), time_limit_, Json{{"type", "withdraw"}}, turn_serial()};
}

// The engine's view without its discard pile (Carousel has none); its melds
// belong to the table (melds_have_owners).
void Carousel::write_view(std::optional<int> viewer, JsonWriter& out) const {
  write_view_of(viewer, {.discard_pile = false}, out);
}

// The turn's draw-meld cycle and the game's standing, beside the engine's view.
void Carousel::write_extra_view(JsonWriter& out) const {
  out.field("drawn", drawn_this_turn());
  out.field("draws_per_turn", kDrawsPerTurn);
  out.field("melded_this_turn", plays_this_turn() > 0);
  out.field("knock_max", kKnockMax);
  out.field("knocker", knocker_ >= 0 ? std::optional<int>(knocker_) : std::nullopt);
  out.array_field("withdrawn", [&] {
    for (int s = 0; s < players(); ++s)
      if (withdrawn_[s]) out.integer(s);
  });
  out.field("deals_won", deals_won_);
  out.field("target", kTarget);
  out.field("turn_time_limit_s", time_limit_);
  if (in_final_meld_round()) out.object_field("final_round", [&] { out.field("turns_left", final_meld_turns_left()); });
}

}  // namespace carousel

GameInfo carousel_info() {
  GameInfo info;
  info.view_constants = {"target", "draws_per_turn", "knock_max", "turn_time_limit_s"};  // set by the options (registry.h)
  info.id = "carousel";
  info.name = "Carousel";
  info.aliases = {"Carousel Rummy"};
  info.min_players = 2;
  info.max_players = 5;
  info.summary =
      "Knock rummy with jokers: draw one, two or three cards, meld only after the first or second; every meld is "
      "common property and may be rearranged; knock with 5 or less; undercut and going-out bonuses; game to 150. "
      "Scarne rules, source 002.";
  info.source = "002";
  info.options = {
      {"stake", OptionSpec::Type::integer, 1, {}, 1, 1000, "Chips per point of the final settlement."},
      {"ace_high_runs", OptionSpec::Type::boolean, false, {}, std::nullopt, std::nullopt,
       "Runs may also end with the ace high (Q-K-A); never round the corner."},
      {"turn_time_limit_s", OptionSpec::Type::integer, 0, {}, 0, 600,
       "Seconds per turn (0: no limit; the source's fans use 120). A player who runs out of time withdraws from "
       "the deal: no more turns, cannot win, his hand still counts."},
      {"deals", OptionSpec::Type::integer, 0, {}, 0, 200,
       "Stop after this many deals at the latest, the highest score winning (0: play to 150; at most 200 deals)."},
  };
  info.bot = carousel::carousel_bot;
  info.create = [](const GameSetup& setup) -> std::unique_ptr<GameState> {
    return std::make_unique<carousel::Carousel>(setup);
  };
  return info;
}

}  // namespace parlour::rules
