#include "storage/step_filer.h"

#include <algorithm>
#include <exception>
#include <iterator>
#include <utility>

#include <sys/resource.h>
#include <unistd.h>

namespace parlour::storage {

namespace {

// Leftovers are filed this many batches a transaction: a long log is filed
// without holding all of it in memory at once.
constexpr std::size_t kLeftoverBatchesAFiling = 256;

LoggedBatch decode_record(std::int64_t lsn, std::string_view payload) {
  LoggedBatch batch = decode_batch(payload);
  if (batch.lsn != lsn)
    throw StorageError("a step log record numbered " + std::to_string(lsn) + " holds batch " +
                       std::to_string(batch.lsn));
  return batch;
}

// Files `records` (by lsn) a chunk at a time; the refusals of all.
std::vector<RefusedStep> file_records(SqlStore& store, const std::vector<StepLog::Record>& records) {
  std::vector<RefusedStep> refused;
  for (std::size_t from = 0; from < records.size(); from += kLeftoverBatchesAFiling) {
    std::vector<LoggedBatch> batches;
    const std::size_t to = std::min(records.size(), from + kLeftoverBatchesAFiling);
    for (std::size_t i = from; i < to; ++i) batches.push_back(decode_record(records[i].lsn, records[i].payload));
    for (RefusedStep& step : store.file_steps(std::move(batches))) refused.push_back(std::move(step));
  }
  return refused;
}

std::string describe_refusal(const RefusedStep& step) {
  return "table " + step.table + ": the database refused " +
         (step.seq ? "step " + std::to_string(*step.seq) : std::string("a step")) +
         " when it was filed, and the table is stopped there: " + step.why;
}

// Files what `log` holds through `store` and empties it: the refusals, and
// the last lsn the log or the database had (what the next batch follows).
struct Leftovers {
  std::vector<RefusedStep> refused;
  std::int64_t last_lsn = 0;
};
Leftovers file_leftovers(StepLog& log, SqlStore& store) {
  const std::vector<StepLog::Record> records = log.records();
  Leftovers done{file_records(store, records), store.steps_filed_through()};
  if (!records.empty()) done.last_lsn = std::max(done.last_lsn, records.back().lsn);
  log.empty();
  return done;
}

}  // namespace

std::vector<RefusedStep> file_leftover_steps(const std::string& path, SqlStore& store) {
  if (!StepLog::has_records(path)) return {};
  const std::unique_ptr<StepLog> log = StepLog::open(path);
  if (!log) return {};  // its server is running, and files it
  return file_leftovers(*log, store).refused;
}

StepFiler::StepFiler(std::unique_ptr<StepLog> log, std::unique_ptr<SqlStore> filing, Store::Report report,
                     FilingLimits limits)
    : log_(std::move(log)), filing_(std::move(filing)), report_(std::move(report)), limits_(limits) {
  const Leftovers leftovers = file_leftovers(*log_, *filing_);
  for (const RefusedStep& step : leftovers.refused) report_(describe_refusal(step));
  next_lsn_ = leftovers.last_lsn + 1;
}

StepFiler::~StepFiler() { stop(); }

void StepFiler::start() {
  thread_ = std::thread([this] { loop(); });
}

void StepFiler::stop() {
  {
    std::lock_guard lock(wake_mutex_);
    if (stopping_ && !thread_.joinable()) return;
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
  try {
    catch_up();
  } catch (const std::exception& e) {
    // Left in the log, which the next process to open the file files.
    report_(std::string("filing the step log at the end: ") + e.what());
  }
}

void StepFiler::when_refused(Store::RefusedSteps hear) {
  std::lock_guard lock(hear_mutex_);
  hear_ = std::move(hear);
}

std::vector<CommitOutcome> StepFiler::append(const std::vector<TableWrite>& writes) {
  if (writes.empty()) return {};
  const std::string time = utc_now_iso8601();
  bool wake = false;
  bool quiet = false;
  {
    std::lock_guard lock(append_mutex_);
    const std::int64_t lsn = next_lsn_;
    std::string payload = encode_batch(lsn, time, writes);
    try {
      // Past its size, the file appends go to is left for the other (if that
      // one is empty), and emptied once filed through its last batch.
      if (log_->switch_files_past(limits_.switch_files_at)) other_file_through_ = lsn - 1;
      log_->append(lsn, payload);
    } catch (const StorageError& e) {
      return std::vector<CommitOutcome>(writes.size(), CommitOutcome::failure(e.what()));
    }
    ++next_lsn_;
    waiting_.push_back(Waiting{lsn, writes.size(), std::move(payload)});
    for (const TableWrite& write : writes) tables_waiting_.insert(write.table);
    const std::size_t waiting = steps_waiting_.fetch_add(writes.size()) + writes.size();
    wake = waiting >= limits_.file_at_steps && waiting - writes.size() < limits_.file_at_steps;
    const auto now = std::chrono::steady_clock::now();
    if (now - pace_since_ >= limits_.quiet_window) {
      // The window just ended counts too: a busy pace stays busy into the next.
      steps_before_ = now - pace_since_ < 2 * limits_.quiet_window ? steps_since_ : 0;
      pace_since_ = now;
      steps_since_ = 0;
    }
    steps_since_ += writes.size();
    quiet = steps_since_ <= limits_.quiet_steps && steps_before_ <= limits_.quiet_steps;
  }
  if (wake) wake_.notify_one();
  if (quiet) {
    try {
      catch_up();
    } catch (const std::exception& e) {
      // The steps are durable in the log; the thread files them when it can.
      report_(std::string("filing the step log (tried again shortly): ") + e.what());
    }
  }
  return std::vector<CommitOutcome>(writes.size());
}

void StepFiler::catch_up() {
  // Counts a filing under way until it has committed: a reader that finds
  // nothing waiting finds every step filed.
  if (steps_waiting_.load() == 0) return;
  std::int64_t through = 0;
  {
    std::lock_guard lock(append_mutex_);
    through = next_lsn_ - 1;
  }
  file_through(through);
}

void StepFiler::file_through(std::int64_t lsn) {
  std::lock_guard lock(file_mutex_);
  while (file_waiting(lsn)) {
  }
}

bool StepFiler::file_waiting(std::int64_t through) {
  std::deque<Waiting> taken;
  std::size_t steps = 0;
  std::size_t bytes = 0;
  {
    std::lock_guard lock(append_mutex_);
    while (!waiting_.empty() && waiting_.front().lsn <= through &&
           (taken.empty() || (steps + waiting_.front().steps <= limits_.most_steps_a_filing &&
                              bytes + waiting_.front().payload.size() <= limits_.most_bytes_a_filing))) {
      steps += waiting_.front().steps;
      bytes += waiting_.front().payload.size();
      taken.push_back(std::move(waiting_.front()));
      waiting_.pop_front();
    }
    if (taken.empty()) return false;
    tables_waiting_.clear();
  }
  std::vector<RefusedStep> refused;
  try {
    std::vector<LoggedBatch> batches;
    batches.reserve(taken.size());
    for (const Waiting& batch : taken) batches.push_back(decode_record(batch.lsn, batch.payload));
    refused = filing_->file_steps(std::move(batches));
  } catch (...) {
    // Filed again next time, before whatever came meanwhile.
    std::lock_guard lock(append_mutex_);
    waiting_.insert(waiting_.begin(), std::make_move_iterator(taken.begin()), std::make_move_iterator(taken.end()));
    throw;
  }
  {
    std::lock_guard lock(append_mutex_);
    steps_waiting_.fetch_sub(steps);
    try {
      if (waiting_.empty()) {
        log_->empty();
        other_file_through_ = 0;
      } else if (other_file_through_ != 0 && other_file_through_ <= taken.back().lsn) {
        log_->empty_other_file();
        other_file_through_ = 0;
      }
    } catch (const StorageError& e) {
      // Filed records left in a file are passed over when read again (their lsns are filed).
      report_(std::string("emptying the step log: ") + e.what());
    }
  }
  tell(refused);
  return true;
}

void StepFiler::tell(const std::vector<RefusedStep>& refused) {
  if (refused.empty()) return;
  Store::RefusedSteps hear;
  {
    std::lock_guard lock(hear_mutex_);
    hear = hear_;
  }
  for (const RefusedStep& step : refused) {
    report_(describe_refusal(step));
    if (hear) hear(step);
  }
}

bool StepFiler::worth_filing(std::chrono::steady_clock::duration since) {
  const std::size_t waiting = steps_waiting_.load();
  if (waiting >= limits_.file_at_steps || since >= limits_.longest_pause) return true;
  std::lock_guard lock(append_mutex_);
  return waiting >= limits_.steps_a_table * tables_waiting_.size();
}

void StepFiler::loop() {
  if (limits_.nice > 0) setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), limits_.nice);
  auto pause = limits_.file_every;
  auto last_filing = std::chrono::steady_clock::now();
  std::unique_lock lock(wake_mutex_);
  while (!stopping_) {
    wake_.wait_for(lock, pause, [&] { return stopping_ || steps_waiting_.load() >= limits_.file_at_steps; });
    if (stopping_) break;
    lock.unlock();
    try {
      const auto now = std::chrono::steady_clock::now();
      if (worth_filing(now - last_filing)) {
        last_filing = now;
        catch_up();
        pause = limits_.file_every;
      } else {
        // Many tables, few steps of each yet: look again shortly.
        pause = limits_.file_every / 4;
      }
    } catch (const std::exception& e) {
      // A full disk, say: the steps stay in the log and in memory, and are filed when it passes.
      report_(std::string("filing the step log (tried again shortly): ") + e.what());
      pause = std::min(pause * 2, std::chrono::milliseconds(5000));
    }
    lock.lock();
  }
}

}  // namespace parlour::storage
