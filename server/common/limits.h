// Per-key sliding-window limits (new names per address, tables created per
// player, chat lines per person across tables), written once. Thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace parlour::server {

// At most `most` events per key in any `window_ms`: the oldest event still in
// the window says when the next one may go. Times are milliseconds on any
// clock the caller keeps to (steady or wall), so tests can drive it.
class WindowLimit {
 public:
  WindowLimit(std::size_t most, std::int64_t window_ms) : most_(most), window_ms_(window_ms) {}

  // Counts an event of `key` at `now_ms` and returns nullopt if it is allowed;
  // otherwise counts nothing and returns how many ms until the next is allowed.
  std::optional<std::int64_t> take(const std::string& key, std::int64_t now_ms);

  std::size_t most() const { return most_; }
  std::int64_t window_ms() const { return window_ms_; }

 private:
  // Drops the keys whose every event left the window, so that the map holds
  // only keys seen lately (run when it has doubled since the last sweep).
  void sweep(std::int64_t now_ms);

  const std::size_t most_;
  const std::int64_t window_ms_;
  std::mutex mutex_;
  std::unordered_map<std::string, std::deque<std::int64_t>> times_;
  std::size_t swept_size_ = 0;
};

// Milliseconds on the steady clock, for WindowLimit outside a table.
std::int64_t steady_ms();

}  // namespace parlour::server
