#include "server/lobby.h"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include "server/cluster.h"
#include "server/settle_report.h"
#include "server/tokens.h"

namespace parlour::server {

namespace code = protocol::code;

namespace {

constexpr std::size_t max_quoted_chars = 40;
constexpr auto finished_kept_in_memory = std::chrono::minutes(10);
constexpr auto housekeeping_every = std::chrono::seconds(30);
// Settle-up's default, "tonight": the tables the player hosted that were
// created, or moved chips, within this window.
constexpr auto settle_window = std::chrono::hours(12);

std::string quoted(const std::string& text) {
  return "'" + (text.size() > max_quoted_chars ? text.substr(0, max_quoted_chars) + "…" : text) + "'";
}

std::int64_t unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

bool is_bot_name(const std::string& name) {
  return name.size() >= 4 && std::tolower(static_cast<unsigned char>(name[0])) == 'b' &&
         std::tolower(static_cast<unsigned char>(name[1])) == 'o' &&
         std::tolower(static_cast<unsigned char>(name[2])) == 't' && name[3] == '-';
}

Lobby::Lobby(boost::asio::io_context& io, const Config& config, Writer& writer, Reader& reader,
             LiveBalances& balances, PlayerDirectory& players)
    : io_(io),
      config_(config),
      writer_(writer),
      reader_(reader),
      balances_(balances),
      players_(players),
      sweep_timer_(io) {
  games_ = Json::array();
  for (const auto& game : rules::Registry::builtin().all()) games_.push_back(rules::info_to_json(game));
}

// ---------------------------------------------------------------- tables

std::shared_ptr<TableActor> Lobby::make_table(storage::TableRecord record, const rules::GameInfo& info,
                                              const std::vector<storage::Event>& events) {
  const std::string db = config_.db;
  CoreServices services{balances_, config_, unix_ms,
                        [db](const std::string& table)
                            -> std::optional<std::pair<storage::TableRecord, std::vector<storage::Event>>> {
                          // Only after a failed commit: the database is the truth.
                          const std::unique_ptr<storage::Store> reader = storage::open_store(db);
                          auto stored = reader->find_table(table);
                          if (!stored) return std::nullopt;
                          return std::make_pair(std::move(*stored), reader->events(table));
                        }};
  return std::make_shared<TableActor>(io_, writer_, std::make_unique<TableCore>(services, std::move(record), info, events));
}

void Lobby::add_table(const std::shared_ptr<TableActor>& table, const std::string& invite) {
  std::lock_guard lock(mutex_);
  tables_[table->id()] = table;
  if (!invite.empty()) invites_[invite] = table->id();
}

void Lobby::forget(const std::string& table) {
  std::lock_guard lock(mutex_);
  const auto it = tables_.find(table);
  if (it != tables_.end()) {
    invites_.erase(it->second->snapshot().invite);
    tables_.erase(it);
  }
  leased_.erase(table);
  finished_seen_.erase(table);
}

void Lobby::serve(storage::TableRecord record, const std::vector<storage::Event>& events, std::int64_t generation) {
  const auto* info = rules::Registry::builtin().find(record.game);
  if (!info) {
    spdlog::error("table {}: game '{}' is not known to this node; left as it is", record.id, record.game);
    return;
  }
  const auto id = record.id;
  const auto invite = record.invite;
  std::shared_ptr<TableActor> table;
  std::string unreplayable;
  try {
    table = make_table(record, *info, events);
  } catch (const std::exception& e) {
    unreplayable = e.what();
    table = make_table(record, *info, {});
  }
  table->serve_under_lease(storage::Fence{config_.node, generation},
                           [this](const std::string& lost) { forget(lost); });
  {
    std::lock_guard lock(mutex_);
    if (auto old = tables_.find(id); old != tables_.end()) old->second->retire("served anew under a new lease");
    tables_[id] = table;
    if (!invite.empty()) invites_[invite] = id;
    leased_[id] = generation;
  }
  if (unreplayable.empty()) {
    table->wake();
  } else {
    spdlog::error("table {}: quarantined: {}", id, unreplayable);
    table->quarantine(unreplayable);
  }
}

bool Lobby::serves(const std::string& table) const {
  std::lock_guard lock(mutex_);
  return leased_.count(table) != 0;
}

std::vector<ServedTable> Lobby::served_tables() const {
  std::vector<ServedTable> served;
  std::lock_guard lock(mutex_);
  for (const auto& [id, generation] : leased_) {
    const auto it = tables_.find(id);
    if (it == tables_.end()) continue;
    auto snapshot = it->second->snapshot();
    served.push_back({id, generation, snapshot.status, std::move(snapshot.summary)});
  }
  return served;
}

std::optional<std::int64_t> Lobby::served_unfinished(const std::string& table) const {
  std::lock_guard lock(mutex_);
  const auto lease = leased_.find(table);
  const auto it = tables_.find(table);
  if (lease == leased_.end() || it == tables_.end() || it->second->snapshot().status == "finished") return std::nullopt;
  return lease->second;
}

void Lobby::retire(const std::string& table, const std::string& why) {
  const auto actor = find_loaded(table);
  forget(table);
  if (actor) actor->retire(why);
}

void Lobby::set_tables_elsewhere(std::vector<Json> lines) {
  std::lock_guard lock(mutex_);
  elsewhere_ = std::move(lines);
}

void Lobby::serve_created(const std::string& table, std::function<void()> reply) {
  cluster_->acquire(table, [table, reply = std::move(reply)](Cluster::Where where) {
    // Served here or not, the table exists: a node that cannot take it now
    // (another claimed it first) leaves it to whoever does.
    if (where != Cluster::Where::here) spdlog::warn("table {}: created, but served by another node", table);
    reply();
  });
}

void Lobby::restore() {
  const std::unique_ptr<storage::Store> store = storage::open_store(config_.db);
  storage::Store& db = *store;
  std::vector<storage::TableRecord> stored;
  for (const char* status : {"waiting", "playing"})
    for (auto& t : db.tables_with_status(status)) stored.push_back(std::move(t));
  for (auto& record : stored) {
    const auto* info = rules::Registry::builtin().find(record.game);
    if (!info) {
      spdlog::error("table {}: game '{}' is not known to this server; left as it is", record.id, record.game);
      continue;
    }
    const auto events = db.events(record.id);
    const auto id = record.id;
    const auto invite = record.invite;
    try {
      auto table = make_table(record, *info, events);
      add_table(table, invite);
      spdlog::info("table {}: restored ({} events)", id, events.size());
      table->wake();
    } catch (const std::exception& e) {
      // The server starts anyway; this table is stopped, its chips shared out.
      spdlog::error("table {}: quarantined: {}", id, e.what());
      auto table = make_table(record, *info, {});
      add_table(table, invite);
      table->quarantine(e.what());
    }
  }
}

void Lobby::start_housekeeping() {
  sweep_timer_.expires_after(housekeeping_every);
  sweep_timer_.async_wait([this](const boost::system::error_code& ec) {
    if (ec) return;
    try {
      housekeeping();
    } catch (const std::exception& e) {
      spdlog::error("lobby housekeeping failed: {}", e.what());
    }
    start_housekeeping();
  });
}

// Finished tables leave memory after a while unused (they are read back from
// the database if someone asks for them); waiting tables nobody started expire.
void Lobby::housekeeping() {
  const auto now = std::chrono::steady_clock::now();
  std::vector<std::shared_ptr<TableActor>> to_expire;
  std::lock_guard lock(mutex_);
  for (auto it = tables_.begin(); it != tables_.end();) {
    const auto snapshot = it->second->snapshot();
    if (snapshot.status == "finished") {
      auto [seen, fresh] = finished_seen_.try_emplace(it->first, now);
      // A finished table people still chat at (or open the rematch of) stays.
      if (!fresh && now - seen->second > finished_kept_in_memory && it->second->idle_for() > finished_kept_in_memory) {
        invites_.erase(snapshot.invite);
        finished_seen_.erase(seen);
        leased_.erase(it->first);
        it = tables_.erase(it);
        continue;
      }
    } else if (snapshot.status == "waiting" && it->second->idle_for() > std::chrono::hours(config_.waiting_table_hours)) {
      it->second->expire();
    }
    ++it;
  }
}

Json Lobby::tables() const {
  std::vector<TableSnapshot> open;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, table] : tables_) {
      auto snapshot = table->snapshot();
      if (snapshot.is_private || snapshot.status == "finished") continue;
      open.push_back(std::move(snapshot));
    }
  }
  // Tables still waiting for players first; the list is capped so that a
  // reply stays small however many tables there are.
  std::stable_sort(open.begin(), open.end(),
                   [](const TableSnapshot& a, const TableSnapshot& b) { return a.status == "waiting" && b.status != "waiting"; });
  Json list = Json::array();
  for (const auto& snapshot : open) {
    if (list.size() >= static_cast<std::size_t>(config_.max_listed_tables)) break;
    list.push_back(snapshot.summary);
  }
  std::lock_guard lock(mutex_);
  for (const auto& line : elsewhere_) {
    if (list.size() >= static_cast<std::size_t>(config_.max_listed_tables)) break;
    // A table that came here since the other node's line was read is listed once, as here.
    if (tables_.count(line.value("table", ""))) continue;
    list.push_back(line);
  }
  return list;
}

