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

}  // namespace parlour::rules::rummy
