// A table without a server, for the benchmarks that play games in process: it
// keeps every seat's chips and every pool's contents by applying the transfers
// each call returns, the way the table records them.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "rules/registry.h"

namespace parlour::bench {

class ChipTable {
 public:
  // Creates the game; play starts with the first next_deal(), as at a table.
  ChipTable(const rules::GameInfo& info, const rules::Json& options, int players, std::uint64_t seed,
            std::int64_t chips_each)
      : chips_(static_cast<std::size_t>(players), chips_each) {
    game_ = rules::Registry::create(info, rules::GameSetup{options, players, seed, std::nullopt, chips_});
  }

  rules::GameState& game() { return *game_; }
  const rules::Balances& chips() const { return chips_; }

  void apply(int seat, const rules::Json& action) { record(game_->apply(seat, action, chips_)); }
  void next_deal() { record(game_->start_next_deal(chips_)); }
  void close() { record(game_->close(chips_)); }

 private:
  void record(const rules::Effects& effects) {
    for (const auto& t : effects.transfers) {
      (t.from.is_seat() ? chips_[t.from.seat] : pools_[t.from.pool]) -= t.amount;
      (t.to.is_seat() ? chips_[t.to.seat] : pools_[t.to.pool]) += t.amount;
    }
  }

  std::unique_ptr<rules::GameState> game_;
  rules::Balances chips_;
  std::map<std::string, std::int64_t> pools_;
};

}  // namespace parlour::bench
