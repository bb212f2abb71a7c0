// Everything a table's log determines, and nothing else: the record's seats and
// settings, the game, the seq, the log lines, the fair deals' salt and
// commitments, the standings, the talk (chat, mutes, rematch links), the action
// ids, the idle-deal count and the host's "end after this deal".
//
// DESIGN.md: a table is a pure function of its log. This class is that function.
// Its only constructor is replay(): a table restored at start-up, the table
// rebuilt after a failed commit, a table another node hands over, the hand
// history and `parlour verify` are all made by it, and a live table changes it
// only by apply(), the same code a replay runs. No locks, no clocks, no sockets.
//
// Besides its events, a table's record changes before play (seats taken and
// freed) and at its end (status, failure): those are written with the step
// (storage::TableWrite) and read back with the record, so they are part of the
// input too.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/registry.h"
#include "server/table/standings.h"
#include "storage/store.h"

namespace parlour::server {

// The log cannot be replayed: the table is quarantined instead of restored.
class ReplayError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A seat as the log knows it.
struct SeatState {
  std::string player;  // "" when empty
  bool bot = false;
  int bot_level = 0;
  bool left = false;  // left during play; the seat stays in the game
  // "open" or "bot": the seat changes hands at the next deal (the host freed it,
  // or its player left in the middle of a deal); until then a bot plays it.
  std::string leaving{};
  // Its player has given it up, or is being moved out for someone else: the
  // seat is his no more (he joins again as anyone late), though a bot may still
  // be playing his hand out.
  bool given_up() const { return left || leaving == "open"; }
};

// The table's talk, which the game never sees (docs/protocol.md "Table chat",
// "End of a table").
struct TableTalkState {
  std::deque<std::string> chat;  // the last chat lines, as JSON
  std::int64_t chat_total = 0;   // lines ever: chat.back() is line chat_total - 1
  std::map<std::string, std::string> chatters;  // by folded name: everyone who has chatted here
  std::map<std::string, std::string> muted;     // by folded name: the name as written
  std::optional<nlohmann::json> rematch;     // {"table","same_seed"}: the rematch opened from this table
  std::optional<nlohmann::json> rematch_of;  // {"table","same_seed","standings"}: the table this one rematches
};

// What applying one event left behind.
struct AppliedEvent {
  std::vector<storage::Posting> postings;  // the chips it moved, accounts and memos named
  std::vector<std::string> lines;          // the log lines it added, names filled in
  // A live event that dealt a new deal: the deal's entry in the list of deals,
  // written with the step (storage::DealStart), and, at the first deal of each
  // block of TableState::state_kept_every seqs, the table's state just before it,
  // so that the hand history of that deal and the next few reads from there.
  // Never set by a replay.
  std::optional<storage::DealStart> deal_start;
};

class TableState {
 public:
  using Json = nlohmann::json;

  // Called after each replayed event with the state as it then stands.
  struct ReplayedStep {
    std::int64_t seq = 0;
    const Json& event;  // as stored
    const AppliedEvent& applied;
  };
  using Observer = std::function<void(const TableState&, const ReplayedStep&)>;

  // The only way to make a table's state: its record as stored, and its log
  // replayed in order. Throws ReplayError where the log cannot be replayed.
  static TableState replay(storage::TableRecord record, const rules::GameInfo& game,
                           const std::vector<storage::Event>& events, const Observer& observe = {});
  // A table's state from its snapshot (snapshot(), as written with a deal's
  // start): the same state the log's replay up to the snapshot's seq makes
  // (tests/server/test_history_live.cpp checks this for every game). Throws
  // ReplayError when the snapshot cannot be read or does not fit the record.
  static TableState resume(storage::TableRecord record, const rules::GameInfo& game, const Json& snapshot);
  // Replays more of the log, which must follow seq() (a history goes on from
  // where it stood). Throws ReplayError as replay() does.
  void replay_more(const std::vector<storage::Event>& events, const Observer& observe = {});

  TableState(TableState&&) noexcept;
  TableState& operator=(TableState&&) noexcept;
  ~TableState();

  // ---- applying a new event (the live table)
  // The chips of the seats as they stand (a live table reads the ledger; the
  // seats may have changed hands within the event).
  using ChipsNow = std::function<rules::Balances(const std::vector<SeatState>&)>;
  // Applies a new event and gives it the next seq. The event is completed with
  // what a replay needs and a live table decides once: "balances" (the chips it
  // was applied to), and for a start its "first_dealer" and "fair_salt" (the
  // caller gives the salt). A refused action (rules::RulesError, a
  // rules::SetupError at start) changes nothing.
  AppliedEvent apply(Json& event, const ChipsNow& chips_now);
  // The first dealer a start event would draw: from the seed, among the seats taken.
  int draw_first_dealer() const;

  // ---- the record's own changes (written with the step, not as events)
  void set_seat(int seat, SeatState state);  // before play: a seat taken or freed
  void set_status(const std::string& status) { record_.status = status; }
  void set_failure(const std::string& failure);
  // A line the table says that no event carries (a seat away, a table
  // expiring or stopped by a fault): a replay does not show it again.
  void say(const std::string& line);

