// The hand history of a table (docs/protocol.md "Hand history and replay"): its
// stored events replayed offline through a fresh TableCore — never the live
// table — one step per event, each with the event, the log lines it added, the
// chips after it and the views the viewer may see: his own seat's view of a
// finished deal while the table runs, every seat's view once it has ended.
// Built on the reader's thread (Lobby::history); pure of sockets.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/registry.h"
#include "server/config.h"
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
                             const std::vector<storage::Event>& events, const Config& config, const HistoryQuery& query);
// The same for a table of a game in the server's registry (`internal` for a game it does not know).
nlohmann::json build_history(const storage::TableRecord& record, const std::vector<storage::Event>& events,
                             const Config& config, const HistoryQuery& query);

}  // namespace parlour::server
