#include "server/persistence/writer.h"

#include <utility>

#include <spdlog/spdlog.h>

#include "server/common/metrics.h"
#include "storage/sqlite_store.h"

namespace parlour::server {

namespace {

// A completion that throws is logged and the batch goes on: on an I/O thread
// (a flush) the exception would otherwise leave the rest of the batch
// unwritten and unanswered, its tables waiting for ever.
template <typename Completion, typename... Args>
void tell(const Completion& done, const char* what, const Args&... args) {
  try {
    done(args...);
  } catch (const std::exception& e) {
    spdlog::error("storage: the completion of {} failed: {}", what, e.what());
  }
}

}  // namespace

Writer::Writer(const std::string& where)
    : db_(storage::open_store(where)),
      local_store_(dynamic_cast<const storage::SqliteStore*>(db_.get()) != nullptr),
      thread_([this] { loop(); }) {}

Writer::~Writer() { stop(); }

void Writer::gather_steps_with(Later later) {
  std::lock_guard lock(mutex_);
  later_ = std::move(later);
}

void Writer::commit(storage::TableWrite write, Done done) {
  bool queue_flush = false;
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(Step{std::move(write), std::move(done)});
    if (later_) {
      queue_flush = !std::exchange(flush_queued_, true);
      if (!queue_flush) return;  // the burst's flush, already queued, takes this step too
    }
  }
  if (queue_flush) return later_([this] { flush(); });
  wake_.notify_one();
}

void Writer::flush() {
  if (local_store_) return write_queued(true);
  {
    std::lock_guard lock(mutex_);
    flush_queued_ = false;
  }
  wake_.notify_one();
}

void Writer::run(Work work, WorkDone done) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(Job{std::move(work), std::move(done)});
    ++jobs_waiting_;
  }
  wake_.notify_one();
}

void Writer::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ && !thread_.joinable()) return;
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void Writer::loop() {
  {
    // On this thread, which is the store's from now on (but for the flushes
    // of gather_steps_with on a SQLite file, which hold the store as it does).
    std::lock_guard store(store_mutex_);
    try {
      db_->housekeep_in_background([](const std::string& what) { spdlog::error("storage: {}", what); });
    } catch (const std::exception& e) {
      // The steps are then committed straight into the tables, as without a log.
      spdlog::error("storage: {}; table steps are committed without the step log", e.what());
    }
  }
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      // Steps wait for their burst's flush when there is one; a job, or a
      // stop, takes what is queued at once.
      wake_.wait(lock, [&] {
        const bool steps_for_this_thread = !queue_.empty() && !flush_queued_ && !(later_ && local_store_);
        return stopping_ || jobs_waiting_ > 0 || steps_for_this_thread;
      });
      if (queue_.empty() && stopping_) return;
    }
    write_queued(false);
  }
}

void Writer::write_queued(bool ends_flush) {
  // A flush that waits here for the commit before it stays queued meanwhile,
  // so the steps that arrive take it too: one thread waits, not one a step.
  std::lock_guard store(store_mutex_);
  std::deque<Item> batch;
  {
    std::lock_guard lock(mutex_);
    if (ends_flush) flush_queued_ = false;
    batch.swap(queue_);
    jobs_waiting_ = 0;
  }
  // Consecutive table steps share a transaction; other jobs keep their place.
  std::vector<Step> steps;
  for (auto& item : batch) {
    if (auto* step = std::get_if<Step>(&item)) {
      steps.push_back(std::move(*step));
      continue;
    }
    commit_steps(steps);
    auto& job = std::get<Job>(item);
    std::exception_ptr error;
    try {
      job.work(*db_);
      ++transactions_;
    } catch (...) {
      error = std::current_exception();
    }
    tell(job.done, "a write", error);
  }
  commit_steps(steps);
}

void Writer::commit_steps(std::vector<Step>& steps) {
  if (steps.empty()) return;
  std::vector<storage::TableWrite> writes;
  writes.reserve(steps.size());
  for (auto& step : steps) writes.push_back(std::move(step.write));
  // A hook may read the database; that needs no write to be in flight.
  std::vector<storage::CommitOutcome> outcomes;
  // A database server that restarts is waited for: the batch is written again
  // once it is back. Never twice: a batch whose commit was in doubt and did
  // happen finds its events' seqs taken, and those steps fail and are rebuilt
  // from what the database holds.
  auto wait = std::chrono::milliseconds(100);
  const auto give_up = std::chrono::steady_clock::now() + reconnect_for;
  for (;;) {
    try {
      const auto began = std::chrono::steady_clock::now();
      outcomes = db_->commit(writes);
      ++transactions_;
      // /metrics: the transaction that made the batch durable, and its size.
      auto& measured = metrics::registry();
      measured.commit_seconds.observe(metrics::nanoseconds(std::chrono::steady_clock::now() - began));
      measured.commit_batch_steps.observe(writes.size());
      break;
    } catch (const storage::ConnectionLost& e) {
      if (std::chrono::steady_clock::now() + wait > give_up) {
        spdlog::error("storage: a batch of {} table steps failed: {}", writes.size(), e.what());
        outcomes.assign(writes.size(), storage::CommitOutcome::failure(e.what()));
        break;
      }
      spdlog::warn("storage: the database connection is lost ({}); writing the batch again in {} ms", e.what(),
                   wait.count());
      std::this_thread::sleep_for(wait);
      wait = std::min(wait * 2, std::chrono::milliseconds(2000));
    } catch (const std::exception& e) {
      spdlog::error("storage: a batch of {} table steps failed: {}", writes.size(), e.what());
      outcomes.assign(writes.size(), storage::CommitOutcome::failure(e.what()));
      break;
    }
  }
  spdlog::debug("storage: committed {} table steps in one transaction", writes.size());
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (after_step_) {
      try {
        after_step_(*db_, writes[i], outcomes[i]);
      } catch (const std::exception& e) {
        spdlog::error("storage: after a step of table {}: {}", writes[i].table, e.what());
      }
    }
    tell(steps[i].done, "a table step", outcomes[i]);
  }
  steps.clear();
}

}  // namespace parlour::server
