#include "server/table/table_actor.h"

#include <algorithm>
#include <utility>
#include <vector>

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include "server/common/serial_executor.h"

namespace parlour::server {

namespace asio = boost::asio;

TableActor::TableActor(asio::io_context& io, Writer& writer, std::unique_ptr<TableCore> core)
    : serial_(serial_executor(io)),
      writer_(writer),
      core_(std::move(core)),
      id_(core_->id()),
      game_actions_(metrics::registry().actions_by_game.of(core_->state().record().game)) {
  for (auto& timer : timers_) timer = std::make_unique<LazyTimer>(serial_);
  core_->watch_balances_as(this);  // the key watch_seated_balances watches under
  refresh_snapshot();
}

TableActor::~TableActor() { unwatch_balances(); }

Caller TableActor::caller(const std::shared_ptr<Client>& client, std::optional<std::int64_t> re) {
  return Caller{client->id(), client->player(), re, client->features()};
}

void TableActor::serve_under_lease(storage::Fence fence, std::function<void(const std::string&)> lost) {
  fence_ = std::move(fence);
  lost_ = std::move(lost);
}

void TableActor::retire(std::string why, std::string told) {
  asio::post(serial_, [self = shared_from_this(), why = std::move(why), told = std::move(told)] {
    self->retire_here(why, told);
  });
}

void TableActor::retire_here(const std::string& why, const std::string& told) {
  if (retired_) return;
  retired_ = true;
  held_.clear();
  for (auto& timer : timers_) timer->clear();
  unwatch_balances();
  spdlog::info("table {}: no longer served by this node: {}", id_, why);
  const auto notice = std::make_shared<const std::string>(
      protocol::error_message(std::nullopt, protocol::code::conflict,
                              told.empty() ? "table " + id_ + " moved to another server; reconnecting" : told)
          .dump());
  for (auto& [id, weak] : clients_) {
    if (auto client = weak.lock()) {
      client->send(notice);
      client->close_for_move();
    }
  }
  clients_.clear();
}

void TableActor::wake() {
  submit(nullptr, std::nullopt, [](TableCore& core) { return core.resume(); });
}

void TableActor::quarantine(std::string reason, std::string told) {
  submit(nullptr, std::nullopt,
         [reason = std::move(reason), told = std::move(told)](TableCore& core) { return core.fail(reason, told); });
}

void TableActor::expire() {
  submit(nullptr, std::nullopt, [](TableCore& core) { return core.expire(); });
}

std::chrono::steady_clock::duration TableActor::idle_for() const {
  std::lock_guard lock(snapshot_mutex_);
  return std::chrono::steady_clock::now() - last_step_;
}

void TableActor::make_rematches_with(RematchMaker make) { make_rematch_ = std::move(make); }

void TableActor::request(std::shared_ptr<Client> client, std::optional<std::int64_t> re,
                         protocol::TableRequest body) {
  // /metrics: an act is timed from here (just after its frame was parsed) to its ok.
  std::optional<std::chrono::steady_clock::time_point> arrived;
  if (std::holds_alternative<protocol::Act>(body)) arrived = std::chrono::steady_clock::now();
  submit(client, re,
         [self = shared_from_this(), who = caller(client, re), body = std::move(body), arrived](TableCore& core) {
           Outbox out;
           if (auto plan = core.handle(who, body, out)) self->make_rematch(core, who, std::move(*plan), out);
           if (arrived && out.write) self->act_arrived_ = arrived;
           return out;
         });
}

// The old table has checked and remembered that a rematch is being made, and
// holds other requests; the lobby creates the new table off the strand,
// committing the old table's event naming it in the same transaction; the old
// table then takes that event in (or forgets the rematch, if the lobby refused)
// and runs what it held. A fault of the lobby's is answered as such and never
// fails this table.
void TableActor::make_rematch(TableCore& core, const Caller& who, RematchPlan plan, Outbox& out) {
  plan.fence = fence_;
  // Not through submit: the held requests wait for this answer.
  auto done = [self = shared_from_this(), who](Json created, std::optional<protocol::ProtocolError> error) {
    asio::post(self->serial_, [self, who, created = std::move(created), error] {
      self->step("a rematch's answer", [&](TableCore& core) {
        if (error) return core.rematch_failed(who, error->code(), error->what());
        return core.rematch_made(who, created.value("table", ""), created.value("invite", ""));
      });
      self->run_held();
    });
  };
  try {
    if (!make_rematch_) throw std::logic_error("this table was given no way to make a rematch");
    make_rematch_(std::move(plan), std::move(done));
  } catch (const std::exception& e) {
    spdlog::error("table {}: its rematch could not be made: {}", core.id(), e.what());
    out.add(core.rematch_failed(who, protocol::code::internal, "the rematch could not be made"));
  }
}

void TableActor::disconnected(ClientId client) {
  asio::post(serial_, [self = shared_from_this(), client] {
    self->clients_.erase(client);
    self->submit(nullptr, std::nullopt, [client](TableCore& core) { return core.disconnected(client); });
  });
}

void TableActor::submit(std::shared_ptr<Client> from, std::optional<std::int64_t> re, Command command) {
  asio::post(serial_, [self = shared_from_this(), from = std::move(from), re, command = std::move(command)]() mutable {
    if (self->retired_) {
      if (from) {
        from->send(std::make_shared<const std::string>(
            protocol::error_message(re, protocol::code::conflict,
                                    "table " + self->id_ + " moved to another server; reconnect and try again")
                .dump()));
        from->close_for_move();
      }
      return;
    }
    if (from) self->register_client(from);
    // Only a client's request is refused when the queue is full: the table's
    // own commands (a timer firing, a client gone) are never dropped, or a
    // flood could leave a bot's timer spent with no move made and the table
    // waiting for ever.
    if (from && self->held_.size() >= max_held_commands) {
      from->send(std::make_shared<const std::string>(
          protocol::error_message(re, protocol::code::rate_limited, "this table is busy; try again").dump()));
      return;
    }
    self->held_.push_back(std::move(command));
    self->run_held();
  });
}

void TableActor::run_held() {
  while (!held_.empty() && !core_->committing()) {
    auto command = std::move(held_.front());
    held_.pop_front();
    step("a request", command);
  }
}

void TableActor::step(const char* what, const Command& command, bool use) {
  if (poisoned_ || retired_) return;
  Outbox out;
  try {
    out = command(*core_);
  } catch (const std::exception& e) {
    act_arrived_.reset();  // the write now in flight, if any, is the failure's
    spdlog::error("table {}: {} failed: {}", id_, what, e.what());
    try {
      out = core_->fail(std::string(what) + " failed: " + e.what());
    } catch (const std::exception& again) {
      spdlog::critical("table {}: could not even stop cleanly ({}); it takes no more requests", id_, again.what());
      poisoned_ = true;
      out = Outbox{};
    }
  }
  carry_out(std::move(out), use);
}

void TableActor::carry_out(Outbox out, bool use) {
  // The lobby's line first: whoever reads a reply and then lists the tables
  // must find the change the reply speaks of.
  refresh_snapshot(use);
  // Each client's frames together, in their order (Client::send_all).
  std::vector<std::pair<ClientId, std::vector<std::shared_ptr<const std::string>>>> by_client;
  for (auto& frame : out.frames) {
    auto same = std::find_if(by_client.begin(), by_client.end(), [&](const auto& entry) { return entry.first == frame.to; });
    if (same == by_client.end()) same = by_client.insert(by_client.end(), {frame.to, {}});
    same->second.push_back(std::move(frame.text));
  }
  for (auto& [to, frames] : by_client) {
    const auto it = clients_.find(to);
    if (it == clients_.end()) continue;
    if (auto client = it->second.lock()) client->send_all(std::move(frames));
    else clients_.erase(it);
  }
  for (const auto& order : out.timers) set_timer(order);
  watch_seated_balances();
  if (out.write) {
    out.write->fence = fence_;
    writer_.commit(std::move(*out.write), [self = shared_from_this()](const storage::CommitOutcome& outcome) {
      asio::post(self->serial_, [self, outcome] { self->on_committed(outcome); });
    });
  }
}

void TableActor::on_committed(const storage::CommitOutcome& outcome) {
  const bool fenced = outcome.kind == storage::CommitOutcome::Kind::fenced;
  if (retired_ || fenced) {
    act_arrived_.reset();
    // Another node holds the table now. A step that was not written gives its
    // chips back here; nothing else of this table runs on this node again.
    if (fenced) spdlog::warn("table {}: {}", id_, outcome.detail);
    if (!outcome.committed()) {
      try {
        core_->committed(outcome);
      } catch (const std::exception& e) {
        spdlog::error("table {}: undoing a step that was not written failed: {}", id_, e.what());
      }
    }
    if (!retired_) {
      retire_here("another node took it over");
      if (lost_) lost_(id_);
    }
    return;
  }
  const auto act_arrived = std::exchange(act_arrived_, std::nullopt);
  step("a step after its commit", [&](TableCore& core) { return core.committed(outcome); });
  if (act_arrived && outcome.committed()) act_answered(*act_arrived);
  run_held();
}

void TableActor::act_answered(std::chrono::steady_clock::time_point arrived) {
  metrics::registry().act_seconds.observe(metrics::nanoseconds(std::chrono::steady_clock::now() - arrived));
  game_actions_.fetch_add(1, std::memory_order_relaxed);
}

void TableActor::set_timer(const TimerOrder& order) {
  auto& timer = *timers_[static_cast<std::size_t>(order.kind)];
  if (!order.after) return timer.clear();
  // The core ignores a token no longer current (cancelled or armed again meanwhile).
  timer.set(*order.after, shared_from_this(), [this, kind = order.kind, token = order.token] {
    submit(nullptr, std::nullopt, [kind, token](TableCore& core) { return core.timer_fired(kind, token); });
  });
}

void TableActor::watch_seated_balances() {
  const bool watches_none = poisoned_ || retired_;
  // Most steps seat and unseat no one: told in place, nothing built.
  if (watches_none ? watched_.empty() : core_->seated_accounts_are(watched_)) return;
  auto seated = watches_none ? std::set<std::string>{} : core_->seated_accounts();
  if (seated == watched_) return;
  auto& balances = core_->live_balances();
  for (const auto& account : watched_)
    if (!seated.count(account)) balances.unwatch(account, this);
  bool added = false;
  for (const auto& account : seated) {
    if (watched_.count(account)) continue;
    // Runs on whichever thread moved the chips, under the balances' lock: it
    // only posts, and holds the table weakly (never the last to let it go there).
    balances.watch(account, this, [serial = serial_, weak = weak_from_this()] {
      asio::post(serial, [weak] {
        if (auto self = weak.lock()) self->balances_changed();
      });
    });
    added = true;
  }
  watched_ = std::move(seated);
  // Chips that moved between this step's look at them and the watch.
  if (added) asio::post(serial_, [self = shared_from_this()] { self->balances_changed(); });
}

void TableActor::unwatch_balances() {
  for (const auto& account : watched_) core_->live_balances().unwatch(account, this);
  watched_.clear();
}

// On the strand. Chips moving elsewhere are no use of this table (a waiting
// table nobody uses still expires). Behind a write in flight, or commands
// held, it waits its turn like any command.
void TableActor::balances_changed() {
  const Command look = [](TableCore& core) { return core.balances_changed(); };
  if (core_->committing() || !held_.empty()) return submit(nullptr, std::nullopt, look);
  step("a change of chips elsewhere", look, false);
}

void TableActor::register_client(const std::shared_ptr<Client>& client) {
  clients_.try_emplace(client->id(), client);
}

void TableActor::refresh_snapshot(bool use) {
  // The lobby's line is rebuilt only when it may have changed, not on every step.
  if (core_->summary_version() == snapshot_version_) {
    std::lock_guard lock(snapshot_mutex_);
    if (use) last_step_ = std::chrono::steady_clock::now();
    return;
  }
  snapshot_version_ = core_->summary_version();
  TableSnapshot snapshot{core_->id(), core_->host(), core_->invite(), core_->status(), core_->is_private(),
                         core_->summary(), core_->holders()};
  {
    std::lock_guard lock(snapshot_mutex_);
    snapshot_ = snapshot;
    if (use) last_step_ = std::chrono::steady_clock::now();
  }
  // Outside the snapshot's lock: the lobby takes its own, then reads snapshots.
  if (listener_) listener_(*this, snapshot);
}

TableSnapshot TableActor::snapshot() const {
  std::lock_guard lock(snapshot_mutex_);
  return snapshot_;
}

}  // namespace parlour::server
