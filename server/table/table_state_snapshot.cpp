// A table's state as JSON and back (TableState::snapshot, TableState::resume):
// what is written with each deal's start so that the hand history of a deal
// reads from there instead of replaying the table's whole log.
#include "rules/snapshot.h"
#include "server/table/table_state.h"

namespace parlour::server {

using Json = nlohmann::json;

namespace {

Json seat_json(const SeatState& seat) {
  return {{"player", seat.player}, {"bot", seat.bot}, {"level", seat.bot_level}, {"left", seat.left},
          {"leaving", seat.leaving}};
}

SeatState seat_from(const Json& json) {
  using rules::field;
  return {field<std::string>(json, "player"), field<bool>(json, "bot"), field<int>(json, "level"),
          field<bool>(json, "left"), field<std::string>(json, "leaving")};
}

Json talk_json(const TableTalkState& talk) {
  return {{"chat", talk.chat},
          {"chat_total", talk.chat_total},
          {"chatters", talk.chatters},
          {"muted", talk.muted},
          {"rematch", talk.rematch ? *talk.rematch : Json()},
          {"rematch_of", talk.rematch_of ? *talk.rematch_of : Json()}};
}

TableTalkState talk_from(const Json& json) {
  using rules::field;
  TableTalkState talk;
  talk.chat = field<std::deque<std::string>>(json, "chat");
  talk.chat_total = field<std::int64_t>(json, "chat_total");
  talk.chatters = field<std::map<std::string, std::string>>(json, "chatters");
  talk.muted = field<std::map<std::string, std::string>>(json, "muted");
  if (const auto& rematch = rules::member(json, "rematch"); !rematch.is_null()) talk.rematch = rematch;
  if (const auto& rematch_of = rules::member(json, "rematch_of"); !rematch_of.is_null()) talk.rematch_of = rematch_of;
  return talk;
}

}  // namespace

Json TableState::snapshot() const {
  Json seats = Json::array();
  for (const auto& seat : seats_) seats.push_back(seat_json(seat));
  Json action_ids = Json::object();
  for (const auto& [seat, ids] : action_ids_) action_ids[std::to_string(seat)] = ids;
  return {{"format", rules::snapshot_format},
          {"seq", seq_},
          {"seats", std::move(seats)},
          {"game", game_ ? game_->snapshot() : Json()},
          {"ending", ending_},
          {"closed", closed_},
          {"deals_without_action", deals_without_action_},
          {"log", log_},
          {"log_total", log_total_},
          {"deals_started", deals_started_},
          {"deal_seq", deal_seq_},
          {"fair_salt", fair_salt_},
          {"standings", standings_.snapshot()},
          {"talk", talk_json(talk_)},
          {"action_ids", std::move(action_ids)},
          {"chips", chips_}};
}

TableState TableState::resume(storage::TableRecord record, const rules::GameInfo& game, const Json& snapshot) {
  const auto id = record.id;
  std::optional<TableState> state;
  try {
    state.emplace(TableState(std::move(record), game));
    state->restore(snapshot);
  } catch (const std::exception& e) {
    throw ReplayError("table " + id + " cannot be resumed from its snapshot: " + e.what());
  }
  return std::move(*state);
}

void TableState::restore(const Json& snapshot) {
  using rules::field;
  if (const auto format = field<int>(snapshot, "format"); format != rules::snapshot_format)
    throw rules::SnapshotError("the snapshot is of format " + std::to_string(format) + "; this server reads format " +
                               std::to_string(rules::snapshot_format));
  seq_ = field<std::int64_t>(snapshot, "seq");
  seats_.clear();
  for (const auto& seat : field<std::vector<Json>>(snapshot, "seats")) seats_.push_back(seat_from(seat));
  if (seats_.empty()) throw rules::SnapshotError("a table snapshot with no seats");
  chips_ = field<rules::Balances>(snapshot, "chips");
  if (!chips_.empty() && chips_.size() != seats_.size())
    throw rules::SnapshotError("the snapshot has chips for " + std::to_string(chips_.size()) + " seats, not " +
                               std::to_string(seats_.size()));
  if (const auto& game = rules::member(snapshot, "game"); !game.is_null()) {
    // Made as the start makes it, then overwritten whole by the snapshot.
    auto chips = chips_.empty() ? rules::Balances(seats_.size(), 0) : chips_;
    game_ = rules::Registry::restore(*info_, game_setup(static_cast<int>(seats_.size()), std::move(chips), 0), game);
  }
  ending_ = field<bool>(snapshot, "ending");
  closed_ = field<bool>(snapshot, "closed");
  deals_without_action_ = field<int>(snapshot, "deals_without_action");
  log_ = field<std::deque<std::string>>(snapshot, "log");
  log_total_ = field<std::int64_t>(snapshot, "log_total");
  deals_started_ = field<int>(snapshot, "deals_started");
  deal_seq_ = field<std::int64_t>(snapshot, "deal_seq");
  fair_salt_ = field<std::string>(snapshot, "fair_salt");
  commitment_ = deals_started_ > 0 ? commitment(deals_started_) : std::string();
  standings_ = Standings::restore(rules::member(snapshot, "standings"));
  talk_ = talk_from(rules::member(snapshot, "talk"));
  action_ids_.clear();
  const auto& action_ids = rules::member(snapshot, "action_ids");
  if (!action_ids.is_object()) throw rules::SnapshotError("\"action_ids\" is not an object");
  for (const auto& [seat, ids] : action_ids.items())
    action_ids_[std::stoi(seat)] = ids.get<std::deque<std::pair<std::string, std::int64_t>>>();
}

Json TableState::deal_entry(std::int64_t from_seq) const {
  Json deal = {{"deal", deals_started_}, {"from_seq", from_seq}, {"to_seq", from_seq},
               {"commitment", commitment(deals_started_)}};
  if (game_)
    if (const auto source = game_->deck_source()) deal["shuffle"] = source->shuffles;
  return deal;
}

}  // namespace parlour::server
