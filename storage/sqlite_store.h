// The embedded backend: one SQLite file in WAL mode (readers on their own
// connections run while the one writer commits). The default store.
#pragma once

#include <string>

#include "storage/sql_store.h"

namespace parlour::storage {

class SqliteStore final : public SqlStore {
 public:
  // Opens (creating the file and its folder if needed), sets WAL, and runs the
  // migrations the file has not had yet, up to `migrate_up_to`
  // (0..latest_schema_version(); tests build old files with a lower one).
  explicit SqliteStore(const std::string& path, int migrate_up_to = latest_schema_version());
};

}  // namespace parlour::storage
