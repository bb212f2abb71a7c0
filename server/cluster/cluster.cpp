#include "server/cluster/cluster.h"

#include <boost/asio/post.hpp>
#include <algorithm>
#include <future>
#include <set>
#include <spdlog/spdlog.h>


namespace parlour::server {

using Json = nlohmann::json;

namespace {

// How often requests waiting for a table are retried.
constexpr auto retry_every = std::chrono::milliseconds(100);
// How often this node looks for tables other nodes' clients ask for.
constexpr auto handover_check_every = std::chrono::milliseconds(100);
// Requests that may wait for this thread at once (tables asked for, invites
// looked up, and callers waiting on one table); beyond it they are answered at once.
constexpr std::size_t max_waiting = 10'000;
// Orphans claimed in one tick: a dead node's tables are spread over the living.
constexpr int orphans_per_tick = 50;

}  // namespace

Cluster::Cluster(boost::asio::io_context& io, const Config& config, ServedTables& lobby, Writer& writer,
                 LiveBalances& balances, PlayerDirectory& players)
    : io_(io), config_(config), lobby_(lobby), writer_(writer), balances_(balances), players_(players) {
  leases_ = std::make_unique<storage::TableLeases>(config.db, config.node, std::chrono::milliseconds(config.lease_ms));
  store_ = storage::open_store(config.db);
  balances_.track_uncommitted();
  // What this node's steps did is "committed" for the balances the moment the
  // writer knows it; a step another node's spending beat is corrected at once.
  writer_.after_each_step([this](storage::Store& db, const storage::TableWrite& write,
                                 const storage::CommitOutcome& outcome) {
    if (outcome.committed()) return balances_.settled(write.postings);
    if (outcome.kind != storage::CommitOutcome::Kind::lacked_chips) return;
    std::vector<std::pair<std::string, std::int64_t>> fresh;
    for (const auto& posting : write.postings)
      if (posting.from.rfind("player:", 0) == 0) fresh.emplace_back(posting.from, db.balance(posting.from));
    balances_.refresh(fresh);
  });
}

Cluster::~Cluster() { stop(); }

void Cluster::start() {
  spdlog::info("node {}: serving tables under leases of {} ms", config_.node, config_.lease_ms);
  tick();
  thread_ = std::thread([this] { loop(); });
}

void Cluster::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void Cluster::acquire(const std::string& table, Acquired done) {
  bool queued = false;
  {
    std::lock_guard lock(mutex_);
    // Clients choose the ids they ask for: what waits here is bounded.
    if (wanted_.size() < max_waiting || wanted_.count(table)) {
      auto& wanted = wanted_[table];
      if (wanted.waiting.empty())
        wanted.deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(config_.lease_ms) +
                          std::chrono::seconds(2);
      if (wanted.waiting.size() < max_waiting) {
        wanted.waiting.push_back(std::move(done));
        queued = true;
      }
    }
  }
  if (!queued) return answer({std::move(done)}, Where::elsewhere);
  wake_.notify_one();
}

void Cluster::table_of_invite(const std::string& invite, std::function<void(std::optional<std::string>)> done) {
  {
    std::unique_lock lock(mutex_);
    if (invites_.size() >= max_waiting) {
      lock.unlock();
      return boost::asio::post(io_, [done = std::move(done)] { done(std::nullopt); });
    }
    invites_.push_back({invite, std::move(done)});
  }
  wake_.notify_one();
}

void Cluster::answer(std::vector<Acquired> waiting, Where where) {
  for (auto& done : waiting) boost::asio::post(io_, [done = std::move(done), where] { done(where); });
}

void Cluster::loop() {
  const auto tick_every = std::chrono::milliseconds(config_.lease_ms / 3);
  auto next_tick = std::chrono::steady_clock::now() + tick_every;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait_for(lock, wanted_.empty() ? handover_check_every : retry_every, [&] {
        return stopping_ || !invites_.empty() || std::any_of(wanted_.begin(), wanted_.end(), [](const auto& w) {
                 return !w.second.asked;
               });
      });
      if (stopping_) break;
    }
    // Nothing here may end the thread: the database may be restarting.
    try {
      serve_requests();
      hand_over_asked();
      if (std::chrono::steady_clock::now() >= next_tick) {
        next_tick = std::chrono::steady_clock::now() + tick_every;
        tick();
      }
    } catch (const std::exception& e) {
      spdlog::error("node {}: {}", config_.node, e.what());
      std::this_thread::sleep_for(retry_every);
    }
  }
  std::map<std::string, Wanted> left;
  {
    std::lock_guard lock(mutex_);
    left.swap(wanted_);
  }
  for (auto& [table, wanted] : left) answer(std::move(wanted.waiting), Where::elsewhere);
}

