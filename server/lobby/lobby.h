// The lobby: identity (hello), the game catalogue, the tables and their invites,
// and ledger reads. Thread-safe; each table does its own work on its strand, and
// the lobby never reads the database on an I/O thread: players and balances are in
// memory, and ledger pages and finished tables are read on the reader thread.
#pragma once

#include <utility>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "protocol/messages.h"
#include "server/cluster/cluster.h"
#include "server/common/config.h"
#include "server/history/history.h"
#include "server/common/limits.h"
#include "server/ledger/live_balances.h"
#include "server/ledger/player_directory.h"
#include "server/lobby/identity_feed.h"
#include "server/lobby/sessions.h"
#include "server/persistence/reader.h"
#include "server/table/table_actor.h"
#include "server/persistence/writer.h"

namespace parlour::server {

using protocol::ProtocolError;

// Bots are seated as "bot-TABLE-SEAT"; no player may take such a name.
bool is_bot_name(const std::string& name);


// What a revoked first device's token hash starts with: no token hashes to it,
// and `devices` leaves it out.
inline constexpr const char* revoked_token_mark = "revoked:";

// What a banned name's live connections hear before they are closed.
std::shared_ptr<const std::string> banned_farewell();

// `parlour signup-link …` (server/lobby/accounts.cpp): the operator makes a
// sign-up link in the database; returns the exit status.
int signup_link_main(const std::vector<std::string>& args);

class Lobby final : public ServedTables {
 public:
  Lobby(boost::asio::io_context& io, const Config& config, Writer& writer, Reader& reader, LiveBalances& balances,
        PlayerDirectory& players);
  ~Lobby();
  Lobby(const Lobby&) = delete;
  Lobby& operator=(const Lobby&) = delete;

  // Rebuilds every unfinished table from its event log and wakes it: what was
  // due by itself when the server stopped (a next deal, a bot, a clock) runs
  // again. A table whose log cannot be replayed is quarantined, not restored.
  void restore();
  // Starts the periodic sweep (expiring idle waiting tables, forgetting finished
  // tables nobody holds any more).
  void start_housekeeping();

  struct Welcome {
    std::string player;
    std::string token;
    std::int64_t chips = 0;
    // A new name's (or a recovered name's new) recovery code, shown once.
    std::optional<std::string> recovery_code;
  };
  using HelloDone = std::function<void(std::optional<Welcome>, std::optional<ProtocolError>)>;
  // Signs a player in, registering a new name (at most config.registrations_per_ip_per_hour
  // from one address); `done` runs on the writer's thread or the caller's.
  void hello(const protocol::Hello& hello, const std::string& address, HelloDone done);
  // --- Accounts (server/lobby/accounts.cpp, docs/playing.md "Accounts and recovery") ---
  // A new token for `recover.name` if `recover.code` is its recovery code: the
  // name's other token is revoked (its live connections closed) and a new
  // recovery code replaces the used one. Wrong codes are limited per name and
  // per address; a name nobody has is answered as a wrong code.
  void recover(const protocol::Recover& recover, const std::string& address, HelloDone done);
  // A sign-up link for --registration invite; `done` gets {"code","uses","expires_at"}.
  void signup_link(const std::string& player, const protocol::SignupLink& link,
                   std::function<void(Json, std::optional<ProtocolError>)> done);
  // Devices: a one-time code (valid config.device_link_seconds) that signs
  // another device in as `player` with its own token; `done` gets {"code","expires_at"}.
  void device_link(const std::string& player, std::function<void(Json, std::optional<ProtocolError>)> done);
  // Signs in with a device code (used up by it); wrong codes count as recovery tries.
  void device_sign_in(const protocol::DeviceSignIn& request, const std::string& address, HelloDone done);
  // {"devices":[{id,label,created_at,last_seen}]}, the first device ("first") included.
  Json devices(const std::string& player) const;
  // Revokes one of `player`'s devices and closes its live connections.
  void revoke_device(const std::string& player, const std::string& device,
                     std::function<void(Json, std::optional<ProtocolError>)> done);
  // Passphrases (Argon2id, hashed on the reader's thread): set or changed by a
  // signed-in player; signing in with one adds a device. Wrong ones count as
  // recovery tries, per name and per address.
  void set_passphrase(const std::string& player, const std::string& passphrase,
                      std::function<void(Json, std::optional<ProtocolError>)> done);
  void passphrase_sign_in(const protocol::PassphraseSignIn& request, const std::string& address, HelloDone done);
  // --- Identity changes from other processes (server/lobby/identity.cpp) ---
  // Follows the store's identity change feed from after `after_seq` (the last
  // row when the players were loaded), applying what other processes changed,
  // and publishes who is signed in here every few seconds (parlour admin online).
  void follow_identity_changes(std::int64_t after_seq);
  void stop_following_identity_changes();
  // One change another process made: the directory updated, the connections
  // it signs out closed. Called on the feed's thread.
  void apply_identity_change(const storage::IdentityChange& change);
  // This process's mark on the changes it writes.
  const std::string& change_origin() const { return origin_; }

