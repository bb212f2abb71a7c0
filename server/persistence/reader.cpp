#include "server/persistence/reader.h"

#include <spdlog/spdlog.h>

namespace parlour::server {

Reader::Reader(const std::string& where, std::size_t max_queued, std::size_t max_per_client)
    : db_(storage::open_store(where)),
      max_queued_(max_queued),
      max_per_client_(max_per_client),
      thread_([this] { loop(); }) {}

Reader::~Reader() { stop(); }

Reader::Admission Reader::run_for(const std::string& client, Work work) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ || queued_ >= max_queued_) return Admission::server_full;
    auto& queue = queues_[client];
    if (!client.empty() && queue.size() >= max_per_client_) return Admission::client_full;
    if (queue.empty()) turns_.push_back(client);
    queue.push_back(std::move(work));
    ++queued_;
  }
  wake_.notify_one();
  return Admission::queued;
}

void Reader::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

// The next client's first read; false when stopping with nothing left. Locked.
bool Reader::next(Work& work) {
  if (turns_.empty()) return false;
  const std::string client = std::move(turns_.front());
  turns_.pop_front();
  auto queue = queues_.find(client);
  work = std::move(queue->second.front());
  queue->second.pop_front();
  --queued_;
  if (queue->second.empty())
    queues_.erase(queue);
  else
    turns_.push_back(client);  // its next read waits for every other client's
  return true;
}

void Reader::loop() {
  for (;;) {
    Work work;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !turns_.empty(); });
      if (!next(work)) return;
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
