// The filer of a SQLite file's step log (storage/step_log.h). The server's
// writer store (SqliteStore::housekeep_in_background) makes each batch of
// table steps durable by one append to the log, and this files the batches
// into the database's tables on a thread and a connection of its own, every
// `file_every` or later with many tables (FilingLimits), hundreds of steps a
// transaction. Every other connection of this process to the file asks it to
// catch up before it reads (FilingPoint), so that nobody reads the tables
// without the steps committed before; another process reads what is filed:
// at a quiet pace (FilingLimits::quiet_steps) every step, each batch being
// filed before its commit returns, and under load at most about `file_every`
// behind. A process that opens the file while no
// filer holds its log files what the log still has (a server that crashed).
//
// The database's checks run at filing. A step they refuse is not filed, its
// table is marked failed and stopped there (SqlStore::file_steps), and the
// store's when_steps_are_refused hears of it.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include "storage/sql_store.h"
#include "storage/step_log.h"

namespace parlour::storage {

class StepFiler final : public Filer, public std::enable_shared_from_this<StepFiler> {
 public:
  // Files what `log` holds first (a crash's leftovers), through `filing`, a
  // connection to the log's database that does not catch up by itself.
  // `report` hears what failed on the filing thread (it is retried).
  StepFiler(std::unique_ptr<StepLog> log, std::unique_ptr<SqlStore> filing, Store::Report report,
            FilingLimits limits = {});
  ~StepFiler();
  StepFiler(const StepFiler&) = delete;
  StepFiler& operator=(const StepFiler&) = delete;

  void start();
  // Stops the thread and files what is left: after a clean stop the log is empty.
  void stop();

  // One record for the batch, at this moment's time; every outcome committed,
  // or every one failed when the append failed. At a quiet pace (quiet_steps)
  // the batch is filed too before this returns.
  std::vector<CommitOutcome> append(const std::vector<TableWrite>& writes);
  // Files every batch appended before the call (waiting for a filing under
  // way); StorageError when the filing fails.
  void catch_up() override;
  // Files every batch up to `lsn` (those appended are numbered from the last
  // one filed, 1 on a new file).
  void file_through(std::int64_t lsn);
  void when_refused(Store::RefusedSteps hear);

  std::size_t steps_waiting() const { return steps_waiting_.load(); }

 private:
  struct Waiting {
    std::int64_t lsn = 0;
    std::size_t steps = 0;
    std::string payload;
  };
  void loop();
  // Whether the thread files now, `since` the last filing began (FilingLimits).
  bool worth_filing(std::chrono::steady_clock::duration since);
  // Under file_mutex_: files the oldest waiting batches up to `through`, as
  // many as one filing takes; false when none were left.
  bool file_waiting(std::int64_t through);
  void tell(const std::vector<RefusedStep>& refused);

  std::unique_ptr<StepLog> log_;
  std::unique_ptr<SqlStore> filing_;
  const Store::Report report_;
  const FilingLimits limits_;

  std::mutex append_mutex_;  // log_'s appends and files, waiting_, next_lsn_, other_file_through_
  std::deque<Waiting> waiting_;
  std::int64_t next_lsn_ = 1;
  // The last lsn in the file appends left when they moved to the other: it is
  // emptied once that one is filed (0: it is empty, or all in it is filed).
  std::int64_t other_file_through_ = 0;
  std::chrono::steady_clock::time_point pace_since_{};  // the pace is counted from here, file_every at a time
  std::size_t steps_since_ = 0;
  std::size_t steps_before_ = 0;  // in the window before, when it ended just now
  // Appended and not yet filed, those of a filing under way included.
  std::atomic<std::size_t> steps_waiting_{0};
  // The tables appended to since the last filing began.
  std::unordered_set<std::string> tables_waiting_;

  std::mutex file_mutex_;  // filing_, one filing at a time

  std::mutex hear_mutex_;
  Store::RefusedSteps hear_;

  std::mutex wake_mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

// Files what the log of the database at `path` still holds through `store`,
// a connection to it, if no process holds the log (a server that stopped
// without filing it); empties the log. Returns the steps refused (their tables
// marked failed), or nothing when the log was held or empty.
std::vector<RefusedStep> file_leftover_steps(const std::string& path, SqlStore& store);

}  // namespace parlour::storage
