// Identity changes made by other processes reach this server (README "Accounts
// and recovery"): a thread of its own, with its own connection, reads the
// store's identity change feed after the last row it saw about every 500 ms
// and hands each row another process wrote to `apply`. One query a poll,
// whatever the number of connections; the feed is read by sequence, so a poll
// costs what it returns, not the server's age.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "storage/store.h"

namespace parlour::server {

class IdentityFeed {
 public:
  using Apply = std::function<void(const storage::IdentityChange&)>;

  // Reads the store `where` names (a --db value) from the row after
  // `after_seq`; rows marked `origin` (this process's own) are passed over.
  IdentityFeed(std::string where, std::string origin, std::int64_t after_seq, Apply apply,
               std::chrono::milliseconds every = std::chrono::milliseconds(500));
  ~IdentityFeed();
  IdentityFeed(const IdentityFeed&) = delete;
  IdentityFeed& operator=(const IdentityFeed&) = delete;

  void stop();
  // The last row read (tests, logs).
  std::int64_t last_seen() const;

 private:
  void loop();
  // One poll: every row after the last seen, in pages.
  void poll(storage::Store& db);

  const std::string where_;
  const std::string origin_;
  const Apply apply_;
  const std::chrono::milliseconds every_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::int64_t last_seen_ = 0;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace parlour::server
