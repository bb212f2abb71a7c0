#include "server/history/history.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <map>

#include "protocol/messages.h"
#include "rules/registry.h"
#include "server/common/names.h"
#include "server/table/table_state.h"

namespace parlour::server {

namespace code = protocol::code;
using Json = nlohmann::json;
using protocol::ProtocolError;

namespace {

const char* phase_name(rules::Phase phase) {
  switch (phase) {
    case rules::Phase::playing: return "playing";
    case rules::Phase::deal_over: return "deal_over";
    case rules::Phase::game_over: return "game_over";
  }
  return "playing";
}

// Who may see what (docs/protocol.md): once the table is over, anyone it is not
// private to sees every seat; before that, only a player seated at it, his own.
struct Audience {
  std::optional<int> seat;  // the viewer's seat at the table
  bool full = false;        // every seat's view, every event whole
};

Audience audience_of(const storage::TableRecord& record, const std::string& viewer) {
  Audience audience;
  for (const auto& seat : record.seats)
    if (!seat.bot && !seat.player.empty() && same_name(seat.player, viewer)) audience.seat = seat.seat;
  const bool over = record.status == "finished";
  if (!over && !audience.seat)
    throw ProtocolError(code::forbidden, "table " + record.id +
                                             " is still being played; until it ends only the players seated at it "
                                             "may replay its finished deals");
  if (over && record.is_private && !audience.seat && !same_name(record.host, viewer))
    throw ProtocolError(code::forbidden, "table " + record.id + " is private; only its host and players may replay it");
  audience.full = over;
  return audience;
}

// The event as the viewer may know it: another seat's action in a deal still
// hidden is named by its type only (an exchange or a go-down may name cards).
// `player`: who sat at the event's seat then.
Json event_for(const Json& event, const Json& player, const Audience& audience) {
  Json out;
  if (audience.full) {
    out = event;
  } else {
    out = {{"kind", event.at("kind")}};
    if (event.contains("seat")) out["seat"] = event["seat"];
    if (event.contains("by")) out["by"] = event["by"];
    if (event.contains("action")) {
      const bool own = event.contains("seat") && audience.seat == event["seat"].get<int>();
      out["action"] = own ? event["action"] : Json{{"type", event["action"].value("type", "")}};
      if (own && event.contains("action_id")) out["action_id"] = event["action_id"];
    }
  }
  if (event.contains("seat")) out["player"] = player;
  return out;
}

// A kept step as the viewer may see it: every seat's view, or his own.
Json step_for(const std::string& kept, const Audience& audience) {
  Json step = Json::parse(kept);
  step["event"] = event_for(step.at("event"), step.value("player", Json()), audience);
  step.erase("player");
  if (!audience.full) {
    step["view"] = step.at("views").at(*audience.seat);
    step["legal"] = step.at("legals").at(*audience.seat);
    step.erase("views");
    step.erase("legals");
    step.erase("table_view");
  }
  return step;
}

bool same_seats(const std::vector<storage::Seat>& a, const std::vector<storage::Seat>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const storage::Seat& x, const storage::Seat& y) {
    return x.seat == y.seat && x.player == y.player && x.bot == y.bot && x.bot_level == y.bot_level;
  });
}

std::atomic<std::uint64_t> events_replayed{0};

Json pack_json(const rules::PackSpec& pack) {
  return {{"short_pack", pack.short_pack},
          {"jokers", pack.jokers},
          {"decks", pack.decks},
          {"eleven_twelve_spots", pack.eleven_twelve_spots}};
}

}  // namespace

Json build_history(const storage::TableRecord& record, const std::vector<storage::Event>& events,
                   const HistoryQuery& query) {
  const auto* info = rules::Registry::builtin().find(record.game);
  if (!info) throw ProtocolError(code::internal, "the game '" + record.game + "' is not known to this server");
  return build_history(record, *info, events, query);
}

Json build_history(const storage::TableRecord& record, const rules::GameInfo& info,
                   const std::vector<storage::Event>& events, const HistoryQuery& query) {
  audience_of(record, query.viewer);  // a refusal costs no replay
  ReplayedHistory replay(record, info);
  replay.extend(events);
  return replay.document(record, query);
}

std::uint64_t history_events_replayed() { return events_replayed.load(); }

// ---------------------------------------------------------------- ReplayedHistory

struct ReplayedHistory::Impl {
  // The table's state made as every table is, by replaying its log (TableState).
  Impl(const storage::TableRecord& record, const rules::GameInfo& info)
      : record(record), state(TableState::replay(record, info, {})) {}

