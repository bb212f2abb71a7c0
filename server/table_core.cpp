#include "server/table_core.h"

#include <algorithm>
#include <spdlog/spdlog.h>

#include "rules/fair.h"
#include "rules/pools.h"
#include "rules/random_play.h"
#include "server/names.h"
#include "server/tokens.h"

namespace parlour::server {

namespace code = protocol::code;

namespace {

// A move the game refused though it listed it (or named it as the turn's
// default): a fault of the game, or of its bot. The refusal changed nothing.
struct RefusedAction : std::logic_error {
  using std::logic_error::logic_error;
};

constexpr std::size_t max_quoted_chars = 60;

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
      state_(TableState::replay(std::move(record), game, events)),
      info_(game),
      turn_clock_(stored_clock(state_.id(), state_.record().clock_json)),
      bot_rng_(state_.record().seed ^ 0x5bd1e995b0757ULL) {
  sync_memory();
  if (!services_.chat_limit) services_.chat_limit = std::make_shared<WindowLimit>(chat_lines_per_window, chat_window_ms);
  if (!events.empty()) spdlog::info("table {}: replayed {} events, seq {}", id(), events.size(), state_.seq());
}

TableCore::~TableCore() = default;

bool TableCore::is_member(ClientId client) const { return pushes_.has(client); }

// ---------------------------------------------------------------- requests

Outbox TableCore::join(const Caller& who, std::optional<int> wanted, bool invited) {
  Outbox out;
  // A seat he left is not his any more: he comes back as anyone who is late.
  if (auto held = seat_of(who.player); held && !seats()[*held].left) {
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
  take_seat(*seat, SeatState{who.player});
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
  if (!seat || finished() || seats()[*seat].left) {
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
  Json event = {{"kind", "leave"}, {"seat", *seat}};
  auto postings = apply_event(event);
  return commit_step(event, std::move(postings), {.seats = true, .result = game()->phase() != rules::Phase::playing},
                     {left}, who);
}

std::string new_bot_name(int seat) { return "bot-" + random_id(16) + "-" + std::to_string(seat); }

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
  take_seat(*seat, SeatState{name, true, level});
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
    out.frames.push_back(error(who, code::forbidden, "only the host, " + state_.record().host + ", can start the game"));
    return out;
  }
  if (state_.status() != "waiting") {
    out.frames.push_back(error(who, code::conflict, "the game has already started"));
    return out;
  }
  const int seated = seated_count();
  const int most = info_.max_players_with(state_.options());
  if (seated < info_.min_players || seated > most) {
    out.frames.push_back(error(who, code::conflict,
                               info_.name + " needs " + std::to_string(info_.min_players) + " to " +
                                   std::to_string(most) + " players; " + std::to_string(seated) + " seated"));
    return out;
  }
  // Play uses the occupied seats only, renumbered in order (TableState), but in
  // games that take players between deals.
  Json event = {{"kind", "start"}, {"fair_salt", random_id(32)}};
  if (takes_late_joiners()) {
    // The empty seats stay in the game, out of play, for friends who come late.
    Json open = Json::array();
    Json seated = Json::array();
    for (int s = 0; s < static_cast<int>(seats().size()); ++s) {
      if (seats()[s].player.empty()) open.push_back(s);
      seated.push_back({{"player", seats()[s].player}, {"bot", seats()[s].bot}, {"level", seats()[s].bot_level}});
    }
    if (!open.empty()) event["open"] = std::move(open);
    // The seats change hands later: a replay starts from these, not today's.
    event["seated"] = std::move(seated);
  }
  std::vector<storage::Posting> postings;
  try {
    postings = apply_event(event);
  } catch (const rules::SetupError& e) {
    out.frames.push_back(error(who, code::bad_request, std::string("cannot start: ") + e.what()));
    return out;
  }
  state_.set_status("playing");
  spdlog::info("table {}: {} starts {} with {} players", id(), state_.record().host, info_.id, seated);
  return commit_step(event, std::move(postings), {.seats = true, .status = true, .result = true},
                     {reply(who, protocol::reply("ok", who.re, {{"seq", state_.seq()}}))}, who);
}

Outbox TableCore::end(const Caller& who) {
  Outbox out;
  if (!is_host(who)) {
    out.frames.push_back(error(who, code::forbidden, "only the host, " + state_.record().host + ", can end the table"));
    return out;
  }
  if (finished()) {
    out.frames.push_back(error(who, code::conflict, "the table has already ended"));
    return out;
  }
  if (state_.status() == "waiting") {
    state_.set_status("finished");
    spdlog::info("table {}: ended by the host before play", id());
    return commit_step(std::nullopt, {}, {.status = true}, {reply(who, protocol::reply("ok", who.re, {{"seq", state_.seq()}}))},
                       who);
  }
  // A deal in progress is played out; a second `end` does not wait for it (the
  // host's way out of a deal nobody finishes). Between deals, it ends now.
  const bool between_deals = game()->phase() != rules::Phase::playing;
  if (between_deals || state_.ending()) {
    spdlog::info("table {}: the host ends the table{}", id(), between_deals ? "" : " without waiting for the deal");
    out = finish_table("the host ended the table");
    if (pending_) pending_->replies.insert(pending_->replies.begin(), reply(who, protocol::reply("ok", who.re, {{"seq", state_.seq()}})));
    return out;
  }
  // Logged, so that a restart still ends the table after this deal.
  Json event = {{"kind", "ending"}};
  auto postings = apply_event(event);
  spdlog::info("table {}: the host ends the table after this deal", id());
  return commit_step(event, std::move(postings), {},
                     {reply(who, protocol::reply("ok", who.re, {{"seq", state_.seq()}}))}, who);
}

Outbox TableCore::act(const Caller& who, const Json& action, const std::optional<std::string>& action_id) {
  Outbox out;
  if (state_.status() != "playing" || !game()) {
    out.frames.push_back(error(who, code::conflict,
                               state_.status() == "waiting" ? "the game has not started" : "the table has ended"));
    return out;
  }
  const auto seat = seat_of(who.player);
  if (!seat) {
    out.frames.push_back(error(who, code::forbidden, "you hold no seat at table " + id()));
    return out;
  }
  if (action_id) {
    if (auto seq = state_.seq_of_action(*seat, *action_id)) {
      // A resend after a lost reply: the same answer, nothing applied again.
      remember(who);
      out.frames.push_back(
          reply(who, protocol::reply("ok", who.re, {{"seq", *seq}, {"action_id", *action_id}, {"duplicate", true}})));
      broadcast(out);
      return out;
    }
  }
  if (seats()[*seat].left) {
    out.frames.push_back(error(who, code::conflict, "you have left this table"));
    return out;
  }
  if (action.value("type", "") == "continue" && game()->phase() == rules::Phase::deal_over)
    return continue_to_next_deal(who, *seat);
  Json event = {{"kind", "act"}, {"seat", *seat}, {"action", action}};
  if (action_id) event["action_id"] = *action_id;
  std::vector<storage::Posting> postings;
  try {
    postings = apply_event(event);
  } catch (const rules::RulesError& e) {
    out.frames.push_back(error(who, e.code(), shorten(name_seats(e.what()))));
    return out;
  }
  stop_clock(*seat);
  mark_present(*seat);
  Json fields = {{"seq", state_.seq()}};
  if (action_id) fields["action_id"] = *action_id;
  // Every action, at debug: at info the log keeps one line per table event.
  if (spdlog::should_log(spdlog::level::debug))
    spdlog::debug("table {}: #{} {} plays {}", id(), state_.seq(), who.player, shorten(action.dump()));
  return commit_step(event, std::move(postings), {.result = game()->phase() != rules::Phase::playing},
                     {reply(who, protocol::reply("ok", who.re, std::move(fields)))}, who);
}

Outbox TableCore::back(const Caller& who) {
  Outbox out;
  const auto seat = seat_of(who.player);
  if (!seat) {
    out.frames.push_back(error(who, code::forbidden, "you hold no seat at table " + id()));
    return out;
  }
  if (seats()[*seat].left) {
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
    spdlog::info("table {}: the host takes seat {} ({}) out of the game", id(), seat, s.player);
    continued_.erase(seat);
    Json event = {{"kind", "leave"}, {"seat", seat}, {"by", "host"}};
    auto postings = apply_event(event);
    return commit_step(event, std::move(postings),
                       {.seats = true, .result = game()->phase() != rules::Phase::playing},
                       {reply(who, protocol::reply("ok", who.re, {{"seq", state_.seq()}}))}, who);
  }
  if (replace == "bot" && s.bot) return refuse(code::conflict, "seat " + std::to_string(seat) + " has a bot already");
  spdlog::info("table {}: the host frees seat {} ({}) for {} from the next deal", id(), seat, s.player,
               replace == "bot" ? "a bot" : "a new player");
  Json event = {{"kind", "unseat"}, {"seat", seat}, {"replace", replace}};
  auto postings = apply_event(event);
  // Until the seat changes hands a bot plays it.
  if (!s.bot) mark_away(seat);
  return commit_step(event, std::move(postings), {.seats = true},
                     {reply(who, protocol::reply("ok", who.re, {{"seq", state_.seq()}}))}, who);
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
  if (!takes_late_joiners()) return changes;
  std::vector<std::string> line;
  for (const auto& person : waiting_) {
    const bool here = pushes_.has_player(person);
    const auto seat = seat_of(person);
    if (here && (!seat || seats()[*seat].left)) line.push_back(person);
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
    if (change.at("player").is_null()) continue;
    const auto player = change.at("player").get<std::string>();
    std::erase_if(waiting_, [&](const std::string& p) { return same_name(p, player); });
    ++summary_version_;
    spdlog::info("table {}: {} takes seat {}", id(), player, change.at("seat").get<int>());
  }
}

Outbox TableCore::continue_to_next_deal(const Caller& who, int seat) {
  Outbox out;
  continued_.insert(seat);
  mark_present(seat);
  out.frames.push_back(reply(who, protocol::reply("ok", who.re, {{"seq", state_.seq()}, {"continued", true}})));
  const auto awaited = humans_awaited_at_deal_end();
  if (awaited.empty() && !state_.ending()) {
    out.timers.push_back(cancel(TimerKind::next_deal));
    out.add(next_deal());
    return out;
  }
  broadcast(out);
  return out;
}

Outbox TableCore::expire() {
  if (state_.status() != "waiting") return Outbox{};
  state_.set_status("finished");
  spdlog::info("table {}: nobody started it; it expires", id());
  say("Nobody started the game; the table has expired.");
  return commit_step(std::nullopt, {}, {.status = true}, {}, std::nullopt);
}

Outbox TableCore::disconnected(ClientId client) {
  Outbox out;
  ++summary_version_;
  if (pushes_.remove(client)) broadcast(out);
  return out;
}

// ---------------------------------------------------------------- steps

Outbox TableCore::commit_step(std::optional<Json> event, std::vector<storage::Posting> postings, StepChanges changes,
                              std::vector<Frame> replies, std::optional<Caller> caller) {
  storage::TableWrite write;
  write.table = id();
  if (event) {
    write.event = storage::Event{state_.seq(), event->dump()};
    // The ledger links each movement to the step that caused it.
    for (auto& posting : postings)
      if (!posting.seq) posting.seq = state_.seq();
  }
  write.postings = postings;
  if (changes.status) write.status = state_.status();
  if (changes.seats) write.seats = state_.stored_seats();
  if (changes.status || changes.seats) ++summary_version_;
  if (changes.result && game() && !game()->result().is_null()) write.result_json = game()->result().dump();
  if (!state_.record().failure.empty() && state_.status() == "finished" && changes.status) write.failure = state_.record().failure;
  pending_ = Pending{std::move(postings), std::move(replies), std::move(caller)};
  unsaved_postings_.clear();
  Outbox out;
  out.write = std::move(write);
  return out;
}

Outbox TableCore::committed(const storage::CommitOutcome& outcome) {
  if (!pending_) throw std::logic_error("table core: committed() with no write in flight");
  Pending done = std::move(*pending_);
  pending_.reset();
  Outbox out;
  if (!outcome.committed()) {
    spdlog::error("table {}: a step could not be saved and is undone: {}", id(), outcome.detail);
    services_.balances.revert(done.postings);
    rebuild_from_database();
    // Another node's table spent the same chips first: the database decided.
    if (done.caller && outcome.kind == storage::CommitOutcome::Kind::lacked_chips)
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
  if (pending_ || !game() || state_.status() != "playing") {
    schedule(out);
    return out;
  }
  // A later change of these wakes the table again (balances_changed).
  chips_resumed_ = balances_now();
  const auto phase = game()->phase();
  if (phase == rules::Phase::game_over) return finish_table("the game is over");
  if (phase == rules::Phase::deal_over && state_.ending()) return finish_table("the host ended the table");
  if (phase == rules::Phase::playing) {
    if (auto seat = seat_that_must_skip()) return act_for(*seat, {{"type", "skip"}}, "automatic");
  }
  if (phase == rules::Phase::playing && nobody_can_act()) {
    spdlog::error("table {}: nobody can act in the deal in progress; the table ends", id());
    say("Nobody can act any more; the table ends.");
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
  if (!out.write && !pushes_.empty()) {
    const auto seats_now = presence();
    const PushScene scene{state_, info_, chips, seats_now, {}, turn_clock_.settings_text(), {}, {}};
    if (pushes_.players_changed(scene)) broadcast(out);
  }
  return out;
}

std::set<std::string> TableCore::seated_accounts() const {
  std::set<std::string> accounts;
  if (finished()) return accounts;
  for (int seat = 0; seat < static_cast<int>(seats().size()); ++seat)
    if (!seats()[seat].player.empty() && !seats()[seat].bot) accounts.insert(account_of(seat));
  return accounts;
}

Outbox TableCore::next_deal() {
  if (state_.deals_without_action() + 1 > services_.config.max_idle_deals) {
    spdlog::warn("table {}: {} deals in a row passed without a single action; the table ends", id(),
                 services_.config.max_idle_deals);
    say("Deal after deal passes without anyone able to play; the table ends.");
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
  auto dealt = apply_event(event);
  postings.insert(postings.end(), dealt.begin(), dealt.end());
  if (event.contains("seats")) seats_changed_hands(event["seats"]);
  return commit_step(event, std::move(postings),
                     {.seats = event.contains("seats"), .result = game()->phase() == rules::Phase::game_over}, {},
                     std::nullopt);
}

Outbox TableCore::finish_table(const std::string& why) {
  Json event = {{"kind", "close"}};
  auto postings = apply_event(event);
  state_.set_status("finished");
  spdlog::info("table {}: finished after {} deals ({})", id(), game()->deals_played(), why);
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
  state_.set_failure(shorten(reason));
  say("The table has stopped because of a fault in the server; its chips are safe.");
  auto postings = share_out_pools();
  out.add(commit_step(std::nullopt, std::move(postings), {.status = true}, {}, std::nullopt));
  return out;
}

// A player who cannot cover any action (his chips went elsewhere) is offered
// only `skip`; the table plays it for him rather than wait on a formality.
std::optional<int> TableCore::seat_that_must_skip() const {
  const auto chips = balances_now();
  for (int seat : game()->to_act()) {
    const auto legal = game()->legal_actions(seat, chips);
    if (legal.size() == 1 && legal[0].value("type", "") == "skip") return seat;
  }
  return std::nullopt;
}

bool TableCore::nobody_can_act() const {
  if (game()->turn_timer()) return false;
  const auto acting = game()->to_act();
  const auto chips = balances_now();
  return std::none_of(acting.begin(), acting.end(), [&](int seat) {
    return !seats()[seat].left && !game()->legal_actions(seat, chips).empty();
  });
}

// One event through the state's interpreter (the code a replay runs), its
// chips read from and moved in the live balances under one lock.
std::vector<storage::Posting> TableCore::apply_event(Json& event) {
  auto lock = services_.balances.lock();
  const auto deals_before = state_.deals_started();
  auto applied = state_.apply(event, [&](const std::vector<SeatState>& seats) { return balances(seats, lock); });
  if (!services_.balances.affordable(applied.postings, lock))
    throw std::logic_error("the rules moved more chips than a player has: " + event.dump());
  services_.balances.apply(applied.postings, lock);
  unsaved_postings_.insert(unsaved_postings_.end(), applied.postings.begin(), applied.postings.end());
  lock.unlock();
  sync_memory();
  if (state_.deals_started() != deals_before)
    spdlog::info("table {}: deal {} committed: sha256 {}", id(), state_.deals_started(), state_.current_commitment());
  return std::move(applied.postings);
}

// The database is the truth: the state is made again from the stored record
// and log, as at a restart. What the table remembers beyond its log stays,
// but for what only made sense of the step undone: pushes start afresh, the
// clocks and the continues of a deal that may no longer be over.
void TableCore::rebuild_from_database() {
  auto stored = services_.reload ? services_.reload(id()) : std::nullopt;
  if (!stored) throw std::runtime_error("table " + id() + " is no longer in the database");
  state_ = TableState::replay(std::move(stored->first), info_, stored->second);
  sync_memory();
  pushes_.resend_all();
  turn_clock_.clear_running();
  continued_.clear();
  rematch_in_progress_ = false;
}

void TableCore::sync_memory() {
  const auto& seats = state_.seats();
  memory_.resize(seats.size());
  for (std::size_t seat = 0; seat < seats.size(); ++seat) {
    auto& memory = memory_[seat];
    if (memory.player == seats[seat].player) continue;
    memory = SeatMemory{seats[seat].player};
    turn_clock_.seat_changed_hands(static_cast<int>(seat));
    // A person the host is moving out is played by a bot until the seat changes hands.
    memory.away = !seats[seat].bot && !seats[seat].player.empty() && !seats[seat].leaving.empty();
  }
}

void TableCore::say(const std::string& line) { state_.say(line); }

void TableCore::take_seat(int seat, SeatState taker) {
  state_.set_seat(seat, std::move(taker));
  sync_memory();
}

Outbox TableCore::act_for(int seat, const Json& action, const char* why) {
  Json event = {{"kind", "act"}, {"seat", seat}, {"action", action}};
  std::vector<storage::Posting> postings;
  try {
    postings = apply_event(event);
  } catch (const rules::RulesError& e) {
    // The game listed this action (or named it as the turn's default): refusing
    // it is a fault of the game, and a table must not wait on it forever.
    throw RefusedAction(std::string(why) + " action " + action.dump() + " for seat " + std::to_string(seat) +
                        " was refused: " + e.what());
  }
  stop_clock(seat);
  if (spdlog::should_log(spdlog::level::debug))
    spdlog::debug("table {}: #{} {} plays {} for seat {}", id(), state_.seq(), why, action.dump(), seat);
  return commit_step(event, std::move(postings), {.result = game()->phase() != rules::Phase::playing}, {},
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
  const bool live = !pending_ && game() && state_.status() == "playing";
  if (!live) {
    for (auto kind : {TimerKind::bot, TimerKind::turn, TimerKind::next_deal})
      if (timer_token_[static_cast<std::size_t>(kind)] != 0) out.timers.push_back(cancel(kind));
    turn_clock_.pause(pending_.has_value());
    return;
  }
  schedule_bot(out);
  schedule_turn_timer(out);
  schedule_next_deal(out);
}

void TableCore::schedule_bot(Outbox& out) {
  if (timer_token_[static_cast<std::size_t>(TimerKind::bot)] != 0) return;
  if (game()->phase() != rules::Phase::playing) return;
  for (int seat : game()->to_act()) {
    if (!seats()[seat].bot && !memory_[seat].away) continue;
    out.timers.push_back(arm(TimerKind::bot, std::chrono::milliseconds(services_.config.bot_delay_ms)));
    return;
  }
}

// The turn timer is armed as the clock says (TurnClock::schedule).
void TableCore::schedule_turn_timer(Outbox& out) {
  const auto limit = game()->phase() == rules::Phase::playing ? game()->turn_timer() : std::nullopt;
  const auto order = turn_clock_.schedule(limit, limit ? std::set<int>{} : seats_on_the_clock(), turn_timer_armed(),
                                          services_.now_ms());
  if (order.what == TurnClock::Order::What::arm) out.timers.push_back(arm(TimerKind::turn, order.after));
  else if (order.what == TurnClock::Order::What::cancel) out.timers.push_back(cancel(TimerKind::turn));
}

// The human seats the table's clock runs for: to act, with something to do,
// present (an away seat is the bot's), at a table whose clock is on.
std::set<int> TableCore::seats_on_the_clock() const {
  std::set<int> due;
  if (!turn_clock_.on() || !game() || game()->phase() != rules::Phase::playing) return due;
  const auto chips = balances_now();
  for (int seat : game()->to_act()) {
    const auto& s = seats()[seat];
    if (s.player.empty() || s.bot || s.left || memory_[seat].away) continue;
    if (!game()->legal_actions(seat, chips).empty()) due.insert(seat);
  }
  return due;
}

// The seat's clock ran out: the table plays the game's safe default for it
// (an event like any act, marked "by":"clock"). After `away_after` of these in
// a row the seat is away and a bot plays it. A default the game refuses is a
// fault of the rules: the seat is marked away at once, so the bot plays
// instead of the table waiting on the clock again.
Outbox TableCore::clock_ran_out() {
  if (game()->phase() != rules::Phase::playing) return resume();
  const auto ran_out = turn_clock_.take_ran_out(seats_on_the_clock());
  if (!ran_out) return resume();
  const int seat = *ran_out;
  ++memory_[seat].missed;
  const auto legal = game()->legal_actions(seat, balances_now());
  Json event = {{"kind", "act"}, {"seat", seat}, {"by", "clock"}};
  std::vector<storage::Posting> postings;
  std::optional<std::string> refused;
  try {
    event["action"] = info_.default_for(game()->view(seat), legal);
  } catch (const std::exception& e) {
    refused = e.what();
  }
  if (!refused) {
    try {
      postings = apply_event(event);
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
  spdlog::info("table {}: seat {}'s clock ran out ({} in a row); the table plays {}", id(), seat,
               memory_[seat].missed, event["action"].dump());
  if (memory_[seat].missed >= clock().away_after) mark_away(seat);
  return commit_step(event, std::move(postings), {.result = game()->phase() != rules::Phase::playing}, {},
                     std::nullopt);
}

void TableCore::mark_away(int seat) {
  auto& s = memory_[seat];
  if (s.away) return;
  s.away = true;
  ++summary_version_;
  stop_clock(seat);
  spdlog::info("table {}: {} is away; a bot plays seat {}", id(), s.player, seat);
  say(rules::seat_tag(seat) + " is away: a bot plays for them until they are back.");
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

// After a deal, its result stays on every screen until each human still here
// has said `continue`, or the pause runs out.
void TableCore::schedule_next_deal(Outbox& out) {
  if (timer_token_[static_cast<std::size_t>(TimerKind::next_deal)] != 0) return;
  if (game()->phase() != rules::Phase::deal_over) return;
  const bool someone_reads = !humans_awaited_at_deal_end().empty();
  const int pause = someone_reads ? services_.config.deal_pause_ms : services_.config.bot_delay_ms;
  out.timers.push_back(arm(TimerKind::next_deal, std::chrono::milliseconds(pause)));
}

Outbox TableCore::timer_fired(TimerKind kind, std::uint64_t token) {
  Outbox out;
  if (!current(kind, token)) return out;
  timer_token_[static_cast<std::size_t>(kind)] = 0;
  if (pending_) return out;  // the actor holds timers back while a write is in flight; resume() re-arms
  if (!game() || state_.status() != "playing") return out;
  switch (kind) {
    case TimerKind::bot: return bot_move();
    case TimerKind::turn: return turn_clock_.runs_game_limit() ? turn_timed_out() : clock_ran_out();
    case TimerKind::next_deal:
      if (game()->phase() != rules::Phase::deal_over) return resume();
      if (state_.ending()) return finish_table("the host ended the table");
      return next_deal();
  }
  return out;
}

Outbox TableCore::bot_move() {
  if (game()->phase() != rules::Phase::playing) return resume();
  const auto chips = balances_now();
  for (int seat : game()->to_act()) {
    // An away seat is played carefully (the game's bot, where it has one) until its player is back.
    const bool away = !seats()[seat].bot && memory_[seat].away && !seats()[seat].left;
    if (!seats()[seat].bot && !away) continue;
    const Json legal = game()->legal_actions(seat, chips);
    if (legal.empty()) continue;
    const bool careful = (away || seats()[seat].bot_level >= 1) && info_.bot;
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
    action = info_.bot(game()->view(seat), legal, bot_rng_);
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
  const auto timer = turn_clock_.take_game_limit();
  const auto now = game()->phase() == rules::Phase::playing ? game()->turn_timer() : std::nullopt;
  if (!timer || !now || now->seat != timer->seat || now->turn != timer->turn) return resume();
  spdlog::info("table {}: seat {}'s {} s turn ran out; the server plays {}", id(), timer->seat, timer->seconds,
               timer->action.dump());
  return act_for(timer->seat, timer->action, "timed-out");
}

// ---------------------------------------------------------------- seats and chips

std::string TableCore::account_of(int seat) const { return storage::player_account(seats()[seat].player); }

rules::Balances TableCore::balances(const std::vector<SeatState>& seats, const LiveBalances::Lock& lock) const {
  rules::Balances out;
  out.reserve(seats.size());
  for (const auto& seat : seats)
    out.push_back(seat.player.empty() ? 0 : services_.balances.balance(storage::player_account(seat.player), lock));
  return out;
}

rules::Balances TableCore::balances_now() const {
  auto lock = services_.balances.lock();
  return balances(seats(), lock);
}

bool TableCore::is_host(const Caller& who) const { return same_name(who.player, state_.record().host); }

int TableCore::seated_count() const {
  return static_cast<int>(
      std::count_if(seats().begin(), seats().end(), [](const SeatState& s) { return !s.player.empty(); }));
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

// GAMES.md: chips left in a table's pools are shared equally among the players
// seated last, the remainder one chip each (rules::share_out_pool). A failed
// table has no game to ask for its dealer, so the odd chips go from the lowest seat.
std::vector<storage::Posting> TableCore::share_out_pools() {
  std::vector<int> sharers;
  for (int seat = 0; seat < static_cast<int>(seats().size()); ++seat)
    if (!seats()[seat].player.empty() && !seats()[seat].left) sharers.push_back(seat);
  if (sharers.empty())
    for (int seat = 0; seat < static_cast<int>(seats().size()); ++seat)
      if (!seats()[seat].player.empty()) sharers.push_back(seat);
  auto lock = services_.balances.lock();
  rules::Effects effects;
  for (const auto& [pool, amount] : services_.balances.holding(storage::pool_account(id(), ""), lock))
    effects.append(rules::share_out_pool(pool.substr(pool.rfind(':') + 1), amount, sharers,
                                         "the table stopped on a server fault", "the lowest seat"));
  auto postings = state_.postings_for(effects.transfers);
  services_.balances.apply(postings, lock);
  unsaved_postings_.insert(unsaved_postings_.end(), postings.begin(), postings.end());
  return postings;
}

bool TableCore::human_connected(int seat) const {
  const auto& s = seats()[seat];
  if (s.player.empty() || s.bot || s.left) return false;
  return pushes_.has_player(s.player);
}

std::vector<int> TableCore::humans_awaited_at_deal_end() const {
  std::vector<int> out;
  for (int seat = 0; seat < static_cast<int>(seats().size()); ++seat)
    if (human_connected(seat) && !memory_[seat].away && !continued_.count(seat)) out.push_back(seat);
  return out;
}

// ---------------------------------------------------------------- frames

void TableCore::remember(const Caller& who) {
  if (pushes_.add(who.client, who.player)) ++summary_version_;
}

// Every member is pushed the table as it stands (PushEncoder).
void TableCore::broadcast(Outbox& out) {
  if (pushes_.empty()) return;
  const auto chips = balances_now();
  const auto seats_now = presence();
  const PushScene scene{state_, info_, chips, seats_now, turn_clock_.push_text(turn_timer_armed()), turn_clock_.settings_text(),
                        [&](int seat) { return legal_for(seat, chips); },
                        [&](const std::string& player) { return waiting_position(player); }};
  for (auto& frame : pushes_.encode(scene)) out.frames.push_back(std::move(frame));
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

// What the log allows the seat (TableState::legal_for), less what the table's
// memory rules out: nothing while a step is being written, no second continue.
Json TableCore::legal_for(int seat, const rules::Balances& chips) const {
  if (state_.status() != "playing" || pending_) return Json::array();
  if (game()->phase() == rules::Phase::deal_over && continued_.count(seat)) return Json::array();
  return state_.legal_for(seat, chips);
}

Frame TableCore::reply(const Caller& who, Json message) const { return Frame{who.client, text_of(message)}; }

Frame TableCore::error(const Caller& who, const std::string& error_code, const std::string& message) const {
  spdlog::debug("table {}: refused {}'s request: {} ({})", id(), who.player, message, error_code);
  return reply(who, protocol::error_message(who.re, error_code, message));
}

Json TableCore::summary() const {
  Json seat_lines = Json::array();
  const int spectators = pushes_.spectators(state_);
  for (int seat = 0; seat < static_cast<int>(seats().size()); ++seat) {
    const auto& s = seats()[seat];
    seat_lines.push_back({{"seat", seat},
                          {"player", s.player.empty() ? Json() : Json(s.player)},
                          {"bot", s.bot},
                          {"connected", s.bot ? !s.left : human_connected(seat)},
                          {"away", memory_[seat].away}});
  }
  const bool late_join = state_.status() == "playing" && takes_late_joiners() && game() &&
                         game()->phase() != rules::Phase::game_over && !state_.ending();
  return {{"table", id()},          {"game", info_.id},        {"options", state_.options()},
          {"clock", protocol::clock_to_json(clock())}, {"host", state_.record().host}, {"status", state_.status()},
          {"seats", seat_lines},    {"spectators", spectators}, {"late_join", late_join},
          {"waiting", waiting_.size()}};
}

}  // namespace parlour::server
