#include "server/lobby.h"

#include <spdlog/spdlog.h>

#include "server/tokens.h"

namespace parlour::server {

namespace code = protocol::code;
using protocol::ProtocolError;

namespace {
// Bots are seated as "bot-TABLE-SEAT"; no player may take such a name.
bool is_bot_name(const std::string& name) {
  return name.size() >= 4 && std::tolower(static_cast<unsigned char>(name[0])) == 'b' &&
         std::tolower(static_cast<unsigned char>(name[1])) == 'o' &&
         std::tolower(static_cast<unsigned char>(name[2])) == 't' && name[3] == '-';
}
}  // namespace

Lobby::Lobby(boost::asio::io_context& io, const Config& config, Writer& writer, Bank& bank)
    : io_(io), config_(config), writer_(writer), bank_(bank), reader_(std::make_unique<storage::Database>(config.db)) {
  games_ = Json::array();
  for (const auto& game : rules::Registry::builtin().all()) games_.push_back(rules::info_to_json(game));
}

TableServices Lobby::services() { return TableServices{io_, writer_, bank_, config_}; }

storage::Database& Lobby::reader() { return *reader_; }

void Lobby::restore() {
  std::vector<storage::Table> stored;
  {
    std::lock_guard lock(reader_mutex_);
    for (const char* status : {"waiting", "playing"})
      for (auto& t : reader().tables_with_status(status)) stored.push_back(std::move(t));
  }
  for (auto& record : stored) {
    const auto* info = rules::Registry::builtin().find(record.game);
    if (!info) {
      spdlog::error("table {}: game '{}' is not known to this server; left as it is", record.id, record.game);
      continue;
    }
    std::vector<storage::Event> events;
    {
      std::lock_guard lock(reader_mutex_);
      events = reader().events(record.id);
    }
    try {
      const auto id = record.id;
      const auto invite = record.invite;
      auto table = std::make_shared<Table>(services(), std::move(record), *info, events);
      std::lock_guard lock(mutex_);
      tables_[id] = table;
      if (!invite.empty()) invites_[invite] = id;
      spdlog::info("table {}: restored ({} events)", id, events.size());
    } catch (const std::exception& e) {
      spdlog::error("table {}: could not be restored from its log: {}", record.id, e.what());
    }
  }
}

void Lobby::hello(const protocol::Hello& hello,
                  std::function<void(std::optional<Welcome>, std::optional<ProtocolError>)> done) {
  std::optional<storage::Player> existing;
  {
    std::lock_guard lock(reader_mutex_);
    existing = reader().find_player(hello.name);
  }
  if (existing) {
    if (!hello.token || !constant_time_equal(sha256_hex(*hello.token), existing->token_hash))
      return done(std::nullopt, ProtocolError(code::unauthorized, "the name '" + existing->name +
                                                                      "' is registered; send its token to sign in"));
    const auto chips = bank_.balance(storage::player_account(existing->name));
    return done(Welcome{existing->name, *hello.token, chips}, std::nullopt);
  }
  if (is_bot_name(hello.name))
    return done(std::nullopt, ProtocolError(code::name_taken, "names starting with 'bot-' are kept for bots"));
  auto token = new_token();
  auto hash = sha256_hex(token);
  const auto chips = config_.starting_chips;
  auto name = hello.name;
  writer_.run([name, hash, chips](storage::Database& db) { db.create_player(name, hash, chips); },
              [this, name, token, chips, done](std::exception_ptr error) {
                if (error) {
                  try {
                    std::rethrow_exception(error);
                  } catch (const storage::NameTaken&) {
                    return done(std::nullopt, ProtocolError(code::name_taken, "the name '" + name + "' is taken"));
                  } catch (const std::exception& e) {
                    spdlog::error("registering {} failed: {}", name, e.what());
                    return done(std::nullopt, ProtocolError(code::internal, "could not register the name"));
                  }
                }
                bank_.forget(storage::player_account(name));
                spdlog::info("player {} registered with {} chips", name, chips);
                done(Welcome{name, token, chips}, std::nullopt);
              });
}

std::optional<std::string> Lobby::player_for_token(const std::string& name, const std::string& token) {
  std::lock_guard lock(reader_mutex_);
  auto player = reader().find_player(name);
  if (player && constant_time_equal(sha256_hex(token), player->token_hash)) return player->name;
  return std::nullopt;
}

std::optional<std::string> Lobby::player_for_bearer(const std::string& token) {
  std::lock_guard lock(reader_mutex_);
  auto player = reader().find_player_by_token_hash(sha256_hex(token));
  if (player) return player->name;
  return std::nullopt;
}

Json Lobby::games() const { return games_; }

Json Lobby::tables() const {
  Json list = Json::array();
  std::lock_guard lock(mutex_);
  for (const auto& [id, table] : tables_) {
    if (table->is_private() || table->finished()) continue;
    list.push_back(table->summary());
  }
  return list;
}

void Lobby::create(const std::string& host, const protocol::Create& request,
                   std::function<void(Json, std::optional<ProtocolError>)> done) {
  const auto* info = rules::Registry::builtin().find(request.game);
  if (!info) return done({}, ProtocolError(code::not_found, "no game '" + request.game + "'; see `games`"));
  if (request.deck && !config_.allow_stacked_deck)
    return done({}, ProtocolError(code::forbidden, "stacked decks need a server started with --allow-stacked-deck"));
  Json options;
  try {
    options = rules::Registry::validate_options(*info, request.options);
  } catch (const rules::SetupError& e) {
    return done({}, ProtocolError(code::bad_request, e.what()));
  }
  const int most = info->max_players_with(options);
  const int seats = request.seats.value_or(most);
  if (seats < info->min_players || seats > most)
    return done({}, ProtocolError(code::bad_request, info->name + " seats " + std::to_string(info->min_players) +
                                                         " to " + std::to_string(most) + " players, not " +
                                                         std::to_string(seats)));
  const std::uint64_t seed = request.seed ? *request.seed : random_seed();
  if (request.deck) {
    // A deck the game cannot deal from is refused now rather than at start.
    try {
      rules::Registry::create(*info, rules::GameSetup{options, info->min_players, seed, request.deck,
                                                      rules::Balances(info->min_players, 1'000'000)});
    } catch (const rules::SetupError& e) {
      return done({}, ProtocolError(code::bad_request, e.what()));
    }
  }
  storage::Table record;
  record.id = "t" + random_id(8);
  record.game = info->id;
  record.options_json = options.dump();
  record.seed = seed;
  record.host = host;
  record.status = "waiting";
  record.is_private = request.is_private;
  record.invite = random_id(12);
  if (request.deck) record.deck_json = Json(rules::to_strings(*request.deck)).dump();
  for (int seat = 0; seat < seats; ++seat) record.seats.push_back({seat, "", false, 0});
  writer_.run([record](storage::Database& db) { db.create_table(record); },
              [this, record, info, done](std::exception_ptr error) {
                if (error) {
                  try {
                    std::rethrow_exception(error);
                  } catch (const std::exception& e) {
                    spdlog::error("creating a table failed: {}", e.what());
                  }
                  return done({}, ProtocolError(code::internal, "could not create the table"));
                }
                auto table = std::make_shared<Table>(services(), record, *info);
                {
                  std::lock_guard lock(mutex_);
                  tables_[record.id] = table;
                  invites_[record.invite] = record.id;
                }
                spdlog::info("table {}: {} created by {}{}", record.id, record.game, record.host,
                             record.is_private ? " (private)" : "");
                done({{"table", record.id}, {"invite", record.invite}}, std::nullopt);
              });
}

std::shared_ptr<Table> Lobby::find(const std::string& table) const {
  std::lock_guard lock(mutex_);
  auto it = tables_.find(table);
  return it == tables_.end() ? nullptr : it->second;
}

std::shared_ptr<Table> Lobby::find_by_invite(const std::string& invite) const {
  std::lock_guard lock(mutex_);
  auto it = invites_.find(invite);
  if (it == invites_.end()) return nullptr;
  auto table = tables_.find(it->second);
  return table == tables_.end() ? nullptr : table->second;
}

Json Lobby::ledger(const std::string& player, int limit, std::optional<std::int64_t> before) {
  std::lock_guard lock(reader_mutex_);
  std::string name = player;
  if (auto registered = reader().find_player(player)) {
    name = registered->name;
  } else if (!is_bot_name(player)) {
    throw ProtocolError(code::not_found, "no player named '" + player + "'");
  }
  const auto account = storage::player_account(name);
  Json entries = Json::array();
  for (const auto& e : reader().ledger(account, limit, before))
    entries.push_back({{"entry", e.entry},
                       {"time", e.time},
                       {"amount", e.amount},
                       {"balance", e.balance},
                       {"table", e.table.empty() ? Json() : Json(e.table)},
                       {"game", e.game.empty() ? Json() : Json(e.game)},
                       {"memo", e.memo}});
  return {{"player", name}, {"balance", reader().balance(account)}, {"entries", entries}};
}

std::size_t Lobby::table_count() const {
  std::lock_guard lock(mutex_);
  return tables_.size();
}

}  // namespace parlour::server
