// One table's state machine, free of sockets, threads and clocks: commands go in
// (a player joins, acts, a timer fires, a write has committed) and effects come
// out (frames to send, one write to commit, timers to arm). The actor
// (table_actor.h) feeds it on the table's strand, carries the effects out and is
// the fault barrier; tests drive the core directly, without a network.
//
// A step that changes anything yields a write. Its replies and state pushes are
// held until committed() says the write is durable, and while it is in flight
// the actor holds further commands back: nobody hears of an action that is not
// on disk.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "protocol/messages.h"
#include "rules/registry.h"
#include "rules/rng.h"
#include "server/common/client.h"
#include "server/common/config.h"
#include "server/common/limits.h"
#include "server/ledger/live_balances.h"
#include "server/table/push_encoder.h"
#include "server/table/table_state.h"
#include "server/table/turn_clock.h"
#include "storage/database.h"

namespace parlour::server {

using Json = nlohmann::json;


// Who sent a request, and how to answer them.
struct Caller {
  ClientId client = 0;
  std::string player;
  std::optional<std::int64_t> re;
  protocol::Features features{};  // what its sign-in asked for (Client::features)
};

enum class TimerKind { bot, turn, next_deal };
inline constexpr std::size_t timer_kind_count = 3;

// Arm (after = delay) or cancel (after = nullopt) the table's one timer of a
// kind. When it fires, the actor calls timer_fired(kind, token); a token that is
// no longer current is ignored, so a cancel that loses a race is harmless.
struct TimerOrder {
  TimerKind kind = TimerKind::bot;
  std::optional<std::chrono::milliseconds> after;
  std::uint64_t token = 0;
};

struct Outbox {
  std::vector<Frame> frames;                 // to send now, in this order
  std::optional<storage::TableWrite> write;  // to commit, then call committed()
  std::vector<TimerOrder> timers;

  void add(Outbox&& later);
};

// What a rematch of a finished table is made of (docs/protocol.md "End of a
// table"): the lobby creates it, seating the same people and bots again.
struct RematchPlan {
  std::string from_table;
  bool same_seed = false;
  std::string game;
  std::string options_json;
  std::string clock_json;
  std::uint64_t seed = 0;
  std::string deck_json;  // kept only for a same-seed rematch
  bool is_private = false;
  std::string host;
  std::vector<storage::Seat> seats;  // bots by their old names: the lobby names them anew
  Json standings;                    // the finished table's, for the comparison (null if none)
  // The finished table's own step naming its rematch (rematch_event) takes this
  // seq and is committed in the new table's transaction, under this lease when
  // several nodes share the database: the two tables are made one, or neither.
  std::int64_t seq = 0;
  std::optional<storage::Fence> fence;
  // A retry after the rematch was made: the table it is, to be answered again.
  std::optional<std::string> made;
};

// The finished table's event that names its rematch (docs/protocol.md "End of a table").
Json rematch_event(const std::string& table, bool same_seed);

// The database's record and log of a table, after a failed commit.
using Reload = std::function<std::optional<std::pair<storage::TableRecord, std::vector<storage::Event>>>(
    const std::string& table)>;

struct CoreServices {
  LiveBalances& balances;
  const Config& config;
  std::function<std::int64_t()> now_ms;  // wall clock, Unix milliseconds (for clients' countdowns)
  Reload reload;
  // Chat lines per person across every table (the lobby shares one); a table
  // given none keeps its own, per table.
  std::shared_ptr<WindowLimit> chat_limit = nullptr;
};

// A new bot's name, "bot-" then 16 random hex digits then "-SEAT": opaque, so
// that a bot's ledger and the memos naming it (anyone may read them) never give
// away its table's id, which for a private table is a secret. Bots named the
// old way, "bot-TABLEID-SEAT", keep their names: a name is stored with its seat
// and in the log, never worked out again.
std::string new_bot_name(int seat);

class TableCore {
 public:
  // A table as stored; `events` replays its game (throws ReplayError if they
  // cannot be replayed).
  TableCore(CoreServices services, storage::TableRecord record, const rules::GameInfo& game,
            const std::vector<storage::Event>& events = {});
  ~TableCore();

