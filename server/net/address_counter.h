// Open connections and unsent bytes per client, for the network front
// (server/net/net.cpp). Free of Beast.
#pragma once

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include "server/net/client_address.h"

namespace parlour::server {

// Open connections per client (its limit key: an IPv4 address or an IPv6 /64,
// server/net/client_address.h), and the bytes their WebSockets have queued
// unsent: what one client can pin. A slot is held for the life of a session
// and handed from the HTTP session to the WebSocket session it upgrades to.
class AddressCounter : public std::enable_shared_from_this<AddressCounter> {
 public:
  AddressCounter(int limit, std::size_t max_queued_bytes) : limit_(limit), max_queued_bytes_(max_queued_bytes) {}

  class Slot {
   public:
    Slot() = default;
    Slot(std::shared_ptr<AddressCounter> owner, ClientAddress client)
        : owner_(std::move(owner)), address_(std::move(client.key)), shown_(client.text()) {}
    Slot(Slot&& other) noexcept
        : owner_(std::move(other.owner_)),
          address_(std::move(other.address_)),
          shown_(std::move(other.shown_)),
          queued_(std::exchange(other.queued_, 0)) {}
    Slot& operator=(Slot&&) = delete;
    ~Slot() {
      if (owner_) owner_->release(address_, queued_);
    }
    // The key the client's limits are counted under.
    const std::string& address() const { return address_; }
    // The client's own address, for the logs.
    const std::string& shown() const { return shown_; }
    // Counts `bytes` more queued for this address, unless that would take the
    // address past its limit: then nothing is counted and false returned.
    bool queue(std::size_t bytes) {
      if (!owner_->queue(address_, bytes)) return false;
      queued_ += bytes;
      return true;
    }
    void unqueue(std::size_t bytes) {
      bytes = std::min(bytes, queued_);
      owner_->unqueue(address_, bytes);
      queued_ -= bytes;
    }
    std::size_t address_queued() const { return owner_->queued(address_); }

   private:
    std::shared_ptr<AddressCounter> owner_;
    std::string address_;
    std::string shown_;
    std::size_t queued_ = 0;  // this session's share of its address's queued bytes
  };

  std::optional<Slot> take(const ClientAddress& client) {
    std::lock_guard lock(mutex_);
    auto& use = use_[client.key];
    if (use.open >= limit_) return std::nullopt;
    ++use.open;
    return Slot(shared_from_this(), client);
  }
  int limit() const { return limit_; }

  std::size_t max_queued_bytes() const { return max_queued_bytes_; }
  // Every address's queued bytes together (for /metrics).
  std::size_t total_queued() const { return total_queued_; }

 private:
  struct Use {
    int open = 0;
    std::size_t queued = 0;
  };

  void release(const std::string& address, std::size_t queued) {
    std::lock_guard lock(mutex_);
    auto it = use_.find(address);
    if (it == use_.end()) return;
    it->second.queued -= std::min(queued, it->second.queued);
    total_queued_ -= queued;
    if (--it->second.open <= 0) use_.erase(it);
  }
  bool queue(const std::string& address, std::size_t bytes) {
    std::lock_guard lock(mutex_);
    auto& use = use_[address];
    if (use.queued + bytes > max_queued_bytes_) return false;
    use.queued += bytes;
    total_queued_ += bytes;
    return true;
  }
  void unqueue(const std::string& address, std::size_t bytes) {
    std::lock_guard lock(mutex_);
    auto it = use_.find(address);
    if (it == use_.end()) return;
    it->second.queued -= std::min(bytes, it->second.queued);
    total_queued_ -= bytes;
  }
  std::size_t queued(const std::string& address) const {
    std::lock_guard lock(mutex_);
    auto it = use_.find(address);
    return it == use_.end() ? 0 : it->second.queued;
  }

  const int limit_;
  const std::size_t max_queued_bytes_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Use> use_;
  std::atomic<std::size_t> total_queued_{0};
};

}  // namespace parlour::server
