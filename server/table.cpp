#include "server/table.h"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include "rules/random_play.h"
#include "server/tokens.h"

namespace parlour::server {

namespace asio = boost::asio;
namespace code = protocol::code;

namespace {

constexpr std::size_t log_lines_kept = 50;

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

}  // namespace

Table::Table(TableServices services, storage::Table record, const rules::GameInfo& game,
             const std::vector<storage::Event>& events)
    : services_(services),
      strand_(asio::make_strand(services.io)),
      record_(std::move(record)),
      info_(game),
      options_(Json::parse(record_.options_json)),
      bot_timer_(strand_),
      bot_rng_(random_seed()),
      turn_timer_(strand_) {
  for (const auto& seat : record_.seats) seats_.push_back({seat.player, seat.bot, seat.bot_level, false});
  replay(events);
  refresh_summary();
}

// ---------------------------------------------------------------- requests

template <typename F>
void Table::on_strand(F&& f) {
  asio::post(strand_, [self = shared_from_this(), f = std::forward<F>(f)]() mutable { f(); });
}

void Table::enqueue(std::function<void()> op) {
  on_strand([this, op = std::move(op)]() mutable {
    queue_.push_back(std::move(op));
    run_queued();
  });
}

void Table::run_queued() {
  while (!committing_ && !queue_.empty()) {
    auto op = std::move(queue_.front());
    queue_.pop_front();
    op();
  }
}

void Table::join(Requester who, std::optional<int> seat) {
  enqueue([this, who, seat] { join_now(who, seat); });
}
void Table::watch(Requester who) {
  enqueue([this, who] {
    remember(who.client);
    reply(who, protocol::reply("watching", who.re, {{"table", id()}}));
    refresh_summary();
    send_state(*who.client, who.client->player());
  });
}
void Table::leave(Requester who) {
  enqueue([this, who] { leave_now(who); });
}
void Table::add_bot(Requester who, std::optional<int> seat, int level) {
  enqueue([this, who, seat, level] { add_bot_now(who, seat, level); });
}
void Table::start(Requester who) {
  enqueue([this, who] { start_now(who); });
}
void Table::end(Requester who) {
  enqueue([this, who] { end_now(who); });
}
void Table::act(Requester who, Json action) {
  enqueue([this, who, action = std::move(action)] { act_now(who, action); });
}
void Table::disconnected(std::shared_ptr<Client> client) {
  on_strand([this, client] {
    const auto before = audience_.size();
    std::erase_if(audience_, [&](const Member& m) {
      auto c = m.client.lock();
      return !c || c == client;
    });
    if (audience_.size() != before) {
      refresh_summary();
      if (!committing_) broadcast();
    }
  });
}

void Table::join_now(const Requester& who, std::optional<int> wanted) {
  const std::string player = who.client->player();
  if (auto held = seat_of(player)) {
    remember(who.client);
    reply(who, protocol::reply("joined", who.re, {{"table", id()}, {"seat", *held}}));
    refresh_summary();
    broadcast();
    return;
  }
  if (record_.status != "waiting")
    return fail(who, code::conflict, "the game at table " + id() + " has started; you can watch it");
  int seat = -1;
  if (wanted) {
    if (*wanted >= static_cast<int>(seats_.size()))
      return fail(who, code::bad_request,
                  "seat " + std::to_string(*wanted) + " does not exist; seats are 0 to " +
                      std::to_string(seats_.size() - 1));
    if (!seats_[*wanted].player.empty())
      return fail(who, code::conflict, "seat " + std::to_string(*wanted) + " is taken");
    seat = *wanted;
  } else {
    auto free = std::find_if(seats_.begin(), seats_.end(), [](const SeatInfo& s) { return s.player.empty(); });
    if (free == seats_.end()) return fail(who, code::table_full, "every seat at table " + id() + " is taken");
    seat = static_cast<int>(free - seats_.begin());
  }
  seats_[seat] = SeatInfo{player, false, 0, false};
  remember(who.client);
  Step step;
  step.seats_changed = true;
  commit(std::move(step), [this, who, seat](bool ok) {
    if (ok) reply(who, protocol::reply("joined", who.re, {{"table", id()}, {"seat", seat}}));
    spdlog::info("table {}: {} takes seat {}", id(), who.client->player(), seat);
  });
}

void Table::leave_now(const Requester& who) {
  const std::string player = who.client->player();
  std::erase_if(audience_, [&](const Member& m) {
    auto c = m.client.lock();
    return !c || c == who.client;
  });
  const auto seat = seat_of(player);
  if (!seat || record_.status == "finished") {
    reply(who, protocol::reply("left", who.re, {{"table", id()}}));
    refresh_summary();
    return broadcast();
  }
  Step step;
  if (record_.status == "waiting") {
    seats_[*seat] = SeatInfo{};
  } else {
    seats_[*seat].left = true;
    Json event = {{"kind", "leave"}, {"seat", *seat}};
    step.postings = apply_event(event, false);
    step.event = event;
  }
  step.seats_changed = true;
  spdlog::info("table {}: {} leaves seat {}", id(), player, *seat);
  commit(std::move(step), [this, who](bool ok) {
    if (ok) reply(who, protocol::reply("left", who.re, {{"table", id()}}));
  });
}

void Table::add_bot_now(const Requester& who, std::optional<int> wanted, int level) {
  if (!is_host(who)) return fail(who, code::forbidden, "only the host, " + record_.host + ", can seat a bot");
  if (record_.status != "waiting") return fail(who, code::conflict, "bots are seated before play starts");
  int seat = -1;
  if (wanted) {
    if (*wanted >= static_cast<int>(seats_.size()))
      return fail(who, code::bad_request, "seat " + std::to_string(*wanted) + " does not exist");
    if (!seats_[*wanted].player.empty()) return fail(who, code::conflict, "seat " + std::to_string(*wanted) + " is taken");
    seat = *wanted;
  } else {
    auto free = std::find_if(seats_.begin(), seats_.end(), [](const SeatInfo& s) { return s.player.empty(); });
    if (free == seats_.end()) return fail(who, code::table_full, "every seat at table " + id() + " is taken");
    seat = static_cast<int>(free - seats_.begin());
  }
  const std::string name = "bot-" + id() + "-" + std::to_string(seat);
  seats_[seat] = SeatInfo{name, true, level, false};
  Step step;
  step.seats_changed = true;
  {
    auto lock = services_.bank.lock();
    const auto account = storage::player_account(name);
    if (services_.bank.balance(account, lock) == 0 && services_.config.starting_chips > 0) {
      step.postings.push_back({storage::bank_account(), account, services_.config.starting_chips,
                               "starting chips (bot)", id(), info_.id});
      services_.bank.apply(step.postings, lock);
    }
  }
  spdlog::info("table {}: {} seats bot {} at seat {}", id(), who.client->player(), name, seat);
  commit(std::move(step), [this, who, seat, name](bool ok) {
    if (ok) reply(who, protocol::reply("ok", who.re, {{"table", id()}, {"seat", seat}, {"player", name}}));
  });
}

void Table::start_now(const Requester& who) {
  if (!is_host(who)) return fail(who, code::forbidden, "only the host, " + record_.host + ", can start the game");
  if (record_.status != "waiting") return fail(who, code::conflict, "the game has already started");
  const int seated = seated_count();
  const int most = info_.max_players_with(options_);
  if (seated < info_.min_players || seated > most)
    return fail(who, code::conflict,
                info_.name + " needs " + std::to_string(info_.min_players) + " to " + std::to_string(most) +
                    " players; " + std::to_string(seated) + " seated");
  // Play uses the occupied seats only, renumbered in order.
  std::erase_if(seats_, [](const SeatInfo& s) { return s.player.empty(); });
  Json event = {{"kind", "start"}};
  Step step;
  try {
    step.postings = apply_event(event, false);
  } catch (const std::exception& e) {
    return fail(who, code::bad_request, std::string("cannot start: ") + e.what());
  }
  record_.status = "playing";
  step.event = event;
  step.seats_changed = step.status_changed = true;
  spdlog::info("table {}: {} starts {} with {} players", id(), record_.host, info_.id, seated);
  commit(std::move(step), [this, who](bool ok) {
    if (ok) reply(who, protocol::reply("ok", who.re, {{"seq", seq_}}));
  });
}

void Table::end_now(const Requester& who) {
  if (!is_host(who)) return fail(who, code::forbidden, "only the host, " + record_.host + ", can end the table");
  if (record_.status == "finished") return fail(who, code::conflict, "the table has already ended");
  if (record_.status == "waiting") {
    record_.status = "finished";
    Step step;
    step.status_changed = true;
    spdlog::info("table {}: ended by the host before play", id());
    return commit(std::move(step), [this, who](bool ok) {
      if (ok) reply(who, protocol::reply("ok", who.re, {{"seq", seq_}}));
    });
  }
  ending_ = true;
  spdlog::info("table {}: the host ends the table after this deal", id());
  add_log({"The host ends the table after this deal."});
  reply(who, protocol::reply("ok", who.re, {{"seq", seq_}}));
  if (game_ && game_->phase() != rules::Phase::playing) after_step();
  broadcast();
}

void Table::act_now(const Requester& who, const Json& action) {
  if (record_.status != "playing")
    return fail(who, code::conflict, record_.status == "waiting" ? "the game has not started" : "the table has ended");
  const auto seat = seat_of(who.client->player());
  if (!seat || seats_[*seat].left) return fail(who, code::forbidden, "you hold no seat in this game");
  Json event = {{"kind", "act"}, {"seat", *seat}, {"action", action}};
  Step step;
  try {
    step.postings = apply_event(event, false);
  } catch (const rules::RulesError& e) {
    return fail(who, e.code(), name_seats(e.what()));
  }
  step.event = event;
  step.result_settled = game_->phase() != rules::Phase::playing;
  commit(std::move(step), [this, who, action](bool ok) {
    if (!ok) return;
    spdlog::info("table {}: #{} {} plays {}", id(), seq_, who.client->player(), action.dump());
    reply(who, protocol::reply("ok", who.re, {{"seq", seq_}}));
  });
}

// ---------------------------------------------------------------- steps

std::vector<storage::Posting> Table::apply_event(Json& event, bool replaying) {
  auto lock = services_.bank.lock();
  rules::Balances chips = replaying ? event.at("balances").get<rules::Balances>() : balances(lock);
  const std::string kind = event.at("kind");
  rules::Effects effects;
  if (kind == "start") {
    rules::GameSetup setup{options_, static_cast<int>(seats_.size()), record_.seed, std::nullopt, chips};
    if (!record_.deck_json.empty()) {
      std::vector<rules::Card> deck;
      for (const auto& card : Json::parse(record_.deck_json)) deck.push_back(*rules::parse_card(card.get<std::string>()));
      setup.stacked_deck = std::move(deck);
    }
    auto game = rules::Registry::create(info_, std::move(setup));
    effects = game->start_next_deal(chips);
    game_ = std::move(game);
  } else if (kind == "deal") {
    effects = game_->start_next_deal(chips);
  } else if (kind == "act") {
    effects = game_->apply(event.at("seat").get<int>(), event.at("action"), chips);
  } else if (kind == "leave") {
    effects = game_->seat_left(event.at("seat").get<int>(), chips);
  } else if (kind == "close") {
    effects = game_->close(chips);
  } else {
    throw std::runtime_error("unknown event kind '" + kind + "'");
  }
  if (!replaying) event["balances"] = chips;
  auto postings = to_postings(effects.transfers);
  if (!replaying) services_.bank.apply(postings, lock);
  lock.unlock();
  add_log(effects.log);
  return postings;
}

void Table::commit(Step step, std::function<void(bool ok)> after) {
  storage::TableWrite write;
  write.table = id();
  if (step.event) write.event = storage::Event{++seq_, step.event->dump()};
  write.postings = step.postings;
  if (step.status_changed) write.status = record_.status;
  if (step.seats_changed) write.seats = stored_seats();
  if (step.result_settled && game_ && !game_->result().is_null()) write.result_json = game_->result().dump();
  committing_ = true;
  auto self = shared_from_this();
  services_.writer.commit(std::move(write), [self, postings = std::move(step.postings), after = std::move(after)](
                                                bool ok, const std::string& error) mutable {
    asio::post(self->strand_, [self, ok, error, postings = std::move(postings), after = std::move(after)] {
      self->committing_ = false;
      if (!ok) {
        spdlog::error("table {}: a step could not be saved and is undone: {}", self->id(), error);
        self->services_.bank.revert(postings);
        self->rebuild_after_failure();
      }
      after(ok);
      self->refresh_summary();
      self->broadcast();
      if (ok) self->after_step();
      self->run_queued();
    });
  });
}

// What happens by itself after a step: the next deal, or the end of the table.
void Table::after_step() {
  if (committing_ || !game_ || record_.status != "playing") return;
  const auto phase = game_->phase();
  if (phase == rules::Phase::playing) return schedule_bots();
  if (phase == rules::Phase::game_over || ending_) return finish_table();
  Json event = {{"kind", "deal"}};
  Step step;
  step.postings = apply_event(event, false);
  step.event = event;
  step.result_settled = game_->phase() == rules::Phase::game_over;
  commit(std::move(step), [](bool) {});
}

void Table::finish_table() {
  Json event = {{"kind", "close"}};
  Step step;
  step.postings = apply_event(event, false);
  step.event = event;
  record_.status = "finished";
  step.status_changed = true;
  step.result_settled = true;
  spdlog::info("table {}: finished after {} deals", id(), game_->deals_played());
  commit(std::move(step), [](bool) {});
}

void Table::replay(const std::vector<storage::Event>& events) {
  for (const auto& event : events) {
    auto parsed = Json::parse(event.json);
    apply_event(parsed, true);
    seq_ = event.seq;
  }
  if (!events.empty()) spdlog::info("table {}: replayed {} events, seq {}", id(), events.size(), seq_);
}

void Table::rebuild_after_failure() {
  // The database is the truth: reload the seats and status and replay the log.
  storage::Database reader(services_.config.db);
  auto stored = reader.find_table(id());
  if (!stored) return;
  record_ = *stored;
  seats_.clear();
  for (const auto& seat : record_.seats) seats_.push_back({seat.player, seat.bot, seat.bot_level, false});
  game_.reset();
  seq_ = 0;
  log_.clear();
  replay(reader.events(id()));
}

// ---------------------------------------------------------------- helpers

std::string Table::account_of(int seat) const { return storage::player_account(seats_[seat].player); }

rules::Balances Table::balances(const Bank::Lock& lock) const {
  rules::Balances out;
  for (int seat = 0; seat < static_cast<int>(seats_.size()); ++seat)
    out.push_back(seats_[seat].player.empty() ? 0 : services_.bank.balance(account_of(seat), lock));
  return out;
}

std::optional<int> Table::seat_of(const std::string& player) const {
  if (player.empty()) return std::nullopt;
  const auto wanted = lower(player);
  for (int seat = 0; seat < static_cast<int>(seats_.size()); ++seat)
    if (!seats_[seat].bot && lower(seats_[seat].player) == wanted) return seat;
  return std::nullopt;
}

bool Table::is_host(const Requester& who) const { return lower(who.client->player()) == lower(record_.host); }

int Table::seated_count() const {
  return static_cast<int>(std::count_if(seats_.begin(), seats_.end(), [](const SeatInfo& s) { return !s.player.empty(); }));
}

std::vector<storage::Seat> Table::stored_seats() const {
  std::vector<storage::Seat> out;
  for (int seat = 0; seat < static_cast<int>(seats_.size()); ++seat)
    out.push_back({seat, seats_[seat].player, seats_[seat].bot, seats_[seat].bot_level});
  return out;
}

std::vector<storage::Posting> Table::to_postings(const std::vector<rules::Transfer>& transfers) const {
  std::vector<storage::Posting> out;
  auto account = [&](const rules::Account& a) {
    return a.is_seat() ? account_of(a.seat) : storage::pool_account(id(), a.pool);
  };
  for (const auto& t : transfers) out.push_back({account(t.from), account(t.to), t.amount, t.memo, id(), info_.id});
  return out;
}

std::string Table::name_seats(const std::string& line) const {
  std::string out = line;
  for (int seat = 0; seat < static_cast<int>(seats_.size()); ++seat) {
    const std::string tag = rules::seat_tag(seat);
    const std::string name = seats_[seat].player.empty() ? "seat " + std::to_string(seat) : seats_[seat].player;
    for (auto pos = out.find(tag); pos != std::string::npos; pos = out.find(tag, pos + name.size()))
      out.replace(pos, tag.size(), name);
  }
  return out;
}

void Table::add_log(const std::vector<std::string>& lines) {
  for (const auto& line : lines) {
    log_.push_back(name_seats(line));
    if (log_.size() > log_lines_kept) log_.pop_front();
  }
}

void Table::remember(const std::shared_ptr<Client>& client) {
  for (const auto& m : audience_)
    if (m.client.lock() == client) return;
  audience_.push_back({client, client->player()});
}

void Table::reply(const Requester& who, Json message) const {
  who.client->send(std::make_shared<const std::string>(message.dump()));
}

void Table::fail(const Requester& who, const std::string& error_code, const std::string& message) const {
  spdlog::debug("table {}: refused {}'s request: {} ({})", id(), who.client->player(), message, error_code);
  reply(who, protocol::error_message(who.re, error_code, message));
}

// ---------------------------------------------------------------- states

void Table::broadcast() {
  schedule_turn_timer();
  std::erase_if(audience_, [](const Member& m) { return m.client.expired(); });
  for (const auto& member : audience_)
    if (auto client = member.client.lock()) send_state(*client, member.player);
  schedule_bots();
}

void Table::send_state(Client& client, const std::string& player) {
  rules::Balances chips;
  {
    auto lock = services_.bank.lock();
    chips = balances(lock);
  }
  Json players = Json::array();
  for (int seat = 0; seat < static_cast<int>(seats_.size()); ++seat) {
    const auto& s = seats_[seat];
    if (s.player.empty()) continue;
    bool connected = s.bot;
    for (const auto& m : audience_)
      if (!s.bot && lower(m.player) == lower(s.player) && !m.client.expired()) connected = true;
    players.push_back({{"seat", seat}, {"player", s.player}, {"chips", chips[seat]}, {"connected", connected && !s.left},
                       {"bot", s.bot}});
  }
  Json common = {{"type", "state"},       {"table", id()},      {"game", info_.id},  {"seq", seq_},
                 {"status", record_.status}, {"host", record_.host}, {"players", players},
                 {"log", log_}};
  common["invite"] = record_.invite;  // any seated player may share the table
  if (armed_timer_)
    common["timer"] = {{"seat", armed_timer_->seat}, {"seconds", armed_timer_->seconds}, {"ends_at", deadline_ms_}};
  const auto seat = seat_of(player);
  client.send(std::make_shared<const std::string>(state_for(seat, common, chips).dump()));
}

Json Table::state_for(std::optional<int> seat, const Json& common, const rules::Balances& chips) const {
  Json state = common;
  state["seat"] = seat ? Json(*seat) : Json();
  if (!game_) {
    state["view"] = {{"seats", static_cast<int>(seats_.size())}, {"options", options_}};
    state["to_act"] = Json::array();
    state["legal"] = Json::array();
    return state;
  }
  const auto acting = game_->to_act();
  state["view"] = game_->view(seat);
  state["to_act"] = acting;
  const bool my_turn = seat && !seats_[*seat].left && record_.status == "playing" &&
                       std::find(acting.begin(), acting.end(), *seat) != acting.end();
  state["legal"] = my_turn ? game_->legal_actions(*seat, chips) : Json::array();
  auto result = game_->result();
  if (!result.is_null()) state["result"] = result;
  return state;
}

void Table::refresh_summary() {
  Json seats = Json::array();
  int spectators = 0;
  for (const auto& m : audience_)
    if (!m.client.expired() && !seat_of(m.player)) ++spectators;
  for (int seat = 0; seat < static_cast<int>(seats_.size()); ++seat) {
    const auto& s = seats_[seat];
    bool connected = s.bot;
    for (const auto& m : audience_)
      if (!s.player.empty() && !s.bot && lower(m.player) == lower(s.player) && !m.client.expired()) connected = true;
    seats.push_back({{"seat", seat},
                     {"player", s.player.empty() ? Json() : Json(s.player)},
                     {"bot", s.bot},
                     {"connected", connected}});
  }
  Json summary = {{"table", id()},     {"game", info_.id}, {"options", options_},       {"host", record_.host},
                  {"status", record_.status}, {"seats", seats},  {"spectators", spectators}};
  std::lock_guard lock(summary_mutex_);
  summary_ = std::move(summary);
}

Json Table::summary() const {
  std::lock_guard lock(summary_mutex_);
  return summary_;
}

bool Table::finished() const {
  std::lock_guard lock(summary_mutex_);
  return summary_.value("status", "") == "finished";
}

// ---------------------------------------------------------------- bots

void Table::schedule_bots() {
  if (bot_pending_ || committing_ || !game_ || record_.status != "playing") return;
  if (game_->phase() != rules::Phase::playing) return;
  for (int seat : game_->to_act()) {
    if (!seats_[seat].bot) continue;
    bot_pending_ = true;
    bot_timer_.expires_after(std::chrono::milliseconds(services_.config.bot_delay_ms));
    bot_timer_.async_wait([self = shared_from_this(), seat](const boost::system::error_code& ec) {
      self->bot_pending_ = false;
      if (!ec) self->enqueue([self, seat] { self->bot_move(seat); });
    });
    return;
  }
}

void Table::bot_move(int seat) {
  if (!game_ || record_.status != "playing" || game_->phase() != rules::Phase::playing) return;
  const auto acting = game_->to_act();
  if (std::find(acting.begin(), acting.end(), seat) == acting.end()) return schedule_bots();
  Json legal;
  {
    auto lock = services_.bank.lock();
    legal = game_->legal_actions(seat, balances(lock));
  }
  if (legal.empty()) return;
  act_for(seat, rules::random_legal_action(legal, bot_rng_), "bot");
}

void Table::act_for(int seat, const Json& action, const char* why) {
  Json event = {{"kind", "act"}, {"seat", seat}, {"action", action}};
  Step step;
  try {
    step.postings = apply_event(event, false);
  } catch (const rules::RulesError& e) {
    spdlog::error("table {}: {} action {} for seat {} refused: {}", id(), why, action.dump(), seat, e.what());
    return;
  }
  step.event = event;
  step.result_settled = game_->phase() != rules::Phase::playing;
  commit(std::move(step), [](bool) {});
}

// ---------------------------------------------------------------- turn timers

// Checks the game's turn timer after every step: a new turn gets a new deadline,
// a step within the same turn keeps it. A restart re-arms it in full: the log
// records steps, not clocks.
void Table::schedule_turn_timer() {
  if (armed_at_seq_ == seq_) return;
  armed_at_seq_ = seq_;
  std::optional<rules::TurnTimer> timer;
  if (game_ && record_.status == "playing" && game_->phase() == rules::Phase::playing) timer = game_->turn_timer();
  if (timer && armed_timer_ && timer->seat == armed_timer_->seat && timer->turn == armed_timer_->turn) return;
  armed_timer_ = timer;
  ++timer_generation_;
  turn_timer_.cancel();
  if (!timer) return;
  const auto limit = std::chrono::seconds(timer->seconds);
  deadline_ms_ = std::chrono::duration_cast<std::chrono::milliseconds>(
                     (std::chrono::system_clock::now() + limit).time_since_epoch()).count();
  turn_timer_.expires_after(limit);
  turn_timer_.async_wait([self = shared_from_this(), generation = timer_generation_](const boost::system::error_code& ec) {
    if (!ec) self->enqueue([self, generation] { self->turn_timed_out(generation); });
  });
}

void Table::turn_timed_out(std::uint64_t generation) {
  if (generation != timer_generation_ || !armed_timer_ || !game_ || record_.status != "playing" ||
      game_->phase() != rules::Phase::playing)
    return;
  const auto timer = *armed_timer_;
  const auto current = game_->turn_timer();
  if (!current || current->seat != timer.seat || current->turn != timer.turn) return;
  spdlog::info("table {}: seat {}'s {} s turn ran out; the server plays {}", id(), timer.seat, timer.seconds,
               timer.action.dump());
  act_for(timer.seat, timer.action, "timed-out");
}

}  // namespace parlour::server