  const std::string& id() const { return state_.id(); }
  const std::string& host() const { return state_.record().host; }
  const std::string& invite() const { return state_.record().invite; }
  const std::string& status() const { return state_.status(); }
  bool is_private() const { return state_.record().is_private; }
  const protocol::Clock& clock() const { return turn_clock_.settings(); }
  bool finished() const { return state_.finished(); }
  bool failed() const { return state_.failed(); }
  std::int64_t seq() const { return state_.seq(); }
  // Everything the log determines (server/table/table_state.h).
  const TableState& state() const { return state_; }
  // A write is in flight (or a rematch, whose step the lobby commits): the
  // actor holds requests until it is done, so seqs stay in order.
  bool committing() const { return pending_.has_value() || rematch_in_progress_; }
  bool holds_seat(const std::string& player) const { return seat_of(player).has_value(); }
  bool is_member(ClientId client) const;

  // The lobby's line for this table (PROTOCOL.md `tables`), and a number that
  // changes whenever the line may have.
  Json summary() const;
  // The players seated here who have not left (bots aside).
  std::vector<std::string> holders() const;
  std::uint64_t summary_version() const { return summary_version_; }

  // What is due by itself now: after a restart, the next deal, a bot's move,
  // a turn clock. Also run after every committed step.
  Outbox resume();
  // The chips of someone seated here moved elsewhere (LiveBalances::watch): the
  // table looks again at once, as docs/protocol.md "Every game" asks. A player
  // to act who can no longer cover any action is skipped; otherwise everyone
  // is pushed the real chips (and the legal lists they allow). Nothing when the
  // chips are as the table last saw them.
  Outbox balances_changed();
  // The accounts of the people seated here (bots' are the table's own): the
  // balances to watch. None once the table has finished.
  std::set<std::string> seated_accounts() const;
  // Whether those are exactly `accounts`, told without building the set: most
  // steps seat and unseat no one.
  bool seated_accounts_are(const std::set<std::string>& accounts) const;
  LiveBalances& live_balances() const { return services_.balances; }
  // The key its actor watches the balances under (LiveBalances::watch): the
  // table's own steps do not wake it (LiveBalances::apply says why).
  void watch_balances_as(const void* watcher) { balance_watcher_ = watcher; }

  // `invited`: the join came with the table's invite (a private table in play
  // lets a stranger watch only through it, as `watch` does).
  // A client's request (protocol::TableRequest), handed to its handler below.
  // A rematch is the one that needs the lobby: its plan is returned for the
  // actor to have the new table made (refusals go into `out`).
  std::optional<RematchPlan> handle(const Caller& who, const protocol::TableRequest& request, Outbox& out);

  // The handlers, one per request.
  Outbox join(const Caller& who, std::optional<int> seat, bool invited = false);
  // `invited`: he came through the table's invite (a private table asks for it).
  Outbox watch(const Caller& who, bool invited = false);
  Outbox leave(const Caller& who);
  Outbox add_bot(const Caller& who, std::optional<int> seat, int level);
  Outbox start(const Caller& who);
  Outbox end(const Caller& who);
  Outbox act(const Caller& who, const Json& action, const std::optional<std::string>& action_id);
  // The seat's player is back: a seat marked away is his again (docs/protocol.md "Turn clock and away").
  Outbox back(const Caller& who);
  // The host frees a seat: in a game that takes players between deals it goes,
  // at the next deal, to a new player waiting ("open") or to a bot ("bot"); in
  // other games the seat's player is out of the game, as if he had left ("open").
  // A person can be moved out only while absent (disconnected or away).
  Outbox unseat(const Caller& who, int seat, const std::string& replace);
  // Table chat: a line of text or a quick reaction, from anyone at the table
  // (docs/protocol.md "Table chat").
  Outbox chat(const Caller& who, const protocol::Chat& message);
  // The host mutes or unmutes a person's chat.
  Outbox mute(const Caller& who, const std::string& player, bool muted);
  // A rematch in two halves around the lobby's creating the new table: the
  // checks (a refusal goes into `out`; nullopt then), and the record of it.
  std::optional<RematchPlan> plan_rematch(const Caller& who, bool same_seed, Outbox& out);
  Outbox rematch_made(const Caller& who, const std::string& table, const std::string& invite);
  Outbox rematch_failed(const Caller& who, const std::string& error_code, const std::string& message);
  // The table's standings, once play has started (null before, and for a table
  // stopped by a fault: its log is not replayed).
  Json standings() const;
  Outbox disconnected(ClientId client);
  // A table still waiting for players that nobody used for long: it ends.
  Outbox expire();
  Outbox timer_fired(TimerKind kind, std::uint64_t token);
  // The write of the last step is durable (ok) or was refused (then the table
  // is rebuilt from the database, which is the truth).
  Outbox committed(const storage::CommitOutcome& outcome);
  // The fault barrier's last word: the table stops with `reason`, its pools are
  // shared out among the players seated, everyone there is told. Never throws
  // from the game: it does not ask the game anything.
  // `told`: what the table's chat tells the players (a fault, unless the
  // server's operator ended the table).
  Outbox fail(const std::string& reason, const std::string& told = fault_told);
  static constexpr const char* fault_told = "The table has stopped because of a fault in the server; its chips are safe.";

