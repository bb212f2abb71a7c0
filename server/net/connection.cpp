#include "server/net/connection.h"

#include <atomic>
#include <spdlog/spdlog.h>

#include "server/cluster/cluster.h"
#include "server/common/names.h"

namespace parlour::server {

namespace code = protocol::code;

namespace {

constexpr std::size_t max_quoted_chars = 40;

std::string quoted(const std::string& text) {
  return "'" + (text.size() > max_quoted_chars ? text.substr(0, max_quoted_chars) + "…" : text) + "'";
}

}  // namespace

ClientId next_client_id() {
  static std::atomic<ClientId> next{1};
  return next++;
}

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
  self->send(std::make_shared<const std::string>(message.dump(-1, ' ', false, Json::error_handler_t::replace)));
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
  std::map<const TableActor*, std::weak_ptr<TableActor>> tables;
  {
    std::lock_guard lock(mutex_);
    tables.swap(tables_);
  }
  for (const auto& [key, held] : tables)
    if (const auto table = held.lock()) table->disconnected(self->id());
}

void Connection::touch(const std::shared_ptr<TableActor>& table) {
  std::lock_guard lock(mutex_);
  tables_[table.get()] = table;
  // Amortised: tables gone from memory are forgotten when the map has doubled.
  if (tables_.size() <= 2 * tables_swept_size_ + 16) return;
  for (auto it = tables_.begin(); it != tables_.end();) it = it->second.expired() ? tables_.erase(it) : std::next(it);
  tables_swept_size_ = tables_.size();
}

std::shared_ptr<TableActor> Connection::table(const std::string& id) {
  auto table = lobby_.find_loaded(id);
  if (!table) throw ProtocolError(code::not_found, "no table " + quoted(id));
  touch(table);
  return table;
}

void Connection::hello(const std::shared_ptr<Client>& self, std::optional<std::int64_t> re, const protocol::Hello& hello) {
  const auto current = player();
  // One connection, one identity: a second hello may only repeat the first.
  if (!current.empty() && !same_name(current, hello.name))
    throw ProtocolError(code::conflict, "this connection is signed in as " + current);
  lobby_.hello(hello, address_, answer_sign_in_to(self, re, hello.features));
}

// `recover` signs in like `hello` (docs/playing.md "Accounts and recovery").
void Connection::recover(const std::shared_ptr<Client>& self, std::optional<std::int64_t> re,
                         const protocol::Recover& recover) {
  // Its own old token would be revoked under it: a recovery takes a fresh connection.
  if (const auto current = player(); !current.empty())
    throw ProtocolError(code::conflict, "this connection is signed in as " + current + "; recover on a new one");
  lobby_.recover(recover, address_, answer_sign_in_to(self, re, recover.features));
}

// `device_sign_in` signs in like `hello`, as the name whose device code it is.
void Connection::device_sign_in(const std::shared_ptr<Client>& self, std::optional<std::int64_t> re,
                                const protocol::DeviceSignIn& request) {
  if (const auto current = player(); !current.empty())
    throw ProtocolError(code::conflict, "this connection is signed in as " + current);
  lobby_.device_sign_in(request, address_, answer_sign_in_to(self, re, request.features));
}

void Connection::passphrase_sign_in(const std::shared_ptr<Client>& self, std::optional<std::int64_t> re,
                                    const protocol::PassphraseSignIn& request) {
  if (const auto current = player(); !current.empty())
    throw ProtocolError(code::conflict, "this connection is signed in as " + current);
  lobby_.passphrase_sign_in(request, address_, answer_sign_in_to(self, re, request.features));
}

Lobby::HelloDone Connection::answer_sign_in_to(const std::shared_ptr<Client>& self, std::optional<std::int64_t> re,
                                               protocol::Features asked) {
  return [this, self, re, asked](std::optional<Lobby::Welcome> welcome, std::optional<ProtocolError> error) {
    answer_sign_in(self, re, asked, std::move(welcome), std::move(error));
  };
}

