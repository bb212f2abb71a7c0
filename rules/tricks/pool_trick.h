// The pool trick game shared by Rams and Rounce (source 000 "RAMS", "ROUNCE";
// rules/other.md §2, §3): the dealer antes into a pool carried from deal to deal;
// five cards each and a widow; a turned trump; players declare in turn to pass,
// play, or take the widow; the active players play five tricks, each worth a fifth
// of the pool; an active player who takes no trick pays into the next pool. Rams
// adds "General Rams". The two games differ only by the configuration below; the
// choices common to both are documented in rules/games/rams.h.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "rules/registry.h"
#include "rules/tricks/tricks.h"

namespace parlour::rules::tricks {

struct PoolTrickConfig {
  std::string name;              // for messages: "rams", "rounce"
  bool short_pack = true;        // 32 cards (Rams) or 52 (Rounce)
  int widow_size = 5;            // 5 (Rams) or 6 (Rounce)
  bool widow_discard = false;    // Rounce: whoever takes the widow discards one
  bool general_allowed = true;   // Rams' "General Rams"
  bool trump_lead_duty = false;  // Rounce: the first trick's winner leads a trump if he holds one
  TrickRules rules;              // duties and rank order; the trump suit is set per deal
  bool packets_two_first = true; // deal 2 then 3 (or 3 then 2)
  std::int64_t unit = 5;         // the ante, the no-trick payment, the forced payment, General's payments
  int deal_limit = 0;            // 0: no limit
  int min_players = 3;
};

std::unique_ptr<GameState> make_pool_trick_game(const PoolTrickConfig& config, const GameSetup& setup);

}  // namespace parlour::rules::tricks
