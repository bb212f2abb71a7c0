// A table's standings (docs/protocol.md "End of a table"): per seat, the chips
// won or lost at the table, the deals won and the game's own score. Fed from
// the same events that rebuild the table (the chip movements of each event and
// the result of each settled deal), so a restart computes exactly the same.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/game.h"

namespace parlour::server {

class Standings {
 public:
  using Json = nlohmann::json;

  // Play starts with `seats` seats (numbered as the game numbers them).
  void start(int seats);
  bool started() const { return !chips_.empty(); }

  // The seat changes hands between deals (docs/protocol.md "Late joiners and open
  // seats"): what its player did so far stays his, listed after the seats, and
  // the seat starts again from nothing for whoever takes it.
  void seat_changes_hands(int seat, const std::string& player, bool bot);

  // The chips an event moved: what enters a seat counts for it, what leaves against it.
  void add_transfers(const std::vector<rules::Transfer>& transfers);

  // A deal's result, once it has settled. The same deal (by its "deal" number)
  // is counted once however often it is offered.
  void add_settled_deal(const Json& result);

  int deals() const { return deals_; }
  std::int64_t chips(int seat) const { return chips_.at(seat); }
  int deals_won(int seat) const { return deals_won_.at(seat); }
  // The game's score for a seat, where the game keeps one.
  std::optional<std::int64_t> score(int seat) const;

  // {"deals", "players":[{"seat","player","bot","chips","deals_won","score"?,"left"?}]};
  // `names` and `bots` by seat. A seat nobody holds is left out; those who gave
  // up a seat follow the seats, with "left": true.
  Json to_json(const std::vector<std::string>& names, const std::vector<bool>& bots) const;

  // Everything above, for a table's deal snapshot (TableState::snapshot); read
  // back whole or not at all (throws rules::SnapshotError saying what is wrong).
  Json snapshot() const;
  static Standings restore(const Json& snapshot);

 private:
  std::vector<std::int64_t> chips_;
  std::vector<int> deals_won_;
  int deals_ = 0;
  std::optional<std::int64_t> last_deal_;
  // The latest running score the results carried (their "final_scores" or
  // "scores"), else the sum of every deal's "points".
  std::vector<std::int64_t> running_;
  bool has_running_ = false;
  std::vector<std::int64_t> summed_points_;
  bool has_points_ = false;
  std::vector<Json> former_;  // those who gave up a seat, as to_json lists them
};

}  // namespace parlour::server
