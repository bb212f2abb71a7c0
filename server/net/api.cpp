#include "server/net/api.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>
#include <optional>
#include <vector>

#include "protocol/messages.h"
#include "server/common/csv.h"
#include "server/lobby/lobby.h"
#include "server/net/schema.h"

namespace parlour::server {

namespace {

using protocol::ProtocolError;
namespace code = protocol::code;

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A name fit for a Content-Disposition file name: only the characters a player
// name may have (the name came from the URL and may hold anything).
std::string safe_file_name(const std::string& name) {
  std::string out;
  for (char c : name.substr(0, 24))
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-') out += c;
  return out.empty() ? "player" : out;
}

// The whole text must be a decimal integer in [lo, hi].
std::optional<std::int64_t> parse_whole_integer(const std::string& text, std::int64_t lo, std::int64_t hi) {
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < lo || value > hi) return std::nullopt;
  return value;
}

int status_of(const std::string& error_code) {
  if (error_code == code::not_found) return 404;
  if (error_code == code::bad_request) return 400;
  if (error_code == code::forbidden) return 403;
  if (error_code == code::unauthorized) return 401;
  if (error_code == code::rate_limited) return 503;
  return 500;
}

ApiResponse api_error(const std::string& error_code, const std::string& message) {
  return {status_of(error_code), "application/json",
          protocol::error_message(std::nullopt, error_code, message).dump(-1, ' ', false, Json::error_handler_t::replace),
          ""};
}

// "/api/PREFIX…SUFFIX" → the decoded part between, or nullopt.
std::optional<std::string> between(const std::string& path, const std::string& prefix, const std::string& suffix) {
  if (path.rfind(prefix, 0) != 0 || path.size() <= prefix.size() + suffix.size() ||
      path.compare(path.size() - suffix.size(), suffix.size(), suffix) != 0)
    return std::nullopt;
  return url_decode(path.substr(prefix.size(), path.size() - prefix.size() - suffix.size()));
}

// A lobby completion that replies with the fields as JSON, or as CSV through
// `to_csv`, or with the error and its HTTP status.
std::function<void(Json, std::optional<ProtocolError>)> answer_later(ApiReply reply, std::string (*to_csv)(const Json&),
                                                                     std::string filename) {
  return [reply = std::move(reply), to_csv, filename = std::move(filename)](Json fields,
                                                                           std::optional<ProtocolError> failure) {
    if (failure) return reply(api_error(failure->code(), failure->what()));
    if (!to_csv) return reply({200, "application/json", fields.dump(-1, ' ', false, Json::error_handler_t::replace), ""});
    reply({200, csv_content_type, to_csv(fields), filename});
  };
}

// GET /api/tables/ID/history?deal=&from= (docs/protocol.md "Hand history and replay").
void history(Lobby& lobby, const std::string& viewer, const std::string& table, const std::string& query,
             ApiReply reply) {
  HistoryQuery wanted{viewer, std::nullopt, std::nullopt, false};
  for (const auto& [name, value] : query_params(query)) {
    if (name != "deal" && name != "from")
      return reply(api_error(code::bad_request,
                             "unknown parameter '" + name.substr(0, 40) + "'; history takes deal and from"));
    const auto number =
        parse_whole_integer(value, 1, name == "deal" ? 1'000'000 : std::numeric_limits<std::int64_t>::max());
    if (!number) return reply(api_error(code::bad_request, name + " must be a positive whole number"));
    if (name == "deal") wanted.deal = static_cast<int>(*number);
    else wanted.from = *number;
  }
  lobby.history(table, wanted, answer_later(std::move(reply), nullptr, ""));
}

// GET /api/settle?tables=t1,t2 (absent: the viewer's tables of tonight).
void settle(Lobby& lobby, const std::string& viewer, std::map<std::string, std::string>& params, bool csv,
            ApiReply reply) {
  std::optional<std::vector<std::string>> tables;
  if (params.count("tables")) {
    tables.emplace();
    std::string_view list = params["tables"];
    while (!list.empty() || tables->empty()) {
      const auto comma = list.find(',');
      const std::string id(list.substr(0, comma));
      if (id.empty() || id.size() > 64)
        return reply(api_error(code::bad_request, "tables must be table ids (1 to 64 characters) separated by commas"));
      if (std::find(tables->begin(), tables->end(), id) == tables->end()) tables->push_back(id);
      if (comma == std::string_view::npos) break;
      list.remove_prefix(comma + 1);
      if (list.empty()) return reply(api_error(code::bad_request, "tables must not end with a comma"));
    }
  }
  lobby.settle(viewer, std::move(tables), answer_later(std::move(reply), csv ? settle_csv : nullptr, "settle-up.csv"));
}

// GET /api/players/NAME/ledger?limit=&before=
void ledger(Lobby& lobby, const std::string& viewer, const std::string& name,
            std::map<std::string, std::string>& params, bool csv, ApiReply reply) {
  std::optional<std::int64_t> limit = 50;
  std::optional<std::int64_t> before;
  if (params.count("limit")) limit = parse_whole_integer(params["limit"], 1, 500);
  if (!limit) return reply(api_error(code::bad_request, "limit must be a whole number from 1 to 500"));
  if (params.count("before")) {
    before = parse_whole_integer(params["before"], 1, std::numeric_limits<std::int64_t>::max());
    if (!before) return reply(api_error(code::bad_request, "before must be a positive whole number (an entry number)"));
  }
  lobby.ledger(viewer, name, static_cast<int>(*limit), before,
               answer_later(std::move(reply), csv ? ledger_csv : nullptr, safe_file_name(name) + "-ledger.csv"));
}

}  // namespace

