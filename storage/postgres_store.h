// The shared backend: a PostgreSQL database reached by a libpq connection URI
// (postgresql://user@host:port/dbname), through libpqxx. Each PostgresStore is
// one connection with its statements prepared on it; several processes and
// threads may use the same database at once.
#pragma once

#include <string>

#include "storage/sql_store.h"

namespace parlour::storage {

class PostgresStore final : public SqlStore {
 public:
  // Connects and runs the migrations the database has not had yet, up to
  // `migrate_up_to` (0..latest_schema_version(); tests build old databases with
  // a lower one), under an advisory lock, so that nodes starting together
  // apply each one once.
  explicit PostgresStore(const std::string& url, int migrate_up_to = latest_schema_version());
};

}  // namespace parlour::storage
