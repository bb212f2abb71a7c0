// What both backends' migrations agree on: they are numbered 1, 2, 3... alike,
// with the same descriptions, so a database's schema_version means the same
// tables, columns and constraints in either.
#pragma once

namespace parlour::storage {

inline constexpr int kLatestSchemaVersion = 7;

}  // namespace parlour::storage
