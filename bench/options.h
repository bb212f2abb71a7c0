// parlour_bench's command line.
#pragma once

#include <cstdint>
#include <thread>
#include <optional>
#include <string>
#include <vector>

namespace parlour::bench {

struct Options {
  // Which sections run: all, or one of "rules", "storage", "server".
  std::string only;
  // How long the end-to-end measurement runs; every in-process measurement
  // runs a fifth of that (at least half a second), so the default run stays
  // well under a minute.
  double seconds = 10;
  // The server section: tables of `game` with `seats` players (and `spectators`
  // watchers) each, at every count of `table_counts`.
  std::vector<int> table_counts = {10, 100, 1000};
  std::string game = "red_dog";
  int seats = 4;
  int spectators = 0;
  int server_threads = 1;                     // the run at hand's
  std::vector<int> server_thread_counts = {1, 2};  // every run's
  bool pin = true;
  bool half_rate = true;  // the server section also runs Parlour paced at half its measured rate  // server on CPU 0, clients on CPU 1, when there are two
  // The server section also runs the peers of bench/peers/ (boardgame.io) at
  // every table count, when node and their npm packages are there.
  bool peers = true;
  std::uint64_t seed = 1;
  // Where the server section's Parlour keeps its data: "sqlite" (a file, one
  // node) or "postgresql" (a throwaway cluster; `nodes` of them behind HAProxy).
  std::string store = "sqlite";
  int nodes = 1;
  std::string server_binary;  // the parlour binary to start
  std::string echo_binary;    // the bare Beast baseline server

  double micro_seconds() const { return seconds / 5 < 0.5 ? 0.5 : seconds / 5; }
  bool wants(const std::string& section) const { return only.empty() || only == section; }
  bool pinned() const;
};

struct ParsedOptions {
  std::optional<Options> options;
  std::string message;  // the usage text, or what was wrong
  bool help = false;
};

ParsedOptions parse_options(const std::vector<std::string>& args);

}  // namespace parlour::bench
