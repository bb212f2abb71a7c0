#include "server/table/turn_clock.h"

#include "rules/json_writer.h"

#include <algorithm>

namespace parlour::server {

using Json = nlohmann::json;

TurnClock::TurnClock(protocol::Clock settings)
    : settings_(settings), settings_text_(protocol::clock_to_json(settings_).dump()) {}

TurnClock::Order TurnClock::schedule(const std::optional<rules::TurnTimer>& game_limit, const std::set<int>& due,
                                     bool armed, std::int64_t now_ms) {
  if (game_limit) {
    for (auto it = clocks_.begin(); it != clocks_.end();) stop((it++)->first, now_ms);
    armed_for_.reset();
    if (armed && game_limit_ && game_limit->seat == game_limit_->seat && game_limit->turn == game_limit_->turn)
      return {};
    game_limit_ = game_limit;
    const auto limit = std::chrono::milliseconds(std::int64_t{game_limit->seconds} * 1000);
    game_deadline_ms_ = now_ms + limit.count();
    return {Order::What::arm, limit};
  }
  const bool game_limit_was_armed = game_limit_.has_value();
  game_limit_.reset();
  for (auto it = clocks_.begin(); it != clocks_.end();) {
    const int seat = (it++)->first;
    if (!due.count(seat)) stop(seat, now_ms);
  }
  for (int seat : due)
    if (!clocks_.count(seat))
      clocks_[seat] = SeatClock{now_ms, now_ms + std::int64_t{settings_.seconds} * 1000 + bank_left_ms(seat)};
  const auto first = earliest();
  if (!first) {
    armed_for_.reset();
    return armed ? Order{Order::What::cancel, {}} : Order{};
  }
  const std::pair<int, std::int64_t> deadline{first->first, first->second.ends_ms};
  if (armed && !game_limit_was_armed && armed_for_ == deadline) return {};
  armed_for_ = deadline;
  return {Order::What::arm, std::chrono::milliseconds(std::max<std::int64_t>(0, deadline.second - now_ms))};
}

void TurnClock::stop(int seat, std::int64_t now_ms) {
  const auto it = clocks_.find(seat);
  if (it == clocks_.end()) return;
  const auto beyond = now_ms - it->second.started_ms - std::int64_t{settings_.seconds} * 1000;
  if (beyond > 0) bank_used_ms_[seat] += std::min(beyond, bank_left_ms(seat));
  clocks_.erase(it);
}

void TurnClock::pause(bool keep_clocks) {
  game_limit_.reset();
  armed_for_.reset();
  // While a write is in flight the clocks keep their deadlines; the timer is re-armed after it.
  if (!keep_clocks) clocks_.clear();
}

void TurnClock::clear_running() {
  clocks_.clear();
  armed_for_.reset();
}

std::optional<rules::TurnTimer> TurnClock::take_game_limit() {
  auto limit = std::move(game_limit_);
  game_limit_.reset();
  return limit;
}

std::optional<int> TurnClock::take_ran_out(const std::set<int>& due) {
  armed_for_.reset();
  const auto first = earliest();
  if (!first || !due.count(first->first)) return std::nullopt;
  const int seat = first->first;
  clocks_.erase(seat);
  // The deadline held all of the bank that was left: it is spent.
  bank_used_ms_[seat] = std::int64_t{settings_.bank} * 1000;
  return seat;
}

// Written straight to text: a clock runs at most tables, and its text goes in
// every push.
std::string TurnClock::push_text(bool armed) const {
  if (!armed) return {};
  std::string text;
  if (game_limit_) {
    text = R"(,"timer":)";
    text += rules::json_text_of([&](rules::JsonWriter& out) {
      out.object([&] {
        out.field("ends_at", game_deadline_ms_);
        out.field("seat", game_limit_->seat);
        out.field("seconds", game_limit_->seconds);
      });
    });
    return text;
  }
  if (clocks_.empty()) return {};
  // The earliest deadline; "timers" lists every seat's where several are to act at once.
  const auto first = earliest();
  text = R"(,"timer":)";
  text += rules::json_text_of([&](rules::JsonWriter& out) { write_clock(out, first->first, first->second); });
  if (clocks_.size() > 1) {
    text += R"(,"timers":)";
    text += rules::json_text_of([&](rules::JsonWriter& out) {
      out.array([&] {
        for (const auto& [seat, clock] : clocks_) write_clock(out, seat, clock);
      });
    });
  }
  return text;
}

std::int64_t TurnClock::bank_left_ms(int seat) const {
  const auto used = bank_used_ms_.find(seat);
  return std::max<std::int64_t>(0, std::int64_t{settings_.bank} * 1000 - (used == bank_used_ms_.end() ? 0 : used->second));
}

std::optional<std::pair<int, TurnClock::SeatClock>> TurnClock::earliest() const {
  std::optional<std::pair<int, SeatClock>> first;
  for (const auto& [seat, clock] : clocks_)
    if (!first || clock.ends_ms < first->second.ends_ms) first = std::make_pair(seat, clock);
  return first;
}

void TurnClock::write_clock(rules::JsonWriter& out, int seat, const SeatClock& clock) const {
  const auto allowance = clock.ends_ms - clock.started_ms;
  const auto bank = std::max<std::int64_t>(0, allowance - std::int64_t{settings_.seconds} * 1000);
  out.object([&] {
    out.field("bank", bank / 1000);
    out.field("ends_at", clock.ends_ms);
    out.field("seat", seat);
    out.field("seconds", allowance / 1000);
  });
}

}  // namespace parlour::server