  const rules::GameState* game() const { return state_.game(); }
  const std::string& player_at(int seat) const { return state_.player_at(seat); }
  int seat_count() const { return state_.seat_count(); }

  // ---- provably fair deals (rules/fair.h)
  int deals_started() const { return state_.deals_started(); }
  std::string commitment(int deal) const { return state_.commitment(deal); }
  Json fair_json() const { return state_.fair_json(); }

  // People in line for a seat at one table; beyond, a late joiner only watches.
  static constexpr std::size_t max_waiting = 32;
  // Chat: at most this many lines per person in any window of this length
  // (across all tables, see CoreServices::chat_limit); the last lines kept for
  // a newcomer's first state.
  static constexpr std::size_t chat_lines_per_window = 5;
  static constexpr std::int64_t chat_window_ms = 10'000;

 private:
  // What the table remembers of a seat beyond its log: a restart finds every
  // seat present with its bank full (a seat the host freed is away again).
  struct SeatMemory {
    std::string player;             // whose memory it is: a seat changing hands starts afresh
    bool away = false;              // missed `away_after` turns in a row: a bot plays the seat
    int missed = 0;                 // turns in a row the clock ran out on
  };
  // A step whose write is in flight, and what to send once it is durable.
  struct Pending {
    std::vector<storage::Posting> postings;
    std::vector<Frame> replies;
    std::optional<Caller> caller;  // told `internal` if the write fails
  };
  // What a step changes besides the event.
  struct StepChanges {
    bool seats = false;
    bool status = false;
    bool result = false;
  };

  // ---- steps
  Outbox commit_step(std::optional<Json> event, std::vector<storage::Posting> postings, StepChanges changes,
                     std::vector<Frame> replies, std::optional<Caller> caller);
  // Applies a new event to the state, moving its chips in the live balances.
  std::vector<storage::Posting> apply_event(Json& event);
  void rebuild_from_database();
  // The seats' memory follows the state's seats (after a start, a deal, a rebuild).
  void sync_memory();
  void say(const std::string& line);
  // Before play: a seat taken (or freed, with an empty SeatState).
  void take_seat(int seat, SeatState taker);
  Outbox next_deal();
  Outbox finish_table(const std::string& why);
  Outbox act_for(int seat, const Json& action, const char* why);
  Outbox continue_to_next_deal(const Caller& who, int seat);
  bool nobody_can_act() const;

  // ---- late joiners and open seats (games that take players between deals)
  bool takes_late_joiners() const { return info_.seats_change_between_deals; }
  Outbox join_started(const Caller& who);
  bool may_enter(const Caller& who, bool invited) const;
  Outbox refuse_private(const Caller& who, const std::string& verb) const;
  Json seat_changes_due() const;
  std::vector<storage::Posting> fund_new_bots(const Json& changes);
  void seats_changed_hands(const Json& changes);
  int seats_opening() const;
  std::optional<int> waiting_position(const std::string& player) const;
  std::optional<int> seat_that_must_skip() const;