int Lobby::open_tables_of(const std::string& host) const {
  const auto key = storage::player_account(host);
  int open = 0;
  for (const auto& [id, table] : tables_) {
    const auto snapshot = table->snapshot();
    if (snapshot.status != "finished" && storage::player_account(snapshot.host) == key) ++open;
  }
  return open;
}

void Lobby::create(const std::string& host, const protocol::Create& request,
                   std::function<void(Json, std::optional<ProtocolError>)> done) {
  const auto* info = rules::Registry::builtin().find(request.game);
  if (!info) return done({}, ProtocolError(code::not_found, "no game " + quoted(request.game) + "; see `games`"));
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
  {
    std::lock_guard lock(mutex_);
    if (open_tables_of(host) >= config_.max_open_tables)
      return done({}, ProtocolError(code::conflict, "you already host " + std::to_string(config_.max_open_tables) +
                                                        " open tables; end one before creating another"));
  }
  storage::TableRecord record;
  record.id = "t" + random_id(8);
  record.game = info->id;
  record.options_json = options.dump();
  record.seed = request.seed ? *request.seed : random_seed();
  record.host = host;
  record.status = "waiting";
  record.is_private = request.is_private;
  record.invite = random_id(12);
  record.clock_json = protocol::clock_to_json(request.clock).dump();
  // A stacked deck is checked against the seats actually taken, at `start`.
  if (request.deck) record.deck_json = Json(rules::to_strings(*request.deck)).dump();
  for (int seat = 0; seat < seats; ++seat) record.seats.push_back({seat, "", false, 0});
  writer_.run([record](storage::Store& db) { db.create_table(record); },
              [this, record, info, done](std::exception_ptr error) {
                if (error) {
                  try {
                    std::rethrow_exception(error);
                  } catch (const std::exception& e) {
                    spdlog::error("creating a table failed: {}", e.what());
                  }
                  return done({}, ProtocolError(code::internal, "could not create the table"));
                }
                spdlog::info("table {}: {} created by {}{}", record.id, record.game, record.host,
                             record.is_private ? " (private)" : "");
                Json created{{"table", record.id}, {"invite", record.invite}};
                if (clustered()) return serve_created(record.id, [done, created] { done(created, std::nullopt); });
                try {
                  auto table = make_table(record, *info, {});
                  add_table(table, record.invite);
                } catch (const std::exception& e) {
                  spdlog::error("table {}: could not be set up: {}", record.id, e.what());
                  return done({}, ProtocolError(code::internal, "could not set up the table"));
                }
                done(created, std::nullopt);
              });
}

