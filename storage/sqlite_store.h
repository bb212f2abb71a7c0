// The embedded backend: one SQLite file in WAL mode (readers on their own
// connections run while the one writer commits). The default store.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "storage/sql_store.h"
#include "storage/step_log.h"

namespace parlour::storage {

class StepFiler;

class SqliteStore final : public SqlStore {
 public:
  // Opens (creating the file and its folder if needed), sets WAL, and runs the
  // migrations the file has not had yet, up to `migrate_up_to`
  // (0..latest_schema_version(); tests build old files with a lower one).
  // Then files what the file's step log still holds, unless another store
  // holds the log (storage/step_filer.h).
  explicit SqliteStore(const std::string& path, int migrate_up_to = latest_schema_version());
  ~SqliteStore() override;

  // The server's writer: besides the WAL's checkpoints, this store takes the
  // file's step log, and its table steps are logged and filed behind
  // (storage/step_filer.h). When another process holds the log (or it cannot
  // be opened), `report` says so and steps are committed as they come.
  void housekeep_in_background(Report report, WalLimits limits = {}) override;
  // When the step log is filed (tests); set before housekeep_in_background.
  void file_steps_with(FilingLimits limits) { filing_limits_ = limits; }
  void when_steps_are_refused(RefusedSteps hear) override;
  std::vector<CommitOutcome> commit(const std::vector<TableWrite>& writes) override;

 private:
  struct ForFiling {};
  // The filer's own connection, which does not ask the filer to catch up.
  SqliteStore(const std::string& path, ForFiling);

  const std::string path_;
  std::mutex filer_mutex_;  // filer_ and hear_ while they are set
  RefusedSteps hear_;
  FilingLimits filing_limits_;
  std::shared_ptr<StepFiler> filer_;
};

}  // namespace parlour::storage
