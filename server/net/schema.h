// The wire's JSON Schema and the HTTP API's OpenAPI description
// (protocol/schema/parlour.schema.json and openapi.json), served at GET /api/schema
// and GET /api/openapi.json. The build embeds the files (protocol/schema/embed.cmake
// writes schema_documents.cpp), so an installed server needs no source tree.
#pragma once

#include <optional>
#include <string_view>

namespace parlour::server {

struct SchemaDocument {
  std::string_view content_type;
  std::string_view body;
};

std::string_view schema_json();
std::string_view openapi_json();

// The document a path names ("/api/schema", "/api/openapi.json"), or nullopt.
std::optional<SchemaDocument> schema_document(std::string_view path);

}  // namespace parlour::server
