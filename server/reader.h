// Reads from the store off the I/O threads: ledger pages and finished tables are
// read here, on one thread with its own connection (SQLite's WAL, or PostgreSQL,
// lets it read while the writer commits), and the answer is handed to a completion. The queue is
// bounded: when it is full, run() refuses and the caller answers "busy".
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "storage/store.h"

namespace parlour::server {

class Reader {
 public:
  using Work = std::function<void(storage::Store&)>;

  // `where` is a --db value (storage::open_store).
  Reader(const std::string& where, std::size_t max_queued = 10'000);
  ~Reader();
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  // Queues `work`; false (and nothing queued) when the queue is full. `work`
  // runs on the reader's thread; an exception it throws is logged and dropped,
  // so `work` must answer its requester itself, also on failure.
  bool run(Work work);
  void stop();

 private:
  void loop();

  std::unique_ptr<storage::Store> db_;
  const std::size_t max_queued_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Work> queue_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace parlour::server