  storage::TableRecord record;  // as it was when the replay began
  TableState state;
  Json deals = Json::array();   // each deal's number, seqs, commitment and shuffle
  std::optional<rules::PackSpec> pack;
  // The steps of deal d (0: before the first) as text with every seat's view
  // and the event whole, and their seqs, for a page to start where it asks.
  std::vector<std::vector<std::string>> steps{1};
  std::vector<std::vector<std::int64_t>> seqs{1};
  std::size_t bytes = 0;

  void observe(const TableState& state, const TableState::ReplayedStep& step);
  Json page(int deal, std::int64_t from, int limit, const Audience& audience, Json& next_from) const;
};

void ReplayedHistory::Impl::observe(const TableState& state, const TableState::ReplayedStep& step) {
  ++events_replayed;
  const std::string kind = step.event.at("kind");
  const auto* game = state.game();
  if (!game) return;
  // A deal event that deals nothing (the game ended on it) starts no deal.
  if ((kind == "start" || kind == "deal") && state.deals_started() > static_cast<int>(deals.size())) {
    Json deal = {{"deal", state.deals_started()}, {"from_seq", step.seq}, {"to_seq", step.seq},
                 {"commitment", state.commitment(state.deals_started())}};
    if (const auto source = game->deck_source()) {
      deal["shuffle"] = source->shuffles;
      pack = source->pack;
    }
    deals.push_back(std::move(deal));
  } else if (!deals.empty()) {
    deals.back()["to_seq"] = step.seq;
  }
  // What a member at the table was pushed after this step: each seat's view and
  // legal list (the same TableState::legal_for the live table uses), what lies
  // open on the table, and the chips as the log last saw them.
  Json views = Json::array();
  Json legals = Json::array();
  for (int seat = 0; seat < state.seat_count(); ++seat) {
    views.push_back(game->view(seat));
    legals.push_back(state.legal_for(seat, state.chips()));
  }
  Json out = {{"seq", step.seq},
              {"deal", state.deals_started()},
              {"event", step.event},
              {"log", step.applied.lines},
              {"phase", phase_name(game->phase())},
              {"to_act", game->to_act()},
              {"chips", state.chips()},
              {"views", std::move(views)},
              {"legals", std::move(legals)},
              {"table_view", game->view(std::nullopt)}};
  if (step.event.contains("seat")) out["player"] = state.player_at(step.event["seat"].get<int>());
  if (game->phase() != rules::Phase::playing) out["result"] = game->result();
  const auto deal = static_cast<std::size_t>(state.deals_started());
  if (steps.size() <= deal) {
    steps.resize(deal + 1);
    seqs.resize(deal + 1);
  }
  steps[deal].push_back(out.dump());
  seqs[deal].push_back(step.seq);
  bytes += steps[deal].back().size() + sizeof(std::int64_t);
}

// Deal `deal`'s steps from seq `from`, at most `limit`; next_from the seq of the
// first one left out.
Json ReplayedHistory::Impl::page(int deal, std::int64_t from, int limit, const Audience& audience,
                                 Json& next_from) const {
  Json out = Json::array();
  if (deal < 0 || deal >= static_cast<int>(steps.size())) return out;
  const auto& deal_seqs = seqs[static_cast<std::size_t>(deal)];
  auto at = static_cast<std::size_t>(std::lower_bound(deal_seqs.begin(), deal_seqs.end(), from) - deal_seqs.begin());
  for (; at < deal_seqs.size(); ++at) {
    if (static_cast<int>(out.size()) >= limit) {
      next_from = deal_seqs[at];
      break;
    }
    out.push_back(step_for(steps[static_cast<std::size_t>(deal)][at], audience));
  }
  return out;
}

ReplayedHistory::ReplayedHistory(const storage::TableRecord& record, const rules::GameInfo& info)
    : impl_(std::make_unique<Impl>(record, info)) {}

ReplayedHistory::~ReplayedHistory() = default;

void ReplayedHistory::extend(const std::vector<storage::Event>& events) {
  try {
    impl_->state.replay_more(events, [this](const TableState& state, const TableState::ReplayedStep& step) {
      impl_->observe(state, step);
    });
  } catch (const ReplayError& e) {
    throw ProtocolError(code::internal, std::string("the history cannot be rebuilt: ") + e.what());
  }
}

std::int64_t ReplayedHistory::seq() const { return impl_->state.seq(); }

std::size_t ReplayedHistory::bytes() const { return impl_->bytes; }

bool ReplayedHistory::made_for(const storage::TableRecord& record) const {
  const auto& mine = impl_->record;
  return mine.id == record.id && mine.game == record.game && mine.status == record.status &&
         mine.failure == record.failure && mine.options_json == record.options_json && mine.seed == record.seed &&
         mine.deck_json == record.deck_json && same_seats(mine.seats, record.seats);
}

