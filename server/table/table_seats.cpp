// Who sits where, and who is here: joining and watching, leaving, the host's
// unseating, late joiners and seats changing hands between deals, bots taking
// seats, and presence (away, back, connected). Part of TableCore
// (server/table/table_core.h): the handlers of the requests that change seats.
#include <algorithm>
#include <spdlog/spdlog.h>

#include "rules/random_play.h"
#include "server/common/names.h"
#include "server/table/table_core.h"
#include "server/table/table_core_parts.h"

namespace parlour::server {

namespace code = protocol::code;

Outbox TableCore::join(const Caller& who, std::optional<int> wanted, bool invited) {
  Outbox out;
  // A seat he left is not his any more: he comes back as anyone who is late.
  if (auto held = seat_of(who.player); held && !seats()[*held].given_up()) {
    remember(who);
    out.frames.push_back(reply(who, protocol::reply("joined", who.re, {{"table", id()}, {"seat", *held}})));
    broadcast(out);
    // What changed while he was away (his chips, spent at another table) may be
    // due now: a skip, the end of a deal nobody can play.
    out.add(resume());
    return out;
  }
  if (!may_enter(who, invited)) return refuse_private(who, "join");
  if (state_.status() != "waiting") return join_started(who);
  const auto seat = free_seat(wanted, who, out);
  if (!seat) return out;
  take_seat(*seat, SeatState{.player = who.player});
  remember(who);
  spdlog::info("table {}: {} takes seat {}", id(), who.player, *seat);
  return commit_step(std::nullopt, {}, {.seats = true},
                     {reply(who, protocol::reply("joined", who.re, {{"table", id()}, {"seat", *seat}}))}, who);
}

Outbox TableCore::watch(const Caller& who, bool invited) {
  if (!may_enter(who, invited)) return refuse_private(who, "watch");
  Outbox out;
  remember(who);
  out.frames.push_back(reply(who, protocol::reply("watching", who.re, {{"table", id()}})));
  broadcast(out);
  out.add(resume());
  return out;
}

Outbox TableCore::leave(const Caller& who) {
  Outbox out;
  pushes_.remove(who.client);
  std::erase_if(waiting_, [&](const std::string& p) { return same_name(p, who.player); });
  ++summary_version_;
  const auto seat = seat_of(who.player);
  const auto left = reply(who, protocol::reply("left", who.re, {{"table", id()}}));
  if (!seat || finished() || seats()[*seat].given_up()) {
    out.frames.push_back(left);
    broadcast(out);
    return out;
  }
  spdlog::info("table {}: {} leaves seat {}", id(), who.player, *seat);
  if (state_.status() == "waiting") {
    take_seat(*seat, SeatState{});
    return commit_step(std::nullopt, {}, {.seats = true}, {left}, who);
  }
  continued_.erase(*seat);
  // One tap must not end a hand for everyone: in the middle of a deal the bot
  // plays his hand out, and the seat is given up when the next deal starts.
  if (game()->phase() == rules::Phase::playing) return unseat_at_next_deal(*seat, "open", "player", left, who);
  return leave_now(*seat, nullptr, left, who);
}

Outbox TableCore::unseat_at_next_deal(int seat, const std::string& replace, const char* by,
                                      std::optional<Frame> answer, const Caller& who) {
  Json event = {{"kind", "unseat"}, {"seat", seat}, {"replace", replace}};
  if (by) event["by"] = by;
  auto postings = apply_event(event);
  // The bot plays it now; its person is not coming back to it, so the log does
  // not say "until they are back" (the unseat's own line says what happens).
  if (!seats()[seat].bot) mark_away(seat, /*say_so=*/false);
  return commit_step(event, std::move(postings), {.seats = true}, {answer ? std::move(*answer) : ok_with_seq(who)}, who);
}

Outbox TableCore::leave_now(int seat, const char* by, std::optional<Frame> answer, const Caller& who) {
  Json event = {{"kind", "leave"}, {"seat", seat}};
  if (by) event["by"] = by;
  auto postings = apply_event(event);
  return commit_step(event, std::move(postings), {.seats = true, .result = game()->phase() != rules::Phase::playing},
                     {answer ? std::move(*answer) : ok_with_seq(who)}, who);
}

Outbox TableCore::add_bot(const Caller& who, std::optional<int> wanted, int level) {
  Outbox out;
  if (!is_host(who)) {
    out.frames.push_back(error(who, code::forbidden, "only the host, " + state_.record().host + ", can seat a bot"));
    return out;
  }
  if (state_.status() != "waiting") {
    out.frames.push_back(error(who, code::conflict, "bots are seated before play starts"));
    return out;
  }
  const auto seat = free_seat(wanted, who, out);
  if (!seat) return out;
  const std::string name = new_bot_name(*seat);
  take_seat(*seat, SeatState{.player = name, .bot = true, .bot_level = level});
  std::vector<storage::Posting> postings;
  {
    const auto account = storage::player_account(name);
    auto lock = services_.balances.lock({storage::bank_account(), account});
    if (services_.balances.balance(account, lock) == 0 && services_.config.starting_chips > 0) {
      postings.push_back({storage::bank_account(), account, services_.config.starting_chips, "starting chips (bot)",
                          id(), info_.id, std::nullopt, std::nullopt});
      services_.balances.apply(postings, lock);
      unsaved_postings_ = postings;
    }
  }
  spdlog::info("table {}: {} seats bot {} at seat {}", id(), who.player, name, *seat);
  return commit_step(std::nullopt, std::move(postings), {.seats = true},
                     {reply(who, protocol::reply("ok", who.re, {{"table", id()}, {"seat", *seat}, {"player", name}}))},
                     who);
}

Outbox TableCore::back(const Caller& who) {
  Outbox out;
  const auto seat = seat_of(who.player);
  if (!seat) {
    out.frames.push_back(error(who, code::forbidden, "you hold no seat at table " + id()));
    return out;
  }
  if (seats()[*seat].given_up()) {
    out.frames.push_back(error(who, code::conflict, "you have left this table"));
    return out;
  }
  remember(who);
  mark_present(*seat);
  out.frames.push_back(reply(who, protocol::reply("back", who.re, {{"table", id()}})));
  // His own clock starts (in full) where the bot's turn was waiting.
  schedule(out);
  broadcast(out);
  return out;
}

Outbox TableCore::unseat(const Caller& who, int seat, const std::string& replace) {
  Outbox out;
  auto refuse = [&](const std::string& error_code, const std::string& message) {
    out.frames.push_back(error(who, error_code, message));
    return std::move(out);
  };
  if (!is_host(who)) return refuse(code::forbidden, "only the host, " + state_.record().host + ", can free a seat");
  if (finished()) return refuse(code::conflict, "the table has ended");
  if (seat < 0 || seat >= static_cast<int>(seats().size()))
    return refuse(code::bad_request, "seat " + std::to_string(seat) + " does not exist; seats are 0 to " +
                                         std::to_string(seats().size() - 1));
  const auto s = seats()[seat];
  if (s.player.empty()) return refuse(code::conflict, "seat " + std::to_string(seat) + " is already empty");
  if (!s.bot && same_name(s.player, state_.record().host))
    return refuse(code::conflict, "that is your own seat: send leave to give it up");
  if (state_.status() == "waiting") {
    // Before play a seat is simply emptied; "bot" would seat the bot that is there, or one more.
    if (replace == "bot") return refuse(code::bad_request, "before play, free the seat and seat a bot with 'bot'");
    spdlog::info("table {}: the host frees seat {} ({}) before play", id(), seat, s.player);
    take_seat(seat, SeatState{});
    return commit_step(std::nullopt, {}, {.seats = true},
                       {reply(who, protocol::reply("ok", who.re, {{"seq", state_.seq()}}))}, who);
  }
  if (s.left || !s.leaving.empty())
    return refuse(code::conflict, s.player + " is already leaving seat " + std::to_string(seat));
  if (!s.bot && human_connected(seat) && !memory_[seat].away)
    return refuse(code::conflict, s.player + " is at the table and playing; only an absent player (disconnected or "
                                             "away) can be moved out of his seat");
  if (!takes_late_joiners()) {
    if (replace == "bot")
      return refuse(code::conflict, info_.name + " is played to its end by the players who started it, so a seat "
                                                 "cannot change hands; free it with replace \"open\" and the game "
                                                 "goes on without it, as when a player leaves");
    continued_.erase(seat);
    // In the middle of a deal, as when a player leaves: the bot plays his hand
    // out, and he is out of the game from the next deal (seat_changes_due).
    const bool mid_deal = game()->phase() == rules::Phase::playing;
    spdlog::info("table {}: the host takes seat {} ({}) out of the game{}", id(), seat, s.player,
                 mid_deal ? " from the next deal" : "");
    if (mid_deal) return unseat_at_next_deal(seat, "open", nullptr, std::nullopt, who);
    return leave_now(seat, "host", std::nullopt, who);
  }
  if (replace == "bot" && s.bot) return refuse(code::conflict, "seat " + std::to_string(seat) + " has a bot already");
  spdlog::info("table {}: the host frees seat {} ({}) for {} from the next deal", id(), seat, s.player,
               replace == "bot" ? "a bot" : "a new player");
  return unseat_at_next_deal(seat, replace, nullptr, std::nullopt, who);
}

// `ok {"seq"}` naming the step just applied (the host's answer to `unseat`).
Frame TableCore::ok_with_seq(const Caller& who) const {
  return reply(who, protocol::reply("ok", who.re, {{"seq", state_.seq()}}));
}

// A private table is entered through its invite, by its host, or by someone who
// came through the invite before (he holds a seat, left one, or is in line);
// by its id alone it gives nothing away: no seat, no state, no chat, no invite.
bool TableCore::may_enter(const Caller& who, bool invited) const {
  return !is_private() || invited || is_host(who) || seat_of(who.player) || waiting_position(who.player);
}

Outbox TableCore::refuse_private(const Caller& who, const std::string& verb) const {
  Outbox out;
  out.frames.push_back(error(who, code::forbidden, "table " + id() + " is private; " + verb + " it through its invite"));
  return out;
}

Outbox TableCore::join_started(const Caller& who) {
  Outbox out;
  remember(who);
  std::string message;
  std::optional<int> place;
  const bool game_on = game() && game()->phase() != rules::Phase::game_over && !state_.ending() && !finished();
  if (finished()) {
    message = "This table has finished: you are watching its final state.";
  } else if (!takes_late_joiners() || !game_on) {
    message = info_.name + " is played to its end by the players who started it: you are watching.";
  } else if (!waiting_position(who.player) && waiting_.size() >= max_waiting) {
    message = "The game is under way and " + std::to_string(max_waiting) +
              " people are in line for a seat already: you are watching.";
  } else {
    if (!waiting_position(who.player)) {
      waiting_.push_back(who.player);
      ++summary_version_;
      spdlog::info("table {}: {} waits for a seat ({} in line)", id(), who.player, waiting_.size());
    }
    place = waiting_position(who.player);
    message = *place <= seats_opening()
                  ? "The game is under way: you take a seat when the next deal starts."
                  : "The game is under way and every seat is taken: you are watching, number " +
                        std::to_string(*place) + " in line for the first seat that frees up.";
  }
  Json fields = {{"table", id()}, {"message", message}};
  if (place) fields["waiting"] = *place;
  out.frames.push_back(reply(who, protocol::reply("watching", who.re, std::move(fields))));
  broadcast(out);
  out.add(resume());
  return out;
}

std::optional<int> TableCore::waiting_position(const std::string& player) const {
  for (std::size_t i = 0; i < waiting_.size(); ++i)
    if (same_name(waiting_[i], player)) return static_cast<int>(i) + 1;
  return std::nullopt;
}

// Seats a new player can take at the next deal: empty ones, and those whose
// player has left or is being moved out for a new player.
int TableCore::seats_opening() const {
  return static_cast<int>(std::count_if(seats().begin(), seats().end(), [](const SeatState& s) {
    return s.player.empty() || s.leaving == "open" || (s.left && s.leaving.empty());
  }));
}

// At a deal's start, in seat order: a seat freed for a bot gets one; a seat
// that is empty or whose player has gone goes to the first person in line who
// is here; a seat whose player has gone and nobody takes is emptied.
Json TableCore::seat_changes_due() const {
  Json changes = Json::array();
  if (!takes_late_joiners()) {
    // Nobody takes a seat here; one given up in the middle of the last deal is left now.
    for (int seat = 0; seat < static_cast<int>(seats().size()); ++seat)
      if (!seats()[seat].left && seats()[seat].leaving == "open") changes.push_back({{"seat", seat}, {"left", true}});
    return changes;
  }
  std::vector<std::string> line;
  for (const auto& person : waiting_) {
    const bool here = pushes_.has_player(person);
    const auto seat = seat_of(person);
    if (here && (!seat || seats()[*seat].given_up())) line.push_back(person);
  }
  std::size_t next = 0;
  for (int seat = 0; seat < static_cast<int>(seats().size()); ++seat) {
    const auto& s = seats()[seat];
    if (s.leaving == "bot") {
      changes.push_back({{"seat", seat}, {"player", new_bot_name(seat)}, {"bot", true}, {"level", 1}});
      continue;
    }
    const bool gone = !s.player.empty() && (s.left || s.leaving == "open");
    if (!gone && !s.player.empty()) continue;
    if (next < line.size()) changes.push_back({{"seat", seat}, {"player", line[next++]}, {"bot", false}});
    else if (gone) changes.push_back({{"seat", seat}, {"player", nullptr}});
  }
  return changes;
}

// A bot that comes to a seat with no chips gets the starting chips, as one seated before play does.
std::vector<storage::Posting> TableCore::fund_new_bots(const Json& changes) {
  std::vector<storage::Posting> postings;
  if (services_.config.starting_chips <= 0) return postings;
  auto lock = services_.balances.lock();
  for (const auto& change : changes) {
    if (!change.value("bot", false)) continue;
    const auto account = storage::player_account(change.at("player").get<std::string>());
    if (services_.balances.balance(account, lock) != 0) continue;
    postings.push_back({storage::bank_account(), account, services_.config.starting_chips, "starting chips (bot)",
                        id(), info_.id, std::nullopt, std::nullopt});
  }
  services_.balances.apply(postings, lock);
  unsaved_postings_.insert(unsaved_postings_.end(), postings.begin(), postings.end());
  return postings;
}

// The people who took a seat at this deal are no longer in line for one.
void TableCore::seats_changed_hands(const Json& changes) {
  for (const auto& change : changes) {
    if (!change.contains("player") || change.at("player").is_null()) continue;
    const auto player = change.at("player").get<std::string>();
    std::erase_if(waiting_, [&](const std::string& p) { return same_name(p, player); });
    ++summary_version_;
    spdlog::info("table {}: {} takes seat {}", id(), player, change.at("seat").get<int>());
  }
}

Outbox TableCore::disconnected(ClientId client) {
  Outbox out;
  ++summary_version_;
  if (pushes_.remove(client)) broadcast(out);
  return out;
}

void TableCore::take_seat(int seat, SeatState taker) {
  state_.set_seat(seat, std::move(taker));
  sync_memory();
}

void TableCore::mark_away(int seat, bool say_so) {
  auto& s = memory_[seat];
  if (s.away) return;
  s.away = true;
  ++summary_version_;
  stop_clock(seat);
  spdlog::info("table {}: {} is away; a bot plays seat {}", id(), s.player, seat);
  if (say_so) say(rules::seat_tag(seat) + " is away: a bot plays for them until they are back.");
}

void TableCore::mark_present(int seat) {
  auto& s = memory_[seat];
  s.missed = 0;
  if (!s.away) return;
  s.away = false;
  ++summary_version_;
  spdlog::info("table {}: {} is back at seat {}", id(), s.player, seat);
  say(rules::seat_tag(seat) + " is back.");
}

std::optional<int> TableCore::free_seat(std::optional<int> wanted, const Caller& who, Outbox& out) const {
  if (wanted) {
    if (*wanted < 0 || *wanted >= static_cast<int>(seats().size())) {
      out.frames.push_back(error(who, code::bad_request,
                                 "seat " + std::to_string(*wanted) + " does not exist; seats are 0 to " +
                                     std::to_string(seats().size() - 1)));
      return std::nullopt;
    }
    if (!seats()[*wanted].player.empty()) {
      out.frames.push_back(error(who, code::conflict, "seat " + std::to_string(*wanted) + " is taken"));
      return std::nullopt;
    }
    return wanted;
  }
  auto free = std::find_if(seats().begin(), seats().end(), [](const SeatState& s) { return s.player.empty(); });
  if (free == seats().end()) {
    out.frames.push_back(error(who, code::table_full, "every seat at table " + id() + " is taken"));
    return std::nullopt;
  }
  return static_cast<int>(free - seats().begin());
}

bool TableCore::human_connected(int seat) const {
  const auto& s = seats()[seat];
  if (s.player.empty() || s.bot || s.given_up()) return false;
  return pushes_.has_player(s.player);
}

std::vector<SeatPresence> TableCore::presence() const {
  std::vector<SeatPresence> out;
  out.reserve(seats().size());
  for (int seat = 0; seat < static_cast<int>(seats().size()); ++seat) {
    const auto& s = seats()[seat];
    out.push_back({s.bot ? !s.left : human_connected(seat), memory_[seat].away});
  }
  return out;
}

}  // namespace parlour::server
