#include "server/lobby/lobby.h"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include "server/common/names.h"
#include "server/common/table_titles.h"
#include "server/cluster/cluster.h"
#include "server/ledger/settle_report.h"
#include "server/common/tokens.h"

namespace parlour::server {

namespace code = protocol::code;

namespace {

constexpr std::size_t max_quoted_chars = 40;
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
  return name.size() >= 4 && same_name(std::string_view(name).substr(0, 4), "bot-");
}

Lobby::Lobby(boost::asio::io_context& io, const Config& config, Writer& writer, Reader& reader,
             LiveBalances& balances, PlayerDirectory& players)
    : io_(io),
      config_(config),
      writer_(writer),
      reader_(reader),
      history_cache_(static_cast<std::size_t>(config.history_cache_mb) << 20),
      balances_(balances),
      players_(players),
      sweep_timer_(io),
      origin_((config.node.empty() ? std::string("server ") : "node " + config.node + " ") + random_id(8)),
      registrations_(static_cast<std::size_t>(config.registrations_per_ip_per_hour), 3'600'000),
      creations_(static_cast<std::size_t>(config.tables_per_hour), 3'600'000),
      chat_limit_(std::make_shared<WindowLimit>(TableCore::chat_lines_per_window, TableCore::chat_window_ms)),
      recovery_by_name_(static_cast<std::size_t>(config.recovery_tries_per_hour), 3'600'000),
      recovery_by_address_(static_cast<std::size_t>(config.recovery_tries_per_hour), 3'600'000),
      signup_links_(static_cast<std::size_t>(config.signup_links_per_day), 24 * 3'600'000),
      device_links_(20, 3'600'000),
      presence_timer_(io) {
  games_ = Json::array();
  for (const auto& game : rules::Registry::builtin().all()) games_.push_back(rules::info_to_json(game));
  // Heard on the filing thread; the tables are the I/O threads'.
  writer_.when_steps_are_refused(
      [this](const storage::RefusedStep& step) { boost::asio::post(io_, [this, step] { step_refused(step); }); });
}

Lobby::~Lobby() { writer_.when_steps_are_refused(nullptr); }

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
                        },
                        chat_limit_};
  auto actor =
      std::make_shared<TableActor>(io_, writer_, std::make_unique<TableCore>(services, std::move(record), info, events));
  // The lobby outlives every table.
  actor->make_rematches_with(
      [this](RematchPlan plan, TableActor::RematchDone done) { create_rematch(std::move(plan), std::move(done)); });
  return actor;
}

void Lobby::add_table(const std::shared_ptr<TableActor>& table, const std::string& invite) {
  std::lock_guard lock(mutex_);
  add_table_locked(table, invite);
}

void Lobby::add_table_locked(const std::shared_ptr<TableActor>& table, const std::string& invite) {
  // The lobby outlives every table.
  table->listen([this](const TableActor& actor, const TableSnapshot& snapshot) { table_changed(actor, snapshot); });
  const auto snapshot = table->snapshot();
  if (!invite.empty()) invites_[invite] = table->id();
  if (snapshot.status == "finished") return keep_finished(table, invite);
  tables_[table->id()] = table;
  index(snapshot);
}

void Lobby::table_changed(const TableActor& actor, const TableSnapshot& snapshot) {
  std::lock_guard lock(mutex_);
  const auto it = tables_.find(snapshot.id);
  // A table finished already, retired, or replaced by a newer actor is not ours to index.
  if (it == tables_.end() || it->second.get() != &actor) return;
  index(snapshot);
  if (snapshot.status != "finished") return;
  auto table = std::move(it->second);
  tables_.erase(it);
  // Several nodes: its lease stays listed (served_tables) until the table is
  // gone, so that the finishing step is written under it before it is dropped.
  keep_finished(table, snapshot.invite);
  spdlog::debug("table {}: finished; {} open and {} finished tables in memory", snapshot.id, tables_.size(),
                finished_.size());
}

void Lobby::index(const TableSnapshot& snapshot) {
  unindex(snapshot.id, snapshot.host);
  if (snapshot.status == "finished") return;
  open_by_host_[storage::player_account(snapshot.host)].insert(snapshot.id);
  hold(snapshot);
  if (snapshot.is_private) return;
  auto& listed = snapshot.status == "waiting" ? listed_waiting_ : listed_playing_;
  listed[snapshot.id] = std::make_shared<const Json>(snapshot.summary);
}

