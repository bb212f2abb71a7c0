#include "server/table/lazy_timer.h"

#include <boost/asio/post.hpp>

namespace parlour::server {

void LazyTimer::set(std::chrono::milliseconds after, std::shared_ptr<void> keep, std::function<void()> ring) {
  ring_ = std::move(ring);
  due_ = Clock::now() + after;
  if (after.count() <= 0) return ring_now(std::move(keep));
  if (waiting_until_ && *waiting_until_ <= *due_) return;  // it wakes first, and waits on
  wait_until_due(std::move(keep));
}

void LazyTimer::clear() {
  due_.reset();
  ring_ = nullptr;
  if (std::exchange(waiting_until_, std::nullopt)) timer_.cancel();
}

void LazyTimer::wait_until_due(std::shared_ptr<void> keep) {
  waiting_until_ = due_;
  const auto wait = ++waits_;
  timer_.expires_at(*due_);  // a wait armed for later is cancelled
  timer_.async_wait([this, wait, keep = std::move(keep)](const boost::system::error_code& ec) mutable {
    if (!ec) woke(wait, std::move(keep));
  });
}

void LazyTimer::woke(std::uint64_t wait, std::shared_ptr<void> keep) {
  if (wait != waits_) return;  // rang just as a later set replaced it
  waiting_until_.reset();
  if (!due_) return;
  if (Clock::now() < *due_) return wait_until_due(std::move(keep));
  due_.reset();
  if (auto ring = std::exchange(ring_, nullptr)) ring();
}

// A post, numbered like a wait: a set or clear before it runs makes it ring nothing.
void LazyTimer::ring_now(std::shared_ptr<void> keep) {
  const auto post = ++waits_;
  if (std::exchange(waiting_until_, std::nullopt)) timer_.cancel();
  boost::asio::post(timer_.get_executor(), [this, post, keep = std::move(keep)] {
    if (post != waits_ || !due_) return;
    due_.reset();
    if (auto ring = std::exchange(ring_, nullptr)) ring();
  });
}

}  // namespace parlour::server
