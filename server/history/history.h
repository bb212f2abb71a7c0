// The hand history of a table (docs/protocol.md "Hand history and replay"): its
// stored events replayed offline into a TableState — the one way every table is
// made, never the live table itself — one step per event, each with the event, the log lines it added, the
// chips after it and the views the viewer may see: his own seat's view of a
// finished deal while the table runs, every seat's view once it has ended.
// Built on the reader's thread (Lobby::history); pure of sockets.
//
// What a request costs: a deal and fewer than TableState::state_kept_every
// events before it, not the table's age. Each deal's start is stored
// (storage::DealStart, written by the live table with the step that deals it),
// the first of each block of that many events with the table's state just
// before it, so a page of deal N resumes the last state kept at or before deal
// N and replays from there to deal N's end, and the document's facts about the
// whole table come from the last deal's replay the same way. Replays are kept
// (HistoryCache), one serving every deal up to the next kept state, and go on
// with only the events logged since. Tables without every deal's start (logged
// before the starts were kept) are replayed whole once and kept. Every way gives the same document as a fresh replay of
// the whole log (tests/server/test_history_live.cpp, test_table_core.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <optional>
#include <unordered_map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/registry.h"
#include "storage/store.h"

namespace parlour::server {

// A history is served a deal at a time, at most this many steps a reply.
inline constexpr int history_steps_per_reply = 100;

struct HistoryQuery {
  std::string viewer;                // the signed-in player asking
  std::optional<int> deal;           // default: the first deal
  std::optional<std::int64_t> from;  // the first seq wanted within the deal (the previous reply's next_from)
  bool whole = false;                // every deal, uncapped: `parlour verify` only, never over the wire
  int limit = history_steps_per_reply;  // steps a reply holds at most
  bool table_melds = false;  // the asker's `table_melds` feature: results as its table's pushes had them
};

// Throws protocol::ProtocolError: `forbidden` for a table still in play the
// viewer holds no seat at, a deal still in play, a private table's stranger;
// `not_found` for a deal the table has not had; `internal` when the log cannot
// be replayed.
nlohmann::json build_history(const storage::TableRecord& record, const rules::GameInfo& game,
                             const std::vector<storage::Event>& events, const HistoryQuery& query);
// The same for a table of a game in the server's registry (`internal` for a game it does not know).
nlohmann::json build_history(const storage::TableRecord& record, const std::vector<storage::Event>& events,
                             const HistoryQuery& query);

// What a hand history reads of one table's log: a Store (StoredTableLog), or a
// test's memory.
class TableLog {
 public:
  virtual ~TableLog() = default;
  // Every deal's start, by deal, without its state.
  virtual std::vector<storage::DealStart> deal_starts() = 0;
  // The table's state before deal `deal`; nullopt when none was kept
  // (DealStart::state_kept says which were).
  virtual std::optional<std::string> deal_state(int deal) = 0;
  // The events with a seq in (after, upto], or after `after` to the end.
  virtual std::vector<storage::Event> events(std::int64_t after, std::optional<std::int64_t> upto) = 0;
};

class StoredTableLog final : public TableLog {
 public:
  StoredTableLog(storage::Store& db, std::string table) : db_(db), table_(std::move(table)) {}
  std::vector<storage::DealStart> deal_starts() override { return db_.deal_starts(table_); }
  std::optional<std::string> deal_state(int deal) override { return db_.deal_state(table_, deal); }
  std::vector<storage::Event> events(std::int64_t after, std::optional<std::int64_t> upto) override {
    return upto ? db_.events_between(table_, after, *upto) : db_.events_after(table_, after);
  }