// An open table under its host and each player who holds a seat there, with
// its line as "Your tables" shows it.
void Lobby::hold(const TableSnapshot& snapshot) {
  if (!snapshot.summary.is_object()) return;
  Held held;
  held.accounts.push_back(storage::player_account(snapshot.host));
  for (const auto& player : snapshot.holders) held.accounts.push_back(storage::player_account(player));
  std::sort(held.accounts.begin(), held.accounts.end());
  held.accounts.erase(std::unique(held.accounts.begin(), held.accounts.end()), held.accounts.end());
  Json line = snapshot.summary;
  line["private"] = snapshot.is_private;
  held.line = std::make_shared<const Json>(std::move(line));
  for (const auto& account : held.accounts) held_by_[account].insert(snapshot.id);
  held_[snapshot.id] = std::move(held);
}

void Lobby::unindex(const std::string& table, const std::string& host_name) {
  listed_waiting_.erase(table);
  listed_playing_.erase(table);
  if (const auto held = held_.find(table); held != held_.end()) {
    for (const auto& account : held->second.accounts) {
      const auto by = held_by_.find(account);
      if (by != held_by_.end() && by->second.erase(table) && by->second.empty()) held_by_.erase(by);
    }
    held_.erase(held);
  }
  const auto host = open_by_host_.find(storage::player_account(host_name));
  if (host == open_by_host_.end()) return;
  host->second.erase(table);
  if (host->second.empty()) open_by_host_.erase(host);
}

void Lobby::keep_finished(const std::shared_ptr<TableActor>& table, const std::string& invite) {
  finished_[table->id()] = Finished{table, invite};
  recent_finished_.push_back(table);
  while (recent_finished_.size() > static_cast<std::size_t>(config_.max_finished_tables)) recent_finished_.pop_front();
  // Amortised: the entries of finished tables nobody holds go when the map has doubled.
  if (finished_.size() > 2 * finished_swept_size_ + 64) sweep_finished_locked();
}

void Lobby::sweep_finished_locked() {
  for (auto it = finished_.begin(); it != finished_.end();) {
    if (it->second.table.expired()) {
      if (!it->second.invite.empty()) invites_.erase(it->second.invite);
      leased_.erase(it->first);
      it = finished_.erase(it);
    } else {
      ++it;
    }
  }
  finished_swept_size_ = finished_.size();
}

std::shared_ptr<TableActor> Lobby::loaded_locked(const std::string& table) const {
  if (const auto it = tables_.find(table); it != tables_.end()) return it->second;
  if (const auto it = finished_.find(table); it != finished_.end()) return it->second.table.lock();
  return nullptr;
}

