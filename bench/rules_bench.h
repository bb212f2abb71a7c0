// Red Dog in process, without a server: how fast the rules apply actions
// (the replay path of recovery), how fast they do what the table actor does per
// action, and how fast a view is serialised.
#pragma once

#include "bench/options.h"

namespace parlour::bench {

void run_rules_bench(const Options& options);

}  // namespace parlour::bench
