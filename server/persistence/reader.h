// Reads from the store off the I/O threads: ledger pages and finished tables are
// read here, on one thread with its own connection (SQLite's WAL, or PostgreSQL,
// lets it read while the writer commits), and the answer is handed to a completion.
//
// Each client has its own queue and the thread takes one read from each in
// turn, so one client's flood of history requests never stands before another
// client's ledger read (issue 25 item 4). The queues are bounded: beyond
// max_per_client reads waiting for one client, or max_queued in all, run()
// refuses and the caller answers rate_limited at once.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "storage/store.h"

namespace parlour::server {

class Reader {
 public:
  using Work = std::function<void(storage::Store&)>;
  enum class Admission { queued, client_full, server_full };

  // `where` is a --db value (storage::open_store).
  Reader(const std::string& where, std::size_t max_queued = 10'000, std::size_t max_per_client = 8);
  ~Reader();
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  // Queues `work` for `client` (a person's account; "" for the server's own
  // reads, bounded by max_queued alone); nothing is queued unless `queued`.
  // `work` runs on the reader's thread; an exception it throws is logged and
  // dropped, so `work` must answer its requester itself, also on failure.
  Admission run_for(const std::string& client, Work work);
  // The server's own read: run_for("").
  bool run(Work work) { return run_for("", std::move(work)) == Admission::queued; }
  std::size_t max_per_client() const { return max_per_client_; }
  void stop();

 private:
  void loop();
  bool next(Work& work);

  std::unique_ptr<storage::Store> db_;
  const std::size_t max_queued_;
  const std::size_t max_per_client_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::map<std::string, std::deque<Work>> queues_;  // only clients with reads waiting
  std::deque<std::string> turns_;                   // those clients, whose read comes next first
  std::size_t queued_ = 0;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace parlour::server