void Lobby::forget(const std::string& table) {
  std::lock_guard lock(mutex_);
  if (const auto it = tables_.find(table); it != tables_.end()) {
    const auto snapshot = it->second->snapshot();
    unindex(table, snapshot.host);
    invites_.erase(snapshot.invite);
    tables_.erase(it);
  }
  if (const auto it = finished_.find(table); it != finished_.end()) {
    invites_.erase(it->second.invite);
    finished_.erase(it);
  }
  leased_.erase(table);
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
    if (auto old = tables_.find(id); old != tables_.end()) {
      old->second->retire("served anew under a new lease");
      unindex(id, old->second->snapshot().host);
      tables_.erase(old);
    }
    finished_.erase(id);
    leased_[id] = generation;
    add_table_locked(table, invite);
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
    const auto table = loaded_locked(id);
    if (!table) continue;
    auto snapshot = table->snapshot();
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

void Lobby::step_refused(const storage::RefusedStep& step) {
  spdlog::error("table {}: stopped: the database refused {} when it was filed: {}", step.table,
                step.seq ? "step " + std::to_string(*step.seq) : std::string("a step"), step.why);
  const auto actor = find_loaded(step.table);
  forget(step.table);
  if (!actor) return;
  const auto holders = actor->snapshot().holders;
  actor->retire("the database refused a step",
                "table " + step.table + " stopped: the server could not record a step of it (" + step.why +
                    "); its chips are as its last recorded step left them");
  for (const auto& name : holders) learn_balance(name, [] {});
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

// Waiting tables nobody started expire; the entries of finished tables nobody
// holds any more are forgotten (finished tables leave memory as soon as nothing
// holds them, see keep_finished).
void Lobby::housekeeping() {
  std::vector<std::shared_ptr<TableActor>> to_expire;
  {
    std::lock_guard lock(mutex_);
    sweep_finished_locked();
    for (const auto& [id, table] : tables_)
      if (table->snapshot().status == "waiting" && table->idle_for() > std::chrono::hours(config_.waiting_table_hours))
        to_expire.push_back(table);
  }
  for (const auto& table : to_expire) table->expire();
}

// Costs what it returns: the lines are kept up to date by the tables
// themselves (table_changed), waiting tables first; the list is capped so that
// a reply stays small however many tables there are.
Json Lobby::tables() const {
  const auto most = static_cast<std::size_t>(config_.max_listed_tables);
  std::vector<std::shared_ptr<const Json>> lines;
  std::vector<Json> elsewhere;
  {
    std::lock_guard lock(mutex_);
    for (const auto* listed : {&listed_waiting_, &listed_playing_})
      for (auto it = listed->begin(); it != listed->end() && lines.size() < most; ++it) lines.push_back(it->second);
    for (const auto& line : elsewhere_) {
      if (lines.size() + elsewhere.size() >= most) break;
      // A table that came here since the other node's line was read is listed once, as here.
      const auto id = line.value("table", "");
      if (tables_.count(id) || finished_.count(id)) continue;
      elsewhere.push_back(line);
    }
  }
  Json list = Json::array();
  for (const auto& line : lines) list.push_back(*line);
  for (auto& line : elsewhere) list.push_back(std::move(line));
  return list;
}

Json Lobby::tables_of(const std::string& player) const {
  std::vector<std::shared_ptr<const Json>> lines;
  {
    std::lock_guard lock(mutex_);
    if (const auto tables = held_by_.find(storage::player_account(player)); tables != held_by_.end())
      for (const auto& id : tables->second) lines.push_back(held_.at(id).line);
  }
  Json list = Json::array();
  for (const auto& line : lines) list.push_back(*line);
  return list;
}

int Lobby::open_tables_of(const std::string& host) const {
  const auto it = open_by_host_.find(storage::player_account(host));
  return it == open_by_host_.end() ? 0 : static_cast<int>(it->second.size());
}

std::optional<ProtocolError> Lobby::creation_refused(const std::string& host) {
  const auto retry_after = creations_.take(storage::player_account(host), steady_ms());
  if (!retry_after) return std::nullopt;
  return ProtocolError(code::rate_limited, "you may create " + std::to_string(config_.tables_per_hour) +
                                               " tables an hour (rematches included); try again in " +
                                               std::to_string((*retry_after + 59'999) / 60'000) + " min");
}

void Lobby::create(const std::string& host, const protocol::Create& request, Done done) {
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
  storage::TableRecord record;
  record.options_json = options.dump();
  record.seed = request.seed ? *request.seed : random_seed();
  record.host = host;
  record.is_private = request.is_private;
  record.clock_json = protocol::clock_to_json(request.clock).dump();
  // A stacked deck is checked against the seats actually taken, at `start`.
  if (request.deck) record.deck_json = Json(rules::to_strings(*request.deck)).dump();
  for (int seat = 0; seat < seats; ++seat) record.seats.push_back({seat, "", false, 0});
  open_table(std::move(record), *info, {}, "", std::move(done));
}

void Lobby::create_rematch(RematchPlan plan, Done done) {
  if (plan.made) return answer_rematch_again(*plan.made, std::move(done));
  const auto* info = rules::Registry::builtin().find(plan.game);
  if (!info) return done({}, ProtocolError(code::not_found, "the game '" + plan.game + "' is no longer served"));
  storage::TableRecord record;
  record.id = new_table_id();
  record.options_json = plan.options_json;
  record.seed = plan.same_seed ? plan.seed : random_seed();
  record.host = plan.host;
  record.is_private = plan.is_private;
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
  open_table(std::move(record), *info, {std::move(first), std::move(named_in_old)}, plan.from_table, std::move(done));
}

std::string Lobby::new_table_id() const {
  std::set<std::uint32_t> taken;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, table] : tables_) taken.insert(table_title_slot(id));
  }  // the draws (reads of the system's randomness) need no lock
  return id_with_free_title(taken, [] { return "t" + random_id(8); });
}

