// `parlour verify` (docs/playing.md "Provably fair deals"): checks a finished table's
// deals against its revealed seed. From a history document (the JSON the
// browser downloads, or one built here from a database):
//  1. every deal's commitment, and every commitment a browser recorded as
//     received during play, is the SHA-256 of that deal's seed material;
//  2. every deal dealt from a Shoe: the cards out of the stock at its start are
//     the top of the deck the revealed seed shuffles for it;
//  3. the events, replayed from the revealed seed through the table's own
//     replay (TableCore), give exactly the views, log and chips of every step.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace parlour::server {

// What `verify --history` reads at most: a file this size, arrays and objects
// nested this deep (a real history nests about ten deep).
inline constexpr std::uint64_t max_history_bytes = 256u << 20;
inline constexpr std::size_t max_history_nesting = 64;

struct Verdict {
  bool ok = true;
  std::vector<std::string> lines;  // one per check, failures included
};

Verdict verify_history(const nlohmann::json& history);

// The command line: `verify --table ID --db PATH` or `verify --history FILE`;
// prints the verdict, returns the process's exit status (0 verified, 1 a check
// failed, 2 the command or its input is wrong).
int verify_main(const std::vector<std::string>& args);

}  // namespace parlour::server
