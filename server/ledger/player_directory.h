// Every registered player's name and token hashes (the first device's, and his
// other devices'), in memory: loaded from the database at start and added to on
// each registration, so signing in and HTTP bearer checks never read SQLite on
// an I/O thread. Thread-safe.
#pragma once

#include <optional>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
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
  // Adds a player, or replaces a known one's token.
  void add(const storage::Player& player);
  std::size_t size() const;

  // --- Devices (a device link): more tokens of the same name.
  void add_device(const storage::Device& device);
  // The name's other devices, oldest first.
  std::vector<storage::Device> devices(const std::string& name) const;
  // Forgets one device; its token hash, or nullopt when the name has no such device.
  std::optional<std::string> remove_device(const std::string& name, const std::string& id);
  // A recovery: every other device of the name is forgotten.
  void clear_devices(const std::string& name);
  // Does this token hash sign in as this name (its first device or another)?
  bool signs_in(const std::string& name, const std::string& token_hash) const;

  // --- Bans and renames (parlour admin; applied from the identity feed).
  void set_banned(const std::string& name, bool banned);
  bool banned(const std::string& name) const;
  // The player known as `old_name` is `new_name` now, with his tokens and devices.
  void rename(const std::string& old_name, const std::string& new_name);

 private:
  mutable std::shared_mutex mutex_;
  std::unordered_map<std::string, storage::Player> by_name_;  // lower-case name
  std::unordered_map<std::string, std::string> by_token_hash_;  // → lower-case name, every device's
  std::unordered_map<std::string, std::vector<storage::Device>> devices_;  // lower-case name → other devices
  std::unordered_set<std::string> banned_;  // lower-case names
};

}  // namespace parlour::server
