// --log-format (docs/operations.md "Logs"): the server's log lines as text,
// or as one JSON object a line for a log collector (journald, Loki, Vector):
//   {"time":"2026-11-27T13:04:19.123Z","level":"info","message":"table t3: ...","table":"t3"}
// with "table" where the line is about one table ("table ID: ..."), and
// "player" where it names one ("player NAME ...").
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "server/common/config.h"

namespace parlour::server {

// Sets the default logger's form; text keeps the pattern main.cpp set.
void use_log_format(Config::LogFormat format);

// One JSON line (without its newline) for a message logged at `level`
// ("info", "warning", ...) at `time`.
std::string json_log_line(std::chrono::system_clock::time_point time, std::string_view level,
                          std::string_view message);

}  // namespace parlour::server
