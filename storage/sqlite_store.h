// The embedded backend: one SQLite file in WAL mode (readers on their own
// connections run while the one writer commits). The default store.
#pragma once

#include <memory>
#include <string>

#include "storage/store.h"

namespace parlour::storage {

class SqliteStore final : public Store {
 public:
  // Opens (creating the file and its folder if needed), sets WAL, and runs every
  // migration the file has not had yet.
  explicit SqliteStore(const std::string& path);
  // Same, but stops after migration `migrate_up_to` (0..latest_schema_version()),
  // so tests can build an old file and check that a later open upgrades it.
  SqliteStore(const std::string& path, int migrate_up_to);
  ~SqliteStore() override;

  int schema_version() override;
  std::string describe() const override;

  std::vector<Player> all_players() override;
  std::optional<Player> find_player(const std::string& name) override;
  std::optional<Player> find_player_by_token_hash(const std::string& token_hash) override;
  Player create_player(const std::string& name, const std::string& token_hash, std::int64_t starting_chips) override;

  std::int64_t balance(const std::string& account) override;
  std::vector<std::pair<std::string, std::int64_t>> balances(const std::string& prefix) override;
  std::vector<LedgerEntry> ledger(const std::string& account, int limit, std::optional<std::int64_t> before) override;
  std::int64_t total_of_all_accounts() override;
  std::vector<TableNet> table_nets(const std::string& table) override;

  void create_table(const TableRecord& table) override;
  void create_table(const TableRecord& table, const std::vector<TableWrite>& steps) override;
  std::optional<TableRecord> find_table(const std::string& id) override;
  std::vector<TableRecord> tables_with_status(const std::string& status) override;
  std::vector<TableRecord> tables_hosted_since(const std::string& host, const std::string& since, int limit) override;
  using Store::events;
  std::vector<Event> events_after(const std::string& table, std::int64_t after_seq) override;
  std::vector<std::string> results(const std::string& table) override;

  std::vector<bool> commit(const std::vector<TableWrite>& writes, std::vector<std::string>* errors = nullptr) override;

 private:
  std::optional<Player> find_player_where(const char* sql, const std::string& key, const std::string& what);

  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace parlour::storage
