// The shared backend: a PostgreSQL database reached by a libpq connection URI
// (postgresql://user@host:port/dbname), through libpqxx. Each PostgresStore is
// one connection with its statements prepared on it; several processes and
// threads may use the same database at once.
#pragma once

#include <memory>
#include <string>

#include "storage/store.h"

namespace parlour::storage {

class PostgresStore final : public Store {
 public:
  // Connects and runs every migration the database has not had yet (under an
  // advisory lock, so that nodes starting together apply each one once).
  explicit PostgresStore(const std::string& url);
  // Same, but stops after migration `migrate_up_to` (0..latest_schema_version()),
  // so tests can build an old database and check that a later open upgrades it.
  PostgresStore(const std::string& url, int migrate_up_to);
  ~PostgresStore() override;

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
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace parlour::storage
