#include "rules/cassino/values.h"

#include <algorithm>

namespace parlour::rules::cassino {

CardValues CardValues::standard() {
  CardValues values;
  for (int rank = ace; rank <= 10; ++rank) values.by_rank_[rank] = {rank};
  values.max_build_ = 10;
  return values;
}

CardValues CardValues::royal(bool ace_high, bool special_pack) {
  CardValues values = standard();
  const int high_ace = special_pack ? 16 : 14;
  if (ace_high) values.by_rank_[ace] = {1, high_ace};
  if (special_pack) {
    values.by_rank_[eleven_spot] = {11};
    values.by_rank_[twelve_spot] = {12};
  }
  const int court_base = special_pack ? 13 : 11;
  values.by_rank_[jack] = {court_base};
  values.by_rank_[queen] = {court_base + 1};
  values.by_rank_[king] = {court_base + 2};
  values.max_build_ = ace_high ? high_ace : court_base + 2;
  return values;
}

bool CardValues::counts_as(Card card, int value) const {
  const auto& choices = of(card);
  return std::find(choices.begin(), choices.end(), value) != choices.end();
}

}  // namespace parlour::rules::cassino