  // `client` signed in as `player` with `token`: closed if the token is revoked.
  void signed_in(const std::string& player, const std::string& token, const std::shared_ptr<Client>& client);

  // The player whose token this is, for HTTP bearer auth.
  std::optional<std::string> player_for_bearer(const std::string& token) const;

  const Json& games() const { return games_; }
  Json tables() const;
  // The open tables on this node that `player` holds a seat at or hosts, private
  // ones included (each line says "private"): where a friend who closed her tab
  // finds her table again. Costs what it returns.
  Json tables_of(const std::string& player) const;
  // What a request the lobby answers later gets: the reply's fields, or the error.
  using Done = std::function<void(Json reply, std::optional<ProtocolError>)>;
  void create(const std::string& host, const protocol::Create& create, Done done);
  // The new table of a rematch (docs/protocol.md "End of a table"): the same
  // game, options, clock and people, its bots seated anew; its first event
  // names the table it is the rematch of; the old table's event naming the new
  // one is committed in the same transaction. A retry (plan.made) is answered
  // with the table made before. `done` gets {"table","invite"}.
  void create_rematch(RematchPlan plan, Done done);
  // The table, loading a finished one from the database if it is not in memory;
  // `done` gets nullptr when there is no such table.
  void find(const std::string& table, std::function<void(std::shared_ptr<TableActor>)> done);
  std::shared_ptr<TableActor> find_loaded(const std::string& table) const;
  std::shared_ptr<TableActor> find_by_invite(const std::string& invite) const;

  // PROTOCOL.md `ledger` for `viewer`; `done` gets the reply fields or a
  // ProtocolError (not_found, internal), on the reader's thread.
  void ledger(const std::string& viewer, const std::string& player, int limit, std::optional<std::int64_t> before,
              std::function<void(Json, std::optional<ProtocolError>)> done);

  // The hand history of `table` for query.viewer (server/history/history.h), rebuilt on
  // the reader's thread from the stored log, never from the live table; `done`
  // gets the document or a ProtocolError (forbidden, not_found, rate_limited, internal).
  void history(const std::string& table, const HistoryQuery& query,
               std::function<void(Json, std::optional<ProtocolError>)> done);

  // Settle-up over `tables` (by default the tables `viewer` hosted tonight: see
  // settle_window and max_settle_tables): each person's net, the fewest payments,
  // bots and pools apart (docs/protocol.md "Settle-up"). `done` gets the reply
  // fields or a ProtocolError (bad_request, not_found, internal, rate_limited), on
  // the reader's thread.
  void settle(const std::string& viewer, std::optional<std::vector<std::string>> tables,
              std::function<void(Json, std::optional<ProtocolError>)> done);

  // Tables in memory: every unfinished one, and the finished ones still held
  // (the last config.max_finished_tables, and any a request is using).
  struct Counts {
    std::size_t open = 0;
    std::size_t finished = 0;
    std::size_t waiting = 0;  // of the open ones, by their status now (/metrics)
    std::size_t playing = 0;
  };
  Counts table_counts() const;
  // Names with a live signed-in connection here (/metrics).
  std::size_t players_online() const { return sessions_.players_online(); }

