// One table: its seats, its game, its audience, and its event log. Every
// operation runs on the table's own strand, one at a time; an operation that
// changes anything is written (event, chips, seats, status) in one SQLite
// transaction and only then acknowledged and broadcast. Requests arriving while
// a step is being committed wait their turn.
#pragma once

#include <utility>  // before Asio: std::exchange in Boost 1.74's awaitable.hpp

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "protocol/messages.h"
#include "rules/registry.h"
#include "rules/rng.h"
#include "server/bank.h"
#include "server/client.h"
#include "server/config.h"
#include "server/writer.h"
#include "storage/database.h"

namespace parlour::server {

using Json = nlohmann::json;

struct TableServices {
  boost::asio::io_context& io;
  Writer& writer;
  Bank& bank;
  const Config& config;
};

// Who asked, and how to answer them.
struct Requester {
  std::shared_ptr<Client> client;
  std::optional<std::int64_t> re;
};

class Table : public std::enable_shared_from_this<Table> {
 public:
  // A table as stored; `events` replays an unfinished game.
  Table(TableServices services, storage::Table record, const rules::GameInfo& game,
        const std::vector<storage::Event>& events = {});

  const std::string& id() const { return record_.id; }
  const std::string& invite() const { return record_.invite; }
  bool is_private() const { return record_.is_private; }
  // The lobby's line for this table (thread-safe snapshot).
  Json summary() const;
  bool finished() const;

  // Requests; each answers the requester and pushes states as PROTOCOL.md says.
  void join(Requester who, std::optional<int> seat);
  void watch(Requester who);
  void leave(Requester who);
  void add_bot(Requester who, std::optional<int> seat, int level);
  void start(Requester who);
  void end(Requester who);
  void act(Requester who, Json action);
  void disconnected(std::shared_ptr<Client> client);

 private:
  struct SeatInfo {
    std::string player;  // "" when empty
    bool bot = false;
    int bot_level = 0;
    bool left = false;   // left during play; the seat stays in the game
  };
  struct Member {
    std::weak_ptr<Client> client;
    std::string player;
  };
  // A change to commit: the event and everything that goes with it.
  struct Step {
    std::optional<Json> event;
    std::vector<storage::Posting> postings;
    bool seats_changed = false;
    bool status_changed = false;
    bool result_settled = false;
  };

  template <typename F>
  void on_strand(F&& f);
  void enqueue(std::function<void()> op);
  void run_queued();

  // Each *_now runs on the strand once the table is idle.
  void join_now(const Requester& who, std::optional<int> seat);
  void leave_now(const Requester& who);
  void add_bot_now(const Requester& who, std::optional<int> seat, int level);
  void start_now(const Requester& who);
  void end_now(const Requester& who);
  void act_now(const Requester& who, const Json& action);

  // Applies a game step under the bank lock and returns the postings it made.
  // A live step records the balances it saw in `event`; a replayed one uses them.
  std::vector<storage::Posting> apply_event(Json& event, bool replaying);
  void commit(Step step, std::function<void(bool ok)> after);
  void after_step();
  void finish_table();
  void rebuild_after_failure();
  void replay(const std::vector<storage::Event>& events);

  std::string account_of(int seat) const;
  rules::Balances balances(const Bank::Lock& lock) const;
  std::optional<int> seat_of(const std::string& player) const;
  bool is_host(const Requester& who) const;
  int seated_count() const;
  std::vector<storage::Seat> stored_seats() const;
  std::vector<storage::Posting> to_postings(const std::vector<rules::Transfer>& transfers) const;
  void add_log(const std::vector<std::string>& lines);
  std::string name_seats(const std::string& line) const;

  void remember(const std::shared_ptr<Client>& client);
  void broadcast();
  void send_state(Client& client, const std::string& player);
  Json state_for(std::optional<int> seat, const Json& common, const rules::Balances& chips) const;
  void refresh_summary();
  void schedule_bots();
  void bot_move(int seat);
  void schedule_turn_timer();
  void turn_timed_out(std::uint64_t generation);
  // Applies an action chosen by the server (a bot's move, a timed-out turn).
  void act_for(int seat, const Json& action, const char* why);

  void reply(const Requester& who, Json message) const;
  void fail(const Requester& who, const std::string& code, const std::string& message) const;

  TableServices services_;
  boost::asio::strand<boost::asio::io_context::executor_type> strand_;
  storage::Table record_;
  const rules::GameInfo& info_;
  Json options_;
  std::vector<SeatInfo> seats_;
  std::unique_ptr<rules::GameState> game_;
  std::int64_t seq_ = 0;
  bool ending_ = false;
  bool committing_ = false;
  std::deque<std::function<void()>> queue_;
  std::vector<Member> audience_;
  std::deque<std::string> log_;
  boost::asio::steady_timer bot_timer_;
  bool bot_pending_ = false;
  rules::Rng bot_rng_;
  boost::asio::steady_timer turn_timer_;
  std::optional<rules::TurnTimer> armed_timer_;  // the turn timer running now
  std::int64_t armed_at_seq_ = -1;                // the step it was last checked after
  std::uint64_t timer_generation_ = 0;            // bumped whenever the deadline changes
  std::int64_t deadline_ms_ = 0;                  // when it runs out (Unix ms), for the clients

  mutable std::mutex summary_mutex_;
  Json summary_;
};

}  // namespace parlour::server
