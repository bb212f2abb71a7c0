// The hand history of a table (docs/protocol.md "Hand history and replay"): its
// stored events replayed offline into a TableState — the one way every table is
// made, never the live table itself — one step per event, each with the event, the log lines it added, the
// chips after it and the views the viewer may see: his own seat's view of a
// finished deal while the table runs, every seat's view once it has ended.
// Built on the reader's thread (Lobby::history); pure of sockets.
//
// What a request costs: a table's replay is kept (HistoryCache) and only the
// events logged since are applied to it, so a page costs the page and the new
// events, not the table's age. The kept replay is a cache of the log, nothing
// more: a page from it equals one from a fresh replay (tests/server/test_history_cache.cpp).
#pragma once

#include <cstdint>
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

// A table's history replayed up to seq(): the offline core standing there and
// every step before it, kept a deal at a time.
class ReplayedHistory {
 public:
  ReplayedHistory(const storage::TableRecord& record, const rules::GameInfo& game);
  ~ReplayedHistory();
  ReplayedHistory(const ReplayedHistory&) = delete;
  ReplayedHistory& operator=(const ReplayedHistory&) = delete;

  // Applies `events`, which must follow seq() (Store::events_after). Throws
  // ProtocolError `internal` when the log cannot be replayed.
  void extend(const std::vector<storage::Event>& events);
  std::int64_t seq() const;
  // Whether `record` is still the table this replay was made for: the same
  // seats, status and settings (a seat taken or the table's end starts afresh).
  bool made_for(const storage::TableRecord& record) const;
  // The memory the kept steps take, roughly.
  std::size_t bytes() const;
  // The document for query (the steps replayed so far), as build_history says.
  nlohmann::json document(const storage::TableRecord& record, const HistoryQuery& query) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Kept replays of the tables whose history was asked for lately, least
// recently asked dropped first beyond `max_bytes`. The reader's thread only.
class HistoryCache {
 public:
  explicit HistoryCache(std::size_t max_bytes = 64u << 20);
  // build_history for `record` (as `db` holds it now), reading from `db` only
  // the events logged since the kept replay. Throws as build_history.
  nlohmann::json build(storage::Store& db, const storage::TableRecord& record, const HistoryQuery& query);
  std::size_t bytes() const { return bytes_; }

 private:
  struct Kept {
    std::unique_ptr<ReplayedHistory> replay;
    std::list<std::string>::iterator recency;
    std::size_t bytes = 0;
  };
  ReplayedHistory& kept_for(storage::Store& db, const storage::TableRecord& record);
  void drop_beyond_budget(const std::string& keep);

  const std::size_t max_bytes_;
  std::size_t bytes_ = 0;
  std::list<std::string> recency_;  // table ids, most recently asked first
  std::unordered_map<std::string, Kept> kept_;
};

// Events a history replay applied since the server started (/metrics
// parlour_history_events_replayed_total): what history requests cost.
std::uint64_t history_events_replayed();

}  // namespace parlour::server
