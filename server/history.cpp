#include "server/history.h"

#include <algorithm>
#include <map>

#include "protocol/messages.h"
#include "rules/registry.h"
#include "server/live_balances.h"
#include "server/table_core.h"

namespace parlour::server {

namespace code = protocol::code;
using Json = nlohmann::json;
using protocol::ProtocolError;

namespace {

bool same_name(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

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
Json event_for(const Json& event, const TableCore& core, const Audience& audience) {
  Json out;
  if (audience.full) {
    out = event;
    out.erase("action_id");
  } else {
    out = {{"kind", event.at("kind")}};
    if (event.contains("seat")) out["seat"] = event["seat"];
    if (event.contains("by")) out["by"] = event["by"];
    if (event.contains("action")) {
      const bool own = event.contains("seat") && audience.seat == event["seat"].get<int>();
      out["action"] = own ? event["action"] : Json{{"type", event["action"].value("type", "")}};
    }
  }
  if (event.contains("seat")) out["player"] = core.player_at(event["seat"].get<int>());
  return out;
}

// Each seat's chips after the step: as the rules saw them before it, plus what it moved.
Json chips_after(const Json& event, const std::vector<storage::Posting>& postings, const TableCore& core) {
  Json chips = Json::array();
  const auto before = event.value("balances", Json::array());
  for (int seat = 0; seat < core.seat_count(); ++seat) {
    std::int64_t amount = seat < static_cast<int>(before.size()) ? before[seat].get<std::int64_t>() : 0;
    const auto account = core.player_at(seat).empty() ? std::string() : storage::player_account(core.player_at(seat));
    for (const auto& posting : postings) {
      if (posting.from == account) amount -= posting.amount;
      if (posting.to == account) amount += posting.amount;
    }
    chips.push_back(amount);
  }
  return chips;
}

Json pack_json(const rules::PackSpec& pack) {
  return {{"short_pack", pack.short_pack},
          {"jokers", pack.jokers},
          {"decks", pack.decks},
          {"eleven_twelve_spots", pack.eleven_twelve_spots}};
}

}  // namespace

Json build_history(const storage::TableRecord& record, const std::vector<storage::Event>& events, const Config& config,
                   const HistoryQuery& query) {
  const auto* info = rules::Registry::builtin().find(record.game);
  if (!info) throw ProtocolError(code::internal, "the game '" + record.game + "' is not known to this server");
  return build_history(record, *info, events, config, query);
}

Json build_history(const storage::TableRecord& record, const rules::GameInfo& info,
                   const std::vector<storage::Event>& events, const Config& config, const HistoryQuery& query) {
  const auto audience = audience_of(record, query.viewer);
  const int wanted = query.deal.value_or(1);

  // An offline core: its own balances (a replay reads the chips from the log),
  // no clock, no database.
  LiveBalances balances;
  TableCore core(CoreServices{balances, config, [] { return std::int64_t{0}; }, {}}, record, info);
  Json deals = Json::array();
  Json steps = Json::array();
  Json next_from;
  std::optional<rules::PackSpec> pack;
  try {
    core.replay_observed(events, [&](const TableCore::ReplayedStep& step) {
      const std::string kind = step.event.at("kind");
      const auto* game = core.game();
      if (!game) return;
      // A deal event that deals nothing (the game ended on it) starts no deal.
      if ((kind == "start" || kind == "deal") && core.deals_started() > static_cast<int>(deals.size())) {
        Json deal = {{"deal", core.deals_started()}, {"from_seq", step.seq}, {"to_seq", step.seq},
                     {"commitment", core.commitment(core.deals_started())}};
        if (const auto source = game->deck_source()) {
          deal["shuffle"] = source->shuffles;
          pack = source->pack;
        }
        deals.push_back(std::move(deal));
      } else if (!deals.empty()) {
        deals.back()["to_seq"] = step.seq;
      }
      if (!query.whole && core.deals_started() != wanted) return;
      if (step.seq < query.from.value_or(0) || !next_from.is_null()) return;
      if (!query.whole && static_cast<int>(steps.size()) >= query.limit) {
        next_from = step.seq;
        return;
      }
      Json out = {{"seq", step.seq},
                  {"deal", core.deals_started()},
                  {"event", event_for(step.event, core, audience)},
                  {"log", step.lines},
                  {"phase", phase_name(game->phase())},
                  {"to_act", game->to_act()},
                  {"chips", chips_after(step.event, step.postings, core)}};
      if (audience.full) {
        Json views = Json::array();
        for (int seat = 0; seat < core.seat_count(); ++seat) views.push_back(game->view(seat));
        out["views"] = std::move(views);
      } else {
        out["view"] = game->view(*audience.seat);
      }
      if (game->phase() != rules::Phase::playing) out["result"] = game->result();
      steps.push_back(std::move(out));
    });
  } catch (const ReplayError& e) {
    throw ProtocolError(code::internal, std::string("the history cannot be rebuilt: ") + e.what());
  }

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
    fair["pack"] = pack ? pack_json(*pack) : Json();
    fair["stacked_deck"] = record.deck_json.empty() ? Json() : Json::parse(record.deck_json);
    doc["fair"] = std::move(fair);
  }
  if (!record.failure.empty()) doc["failure"] = record.failure;
  return doc;
}

}  // namespace parlour::server
