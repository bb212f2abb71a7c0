// The one writer to the store. Table steps queued while a transaction runs are
// committed together in the next one (group commit), and each step's completion
// runs only after its transaction is durable, so nobody is told of an action that
// is not on disk. Completions run on whichever thread committed (the writer's, or
// an I/O thread's: gather_steps_with): post them to a strand.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <variant>

#include "storage/store.h"

namespace parlour::server {

class Writer {
 public:
  using Done = std::function<void(const storage::CommitOutcome& outcome)>;
  using Work = std::function<void(storage::Store&)>;
  using WorkDone = std::function<void(std::exception_ptr)>;

  // `where` is a --db value (storage::open_store).
  explicit Writer(const std::string& where);
  ~Writer();

  // A table step; `done` learns what became of it.
  void commit(storage::TableWrite write, Done done);
  // Any other write (registering a player, creating a table), run in its own
  // transaction in queue order.
  void run(Work work, WorkDone done);
  // Runs on the writer's thread after each table step's transaction, before the
  // step's `done`: what must see "committed" exactly as the database does
  // (several nodes: LiveBalances::settled). Set before the first commit.
  using AfterStep =
      std::function<void(storage::Store&, const storage::TableWrite&, const storage::CommitOutcome& outcome)>;
  void after_each_step(AfterStep hook) { after_step_ = std::move(hook); }
  // Who hears of a step that a SQLite file's step log made durable and the
  // database refused when it was filed (storage::RefusedStep), on the filing
  // thread. Null to stop hearing.
  void when_steps_are_refused(storage::Store::RefusedSteps hear) { db_->when_steps_are_refused(std::move(hear)); }
  // Group commit by the I/O loop's bursts: a step's write waits until the I/O
  // loop has run every handler that was ready with it (`later` queues a flush
  // behind them), so actions that arrived together share one transaction.
  // On a SQLite file the flush commits right there, on the I/O thread: a local
  // commit is one append to the file's step log (storage/step_filer.h), and
  // handing each burst to the writer thread and its answers back cost two
  // thread switches (on a loaded core, more than the commit). A database
  // server's round trips would stall the loop, so on PostgreSQL the flush
  // wakes the writer thread instead. Other writes (`run`)
  // always go to the writer thread. Without it, each step wakes the writer
  // thread at once. Set before the first commit; `later` may be called from any thread.
  using Later = std::function<void(std::function<void()>)>;
  void gather_steps_with(Later later);
  // Finishes what is queued, then stops the thread.
  void stop();

  std::uint64_t transactions() const { return transactions_; }

  // How long a batch is retried while the database server is unreachable.
  static constexpr std::chrono::seconds reconnect_for{30};

 private:
  struct Step {
    storage::TableWrite write;
    Done done;
  };
  struct Job {
    Work work;
    WorkDone done;
  };
  using Item = std::variant<Step, Job>;

  void loop();
  void flush();
  // Writes what is queued, in queue order, holding the store; `ends_flush`:
  // called by the burst's flush, which a step queued from now on must ask again.
  void write_queued(bool ends_flush);
  void commit_steps(std::vector<Step>& steps);

  std::unique_ptr<storage::Store> db_;
  const bool local_store_;  // a SQLite file: a burst's flush commits in place
  std::mutex store_mutex_;  // whoever writes: the writer thread, or an I/O thread's flush
  AfterStep after_step_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Item> queue_;
  bool stopping_ = false;
  Later later_;
  bool flush_queued_ = false;  // behind the I/O loop's ready handlers
  std::size_t jobs_waiting_ = 0;
  std::atomic<std::uint64_t> transactions_{0};
  std::thread thread_;
};

}  // namespace parlour::server
