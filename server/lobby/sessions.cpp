#include "server/lobby/sessions.h"

#include <algorithm>
#include <chrono>

#include "server/common/names.h"
#include "storage/store.h"

namespace parlour::server {

void LiveSessions::add(const std::string& player, const std::string& token_hash, const std::shared_ptr<Client>& client) {
  std::lock_guard lock(mutex_);
  auto& sessions = by_name_[folded_name(player)];
  // Closed connections go as the name signs in again, so a name holds at most
  // its live connections and the ones closed since its last sign-in.
  std::erase_if(sessions, [](const Session& s) { return s.client.expired(); });
  sessions.push_back(Session{token_hash, client});
  last_seen_[token_hash] = storage::utc_iso8601(std::chrono::system_clock::now());
}

std::string LiveSessions::last_seen(const std::string& token_hash) const {
  std::lock_guard lock(mutex_);
  const auto found = last_seen_.find(token_hash);
  return found == last_seen_.end() ? std::string() : found->second;
}

std::size_t LiveSessions::players_online() const {
  std::lock_guard lock(mutex_);
  return static_cast<std::size_t>(std::count_if(by_name_.begin(), by_name_.end(), [](const auto& name) {
    return std::any_of(name.second.begin(), name.second.end(), [](const Session& s) { return !s.client.expired(); });
  }));
}

std::size_t LiveSessions::close_others(const std::string& player, const std::string& kept_hash,
                                       std::shared_ptr<const std::string> farewell) {
  return close_where(player, [&](const std::string& hash) { return hash != kept_hash; }, std::move(farewell));
}

std::size_t LiveSessions::close_token(const std::string& player, const std::string& token_hash,
                                      std::shared_ptr<const std::string> farewell) {
  return close_where(player, [&](const std::string& hash) { return hash == token_hash; }, std::move(farewell));
}

std::size_t LiveSessions::close_invalid(const std::string& player,
                                        const std::function<bool(const std::string&)>& still_valid,
                                        std::shared_ptr<const std::string> farewell) {
  return close_where(player, [&](const std::string& hash) { return !still_valid(hash); }, std::move(farewell));
}

std::size_t LiveSessions::close_all(const std::string& player, std::shared_ptr<const std::string> farewell) {
  return close_where(player, [](const std::string&) { return true; }, std::move(farewell));
}

std::vector<std::string> LiveSessions::names_online() const {
  std::vector<std::string> names;
  std::lock_guard lock(mutex_);
  for (const auto& [name, sessions] : by_name_)
    if (std::any_of(sessions.begin(), sessions.end(), [](const Session& s) { return !s.client.expired(); }))
      names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

template <class Revoked>
std::size_t LiveSessions::close_where(const std::string& player, Revoked revoked,
                                      std::shared_ptr<const std::string> farewell) {
  std::vector<std::shared_ptr<Client>> closing;
  {
    std::lock_guard lock(mutex_);
    const auto found = by_name_.find(folded_name(player));
    if (found == by_name_.end()) return 0;
    auto& sessions = found->second;
    for (const auto& session : sessions)
      if (revoked(session.token_hash))
        if (auto client = session.client.lock()) closing.push_back(std::move(client));
    std::erase_if(sessions, [&](const Session& s) { return revoked(s.token_hash) || s.client.expired(); });
  }
  for (const auto& client : closing) {
    client->send(farewell);
    client->close_revoked();
  }
  return closing.size();
}

}  // namespace parlour::server
