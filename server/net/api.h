// The HTTP API (/api/…, docs/protocol.md): its routes, parameters and answers,
// apart from the Beast session that reads and writes the bytes (as Beast's
// advanced server keeps its request handler apart from its sessions). A route
// answers through `reply`, at once or later from another thread (the lobby's
// reader); the session turns the answer into an HTTP response on its own strand.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace parlour::server {

class Lobby;

struct ApiRequest {
  std::string path;           // "/api/…", undecoded
  std::string query;          // after the '?', undecoded
  std::string authorization;  // the Authorization header
};

struct ApiResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::string attachment;  // a file name: sent as a download (CSV)
};

using ApiReply = std::function<void(ApiResponse)>;

// Serves GET /api/tables/ID/history, /api/settle and /api/players/NAME/ledger
// with a bearer token, and /api/schema and /api/openapi.json without one;
// `reply` is called exactly once.
void serve_api(Lobby& lobby, const ApiRequest& request, ApiReply reply);

// URL pieces, shared with the session's static files.
std::string url_decode(std::string_view in);
std::map<std::string, std::string> query_params(std::string_view query);

}  // namespace parlour::server
