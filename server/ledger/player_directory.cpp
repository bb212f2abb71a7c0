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
  auto& devices = devices_[key];
  // Told twice (by its own writer and by the identity feed), it is still one device.
  if (std::any_of(devices.begin(), devices.end(), [&](const auto& d) { return d.id == device.id; })) return;
  by_token_hash_[device.token_hash] = key;
  devices.push_back(device);
}

bool PlayerDirectory::signs_in(const std::string& name, const std::string& token_hash) const {
  std::shared_lock lock(mutex_);
  const auto found = by_token_hash_.find(token_hash);
  return found != by_token_hash_.end() && found->second == folded_name(name);
}

void PlayerDirectory::set_banned(const std::string& name, bool banned) {
  std::unique_lock lock(mutex_);
  if (banned) banned_.insert(folded_name(name));
  else banned_.erase(folded_name(name));
}

bool PlayerDirectory::banned(const std::string& name) const {
  std::shared_lock lock(mutex_);
  return banned_.contains(folded_name(name));
}

void PlayerDirectory::rename(const std::string& old_name, const std::string& new_name) {
  std::unique_lock lock(mutex_);
  const auto old_key = folded_name(old_name);
  const auto new_key = folded_name(new_name);
  const auto found = by_name_.find(old_key);
  if (found == by_name_.end()) return;
  auto player = found->second;
  player.name = new_name;
  by_name_.erase(found);
  by_name_[new_key] = player;
  for (auto& [hash, key] : by_token_hash_)
    if (key == old_key) key = new_key;
  if (auto devices = devices_.extract(old_key)) {
    for (auto& device : devices.mapped()) device.player = new_name;
    devices.key() = new_key;
    devices_.insert(std::move(devices));
  }
  if (banned_.erase(old_key)) banned_.insert(new_key);
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
