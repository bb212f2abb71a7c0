#include "server/table_core.h"

#include <algorithm>
#include <spdlog/spdlog.h>

#include "rules/fair.h"
#include "rules/random_play.h"
#include "server/tokens.h"

namespace parlour::server {

namespace code = protocol::code;

namespace {

// A move the game refused though it listed it (or named it as the turn's
// default): a fault of the game, or of its bot. The refusal changed nothing.
struct RefusedAction : std::logic_error {
  using std::logic_error::logic_error;
};

constexpr std::size_t log_lines_kept = 50;
constexpr std::size_t max_quoted_chars = 60;

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

bool same_name(const std::string& a, const std::string& b) {
  return a.size() == b.size() && lower(a) == lower(b);
}

std::shared_ptr<const std::string> text_of(const Json& message) {
  return std::make_shared<const std::string>(message.dump(-1, ' ', false, Json::error_handler_t::replace));
}

// The rules' log lines and messages may quote what a client sent; keep them short.
std::string shorten(std::string text) {
  if (text.size() > max_quoted_chars * 4) text = text.substr(0, max_quoted_chars * 4) + "…";
  return text;
}

// The table's clock as stored: "" (a table made before clocks were kept) is the default.
protocol::Clock stored_clock(const std::string& table, const std::string& text) {
  if (text.empty()) return {};
  try {
    return protocol::clock_from_json(Json::parse(text));
  } catch (const std::exception& e) {
    spdlog::error("table {}: its stored clock {} cannot be read ({}); the default clock runs", table, text, e.what());
    return {};
  }
}

// An action in a log line: its type and its plain values, e.g. "discard 9D", "bet 1".
std::string describe(const Json& action) {
  std::string text = action.value("type", "?");
  for (const auto& [key, value] : action.items()) {
    if (key == "type") continue;
    if (value.is_string()) text += " " + value.get<std::string>();
    else if (value.is_number() || value.is_boolean()) text += " " + value.dump();
  }
  return text;
}

}  // namespace

void Outbox::add(Outbox&& later) {
  for (auto& frame : later.frames) frames.push_back(std::move(frame));
  for (auto& timer : later.timers) timers.push_back(timer);
  if (later.write) {
    if (write) throw std::logic_error("table core: two writes in one outbox");
    write = std::move(later.write);
  }
}

TableCore::TableCore(CoreServices services, storage::TableRecord record, const rules::GameInfo& game,
                     const std::vector<storage::Event>& events)
    : services_(std::move(services)),
      record_(std::move(record)),
      info_(game),
      options_(Json::parse(record_.options_json)),
      clock_(stored_clock(record_.id, record_.clock_json)),
      clock_text_(protocol::clock_to_json(clock_).dump()),
      bot_rng_(record_.seed ^ 0x5bd1e995b0757ULL) {
  for (const auto& seat : record_.seats) seats_.push_back({seat.player, seat.bot, seat.bot_level, false, false, 0, 0, {}});
  if (!services_.chat_limit) services_.chat_limit = std::make_shared<WindowLimit>(chat_lines_per_window, chat_window_ms);
  try {
    replay(events);
  } catch (const std::exception& e) {
    throw ReplayError("the log of table " + record_.id + " cannot be replayed at seq " + std::to_string(seq_ + 1) +
                      ": " + e.what());
  }
}

TableCore::~TableCore() = default;

bool TableCore::is_member(ClientId client) const {
  return std::any_of(audience_.begin(), audience_.end(), [&](const Member& m) { return m.client == client; });
}

// ---------------------------------------------------------------- requests

Outbox TableCore::join(const Caller& who, std::optional<int> wanted, bool invited) {
  Outbox out;
  // A seat he left is not his any more: he comes back as anyone who is late.
  if (auto held = seat_of(who.player); held && !seats_[*held].left) {
    remember(who);
    out.frames.push_back(reply(who, protocol::reply("joined", who.re, {{"table", id()}, {"seat", *held}})));
    broadcast(out);
    // What changed while he was away (his chips, spent at another table) may be
    // due now: a skip, the end of a deal nobody can play.
    out.add(resume());
    return out;
  }
  if (!may_enter(who, invited)) return refuse_private(who, "join");
  if (record_.status != "waiting") return join_started(who);
  const auto seat = free_seat(wanted, who, out);
  if (!seat) return out;
  seats_[*seat] = SeatInfo{who.player, false, 0, false, false, 0, 0, {}};
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
  std::erase_if(audience_, [&](const Member& m) { return m.client == who.client; });
  std::erase_if(waiting_, [&](const std::string& p) { return same_name(p, who.player); });
  ++summary_version_;
  const auto seat = seat_of(who.player);
  const auto left = reply(who, protocol::reply("left", who.re, {{"table", id()}}));
  if (!seat || finished() || seats_[*seat].left) {
    out.frames.push_back(left);
    broadcast(out);
    return out;
  }
  spdlog::info("table {}: {} leaves seat {}", id(), who.player, *seat);
  if (record_.status == "waiting") {
    seats_[*seat] = SeatInfo{};
    return commit_step(std::nullopt, {}, {.seats = true}, {left}, who);
  }
  seats_[*seat].left = true;
  continued_.erase(*seat);
  Json event = {{"kind", "leave"}, {"seat", *seat}};
  auto postings = apply_event(event, false);
  return commit_step(event, std::move(postings), {.seats = true, .result = game_->phase() != rules::Phase::playing},
                     {left}, who);
}

std::string new_bot_name(int seat) { return "bot-" + random_id(16) + "-" + std::to_string(seat); }

Outbox TableCore::add_bot(const Caller& who, std::optional<int> wanted, int level) {
  Outbox out;
  if (!is_host(who)) {
    out.frames.push_back(error(who, code::forbidden, "only the host, " + record_.host + ", can seat a bot"));
    return out;
  }
  if (record_.status != "waiting") {
    out.frames.push_back(error(who, code::conflict, "bots are seated before play starts"));
    return out;
  }
  const auto seat = free_seat(wanted, who, out);
  if (!seat) return out;
  const std::string name = new_bot_name(*seat);
  seats_[*seat] = SeatInfo{name, true, level, false, false, 0, 0, {}};
  std::vector<storage::Posting> postings;
  {
    auto lock = services_.balances.lock();
    const auto account = storage::player_account(name);
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

Outbox TableCore::start(const Caller& who) {
  Outbox out;
  if (!is_host(who)) {
    out.frames.push_back(error(who, code::forbidden, "only the host, " + record_.host + ", can start the game"));
    return out;
  }
  if (record_.status != "waiting") {
    out.frames.push_back(error(who, code::conflict, "the game has already started"));
    return out;
  }
  const int seated = seated_count();
  const int most = info_.max_players_with(options_);
  if (seated < info_.min_players || seated > most) {
    out.frames.push_back(error(who, code::conflict,
                               info_.name + " needs " + std::to_string(info_.min_players) + " to " +
                                   std::to_string(most) + " players; " + std::to_string(seated) + " seated"));
    return out;
  }
  // Play uses the occupied seats only, renumbered in order. The old seats are
  // kept until the game is created, so a refused start changes nothing.
  auto seats_before = seats_;
  Json event = {{"kind", "start"}};
  if (takes_late_joiners()) {
    // The empty seats stay in the game, out of play, for friends who come late.
    Json open = Json::array();
    Json seated = Json::array();
    for (int s = 0; s < static_cast<int>(seats_.size()); ++s) {
      if (seats_[s].player.empty()) open.push_back(s);
      seated.push_back({{"player", seats_[s].player}, {"bot", seats_[s].bot}, {"level", seats_[s].bot_level}});
    }
    if (!open.empty()) event["open"] = std::move(open);
    // The seats change hands later: a replay starts from these, not today's.
    event["seated"] = std::move(seated);
  } else {
    std::erase_if(seats_, [](const SeatInfo& s) { return s.player.empty(); });
  }
  std::vector<storage::Posting> postings;
  try {
    postings = apply_event(event, false);
  } catch (const rules::SetupError& e) {
    seats_ = std::move(seats_before);
    out.frames.push_back(error(who, code::bad_request, std::string("cannot start: ") + e.what()));
    return out;
  }
  record_.status = "playing";
  spdlog::info("table {}: {} starts {} with {} players", id(), record_.host, info_.id, seated);
  return commit_step(event, std::move(postings), {.seats = true, .status = true, .result = true},
                     {reply(who, protocol::reply("ok", who.re, {{"seq", seq_ + 1}}))}, who);
}

Outbox TableCore::end(const Caller& who) {
  Outbox out;
  if (!is_host(who)) {
    out.frames.push_back(error(who, code::forbidden, "only the host, " + record_.host + ", can end the table"));
    return out;
  }
  if (finished()) {
    out.frames.push_back(error(who, code::conflict, "the table has already ended"));
    return out;
  }
  if (record_.status == "waiting") {
    record_.status = "finished";
    spdlog::info("table {}: ended by the host before play", id());
    return commit_step(std::nullopt, {}, {.status = true}, {reply(who, protocol::reply("ok", who.re, {{"seq", seq_}}))},
                       who);
  }
  // A deal in progress is played out; a second `end` does not wait for it (the
  // host's way out of a deal nobody finishes). Between deals, it ends now.
  const bool between_deals = game_->phase() != rules::Phase::playing;
  if (between_deals || ending_) {
    spdlog::info("table {}: the host ends the table{}", id(), between_deals ? "" : " without waiting for the deal");
    out = finish_table("the host ended the table");
    if (pending_) pending_->replies.insert(pending_->replies.begin(), reply(who, protocol::reply("ok", who.re, {{"seq", seq_}})));
    return out;
  }
  ending_ = true;
  spdlog::info("table {}: the host ends the table after this deal", id());
  add_log({"The host ends the table after this deal (send end again to stop it now)."});
  out.frames.push_back(reply(who, protocol::reply("ok", who.re, {{"seq", seq_}})));
  broadcast(out);
  return out;
}

Outbox TableCore::act(const Caller& who, const Json& action, const std::optional<std::string>& action_id) {
  Outbox out;
  if (record_.status != "playing" || !game_) {
    out.frames.push_back(error(who, code::conflict,
                               record_.status == "waiting" ? "the game has not started" : "the table has ended"));
    return out;
  }
  const auto seat = seat_of(who.player);
  if (!seat) {
    out.frames.push_back(error(who, code::forbidden, "you hold no seat at table " + id()));
    return out;
  }
  if (action_id) {
    if (auto seq = seq_of_action(*seat, *action_id)) {
      // A resend after a lost reply: the same answer, nothing applied again.
      remember(who);
      out.frames.push_back(
          reply(who, protocol::reply("ok", who.re, {{"seq", *seq}, {"action_id", *action_id}, {"duplicate", true}})));
      broadcast(out);
      return out;
    }
  }
  if (seats_[*seat].left) {
    out.frames.push_back(error(who, code::conflict, "you have left this table"));
    return out;
  }
  if (action.value("type", "") == "continue" && game_->phase() == rules::Phase::deal_over)
    return continue_to_next_deal(who, *seat);
  Json event = {{"kind", "act"}, {"seat", *seat}, {"action", action}};
  if (action_id) event["action_id"] = *action_id;
  std::vector<storage::Posting> postings;
  try {
    postings = apply_event(event, false);
  } catch (const rules::RulesError& e) {
    out.frames.push_back(error(who, e.code(), shorten(name_seats(e.what()))));
    return out;
  }
  deals_without_action_ = 0;
  stop_clock(*seat);
  mark_present(*seat);
  if (action_id) remember_action(*seat, *action_id, seq_ + 1);
  Json fields = {{"seq", seq_ + 1}};
  if (action_id) fields["action_id"] = *action_id;
  // Every action, at debug: at info the log keeps one line per table event.
  if (spdlog::should_log(spdlog::level::debug))
    spdlog::debug("table {}: #{} {} plays {}", id(), seq_ + 1, who.player, shorten(action.dump()));
  return commit_step(event, std::move(postings), {.result = game_->phase() != rules::Phase::playing},
                     {reply(who, protocol::reply("ok", who.re, std::move(fields)))}, who);
}

Outbox TableCore::back(const Caller& who) {
  Outbox out;
  const auto seat = seat_of(who.player);
  if (!seat) {
    out.frames.push_back(error(who, code::forbidden, "you hold no seat at table " + id()));
    return out;
  }
  if (seats_[*seat].left) {
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
  if (!is_host(who)) return refuse(code::forbidden, "only the host, " + record_.host + ", can free a seat");
  if (finished()) return refuse(code::conflict, "the table has ended");
  if (seat < 0 || seat >= static_cast<int>(seats_.size()))
    return refuse(code::bad_request, "seat " + std::to_string(seat) + " does not exist; seats are 0 to " +
                                         std::to_string(seats_.size() - 1));
  auto& s = seats_[seat];
  if (s.player.empty()) return refuse(code::conflict, "seat " + std::to_string(seat) + " is already empty");
  if (!s.bot && same_name(s.player, record_.host))
    return refuse(code::conflict, "that is your own seat: send leave to give it up");
  if (record_.status == "waiting") {
    // Before play a seat is simply emptied; "bot" would seat the bot that is there, or one more.
    if (replace == "bot") return refuse(code::bad_request, "before play, free the seat and seat a bot with 'bot'");
    spdlog::info("table {}: the host frees seat {} ({}) before play", id(), seat, s.player);
    s = SeatInfo{};
    return commit_step(std::nullopt, {}, {.seats = true},
                       {reply(who, protocol::reply("ok", who.re, {{"seq", seq_}}))}, who);
  }
  if (s.left || !s.leaving.empty())
    return refuse(code::conflict, s.player + " is already leaving seat " + std::to_string(seat));
  if (!s.bot && human_connected(seat) && !s.away)
    return refuse(code::conflict, s.player + " is at the table and playing; only an absent player (disconnected or "
                                             "away) can be moved out of his seat");
  if (!takes_late_joiners()) {
    if (replace == "bot")
      return refuse(code::conflict, info_.name + " is played to its end by the players who started it, so a seat "
                                                 "cannot change hands; free it with replace \"open\" and the game "
                                                 "goes on without it, as when a player leaves");
    spdlog::info("table {}: the host takes seat {} ({}) out of the game", id(), seat, s.player);
    s.left = true;
    continued_.erase(seat);
    Json event = {{"kind", "leave"}, {"seat", seat}, {"by", "host"}};
    auto postings = apply_event(event, false);
    return commit_step(event, std::move(postings),
                       {.seats = true, .result = game_->phase() != rules::Phase::playing},
                       {reply(who, protocol::reply("ok", who.re, {{"seq", seq_ + 1}}))}, who);
  }
  if (replace == "bot" && s.bot) return refuse(code::conflict, "seat " + std::to_string(seat) + " has a bot already");
  spdlog::info("table {}: the host frees seat {} ({}) for {} from the next deal", id(), seat, s.player,
               replace == "bot" ? "a bot" : "a new player");
  Json event = {{"kind", "unseat"}, {"seat", seat}, {"replace", replace}};
  auto postings = apply_event(event, false);
  return commit_step(event, std::move(postings), {.seats = true},
                     {reply(who, protocol::reply("ok", who.re, {{"seq", seq_ + 1}}))}, who);
}

// ---------------------------------------------------------------- late joiners

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
  const bool game_on = game_ && game_->phase() != rules::Phase::game_over && !ending_ && !finished();
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
  return static_cast<int>(std::count_if(seats_.begin(), seats_.end(), [](const SeatInfo& s) {
    return s.player.empty() || s.leaving == "open" || (s.left && s.leaving.empty());
  }));
}

// At a deal's start, in seat order: a seat freed for a bot gets one; a seat
// that is empty or whose player has gone goes to the first person in line who
// is here; a seat whose player has gone and nobody takes is emptied.
Json TableCore::seat_changes_due() const {
  Json changes = Json::array();
  if (!takes_late_joiners()) return changes;
  std::vector<std::string> line;
  for (const auto& person : waiting_) {
    const bool here = std::any_of(audience_.begin(), audience_.end(),
                                  [&](const Member& m) { return same_name(m.player, person); });
    const auto seat = seat_of(person);
    if (here && (!seat || seats_[*seat].left)) line.push_back(person);
  }
  std::size_t next = 0;
  for (int seat = 0; seat < static_cast<int>(seats_.size()); ++seat) {
    const auto& s = seats_[seat];
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

// A deal event's seat changes, live and when replayed. A seat that changes hands
// starts afresh in the game; one left empty is out of play until taken.
void TableCore::change_seats(const Json& changes, const rules::Balances& chips, rules::Effects& effects) {
  for (const auto& change : changes) {
    const int seat = change.at("seat").get<int>();
    auto& s = seats_.at(seat);
    const std::string before = s.player;
    if (change.at("player").is_null()) {
      if (!s.left) game_->seat_left(seat, chips);
      standings_.seat_changes_hands(seat, before, s.bot);
      s = SeatInfo{};
      s.left = true;
      effects.say(before.empty() ? "Seat " + std::to_string(seat) + " is open."
                                 : before + " has gone; seat " + std::to_string(seat) + " is open.");
      continue;
    }
    effects.append(game_->seat_taken(seat, chips));
    standings_.seat_changes_hands(seat, before, s.bot);
    s = SeatInfo{change.at("player").get<std::string>(), change.value("bot", false), change.value("level", 0), false, false, 0, 0, {}};
    std::erase_if(waiting_, [&](const std::string& p) { return same_name(p, s.player); });
    ++summary_version_;
    spdlog::info("table {}: {} takes seat {}{}", id(), s.player, seat, before.empty() ? "" : " from " + before);
    effects.say(s.player + " takes seat " + std::to_string(seat) + " and is dealt in.");
  }
}

Outbox TableCore::continue_to_next_deal(const Caller& who, int seat) {
  Outbox out;
  continued_.insert(seat);
  mark_present(seat);
  out.frames.push_back(reply(who, protocol::reply("ok", who.re, {{"seq", seq_}, {"continued", true}})));
  const auto awaited = humans_awaited_at_deal_end();
  if (awaited.empty() && !ending_) {
    out.timers.push_back(cancel(TimerKind::next_deal));
    out.add(next_deal());
    return out;
  }
  broadcast(out);
  return out;
}

Outbox TableCore::expire() {
  if (record_.status != "waiting") return Outbox{};
  record_.status = "finished";
  spdlog::info("table {}: nobody started it; it expires", id());
  add_log({"Nobody started the game; the table has expired."});
  return commit_step(std::nullopt, {}, {.status = true}, {}, std::nullopt);
}

Outbox TableCore::disconnected(ClientId client) {
  Outbox out;
  const auto before = audience_.size();
  std::erase_if(audience_, [&](const Member& m) { return m.client == client; });
  ++summary_version_;
  if (audience_.size() != before) broadcast(out);
  return out;
}

// ---------------------------------------------------------------- steps

Outbox TableCore::commit_step(std::optional<Json> event, std::vector<storage::Posting> postings, StepChanges changes,
                              std::vector<Frame> replies, std::optional<Caller> caller) {
  storage::TableWrite write;
  write.table = id();
  if (event) {
    write.event = storage::Event{++seq_, event->dump()};
    // The ledger links each movement to the step that caused it.
    for (auto& posting : postings)
      if (!posting.seq) posting.seq = seq_;
  }
  write.postings = postings;
  if (changes.status) write.status = record_.status;
  if (changes.seats) write.seats = stored_seats();
  if (changes.status || changes.seats) ++summary_version_;
  if (changes.result && game_ && !game_->result().is_null()) write.result_json = game_->result().dump();
  if (!record_.failure.empty() && record_.status == "finished" && changes.status) write.failure = record_.failure;
  pending_ = Pending{std::move(postings), std::move(replies), std::move(caller)};
  unsaved_postings_.clear();
  Outbox out;
  out.write = std::move(write);
  return out;
}

Outbox TableCore::committed(bool ok, const std::string& why) {
  if (!pending_) throw std::logic_error("table core: committed() with no write in flight");
  Pending done = std::move(*pending_);
  pending_.reset();
  Outbox out;
  if (!ok) {
    spdlog::error("table {}: a step could not be saved and is undone: {}", id(), why);
    services_.balances.revert(done.postings);
    rebuild_from_database();
    // Another node's table spent the same chips first: the database decided.
    if (done.caller && storage::step_lacked_chips(why))
      out.frames.push_back(error(*done.caller, code::insufficient_chips,
                                 "not enough chips: they were spent at another table first; nothing changed"));
    else if (done.caller)
      out.frames.push_back(error(*done.caller, code::internal, "the server could not save that; nothing changed"));
    broadcast(out);
    schedule(out);
    return out;
  }
  for (auto& frame : done.replies) out.frames.push_back(std::move(frame));
  // Clocks first, so that the states pushed carry the new turn's deadline.
  schedule(out);
  broadcast(out);
  out.add(resume());
  return out;
}

Outbox TableCore::resume() {
  Outbox out;
  if (pending_ || !game_ || record_.status != "playing") {
    schedule(out);
    return out;
  }
  // A later change of these wakes the table again (balances_changed).
  chips_resumed_ = balances_now();
  const auto phase = game_->phase();
  if (phase == rules::Phase::game_over) return finish_table("the game is over");
  if (phase == rules::Phase::deal_over && ending_) return finish_table("the host ended the table");
  if (phase == rules::Phase::playing) {
    if (auto seat = seat_that_must_skip()) return act_for(*seat, {{"type", "skip"}}, "automatic");
  }
  if (phase == rules::Phase::playing && nobody_can_act()) {
    spdlog::error("table {}: nobody can act in the deal in progress; the table ends", id());
    add_log({"Nobody can act any more; the table ends."});
    return finish_table("nobody could act");
  }
  schedule(out);
  return out;
}

Outbox TableCore::balances_changed() {
  Outbox out;
  // A step in flight pushes (and resumes) with the chips as they are once it is durable.
  if (pending_ || finished()) return out;
  const auto chips = balances_now();
  if (chips != chips_resumed_) out = resume();
  // A step the table took now (a skip) pushes everyone once it is written.
  if (!out.write && !audience_.empty() && (players_version_ == 0 || players_key(chips) != players_key_))
    broadcast(out);
  return out;
}

std::set<std::string> TableCore::seated_accounts() const {
  std::set<std::string> accounts;
  if (finished()) return accounts;
  for (int seat = 0; seat < static_cast<int>(seats_.size()); ++seat)
    if (!seats_[seat].player.empty() && !seats_[seat].bot) accounts.insert(account_of(seat));
  return accounts;
}

Outbox TableCore::next_deal() {
  if (++deals_without_action_ > services_.config.max_idle_deals) {
    spdlog::warn("table {}: {} deals in a row passed without a single action; the table ends", id(),
                 services_.config.max_idle_deals);
    add_log({"Deal after deal passes without anyone able to play; the table ends."});
    return finish_table("deals passed without play");
  }
  continued_.clear();
  Json event = {{"kind", "deal"}};
  auto changes = seat_changes_due();
  std::vector<storage::Posting> postings;
  if (!changes.empty()) {
    postings = fund_new_bots(changes);
    event["seats"] = std::move(changes);
  }
  auto dealt = apply_event(event, false);
  postings.insert(postings.end(), dealt.begin(), dealt.end());
  return commit_step(event, std::move(postings),
                     {.seats = event.contains("seats"), .result = game_->phase() == rules::Phase::game_over}, {},
                     std::nullopt);
}

Outbox TableCore::finish_table(const std::string& why) {
  Json event = {{"kind", "close"}};
  auto postings = apply_event(event, false);
  record_.status = "finished";
  spdlog::info("table {}: finished after {} deals ({})", id(), game_->deals_played(), why);
  Outbox out;
  for (auto kind : {TimerKind::bot, TimerKind::turn, TimerKind::next_deal}) out.timers.push_back(cancel(kind));
  out.add(commit_step(event, std::move(postings), {.status = true, .result = true}, {}, std::nullopt));
  return out;
}

Outbox TableCore::fail(const std::string& reason) {
  spdlog::error("table {}: fails and stops: {}", id(), reason);
  Outbox out;
  for (auto kind : {TimerKind::bot, TimerKind::turn, TimerKind::next_deal}) out.timers.push_back(cancel(kind));
  if (failed()) return out;
  // A step that threw after moving chips in memory never reached the database.
  services_.balances.revert(unsaved_postings_);
  unsaved_postings_.clear();
  pending_.reset();
  record_.status = "finished";
  record_.failure = shorten(reason);
  add_log({"The table has stopped because of a fault in the server; its chips are safe."});
  auto postings = share_out_pools();
  out.add(commit_step(std::nullopt, std::move(postings), {.status = true}, {}, std::nullopt));
  return out;
}

// A player who cannot cover any action (his chips went elsewhere) is offered
// only `skip`; the table plays it for him rather than wait on a formality.
std::optional<int> TableCore::seat_that_must_skip() const {
  const auto chips = balances_now();
  for (int seat : game_->to_act()) {
    const auto legal = game_->legal_actions(seat, chips);
    if (legal.size() == 1 && legal[0].value("type", "") == "skip") return seat;
  }
  return std::nullopt;
}

bool TableCore::nobody_can_act() const {
  if (game_->turn_timer()) return false;
  const auto acting = game_->to_act();
  const auto chips = balances_now();
  return std::none_of(acting.begin(), acting.end(), [&](int seat) {
    return !seats_[seat].left && !game_->legal_actions(seat, chips).empty();
  });
}

std::vector<storage::Posting> TableCore::apply_event(Json& event, bool replaying) {
  auto lock = services_.balances.lock();
  rules::Balances chips = replaying ? event.at("balances").get<rules::Balances>() : balances(lock);
  const std::string kind = event.at("kind");
  rules::Effects effects;
  if (kind == "start") {
    if (const auto seated = event.find("seated"); replaying && seated != event.end()) {
      for (std::size_t s = 0; s < seated->size() && s < seats_.size(); ++s) {
        const auto& at = (*seated)[s];
        seats_[s] = SeatInfo{at.value("player", ""), at.value("bot", false), at.value("level", 0), false, false, 0, 0, {}};
      }
    }
    rules::GameSetup setup{options_, static_cast<int>(seats_.size()), record_.seed, std::nullopt, chips};
    const auto open = event.value("open", std::vector<int>{});
    std::vector<int> occupied;
    for (int s = 0; s < static_cast<int>(seats_.size()); ++s)
      if (std::find(open.begin(), open.end(), s) == open.end()) occupied.push_back(s);
    // The first dealer is drawn from the seed, among the seats taken, and kept in
    // the event; logs written before it was drawn had seat 0 deal first.
    if (replaying) {
      setup.first_dealer = event.value("first_dealer", 0);
    } else {
      setup.first_dealer = occupied.at(rules::draw_first_dealer(record_.seed, static_cast<int>(occupied.size())));
      event["first_dealer"] = *setup.first_dealer;
    }
    if (!record_.deck_json.empty()) {
      std::vector<rules::Card> deck;
      for (const auto& card : Json::parse(record_.deck_json)) deck.push_back(*rules::parse_card(card.get<std::string>()));
      setup.stacked_deck = std::move(deck);
    }
    auto game = rules::Registry::create(info_, std::move(setup));
    for (int s : open) {
      // Out of play until someone takes it; what the game says of a seat leaving is not news here.
      seats_.at(s) = SeatInfo{};
      seats_.at(s).left = true;
      game->seat_left(s, chips);
    }
    effects = game->start_next_deal(chips);
    game_ = std::move(game);
    standings_.start(static_cast<int>(seats_.size()));
    // The salt joins the seed in every deal's commitment (rules/fair.h); logs
    // written before it was kept have none.
    if (!replaying) event["fair_salt"] = random_id(32);
    fair_salt_ = event.value("fair_salt", "");
    deal_committed(effects, replaying);
  } else if (!game_) {
    throw std::runtime_error("event '" + kind + "' before the game started");
  } else if (kind == "deal") {
    if (const auto changes = event.find("seats"); changes != event.end()) {
      change_seats(*changes, chips, effects);
      // The deal is dealt to the seats' new players, from their own chips.
      if (!replaying) chips = balances(lock);
    }
    if (game_->phase() == rules::Phase::deal_over) {
      effects.append(game_->start_next_deal(chips));
      deal_committed(effects, replaying);
    }
  } else if (kind == "act") {
    effects = game_->apply(event.at("seat").get<int>(), event.at("action"), chips);
  } else if (kind == "leave") {
    const int seat = event.at("seat").get<int>();
    if (replaying) seats_.at(seat).left = true;
    effects = game_->seat_left(seat, chips);
  } else if (kind == "unseat") {
    // The seat changes hands at the next deal; until then a bot plays it.
    const int seat = event.at("seat").get<int>();
    seats_.at(seat).leaving = event.at("replace").get<std::string>();
    if (!seats_[seat].bot) mark_away(seat);
    effects.say("The host frees " + rules::seat_tag(seat) + "'s seat: from the next deal it goes to " +
                (seats_[seat].leaving == "bot" ? "a bot." : "a new player (or stays empty)."));
  } else if (kind == "close") {
    effects = game_->close(chips);
  } else {
    throw std::runtime_error("unknown event kind '" + kind + "'");
  }
  if (!replaying) event["balances"] = chips;
  // Replayed steps' chips are in the ledger already: their postings only tell a
  // history what moved, and one for a seat nobody holds (a log from before the
  // start event said who sat where) is left out rather than stop the replay.
  auto postings = to_postings(effects.transfers, replaying);
  if (!replaying) {
    if (!services_.balances.affordable(postings, lock))
      throw std::logic_error("the rules moved more chips than a player has: " + event.dump());
    services_.balances.apply(postings, lock);
    unsaved_postings_.insert(unsaved_postings_.end(), postings.begin(), postings.end());
  }
  lock.unlock();
  standings_.add_transfers(effects.transfers);
  note_deal_settled(kind);
  // An action the table played when the seat's clock ran out says so, also when replayed.
  if (kind == "act" && event.value("by", "") == "clock")
    add_log({rules::seat_tag(event.at("seat").get<int>()) + "'s time ran out: the table plays " +
             describe(event.at("action")) + "."});
  add_log(effects.log);
  return postings;
}

// A deal that settled (by an action, a deal that could not be played, a player
// leaving) counts in the standings; the table's close is no deal of its own.
void TableCore::note_deal_settled(const std::string& kind) {
  if (kind == "close" || !game_ || game_->phase() == rules::Phase::playing) return;
  standings_.add_settled_deal(game_->result());
}

// A deal has started: its commitment is announced with its first cards, in the
// same push and before them in the log (docs/protocol.md "Provably fair deals").
void TableCore::deal_committed(rules::Effects& effects, bool replaying) {
  ++deals_started_;
  commitment_ = commitment(deals_started_);
  effects.log.insert(effects.log.begin(), "Deal " + std::to_string(deals_started_) +
                                              " is dealt from a committed deck: sha256 " + commitment_ + ".");
  if (!replaying) spdlog::info("table {}: deal {} committed: sha256 {}", id(), deals_started_, commitment_);
}

std::string TableCore::commitment(int deal) const {
  return rules::fair::commitment(record_.id, deal, record_.seed, fair_salt_);
}

Json TableCore::fair_json() const {
  if (deals_started_ == 0) return Json();
  Json fair = {{"deal", deals_started_}, {"commitment", commitment_}};
  if (finished()) {
    // The table is over: the seed is revealed (as a string: it does not fit a JavaScript number).
    fair["scheme"] = rules::fair::scheme;
    fair["seed"] = std::to_string(record_.seed);
    fair["salt"] = fair_salt_;
  }
  return fair;
}

void TableCore::replay_observed(const std::vector<storage::Event>& events,
                                const std::function<void(const ReplayedStep&)>& after) {
  // An offline core only: fresh, or standing where its last replay left it.
  if (!events.empty() && events.front().seq <= seq_)
    throw std::logic_error("table core: replay_observed from seq " + std::to_string(events.front().seq) +
                           " on a core already at seq " + std::to_string(seq_));
  try {
    replay(events, &after);
  } catch (const std::exception& e) {
    throw ReplayError("the log of table " + record_.id + " cannot be replayed at seq " + std::to_string(seq_ + 1) +
                      ": " + e.what());
  }
}

void TableCore::replay(const std::vector<storage::Event>& events,
                       const std::function<void(const ReplayedStep&)>* after) {
  for (const auto& event : events) {
    auto parsed = Json::parse(event.json);
    if (is_talk(parsed.at("kind").get<std::string>())) {
      // The table's talk: never the game's, but a replay shows it.
      apply_talk(parsed);
      seq_ = event.seq;
      static const std::vector<storage::Posting> no_postings;
      if (after) (*after)(ReplayedStep{event.seq, parsed, {}, no_postings});
      continue;
    }
    const auto lines_before = log_total_;
    const auto postings = apply_event(parsed, true);
    seq_ = event.seq;
    if (after) {
      // The lines this event added, still among the kept tail.
      const auto kept_from = log_total_ - static_cast<std::int64_t>(log_.size());
      std::vector<std::string> lines;
      for (auto line = std::max(lines_before, kept_from); line < log_total_; ++line)
        lines.push_back(Json::parse(log_[static_cast<std::size_t>(line - kept_from)]).get<std::string>());
      (*after)(ReplayedStep{event.seq, parsed, std::move(lines), postings});
    }
    if (parsed.at("kind") == "act") {
      deals_without_action_ = 0;
      if (auto id = parsed.find("action_id"); id != parsed.end())
        remember_action(parsed.at("seat").get<int>(), id->get<std::string>(), event.seq);
    } else if (parsed.at("kind") == "deal") {
      ++deals_without_action_;
    }
  }
  // A history's replay (`after`) is a read, not a table event: details only.
  if (!events.empty())
    spdlog::log(after ? spdlog::level::debug : spdlog::level::info, "table {}: replayed {} events, seq {}", id(),
                events.size(), seq_);
}

void TableCore::rebuild_from_database() {
  // The database is the truth: reload the seats and status and replay the log.
  auto stored = services_.reload ? services_.reload(id()) : std::nullopt;
  if (!stored) throw std::runtime_error("table " + id() + " is no longer in the database");
  record_ = std::move(stored->first);
  seats_.clear();
  for (const auto& seat : record_.seats) seats_.push_back({seat.player, seat.bot, seat.bot_level, false, false, 0, 0, {}});
  game_.reset();
  seq_ = 0;
  deals_started_ = 0;
  commitment_.clear();
  fair_salt_.clear();
  log_.clear();
  log_total_ = 0;
  result_read_ = false;
  for (auto& member : audience_) member.log_sent = member.chat_sent = -1;
  chat_.clear();
  chat_total_ = 0;
  chatters_.clear();
  muted_.clear();
  standings_ = Standings{};
  rematch_.reset();
  rematch_of_.reset();
  rematch_in_progress_ = false;
  action_ids_.clear();
  clocks_.clear();
  clock_armed_.reset();
  replay(stored->second);
}

Outbox TableCore::act_for(int seat, const Json& action, const char* why) {
  Json event = {{"kind", "act"}, {"seat", seat}, {"action", action}};
  std::vector<storage::Posting> postings;
  try {
    postings = apply_event(event, false);
  } catch (const rules::RulesError& e) {
    // The game listed this action (or named it as the turn's default): refusing
    // it is a fault of the game, and a table must not wait on it forever.
    throw RefusedAction(std::string(why) + " action " + action.dump() + " for seat " + std::to_string(seat) +
                        " was refused: " + e.what());
  }
  deals_without_action_ = 0;
  stop_clock(seat);
  if (spdlog::should_log(spdlog::level::debug))
    spdlog::debug("table {}: #{} {} plays {} for seat {}", id(), seq_ + 1, why, action.dump(), seat);
  return commit_step(event, std::move(postings), {.result = game_->phase() != rules::Phase::playing}, {},
                     std::nullopt);
}

// ---------------------------------------------------------------- timers

TimerOrder TableCore::arm(TimerKind kind, std::chrono::milliseconds after) {
  timer_token_[static_cast<std::size_t>(kind)] = ++last_token_;
  return TimerOrder{kind, after, last_token_};
}

TimerOrder TableCore::cancel(TimerKind kind) {
  timer_token_[static_cast<std::size_t>(kind)] = 0;
  return TimerOrder{kind, std::nullopt, 0};
}

bool TableCore::current(TimerKind kind, std::uint64_t token) const {
  return token != 0 && timer_token_[static_cast<std::size_t>(kind)] == token;
}

void TableCore::schedule(Outbox& out) {
  const bool live = !pending_ && game_ && record_.status == "playing";
  if (!live) {
    for (auto kind : {TimerKind::bot, TimerKind::turn, TimerKind::next_deal})
      if (timer_token_[static_cast<std::size_t>(kind)] != 0) out.timers.push_back(cancel(kind));
    turn_.reset();
    clock_armed_.reset();
    // While a write is in flight the clocks keep their deadlines; the timer is re-armed after it.
    if (!pending_) clocks_.clear();
    return;
  }
  schedule_bot(out);
  schedule_turn_timer(out);
  schedule_next_deal(out);
}

void TableCore::schedule_bot(Outbox& out) {
  if (timer_token_[static_cast<std::size_t>(TimerKind::bot)] != 0) return;
  if (game_->phase() != rules::Phase::playing) return;
  for (int seat : game_->to_act()) {
    if (!seats_[seat].bot && !seats_[seat].away) continue;
    out.timers.push_back(arm(TimerKind::bot, std::chrono::milliseconds(services_.config.bot_delay_ms)));
    return;
  }
}

// A game's own turn limit (Carousel's) wins: a new turn gets a new deadline, a
// step within the same turn keeps it. Otherwise the table's clock runs for each
// human seat to act (update_clocks), and the one timer is armed for the
// earliest deadline. A restart arms every clock in full: the log records
// steps, not clocks.
void TableCore::schedule_turn_timer(Outbox& out) {
  const auto timer = game_->phase() == rules::Phase::playing ? game_->turn_timer() : std::nullopt;
  const bool armed = timer_token_[static_cast<std::size_t>(TimerKind::turn)] != 0;
  if (timer) {
    for (auto it = clocks_.begin(); it != clocks_.end();) stop_clock((it++)->first);
    clock_armed_.reset();
    if (armed && turn_ && timer->seat == turn_->seat && timer->turn == turn_->turn) return;
    turn_ = timer;
    const auto limit = std::chrono::seconds(timer->seconds);
    turn_deadline_ms_ = services_.now_ms() + std::chrono::duration_cast<std::chrono::milliseconds>(limit).count();
    out.timers.push_back(arm(TimerKind::turn, limit));
    return;
  }
  const bool game_timer_was_armed = turn_.has_value();
  turn_.reset();
  update_clocks();
  const auto earliest = earliest_clock();
  if (!earliest) {
    if (armed) out.timers.push_back(cancel(TimerKind::turn));
    clock_armed_.reset();
    return;
  }
  const std::pair<int, std::int64_t> due{earliest->first, earliest->second.ends_ms};
  if (armed && !game_timer_was_armed && clock_armed_ == due) return;
  clock_armed_ = due;
  const auto after = std::max<std::int64_t>(0, due.second - services_.now_ms());
  out.timers.push_back(arm(TimerKind::turn, std::chrono::milliseconds(after)));
}

// The human seats the table's clock runs for: to act, with something to do,
// present (an away seat is the bot's), at a table whose clock is on.
std::set<int> TableCore::seats_on_the_clock() const {
  std::set<int> seats;
  if (clock_.seconds <= 0 || !game_ || game_->phase() != rules::Phase::playing) return seats;
  const auto chips = balances_now();
  for (int seat : game_->to_act()) {
    const auto& s = seats_[seat];
    if (s.player.empty() || s.bot || s.left || s.away) continue;
    if (!game_->legal_actions(seat, chips).empty()) seats.insert(seat);
  }
  return seats;
}

// Seats no longer on the clock stop theirs; seats newly on it start one: the
// move's seconds plus what is left of their bank. A seat that moved had its
// clock stopped by that move, so its next move starts a new one.
void TableCore::update_clocks() {
  const auto due = seats_on_the_clock();
  for (auto it = clocks_.begin(); it != clocks_.end();) {
    const int seat = (it++)->first;
    if (!due.count(seat)) stop_clock(seat);
  }
  const auto now = services_.now_ms();
  for (int seat : due)
    if (!clocks_.count(seat))
      clocks_[seat] = SeatClock{now, now + std::int64_t{clock_.seconds} * 1000 + bank_left_ms(seat)};
}

// Time beyond the move's seconds comes out of the seat's bank.
void TableCore::stop_clock(int seat) {
  const auto it = clocks_.find(seat);
  if (it == clocks_.end()) return;
  const auto beyond = services_.now_ms() - it->second.started_ms - std::int64_t{clock_.seconds} * 1000;
  if (beyond > 0) seats_[seat].bank_used_ms += std::min(beyond, bank_left_ms(seat));
  clocks_.erase(it);
}

std::int64_t TableCore::bank_left_ms(int seat) const {
  return std::max<std::int64_t>(0, std::int64_t{clock_.bank} * 1000 - seats_[seat].bank_used_ms);
}

std::optional<std::pair<int, TableCore::SeatClock>> TableCore::earliest_clock() const {
  std::optional<std::pair<int, SeatClock>> earliest;
  for (const auto& [seat, clock] : clocks_)
    if (!earliest || clock.ends_ms < earliest->second.ends_ms) earliest = std::make_pair(seat, clock);
  return earliest;
}

Json TableCore::clock_json(int seat, const SeatClock& clock) const {
  const auto allowance = clock.ends_ms - clock.started_ms;
  const auto bank = std::max<std::int64_t>(0, allowance - std::int64_t{clock_.seconds} * 1000);
  return {{"seat", seat}, {"seconds", allowance / 1000}, {"ends_at", clock.ends_ms}, {"bank", bank / 1000}};
}

// The seat's clock ran out: the table plays the game's safe default for it
// (an event like any act, marked "by":"clock"). After `away_after` of these in
// a row the seat is away and a bot plays it. A default the game refuses is a
// fault of the rules: the seat is marked away at once, so the bot plays
// instead of the table waiting on the clock again.
Outbox TableCore::clock_ran_out() {
  clock_armed_.reset();
  if (game_->phase() != rules::Phase::playing) return resume();
  const auto earliest = earliest_clock();
  if (!earliest || !seats_on_the_clock().count(earliest->first)) return resume();
  const int seat = earliest->first;
  clocks_.erase(seat);
  // The deadline held all of the bank that was left: it is spent.
  seats_[seat].bank_used_ms = std::int64_t{clock_.bank} * 1000;
  ++seats_[seat].missed;
  const auto legal = game_->legal_actions(seat, balances_now());
  Json event = {{"kind", "act"}, {"seat", seat}, {"by", "clock"}};
  std::vector<storage::Posting> postings;
  std::optional<std::string> refused;
  try {
    event["action"] = info_.default_for(game_->view(seat), legal);
  } catch (const std::exception& e) {
    refused = e.what();
  }
  if (!refused) {
    try {
      postings = apply_event(event, false);
    } catch (const rules::RulesError& e) {
      refused = e.what();
    }
  }
  if (refused) {
    spdlog::error("table {}: the default action {} for seat {} was refused ({}); the seat is marked away", id(),
                  event.value("action", Json()).dump(), seat, *refused);
    mark_away(seat);
    Outbox out;
    schedule(out);
    broadcast(out);
    return out;
  }
  deals_without_action_ = 0;
  spdlog::info("table {}: seat {}'s clock ran out ({} in a row); the table plays {}", id(), seat,
               seats_[seat].missed, event["action"].dump());
  if (seats_[seat].missed >= clock_.away_after) mark_away(seat);
  return commit_step(event, std::move(postings), {.result = game_->phase() != rules::Phase::playing}, {},
                     std::nullopt);
}

void TableCore::mark_away(int seat) {
  auto& s = seats_[seat];
  if (s.away) return;
  s.away = true;
  ++summary_version_;
  stop_clock(seat);
  spdlog::info("table {}: {} is away; a bot plays seat {}", id(), s.player, seat);
  add_log({rules::seat_tag(seat) + " is away: a bot plays for them until they are back."});
}

void TableCore::mark_present(int seat) {
  auto& s = seats_[seat];
  s.missed = 0;
  if (!s.away) return;
  s.away = false;
  ++summary_version_;
  spdlog::info("table {}: {} is back at seat {}", id(), s.player, seat);
  add_log({rules::seat_tag(seat) + " is back."});
}

// After a deal, its result stays on every screen until each human still here
// has said `continue`, or the pause runs out.
void TableCore::schedule_next_deal(Outbox& out) {
  if (timer_token_[static_cast<std::size_t>(TimerKind::next_deal)] != 0) return;
  if (game_->phase() != rules::Phase::deal_over) return;
  const bool someone_reads = !humans_awaited_at_deal_end().empty();
  const int pause = someone_reads ? services_.config.deal_pause_ms : services_.config.bot_delay_ms;
  out.timers.push_back(arm(TimerKind::next_deal, std::chrono::milliseconds(pause)));
}

Outbox TableCore::timer_fired(TimerKind kind, std::uint64_t token) {
  Outbox out;
  if (!current(kind, token)) return out;
  timer_token_[static_cast<std::size_t>(kind)] = 0;
  if (pending_) return out;  // the actor holds timers back while a write is in flight; resume() re-arms
  if (!game_ || record_.status != "playing") return out;
  switch (kind) {
    case TimerKind::bot: return bot_move();
    case TimerKind::turn: return turn_ ? turn_timed_out() : clock_ran_out();
    case TimerKind::next_deal:
      if (game_->phase() != rules::Phase::deal_over) return resume();
      if (ending_) return finish_table("the host ended the table");
      return next_deal();
  }
  return out;
}

Outbox TableCore::bot_move() {
  if (game_->phase() != rules::Phase::playing) return resume();
  const auto chips = balances_now();
  for (int seat : game_->to_act()) {
    // An away seat is played carefully (the game's bot, where it has one) until its player is back.
    const bool away = !seats_[seat].bot && seats_[seat].away && !seats_[seat].left;
    if (!seats_[seat].bot && !away) continue;
    const Json legal = game_->legal_actions(seat, chips);
    if (legal.empty()) continue;
    const bool careful = (away || seats_[seat].bot_level >= 1) && info_.bot;
    if (!careful) return act_for(seat, rules::random_legal_action(legal, bot_rng_), "random bot");
    return careful_move(seat, legal, away ? "away bot" : "bot");
  }
  return resume();
}

// The game's careful bot is heuristic code of its own: if it throws, or picks
// a move the game refuses (a refusal changes nothing), the seat plays a random
// listed move instead, rather than the table failing over a bot's mistake. A
// fault of the game itself still fails the table.
Outbox TableCore::careful_move(int seat, const Json& legal, const char* why) {
  std::string failure;
  Json action;
  try {
    action = info_.bot(game_->view(seat), legal, bot_rng_);
  } catch (const std::exception& e) {
    failure = std::string("it threw: ") + e.what();
  }
  if (failure.empty()) {
    try {
      return act_for(seat, action, why);
    } catch (const RefusedAction& e) {
      failure = e.what();
    }
  }
  spdlog::warn("table {}: the {} bot failed for seat {} ({}); a random listed move is played instead", id(),
               info_.id, seat, failure);
  return act_for(seat, rules::random_legal_action(legal, bot_rng_), "random bot, after the careful bot failed");
}

Outbox TableCore::turn_timed_out() {
  const auto timer = turn_;
  const auto now = game_->phase() == rules::Phase::playing ? game_->turn_timer() : std::nullopt;
  turn_.reset();
  if (!timer || !now || now->seat != timer->seat || now->turn != timer->turn) return resume();
  spdlog::info("table {}: seat {}'s {} s turn ran out; the server plays {}", id(), timer->seat, timer->seconds,
               timer->action.dump());
  return act_for(timer->seat, timer->action, "timed-out");
}

// ---------------------------------------------------------------- seats and chips

std::string TableCore::account_of(int seat) const { return storage::player_account(seats_[seat].player); }

rules::Balances TableCore::balances(const LiveBalances::Lock& lock) const {
  rules::Balances out;
  for (int seat = 0; seat < static_cast<int>(seats_.size()); ++seat)
    out.push_back(seats_[seat].player.empty() ? 0 : services_.balances.balance(account_of(seat), lock));
  return out;
}

rules::Balances TableCore::balances_now() const {
  auto lock = services_.balances.lock();
  return balances(lock);
}

std::optional<int> TableCore::seat_of(const std::string& player) const {
  if (player.empty()) return std::nullopt;
  for (int seat = 0; seat < static_cast<int>(seats_.size()); ++seat)
    if (!seats_[seat].bot && same_name(seats_[seat].player, player)) return seat;
  return std::nullopt;
}

bool TableCore::is_host(const Caller& who) const { return same_name(who.player, record_.host); }

int TableCore::seated_count() const {
  return static_cast<int>(
      std::count_if(seats_.begin(), seats_.end(), [](const SeatInfo& s) { return !s.player.empty(); }));
}

std::optional<int> TableCore::free_seat(std::optional<int> wanted, const Caller& who, Outbox& out) const {
  if (wanted) {
    if (*wanted < 0 || *wanted >= static_cast<int>(seats_.size())) {
      out.frames.push_back(error(who, code::bad_request,
                                 "seat " + std::to_string(*wanted) + " does not exist; seats are 0 to " +
                                     std::to_string(seats_.size() - 1)));
      return std::nullopt;
    }
    if (!seats_[*wanted].player.empty()) {
      out.frames.push_back(error(who, code::conflict, "seat " + std::to_string(*wanted) + " is taken"));
      return std::nullopt;
    }
    return wanted;
  }
  auto free = std::find_if(seats_.begin(), seats_.end(), [](const SeatInfo& s) { return s.player.empty(); });
  if (free == seats_.end()) {
    out.frames.push_back(error(who, code::table_full, "every seat at table " + id() + " is taken"));
    return std::nullopt;
  }
  return static_cast<int>(free - seats_.begin());
}

std::vector<storage::Seat> TableCore::stored_seats() const {
  std::vector<storage::Seat> out;
  for (int seat = 0; seat < static_cast<int>(seats_.size()); ++seat)
    out.push_back({seat, seats_[seat].player, seats_[seat].bot, seats_[seat].bot_level});
  return out;
}

std::vector<storage::Posting> TableCore::to_postings(const std::vector<rules::Transfer>& transfers,
                                                    bool skip_unheld_seats) const {
  std::vector<storage::Posting> out;
  auto held = [&](const rules::Account& a) {
    return !a.is_seat() || (a.seat >= 0 && a.seat < static_cast<int>(seats_.size()) && !seats_[a.seat].player.empty());
  };
  auto account = [&](const rules::Account& a) {
    if (!held(a)) throw std::logic_error("the rules moved chips for seat " + std::to_string(a.seat) + ", which nobody holds");
    return a.is_seat() ? account_of(a.seat) : storage::pool_account(id(), a.pool);
  };
  std::optional<std::int64_t> deal;
  if (game_ && game_->deals_played() > 0) deal = game_->deals_played();
  for (const auto& t : transfers) {
    if (skip_unheld_seats && (!held(t.from) || !held(t.to))) continue;
    // Every movement names its game and the players the rules named by seat.
    out.push_back({account(t.from), account(t.to), t.amount, info_.name + ": " + name_seats(t.memo), id(), info_.id,
                   std::nullopt, deal});
  }
  return out;
}

// GAMES.md: chips left in a table's pools are shared equally among the players
// seated last, the remainder one chip each. A failed table has no game to ask
// for its dealer, so the odd chips go from seat 0.
std::vector<storage::Posting> TableCore::share_out_pools() {
  std::vector<int> sharers;
  for (int seat = 0; seat < static_cast<int>(seats_.size()); ++seat)
    if (!seats_[seat].player.empty() && !seats_[seat].left) sharers.push_back(seat);
  if (sharers.empty())
    for (int seat = 0; seat < static_cast<int>(seats_.size()); ++seat)
      if (!seats_[seat].player.empty()) sharers.push_back(seat);
  std::vector<storage::Posting> postings;
  auto lock = services_.balances.lock();
  if (sharers.empty()) return postings;
  for (const auto& [pool, amount] : services_.balances.holding(storage::pool_account(id(), ""), lock)) {
    if (amount <= 0) continue;
    const auto n = static_cast<std::int64_t>(sharers.size());
    const auto pool_name = pool.substr(pool.rfind(':') + 1);
    const auto memo = info_.name + ": the table stopped on a server fault; its " + pool_name + " of " +
                      std::to_string(amount) + " is shared out equally among " + std::to_string(n);
    for (std::int64_t i = 0; i < n; ++i) {
      const auto share = amount / n + (i < amount % n ? 1 : 0);
      if (share > 0) postings.push_back({pool, account_of(sharers[i]), share, memo, id(), info_.id, std::nullopt, std::nullopt});
    }
  }
  services_.balances.apply(postings, lock);
  unsaved_postings_.insert(unsaved_postings_.end(), postings.begin(), postings.end());
  return postings;
}

bool TableCore::human_connected(int seat) const {
  const auto& s = seats_[seat];
  if (s.player.empty() || s.bot || s.left) return false;
  return std::any_of(audience_.begin(), audience_.end(), [&](const Member& m) { return same_name(m.player, s.player); });
}

std::vector<int> TableCore::humans_awaited_at_deal_end() const {
  std::vector<int> out;
  for (int seat = 0; seat < static_cast<int>(seats_.size()); ++seat)
    if (human_connected(seat) && !seats_[seat].away && !continued_.count(seat)) out.push_back(seat);
  return out;
}

// ---------------------------------------------------------------- idempotent actions

std::optional<std::int64_t> TableCore::seq_of_action(int seat, const std::string& action_id) const {
  const auto it = action_ids_.find(seat);
  if (it == action_ids_.end()) return std::nullopt;
  for (const auto& [id, seq] : it->second)
    if (id == action_id) return seq;
  return std::nullopt;
}

void TableCore::remember_action(int seat, const std::string& action_id, std::int64_t seq) {
  auto& ids = action_ids_[seat];
  ids.emplace_back(action_id, seq);
  if (ids.size() > max_action_ids_per_seat) ids.pop_front();
}

// ---------------------------------------------------------------- frames

void TableCore::remember(const Caller& who) {
  for (const auto& m : audience_)
    if (m.client == who.client) return;
  audience_.push_back({who.client, who.player});
  ++summary_version_;
}

// One state push per member, assembled from parts serialized once a broadcast:
// the same header and tail for everyone, one view per seat, and of the rest
// only what the member has not had yet: log lines, the players list (or just
// its chips), the table's fixed parts, the fair block and the view's constants.
void TableCore::broadcast(Outbox& out) {
  if (audience_.empty()) return;
  const auto chips = balances_now();
  refresh_players(chips);
  auto parts = shared_parts();
  for (auto& member : audience_)
    out.frames.push_back({member.client, std::make_shared<const std::string>(state_text(member, parts, chips))});
}

std::vector<TableCore::PlayerKey> TableCore::players_key(const rules::Balances& chips) const {
  std::vector<PlayerKey> key;
  key.reserve(seats_.size());
  for (int seat = 0; seat < static_cast<int>(seats_.size()); ++seat) {
    const auto& s = seats_[seat];
    key.push_back({s.player, chips[seat], s.bot, s.bot ? !s.left : human_connected(seat), s.away, s.leaving});
  }
  return key;
}

Json TableCore::players_json(const rules::Balances& chips) const {
  Json players = Json::array();
  for (int seat = 0; seat < static_cast<int>(seats_.size()); ++seat) {
    const auto& s = seats_[seat];
    if (s.player.empty()) continue;
    const bool connected = s.bot ? !s.left : human_connected(seat);
    players.push_back({{"seat", seat},
                       {"player", s.player},
                       {"chips", chips[seat]},
                       {"connected", connected},
                       {"away", s.away},
                       {"bot", s.bot}});
    if (!s.leaving.empty()) players.back()["leaving"] = s.leaving;
  }
  return players;
}

// The chips of players_json's entries, in the same order: what a push carries
// when nothing else of the list changed.
Json TableCore::players_chips_json(const rules::Balances& chips) const {
  Json out = Json::array();
  for (int seat = 0; seat < static_cast<int>(seats_.size()); ++seat)
    if (!seats_[seat].player.empty()) out.push_back(chips[seat]);
  return out;
}

bool TableCore::same_roster(const std::vector<PlayerKey>& a, const std::vector<PlayerKey>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    auto one = a[i];
    one.chips = b[i].chips;
    if (!(one == b[i])) return false;
  }
  return true;
}

void TableCore::refresh_result() {
  // A result is the last settled deal's: it changes only when a deal settles,
  // never while one is played (after a restart it is read once).
  if (game_->phase() == rules::Phase::playing && result_read_) return;
  result_read_ = true;
  const auto result = game_->result();
  auto text = result.is_null() ? std::string() : result.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (text == result_text_) return;
  result_text_ = std::move(text);
  ++result_version_;
}

void TableCore::refresh_players(const rules::Balances& chips) {
  // Most steps change no one's chips, seat or presence: compare those first.
  auto key = players_key(chips);
  if (key == players_key_ && players_version_ != 0) return;
  const bool chips_alone = players_version_ != 0 && same_roster(key, players_key_);
  players_key_ = std::move(key);
  auto text = players_json(chips).dump();
  if (text == players_text_) return;
  players_text_ = std::move(text);
  players_chips_text_ = players_chips_json(chips).dump();
  ++players_version_;
  if (!chips_alone) ++roster_version_;
}

// In play the block is the deal's commitment, worked out once when it was
// dealt; a finished table's adds the seed and salt.
void TableCore::refresh_fair() {
  if (deals_started_ == 0) return;
  auto text = finished() ? fair_json().dump()
                         : R"({"commitment":")" + commitment_ + R"(","deal":)" + std::to_string(deals_started_) + "}";
  if (text == fair_text_) return;
  fair_text_ = std::move(text);
  ++fair_version_;
}

TableCore::SharedParts TableCore::shared_parts() {
  SharedParts parts;
  auto& head = parts.head;
  head.reserve(256);
  head += R"({"type":"state","table":)";
  head += Json(id()).dump();
  head += R"(,"seq":)";
  head += std::to_string(seq_);
  head += R"(,"status":)";
  head += Json(record_.status).dump();
  parts.intro = R"(,"game":)" + Json(info_.id).dump() + R"(,"host":)" + Json(record_.host).dump() +
                R"(,"clock":)" + clock_text_;
  auto& tail = parts.tail;
  if (!game_ || failed()) {
    tail += R"(,"to_act":[])";
  } else {
    tail += R"(,"to_act":)";
    tail += Json(game_->to_act()).dump();
    refresh_result();
    parts.result_always = record_.status != "playing";
  }
  if (turn_ && timer_token_[static_cast<std::size_t>(TimerKind::turn)] != 0) {
    tail += R"(,"timer":)" +
            Json({{"seat", turn_->seat}, {"seconds", turn_->seconds}, {"ends_at", turn_deadline_ms_}}).dump();
  } else if (!clocks_.empty() && timer_token_[static_cast<std::size_t>(TimerKind::turn)] != 0) {
    // The earliest deadline; "timers" lists every seat's where several are to act at once.
    const auto earliest = earliest_clock();
    tail += R"(,"timer":)" + clock_json(earliest->first, earliest->second).dump();
    if (clocks_.size() > 1) {
      Json all = Json::array();
      for (const auto& [seat, clock] : clocks_) all.push_back(clock_json(seat, clock));
      tail += R"(,"timers":)" + all.dump();
    }
  }
  if (failed()) tail += R"(,"failure":)" + Json(record_.failure).dump(-1, ' ', false, Json::error_handler_t::replace);
  tail += talk_tail();
  refresh_fair();
  return parts;
}

// The view keys that stay the same all table long: before play (and after a
// fault) the table's seats and options, in play the ones the game names.
const std::vector<std::string>& TableCore::view_constant_keys() const {
  static const std::vector<std::string> table_keys = {"seats", "options"};
  return !game_ || failed() ? table_keys : info_.view_constants;
}

// Each member's push carries its own seat's view; the constants go with it only
// while the member has not had them (they are the same in every seat's view,
// tests/rules/test_view_schema.cpp), so no push ever holds another seat's part.
TableCore::ViewParts& TableCore::view_parts(SharedParts& parts, std::optional<int> seat) {
  const bool first = parts.views.empty();
  auto [it, fresh] = parts.views.try_emplace(seat);
  if (!fresh) return it->second;
  Json view = !game_ || failed() ? Json{{"seats", static_cast<int>(seats_.size())}, {"options", options_}}
                                 : game_->view(seat);
  auto& out = it->second;
  out.constants = Json::object();
  if (view.is_object()) {
    for (const auto& key : view_constant_keys()) {
      auto at = view.find(key);
      if (at == view.end()) continue;
      out.constants[key] = std::move(*at);
      view.erase(at);
    }
  }
  out.lean = view.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (first && out.constants != view_constants_) {
    view_constants_ = out.constants;
    ++view_constants_version_;
  }
  return out;
}

namespace {

// `lean` and `constants` (two serialized JSON objects) as one object.
std::string joined_objects(const std::string& lean, const std::string& constants) {
  if (constants == "{}") return lean;
  if (lean == "{}") return constants;
  return lean.substr(0, lean.size() - 1) + "," + constants.substr(1);
}

}  // namespace

std::string TableCore::state_text(Member& member, SharedParts& parts, const rules::Balances& chips) {
  const auto seat = seat_of(member.player);
  auto& view = view_parts(parts, seat);
  std::string text;
  text.reserve(parts.head.size() + parts.tail.size() + view.lean.size() + 512);
  text += parts.head;
  // What never changes goes in a member's first push only.
  if (!member.introduced) {
    text += parts.intro;
    member.introduced = true;
  }
  // The players list goes when it changed; when only chips changed, just those.
  if (member.players_sent != players_version_) {
    if (member.players_sent != 0 && member.roster_sent == roster_version_) {
      text += R"(,"chips":)";
      text += players_chips_text_;
    } else {
      text += R"(,"players":)";
      text += players_text_;
      member.roster_sent = roster_version_;
    }
    member.players_sent = players_version_;
  }
  text += R"(,"seat":)";
  text += seat ? std::to_string(*seat) : "null";
  if (!seat) {
    if (const auto place = waiting_position(member.player)) text += R"(,"waiting":)" + std::to_string(*place);
  }
  // The invite is for those who may bring friends: the host and the seated.
  if (!member.invite_sent && (seat || same_name(record_.host, member.player))) {
    text += R"(,"invite":)" + Json(record_.invite).dump();
    member.invite_sent = true;
  }
  text += parts.tail;
  // A deal's commitment goes with the first push that shows its cards (before the view).
  if (!fair_text_.empty() && member.fair_sent != fair_version_) {
    text += R"(,"fair":)";
    text += fair_text_;
    member.fair_sent = fair_version_;
  }
  // While the table is played, the last deal's result goes once to each member:
  // it stays until the next deal settles (docs/protocol.md).
  if (game_ && !failed() && !result_text_.empty() && (parts.result_always || member.result_sent != result_version_)) {
    text += R"(,"result":)";
    text += result_text_;
    member.result_sent = result_version_;
  }
  text += R"(,"view":)";
  if (member.constants_sent != view_constants_version_) {
    if (view.whole.empty()) {
      view.whole = joined_objects(view.lean, view.constants.dump(-1, ' ', false, Json::error_handler_t::replace));
      Json names = Json::array();
      for (auto it = view.constants.begin(); it != view.constants.end(); ++it) names.push_back(it.key());
      view.names = names.dump();
    }
    text += view.whole;
    text += R"(,"view_constants":)";
    text += view.names;
    member.constants_sent = view_constants_version_;
  } else {
    text += view.lean;
  }
  text += R"(,"legal":)";
  text += seat && game_ && !failed() ? legal_for(*seat, chips).dump() : "[]";
  log_delta(member, text);
  chat_delta(member, text);
  text += '}';
  return text;
}

// The log lines this member has not had: "log_from" numbers the first of them
// (lines are numbered from 0 for the life of the table), "log" holds them. A
// member new to the table (or too far behind) gets the whole kept tail.
void TableCore::log_delta(Member& member, std::string& out) const {
  append_lines_since(out, "log", log_, log_total_, member.log_sent);
}

// `,"NAME_from":N,"NAME":[…]`: the lines of `kept` (the last of `total` lines,
// already JSON) from `sent` on, or all of them when `sent` is older than the tail.
void TableCore::append_lines_since(std::string& out, const char* name, const std::deque<std::string>& kept,
                                   std::int64_t total, std::int64_t& sent) {
  const std::int64_t kept_from = total - static_cast<std::int64_t>(kept.size());
  const std::int64_t from = sent < kept_from ? kept_from : sent;
  out += R"(,")";
  out += name;
  out += R"(_from":)";
  out += std::to_string(from);
  out += R"(,")";
  out += name;
  out += R"(":[)";
  for (std::int64_t line = from; line < total; ++line) {
    if (line > from) out += ',';
    out += kept[static_cast<std::size_t>(line - kept_from)];
  }
  out += ']';
  sent = total;
}

Json TableCore::legal_for(int seat, const rules::Balances& chips) const {
  if (seats_[seat].left || record_.status != "playing" || pending_) return Json::array();
  if (game_->phase() == rules::Phase::deal_over) {
    if (ending_ || continued_.count(seat)) return Json::array();
    return Json::array({{{"type", "continue"}}});
  }
  const auto acting = game_->to_act();
  if (std::find(acting.begin(), acting.end(), seat) == acting.end()) return Json::array();
  return game_->legal_actions(seat, chips);
}

Frame TableCore::reply(const Caller& who, Json message) const { return Frame{who.client, text_of(message)}; }

Frame TableCore::error(const Caller& who, const std::string& error_code, const std::string& message) const {
  spdlog::debug("table {}: refused {}'s request: {} ({})", id(), who.player, message, error_code);
  return reply(who, protocol::error_message(who.re, error_code, message));
}

std::string TableCore::name_seats(const std::string& line) const {
  std::string out = line;
  for (int seat = 0; seat < static_cast<int>(seats_.size()); ++seat) {
    const std::string tag = rules::seat_tag(seat);
    const std::string name = seats_[seat].player.empty() ? "seat " + std::to_string(seat) : seats_[seat].player;
    for (auto pos = out.find(tag); pos != std::string::npos; pos = out.find(tag, pos + name.size()))
      out.replace(pos, tag.size(), name);
  }
  return out;
}

void TableCore::add_log(const std::vector<std::string>& lines) {
  for (const auto& line : lines) {
    log_.push_back(Json(name_seats(line)).dump(-1, ' ', false, Json::error_handler_t::replace));
    ++log_total_;
    if (log_.size() > log_lines_kept) log_.pop_front();
  }
}

Json TableCore::summary() const {
  Json seats = Json::array();
  int spectators = 0;
  for (const auto& m : audience_)
    if (!seat_of(m.player)) ++spectators;
  for (int seat = 0; seat < static_cast<int>(seats_.size()); ++seat) {
    const auto& s = seats_[seat];
    seats.push_back({{"seat", seat},
                     {"player", s.player.empty() ? Json() : Json(s.player)},
                     {"bot", s.bot},
                     {"connected", s.bot ? !s.left : human_connected(seat)},
                     {"away", s.away}});
  }
  const bool late_join = record_.status == "playing" && takes_late_joiners() && game_ &&
                         game_->phase() != rules::Phase::game_over && !ending_;
  return {{"table", id()},          {"game", info_.id},        {"options", options_},
          {"clock", protocol::clock_to_json(clock_)}, {"host", record_.host}, {"status", record_.status},
          {"seats", seats},         {"spectators", spectators}, {"late_join", late_join},
          {"waiting", waiting_.size()}};
}

}  // namespace parlour::server
