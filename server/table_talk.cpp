// The table's talk and its end: chat, the host's mute, the standings and the
// rematch (docs/protocol.md "Table chat" and "End of a table"). Chat, mute and
// rematch are events of the table's log like any other, so a restart or a
// replay shows them, but the game never sees them: they move no chips, advance
// no turn, and leave every clock and progress counter as it was.
#include <algorithm>
#include <spdlog/spdlog.h>

#include "server/table_core.h"

namespace parlour::server {

namespace code = protocol::code;

namespace {

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

}  // namespace

bool TableCore::is_talk(const std::string& kind) {
  return kind == "chat" || kind == "mute" || kind == "rematch" || kind == "rematch_of";
}

// Applies a talk event to the table's memory, when it happens and when the log
// is replayed alike.
void TableCore::apply_talk(const Json& event) {
  const std::string kind = event.at("kind");
  if (kind == "chat") {
    const std::string player = event.at("player");
    Json line = {{"player", player}, {"time", event.value("time", std::int64_t{0})}, {"log_at", log_total_}};
    if (event.contains("text")) line["text"] = event["text"];
    else line["reaction"] = event.at("reaction");
    chat_.push_back(line.dump(-1, ' ', false, Json::error_handler_t::replace));
    ++chat_total_;
    if (chat_.size() > chat_lines_kept) chat_.pop_front();
    chatters_[lower(player)] = player;
  } else if (kind == "mute") {
    const std::string player = event.at("player");
    if (event.at("muted").get<bool>()) {
      muted_[lower(player)] = player;
      add_log({"The host muted " + player + " at this table."});
    } else {
      muted_.erase(lower(player));
      add_log({"The host lifted " + player + "'s mute."});
    }
  } else if (kind == "rematch") {
    rematch_ = Json{{"table", event.at("table")}, {"same_seed", event.value("same_seed", false)}};
    add_log({std::string("The host opened a rematch") + (event.value("same_seed", false) ? " with the same deals" : "") +
             ": table " + event.at("table").get<std::string>() + "."});
  } else if (kind == "rematch_of") {
    rematch_of_ = Json{{"table", event.at("table")},
                       {"same_seed", event.value("same_seed", false)},
                       {"standings", event.value("standings", Json())}};
  }
  ++summary_version_;
}

bool TableCore::is_muted(const std::string& player) const { return muted_.count(lower(player)) > 0; }

// The person's name as the table knows it: seated (not a bot), watching now, or
// having chatted here.
std::optional<std::string> TableCore::person_at_table(const std::string& player) const {
  const auto key = lower(player);
  for (const auto& seat : seats_)
    if (!seat.bot && !seat.player.empty() && lower(seat.player) == key) return seat.player;
  for (const auto& member : audience_)
    if (lower(member.player) == key) return member.player;
  if (auto it = chatters_.find(key); it != chatters_.end()) return it->second;
  return std::nullopt;
}

Outbox TableCore::chat(const Caller& who, const protocol::Chat& message) {
  Outbox out;
  if (!is_member(who.client)) {
    out.frames.push_back(error(who, code::forbidden, "you are not at table " + id() + ": join or watch it to chat"));
    return out;
  }
  if (failed()) {
    out.frames.push_back(error(who, code::conflict, "table " + id() + " was stopped by a fault; its chat is closed"));
    return out;
  }
  if (is_muted(who.player)) {
    out.frames.push_back(error(who, code::forbidden, "the host, " + record_.host + ", has muted you at this table"));
    return out;
  }
  // A finished table's log is closed: its chat would be permanent database
  // written at no cost (issue 25 item 8).
  if (finished()) {
    out.frames.push_back(error(who, code::conflict, "table " + id() + " has finished; its chat is closed"));
    return out;
  }
  // At most chat_lines_per_window lines in any window, across every table: the
  // oldest line still in the window says when the next one may go.
  const auto now = services_.now_ms();
  if (const auto retry_after = services_.chat_limit->take(lower(who.player), now)) {
    auto refusal = protocol::error_message(
        who.re, code::rate_limited,
        "you may send " + std::to_string(services_.chat_limit->most()) + " chat lines in " +
            std::to_string(services_.chat_limit->window_ms() / 1000) + " s, at all tables together; try again in " +
            std::to_string((*retry_after + 999) / 1000) + " s");
    refusal["retry_after_ms"] = *retry_after;
    out.frames.push_back(reply(who, std::move(refusal)));
    return out;
  }
  Json event = {{"kind", "chat"}, {"player", who.player}, {"time", now}};
  if (message.text) event["text"] = *message.text;
  else event["reaction"] = message.reaction.value_or("");
  apply_talk(event);
  spdlog::info("table {}: {} chats ({})", id(), who.player, message.text ? "text" : *message.reaction);
  return commit_step(event, {}, {}, {reply(who, protocol::reply("ok", who.re, {{"table", id()}, {"seq", seq_ + 1}}))},
                     who);
}

Outbox TableCore::mute(const Caller& who, const std::string& player, bool muted) {
  Outbox out;
  if (!is_host(who)) {
    out.frames.push_back(error(who, code::forbidden, "only the host, " + record_.host + ", can mute someone"));
    return out;
  }
  if (failed()) {
    out.frames.push_back(error(who, code::conflict, "table " + id() + " was stopped by a fault; its chat is closed"));
    return out;
  }
  if (lower(player) == lower(record_.host)) {
    out.frames.push_back(error(who, code::bad_request, "the host cannot mute himself"));
    return out;
  }
  const auto name = person_at_table(player);
  if (!name) {
    const bool bot = std::any_of(seats_.begin(), seats_.end(),
                                 [&](const SeatInfo& s) { return s.bot && lower(s.player) == lower(player); });
    out.frames.push_back(bot ? error(who, code::bad_request, player + " is a bot; bots do not chat")
                             : error(who, code::not_found, "nobody named " + player + " is at table " + id()));
    return out;
  }
  Json fields = {{"table", id()}, {"player", *name}, {"muted", muted}};
  if (is_muted(*name) == muted) {
    // Already so: answered, nothing written.
    fields["seq"] = seq_;
    out.frames.push_back(reply(who, protocol::reply("ok", who.re, std::move(fields))));
    return out;
  }
  Json event = {{"kind", "mute"}, {"player", *name}, {"muted", muted}};
  apply_talk(event);
  spdlog::info("table {}: the host {} {}", id(), muted ? "mutes" : "unmutes", *name);
  fields["seq"] = seq_ + 1;
  return commit_step(event, {}, {}, {reply(who, protocol::reply("ok", who.re, std::move(fields)))}, who);
}

Json rematch_event(const std::string& table, bool same_seed) {
  return {{"kind", "rematch"}, {"table", table}, {"same_seed", same_seed}};
}

std::optional<RematchPlan> TableCore::plan_rematch(const Caller& who, bool same_seed, Outbox& out) {
  if (!is_host(who)) {
    out.frames.push_back(error(who, code::forbidden, "only the host, " + record_.host + ", can open a rematch"));
    return std::nullopt;
  }
  if (!finished()) {
    out.frames.push_back(error(who, code::conflict, "table " + id() + " is still " + record_.status +
                                                        "; a rematch follows a finished table"));
    return std::nullopt;
  }
  if (rematch_) {
    // A retry (the reply was lost, or the server restarted): the same table again.
    RematchPlan made;
    made.from_table = id();
    made.made = rematch_->at("table").get<std::string>();
    return made;
  }
  if (rematch_in_progress_) {
    out.frames.push_back(error(who, code::conflict, "the rematch of table " + id() + " is being made"));
    return std::nullopt;
  }
  RematchPlan plan;
  plan.from_table = id();
  plan.same_seed = same_seed;
  plan.game = record_.game;
  plan.options_json = record_.options_json;
  plan.clock_json = record_.clock_json;
  plan.seed = record_.seed;
  if (same_seed) plan.deck_json = record_.deck_json;
  plan.is_private = record_.is_private;
  plan.host = record_.host;
  // The same people in the same seats; a seat whose player left the table is open.
  for (int seat = 0; seat < static_cast<int>(seats_.size()); ++seat) {
    const auto& s = seats_[seat];
    if (s.player.empty() || s.left) plan.seats.push_back({seat, "", false, 0});
    else plan.seats.push_back({seat, s.player, s.bot, s.bot_level});
  }
  plan.standings = standings();
  plan.seq = seq_ + 1;
  rematch_in_progress_ = true;
  rematch_same_seed_ = same_seed;
  return plan;
}

// The lobby committed the new table together with this table's rematch event
// (at the seq planned: requests were held meanwhile), or it answers a retry.
Outbox TableCore::rematch_made(const Caller& who, const std::string& table, const std::string& invite) {
  Outbox out;
  Json created = {{"table", table}, {"invite", invite}, {"rematch_of", id()}};
  if (rematch_) {
    created["same_seed"] = rematch_->at("same_seed");
    created["duplicate"] = true;
    out.frames.push_back(reply(who, protocol::reply("created", who.re, std::move(created))));
    return out;
  }
  rematch_in_progress_ = false;
  ++seq_;
  apply_talk(rematch_event(table, rematch_same_seed_));
  spdlog::info("table {}: the host opens its rematch, table {}{}", id(), table,
               rematch_same_seed_ ? " (same seed)" : "");
  created["same_seed"] = rematch_same_seed_;
  out.frames.push_back(reply(who, protocol::reply("created", who.re, std::move(created))));
  broadcast(out);
  return out;
}

Outbox TableCore::rematch_failed(const Caller& who, const std::string& error_code, const std::string& message) {
  rematch_in_progress_ = false;
  Outbox out;
  out.frames.push_back(error(who, error_code, message));
  return out;
}

Json TableCore::standings() const {
  if (!standings_.started() || failed()) return Json();
  std::vector<std::string> names;
  std::vector<bool> bots;
  for (const auto& seat : seats_) {
    names.push_back(seat.player);
    bots.push_back(seat.bot);
  }
  return standings_.to_json(names, bots);
}

// The parts of a state push about the table's talk and end, the same for everyone.
std::string TableCore::talk_tail() const {
  std::string tail;
  if (!muted_.empty()) {
    Json names = Json::array();
    for (const auto& [key, name] : muted_) names.push_back(name);
    tail += R"(,"muted":)" + names.dump();
  }
  if (rematch_of_) {
    tail += R"(,"rematch_of":)" +
            Json({{"table", rematch_of_->at("table")}, {"same_seed", rematch_of_->at("same_seed")}}).dump();
  }
  if (!finished()) return tail;
  if (rematch_) tail += R"(,"rematch":)" + rematch_->dump();
  auto table_standings = standings();
  if (table_standings.is_null()) return tail;
  if (rematch_of_) {
    table_standings["rematch_of"] = rematch_of_->at("table");
    // Duplicate play: the same deals, side by side with the table they were first played at.
    if (rematch_of_->at("same_seed").get<bool>() && rematch_of_->at("standings").is_object()) {
      auto compare = rematch_of_->at("standings");
      compare["table"] = rematch_of_->at("table");
      table_standings["compare"] = std::move(compare);
    }
  }
  tail += R"(,"standings":)" + table_standings.dump(-1, ' ', false, Json::error_handler_t::replace);
  return tail;
}

// Like the log: the chat lines this member has not had, `chat_from` numbering
// the first; left out when there are none (but always in a member's first push).
void TableCore::chat_delta(Member& member, std::string& out) const {
  if (member.chat_sent == chat_total_) return;
  append_lines_since(out, "chat", chat_, chat_total_, member.chat_sent);
}

}  // namespace parlour::server
