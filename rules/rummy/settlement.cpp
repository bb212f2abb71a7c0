#include "rules/rummy/settlement.h"

#include <algorithm>

#include "rules/chip_book.h"

namespace parlour::rules::rummy {

void Settlement::points(int from, int to, std::int64_t owed, const std::string& memo) {
  if (owed <= 0 || from == to || !game_.in_play(from) || !game_.in_play(to)) return;
  summary["points"][from] = summary["points"][from].get<std::int64_t>() - owed;
  summary["points"][to] = summary["points"][to].get<std::int64_t>() + owed;
  game_.pay(from, to, owed * stake_, memo, chips_, fx_, summary);
}

void Settlement::split(int from, const std::vector<int>& winners, std::int64_t owed, const std::string& memo) {
  if (owed <= 0 || winners.empty()) return;
  const auto count = static_cast<std::int64_t>(winners.size());
  std::int64_t odd = owed % count;
  for (int winner : winners) {
    const std::int64_t share = owed / count + (odd > 0 ? 1 : 0);
    if (odd > 0) --odd;
    points(from, winner, share, memo);
  }
}

std::vector<int> Settlement::lowest_count_wins(const std::vector<int>& counts, const std::string& rule) {
  const auto seats = game_.seats_in_play();
  int low = counts[seats.front()];
  for (int s : seats) low = std::min(low, counts[s]);
  std::vector<int> winners;
  for (int s : seats)
    if (counts[s] == low) winners.push_back(s);
  for (int s : seats)
    if (counts[s] != low)
      split(s, winners, counts[s] - low,
            rule + ": " + seat_tag(s) + " counts " + std::to_string(counts[s]) + " against the lowest, " +
                std::to_string(low) + (winners.size() > 1 ? ", the difference split between the lowest" : ""));
  return winners;
}

std::vector<int> RummyBase::top_scorers() const {
  std::vector<int> out;
  int best = 0;
  for (int i = 1; i <= players(); ++i) {
    const int s = (dealer() + i) % players();
    if (!in_play(s)) continue;
    if (out.empty() || scores_[s] > best) {
      out = {s};
      best = scores_[s];
    } else if (scores_[s] == best) {
      out.push_back(s);
    }
  }
  return out;
}

bool RummyBase::settle_game_to_target(int target, bool capped, Settlement& pay_out, Effects& fx) {
  const std::vector<int> leaders = top_scorers();
  const bool reached = !leaders.empty() && scores_[leaders.front()] >= target;
  if (reached && leaders.size() > 1 && !capped) {
    fx.say("Two or more players are tied for the highest score: another deal.");
    return false;
  }
  if (!reached && !capped) return false;
  if (leaders.empty()) return true;
  const int top = scores_[leaders.front()];
  pay_out.summary["game_winners"] = leaders;
  for (int s = 0; s < players(); ++s) {
    if (!in_play(s) || std::find(leaders.begin(), leaders.end(), s) != leaders.end()) continue;
    pay_out.split(s, leaders, top - scores_[s],
                  "the game ends: " + seat_tag(s) + " has " + std::to_string(scores_[s]) + " points, " +
                      (leaders.size() == 1 ? "the winner " : "the tied winners ") + std::to_string(top) +
                      ": he pays the difference");
  }
  fx.say(leaders.size() == 1 ? seat_tag(leaders.front()) + " wins the game with " + std::to_string(top) + "."
                             : "The game ends with the highest score tied at " + std::to_string(top) + ".");
  return true;
}

void RummyBase::pay(int from, int to, std::int64_t amount, const std::string& memo, Balances& chips, Effects& fx,
                    Json& summary) {
  if (from == to) return;
  pay_from_seat(from, Account::of_seat(to), amount, memo, chips, fx, summary);
}

std::int64_t RummyBase::pay_into_pool(int from, const std::string& pool, std::int64_t amount, const std::string& memo,
                                      Balances& chips, Effects& fx, Json& summary) {
  return pay_from_seat(from, Account::of_pool(pool), amount, memo, chips, fx, summary);
}

// The summary's "chips" are the deal's nets; its "unpaid" list appears with the first rest.
std::int64_t RummyBase::pay_from_seat(int from, const Account& to, std::int64_t amount, const std::string& memo,
                                      Balances& chips, Effects& fx, Json& summary) {
  if (amount <= 0) return 0;
  const auto payment = pay_and_announce(from, to, amount, memo, chips, fx, false);
  if (payment.paid > 0) {
    summary["chips"][from] = summary["chips"][from].get<std::int64_t>() - payment.paid;
    if (to.is_seat()) summary["chips"][to.seat] = summary["chips"][to.seat].get<std::int64_t>() + payment.paid;
  }
  if (payment.unpaid > 0) summary["unpaid"].push_back(unpaid_entry(from, to, payment.unpaid, memo));
  return payment.paid;
}

}  // namespace parlour::rules::rummy
