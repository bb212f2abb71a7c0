// A table core with everything a test needs around it, without a network:
// balances, a "database" of committed writes, the frames each client received
// (and the whole states they make) and the timers armed.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "rules/registry.h"
#include "server/history/history.h"
#include "server/table/table_core.h"
#include "tests/support/state_keeper.h"

namespace parlour::server::test {

using Json = nlohmann::json;
namespace rules = parlour::rules;
namespace storage = parlour::storage;

// A table core with everything a test needs around it: balances, a "database"
// of committed writes, the frames each client received and the timers armed.
struct Bench {
  Config config;
  LiveBalances balances;
  rules::GameInfo info;
  storage::TableRecord record;
  std::vector<storage::Event> events;  // the committed log
  std::vector<storage::TableWrite> writes;
  std::map<ClientId, std::vector<Json>> frames;  // as sent: a state push leaves out what the client has had
  std::vector<std::pair<ClientId, std::string>> raw;  // every frame's text, in order
  std::map<ClientId, parlour::support::StateKeeper> keepers;
  std::map<ClientId, Json> whole_states;  // each client's last state push, filled in as a client does
  std::map<TimerKind, TimerOrder> timers;
  std::unique_ptr<TableCore> core;
  bool fail_next_commit = false;
  storage::CommitOutcome commit_failure = storage::CommitOutcome::failure("disk full");  // the next failed commit's
  std::int64_t now = 1'000'000;  // the wall clock the core reads, in Unix ms

  explicit Bench(rules::GameInfo game, Json options = Json::object(), int seats = 2)
      : balances({{"player:ann", 100}, {"player:bob", 100}, {"player:cat", 100}, {"bank", -300}}),
        info(std::move(game)) {
    config.bot_delay_ms = 10;
    config.deal_pause_ms = 1000;
    config.max_idle_deals = 3;
    record.id = "t1";
    record.game = info.id;
    record.options_json = rules::Registry::validate_options(info, options).dump();
    record.seed = 7;
    record.host = "ann";
    record.status = "waiting";
    record.invite = "secret-invite";
    for (int seat = 0; seat < seats; ++seat) record.seats.push_back({seat, "", false, 0});
    core = make(record, {});
  }

  // The bench's table is public; this makes it private, before anyone sits.
  void make_private() {
    record.is_private = true;
    core = make(record, {});
  }

  std::unique_ptr<TableCore> make(const storage::TableRecord& stored, const std::vector<storage::Event>& log) {
    CoreServices services{balances, config, [this] { return now; },
                          [this](const std::string&) {
                            return std::make_optional(std::make_pair(stored_record(), events));
                          }};
    return std::make_unique<TableCore>(services, stored, info, log);
  }

  storage::TableRecord stored_record() const {
    auto copy = record;
    for (const auto& write : writes) {
      if (write.status) copy.status = *write.status;
      if (write.seats) copy.seats = *write.seats;
      if (write.failure) copy.failure = *write.failure;
    }
    return copy;
  }

  // Carries an outbox out as the actor would, committing every write.
  void run(Outbox out) {
    for (auto& frame : out.frames) {
      raw.emplace_back(frame.to, *frame.text);
      frames[frame.to].push_back(Json::parse(*frame.text));
      if (frames[frame.to].back()["type"] != "state") continue;
      Json whole = frames[frame.to].back();
      keepers[frame.to].complete(whole);
      whole_states[frame.to] = std::move(whole);
    }
    for (const auto& timer : out.timers) {
      if (timer.after) timers[timer.kind] = timer;
      else timers.erase(timer.kind);
    }
    if (out.write) {
      const bool ok = !fail_next_commit;
      fail_next_commit = false;
      if (ok) {
        writes.push_back(*out.write);
        if (out.write->event) events.push_back(*out.write->event);
      }
      run(core->committed(ok ? storage::CommitOutcome{} : commit_failure));
    }
  }

