#include "server/table/table_core.h"

#include <algorithm>
#include <spdlog/spdlog.h>

#include "rules/fair.h"
#include "rules/pools.h"
#include "rules/random_play.h"
#include "server/common/names.h"
#include "server/common/tokens.h"
#include "server/table/table_core_parts.h"

namespace parlour::server {

namespace code = protocol::code;

namespace {

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
      bot_rng_(state_.record().seed ^ 0x5bd1e995b0757ULL),
      pools_account_prefix_(storage::pool_account(state_.id(), "")) {
  sync_memory();
  if (!services_.chat_limit) services_.chat_limit = std::make_shared<WindowLimit>(chat_lines_per_window, chat_window_ms);
  if (!events.empty()) spdlog::info("table {}: replayed {} events, seq {}", id(), events.size(), state_.seq());
}

TableCore::~TableCore() = default;

bool TableCore::is_member(ClientId client) const { return pushes_.has(client); }

// ---------------------------------------------------------------- requests

std::optional<RematchPlan> TableCore::handle(const Caller& who, const protocol::TableRequest& request, Outbox& out) {
  std::optional<RematchPlan> plan;
  std::visit(
      [&](const auto& body) {
        using T = std::decay_t<decltype(body)>;
        if constexpr (std::is_same_v<T, protocol::Join>) out.add(join(who, body.seat, body.invite.has_value()));
        else if constexpr (std::is_same_v<T, protocol::Watch>) out.add(watch(who, body.invite.has_value()));
        else if constexpr (std::is_same_v<T, protocol::Leave>) out.add(leave(who));
        else if constexpr (std::is_same_v<T, protocol::Bot>) out.add(add_bot(who, body.seat, body.level));
        else if constexpr (std::is_same_v<T, protocol::Start>) out.add(start(who));
        else if constexpr (std::is_same_v<T, protocol::End>) out.add(end(who));
        else if constexpr (std::is_same_v<T, protocol::Act>) out.add(act(who, body.action, body.action_id));
        else if constexpr (std::is_same_v<T, protocol::Back>) out.add(back(who));
        else if constexpr (std::is_same_v<T, protocol::Unseat>) out.add(unseat(who, body.seat, body.replace));
        else if constexpr (std::is_same_v<T, protocol::Chat>) out.add(chat(who, body));
        else if constexpr (std::is_same_v<T, protocol::Mute>) out.add(mute(who, body.player, body.muted));
        else if constexpr (std::is_same_v<T, protocol::Rematch>) plan = plan_rematch(who, body.same_seed, out);
        else static_assert(sizeof(T) == 0, "a table request without a handler");
      },
      request);
  return plan;
}

std::string new_bot_name(int seat) { return "bot-" + random_id(16) + "-" + std::to_string(seat); }

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
  if (seats()[*seat].given_up()) {
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

// ---------------------------------------------------------------- late joiners

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
  write.deal_start = std::exchange(unsaved_deal_start_, std::nullopt);
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

template <class Visit>
void TableCore::each_seated_account(Visit&& visit) const {
  if (finished()) return;
  for (const auto& seat : seats())
    if (!seat.player.empty() && !seat.bot) visit(account_name(seat.player));
}

std::set<std::string> TableCore::seated_accounts() const {
  std::set<std::string> accounts;
  each_seated_account([&](const std::string& account) { accounts.insert(account); });
  return accounts;
}

bool TableCore::seated_accounts_are(const std::set<std::string>& accounts) const {
  std::size_t seated = 0;
  bool all_among = true;
  each_seated_account([&](const std::string& account) {
    ++seated;
    all_among = all_among && accounts.count(account) > 0;
  });
  // One player in two seats counts twice here, once in a set: told "not", the
  // caller builds the set and finds it the same.
  return all_among && seated == accounts.size();
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

Outbox TableCore::fail(const std::string& reason, const std::string& told) {
  spdlog::error("table {}: fails and stops: {}", id(), reason);
  Outbox out;
  for (auto kind : {TimerKind::bot, TimerKind::turn, TimerKind::next_deal}) out.timers.push_back(cancel(kind));
  if (failed()) return out;
  // A step that threw after moving chips in memory never reached the database.
  services_.balances.revert(unsaved_postings_);
  unsaved_postings_.clear();
  unsaved_deal_start_.reset();
  pending_.reset();
  state_.set_failure(shorten(reason));
  say(told);
  auto postings = share_out_pools();
  out.add(commit_step(std::nullopt, std::move(postings), {.status = true}, {}, std::nullopt));
  return out;
}

// One event through the state's interpreter (the code a replay runs), its
// chips read from and moved in the live balances under one lock.
std::vector<storage::Posting> TableCore::apply_event(Json& event) {
  auto lock = services_.balances.lock(accounts_of_step(event));
  const auto deals_before = state_.deals_started();
  auto applied = state_.apply(event, [&](const std::vector<SeatState>& seats) { return balances(seats, lock); });
  if (!services_.balances.affordable(applied.postings, lock))
    throw std::logic_error("the rules moved more chips than a player has: " + event.dump());
  services_.balances.apply(applied.postings, lock, balance_watcher_);
  unsaved_postings_.insert(unsaved_postings_.end(), applied.postings.begin(), applied.postings.end());
  if (applied.deal_start) unsaved_deal_start_ = std::move(applied.deal_start);
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

// ---------------------------------------------------------------- timers

bool TableCore::current(TimerKind kind, std::uint64_t token) const {
  return token != 0 && timer_token_[static_cast<std::size_t>(kind)] == token;
}

// ---------------------------------------------------------------- seats and chips

std::string TableCore::account_of(int seat) const { return account_name(seats()[seat].player); }

// A step asks for its seats' accounts several times (the accounts it locks, the
// chips it reads before and after): the names are made once a seating.
const std::string& TableCore::account_name(const std::string& player) const {
  for (const auto& [name, account] : account_names_)
    if (name == player) return account;
  if (account_names_.size() >= kAccountNamesKept) account_names_.clear();
  account_names_.emplace_back(player, storage::player_account(player));
  return account_names_.back().second;
}

rules::Balances TableCore::balances(const std::vector<SeatState>& seats, const LiveBalances::Lock& lock) const {
  rules::Balances out;
  out.reserve(seats.size());
  for (const auto& seat : seats)
    out.push_back(seat.player.empty() ? 0 : services_.balances.balance(account_name(seat.player), lock));
  return out;
}

// Asked several times a step (whose clock runs, who must skip, the pushes):
// the seats' stripes are found by name, with no list of names built.
rules::Balances TableCore::balances_now() const {
  std::bitset<LiveBalances::kStripes> stripes;
  stripes.set(LiveBalances::stripe_of(pools_account_prefix_));
  for (const auto& seat : seats())
    if (!seat.player.empty()) stripes.set(LiveBalances::stripe_of(account_name(seat.player)));
  const auto lock = services_.balances.lock_stripes(stripes);
  return balances(seats(), lock);
}

// The accounts a step may move chips between: the seats' players (and those an
// event seats), and the table's pools.
std::vector<std::string> TableCore::accounts_of_step(const Json& event) const {
  std::vector<std::string> accounts{pools_account_prefix_};
  accounts.reserve(seats().size() + 1);
  for (const auto& seat : seats())
    if (!seat.player.empty()) accounts.push_back(account_name(seat.player));
  if (event.is_object()) {
    if (const auto changes = event.find("seats"); changes != event.end() && changes->is_array())
      for (const auto& change : *changes)
        if (const auto player = change.find("player"); player != change.end() && player->is_string())
          accounts.push_back(storage::player_account(player->get<std::string>()));
  }
  return accounts;
}

bool TableCore::is_host(const Caller& who) const { return same_name(who.player, state_.record().host); }

int TableCore::seated_count() const {
  return static_cast<int>(
      std::count_if(seats().begin(), seats().end(), [](const SeatState& s) { return !s.player.empty(); }));
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

// ---------------------------------------------------------------- frames

void TableCore::remember(const Caller& who) {
  if (pushes_.add(who.client, who.player, who.features)) ++summary_version_;
}

// Every member is pushed the table as it stands (PushEncoder).
void TableCore::broadcast(Outbox& out) {
  if (pushes_.empty()) return;
  const auto chips = balances_now();
  const auto seats_now = presence();
  const PushScene scene{state_, info_, chips, seats_now, turn_clock_.push_text(turn_timer_armed()), turn_clock_.settings_text(),
                        [&](int seat, rules::JsonWriter& legal) { write_legal_for(seat, chips, legal); },
                        [&](const std::string& player) { return waiting_position(player); }};
  for (auto& frame : pushes_.encode(scene)) out.frames.push_back(std::move(frame));
}

// What the log allows the seat (TableState::legal_for), less what the table's
// memory rules out: nothing while a step is being written, no second continue.
void TableCore::write_legal_for(int seat, const rules::Balances& chips, rules::JsonWriter& out) const {
  const bool nothing = state_.status() != "playing" || pending_ ||
                       (game()->phase() == rules::Phase::deal_over && continued_.count(seat));
  if (nothing) return out.array([] {});
  state_.write_legal_for(seat, chips, out);
}

Frame TableCore::reply(const Caller& who, Json message) const { return Frame{who.client, text_of(message)}; }

Frame TableCore::error(const Caller& who, const std::string& error_code, const std::string& message) const {
  spdlog::debug("table {}: refused {}'s request: {} ({})", id(), who.player, message, error_code);
  return reply(who, protocol::error_message(who.re, error_code, message));
}

std::vector<std::string> TableCore::holders() const {
  std::vector<std::string> out;
  for (const auto& s : seats())
    if (!s.bot && !s.given_up() && !s.player.empty()) out.push_back(s.player);
  return out;
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
