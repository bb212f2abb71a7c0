// GET /api/schema and /api/openapi.json (docs/protocol.md "Schema"): served without a
// token, from the copies the build embedded, which are the repository's files.
#include <doctest/doctest.h>

#include <fstream>
#include <functional>
#include <sstream>

#include "tests/integration/server_process.h"

using parlour::test::Json;
using parlour::test::ServerProcess;

namespace {

std::string source_file(const std::string& relative) {
  std::ifstream in(std::string(PARLOUR_SOURCE_DIR) + "/" + relative, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot read " << relative);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Every "$ref" in `value`, wherever it is.
void collect_refs(const Json& value, std::vector<std::string>& refs) {
  if (value.is_object()) {
    for (const auto& [key, item] : value.items()) {
      if (key == "$ref" && item.is_string()) refs.push_back(item.get<std::string>());
      else collect_refs(item, refs);
    }
  } else if (value.is_array()) {
    for (const auto& item : value) collect_refs(item, refs);
  }
}

}  // namespace

TEST_CASE("GET /api/schema serves the wire's JSON Schema, the repository's file, without a token") {
  ServerProcess server(ServerProcess::fresh_db("schema-route"));
  std::string content_type;
  const auto [status, body] = server.get("/api/schema", "", &content_type);
  CHECK(status == 200);
  CHECK(content_type == "application/schema+json");
  // The build embeds the file: a stale copy (the file changed, the binary not rebuilt) fails here.
  CHECK(body == source_file("protocol/schema/parlour.schema.json"));
  const Json schema = Json::parse(body);
  CHECK(schema["$schema"] == "https://json-schema.org/draft/2020-12/schema");
  for (const char* name : {"c_hello", "c_act", "s_welcome", "s_error", "state", "state_whole", "view_red_dog",
                           "legal_rummy", "result_russian_bank", "http_ledger"}) {
    CAPTURE(name);
    CHECK(schema["$defs"].contains(name));
  }
  // A wrong token and a query change nothing: the document is public.
  CHECK(server.get("/api/schema?x=1", "not-a-token").first == 200);
}

TEST_CASE("GET /api/openapi.json describes the HTTP API with bodies from the schema's $defs") {
  ServerProcess server(ServerProcess::fresh_db("schema-openapi"));
  std::string content_type;
  const auto [status, body] = server.get("/api/openapi.json", "", &content_type);
  CHECK(status == 200);
  CHECK(content_type == "application/json");
  CHECK(body == source_file("protocol/schema/openapi.json"));
  const Json openapi = Json::parse(body);
  CHECK(openapi["openapi"] == "3.1.0");
  for (const char* path : {"/api/players/{name}/ledger", "/api/settle", "/api/tables/{table}/history", "/api/schema"}) {
    CAPTURE(path);
    CHECK(openapi["paths"].contains(path));
  }
  const Json schema = Json::parse(server.get("/api/schema").second);
  std::vector<std::string> refs;
  collect_refs(openapi, refs);
  CHECK(refs.size() > 5);
  const std::string prefix = "/api/schema#/$defs/";
  for (const auto& ref : refs) {
    CAPTURE(ref);
    REQUIRE(ref.rfind(prefix, 0) == 0);
    CHECK(schema["$defs"].contains(ref.substr(prefix.size())));
  }
}
