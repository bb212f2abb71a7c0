// End to end: the real server binary, two-seat Red Dog tables with a human
// client on each seat, every client betting as soon as it is its turn. Measures
// accepted actions per second, act→ok latency, state frames delivered, and how
// many table steps the server's writer groups into one SQLite transaction.
#pragma once

#include "bench/options.h"

namespace parlour::bench {

void run_server_bench(const Options& options);

}  // namespace parlour::bench
