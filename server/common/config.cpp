#include "server/common/config.h"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "storage/store.h"

namespace parlour::server {

std::string default_web_root() { return PARLOUR_DEFAULT_WEB_ROOT; }

using storage::is_postgres_url;

namespace {

template <typename Int>
bool parse_int(const std::string& text, Int& out, Int lo, Int hi) {
  Int value{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < lo || value > hi) return false;
  out = value;
  return true;
}

bool valid_node_name(const std::string& name) {
  if (name.empty() || name.size() > 40) return false;
  for (const char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') return false;
  return true;
}

// An absolute http(s) URL with a host, and nothing after its path: no query, no fragment.
bool valid_public_url(const std::string& url) {
  const auto scheme_end = url.find("://");
  if (scheme_end == std::string::npos) return false;
  const auto scheme = url.substr(0, scheme_end);
  const auto host_start = scheme_end + 3;
  return (scheme == "http" || scheme == "https") && host_start < url.size() && url[host_start] != '/' &&
         url.find_first_of("?# \t\r\n\"'<>") == std::string::npos;
}

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

// A comment runs from a # at the line's start or after a space or tab to the
// line's end (a # inside a value, as in a path, stays).
std::string without_comment(const std::string& text) {
  for (std::size_t i = 0; i < text.size(); ++i)
    if (text[i] == '#' && (i == 0 || text[i - 1] == ' ' || text[i - 1] == '\t')) return text.substr(0, i);
  return text;
}

// The flags the command line gives, where a config file's would be overruled
// by them: a repeatable flag given there replaces the file's whole list.
bool given(const std::vector<std::string>& args, const std::string& flag) {
  for (const auto& arg : args)
    if (arg == flag) return true;
  return false;
}

}  // namespace

std::vector<std::string> config_file_args(const std::string& path, std::vector<int>& lines) {
  std::ifstream in(path);
  if (!in || std::filesystem::is_directory(path)) throw std::runtime_error("cannot read the config file " + path + ": " + std::strerror(errno));
  std::vector<std::string> args;
  std::string text;
  for (int number = 1; std::getline(in, text); ++number) {
    const std::string at = path + " line " + std::to_string(number) + ": ";
    const std::string line = trimmed(without_comment(text));
    if (line.empty()) continue;
    const auto equals = line.find('=');
    if (equals == std::string::npos) throw std::runtime_error(at + "expected `key = value`, found '" + line + "'");
    std::string key = trimmed(line.substr(0, equals));
    if (key.rfind("--", 0) == 0) key = key.substr(2);
    const std::string value = trimmed(line.substr(equals + 1));
    if (key.empty() || key == "config" || key == "help") throw std::runtime_error(at + "unknown key '" + key + "'");
    if (value.empty()) throw std::runtime_error(at + "no value for " + key);
    if (key == "allow-stacked-deck") {
      if (value != "true" && value != "false")
        throw std::runtime_error(at + "bad value for allow-stacked-deck: '" + value + "' (true or false)");
      if (value == "true") {
        args.push_back("--" + key);
        lines.push_back(number);
      }
      continue;
    }
    args.insert(args.end(), {"--" + key, value});
    lines.insert(lines.end(), {number, number});
  }
  if (in.bad()) throw std::runtime_error("cannot read the config file " + path + ": " + std::strerror(errno));
  return args;
}

std::string usage() {
  return "usage: parlour [options]\n"
         "  --port N              TCP port for HTTP and WebSocket (default 8080; 0 picks a free one)\n"
         "  --bind ADDRESS        address to listen on (default 0.0.0.0)\n"
         "  --db PATH|URI         SQLite database file (default ./data/parlour.db), or a PostgreSQL\n"
         "                        database: postgresql://USER@HOST:PORT/DBNAME\n"
         "  --web-root PATH       folder of the browser client (default: the source tree's web-client)\n"
         "  --starting-chips N    chips granted to a new player (default 1000)\n"
         "  --allow-stacked-deck  accept a `deck` in `create` (for tests and lessons)\n"
         "  --log-level LEVEL     trace, debug, info, warn, error (default info)\n"
         "  --bot-delay-ms N      how long a bot thinks before acting (default 700)\n"
         "  --threads N           I/O threads (default 2)\n"
         "  --rate-limit N        messages a connection may send per second, bursts of 2N (default 50)\n"
         "  --deal-pause-ms N     how long a deal's result stays up before the next deal, unless every\n"
         "                        player says continue sooner (default 4000)\n"
         "  --max-idle-deals N    a table ends after N deals in a row in which nobody could act (default 10)\n"
         "  --max-connections-per-ip N   open connections from one address (default 64)\n"
         "  --idle-timeout-s N    close a WebSocket silent for N seconds; pings keep it open (default 300)\n"
         "  --max-queued-bytes N  unsent bytes a connection may pile up before it is dropped (default 4194304)\n"
         "  --max-queued-bytes-per-ip N   unsent bytes all connections from one address may pile up;\n"
         "                        beyond, the connection that would go over is dropped (default 16777216)\n"
         "  --max-open-tables N   waiting or playing tables one player may host (default 20)\n"
         "  --tables-per-hour N   tables one player may create in an hour, rematches included (default 60)\n"
         "  --max-finished-tables N   finished tables kept in memory for quick reading when nobody\n"
         "                        uses them; older ones are read back from the database (default 100)\n"
         "  --history-cache-mb N  memory for replayed hand histories, so a page of a long table's history\n"
         "                        costs a page of work; the least recently read go first (default 64)\n"
         "  --registrations-per-ip-per-hour N   new names one address may register an hour (default 20)\n"
         "  --waiting-table-hours N   a table nobody starts expires after N hours unused (default 24)\n"
         "  --max-listed-tables N entries in one `tables` reply (default 200)\n"
         "  --node NAME           run as one of several nodes sharing a PostgreSQL --db: this node's\n"
         "                        name (letters, digits, - and _); each table is served by the node\n"
         "                        holding its lease (README \"Running several nodes\")\n"
         "  --lease-ms N          how long a node's table leases last unrenewed: a dead node's tables\n"
         "                        move to another node after at most this long (default 6000)\n"
         "  --trusted-proxy CIDR[,CIDR...]   reverse proxies (e.g. 127.0.0.1/32, ::1) whose Forwarded or\n"
         "                        X-Forwarded-For header names the client; repeatable. From any other\n"
         "                        peer those headers are ignored. IPv6 clients are limited per /64\n"
         "  --public-url URL      the address players open (https://cards.example.org behind a proxy):\n"
         "                        the start-up line and invite links use it (default http://HOST:PORT)\n"
         "  --tls-cert FILE       PEM certificate chain (e.g. Let's Encrypt's fullchain.pem): serve HTTPS\n"
         "                        and WSS on --port; a plain request there is sent to https. SIGHUP\n"
         "                        reads the certificate again, for new connections\n"
         "  --tls-key FILE        the certificate's PEM private key (with --tls-cert)\n"
         "  --registration MODE   who may take a new name: open (anyone, the default), invite (only with\n"
         "                        a table's invite or a sign-up link) or closed (nobody); names already\n"
         "                        taken always sign in (README \"Accounts and recovery\")\n"
         "  --recovery-tries-per-hour N   wrong recovery codes allowed per name, and per address, an\n"
         "                        hour (default 10)\n"
         "  --signup-links-per-day N   sign-up links one player may make a day (default 10)\n"
         "  --device-link-seconds N   how long a device code (another device signing in as the\n"
         "                        same name) stays valid (default 600)\n"
         "  --drain-seconds N     on SIGTERM (or SIGINT), stop taking players, tell every client to\n"
         "                        reconnect (WebSocket close 1012) and exit within N seconds; a second\n"
         "                        signal exits at once; 0 exits at once (default 10; docs/metrics.md)\n"
         "  --config FILE         read settings from FILE first: `key = value` a line, the keys those of\n"
         "                        the long flags (port = 8080, db = /var/lib/parlour/parlour.db), # comments;\n"
         "                        flags on the command line win (docs/operations.md)\n"
         "  --log-format text|json   log lines as text (the default) or one JSON object a line: time,\n"
         "                        level, message, and table and player where the line names them\n"
         "  (the store's tools: parlour backup FILE [--db PATH], parlour restore FILE --db PATH [--force],\n"
         "   parlour check [--db PATH|URI]; docs/operations.md)\n"
         "  --help                this text\n";
}

ParsedArgs parse_args(const std::vector<std::string>& command_line) {
  Config config;
  auto fail = [](std::string message) { return ParsedArgs{std::nullopt, std::move(message) + "\n" + usage(), false}; };
  // A --config file's settings go first, so that the command line's win.
  std::vector<std::string> args;
  std::vector<int> file_line;  // each of args' line in the config file; 0: from the command line
  for (std::size_t i = 0; i < command_line.size(); ++i) {
    if (command_line[i] != "--config" || i + 1 == command_line.size()) continue;
    if (!config.config_file.empty()) return fail("--config is given twice");
    config.config_file = command_line[i + 1];
    try {
      args = config_file_args(config.config_file, file_line);
    } catch (const std::runtime_error& e) {
      return ParsedArgs{std::nullopt, std::string(e.what()) + "\n", false};
    }
    for (std::size_t at = 0; at + 1 < args.size(); ++at)
      if (args[at] == "--trusted-proxy" && given(command_line, "--trusted-proxy")) args[at + 1].clear();
  }
  args.insert(args.end(), command_line.begin(), command_line.end());
  file_line.resize(args.size(), 0);
  // A config file's mistakes are named by its line and key.
  auto wrong = [&](std::size_t i, const std::string& flag, const std::string& what) {
    if (!file_line[i]) return fail(what);
    return ParsedArgs{std::nullopt, config.config_file + " line " + std::to_string(file_line[i]) + ": " +
                                        (what.rfind("unknown", 0) == 0 ? "unknown key '" + flag.substr(2) + "'" : what) + "\n",
                      false};
  };
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& flag = args[i];
    if (flag == "--help" || flag == "-h") return ParsedArgs{std::nullopt, usage(), true};
    if (flag == "--allow-stacked-deck") {
      config.allow_stacked_deck = true;
      continue;
    }
    if (i + 1 >= args.size()) return fail("missing value after " + flag);
    const std::string& value = args[++i];
    if (flag == "--config" || (flag == "--trusted-proxy" && value.empty() && file_line[i])) continue;  // read above; overruled
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
    else if (flag == "--deal-pause-ms") ok = parse_int<int>(value, config.deal_pause_ms, 0, 600'000);
    else if (flag == "--max-idle-deals") ok = parse_int<int>(value, config.max_idle_deals, 1, 1'000'000);
    else if (flag == "--max-connections-per-ip") ok = parse_int<int>(value, config.max_connections_per_ip, 1, 1'000'000);
    else if (flag == "--idle-timeout-s") ok = parse_int<int>(value, config.idle_timeout_s, 1, 86'400);
    else if (flag == "--max-queued-bytes")
      ok = parse_int<std::size_t>(value, config.max_queued_bytes, 64 * 1024, std::size_t{1} << 32);
    else if (flag == "--max-queued-bytes-per-ip")
      ok = parse_int<std::size_t>(value, config.max_queued_bytes_per_ip, 64 * 1024, std::size_t{1} << 36);
    else if (flag == "--max-open-tables") ok = parse_int<int>(value, config.max_open_tables, 1, 1'000'000);
    else if (flag == "--tables-per-hour") ok = parse_int<int>(value, config.tables_per_hour, 1, 1'000'000);
    else if (flag == "--max-finished-tables") ok = parse_int<int>(value, config.max_finished_tables, 0, 1'000'000);
    else if (flag == "--history-cache-mb") ok = parse_int<int>(value, config.history_cache_mb, 0, 65'536);
    else if (flag == "--registrations-per-ip-per-hour")
      ok = parse_int<int>(value, config.registrations_per_ip_per_hour, 1, 1'000'000);
    else if (flag == "--waiting-table-hours") ok = parse_int<int>(value, config.waiting_table_hours, 1, 24 * 365);
    else if (flag == "--max-listed-tables") ok = parse_int<int>(value, config.max_listed_tables, 1, 100'000);
    else if (flag == "--node") {
      ok = valid_node_name(value);
      config.node = value;
    }
    else if (flag == "--lease-ms") ok = parse_int<int>(value, config.lease_ms, 500, 600'000);
    else if (flag == "--tls-cert") config.tls_cert = value;
    else if (flag == "--tls-key") config.tls_key = value;
    else if (flag == "--trusted-proxy") config.trusted_proxies.push_back(value);  // checked by the network front
    else if (flag == "--public-url") {
      ok = valid_public_url(value);
      config.public_url = value.back() == '/' ? value.substr(0, value.size() - 1) : value;
    }
    else if (flag == "--registration") {
      ok = value == "open" || value == "invite" || value == "closed";
      config.registration = value == "invite"   ? Config::Registration::invite
                            : value == "closed" ? Config::Registration::closed
                                                : Config::Registration::open;
    }
    else if (flag == "--recovery-tries-per-hour") ok = parse_int<int>(value, config.recovery_tries_per_hour, 1, 1'000'000);
    else if (flag == "--signup-links-per-day") ok = parse_int<int>(value, config.signup_links_per_day, 1, 1'000'000);
    else if (flag == "--device-link-seconds") ok = parse_int<int>(value, config.device_link_seconds, 1, 86'400);
    else if (flag == "--drain-seconds") ok = parse_int<int>(value, config.drain_seconds, 0, 3600);
    else if (flag == "--log-format") {
      ok = value == "text" || value == "json";
      config.log_format = value == "json" ? Config::LogFormat::json : Config::LogFormat::text;
    }
    else return wrong(i, flag, "unknown option " + flag);
    if (!ok) return wrong(i, flag, "bad value for " + flag.substr(file_line[i] ? 2 : 0) + ": '" + value + "'");
  }
  if (!config.node.empty() && !is_postgres_url(config.db))
    return fail("--node needs a shared PostgreSQL database: --db postgresql://USER@HOST:PORT/DBNAME");
  if (config.tls_cert.empty() != config.tls_key.empty()) return fail("--tls-cert and --tls-key go together");
  return ParsedArgs{config, "", false};
}

std::string browse_url(const std::string& bind, unsigned short port) {
  const bool any_address = bind == "0.0.0.0" || bind == "::" || bind.empty();
  const std::string host = any_address                             ? "localhost"
                           : bind.find(':') != std::string::npos ? "[" + bind + "]"
                                                                   : bind;
  return "http://" + host + ":" + std::to_string(port);
}

}  // namespace parlour::server
