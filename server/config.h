// Command-line configuration of the parlour server.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace parlour::server {

struct Config {
  std::string bind = "0.0.0.0";
  unsigned short port = 8080;
  std::string db = "./data/parlour.db";
  std::string web_root = PARLOUR_DEFAULT_WEB_ROOT;
  std::int64_t starting_chips = 1000;
  bool allow_stacked_deck = false;
  std::string log_level = "info";
  int bot_delay_ms = 700;
  int threads = 2;
  // Messages a connection may send per second on average, and in a burst.
  double rate_per_second = 50;
  double rate_burst = 100;
};

// Parses argv; returns the config, or an error message (also for --help, whose
// "message" is the usage text and `help` is set).
struct ParsedArgs {
  std::optional<Config> config;
  std::string message;
  bool help = false;
};
ParsedArgs parse_args(const std::vector<std::string>& args);
std::string usage();

}  // namespace parlour::server