Json ReplayedHistory::document(const storage::TableRecord& record, const HistoryQuery& query) const {
  const auto audience = audience_of(record, query.viewer);
  const int wanted = query.deal.value_or(1);
  const auto& core = impl_->state;

  Json deals = impl_->deals;
  const bool over = record.status == "finished";
  const bool last_deal_played = core.game() && core.game()->phase() == rules::Phase::playing;
  for (auto& deal : deals)
    deal["finished"] = over || deal["deal"].get<int>() < core.deals_started() || !last_deal_played;
  const int dealt = static_cast<int>(deals.size());
  if (!query.whole && (dealt > 0 || query.deal)) {
    if (wanted < 1 || wanted > dealt)
      throw ProtocolError(code::not_found, "table " + record.id + " has had " + std::to_string(dealt) +
                                               " deals; there is no deal " + std::to_string(wanted));
    if (!deals[wanted - 1]["finished"].get<bool>())
      throw ProtocolError(code::forbidden, "deal " + std::to_string(wanted) + " of table " + record.id +
                                               " is still being played; it can be replayed once it ends");
  }

  Json steps = Json::array();
  Json next_from;
  if (query.whole) {
    for (int deal = 0; deal < static_cast<int>(impl_->steps.size()); ++deal)
      for (auto& step : impl_->page(deal, 0, std::numeric_limits<int>::max(), audience, next_from))
        steps.push_back(std::move(step));
  } else {
    steps = impl_->page(wanted, query.from.value_or(0), query.limit, audience, next_from);
  }

  Json seats = Json::array();
  for (int seat = 0; seat < core.seat_count(); ++seat)
    seats.push_back({{"seat", seat}, {"player", core.player_at(seat)}, {"bot", record.seats.at(seat).bot}});
  Json doc = {{"table", record.id},
              {"game", record.game},
              {"options", Json::parse(record.options_json)},
              {"status", record.status},
              {"host", record.host},
              {"seats", seats},
              {"viewer", {{"player", query.viewer}, {"seat", audience.seat ? Json(*audience.seat) : Json()}, {"full", audience.full}}},
              {"deals", deals},
              {"deal", dealt > 0 && !query.whole ? Json(wanted) : Json()},
              {"steps", steps},
              {"next_from", next_from}};
  if (over && core.deals_started() > 0) {
    Json fair = core.fair_json();
    fair["pack"] = impl_->pack ? pack_json(*impl_->pack) : Json();
    fair["stacked_deck"] = record.deck_json.empty() ? Json() : Json::parse(record.deck_json);
    doc["fair"] = std::move(fair);
  }
  if (!record.failure.empty()) doc["failure"] = record.failure;
  return doc;
}

// ---------------------------------------------------------------- HistoryCache

HistoryCache::HistoryCache(std::size_t max_bytes) : max_bytes_(max_bytes) {}

Json HistoryCache::build(storage::Store& db, const storage::TableRecord& record, const HistoryQuery& query) {
  audience_of(record, query.viewer);  // a refusal costs no replay
  return kept_for(db, record).document(record, query);
}

ReplayedHistory& HistoryCache::kept_for(storage::Store& db, const storage::TableRecord& record) {
  const auto* info = rules::Registry::builtin().find(record.game);
  if (!info) throw ProtocolError(code::internal, "the game '" + record.game + "' is not known to this server");
  auto it = kept_.find(record.id);
  if (it != kept_.end() && !it->second.replay->made_for(record)) {
    bytes_ -= it->second.bytes;
    recency_.erase(it->second.recency);
    kept_.erase(it);
    it = kept_.end();
  }
  if (it == kept_.end()) {
    recency_.push_front(record.id);
    it = kept_.emplace(record.id, Kept{std::make_unique<ReplayedHistory>(record, *info), recency_.begin(), 0})
             .first;
  } else {
    recency_.splice(recency_.begin(), recency_, it->second.recency);
  }
  Kept& kept = it->second;
  try {
    kept.replay->extend(db.events_after(record.id, kept.replay->seq()));
  } catch (...) {
    // Half applied: start afresh next time.
    bytes_ -= kept.bytes;
    recency_.erase(kept.recency);
    kept_.erase(it);
    throw;
  }
  bytes_ += kept.replay->bytes() - kept.bytes;
  kept.bytes = kept.replay->bytes();
  drop_beyond_budget(record.id);
  return *kept.replay;
}

void HistoryCache::drop_beyond_budget(const std::string& keep) {
  while (bytes_ > max_bytes_ && !recency_.empty() && recency_.back() != keep) {
    const auto it = kept_.find(recency_.back());
    bytes_ -= it->second.bytes;
    kept_.erase(it);
    recency_.pop_back();
  }
}

}  // namespace parlour::server
