// What both backends' migrations agree on: they are numbered 1, 2, 3... alike,
// with the same descriptions, so a database's schema_version means the same
// tables, columns and constraints in either.
#pragma once

#include <cstddef>

namespace parlour::storage {

inline constexpr int kLatestSchemaVersion = 15;

struct Migration {
  int version;
  const char* description;
  const char* sql;
};

// Versions must be 1, 2, 3... so that the latest is the count and "apply the
// missing ones" is "apply those above the database's version".
template <std::size_t N>
constexpr bool migrations_are_numbered_in_order(const Migration (&migrations)[N]) {
  for (std::size_t i = 0; i < N; ++i)
    if (migrations[i].version != static_cast<int>(i) + 1) return false;
  return N == static_cast<std::size_t>(kLatestSchemaVersion);
}

// The table both backends record their migrations in (the same SQL in either).
inline constexpr const char* kCreateSchemaVersion = R"sql(
CREATE TABLE IF NOT EXISTS schema_version (
  version      INTEGER PRIMARY KEY,
  description  TEXT NOT NULL,
  applied_at   TEXT NOT NULL
))sql";

}  // namespace parlour::storage
