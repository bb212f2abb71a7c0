// The one writer to the store. Table steps queued while a transaction runs are
// committed together in the next one (group commit), and each step's completion
// runs only after its transaction is durable, so nobody is told of an action that
// is not on disk. Completions run on the writer thread: post them to a strand.
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
  void commit_steps(std::vector<Step>& steps);

  std::unique_ptr<storage::Store> db_;
  AfterStep after_step_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Item> queue_;
  bool stopping_ = false;
  std::atomic<std::uint64_t> transactions_{0};
  std::thread thread_;
};

}  // namespace parlour::server
