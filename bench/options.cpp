#include "bench/options.h"

#include <charconv>

namespace parlour::bench {

namespace {

std::string usage() {
  return "usage: parlour_bench [options]\n"
         "  --only SECTION        run one section: rules, storage, history or server (default: all)\n"
         "  --seconds N           end-to-end measurement time in seconds (default 10); each\n"
         "                        in-process measurement takes a fifth of it\n"
         "  --tables N,N,...      table counts of the server section (default 10,100,1000)\n"
         "  --game ID             the game the server section plays (default red_dog)\n"
         "  --seats N             players per table (default 4)\n"
         "  --spectators N        spectators per table, 0 or 1 (default 0)\n"
         "  --server-threads N,N  the server's I/O threads (default 1,2): each table count is run\n"
         "                        at the first in full (half rate, Beast, boardgame.io), then\n"
         "                        again at each other (the server unpinned, on every CPU)\n"
         "  --no-pin              do not pin the server and the clients to separate CPUs\n"
         "  --no-half-rate        leave out the run of Parlour paced at half the rate it reached\n"
         "                        (its act->ok latency at the load a server is sized for)\n"
         "  --peers, --no-peers   run (default) or leave out boardgame.io playing the same game\n"
         "                        beside Parlour (bench/peers/boardgameio; needs node and its npm\n"
         "                        packages, which `make bench` installs)\n"
         "  --seed N              first game seed of the rules section (default 1)\n"
         "  --store sqlite|postgresql   the server section's database: a SQLite file (default) or\n"
         "                        a throwaway PostgreSQL cluster (default settings: fsync on)\n"
         "  --nodes N             server nodes on that PostgreSQL database, behind HAProxy when N > 1\n"
         "                        (default 1)\n"
         "  --server PATH         the parlour binary to measure (default: the one built\n"
         "                        alongside, " PARLOUR_BINARY ")\n"
         "  --help                this text\n";
}

template <typename Number>
bool parse_number(const std::string& text, Number& out, Number lo, Number hi) {
  Number value{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < lo || value > hi) return false;
  out = value;
  return true;
}

// "N,N,...": each between `least` and `most`; `counts` holds them (what came, when false).
bool parse_counts(const std::string& value, std::vector<int>& counts, int least, int most) {
  counts.clear();
  bool ok = true;
  for (std::size_t at = 0; ok && at <= value.size();) {
    const auto comma = std::min(value.find(',', at), value.size());
    int count = 0;
    ok = parse_number(value.substr(at, comma - at), count, least, most);
    counts.push_back(count);
    at = comma + 1;
  }
  return ok;
}

}  // namespace

ParsedOptions parse_options(const std::vector<std::string>& args) {
  Options options;
  options.server_binary = PARLOUR_BINARY;
  options.echo_binary = PARLOUR_ECHO_BINARY;
  auto fail = [](const std::string& message) { return ParsedOptions{std::nullopt, message + "\n" + usage(), false}; };
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& flag = args[i];
    if (flag == "--help" || flag == "-h") return ParsedOptions{std::nullopt, usage(), true};
    if (flag == "--no-pin") {
      options.pin = false;
      continue;
    }
    if (flag == "--no-half-rate") {
      options.half_rate = false;
      continue;
    }
    if (flag == "--peers" || flag == "--no-peers") {
      options.peers = flag == "--peers";
      continue;
    }
    if (i + 1 >= args.size()) return fail("missing value after " + flag);
    const std::string& value = args[++i];
    bool ok = true;
    if (flag == "--only") {
      ok = value == "rules" || value == "storage" || value == "history" || value == "server";
      options.only = value;
    } else if (flag == "--seconds") ok = parse_number(value, options.seconds, 0.1, 3600.0);
    else if (flag == "--tables") ok = parse_counts(value, options.table_counts, 1, 100000);
    else if (flag == "--game") options.game = value;
    else if (flag == "--seats") ok = parse_number(value, options.seats, 1, 16);
    else if (flag == "--spectators") ok = parse_number(value, options.spectators, 0, 1);
    else if (flag == "--server-threads") {
      ok = parse_counts(value, options.server_thread_counts, 1, 64);
      options.server_threads = options.server_thread_counts.front();
    }
    else if (flag == "--seed") ok = parse_number<std::uint64_t>(value, options.seed, 0, UINT64_MAX);
    else if (flag == "--server") options.server_binary = value;
    else if (flag == "--store") {
      ok = value == "sqlite" || value == "postgresql";
      options.store = value;
    } else if (flag == "--nodes") ok = parse_number(value, options.nodes, 1, 8);
    else return fail("unknown option " + flag);
    if (!ok) return fail("bad value for " + flag + ": '" + value + "'");
  }
  if (options.nodes > 1 && options.store != "postgresql")
    return fail("--nodes " + std::to_string(options.nodes) + " needs --store postgresql: nodes share one database");
  return ParsedOptions{options, "", false};
}

bool Options::pinned() const { return pin && std::thread::hardware_concurrency() >= 2; }

}  // namespace parlour::bench
