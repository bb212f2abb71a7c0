// Every registered player's name and token hash, in memory: loaded from the
// database at start and added to on each registration, so signing in and HTTP
// bearer checks never read SQLite on an I/O thread. Thread-safe.
#pragma once

#include <optional>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "storage/store.h"

namespace parlour::server {

class PlayerDirectory {
 public:
  PlayerDirectory() = default;
  explicit PlayerDirectory(const std::vector<storage::Player>& players);

  // Case-insensitive, as names are unique.
  std::optional<storage::Player> find(const std::string& name) const;
  std::optional<storage::Player> find_by_token_hash(const std::string& token_hash) const;
  void add(const storage::Player& player);
  std::size_t size() const;

 private:
  mutable std::shared_mutex mutex_;
  std::unordered_map<std::string, storage::Player> by_name_;  // lower-case name
  std::unordered_map<std::string, std::string> by_token_hash_;  // → lower-case name
};

}  // namespace parlour::server