  // ---- timers
  void schedule(Outbox& out);
  void schedule_bot(Outbox& out);
  void schedule_turn_timer(Outbox& out);
  void schedule_next_deal(Outbox& out);
  TimerOrder arm(TimerKind kind, std::chrono::milliseconds after);
  TimerOrder cancel(TimerKind kind);
  bool current(TimerKind kind, std::uint64_t token) const;
  Outbox bot_move();
  Outbox careful_move(int seat, const Json& legal, const char* why);
  Outbox turn_timed_out();
  // The human seats the table's clock runs for now.
  std::set<int> seats_on_the_clock() const;
  void stop_clock(int seat) { turn_clock_.stop(seat, services_.now_ms()); }
  bool turn_timer_armed() const { return timer_token_[static_cast<std::size_t>(TimerKind::turn)] != 0; }
  Outbox clock_ran_out();
  // say_so: the log says a bot plays until he is back (not so for a leaver, who is not coming back).
  void mark_away(int seat, bool say_so = true);
  // The seat's person goes when the next deal starts (the seat changes hands
  // to `replace`, or in a game played to its end is left); a bot plays it until
  // then. An `unseat` event (with `by`, if given) keeps it across a restart.
  // `answer` (default: ok with the step's seq) goes to `who` with the step.
  Outbox unseat_at_next_deal(int seat, const std::string& replace, const char* by, std::optional<Frame> answer,
                             const Caller& who);
  // The seat's person leaves the game now (a `leave` event, `by` if given).
  Outbox leave_now(int seat, const char* by, std::optional<Frame> answer, const Caller& who);
  Frame ok_with_seq(const Caller& who) const;
  void mark_present(int seat);

  // ---- seats and chips
  std::string account_of(int seat) const;
  // storage::player_account(player), remembered for the last few players asked about.
  const std::string& account_name(const std::string& player) const;
  // `visit` with each account seated_accounts holds (once a seat).
  template <class Visit>
  void each_seated_account(Visit&& visit) const;
  const std::vector<SeatState>& seats() const { return state_.seats(); }
  rules::Balances balances(const std::vector<SeatState>& seats, const LiveBalances::Lock& lock) const;
  std::vector<std::string> accounts_of_step(const Json& event) const;
  rules::Balances balances_now() const;
  std::optional<int> seat_of(const std::string& player) const { return state_.seat_of(player); }
  bool is_host(const Caller& who) const;
  int seated_count() const;
  std::optional<int> free_seat(std::optional<int> wanted, const Caller& who, Outbox& out) const;
  std::vector<storage::Posting> share_out_pools();
  bool human_connected(int seat) const;
  std::vector<int> humans_awaited_at_deal_end() const;

  // ---- frames
  void remember(const Caller& who);
  void broadcast(Outbox& out);
  // The table as a push shows it now (PushEncoder).
  std::vector<SeatPresence> presence() const;
  std::optional<std::string> person_at_table(const std::string& player) const;
  void write_legal_for(int seat, const rules::Balances& chips, rules::JsonWriter& out) const;
  Frame reply(const Caller& who, Json message) const;
  Frame error(const Caller& who, const std::string& code, const std::string& message) const;
  std::string name_seats(const std::string& line) const { return state_.name_seats(line); }

  CoreServices services_;
  TableState state_;
  const rules::GameInfo& info_;
  std::vector<SeatMemory> memory_;  // by seat, as state_.seats()
  std::uint64_t summary_version_ = 1;  // bumped whenever the lobby's line may have changed
  PushEncoder pushes_;  // the audience, and what each member has had
  rules::Balances chips_resumed_;  // the seats' chips resume() last looked at (skips are decided on them)
  std::optional<Pending> pending_;
  std::vector<storage::Posting> unsaved_postings_;  // applied in memory, not yet part of a write
  const void* balance_watcher_ = nullptr;           // watch_balances_as
  std::optional<storage::DealStart> unsaved_deal_start_;  // a deal dealt in memory, not yet part of a write

  std::array<std::uint64_t, timer_kind_count> timer_token_{};  // the armed timer of each kind, 0 if none
  std::uint64_t last_token_ = 0;
  TurnClock turn_clock_;  // the table's clock, chosen at create, and a game's own turn limit
  std::set<int> continued_;  // seats that asked for the next deal (of the deal over now)
  // People who asked for a seat at a table in play, first come first seated at a
  // deal's start (table memory: after a restart they ask again by joining).
  std::vector<std::string> waiting_;
  rules::Rng bot_rng_;
  bool rematch_in_progress_ = false;  // the lobby is making it (same_seed as asked)
  bool rematch_same_seed_ = false;
  // account_name's memory (a seating's players, and those an event seats):
  // names, not chips, so never stale.
  static constexpr std::size_t kAccountNamesKept = 16;
  mutable std::vector<std::pair<std::string, std::string>> account_names_;
  const std::string pools_account_prefix_;  // the table's pools' accounts start so (storage::pool_account)
};

}  // namespace parlour::server
