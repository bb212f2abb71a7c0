#include "server/connection.h"

#include <spdlog/spdlog.h>

namespace parlour::server {

namespace code = protocol::code;
using protocol::ProtocolError;

bool RateLimiter::allow(std::chrono::steady_clock::time_point now) {
  if (last_ != std::chrono::steady_clock::time_point{}) {
    const double seconds = std::chrono::duration<double>(now - last_).count();
    tokens_ = std::min(burst_, tokens_ + seconds * rate_);
  }
  last_ = now;
  if (tokens_ < 1) return false;
  tokens_ -= 1;
  return true;
}

void Connection::send(const std::shared_ptr<Client>& self, const Json& message) {
  self->send(std::make_shared<const std::string>(message.dump()));
}

void Connection::on_text(const std::shared_ptr<Client>& self, std::string_view text) {
  std::optional<std::int64_t> id;
  if (!limiter_.allow(std::chrono::steady_clock::now())) {
    try {
      protocol::parse_request(text, &id);
    } catch (const ProtocolError&) {
    }
    return send(self, protocol::error_message(id, code::rate_limited, "too many messages; slow down"));
  }
  try {
    const auto request = protocol::parse_request(text, &id);
    handle(self, request);
  } catch (const ProtocolError& e) {
    send(self, protocol::error_message(id, e.code(), e.what()));
  } catch (const std::exception& e) {
    spdlog::error("request from {} failed: {}", player(), e.what());
    send(self, protocol::error_message(id, code::internal, "the server could not handle that request"));
  }
}

void Connection::on_close(const std::shared_ptr<Client>& self) {
  std::set<std::shared_ptr<Table>> tables;
  {
    std::lock_guard lock(mutex_);
    tables.swap(tables_);
  }
  for (const auto& table : tables) table->disconnected(self);
}

std::shared_ptr<Table> Connection::table(const std::string& id) {
  auto table = lobby_.find(id);
  if (!table) throw ProtocolError(code::not_found, "no table '" + id + "'");
  return table;
}

void Connection::handle(const std::shared_ptr<Client>& self, const protocol::Request& request) {
  const auto re = request.id;
  const Requester who{self, re};

  if (const auto* hello = std::get_if<protocol::Hello>(&request.body)) {
    const auto current = player();
    if (!current.empty() && protocol::valid_player_name(hello->name) &&
        std::string_view(current).size() == hello->name.size() &&
        !std::equal(current.begin(), current.end(), hello->name.begin(),
                    [](char a, char b) { return std::tolower(a) == std::tolower(b); }))
      throw ProtocolError(code::conflict, "this connection is signed in as " + current);
    lobby_.hello(*hello, [this, self, re](std::optional<Lobby::Welcome> welcome, std::optional<ProtocolError> error) {
      if (error) return send(self, protocol::error_message(re, error->code(), error->what()));
      {
        std::lock_guard lock(mutex_);
        player_ = welcome->player;
      }
      send(self, protocol::reply("welcome", re,
                                 {{"player", welcome->player},
                                  {"token", welcome->token},
                                  {"protocol", protocol::version},
                                  {"chips", welcome->chips}}));
    });
    return;
  }
  if (std::holds_alternative<protocol::Ping>(request.body)) return send(self, protocol::reply("pong", re));
  if (player().empty()) throw ProtocolError(code::unauthorized, "say hello first");

  std::visit(
      [&](const auto& body) {
        using T = std::decay_t<decltype(body)>;
        if constexpr (std::is_same_v<T, protocol::Games>) {
          send(self, protocol::reply("games", re, {{"games", lobby_.games()}}));
        } else if constexpr (std::is_same_v<T, protocol::Tables>) {
          send(self, protocol::reply("tables", re, {{"tables", lobby_.tables()}}));
        } else if constexpr (std::is_same_v<T, protocol::Create>) {
          lobby_.create(player(), body, [this, self, re](Json fields, std::optional<ProtocolError> error) {
            if (error) return send(self, protocol::error_message(re, error->code(), error->what()));
            send(self, protocol::reply("created", re, std::move(fields)));
          });
        } else if constexpr (std::is_same_v<T, protocol::Join>) {
          auto target = body.table ? table(*body.table) : lobby_.find_by_invite(*body.invite);
          if (!target) throw ProtocolError(code::not_found, "no table has the invite '" + *body.invite + "'");
          {
            std::lock_guard lock(mutex_);
            tables_.insert(target);
          }
          target->join(who, body.seat);
        } else if constexpr (std::is_same_v<T, protocol::Watch>) {
          auto target = table(body.table);
          {
            std::lock_guard lock(mutex_);
            tables_.insert(target);
          }
          target->watch(who);
        } else if constexpr (std::is_same_v<T, protocol::Leave>) {
          auto target = table(body.table);
          {
            std::lock_guard lock(mutex_);
            tables_.erase(target);
          }
          target->leave(who);
        } else if constexpr (std::is_same_v<T, protocol::Bot>) {
          table(body.table)->add_bot(who, body.seat, body.level.value_or(0));
        } else if constexpr (std::is_same_v<T, protocol::Start>) {
          table(body.table)->start(who);
        } else if constexpr (std::is_same_v<T, protocol::End>) {
          table(body.table)->end(who);
        } else if constexpr (std::is_same_v<T, protocol::Act>) {
          table(body.table)->act(who, body.action);
        } else if constexpr (std::is_same_v<T, protocol::LedgerQuery>) {
          auto ledger = lobby_.ledger(body.player.value_or(player()), body.limit.value_or(50), body.before);
          send(self, protocol::reply("ledger", re, std::move(ledger)));
        }
      },
      request.body);
}

}  // namespace parlour::server