void serve_api(Lobby& lobby, const ApiRequest& request, ApiReply reply) {
  // The wire's schema and the API's description are public: no token.
  if (const auto document = schema_document(request.path))
    return reply({200, std::string(document->content_type), std::string(document->body), ""});
  const std::string_view bearer = "Bearer ";
  const auto& auth = request.authorization;
  if (auth.size() <= bearer.size() || auth.compare(0, bearer.size(), bearer) != 0)
    return reply(api_error(code::unauthorized, "send Authorization: Bearer TOKEN"));
  const auto viewer = lobby.player_for_bearer(auth.substr(bearer.size()));
  if (!viewer) return reply(api_error(code::unauthorized, "unknown token"));
  if (auto table = between(request.path, "/api/tables/", "/history"))
    return history(lobby, *viewer, *table, request.query, std::move(reply));
  auto params = query_params(request.query);
  const std::string format = params.count("format") ? params["format"] : "json";
  if (format != "json" && format != "csv")
    return reply(api_error(code::bad_request, "format must be json or csv, got '" + format.substr(0, 40) + "'"));
  const bool csv = format == "csv";
  if (request.path == "/api/settle") return settle(lobby, *viewer, params, csv, std::move(reply));
  if (auto name = between(request.path, "/api/players/", "/ledger"))
    return ledger(lobby, *viewer, *name, params, csv, std::move(reply));
  reply(api_error(code::not_found, "no such endpoint: " + request.path.substr(0, 100)));
}

std::string url_decode(std::string_view in) {
  std::string out;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i] == '%' && i + 2 < in.size() && hex_value(in[i + 1]) >= 0 && hex_value(in[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hex_value(in[i + 1]) * 16 + hex_value(in[i + 2])));
      i += 2;
    } else {
      out.push_back(in[i] == '+' ? ' ' : in[i]);
    }
  }
  return out;
}

std::map<std::string, std::string> query_params(std::string_view query) {
  std::map<std::string, std::string> out;
  while (!query.empty()) {
    auto amp = query.find('&');
    auto pair = query.substr(0, amp);
    auto eq = pair.find('=');
    if (eq != std::string_view::npos) out[std::string(pair.substr(0, eq))] = url_decode(pair.substr(eq + 1));
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return out;
}

}  // namespace parlour::server