void Lobby::create_rematch(RematchPlan plan, std::function<void(Json, std::optional<ProtocolError>)> done) {
  if (plan.made) return answer_rematch_again(*plan.made, std::move(done));
  const auto* info = rules::Registry::builtin().find(plan.game);
  if (!info) return done({}, ProtocolError(code::not_found, "the game '" + plan.game + "' is no longer served"));
  {
    std::lock_guard lock(mutex_);
    if (open_tables_of(plan.host) >= config_.max_open_tables)
      return done({}, ProtocolError(code::conflict, "you already host " + std::to_string(config_.max_open_tables) +
                                                        " open tables; end one before opening a rematch"));
  }
  storage::TableRecord record;
  record.id = "t" + random_id(8);
  record.game = info->id;
  record.options_json = plan.options_json;
  record.seed = plan.same_seed ? plan.seed : random_seed();
  record.host = plan.host;
  record.status = "waiting";
  record.is_private = plan.is_private;
  record.invite = random_id(12);
  record.clock_json = plan.clock_json;
  record.deck_json = plan.same_seed ? plan.deck_json : "";
  // The first step: the event naming the old table (with its standings, for the
  // comparison) and the starting chips of each bot, a new name at a new table.
  storage::TableWrite first;
  first.table = record.id;
  first.event = storage::Event{1, Json({{"kind", "rematch_of"},
                                        {"table", plan.from_table},
                                        {"same_seed", plan.same_seed},
                                        {"standings", plan.standings}})
                                      .dump(-1, ' ', false, Json::error_handler_t::replace)};
  for (auto seat : plan.seats) {
    if (seat.bot) {
      seat.player = new_bot_name(seat.seat);
      if (config_.starting_chips > 0)
        first.postings.push_back({storage::bank_account(), storage::player_account(seat.player), config_.starting_chips,
                                  "starting chips (bot)", record.id, info->id, std::nullopt, std::nullopt});
    }
    record.seats.push_back(std::move(seat));
  }
  // The old table's step naming this one, in the same transaction (see RematchPlan).
  storage::TableWrite named_in_old;
  named_in_old.table = plan.from_table;
  named_in_old.fence = plan.fence;
  named_in_old.event = storage::Event{plan.seq, rematch_event(record.id, plan.same_seed).dump()};
  writer_.run(
      [this, record, first, named_in_old](storage::Store& db) {
        db.create_table(record, {first, named_in_old});
        auto lock = balances_.lock();
        balances_.apply_committed(first.postings, lock);
      },
      [this, record, first, info, from = plan.from_table, done](std::exception_ptr error) {
        if (error) {
          try {
            std::rethrow_exception(error);
          } catch (const std::exception& e) {
            spdlog::error("the rematch of table {} could not be created: {}", from, e.what());
          }
          return done({}, ProtocolError(code::internal, "could not create the rematch"));
        }
        spdlog::info("table {}: {} created by {} as the rematch of {}", record.id, record.game, record.host, from);
        Json created{{"table", record.id}, {"invite", record.invite}};
        if (clustered()) return serve_created(record.id, [done, created] { done(created, std::nullopt); });
        try {
          auto table = make_table(record, *info, {*first.event});
          add_table(table, record.invite);
        } catch (const std::exception& e) {
          spdlog::error("table {}: the rematch of {} could not be set up: {}", record.id, from, e.what());
          return done({}, ProtocolError(code::internal, "could not set up the rematch"));
        }
        done(created, std::nullopt);
      });
}

