// Paying out a Rummy deal (rules/rummy.md §1.8): points times the stake, each
// payment capped by what the payer has, ties split with odd chips clockwise from
// the dealer's left.
#pragma once

#include <string>
#include <vector>

#include "rules/rummy/rummy_base.h"

namespace parlour::rules::rummy {

class Settlement {
 public:
  Settlement(RummyBase& game, Balances& chips, Effects& fx, Json& summary, std::int64_t stake)
      : game_(game), chips_(chips), fx_(fx), summary(summary), stake_(stake) {}

  // `from` owes `to` this many points. A seat no longer in play neither pays nor
  // collects (RummyBase::seats_in_play).
  void points(int from, int to, std::int64_t owed, const std::string& memo);
  // `from` owes these points shared by `winners` (in clockwise order from the dealer's left).
  void split(int from, const std::vector<int>& winners, std::int64_t owed, const std::string& memo);
  // The lowest count among the seats in play wins the difference from each other
  // one; tied winners share it. Returns the winners, clockwise from the dealer's left.
  // `rule` starts each payment's memo, which adds the payer's count and the lowest.
  std::vector<int> lowest_count_wins(const std::vector<int>& counts, const std::string& rule);

 private:
  RummyBase& game_;
  Balances& chips_;
  Effects& fx_;

 public:
  Json& summary;

 private:
  std::int64_t stake_;
};

}  // namespace parlour::rules::rummy
