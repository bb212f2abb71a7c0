// Every live WebSocket of the front, for the drain (server/net/drain.h): told
// to reconnect when it begins. Sessions come and go under a lock (once a
// connection, never per frame); whether the drain has begun is an atomic.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace parlour::server {

class Restartable {
 public:
  virtual ~Restartable() = default;
  virtual void close_for_restart() = 0;
};

class LiveSockets {
 public:
  void add(const void* key, std::weak_ptr<Restartable> session) {
    std::lock_guard lock(mutex_);
    sessions_.emplace(key, std::move(session));
  }
  void remove(const void* key) {
    std::lock_guard lock(mutex_);
    sessions_.erase(key);
  }
  // From now on a session sees draining() when its handshake ends.
  void stop_taking() { draining_ = true; }
  // Tells every session to close; returns how many.
  std::size_t say_goodbye() {
    std::vector<std::shared_ptr<Restartable>> told;
    {
      std::lock_guard lock(mutex_);
      draining_ = true;
      for (const auto& [key, weak] : sessions_)
        if (auto session = weak.lock()) told.push_back(std::move(session));
    }
    for (const auto& session : told) session->close_for_restart();
    return told.size();
  }
  bool draining() const { return draining_.load(); }

 private:
  std::mutex mutex_;
  std::unordered_map<const void*, std::weak_ptr<Restartable>> sessions_;
  std::atomic<bool> draining_{false};
};

// How long a client told to reconnect has to answer the close before it is cut.
inline constexpr auto drain_close_timeout = std::chrono::seconds(2);

}  // namespace parlour::server
