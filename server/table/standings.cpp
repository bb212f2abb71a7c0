#include "server/table/standings.h"

#include <algorithm>

#include "rules/snapshot.h"

namespace parlour::server {

namespace {

// An array of one integer per seat, or nothing.
std::optional<std::vector<std::int64_t>> per_seat_integers(const nlohmann::json& value, std::size_t seats) {
  if (!value.is_array() || value.size() != seats) return std::nullopt;
  std::vector<std::int64_t> out;
  for (const auto& entry : value) {
    if (!entry.is_number_integer()) return std::nullopt;
    out.push_back(entry.get<std::int64_t>());
  }
  return out;
}

}  // namespace

void Standings::start(int seats) {
  const auto n = static_cast<std::size_t>(std::max(seats, 0));
  chips_.assign(n, 0);
  deals_won_.assign(n, 0);
  running_.assign(n, 0);
  summed_points_.assign(n, 0);
  deals_ = 0;
  former_.clear();
  last_deal_.reset();
  has_running_ = has_points_ = false;
}

void Standings::seat_changes_hands(int seat, const std::string& player, bool bot) {
  if (seat < 0 || seat >= static_cast<int>(chips_.size())) return;
  if (!player.empty()) {
    Json entry = {{"seat", seat}, {"player", player}, {"bot", bot}, {"chips", chips_[seat]},
                  {"deals_won", deals_won_[seat]}, {"left", true}};
    if (auto points = score(seat)) entry["score"] = *points;
    former_.push_back(std::move(entry));
  }
  chips_[seat] = 0;
  deals_won_[seat] = 0;
  running_[seat] = 0;
  summed_points_[seat] = 0;
}

void Standings::add_transfers(const std::vector<rules::Transfer>& transfers) {
  const auto seats = static_cast<int>(chips_.size());
  for (const auto& t : transfers) {
    if (t.from.is_seat() && t.from.seat < seats) chips_[t.from.seat] -= t.amount;
    if (t.to.is_seat() && t.to.seat < seats) chips_[t.to.seat] += t.amount;
  }
}

// A deal is won by each seat that came out of it ahead in chips; in a deal
// where no chips moved (games that pay only at the end), by the seats with the
// deal's highest points, if above zero. Results the server cannot read as
// expected count as a deal nobody won: the standings never fail a table.
void Standings::add_settled_deal(const Json& result) {
  if (!started() || !result.is_object()) return;
  const auto deal = result.find("deal");
  if (deal == result.end() || !deal->is_number_integer()) return;
  if (last_deal_ && *last_deal_ >= deal->get<std::int64_t>()) return;
  last_deal_ = deal->get<std::int64_t>();
  ++deals_;

  const auto n = chips_.size();
  std::vector<std::int64_t> deal_chips(n, 0);
  std::vector<std::optional<std::int64_t>> deal_points(n);
  if (const auto seats = result.find("seats"); seats != result.end() && seats->is_array()) {
    for (const auto& entry : *seats) {
      if (!entry.is_object() || !entry.contains("seat") || !entry["seat"].is_number_integer()) continue;
      const auto seat = entry["seat"].get<std::int64_t>();
      if (seat < 0 || seat >= static_cast<std::int64_t>(n)) continue;
      if (entry.contains("chips") && entry["chips"].is_number_integer()) deal_chips[seat] = entry["chips"].get<std::int64_t>();
      if (entry.contains("points") && entry["points"].is_number_integer()) deal_points[seat] = entry["points"].get<std::int64_t>();
    }
  }
  const bool chips_moved = std::any_of(deal_chips.begin(), deal_chips.end(), [](std::int64_t c) { return c != 0; });
  if (chips_moved) {
    for (std::size_t seat = 0; seat < n; ++seat)
      if (deal_chips[seat] > 0) ++deals_won_[seat];
  } else {
    std::optional<std::int64_t> best;
    for (const auto& points : deal_points)
      if (points && (!best || *points > *best)) best = points;
    if (best && *best > 0)
      for (std::size_t seat = 0; seat < n; ++seat)
        if (deal_points[seat] == best) ++deals_won_[seat];
  }

  for (std::size_t seat = 0; seat < n; ++seat) {
    if (!deal_points[seat]) continue;
    summed_points_[seat] += *deal_points[seat];
    has_points_ = true;
  }
  for (const char* key : {"final_scores", "scores"}) {
    if (!result.contains(key)) continue;
    if (auto scores = per_seat_integers(result[key], n)) {
      running_ = std::move(*scores);
      has_running_ = true;
      break;
    }
  }
}

std::optional<std::int64_t> Standings::score(int seat) const {
  if (has_running_) return running_.at(seat);
  if (has_points_) return summed_points_.at(seat);
  return std::nullopt;
}

Standings::Json Standings::to_json(const std::vector<std::string>& names, const std::vector<bool>& bots) const {
  Json players = Json::array();
  for (int seat = 0; seat < static_cast<int>(chips_.size()); ++seat) {
    const bool held = seat < static_cast<int>(names.size()) && !names[seat].empty();
    if (!held && chips_[seat] == 0 && deals_won_[seat] == 0) continue;
    Json entry = {{"seat", seat},
                  {"player", held ? Json(names[seat]) : Json()},
                  {"bot", seat < static_cast<int>(bots.size()) && bots[seat]},
                  {"chips", chips_[seat]},
                  {"deals_won", deals_won_[seat]}};
    if (auto points = score(seat)) entry["score"] = *points;
    players.push_back(std::move(entry));
  }
  for (const auto& entry : former_) players.push_back(entry);
  return {{"deals", deals_}, {"players", std::move(players)}};
}

Standings::Json Standings::snapshot() const {
  return {{"chips", chips_},
          {"deals_won", deals_won_},
          {"deals", deals_},
          {"last_deal", last_deal_ ? Json(*last_deal_) : Json()},
          {"running", running_},
          {"has_running", has_running_},
          {"summed_points", summed_points_},
          {"has_points", has_points_},
          {"former", former_}};
}

Standings Standings::restore(const Json& snapshot) {
  using rules::field;
  Standings out;
  out.chips_ = field<std::vector<std::int64_t>>(snapshot, "chips");
  const auto seats = out.chips_.size();
  out.deals_won_ = field<std::vector<int>>(snapshot, "deals_won");
  out.deals_ = field<int>(snapshot, "deals");
  out.last_deal_ = rules::optional_field<std::int64_t>(snapshot, "last_deal");
  out.running_ = field<std::vector<std::int64_t>>(snapshot, "running");
  out.has_running_ = field<bool>(snapshot, "has_running");
  out.summed_points_ = field<std::vector<std::int64_t>>(snapshot, "summed_points");
  out.has_points_ = field<bool>(snapshot, "has_points");
  out.former_ = field<std::vector<Json>>(snapshot, "former");
  if (out.deals_won_.size() != seats || out.running_.size() != seats || out.summed_points_.size() != seats)
    throw rules::SnapshotError("the standings' per-seat lists differ in length");
  return out;
}

}  // namespace parlour::server