void Connection::answer_sign_in(const std::shared_ptr<Client>& self, std::optional<std::int64_t> re,
                                protocol::Features asked, std::optional<Lobby::Welcome> welcome,
                                std::optional<ProtocolError> error) {
  if (error) return send(self, protocol::error_message(re, error->code(), error->what()));
  protocol::Features granted;
  {
    std::lock_guard lock(mutex_);
    if (!player_.empty() && !same_name(player_, welcome->player))
      return send(self, protocol::error_message(re, code::conflict, "this connection is signed in as " + player_));
    if (player_.empty()) features_ = asked;
    player_ = welcome->player;
    granted = features_;
  }
  lobby_.signed_in(welcome->player, welcome->token, self);
  Json fields{{"player", welcome->player},
              {"token", welcome->token},
              {"protocol", protocol::version},
              {"chips", welcome->chips},
              {"features", protocol::features_json(granted)}};
  if (welcome->recovery_code) fields["recovery_code"] = *welcome->recovery_code;
  // Several nodes: the client connects to a table's page as /ws?table=ID, so
  // that the proxy routes every client of a table to the same node.
  if (lobby_.clustered()) fields["node"] = lobby_.node_name();
  send(self, protocol::reply("welcome", re, std::move(fields)));
}

// Finds the table a request is for and hands the request to it. Watching and
// rematches may reach a finished table, which the lobby loads from the
// database; the others reach tables in play only. A private table may be
// watched through its invite, or by its host and players (the table decides:
// TableCore::may_enter).
void Connection::to_table(const std::shared_ptr<Client>& self, std::optional<std::int64_t> re,
                          protocol::TableRequest body) {
  const auto address = protocol::address_of(body);
  if (address.invite) {
    auto target = lobby_.find_by_invite(*address.invite);
    if (!target) throw ProtocolError(code::not_found, "no table has the invite " + quoted(*address.invite));
    touch(target);
    return target->request(self, re, std::move(body));
  }
  const bool finished_too =
      std::holds_alternative<protocol::Watch>(body) || std::holds_alternative<protocol::Rematch>(body);
  if (!finished_too) return table(*address.table)->request(self, re, std::move(body));
  lobby_.find(*address.table,
              [this, self, re, id = *address.table, body = std::move(body)](std::shared_ptr<TableActor> target) {
                if (!target) return send(self, protocol::error_message(re, code::not_found, "no table " + quoted(id)));
                touch(target);
                target->request(self, re, body);
              });
}

namespace {

// A table another node still serves after the wait (its hand-over is late).
Json table_moving(std::optional<std::int64_t> re, const std::string& table) {
  return protocol::error_message(re, code::conflict,
                                 "table " + quoted(table) + " is busy moving between servers; try again in a moment");
}

}  // namespace

// Several nodes: a table served by another node is brought here first (its
// holder hands it over), then the request is handled as usual.
void Connection::handle(const std::shared_ptr<Client>& self, const protocol::Request& request) {
  Cluster* cluster = lobby_.cluster();
  if (!cluster || player().empty()) return dispatch(self, request);
  const auto table_request = protocol::table_request(request.body);
  if (!table_request) return dispatch(self, request);
  const auto asked = protocol::address_of(*table_request);
  if (asked.table && !lobby_.serves(*asked.table)) {
    return cluster->acquire(*asked.table, [this, self, request, table = *asked.table](Cluster::Where where) {
      if (where == Cluster::Where::elsewhere) return send(self, table_moving(request.id, table));
      run_guarded(self, request);
    });
  }
  if (asked.invite && !lobby_.find_by_invite(*asked.invite)) {
    return cluster->table_of_invite(*asked.invite, [this, self, request](std::optional<std::string> table) {
      if (!table) return run_guarded(self, request);  // answered not_found as usual
      lobby_.cluster()->acquire(*table, [this, self, request, table = *table](Cluster::Where where) {
        if (where == Cluster::Where::elsewhere) return send(self, table_moving(request.id, table));
        run_guarded(self, request);
      });
    });
  }
  dispatch(self, request);
}

void Connection::run_guarded(const std::shared_ptr<Client>& self, const protocol::Request& request) {
  try {
    dispatch(self, request);
  } catch (const ProtocolError& e) {
    send(self, protocol::error_message(request.id, e.code(), e.what()));
  } catch (const std::exception& e) {
    spdlog::error("request from {} failed: {}", player(), e.what());
    send(self, protocol::error_message(request.id, code::internal, "the server could not handle that request"));
  }
}