  // --- Several nodes (server/cluster/cluster.h) ---
  void attach(Cluster& cluster) { cluster_ = &cluster; }
  bool clustered() const { return cluster_ != nullptr; }
  const std::string& node_name() const { return config_.node; }
  Cluster* cluster() const { return cluster_; }
  // Serves a table here under lease `generation`, rebuilt from its log, and
  // wakes it. A log that cannot be replayed stops the table (as at restore).
  void serve(storage::TableRecord record, const std::vector<storage::Event>& events, std::int64_t generation) override;
  // Is the table served here under a lease?
  bool serves(const std::string& table) const override;
  std::vector<ServedTable> served_tables() const override;
  // The lease generation a table is served here under, while it is unfinished.
  std::optional<std::int64_t> served_unfinished(const std::string& table) const override;
  // Stops serving a table that another node serves now.
  void retire(const std::string& table, const std::string& why) override;
  // A step the database refused when the step log filed it: the table failed
  // there in the database. It is forgotten here, so that the next look at it
  // reads it as the database has it; its clients are told and moved, and the
  // chips of those who held a seat there are read again.
  void step_refused(const storage::RefusedStep& step);
  // The lobby lines of the tables other nodes serve, listed after this node's.
  void set_tables_elsewhere(std::vector<Json> lines) override;

 private:
  std::shared_ptr<TableActor> make_table(storage::TableRecord record, const rules::GameInfo& info,
                                         const std::vector<storage::Event>& events);
  // A table the lobby owns while it is unfinished: indexed, and told of each change.
  void add_table(const std::shared_ptr<TableActor>& table, const std::string& invite);
  void add_table_locked(const std::shared_ptr<TableActor>& table, const std::string& invite);
  // A table's lobby line, status or host changed (called on the table's strand).
  void table_changed(const TableActor& table, const TableSnapshot& snapshot);
  void hold(const TableSnapshot& snapshot);
  // Keeps the indexes (the `tables` lines, the open tables per host) up to date.
  void index(const TableSnapshot& snapshot);
  void unindex(const std::string& table, const std::string& host);
  // A finished table leaves the owned tables: it stays findable while anyone
  // holds it, and is held among the last few finished.
  void keep_finished(const std::shared_ptr<TableActor>& table, const std::string& invite);
  std::shared_ptr<TableActor> loaded_locked(const std::string& table) const;
  void sweep_finished_locked();
  void forget(const std::string& table);
  void answer_rematch_again(const std::string& table, std::function<void(Json, std::optional<ProtocolError>)> done);
  // Several nodes: the freshly created table is claimed and served here before `reply`.
  void serve_created(const std::string& table, std::function<void()> reply);
  void open_table(storage::TableRecord record, const rules::GameInfo& info, std::vector<storage::TableWrite> steps,
                  std::string rematch_of, Done done);
  // A new id, whose title in the browser no table open here has (server/common/table_titles.h).
  std::string new_table_id() const;
  int open_tables_of(const std::string& host) const;
  bool may_register_from(const std::string& address);
  // nullopt, or the refusal of one more table by `host` (too many made lately).
  std::optional<ProtocolError> creation_refused(const std::string& host);
  void known_hello(const protocol::Hello& hello, const std::string& address, HelloDone done);
  // nullopt, or why --registration refuses this new name.
  std::optional<ProtocolError> registration_refused(const protocol::Hello& hello) const;
  void register_name(const protocol::Hello& hello, HelloDone done);
  // The recovery code matched `used_hash`: the name's secrets are replaced.
  void replace_secrets(const storage::Player& player, const std::string& used_hash, HelloDone done);
  // The operator's claim link (hash `claim_hash`) was typed as the code: the same, and the link is used up.
  void claim_name(const storage::Player& player, const std::string& claim_hash, HelloDone done);
  void replace_credentials(const storage::Player& player, const std::string& used_hash, bool by_claim, HelloDone done);
  static bool first_device_revoked(const storage::Player& player);
  void publish_presence();
  // A name registered before recovery codes gets one in its next welcome
  // (checked once a name a run; then `done(welcome)`).
  void give_missing_recovery_code(const storage::Player& player, Welcome welcome, HelloDone done);
  bool recovery_known(std::int64_t player_id) const;
  void mark_recovery_known(std::int64_t player_id);
  // nullopt, or the rate_limited refusal of one more secret try for `name` from `address`.
  std::optional<ProtocolError> secret_try_refused(const std::string& name, const std::string& address);
  // A new device of `player` with its own token, then its welcome.
  void add_device(const storage::Player& player, const std::string& label, HelloDone done);
  // Several nodes: a player's chips are known here once a tick or learn_balance() read them.
  bool balance_known(const std::string& player);
  // Reads `player`'s chips from the database into the live balances, then runs `then`.
  void learn_balance(const std::string& player, std::function<void()> then);
  void housekeeping();

