// What both backends share: account names, the time format, and the choice of
// backend from a --db value.
#include "storage/store.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "storage/postgres_store.h"
#include "storage/schema.h"
#include "storage/sqlite_store.h"

namespace parlour::storage {

std::string bank_account() { return "bank"; }

std::string player_account(const std::string& name) {
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return "player:" + lower;
}

std::string pool_account(const std::string& table, const std::string& pool) {
  return "pool:" + table + ":" + pool;
}

bool is_pool_account(const std::string& account) { return account.starts_with("pool:"); }

std::string utc_iso8601(std::chrono::system_clock::time_point when) {
  using namespace std::chrono;
  const auto now = floor<milliseconds>(when);
  const auto today = floor<days>(now);
  const year_month_day date{today};
  const hh_mm_ss time_of_day{now - today};
  char text[40];
  std::snprintf(text, sizeof text, "%04d-%02u-%02uT%02d:%02d:%02d.%03dZ", static_cast<int>(date.year()),
                static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()),
                static_cast<int>(time_of_day.hours().count()), static_cast<int>(time_of_day.minutes().count()),
                static_cast<int>(time_of_day.seconds().count()),
                static_cast<int>(time_of_day.subseconds().count()));
  return text;
}

const char* name_of(CommitOutcome::Kind kind) {
  switch (kind) {
    case CommitOutcome::Kind::committed: return "committed";
    case CommitOutcome::Kind::fenced: return "fenced";
    case CommitOutcome::Kind::lacked_chips: return "lacked_chips";
    case CommitOutcome::Kind::failed: return "failed";
  }
  return "unknown";
}

int Store::latest_schema_version() { return kLatestSchemaVersion; }

bool is_postgres_url(const std::string& where) {
  return where.rfind("postgresql://", 0) == 0 || where.rfind("postgres://", 0) == 0;
}

std::unique_ptr<Store> open_store(const std::string& where) {
  if (where.empty()) throw StorageError("no database given: expected a SQLite file path or a postgresql:// URI");
  if (is_postgres_url(where)) return std::make_unique<PostgresStore>(where);
  return std::make_unique<SqliteStore>(where);
}

}  // namespace parlour::storage
