// The hand history's cost by a table's age: a Red Dog table played in process
// through TableState (the live table's own interpreter) to thousands of
// events, then a page of its first deal read as the server reads it (from the
// deal's stored start) against a replay of the whole log (what a table without
// stored starts costs). CPU time per read, single thread.
#pragma once

#include "bench/options.h"

namespace parlour::bench {

void run_history_bench(const Options& options);

}  // namespace parlour::bench
