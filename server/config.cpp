#include "server/config.h"

#include <charconv>

namespace parlour::server {

namespace {

template <typename Int>
bool parse_int(const std::string& text, Int& out, Int lo, Int hi) {
  Int value{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < lo || value > hi) return false;
  out = value;
  return true;
}

}  // namespace

std::string usage() {
  return "usage: parlour [options]\n"
         "  --port N              TCP port for HTTP and WebSocket (default 8080; 0 picks a free one)\n"
         "  --bind ADDRESS        address to listen on (default 0.0.0.0)\n"
         "  --db PATH             SQLite database file (default ./data/parlour.db)\n"
         "  --web-root PATH       folder of the browser client (default: the source tree's web-client)\n"
         "  --starting-chips N    chips granted to a new player (default 1000)\n"
         "  --allow-stacked-deck  accept a `deck` in `create` (for tests and lessons)\n"
         "  --log-level LEVEL     trace, debug, info, warn, error (default info)\n"
         "  --bot-delay-ms N      how long a bot thinks before acting (default 700)\n"
         "  --threads N           I/O threads (default 2)\n"
         "  --rate-limit N        messages a connection may send per second, bursts of 2N (default 50)\n"
         "  --help                this text\n";
}

ParsedArgs parse_args(const std::vector<std::string>& args) {
  Config config;
  auto fail = [](std::string message) { return ParsedArgs{std::nullopt, std::move(message) + "\n" + usage(), false}; };
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& flag = args[i];
    if (flag == "--help" || flag == "-h") return ParsedArgs{std::nullopt, usage(), true};
    if (flag == "--allow-stacked-deck") {
      config.allow_stacked_deck = true;
      continue;
    }
    if (i + 1 >= args.size()) return fail("missing value after " + flag);
    const std::string& value = args[++i];
    bool ok = true;
    if (flag == "--port") ok = parse_int<unsigned short>(value, config.port, 0, 65535);
    else if (flag == "--bind") config.bind = value;
    else if (flag == "--db") config.db = value;
    else if (flag == "--web-root") config.web_root = value;
    else if (flag == "--starting-chips") ok = parse_int<std::int64_t>(value, config.starting_chips, 0, 1'000'000'000);
    else if (flag == "--log-level") {
      ok = value == "trace" || value == "debug" || value == "info" || value == "warn" || value == "error";
      config.log_level = value;
    } else if (flag == "--bot-delay-ms") ok = parse_int<int>(value, config.bot_delay_ms, 0, 60'000);
    else if (flag == "--threads") ok = parse_int<int>(value, config.threads, 1, 64);
    else if (flag == "--rate-limit") {
      int rate = 0;
      ok = parse_int<int>(value, rate, 1, 1'000'000);
      config.rate_per_second = rate;
      config.rate_burst = 2.0 * rate;
    }
    else return fail("unknown option " + flag);
    if (!ok) return fail("bad value for " + flag + ": '" + value + "'");
  }
  return ParsedArgs{config, "", false};
}

}  // namespace parlour::server