// Every table is opened here, a new one or a rematch: the host's limits, the
// record and its first steps in one transaction (with their postings applied to
// the live balances), then the table served here (several nodes: claimed first).
// `steps` start with the new table's own first step, if any; `rematch_of` names
// the old table of a rematch ("" for a new table).
void Lobby::open_table(storage::TableRecord record, const rules::GameInfo& info, std::vector<storage::TableWrite> steps,
                       std::string rematch_of, Done done) {
  {
    std::lock_guard lock(mutex_);
    if (open_tables_of(record.host) >= config_.max_open_tables)
      return done({}, ProtocolError(code::conflict, "you already host " + std::to_string(config_.max_open_tables) +
                                                        " open tables; end one before " +
                                                        (rematch_of.empty() ? "creating another" : "opening a rematch")));
  }
  if (auto refused = creation_refused(record.host)) return done({}, *refused);
  if (record.id.empty()) record.id = new_table_id();
  record.game = info.id;
  record.status = "waiting";
  record.invite = random_id(12);
  std::vector<storage::Event> own_events;
  std::vector<storage::Posting> postings;
  for (const auto& step : steps) {
    if (step.table != record.id) continue;
    if (step.event) own_events.push_back(*step.event);
    postings.insert(postings.end(), step.postings.begin(), step.postings.end());
  }
  const std::string what = rematch_of.empty() ? "the table" : "the rematch";
  writer_.run(
      [this, record, steps, postings](storage::Store& db) {
        if (steps.empty()) db.create_table(record);
        else db.create_table(record, steps);
        if (postings.empty()) return;
        auto lock = balances_.lock();
        balances_.apply_committed(postings, lock);
      },
      [this, record, info = &info, own_events, rematch_of, what, done](std::exception_ptr error) {
        if (error) {
          try {
            std::rethrow_exception(error);
          } catch (const std::exception& e) {
            spdlog::error("creating {} failed{}: {}", what, rematch_of.empty() ? "" : " (of table " + rematch_of + ")",
                          e.what());
          }
          return done({}, ProtocolError(code::internal, "could not create " + what));
        }
        spdlog::info("table {}: {} created by {}{}{}", record.id, record.game, record.host,
                     record.is_private ? " (private)" : "", rematch_of.empty() ? "" : " as the rematch of " + rematch_of);
        Json created{{"table", record.id}, {"invite", record.invite}};
        if (clustered()) return serve_created(record.id, [done, created] { done(created, std::nullopt); });
        try {
          add_table(make_table(record, *info, own_events), record.invite);
        } catch (const std::exception& e) {
          spdlog::error("table {}: could not be set up: {}", record.id, e.what());
          return done({}, ProtocolError(code::internal, "could not set up " + what));
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
  return loaded_locked(table);
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
        // Read back meanwhile by another request: that one actor serves both.
        if (auto loaded = loaded_locked(table)) found = loaded;
        else add_table_locked(found, record->invite);
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
  return loaded_locked(it->second);
}

std::optional<ProtocolError> Lobby::read_for(const std::string& viewer, Reader::Work work) {
  switch (reader_.run_for(storage::player_account(viewer), std::move(work))) {
    case Reader::Admission::queued: return std::nullopt;
    case Reader::Admission::client_full:
      return ProtocolError(code::rate_limited, "you already have " + std::to_string(reader_.max_per_client()) +
                                                   " history, ledger or settle-up reads waiting; ask again once "
                                                   "they are answered");
    case Reader::Admission::server_full: break;
  }
  return ProtocolError(code::rate_limited, "the server is busy; try again");
}

void Lobby::history(const std::string& table, const HistoryQuery& query,
                    std::function<void(Json, std::optional<ProtocolError>)> done) {
  const auto refused = read_for(query.viewer, [this, table, query, done](storage::Store& db) {
    Json doc;
    try {
      const auto record = db.find_table(table);
      if (!record) return done({}, ProtocolError(code::not_found, "no table " + quoted(table)));
      doc = history_cache_.build(db, *record, query);
    } catch (const ProtocolError& e) {
      return done({}, e);
    } catch (const std::exception& e) {
      spdlog::error("table {}: its history could not be built for {}: {}", table, query.viewer, e.what());
      return done({}, ProtocolError(code::internal, "could not build the history"));
    }
    spdlog::info("table {}: {} reads the history of deal {}", table, query.viewer, doc["deal"].dump());
    done(std::move(doc), std::nullopt);
  });
  if (refused) done({}, *refused);
}

Lobby::Counts Lobby::table_counts() const {
  std::lock_guard lock(mutex_);
  Counts counts{tables_.size(), 0};
  for (const auto& [id, finished] : finished_) counts.finished += finished.table.expired() ? 0 : 1;
  // The lobby's lock, then each table's snapshot lock: the order table_changed keeps.
  for (const auto& [id, table] : tables_) {
    const auto status = table->snapshot().status;
    counts.waiting += status == "waiting" ? 1 : 0;
    counts.playing += status == "playing" ? 1 : 0;
  }
  return counts;
}

// ---------------------------------------------------------------- players

bool Lobby::may_register_from(const std::string& address) {
  return !registrations_.take(address, steady_ms());
}

void Lobby::hello(const protocol::Hello& hello, const std::string& address, HelloDone done) {
  // Several nodes: the name may have been registered on another node since
  // this one last read the players (cluster tick), so it is looked up at once.
  if (clustered() && !players_.find(hello.name)) {
    const bool queued = reader_.run([this, hello, address, done](storage::Store& db) {
      std::optional<storage::Player> player;
      try {
        player = db.find_player(hello.name);
      } catch (const std::exception& e) {
        spdlog::error("looking up player {} failed: {}", hello.name, e.what());
        return done(std::nullopt, ProtocolError(code::internal, "could not look up the name; try again"));
      }
      if (!player) return known_hello(hello, address, done);
      players_.add(*player);
      learn_balance(player->name, [this, hello, address, done] { known_hello(hello, address, done); });
    });
    if (!queued) done(std::nullopt, ProtocolError(code::rate_limited, "the server is busy; try again"));
    return;
  }
  // Known by name, not its chips (a cluster tick's players before its balances; a
  // name just renamed, before the writer read it): the welcome must not say 0.
  if (const auto player = players_.find(hello.name); player && !balance_known(player->name))
    return learn_balance(player->name, [this, hello, address, done] { known_hello(hello, address, done); });
  known_hello(hello, address, done);
}

void Lobby::known_hello(const protocol::Hello& hello, const std::string& address, HelloDone done) {
  if (auto existing = players_.find(hello.name)) {
    if (players_.banned(existing->name))
      return done(std::nullopt, ProtocolError(code::forbidden, "the name '" + existing->name +
                                                                   "' is banned on this server; ask its host"));
    // The first device's token or another device's (a device link).
    const auto owner = hello.token ? players_.find_by_token_hash(sha256_hex(*hello.token)) : std::nullopt;
    if (!owner || owner->id != existing->id)
      return done(std::nullopt, ProtocolError(code::unauthorized, "the name '" + existing->name +
                                                                      "' is registered; send its token to sign in"));
    const auto chips = balances_.balance(storage::player_account(existing->name));
    return give_missing_recovery_code(*existing, Welcome{existing->name, *hello.token, chips, std::nullopt},
                                      std::move(done));
  }
  if (is_bot_name(hello.name))
    return done(std::nullopt, ProtocolError(code::name_taken, "names starting with 'bot-' are kept for bots"));
  if (auto refused = registration_refused(hello)) return done(std::nullopt, std::move(refused));
  if (!may_register_from(address))
    return done(std::nullopt,
                ProtocolError(code::rate_limited, "too many new names from your address this hour (at most " +
                                                      std::to_string(config_.registrations_per_ip_per_hour) +
                                                      "); sign in with a name you have"));
  register_name(hello, std::move(done));
}

std::optional<std::string> Lobby::player_for_bearer(const std::string& token) const {
  auto player = players_.find_by_token_hash(sha256_hex(token));
  if (player && !players_.banned(player->name)) return player->name;
  return std::nullopt;
}

void Lobby::ledger(const std::string& viewer, const std::string& player, int limit, std::optional<std::int64_t> before,
                   std::function<void(Json, std::optional<ProtocolError>)> done) {
  std::string name;
  if (auto registered = players_.find(player)) {
    name = registered->name;
  } else {
    auto lock = balances_.lock({storage::player_account(player)});
    if (!is_bot_name(player) || !balances_.known(storage::player_account(player), lock))
      return done({}, ProtocolError(code::not_found, "no player named " + quoted(player)));
    name = player;
  }
  const auto account = storage::player_account(name);
  const bool own = storage::player_account(viewer) == account;
  const auto refused = read_for(viewer, [name, account, own, limit, before, done](storage::Store& db) {
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
  if (refused) done({}, *refused);
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
  const auto refused = read_for(viewer, [this, viewer, tables, since, done](storage::Store& db) {
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
  if (refused) done({}, *refused);
}

}  // namespace parlour::server
