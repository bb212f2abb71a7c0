// The lobby: identity (hello), the game catalogue, the tables and their invites,
// and ledger reads. Thread-safe; the tables do their own work on their strands.
#pragma once

#include <utility>

#include <boost/asio/io_context.hpp>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "protocol/messages.h"
#include "server/bank.h"
#include "server/config.h"
#include "server/table.h"
#include "server/writer.h"
#include "storage/database.h"

namespace parlour::server {

class Lobby {
 public:
  Lobby(boost::asio::io_context& io, const Config& config, Writer& writer, Bank& bank);

  // Rebuilds every unfinished table from its event log.
  void restore();

  struct Welcome {
    std::string player;
    std::string token;
    std::int64_t chips = 0;
  };
  // Signs a player in, registering a new name; `done` gets the welcome or a
  // ProtocolError, on the writer's thread or the caller's.
  void hello(const protocol::Hello& hello, std::function<void(std::optional<Welcome>, std::optional<protocol::ProtocolError>)> done);
  // The player whose token hashes to this, for HTTP bearer auth.
  std::optional<std::string> player_for_token(const std::string& name, const std::string& token);
  std::optional<std::string> player_for_bearer(const std::string& token);

  Json games() const;
  Json tables() const;
  void create(const std::string& host, const protocol::Create& create,
              std::function<void(Json reply, std::optional<protocol::ProtocolError>)> done);
  std::shared_ptr<Table> find(const std::string& table) const;
  std::shared_ptr<Table> find_by_invite(const std::string& invite) const;

  // PROTOCOL.md `ledger`; throws ProtocolError(not_found).
  Json ledger(const std::string& player, int limit, std::optional<std::int64_t> before);

  std::size_t table_count() const;

 private:
  TableServices services();
  storage::Database& reader();

  boost::asio::io_context& io_;
  const Config& config_;
  Writer& writer_;
  Bank& bank_;
  Json games_;

  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Table>> tables_;
  std::map<std::string, std::string> invites_;  // invite → table

  std::mutex reader_mutex_;
  std::unique_ptr<storage::Database> reader_;
};

}  // namespace parlour::server
