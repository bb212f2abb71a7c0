#include "server/common/limits.h"

#include <chrono>

namespace parlour::server {

std::optional<std::int64_t> WindowLimit::take(const std::string& key, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  auto& times = times_[key];
  while (!times.empty() && times.front() <= now_ms - window_ms_) times.pop_front();
  if (times.size() >= most_) return times.front() + window_ms_ - now_ms;
  times.push_back(now_ms);
  if (times_.size() > 2 * swept_size_ + 64) sweep(now_ms);
  return std::nullopt;
}

void WindowLimit::sweep(std::int64_t now_ms) {
  for (auto it = times_.begin(); it != times_.end();) {
    if (it->second.empty() || it->second.back() <= now_ms - window_ms_) it = times_.erase(it);
    else ++it;
  }
  swept_size_ = times_.size();
}

std::int64_t steady_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace parlour::server