void Cluster::serve_requests() {
  std::vector<InviteQuery> invites;
  std::vector<std::string> tables;
  {
    std::lock_guard lock(mutex_);
    invites.swap(invites_);
    for (const auto& [table, wanted] : wanted_) tables.push_back(table);
  }
  for (auto& query : invites) {
    std::optional<std::string> table;
    try {
      table = leases_->table_of_invite(query.invite);
    } catch (const std::exception& e) {
      spdlog::error("node {}: {}", config_.node, e.what());
    }
    boost::asio::post(io_, [done = std::move(query.done), table] { done(table); });
  }
  for (const auto& table : tables) {
    Where where = Where::elsewhere;
    bool settled = true;
    if (lobby_.serves(table)) {
      where = Where::here;
    } else if (auto record = store_->find_table(table); !record || record->status == "finished") {
      where = Where::nowhere;
    } else if (claim_and_serve(table)) {
      where = Where::here;
    } else {
      settled = false;
    }
    std::vector<Acquired> waiting;
    {
      std::lock_guard lock(mutex_);
      auto it = wanted_.find(table);
      if (it == wanted_.end()) continue;
      const bool expired = std::chrono::steady_clock::now() > it->second.deadline;
      if (!settled && !expired) {
        if (!it->second.asked) {
          it->second.asked = true;
          // Outside the lock below: the holder hands it over on its next tick.
        } else {
          continue;
        }
      } else {
        waiting.swap(it->second.waiting);
        wanted_.erase(it);
      }
    }
    if (waiting.empty()) {
      if (const auto holder = leases_->ask_for(table))
        spdlog::info("table {}: asked node {} to hand it over to node {}", table, *holder, config_.node);
      continue;
    }
    if (!settled) spdlog::warn("table {}: its node did not hand it over in time", table);
    answer(std::move(waiting), where);
  }
}

void Cluster::hand_over(const storage::HeldLease& lease) {
  spdlog::info("table {}: handed over to node {}", lease.table, lease.wanted_by);
  lobby_.retire(lease.table, "handed over to node " + lease.wanted_by);
  leases_->release(lease.table, lease.generation);
  published_.erase(lease.table);
}

// Another node's clients are waiting for these: they are not left to the next tick.
void Cluster::hand_over_asked() {
  for (const auto& lease : leases_->asked_of_me()) {
    // Not served here (any more): the tick lets it go, or it is being brought here.
    if (lobby_.served_unfinished(lease.table) == lease.generation) hand_over(lease);
  }
}

bool Cluster::claim_and_serve(const std::string& table) {
  const auto generation = leases_->claim(table);
  if (!generation) return false;
  // Read after the claim: every step the last holder committed is in the log,
  // and any it still tries to write is refused (the generation moved on).
  auto record = store_->find_table(table);
  if (!record || record->status == "finished") {
    leases_->drop(table, *generation);
    return false;
  }
  auto events = store_->events(table);
  refresh_balances();
  lobby_.serve(std::move(*record), events, *generation);
  spdlog::info("table {}: now served by node {} (lease generation {}, {} events replayed)", table, config_.node,
               *generation, events.size());
  return true;
}

// On the writer's thread, between its transactions, so that what this node
// has applied but not yet written is counted exactly once (LiveBalances).
void Cluster::refresh_balances() {
  std::promise<void> done;
  writer_.run([this](storage::Store& db) { balances_.refresh(db.balances("")); },
              [&done](std::exception_ptr error) {
                if (error) done.set_exception(error);
                else done.set_value();
              });
  done.get_future().get();
}

void Cluster::tick() {
  const auto held = leases_->renew();
  std::map<std::string, const storage::HeldLease*> held_by_table;
  for (const auto& lease : held) held_by_table[lease.table] = &lease;
  const auto served = lobby_.served_tables();
  std::set<std::string> serving;
  for (const auto& table : served) {
    serving.insert(table.id);
    const auto it = held_by_table.find(table.id);
    if (it == held_by_table.end() || it->second->generation != table.generation) {
      spdlog::warn("table {}: node {} lost its lease (another node took it over)", table.id, config_.node);
      lobby_.retire(table.id, "its lease passed to another node");
      published_.erase(table.id);
    } else if (!it->second->wanted_by.empty() && table.status != "finished") {
      hand_over(*it->second);
    } else if (auto line = table.summary.dump(); table.status != "finished" && published_[table.id] != line) {
      leases_->publish(table.id, table.generation, line);
      published_[table.id] = std::move(line);
    }
  }
  // Leases of tables this node does not serve: a finished table's is
  // forgotten; an unfinished one is let go (unless it is being brought here:
  // handed over to this node, not yet claimed), so that a node serves it.
  std::set<std::string> coming;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [table, wanted] : wanted_) coming.insert(table);
  }
  for (const auto& lease : held) {
    if (serving.count(lease.table) || coming.count(lease.table)) continue;
    if (lease.finished) leases_->drop(lease.table, lease.generation);
    else leases_->release(lease.table, lease.generation);
    published_.erase(lease.table);
  }
  std::vector<Json> elsewhere;
  for (const auto& table : leases_->tables_elsewhere()) {
    try {
      elsewhere.push_back(Json::parse(table.summary_json));
    } catch (const Json::exception&) {
      spdlog::warn("table {}: node {} published a lobby line that is not JSON", table.table, table.node);
    }
  }
  lobby_.set_tables_elsewhere(std::move(elsewhere));
  for (const auto& table : leases_->orphans(orphans_per_tick)) {
    if (lobby_.serves(table)) continue;
    spdlog::info("table {}: no node serves it; node {} takes it", table, config_.node);
    claim_and_serve(table);
  }
  // New names, and new tokens of names recovered on another node.
  for (const auto& player : store_->all_players())
    if (const auto known = players_.find(player.name); !known || known->token_hash != player.token_hash)
      players_.add(player);
  refresh_balances();
}

}  // namespace parlour::server
