#include "server/persistence/writer.h"

#include <spdlog/spdlog.h>

#include "server/common/metrics.h"

namespace parlour::server {

Writer::Writer(const std::string& where) : db_(storage::open_store(where)), thread_([this] { loop(); }) {}

Writer::~Writer() { stop(); }

void Writer::commit(storage::TableWrite write, Done done) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(Step{std::move(write), std::move(done)});
  }
  wake_.notify_one();
}

void Writer::run(Work work, WorkDone done) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(Job{std::move(work), std::move(done)});
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
  // On this thread, which is the store's from now on.
  db_->housekeep_in_background([](const std::string& what) { spdlog::error("storage: {}", what); });
  for (;;) {
    std::deque<Item> batch;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty() && stopping_) return;
      batch.swap(queue_);
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
      job.done(error);
    }
    commit_steps(steps);
  }
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
    steps[i].done(outcomes[i]);
  }
  steps.clear();
}

}  // namespace parlour::server