void Connection::dispatch(const std::shared_ptr<Client>& self, const protocol::Request& request) {
  const auto re = request.id;
  if (const auto* body = std::get_if<protocol::Hello>(&request.body)) return hello(self, re, *body);
  if (const auto* body = std::get_if<protocol::Recover>(&request.body)) return recover(self, re, *body);
  if (const auto* body = std::get_if<protocol::DeviceSignIn>(&request.body)) return device_sign_in(self, re, *body);
  if (const auto* body = std::get_if<protocol::PassphraseSignIn>(&request.body)) return passphrase_sign_in(self, re, *body);
  if (std::holds_alternative<protocol::Ping>(request.body)) return send(self, protocol::reply("pong", re));
  if (player().empty()) throw ProtocolError(code::unauthorized, "say hello first");

  if (auto body = protocol::table_request(request.body)) return to_table(self, re, std::move(*body));
  std::visit(
      [&](const auto& body) {
        using T = std::decay_t<decltype(body)>;
        if constexpr (std::is_same_v<T, protocol::Games>) {
          send(self, protocol::reply("games", re, {{"games", lobby_.games()}}));
        } else if constexpr (std::is_same_v<T, protocol::Tables>) {
          send(self, protocol::reply("tables", re, {{"tables", body.mine ? lobby_.tables_of(player()) : lobby_.tables()}}));
        } else if constexpr (std::is_same_v<T, protocol::Create>) {
          lobby_.create(player(), body, [this, self, re](Json fields, std::optional<ProtocolError> error) {
            if (error) return send(self, protocol::error_message(re, error->code(), error->what()));
            send(self, protocol::reply("created", re, std::move(fields)));
          });
        } else if constexpr (std::is_same_v<T, protocol::History>) {
          lobby_.history(body.table,
                         HistoryQuery{.viewer = player(), .deal = body.deal, .from = body.from,
                                      .table_melds = features().table_melds},
                         [this, self, re](Json doc, std::optional<ProtocolError> error) {
                           if (error) return send(self, protocol::error_message(re, error->code(), error->what()));
                           send(self, protocol::reply("history", re, std::move(doc)));
                         });
        } else if constexpr (std::is_same_v<T, protocol::LedgerQuery>) {
          lobby_.ledger(player(), body.player.value_or(player()), body.limit.value_or(50), body.before,
                        [this, self, re](Json fields, std::optional<ProtocolError> error) {
                          if (error) return send(self, protocol::error_message(re, error->code(), error->what()));
                          send(self, protocol::reply("ledger", re, std::move(fields)));
                        });
        } else if constexpr (std::is_same_v<T, protocol::SignupLink>) {
          lobby_.signup_link(player(), body, [this, self, re](Json fields, std::optional<ProtocolError> error) {
            if (error) return send(self, protocol::error_message(re, error->code(), error->what()));
            send(self, protocol::reply("signup_link", re, std::move(fields)));
          });
        } else if constexpr (std::is_same_v<T, protocol::DeviceLink>) {
          lobby_.device_link(player(), [this, self, re](Json fields, std::optional<ProtocolError> error) {
            if (error) return send(self, protocol::error_message(re, error->code(), error->what()));
            send(self, protocol::reply("device_link", re, std::move(fields)));
          });
        } else if constexpr (std::is_same_v<T, protocol::Devices>) {
          send(self, protocol::reply("devices", re, lobby_.devices(player())));
        } else if constexpr (std::is_same_v<T, protocol::RevokeDevice>) {
          lobby_.revoke_device(player(), body.device, [this, self, re](Json, std::optional<ProtocolError> error) {
            if (error) return send(self, protocol::error_message(re, error->code(), error->what()));
            send(self, protocol::reply("ok", re));
          });
        } else if constexpr (std::is_same_v<T, protocol::SetPassphrase>) {
          lobby_.set_passphrase(player(), body.passphrase, [this, self, re](Json, std::optional<ProtocolError> error) {
            if (error) return send(self, protocol::error_message(re, error->code(), error->what()));
            send(self, protocol::reply("ok", re));
          });
        } else if constexpr (std::is_same_v<T, protocol::Settle>) {
          lobby_.settle(player(), body.tables, [this, self, re](Json fields, std::optional<ProtocolError> error) {
            if (error) return send(self, protocol::error_message(re, error->code(), error->what()));
            send(self, protocol::reply("settled", re, std::move(fields)));
          });
        }
      },
      request.body);
}

}  // namespace parlour::server
