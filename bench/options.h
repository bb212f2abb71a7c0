// parlour_bench's command line.
#pragma once

#include <cstdint>
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
  int clients = 64;  // WebSocket connections, two per table
  int server_threads = 2;
  int client_threads = 1;
  std::uint64_t seed = 1;
  std::string server_binary;  // the parlour binary to start

  double micro_seconds() const { return seconds / 5 < 0.5 ? 0.5 : seconds / 5; }
  int tables() const { return clients / 2; }
  bool wants(const std::string& section) const { return only.empty() || only == section; }
};

struct ParsedOptions {
  std::optional<Options> options;
  std::string message;  // the usage text, or what was wrong
  bool help = false;
};

ParsedOptions parse_options(const std::vector<std::string>& args);

}  // namespace parlour::bench
