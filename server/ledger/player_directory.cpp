#include "server/ledger/player_directory.h"

#include "server/common/names.h"

#include <algorithm>
#include <cctype>
#include <mutex>

namespace parlour::server {

PlayerDirectory::PlayerDirectory(const std::vector<storage::Player>& players) {
  for (const auto& player : players) add(player);
}

std::optional<storage::Player> PlayerDirectory::find(const std::string& name) const {
  std::shared_lock lock(mutex_);
  const auto it = by_name_.find(folded_name(name));
  if (it == by_name_.end()) return std::nullopt;
  return it->second;
}

std::optional<storage::Player> PlayerDirectory::find_by_token_hash(const std::string& token_hash) const {
  std::shared_lock lock(mutex_);
  const auto name = by_token_hash_.find(token_hash);
  if (name == by_token_hash_.end()) return std::nullopt;
  return by_name_.at(name->second);
}

void PlayerDirectory::add(const storage::Player& player) {
  std::unique_lock lock(mutex_);
  const auto key = folded_name(player.name);
  // A new token (a recovery) replaces the old one, which then signs in no one.
  if (const auto known = by_name_.find(key); known != by_name_.end() && known->second.token_hash != player.token_hash)
    by_token_hash_.erase(known->second.token_hash);
  by_name_[key] = player;
  by_token_hash_[player.token_hash] = key;
}

void PlayerDirectory::add_device(const storage::Device& device) {
  std::unique_lock lock(mutex_);
  const auto key = folded_name(device.player);
  by_token_hash_[device.token_hash] = key;
  devices_[key].push_back(device);
}

std::vector<storage::Device> PlayerDirectory::devices(const std::string& name) const {
  std::shared_lock lock(mutex_);
  const auto found = devices_.find(folded_name(name));
  return found == devices_.end() ? std::vector<storage::Device>{} : found->second;
}

std::optional<std::string> PlayerDirectory::remove_device(const std::string& name, const std::string& id) {
  std::unique_lock lock(mutex_);
  const auto found = devices_.find(folded_name(name));
  if (found == devices_.end()) return std::nullopt;
  auto& devices = found->second;
  const auto device = std::find_if(devices.begin(), devices.end(), [&](const auto& d) { return d.id == id; });
  if (device == devices.end()) return std::nullopt;
  auto token_hash = device->token_hash;
  by_token_hash_.erase(token_hash);
  devices.erase(device);
  return token_hash;
}

void PlayerDirectory::clear_devices(const std::string& name) {
  std::unique_lock lock(mutex_);
  const auto found = devices_.find(folded_name(name));
  if (found == devices_.end()) return;
  for (const auto& device : found->second) by_token_hash_.erase(device.token_hash);
  devices_.erase(found);
}

std::size_t PlayerDirectory::size() const {
  std::shared_lock lock(mutex_);
  return by_name_.size();
}

}  // namespace parlour::server