  boost::asio::io_context& io_;
  const Config& config_;
  Writer& writer_;
  // Queues a read a person asked for in his own turn at the reader; the
  // rate_limited refusal when his (or the server's) reads waiting are too many.
  std::optional<ProtocolError> read_for(const std::string& viewer, Reader::Work work);

  Reader& reader_;
  HistoryCache history_cache_;  // the reader's thread only
  LiveBalances& balances_;
  PlayerDirectory& players_;
  Json games_;
  boost::asio::steady_timer sweep_timer_;
  const std::string origin_;  // this process, as the identity changes it writes name it

  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<TableActor>> tables_;  // every unfinished table served here
  // Finished tables, just finished or read back: one actor per table while
  // anyone holds it; `recent_finished_` holds the last few.
  struct Finished {
    std::weak_ptr<TableActor> table;
    std::string invite;
  };
  std::map<std::string, Finished> finished_;
  std::deque<std::shared_ptr<TableActor>> recent_finished_;  // at most config.max_finished_tables
  std::size_t finished_swept_size_ = 0;
  std::map<std::string, std::string> invites_;  // invite → table, of the tables above
  // Indexes, so that a request costs what it returns, not the tables ever made:
  // the public unfinished tables' lobby lines, waiting ones listed first, and
  // each host's unfinished tables.
  std::map<std::string, std::shared_ptr<const Json>> listed_waiting_, listed_playing_;
  std::map<std::string, std::set<std::string>> open_by_host_;  // host's account → tables
  // "Your tables" (tables_of): each open table's line, private ones included, and
  // the accounts that hold it (its host and its seated players); by account, the
  // tables each holds. Kept when a table's summary changes, as the lists above.
  struct Held {
    std::vector<std::string> accounts;
    std::shared_ptr<const Json> line;
  };
  std::map<std::string, Held> held_;                           // table → its holders and line
  std::map<std::string, std::set<std::string>> held_by_;       // account → tables
  Cluster* cluster_ = nullptr;
  std::map<std::string, std::int64_t> leased_;  // table served here → its lease generation
  std::vector<Json> elsewhere_;                 // other nodes' tables' lobby lines

  WindowLimit registrations_;     // new names per address
  WindowLimit creations_;         // tables created (or rematches opened) per host
  std::shared_ptr<WindowLimit> chat_limit_;  // chat lines per person, at every table together
  WindowLimit recovery_by_name_;     // recovery tries per name
  WindowLimit recovery_by_address_;  // recovery tries per address
  WindowLimit signup_links_;         // sign-up links made per player
  WindowLimit device_links_;         // device codes made per player
  LiveSessions sessions_;
  mutable std::mutex recovery_known_mutex_;
  std::set<std::int64_t> recovery_known_;  // players known to have a recovery code
  // Presence (parlour admin online): the names published last time.
  boost::asio::steady_timer presence_timer_;
  std::vector<std::string> published_names_;
  std::chrono::steady_clock::time_point last_prune_{};
  // Last, so that it stops first: its thread calls into the members above.
  std::unique_ptr<IdentityFeed> feed_;
};

}  // namespace parlour::server
