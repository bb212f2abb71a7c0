// --config FILE and --log-format (server/common/config.h, log_format.h): a
// file's settings under the command line's, and each kind of mistake in the
// file refused with its file, line and key.
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "server/common/config.h"
#include "server/common/log_format.h"

using namespace parlour::server;
namespace fs = std::filesystem;

namespace {

// A config file holding `text`, removed at the end of the test.
class ConfigFile {
 public:
  explicit ConfigFile(const std::string& text) {
    static int counter = 0;
    path_ = (fs::temp_directory_path() /
             ("parlour-config-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + ".conf"))
                .string();
    std::ofstream(path_) << text;
  }
  ~ConfigFile() { fs::remove(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace

TEST_CASE("--config: the file's settings, comments ignored, and flags on the command line win") {
  const ConfigFile file(
      "# Parlour on cards.example.org\n"
      "\n"
      "port = 9100\n"
      "  db = /var/lib/parlour/parlour.db   # the state directory\n"
      "public-url=https://cards.example.org\n"
      "trusted-proxy = 127.0.0.1/32\n"
      "trusted-proxy = ::1\n"
      "allow-stacked-deck = true\n"
      "web-root = /srv/parlour#1/web\n"
      "log-format = json\n");
  const auto from_file = parse_args({"--config", file.path()});
  REQUIRE_MESSAGE(from_file.config, from_file.message);
  CHECK(from_file.config->port == 9100);
  CHECK(from_file.config->db == "/var/lib/parlour/parlour.db");
  CHECK(from_file.config->public_url == "https://cards.example.org");
  CHECK(from_file.config->trusted_proxies == std::vector<std::string>{"127.0.0.1/32", "::1"});
  CHECK(from_file.config->allow_stacked_deck);
  CHECK(from_file.config->web_root == "/srv/parlour#1/web");  // a # inside a value stays
  CHECK(from_file.config->log_format == Config::LogFormat::json);
  CHECK(from_file.config->config_file == file.path());

  // Given before or after --config, a flag wins; a repeatable one replaces the file's list.
  const auto overruled = parse_args({"--port", "9200", "--config", file.path(), "--trusted-proxy", "10.0.0.0/8",
                                     "--log-format", "text"});
  REQUIRE_MESSAGE(overruled.config, overruled.message);
  CHECK(overruled.config->port == 9200);
  CHECK(overruled.config->db == "/var/lib/parlour/parlour.db");
  CHECK(overruled.config->trusted_proxies == std::vector<std::string>{"10.0.0.0/8"});
  CHECK(overruled.config->log_format == Config::LogFormat::text);
}

TEST_CASE("--config: an unknown key, a bad value, a line without =, or an unreadable file is refused by name") {
  const ConfigFile unknown("port = 9100\nprot = 9101\n");
  CHECK(parse_args({"--config", unknown.path()}).message == unknown.path() + " line 2: unknown key 'prot'\n");
  const ConfigFile bad("# ports\nport = ninety\n");
  CHECK(parse_args({"--config", bad.path()}).message == bad.path() + " line 2: bad value for port: 'ninety'\n");
  const ConfigFile flag_shaped("port 9100\n");
  CHECK(parse_args({"--config", flag_shaped.path()}).message ==
        flag_shaped.path() + " line 1: expected `key = value`, found 'port 9100'\n");
  const ConfigFile empty_value("db =\n");
  CHECK(parse_args({"--config", empty_value.path()}).message == empty_value.path() + " line 1: no value for db\n");
  const ConfigFile nested("config = /etc/other.conf\n");
  CHECK(parse_args({"--config", nested.path()}).message == nested.path() + " line 1: unknown key 'config'\n");
  const ConfigFile yes("allow-stacked-deck = yes\n");
  CHECK(parse_args({"--config", yes.path()}).message.find("line 1: bad value for allow-stacked-deck: 'yes'") !=
        std::string::npos);
  const auto missing = parse_args({"--config", "/nonexistent/parlour.conf"});
  CHECK_FALSE(missing.config);
  CHECK(missing.message == "cannot read the config file /nonexistent/parlour.conf: No such file or directory\n");
  CHECK(parse_args({"--config", fs::temp_directory_path().string()}).message.find("cannot read the config file") == 0);
  // The command line's own mistakes read as before.
  CHECK(parse_args({"--config", unknown.path(), "--colour", "red"}).message.find(unknown.path() + " line 2") == 0);
  const ConfigFile good("port = 9100\n");
  CHECK(parse_args({"--config", good.path(), "--colour", "red"}).message.find("unknown option --colour") == 0);
  CHECK(parse_args({"--log-format", "xml"}).message.find("bad value for --log-format: 'xml'") == 0);
}

TEST_CASE("--log-format json: one JSON object a line, with the table and player a line names") {
  const auto when = std::chrono::system_clock::time_point(std::chrono::milliseconds(1'795'700'000'123));
  const auto line = nlohmann::json::parse(json_log_line(when, "info", "table t42: hearts created by ann"));
  CHECK(line["time"] == "2026-11-26T13:33:20.123Z");
  CHECK(line["level"] == "info");
  CHECK(line["message"] == "table t42: hearts created by ann");
  CHECK(line["table"] == "t42");
  CHECK_FALSE(line.contains("player"));
  const auto player = nlohmann::json::parse(json_log_line(when, "warning", "player Bob registered with 1000 chips"));
  CHECK(player["player"] == "Bob");
  CHECK_FALSE(player.contains("table"));
  // Quotes, newlines and bytes that are not UTF-8 stay one valid line.
  const std::string odd = json_log_line(when, "error", "a \"quoted\"\nline \xff");
  CHECK(odd.find('\n') == std::string::npos);
  CHECK(nlohmann::json::parse(odd)["message"] == "a \"quoted\"\nline \xEF\xBF\xBD");
}
