#include "server/net/schema.h"

namespace parlour::server {

std::optional<SchemaDocument> schema_document(std::string_view path) {
  if (path == "/api/schema") return SchemaDocument{"application/schema+json", schema_json()};
  if (path == "/api/openapi.json") return SchemaDocument{"application/json", openapi_json()};
  return std::nullopt;
}

}  // namespace parlour::server