  // The reply client `to` got to its request `re`.
  Json reply(ClientId to, std::int64_t re) {
    const auto it = std::find_if(frames[to].begin(), frames[to].end(), [re](const Json& f) { return f.value("re", 0) == re; });
    REQUIRE(it != frames[to].end());
    return *it;
  }

  void fire(TimerKind kind) {
    REQUIRE(timers.count(kind));
    const auto token = timers[kind].token;
    timers.erase(kind);
    run(core->timer_fired(kind, token));
  }

  // The restart: a new core from the committed log, woken as the lobby does.
  void restart() {
    timers.clear();
    core = make(stored_record(), events);
    run(core->resume());
  }

  Json last(ClientId client) const { return frames.at(client).back(); }
  // The last state as the client sees it (filled in), or as it was sent.
  Json last_state(ClientId client) const {
    const auto it = whole_states.find(client);
    return it == whole_states.end() ? Json() : it->second;
  }
  Json last_pushed(ClientId client) const {
    const auto& list = frames.at(client);
    for (auto it = list.rbegin(); it != list.rend(); ++it)
      if ((*it)["type"] == "state") return *it;
    return Json();
  }
  std::int64_t chips(const std::string& account) { return balances.balance(account); }

  Caller ann(std::int64_t re = 1) const { return {1, "ann", re, {.deltas = true}}; }
  Caller bob(std::int64_t re = 1) const { return {2, "bob", re, {.deltas = true}}; }
  Caller cat(std::int64_t re = 1) const { return {3, "cat", re, {.deltas = true}}; }

  void seat_and_start() {
    run(core->join(ann(), 0));
    run(core->join(bob(), 1, /*invited=*/true));  // as through the invite, should the table be private
    run(core->start(ann()));
    REQUIRE(core->status() == "playing");
  }
  void tap(const Caller& who, std::optional<std::string> id = std::nullopt) {
    run(core->act(who, {{"type", "tap"}}, id));
  }
  // The table as made by a `create` with this clock (before anyone sits).
  void use_clock(const Json& clock) {
    record.clock_json = clock.dump();
    core = make(record, {});
  }
  std::int64_t turn_after_ms() const {
    REQUIRE(timers.count(TimerKind::turn));
    return timers.at(TimerKind::turn).after->count();
  }
  Json last_event() const { return Json::parse(events.back().json); }
  bool log_has(ClientId client, const std::string& text) const {
    for (const auto& frame : frames.at(client))
      if (frame["type"] == "state")
        for (const auto& line : frame["log"])
          if (line.get<std::string>().find(text) != std::string::npos) return true;
    return false;
  }
  Json player(ClientId client, int seat) const {
    for (const auto& p : last_state(client).value("players", Json::array()))
      if (p["seat"] == seat) return p;
    return Json();
  }
};

// A bench's committed writes as a hand history reads a table's log from the database.
class BenchLog final : public TableLog {
 public:
  explicit BenchLog(const Bench& bench) : bench_(bench) {}
  std::vector<storage::DealStart> deal_starts() override {
    std::vector<storage::DealStart> starts;
    for (const auto& write : bench_.writes)
      if (write.deal_start) {
        starts.push_back(write.deal_start->listed());
      }
    return starts;
  }
  std::optional<std::string> deal_state(int deal) override {
    for (const auto& write : bench_.writes)
      if (write.deal_start && write.deal_start->deal == deal && !write.deal_start->state_json.empty())
        return write.deal_start->state_json;
    return std::nullopt;
  }
  std::vector<storage::Event> events(std::int64_t after, std::optional<std::int64_t> upto) override {
    std::vector<storage::Event> out;
    for (const auto& event : bench_.events)
      if (event.seq > after && (!upto || event.seq <= *upto)) out.push_back(event);
    return out;
  }

 private:
  const Bench& bench_;
};

}  // namespace parlour::server::test
