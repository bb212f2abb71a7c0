// What a table does by itself: the next deal, bots' moves, the turn clock and
// its default moves, a table where nobody can act, and an idle table's expiry.
// Part of TableCore (server/table/table_core.h): every automatic step is an
// event of the log like a player's, written through the same pipeline.
#include <algorithm>
#include <spdlog/spdlog.h>

#include "rules/random_play.h"
#include "server/common/names.h"
#include "server/table/table_core.h"
#include "server/table/table_core_parts.h"

namespace parlour::server {

namespace code = protocol::code;

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

// A player who cannot cover any action (his chips went elsewhere) is offered
// only `skip`; the table plays it for him rather than wait on a formality.
std::optional<int> TableCore::seat_that_must_skip() const {
  const auto chips = balances_now();
  for (int seat : game()->to_act()) {
    const auto legal = game()->legal_shape(seat, chips);
    if (legal.size() == 1 && legal.first_type() == "skip") return seat;
  }
  return std::nullopt;
}

bool TableCore::nobody_can_act() const {
  if (game()->turn_timer()) return false;
  const auto acting = game()->to_act();
  const auto chips = balances_now();
  return std::none_of(acting.begin(), acting.end(), [&](int seat) {
    return !seats()[seat].left && game()->legal_shape(seat, chips).size() > 0;
  });
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

TimerOrder TableCore::arm(TimerKind kind, std::chrono::milliseconds after) {
  timer_token_[static_cast<std::size_t>(kind)] = ++last_token_;
  return TimerOrder{kind, after, last_token_};
}

TimerOrder TableCore::cancel(TimerKind kind) {
  timer_token_[static_cast<std::size_t>(kind)] = 0;
  return TimerOrder{kind, std::nullopt, 0};
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
    if (game()->legal_shape(seat, chips).size() > 0) due.insert(seat);
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

std::vector<int> TableCore::humans_awaited_at_deal_end() const {
  std::vector<int> out;
  for (int seat = 0; seat < static_cast<int>(seats().size()); ++seat)
    if (human_connected(seat) && !memory_[seat].away && !continued_.count(seat)) out.push_back(seat);
  return out;
}

}  // namespace parlour::server
