// `parlour check` (docs/operations.md "Checking a store"): the ledger's and the
// logs' SQL checks (storage/check.h), then every table's events replayed
// through the same replay `parlour verify` and hand histories use
// (ReplayedHistory, server/history/history.h): a log that the server could
// not rebuild its table from is named here, not on the next start.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace parlour::storage {
class Store;
}

namespace parlour::server {

struct ReplayCheck {
  std::vector<std::string> problems;  // one per table whose log does not replay
  std::int64_t tables = 0;            // tables with events, replayed
  std::int64_t events = 0;
};

// Replays every table of `db`, whatever its status.
ReplayCheck replay_every_table(storage::Store& db);

// The command line: `check [--db PATH|URI]`; prints what was checked and each
// problem, returns the process's exit status (0 sound, 1 something is wrong,
// 2 the command is wrong or the store cannot be read).
int check_main(const std::vector<std::string>& args);

}  // namespace parlour::server
