#include "server/history/history.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <map>

#include "protocol/messages.h"
#include "rules/registry.h"
#include "server/common/names.h"
#include "server/table/table_state.h"

#include <spdlog/spdlog.h>

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
  std::optional<int> seat;   // the viewer's seat at the table
  bool full = false;         // every seat's view, every event whole
  bool table_melds = false;  // results as the `table_melds` feature has them (PushEncoder does the same)
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
  if (const auto shared = step.find("result_table_melds"); shared != step.end()) {
    if (audience.table_melds) step["result"] = std::move(*shared);
    step.erase("result_table_melds");
  }
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

ProtocolError no_such_deal(const storage::TableRecord& record, int dealt, int wanted) {
  return ProtocolError(code::not_found, "table " + record.id + " has had " + std::to_string(dealt) +
                                            " deals; there is no deal " + std::to_string(wanted));
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
  Impl(const storage::TableRecord& record, TableState resumed)
      : record(record), state(std::move(resumed)), first_deal(state.deals_started()) {}

  storage::TableRecord record;  // as it was when the replay began
  TableState state;
  int first_deal = 0;           // the deals dealt before the replay began
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
  if ((kind == "start" || kind == "deal") && state.deals_started() > first_deal + static_cast<int>(deals.size())) {
    deals.push_back(state.deal_entry(step.seq));
    if (const auto source = game->deck_source()) pack = source->pack;
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
  if (game->phase() != rules::Phase::playing) {
    out["result"] = game->result();
    // Kept beside it only where it differs (Carousel's melds belong to the table).
    if (auto shared = game->result_with_table_melds(); shared != out["result"]) out["result_table_melds"] = std::move(shared);
  }
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

ReplayedHistory::ReplayedHistory(const storage::TableRecord& record, const rules::GameInfo& info,
                                 const storage::DealStart& start) {
  const auto where = "the state kept before deal " + std::to_string(start.deal) + " of table " + record.id;
  Json snapshot;
  try {
    snapshot = Json::parse(start.state_json);
  } catch (const Json::exception& e) {
    throw ProtocolError(code::internal, where + " is not JSON: " + e.what());
  }
  try {
    impl_ = std::make_unique<Impl>(record, TableState::resume(record, info, snapshot));
  } catch (const ReplayError& e) {
    throw ProtocolError(code::internal, where + " cannot be read: " + e.what());
  }
  const auto& state = impl_->state;
  if (state.seq() != start.seq - 1 || state.deals_started() != start.deal - 1)
    throw ProtocolError(code::internal, where + " stands at seq " + std::to_string(state.seq()) + " after deal " +
                                            std::to_string(state.deals_started()) + ", not just before seq " +
                                            std::to_string(start.seq));
}

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

int ReplayedHistory::deals_started() const { return impl_->state.deals_started(); }

std::size_t ReplayedHistory::bytes() const { return impl_->bytes; }

bool ReplayedHistory::made_for(const storage::TableRecord& record) const {
  const auto& mine = impl_->record;
  return mine.id == record.id && mine.game == record.game && mine.status == record.status &&
         mine.failure == record.failure && mine.options_json == record.options_json && mine.seed == record.seed &&
         mine.deck_json == record.deck_json && same_seats(mine.seats, record.seats);
}

Json ReplayedHistory::document(const storage::TableRecord& record, const HistoryQuery& query) const {
  return assemble(record, query, impl_->deals, *impl_, *impl_);
}

Json ReplayedHistory::document(const storage::TableRecord& record, const HistoryQuery& query,
                               const std::vector<storage::DealStart>& starts, const ReplayedHistory& last,
                               const ReplayedHistory& paged) {
  // Each deal runs to the step before the next deal's, the last to the end of the log.
  Json deals = Json::array();
  for (std::size_t d = 0; d < starts.size(); ++d) {
    Json deal = Json::parse(starts[d].entry_json);
    deal["to_seq"] = d + 1 < starts.size() ? starts[d + 1].seq - 1 : last.seq();
    deals.push_back(std::move(deal));
  }
  return assemble(record, query, std::move(deals), *last.impl_, *paged.impl_);
}

// The document from the list of deals, the replay standing at the log's end
// (`last`: the table's seats, its last deal's phase, its fair deals) and the
// replay holding the deal asked for (`paged`); the same replay when the whole log was replayed.
Json ReplayedHistory::assemble(const storage::TableRecord& record, const HistoryQuery& query, Json deals,
                               const Impl& last, const Impl& paged) {
  auto audience = audience_of(record, query.viewer);
  audience.table_melds = query.table_melds;
  const int wanted = query.deal.value_or(1);
  const auto& core = last.state;

  const bool over = record.status == "finished";
  const bool last_deal_played = core.game() && core.game()->phase() == rules::Phase::playing;
  for (auto& deal : deals)
    deal["finished"] = over || deal["deal"].get<int>() < core.deals_started() || !last_deal_played;
  const int dealt = static_cast<int>(deals.size());
  if (!query.whole && (dealt > 0 || query.deal)) {
    if (wanted < 1 || wanted > dealt) throw no_such_deal(record, dealt, wanted);
    if (!deals[wanted - 1]["finished"].get<bool>())
      throw ProtocolError(code::forbidden, "deal " + std::to_string(wanted) + " of table " + record.id +
                                               " is still being played; it can be replayed once it ends");
  }

  Json steps = Json::array();
  Json next_from;
  if (query.whole) {
    for (int deal = 0; deal < static_cast<int>(paged.steps.size()); ++deal)
      for (auto& step : paged.page(deal, 0, std::numeric_limits<int>::max(), audience, next_from))
        steps.push_back(std::move(step));
  } else {
    steps = paged.page(wanted, query.from.value_or(0), query.limit, audience, next_from);
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
    fair["pack"] = last.pack ? pack_json(*last.pack) : Json();
    fair["stacked_deck"] = record.deck_json.empty() ? Json() : Json::parse(record.deck_json);
    doc["fair"] = std::move(fair);
  }
  if (!record.failure.empty()) doc["failure"] = record.failure;
  return doc;
}

// ---------------------------------------------------------------- HistoryCache

HistoryCache::HistoryCache(std::size_t max_bytes) : max_bytes_(max_bytes) {}

Json HistoryCache::build(storage::Store& db, const storage::TableRecord& record, const HistoryQuery& query) {
  StoredTableLog log(db, record.id);
  return build(log, record, query);
}

namespace {

// Deals 1, 2, 3... each with its start kept, the first with the table's state:
// a table logged before the starts were kept has none or only its later ones.
bool every_deal_kept(const std::vector<storage::DealStart>& starts) {
  for (std::size_t d = 0; d < starts.size(); ++d)
    if (starts[d].deal != static_cast<int>(d) + 1) return false;
  return !starts.empty() && starts.front().state_kept;
}

// The deal at or before `deal` whose start kept the table's state: where a
// replay that shows `deal` begins.
int resumed_from(const std::vector<storage::DealStart>& starts, int deal) {
  while (deal > 1 && !starts[static_cast<std::size_t>(deal - 1)].state_kept) --deal;
  return deal;
}

}  // namespace

Json HistoryCache::build(TableLog& log, const storage::TableRecord& record, const HistoryQuery& query) {
  audience_of(record, query.viewer);  // a refusal costs no replay
  const auto* info = rules::Registry::builtin().find(record.game);
  if (!info) throw ProtocolError(code::internal, "the game '" + record.game + "' is not known to this server");
  auto starts = query.whole ? std::vector<storage::DealStart>{} : log.deal_starts();
  if (!every_deal_kept(starts)) return whole_table(log, record, *info, query);
  const int dealt = static_cast<int>(starts.size());
  const int wanted = query.deal.value_or(1);
  if (wanted < 1 || wanted > dealt) throw no_such_deal(record, dealt, wanted);
  try {
    const auto from_start = [&](int deal) -> Make {
      return [&log, &record, info, deal, &starts] {
        auto start = starts[static_cast<std::size_t>(deal - 1)];
        auto state = log.deal_state(deal);
        if (!state) throw ProtocolError(code::internal, "no state was kept before deal " + std::to_string(deal));
        start.state_json = std::move(*state);
        return std::make_unique<ReplayedHistory>(record, *info, start);
      };
    };
    // One replay from a kept state serves every deal up to the next kept one.
    const auto key = [&](int deal) { return record.id + "#" + std::to_string(deal); };
    const int last_from = resumed_from(starts, dealt);
    const int paged_from = resumed_from(starts, wanted);
    auto& last = kept_for(log, record, key(last_from), from_start(last_from), std::nullopt);
    // The live table went on between the two reads: the starts of the deals its
    // events dealt were written with them, so a second read has them all.
    if (last.deals_started() > dealt) {
      starts = log.deal_starts();
      if (static_cast<int>(starts.size()) < last.deals_started() || !every_deal_kept(starts))
        throw ProtocolError(code::internal, "the log has deals whose starts were not kept");
      starts.resize(static_cast<std::size_t>(last.deals_started()));
    }
    auto& paged = paged_from == last_from ? last
                                          : kept_for(log, record, key(paged_from), from_start(paged_from),
                                                     starts[static_cast<std::size_t>(wanted)].seq - 1);
    auto doc = ReplayedHistory::document(record, query, starts, last, paged);
    drop_beyond_budget(key(paged_from));
    return doc;
  } catch (const ProtocolError& e) {
    // A start that cannot be read is a cache lost: the log is the truth.
    if (e.code() != code::internal) throw;
    spdlog::warn("table {}: the history replays the whole log: {}", record.id, e.what());
    return whole_table(log, record, *info, query);
  }
}

Json HistoryCache::whole_table(TableLog& log, const storage::TableRecord& record, const rules::GameInfo& info,
                               const HistoryQuery& query) {
  ++whole_replays_;
  const auto make = [&] { return std::make_unique<ReplayedHistory>(record, info); };
  auto doc = kept_for(log, record, record.id, make, std::nullopt).document(record, query);
  drop_beyond_budget(record.id);
  return doc;
}

ReplayedHistory& HistoryCache::kept_for(TableLog& log, const storage::TableRecord& record, const std::string& key,
                                        const Make& make, std::optional<std::int64_t> upto) {
  auto it = kept_.find(key);
  if (it != kept_.end() && !it->second.replay->made_for(record)) {
    bytes_ -= it->second.bytes;
    recency_.erase(it->second.recency);
    kept_.erase(it);
    it = kept_.end();
  }
  if (it == kept_.end()) {
    auto replay = make();
    recency_.push_front(key);
    it = kept_.emplace(key, Kept{std::move(replay), recency_.begin(), 0}).first;
  } else {
    recency_.splice(recency_.begin(), recency_, it->second.recency);
  }
  Kept& kept = it->second;
  try {
    if (!upto || kept.replay->seq() < *upto) kept.replay->extend(log.events(kept.replay->seq(), upto));
  } catch (...) {
    // Half applied: start afresh next time.
    bytes_ -= kept.bytes;
    recency_.erase(kept.recency);
    kept_.erase(it);
    throw;
  }
  bytes_ += kept.replay->bytes() - kept.bytes;
  kept.bytes = kept.replay->bytes();
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
