// parlour_bench: prints the project's performance figures (`make bench`).
// Sections: rules (in process), storage (SQLite on a temporary file), history
// (a long table's hand history, in process) and server
// (the real binary over loopback WebSockets). See --help for the flags.
#include <cstdio>
#include <exception>
#include <iostream>
#include <thread>

#include "bench/history_bench.h"
#include "bench/options.h"
#include "bench/report.h"
#include "bench/rules_bench.h"
#include "bench/server_bench.h"
#include "bench/storage_bench.h"

using namespace parlour::bench;

int main(int argc, char** argv) {
  const auto parsed = parse_options(std::vector<std::string>(argv + 1, argv + argc));
  if (!parsed.options) {
    (parsed.help ? std::cout : std::cerr) << parsed.message;
    return parsed.help ? 0 : 2;
  }
  const Options& options = *parsed.options;
  std::printf("parlour_bench: %s build, %u hardware threads, %.1f s end to end, %.1f s per in-process figure\n",
              PARLOUR_BUILD_TYPE, std::thread::hardware_concurrency(), options.seconds, options.micro_seconds());
  Stopwatch total;
  try {
    if (options.wants("rules")) run_rules_bench(options);
    if (options.wants("storage")) run_storage_bench(options);
    if (options.wants("history")) run_history_bench(options);
    if (options.wants("server")) run_server_bench(options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "parlour_bench failed: %s\n", e.what());
    return 1;
  }
  std::printf("parlour_bench: done in %.1f s\n", total.seconds());
  return 0;
}