// A retried rematch: the table made the first time, with its invite (the host's
// to hand out), read back if it is not here.
void Lobby::answer_rematch_again(const std::string& table,
                                 std::function<void(Json, std::optional<ProtocolError>)> done) {
  if (auto loaded = find_loaded(table)) return done({{"table", table}, {"invite", loaded->snapshot().invite}}, std::nullopt);
  const bool queued = reader_.run([table, done](storage::Store& db) {
    std::optional<storage::TableRecord> record;
    try {
      record = db.find_table(table);
    } catch (const std::exception& e) {
      spdlog::error("table {}: could not be read back for a retried rematch: {}", table, e.what());
    }
    if (!record) return done({}, ProtocolError(code::internal, "could not read the rematch, table " + table));
    done({{"table", table}, {"invite", record->invite}}, std::nullopt);
  });
  if (!queued) done({}, ProtocolError(code::rate_limited, "the server is busy; try again"));
}

std::shared_ptr<TableActor> Lobby::find_loaded(const std::string& table) const {
  std::lock_guard lock(mutex_);
  auto it = tables_.find(table);
  return it == tables_.end() ? nullptr : it->second;
}

void Lobby::find(const std::string& table, std::function<void(std::shared_ptr<TableActor>)> done) {
  if (auto loaded = find_loaded(table)) return done(loaded);
  // Every unfinished table is in memory; a finished one is read back to be watched.
  const bool queued = reader_.run([this, table, done](storage::Store& db) {
    std::shared_ptr<TableActor> found;
    try {
      auto record = db.find_table(table);
      const auto* info = record ? rules::Registry::builtin().find(record->game) : nullptr;
      if (record && info && record->status == "finished") {
        std::vector<storage::Event> events;
        if (record->failure.empty()) events = db.events(table);
        try {
          found = make_table(*record, *info, events);
        } catch (const ReplayError& e) {
          spdlog::warn("table {}: its finished game cannot be replayed ({}); shown without it", table, e.what());
          found = make_table(*record, *info, {});
        }
        std::lock_guard lock(mutex_);
        auto [it, fresh] = tables_.try_emplace(table, found);
        found = it->second;
        if (fresh && !record->invite.empty()) invites_[record->invite] = table;
      }
    } catch (const std::exception& e) {
      spdlog::error("table {}: could not be read back: {}", table, e.what());
    }
    done(found);
  });
  if (!queued) done(nullptr);
}

