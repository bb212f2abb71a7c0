#include "server/lobby/identity_feed.h"

#include <spdlog/spdlog.h>

namespace parlour::server {

namespace {
constexpr int rows_per_read = 500;
}

IdentityFeed::IdentityFeed(std::string where, std::string origin, std::int64_t after_seq, Apply apply,
                           std::chrono::milliseconds every)
    : where_(std::move(where)), origin_(std::move(origin)), apply_(std::move(apply)), every_(every),
      last_seen_(after_seq), thread_([this] { loop(); }) {}

IdentityFeed::~IdentityFeed() { stop(); }

void IdentityFeed::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::int64_t IdentityFeed::last_seen() const {
  std::lock_guard lock(mutex_);
  return last_seen_;
}

void IdentityFeed::loop() {
  std::unique_ptr<storage::Store> db;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      if (wake_.wait_for(lock, every_, [this] { return stopping_; })) return;
    }
    try {
      if (!db) db = storage::open_store(where_);
      poll(*db);
    } catch (const std::exception& e) {
      // Read again from the same row at the next poll, on a new connection.
      spdlog::error("reading the identity changes failed (tried again in {} ms): {}", every_.count(), e.what());
      db.reset();
    }
  }
}

void IdentityFeed::poll(storage::Store& db) {
  for (;;) {
    const auto changes = db.identity_changes_after(last_seen(), rows_per_read);
    for (const auto& change : changes) {
      if (change.origin != origin_) {
        spdlog::debug("identity change {} from {}: {} of {}", change.seq, change.origin, change.kind, change.name);
        try {
          apply_(change);
        } catch (const std::exception& e) {
          spdlog::error("applying identity change {} ({} of {}) failed: {}", change.seq, change.kind, change.name,
                        e.what());
        }
      }
      std::lock_guard lock(mutex_);
      last_seen_ = change.seq;
    }
    if (changes.size() < static_cast<std::size_t>(rows_per_read)) return;
  }
}

}  // namespace parlour::server
