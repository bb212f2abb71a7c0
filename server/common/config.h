// Command-line configuration of the parlour server.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace parlour::server {

// The source tree's web-client folder (set at configure time, in config.cpp
// alone, so that no other file's compile line names the tree's path).
std::string default_web_root();

struct Config {
  std::string bind = "0.0.0.0";
  unsigned short port = 8080;
  std::string db = "./data/parlour.db";
  std::string web_root = default_web_root();
  std::int64_t starting_chips = 1000;
  bool allow_stacked_deck = false;
  std::string log_level = "info";
  int bot_delay_ms = 700;
  int threads = 2;
  // Messages a connection may send per second on average, and in a burst.
  double rate_per_second = 50;
  double rate_burst = 100;
  // After a deal, how long its result stays up before the next deal starts,
  // unless every player still connected says `continue` sooner.
  int deal_pause_ms = 4000;
  // A table ends itself after this many deals in a row without an action.
  int max_idle_deals = 10;
  // Limits.
  int max_connections_per_ip = 64;
  int idle_timeout_s = 300;                          // a WebSocket that sends nothing for this long is closed
  std::size_t max_queued_bytes = 4 * 1024 * 1024;    // unsent bytes per connection before it is dropped
  std::size_t max_queued_bytes_per_ip = 16 * 1024 * 1024;  // unsent bytes of all one address's connections
  int max_open_tables = 20;                          // waiting or playing tables one player may host
  int tables_per_hour = 60;                          // tables (rematches included) one player may create an hour
  int max_finished_tables = 100;                     // finished tables kept in memory when nobody uses them
  int history_cache_mb = 64;                         // replayed hand histories kept for quick reading
  int registrations_per_ip_per_hour = 20;            // new names one address may register in an hour
  int waiting_table_hours = 24;                      // a table nobody starts expires after this long unused
  int max_listed_tables = 200;                       // entries in one `tables` reply
  // Several nodes (docs/server.md "Running several nodes"): this node's name, "" when alone.
  std::string node;
  int lease_ms = 6000;                               // a table lease's life unrenewed
  bool clustered() const { return !node.empty(); }
  // The network front (README "Hosting for friends on the internet").
  std::vector<std::string> trusted_proxies;  // CIDRs whose Forwarded / X-Forwarded-For name the client
  std::string public_url;                    // how players reach the server, e.g. https://cards.example.org
  std::string tls_cert;                      // PEM certificate chain: serve HTTPS and WSS (with tls_key)
  std::string tls_key;                       // its PEM private key
  bool tls() const { return !tls_cert.empty(); }
  // Accounts (docs/playing.md "Accounts and recovery"): who may take a new name.
  enum class Registration { open, invite, closed };
  Registration registration = Registration::open;
  int recovery_tries_per_hour = 10;                  // wrong recovery codes per name, and per address, an hour
  int signup_links_per_day = 10;                     // sign-up links one player may make a day
  int device_link_seconds = 600;                     // how long a device code signs another device in
  // Operations (docs/metrics.md): SIGTERM's graceful drain exits within this long.
  int drain_seconds = 10;
  // Service (docs/operations.md): the --config file the settings were read
  // from ("" for none; flags on the command line win over it), and the logs' form.
  std::string config_file;
  enum class LogFormat { text, json };
  LogFormat log_format = LogFormat::text;
};

// Parses argv; returns the config, or an error message (also for --help, whose
// "message" is the usage text and `help` is set). `--config FILE` reads FILE's
// settings first (config_file_args), then the command line's, so flags win.
struct ParsedArgs {
  std::optional<Config> config;
  std::string message;
  bool help = false;
};
ParsedArgs parse_args(const std::vector<std::string>& args);
std::string usage();

// A config file's settings as the flags they stand for, in order: `key = value`
// a line, the keys those of the long flags without their dashes, blank lines
// and `#` comments (a whole line, or after a space) ignored; `allow-stacked-deck
// = true|false`. `lines` gets each argument's line number. Throws
// std::runtime_error naming the file and line of what cannot be read.
std::vector<std::string> config_file_args(const std::string& path, std::vector<int>& lines);

// The address a browser on this machine opens to reach a server bound to
// `bind` and listening on `port` (the port it really got, which --port 0
// picks): a wildcard bind is reached at localhost, an IPv6 address in brackets.
std::string browse_url(const std::string& bind, unsigned short port);

}  // namespace parlour::server
