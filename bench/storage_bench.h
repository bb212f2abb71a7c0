// The store on a temporary SQLite file, then on a throwaway PostgreSQL cluster
// (where PostgreSQL is installed): how many table steps (an event and
// two postings, what one Red Dog bet writes) commit per second, one step per
// transaction and in the batches the server's writer groups them into; then
// the server's shape: ten tables of four players, their steps interleaved, so
// that a transaction touches several tables' and accounts' pages.
#pragma once

#include "bench/options.h"

namespace parlour::bench {

void run_storage_bench(const Options& options);

}  // namespace parlour::bench