std::shared_ptr<TableActor> Lobby::find_by_invite(const std::string& invite) const {
  std::lock_guard lock(mutex_);
  auto it = invites_.find(invite);
  if (it == invites_.end()) return nullptr;
  auto table = tables_.find(it->second);
  return table == tables_.end() ? nullptr : table->second;
}

void Lobby::history(const std::string& table, const HistoryQuery& query,
                    std::function<void(Json, std::optional<ProtocolError>)> done) {
  const Config& config = config_;
  const bool queued = reader_.run([table, query, done, &config](storage::Store& db) {
    Json doc;
    try {
      const auto record = db.find_table(table);
      if (!record) return done({}, ProtocolError(code::not_found, "no table " + quoted(table)));
      doc = build_history(*record, db.events(table), config, query);
    } catch (const ProtocolError& e) {
      return done({}, e);
    } catch (const std::exception& e) {
      spdlog::error("table {}: its history could not be built for {}: {}", table, query.viewer, e.what());
      return done({}, ProtocolError(code::internal, "could not build the history"));
    }
    spdlog::info("table {}: {} reads the history of deal {}", table, query.viewer, doc["deal"].dump());
    done(std::move(doc), std::nullopt);
  });
  if (!queued) done({}, ProtocolError(code::rate_limited, "the server is busy; try again"));
}

std::size_t Lobby::table_count() const {
  std::lock_guard lock(mutex_);
  return tables_.size();
}

// ---------------------------------------------------------------- players

bool Lobby::may_register_from(const std::string& address) {
  const auto now = std::chrono::steady_clock::now();
  std::lock_guard lock(registrations_mutex_);
  auto& times = registrations_[address];
  while (!times.empty() && now - times.front() > std::chrono::hours(1)) times.pop_front();
  if (static_cast<int>(times.size()) >= config_.registrations_per_ip_per_hour) return false;
  times.push_back(now);
  return true;
}

void Lobby::hello(const protocol::Hello& hello, const std::string& address, HelloDone done) {
  // Several nodes: the name may have been registered on another node since
  // this one last read the players.
  if (clustered() && !players_.find(hello.name)) {
    const bool queued = reader_.run([this, hello, address, done](storage::Store& db) {
      try {
        if (auto player = db.find_player(hello.name)) players_.add(*player);
      } catch (const std::exception& e) {
        spdlog::error("looking up player {} failed: {}", hello.name, e.what());
        return done(std::nullopt, ProtocolError(code::internal, "could not look up the name; try again"));
      }
      known_hello(hello, address, done);
    });
    if (!queued) done(std::nullopt, ProtocolError(code::rate_limited, "the server is busy; try again"));
    return;
  }
  known_hello(hello, address, done);
}

void Lobby::known_hello(const protocol::Hello& hello, const std::string& address, HelloDone done) {
  if (auto existing = players_.find(hello.name)) {
    if (!hello.token || !constant_time_equal(sha256_hex(*hello.token), existing->token_hash))
      return done(std::nullopt, ProtocolError(code::unauthorized, "the name '" + existing->name +
                                                                      "' is registered; send its token to sign in"));
    const auto chips = balances_.balance(storage::player_account(existing->name));
    return done(Welcome{existing->name, *hello.token, chips}, std::nullopt);
  }
  if (is_bot_name(hello.name))
    return done(std::nullopt, ProtocolError(code::name_taken, "names starting with 'bot-' are kept for bots"));
  if (!may_register_from(address))
    return done(std::nullopt,
                ProtocolError(code::rate_limited, "too many new names from your address this hour (at most " +
                                                      std::to_string(config_.registrations_per_ip_per_hour) +
                                                      "); sign in with a name you have"));
  auto token = new_token();
  auto hash = sha256_hex(token);
  const auto chips = config_.starting_chips;
  auto name = hello.name;
  writer_.run(
      [this, name, hash, chips](storage::Store& db) {
        const auto player = db.create_player(name, hash, chips);
        // In memory as soon as it is on disk, before anyone can hear of it.
        players_.add(player);
        auto lock = balances_.lock();
        balances_.apply_committed({{storage::bank_account(), storage::player_account(name), chips, "starting chips", "", "", std::nullopt, std::nullopt}},
                        lock);
      },
      [name, token, chips, done](std::exception_ptr error) {
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
        spdlog::info("player {} registered with {} chips", name, chips);
        done(Welcome{name, token, chips}, std::nullopt);
      });
}

