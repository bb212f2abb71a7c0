// The live connections of each signed-in name and the token each signed in
// with, so that revoking a token (a recovery) closes the connections still
// using it at once. Thread-safe; holds the connections weakly.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "server/common/client.h"

namespace parlour::server {

class LiveSessions {
 public:
  // `client` signed in as `player` with the token whose hash is `token_hash`.
  void add(const std::string& player, const std::string& token_hash, const std::shared_ptr<Client>& client);
  // Every live connection of `player` signed in with another token than
  // `kept_hash` is sent `farewell` (an `error` frame) and closed. Returns how many.
  std::size_t close_others(const std::string& player, const std::string& kept_hash,
                           std::shared_ptr<const std::string> farewell);
  // The same for the connections signed in with `token_hash` (a revoked device).
  std::size_t close_token(const std::string& player, const std::string& token_hash,
                          std::shared_ptr<const std::string> farewell);
  // Every live connection of `player` whose token `still_valid` refuses (a
  // change another process made: the identity feed) is sent `farewell` and closed.
  std::size_t close_invalid(const std::string& player, const std::function<bool(const std::string&)>& still_valid,
                            std::shared_ptr<const std::string> farewell);
  // Every live connection of `player` (a ban, a rename).
  std::size_t close_all(const std::string& player, std::shared_ptr<const std::string> farewell);
  // The names with a live connection here, folded, sorted.
  std::vector<std::string> names_online() const;
  // When a token last signed in (utc_iso8601), since the server started; "" if not.
  std::string last_seen(const std::string& token_hash) const;
  // Names with at least one live connection.
  std::size_t players_online() const;

 private:
  template <class Revoked>
  std::size_t close_where(const std::string& player, Revoked revoked, std::shared_ptr<const std::string> farewell);

  struct Session {
    std::string token_hash;
    std::weak_ptr<Client> client;
  };
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::vector<Session>> by_name_;  // folded name → its connections
  std::unordered_map<std::string, std::string> last_seen_;         // token hash → time
};

}  // namespace parlour::server