 private:
  storage::Store& db_;
  std::string table_;
};

// A table's history replayed up to seq(): the offline core standing there and
// every step before it, kept a deal at a time. Replayed from the table's start,
// or from a deal's start (its stored state) for that deal and those after it.
class ReplayedHistory {
 public:
  ReplayedHistory(const storage::TableRecord& record, const rules::GameInfo& game);
  // From the table's state before deal `start.deal` (start.state_json). Throws
  // ProtocolError `internal` when that state cannot be read or stands elsewhere.
  ReplayedHistory(const storage::TableRecord& record, const rules::GameInfo& game, const storage::DealStart& start);
  ~ReplayedHistory();
  ReplayedHistory(const ReplayedHistory&) = delete;
  ReplayedHistory& operator=(const ReplayedHistory&) = delete;

  // Applies `events`, which must follow seq() (Store::events_after). Throws
  // ProtocolError `internal` when the log cannot be replayed.
  void extend(const std::vector<storage::Event>& events);
  std::int64_t seq() const;
  int deals_started() const;  // the deals dealt up to seq()
  // Whether `record` is still the table this replay was made for: the same
  // seats, status and settings (a seat taken or the table's end starts afresh).
  bool made_for(const storage::TableRecord& record) const;
  // The memory the kept steps take, roughly.
  std::size_t bytes() const;
  // The document for query (the steps replayed so far), as build_history says.
  nlohmann::json document(const storage::TableRecord& record, const HistoryQuery& query) const;
  // The same, for a replay that ends where the log does (`last`) and one that
  // holds the deal asked for (`paged`), with the list of every deal `deals`
  // (each deal's start entry; their to_seq is filled in here).
  static nlohmann::json document(const storage::TableRecord& record, const HistoryQuery& query,
                                 const std::vector<storage::DealStart>& deals, const ReplayedHistory& last,
                                 const ReplayedHistory& paged);

 private:
  struct Impl;
  static nlohmann::json assemble(const storage::TableRecord& record, const HistoryQuery& query, nlohmann::json deals,
                                 const Impl& last, const Impl& paged);
  std::unique_ptr<Impl> impl_;
};

// Kept replays of the tables whose history was asked for lately, least
// recently asked dropped first beyond `max_bytes`. The reader's thread only.
class HistoryCache {
 public:
  explicit HistoryCache(std::size_t max_bytes = 64u << 20);
  // build_history for `record` (as `db` holds it now): the deal asked for and
  // the last deal, each from the last state kept before it, reading only the events logged
  // since the kept replays. Throws as build_history.
  nlohmann::json build(storage::Store& db, const storage::TableRecord& record, const HistoryQuery& query);
  nlohmann::json build(TableLog& log, const storage::TableRecord& record, const HistoryQuery& query);
  std::size_t bytes() const { return bytes_; }
  // Requests answered by replaying a table's whole log (its deals' starts were
  // not all kept, or one could not be read), since this cache was made.
  std::uint64_t whole_replays() const { return whole_replays_; }

 private:
  struct Kept {
    std::unique_ptr<ReplayedHistory> replay;
    std::list<std::string>::iterator recency;
    std::size_t bytes = 0;
  };
  using Make = std::function<std::unique_ptr<ReplayedHistory>()>;
  // The replay kept under `key`, made if need be, gone on to `upto` (the end of the log if none).
  ReplayedHistory& kept_for(TableLog& log, const storage::TableRecord& record, const std::string& key,
                            const Make& make, std::optional<std::int64_t> upto);
  nlohmann::json whole_table(TableLog& log, const storage::TableRecord& record, const rules::GameInfo& info,
                             const HistoryQuery& query);
  void drop_beyond_budget(const std::string& keep);

  const std::size_t max_bytes_;
  std::size_t bytes_ = 0;
  std::uint64_t whole_replays_ = 0;
  std::list<std::string> recency_;  // table ids, most recently asked first
  std::unordered_map<std::string, Kept> kept_;
};

// Events a history replay applied since the server started (/metrics
// parlour_history_events_replayed_total): what history requests cost.
std::uint64_t history_events_replayed();

}  // namespace parlour::server
