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
  by_name_[key] = player;
  by_token_hash_[player.token_hash] = key;
}

std::size_t PlayerDirectory::size() const {
  std::shared_lock lock(mutex_);
  return by_name_.size();
}

}  // namespace parlour::server
