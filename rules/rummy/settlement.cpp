#include "rules/rummy/settlement.h"

#include <algorithm>

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

std::vector<int> Settlement::lowest_count_wins(const std::vector<int>& counts, const std::string& memo) {
  const auto seats = game_.seats_in_play();
  int low = counts[seats.front()];
  for (int s : seats) low = std::min(low, counts[s]);
  std::vector<int> winners;
  for (int s : seats)
    if (counts[s] == low) winners.push_back(s);
  for (int s : seats)
    if (counts[s] != low) split(s, winners, counts[s] - low, memo);
  return winners;
}

void RummyBase::pay(int from, int to, std::int64_t amount, const std::string& memo, Balances& chips, Effects& fx,
                    Json& summary) {
  if (amount <= 0 || from == to) return;
  const std::int64_t paid = std::min(amount, std::max<std::int64_t>(chips[from], 0));
  if (paid > 0) {
    fx.move(Account::of_seat(from), Account::of_seat(to), paid, memo);
    chips[from] -= paid;
    chips[to] += paid;
    summary["chips"][from] = summary["chips"][from].get<std::int64_t>() - paid;
    summary["chips"][to] = summary["chips"][to].get<std::int64_t>() + paid;
    fx.say(seat_tag(from) + " pays " + seat_tag(to) + " " + std::to_string(paid) + ".");
  }
  if (paid < amount) {
    if (!summary.contains("unpaid")) summary["unpaid"] = Json::array();
    summary["unpaid"].push_back({{"from", from}, {"to", to}, {"amount", amount - paid}});
    fx.say(seat_tag(from) + " cannot cover " + std::to_string(amount - paid) + " of it.");
  }
}

std::int64_t RummyBase::pay_into_pool(int from, const std::string& pool, std::int64_t amount, const std::string& memo,
                                      Balances& chips, Effects& fx, Json& summary) {
  if (amount <= 0) return 0;
  const std::int64_t paid = std::min(amount, std::max<std::int64_t>(chips[from], 0));
  if (paid > 0) {
    fx.move(Account::of_seat(from), Account::of_pool(pool), paid, memo);
    chips[from] -= paid;
    summary["chips"][from] = summary["chips"][from].get<std::int64_t>() - paid;
    fx.say(seat_tag(from) + " puts " + std::to_string(paid) + " into the " + pool + ".");
  }
  if (paid < amount) {
    if (!summary.contains("unpaid")) summary["unpaid"] = Json::array();
    summary["unpaid"].push_back({{"from", from}, {"to", pool}, {"amount", amount - paid}});
    fx.say(seat_tag(from) + " cannot cover " + std::to_string(amount - paid) + " of it.");
  }
  return paid;
}

}  // namespace parlour::rules::rummy
