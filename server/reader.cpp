#include "server/reader.h"

#include <spdlog/spdlog.h>

namespace parlour::server {

Reader::Reader(const std::string& where, std::size_t max_queued)
    : db_(storage::open_store(where)), max_queued_(max_queued), thread_([this] { loop(); }) {}

Reader::~Reader() { stop(); }

bool Reader::run(Work work) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ || queue_.size() >= max_queued_) return false;
    queue_.push_back(std::move(work));
  }
  wake_.notify_one();
  return true;
}

void Reader::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void Reader::loop() {
  for (;;) {
    Work work;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;
      work = std::move(queue_.front());
      queue_.pop_front();
    }
    try {
      work(*db_);
    } catch (const std::exception& e) {
      spdlog::error("a database read failed: {}", e.what());
    } catch (...) {
      spdlog::error("a database read failed with an unknown exception");
    }
  }
}

}  // namespace parlour::server