std::optional<std::string> Lobby::player_for_bearer(const std::string& token) const {
  auto player = players_.find_by_token_hash(sha256_hex(token));
  if (player) return player->name;
  return std::nullopt;
}

void Lobby::ledger(const std::string& viewer, const std::string& player, int limit, std::optional<std::int64_t> before,
                   std::function<void(Json, std::optional<ProtocolError>)> done) {
  std::string name;
  if (auto registered = players_.find(player)) {
    name = registered->name;
  } else {
    auto lock = balances_.lock();
    if (!is_bot_name(player) || !balances_.known(storage::player_account(player), lock))
      return done({}, ProtocolError(code::not_found, "no player named " + quoted(player)));
    name = player;
  }
  const auto account = storage::player_account(name);
  const bool own = storage::player_account(viewer) == account;
  const bool queued = reader_.run([name, account, own, limit, before, done](storage::Store& db) {
    try {
      Json entries = Json::array();
      for (const auto& e : db.ledger(account, limit, before)) {
        // A private table is known to its players only: others see the movement, not the table.
        const bool hide_table = e.table_private && !own;
        entries.push_back({{"entry", e.entry},
                           {"time", e.time},
                           {"amount", e.amount},
                           {"balance", e.balance},
                           {"table", e.table.empty() || hide_table ? Json() : Json(e.table)},
                           {"game", e.game.empty() ? Json() : Json(e.game)},
                           {"memo", e.memo},
                           {"seq", e.seq && !hide_table ? Json(*e.seq) : Json()},
                           {"deal", e.deal && !hide_table ? Json(*e.deal) : Json()}});
      }
      done({{"player", name}, {"balance", db.balance(account)}, {"entries", entries}}, std::nullopt);
    } catch (const std::exception& e) {
      spdlog::error("reading the ledger of {} failed: {}", name, e.what());
      done({}, ProtocolError(code::internal, "could not read the ledger"));
    }
  });
  if (!queued) done({}, ProtocolError(code::rate_limited, "the server is busy; try again"));
}

namespace {

// A private table is settled only by its host and its players; to anyone else
// it does not exist (as in their ledger, where its id is hidden).
bool may_settle(const storage::TableRecord& table, const std::string& viewer) {
  const auto key = storage::player_account(viewer);
  if (!table.is_private || storage::player_account(table.host) == key) return true;
  return std::any_of(table.seats.begin(), table.seats.end(),
                     [&](const storage::Seat& seat) { return storage::player_account(seat.player) == key; });
}

}  // namespace

void Lobby::settle(const std::string& viewer, std::optional<std::vector<std::string>> tables,
                   std::function<void(Json, std::optional<ProtocolError>)> done) {
  if (tables && (tables->empty() || tables->size() > protocol::max_settle_tables))
    return done({}, ProtocolError(code::bad_request, "settle-up takes 1 to " +
                                                         std::to_string(protocol::max_settle_tables) +
                                                         " tables, got " + std::to_string(tables->size())));
  const auto since = storage::utc_iso8601(std::chrono::system_clock::now() - settle_window);
  const bool queued = reader_.run([this, viewer, tables, since, done](storage::Store& db) {
    try {
      std::vector<storage::TableRecord> chosen;
      if (!tables) {
        chosen = db.tables_hosted_since(viewer, since, static_cast<int>(protocol::max_settle_tables));
      } else {
        for (const auto& id : *tables) {
          auto record = db.find_table(id);
          if (!record || !may_settle(*record, viewer))
            return done({}, ProtocolError(code::not_found, "no table " + quoted(id)));
          chosen.push_back(std::move(*record));
        }
      }
      Json fields = settle_report(db, chosen, [this](const std::string& name) -> std::optional<std::string> {
        if (auto player = players_.find(name)) return player->name;
        return std::nullopt;
      });
      if (!tables) fields["since"] = since;
      spdlog::info("settle-up for {}: {} tables, {} payments", viewer, chosen.size(), fields["payments"].size());
      done(std::move(fields), std::nullopt);
    } catch (const std::exception& e) {
      spdlog::error("settle-up for {} failed: {}", viewer, e.what());
      done({}, ProtocolError(code::internal, "could not settle up"));
    }
  });
  if (!queued) done({}, ProtocolError(code::rate_limited, "the server is busy; try again"));
}

}  // namespace parlour::server
