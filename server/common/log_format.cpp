#include "server/common/log_format.h"

#include <memory>
#include <regex>

#include <nlohmann/json.hpp>
#include <spdlog/pattern_formatter.h>
#include <spdlog/spdlog.h>

#include "storage/store.h"

namespace parlour::server {

namespace {

// The server's lines about a table start "table ID:"; those about a player say
// "player NAME" (server/lobby/, server/table/).
const std::regex& table_line() {
  static const std::regex pattern("^table ([A-Za-z0-9_-]+):");
  return pattern;
}
const std::regex& player_named() {
  static const std::regex pattern("\\bplayer ([^\\s:,;()]+)");
  return pattern;
}

class JsonFormatter final : public spdlog::formatter {
 public:
  void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override {
    const auto level = spdlog::level::to_string_view(msg.level);
    const std::string line =
        json_log_line(msg.time, std::string_view(level.data(), level.size()),
                      std::string_view(msg.payload.data(), msg.payload.size()));
    dest.append(line.data(), line.data() + line.size());
    dest.push_back('\n');
  }
  std::unique_ptr<spdlog::formatter> clone() const override { return std::make_unique<JsonFormatter>(); }
};

}  // namespace

std::string json_log_line(std::chrono::system_clock::time_point time, std::string_view level,
                          std::string_view message) {
  const std::string text(message);
  nlohmann::ordered_json line = {{"time", storage::utc_iso8601(time)}, {"level", level}, {"message", text}};
  std::smatch found;
  if (std::regex_search(text, found, table_line())) line["table"] = found[1].str();
  if (std::regex_search(text, found, player_named())) line["player"] = found[1].str();
  // A message is whatever a log call was given: bytes that are not UTF-8 become U+FFFD rather than an exception.
  return line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void use_log_format(Config::LogFormat format) {
  if (format == Config::LogFormat::json) spdlog::set_formatter(std::make_unique<JsonFormatter>());
}

}  // namespace parlour::server
