// The table's talk and its end: chat, the host's mute, the standings and the
// rematch (docs/protocol.md "Table chat" and "End of a table"). Chat, mute and
// rematch are events of the table's log like any other, so a restart or a
// replay shows them, but the game never sees them: they move no chips, advance
// no turn, and leave every clock and progress counter as it was.
#include <algorithm>
#include <spdlog/spdlog.h>

#include "server/common/names.h"
#include "server/table/table_core.h"

namespace parlour::server {

namespace code = protocol::code;

// The person's name as the table knows it: seated (not a bot), watching now, or
// having chatted here.
std::optional<std::string> TableCore::person_at_table(const std::string& player) const {
  for (const auto& seat : seats())
    if (!seat.bot && !seat.player.empty() && same_name(seat.player, player)) return seat.player;
  if (auto member = pushes_.member_named(player)) return member;
  const auto& chatters = state_.talk().chatters;
  if (auto it = chatters.find(folded_name(player)); it != chatters.end()) return it->second;
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
  if (state_.is_muted(who.player)) {
    out.frames.push_back(error(who, code::forbidden, "the host, " + host() + ", has muted you at this table"));
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
  if (const auto retry_after = services_.chat_limit->take(folded_name(who.player), now)) {
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
  auto postings = apply_event(event);
  spdlog::info("table {}: {} chats ({})", id(), who.player, message.text ? "text" : *message.reaction);
  return commit_step(event, std::move(postings), {},
                     {reply(who, protocol::reply("ok", who.re, {{"table", id()}, {"seq", state_.seq()}}))}, who);
}

Outbox TableCore::mute(const Caller& who, const std::string& player, bool muted) {
  Outbox out;
  if (!is_host(who)) {
    out.frames.push_back(error(who, code::forbidden, "only the host, " + host() + ", can mute someone"));
    return out;
  }
  if (failed()) {
    out.frames.push_back(error(who, code::conflict, "table " + id() + " was stopped by a fault; its chat is closed"));
    return out;
  }
  if (same_name(player, host())) {
    out.frames.push_back(error(who, code::bad_request, "the host cannot mute himself"));
    return out;
  }
  const auto name = person_at_table(player);
  if (!name) {
    const bool bot = std::any_of(seats().begin(), seats().end(),
                                 [&](const SeatState& s) { return s.bot && same_name(s.player, player); });
    out.frames.push_back(bot ? error(who, code::bad_request, player + " is a bot; bots do not chat")
                             : error(who, code::not_found, "nobody named " + player + " is at table " + id()));
    return out;
  }
  Json fields = {{"table", id()}, {"player", *name}, {"muted", muted}};
  if (state_.is_muted(*name) == muted) {
    // Already so: answered, nothing written.
    fields["seq"] = seq();
    out.frames.push_back(reply(who, protocol::reply("ok", who.re, std::move(fields))));
    return out;
  }
  Json event = {{"kind", "mute"}, {"player", *name}, {"muted", muted}};
  auto postings = apply_event(event);
  spdlog::info("table {}: the host {} {}", id(), muted ? "mutes" : "unmutes", *name);
  fields["seq"] = seq();
  return commit_step(event, std::move(postings), {}, {reply(who, protocol::reply("ok", who.re, std::move(fields)))},
                     who);
}

Json rematch_event(const std::string& table, bool same_seed) {
  return {{"kind", "rematch"}, {"table", table}, {"same_seed", same_seed}};
}

std::optional<RematchPlan> TableCore::plan_rematch(const Caller& who, bool same_seed, Outbox& out) {
  if (!is_host(who)) {
    out.frames.push_back(error(who, code::forbidden, "only the host, " + host() + ", can open a rematch"));
    return std::nullopt;
  }
  if (!finished()) {
    out.frames.push_back(error(who, code::conflict, "table " + id() + " is still " + status() +
                                                        "; a rematch follows a finished table"));
    return std::nullopt;
  }
  if (const auto& rematch = state_.talk().rematch) {
    // A retry (the reply was lost, or the server restarted): the same table again.
    RematchPlan made;
    made.from_table = id();
    made.made = rematch->at("table").get<std::string>();
    return made;
  }
  if (rematch_in_progress_) {
    out.frames.push_back(error(who, code::conflict, "the rematch of table " + id() + " is being made"));
    return std::nullopt;
  }
  RematchPlan plan;
  plan.from_table = id();
  plan.same_seed = same_seed;
  plan.game = state_.record().game;
  plan.options_json = state_.record().options_json;
  plan.clock_json = state_.record().clock_json;
  plan.seed = state_.record().seed;
  if (same_seed) plan.deck_json = state_.record().deck_json;
  plan.is_private = state_.record().is_private;
  plan.host = host();
  // The same people in the same seats; a seat whose player left the table is open.
  for (int seat = 0; seat < static_cast<int>(seats().size()); ++seat) {
    const auto& s = seats()[seat];
    if (s.player.empty() || s.given_up()) plan.seats.push_back({seat, "", false, 0});
    else plan.seats.push_back({seat, s.player, s.bot, s.bot_level});
  }
  plan.standings = standings();
  plan.seq = seq() + 1;
  rematch_in_progress_ = true;
  rematch_same_seed_ = same_seed;
  return plan;
}

// The lobby committed the new table together with this table's rematch event
// (at the seq planned: requests were held meanwhile), or it answers a retry.
Outbox TableCore::rematch_made(const Caller& who, const std::string& table, const std::string& invite) {
  Outbox out;
  Json created = {{"table", table}, {"invite", invite}, {"rematch_of", id()}};
  if (const auto& rematch = state_.talk().rematch) {
    created["same_seed"] = rematch->at("same_seed");
    created["duplicate"] = true;
    out.frames.push_back(reply(who, protocol::reply("created", who.re, std::move(created))));
    return out;
  }
  rematch_in_progress_ = false;
  // The lobby wrote the event as planned (no chips: the state takes it as stored).
  auto event = rematch_event(table, rematch_same_seed_);
  state_.apply(event, {});
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

Json TableCore::standings() const { return state_.standings(); }

}  // namespace parlour::server