  // ---- what the log determines
  const storage::TableRecord& record() const { return record_; }
  const rules::GameInfo& info() const { return *info_; }
  const Json& options() const { return options_; }
  const std::string& id() const { return record_.id; }
  const std::string& status() const { return record_.status; }
  bool finished() const { return record_.status == "finished"; }
  bool failed() const { return !record_.failure.empty(); }
  std::int64_t seq() const { return seq_; }
  const std::vector<SeatState>& seats() const { return seats_; }
  int seat_count() const { return static_cast<int>(seats_.size()); }
  const std::string& player_at(int seat) const { return seats_.at(seat).player; }
  std::optional<int> seat_of(const std::string& player) const;  // a person's seat (not a bot's)
  std::vector<storage::Seat> stored_seats() const;
  const rules::GameState* game() const { return game_.get(); }
  // The host asked to end the table once the deal in play is over.
  bool ending() const { return ending_; }
  // Deals started in a row without a single action: a table nobody can play ends.
  int deals_without_action() const { return deals_without_action_; }
  // The seq an action id was applied at (a resent act is answered, not applied again).
  std::optional<std::int64_t> seq_of_action(int seat, const std::string& action_id) const;
  // Each seat's chips as the log last saw them: after the last event's
  // movements, or when a talk event was written (empty before the first event
  // that carries them).
  const rules::Balances& chips() const { return chips_; }

  // The log's lines: the last kept, JSON-quoted; total ever added.
  const std::deque<std::string>& log_tail() const { return log_; }
  std::int64_t log_total() const { return log_total_; }

  // Everything this state is beyond its record, as JSON: seq, seats, the game
  // (rules::GameState::snapshot), the log's tail, fair deals, standings, talk,
  // action ids and chips. resume() reads it back. Stamped with
  // rules::snapshot_format (rules/snapshot.h), and another format is not read:
  // bump that number with any change to what this snapshot holds too.
  Json snapshot() const;
  // The deal in play's line in a hand history's list of deals, for a deal dealt
  // at `from_seq`: {"deal","from_seq","to_seq","commitment","shuffle"?}.
  Json deal_entry(std::int64_t from_seq) const;

  // ---- provably fair deals (rules/fair.h)
  int deals_started() const { return deals_started_; }  // the number of the deal in play (0 before play)
  std::int64_t deal_seq() const { return deal_seq_; }    // the seq of the step that dealt it (0 before play)
  std::string commitment(int deal) const;
  const std::string& current_commitment() const { return commitment_; }
  const std::string& fair_salt() const { return fair_salt_; }
  // The state's "fair": the deal in play and its commitment, and once the table
  // has finished the revealed seed and salt. Null before the first deal.
  Json fair_json() const;

  // ---- talk and standings
  const TableTalkState& talk() const { return talk_; }
  bool is_muted(const std::string& player) const;
  // Null before play and for a table stopped by a fault.
  Json standings() const;
  // Chat, mute, rematch and ending events: never the game's.
  static bool is_talk(const std::string& kind);

  // What the seat may do now, by the log: at a deal's end "continue" (unless
  // the host is ending the table), in play the game's legal actions for a seat
  // to act; nothing for a seat that left or a game that is over.
  void write_legal_for(int seat, const rules::Balances& chips, rules::JsonWriter& out) const;
  Json legal_for(int seat, const rules::Balances& chips) const;
  // Play has started and the table has not closed.
  bool in_play() const { return game_ && !closed_; }

  // Chips the rules moved, as ledger postings of this table (accounts and memos named).
  std::vector<storage::Posting> postings_for(const std::vector<rules::Transfer>& transfers) const {
    return to_postings(transfers, false);
  }

  // People's names in a rules line ("seat 2" tags) for the log and memos.
  std::string name_seats(const std::string& line) const;

  // A deal dealt at `seq` keeps the table's state before it (AppliedEvent::deal_start)
  // when it is the table's first or the first in its block of this many seqs:
  // a history replays fewer than this many events before the deal it shows,
  // and a table of short deals does not write a state with every one.
  static constexpr std::int64_t state_kept_every = 128;
  static bool keeps_state(std::int64_t previous_deal_seq, std::int64_t seq) {
    return previous_deal_seq == 0 || seq / state_kept_every > previous_deal_seq / state_kept_every;
  }

  // Action ids remembered per seat for answering a resent `act`.
  static constexpr std::size_t max_action_ids_per_seat = 256;
  static constexpr std::size_t log_lines_kept = 50;
  static constexpr std::size_t chat_lines_kept = 50;

 private:
  TableState(storage::TableRecord record, const rules::GameInfo& game);
  void replay_event(const storage::Event& stored, const Observer& observe);
  void restore(const Json& snapshot);
  rules::GameSetup game_setup(int players, rules::Balances chips, int first_dealer) const;
  AppliedEvent apply_event(Json& event, const ChipsNow* chips_now, std::int64_t seq);
  std::vector<std::string> apply_talk(const Json& event);
  void start_game(Json& event, rules::Balances& chips, rules::Effects& effects, bool live);
  void change_seats(const Json& changes, const rules::Balances& chips, rules::Effects& effects);
  void deal_committed(rules::Effects& effects);
  void note_deal_settled(const std::string& kind);
  void remember_action(int seat, const std::string& action_id, std::int64_t seq);
  std::vector<storage::Posting> to_postings(const std::vector<rules::Transfer>& transfers, bool skip_unheld) const;
  void chips_after(const Json& event, const std::vector<storage::Posting>& postings);
  std::vector<std::string> add_log(const std::vector<std::string>& lines);

  storage::TableRecord record_;
  const rules::GameInfo* info_;
  Json options_;
  std::vector<SeatState> seats_;
  std::unique_ptr<rules::GameState> game_;
  std::int64_t seq_ = 0;
  bool ending_ = false;
  bool closed_ = false;
  int deals_without_action_ = 0;
  std::deque<std::string> log_;
  std::int64_t log_total_ = 0;
  int deals_started_ = 0;
  std::int64_t deal_seq_ = 0;
  std::string fair_salt_;
  std::string commitment_;
  Standings standings_;
  TableTalkState talk_;
  std::map<int, std::deque<std::pair<std::string, std::int64_t>>> action_ids_;  // per seat, oldest first
  rules::Balances chips_;
};

}  // namespace parlour::server
