#include "tests/rules/harness.h"

#include "rules/snapshot.h"

namespace parlour::test {

std::vector<rules::Card> cards(const std::vector<std::string>& names) {
  std::vector<rules::Card> out;
  for (const auto& name : names) {
    auto card = rules::parse_card(name);
    REQUIRE_MESSAGE(card.has_value(), "not a card: " << name);
    out.push_back(*card);
  }
  return out;
}

const Json& view_pile(const Json& view, const std::string& id) {
  static const Json none;
  if (view.contains("piles"))
    for (const auto& pile : view["piles"])
      if (pile.value("id", "") == id) return pile;
  FAIL("the view has no pile '" << id << "': " << view.dump());
  return none;
}

Harness::Harness(const std::string& game, Json options, std::vector<std::int64_t> chips, std::uint64_t seed,
                 std::optional<std::vector<rules::Card>> deck, std::optional<int> first_dealer)
    : chips_(std::move(chips)) {
  const auto* info = rules::Registry::builtin().find(game);
  REQUIRE(info != nullptr);
  rules::GameSetup setup{std::move(options), static_cast<int>(chips_.size()), seed, std::move(deck), chips_,
                         first_dealer};
  info_ = info;
  setup_ = setup;
  game_ = rules::Registry::create(*info, std::move(setup));
  next_deal();
}

void Harness::spoilt_snapshots_refused(const std::vector<std::string>& seat_fields) const {
  const auto snapshot = game_->snapshot();
  for (const auto& [key, value] : snapshot.items()) {
    auto broken = snapshot;
    broken.erase(key);
    CHECK_THROWS_AS(restored(broken), rules::SnapshotError);
  }
  for (const auto& key : seat_fields) {
    auto broken = snapshot;
    broken[key] = 99;
    CHECK_THROWS_AS(restored(broken), rules::SnapshotError);
  }
}

std::unique_ptr<rules::GameState> Harness::restored(const Json& snapshot) const {
  REQUIRE_MESSAGE(setup_.has_value(), "only a harness that created its game knows its setup");
  return rules::Registry::restore(*info_, *setup_, snapshot);
}

Harness::Harness(std::unique_ptr<rules::GameState> game, std::vector<std::int64_t> chips)
    : game_(std::move(game)), chips_(std::move(chips)) {
  next_deal();
}

std::int64_t Harness::pool(const std::string& name) const {
  auto it = pools_.find(name);
  return it == pools_.end() ? 0 : it->second;
}

std::int64_t Harness::total() const {
  std::int64_t sum = 0;
  for (auto c : chips_) sum += c;
  for (const auto& [name, amount] : pools_) sum += amount;
  return sum;
}

rules::Effects Harness::record(rules::Effects effects) {
  for (const auto& t : effects.transfers) {
    REQUIRE(t.amount > 0);
    auto& from = t.from.is_seat() ? chips_[t.from.seat] : pools_[t.from.pool];
    auto& to = t.to.is_seat() ? chips_[t.to.seat] : pools_[t.to.pool];
    from -= t.amount;
    to += t.amount;
    CHECK_MESSAGE(from >= 0, "an account went below zero: " << t.memo);
  }
  return effects;
}

rules::Effects Harness::act(int seat, const Json& action) { return record(game_->apply(seat, action, chips_)); }
rules::Effects Harness::next_deal() { return record(game_->start_next_deal(chips_)); }
rules::Effects Harness::leave(int seat) { return record(game_->seat_left(seat, chips_)); }
rules::Effects Harness::close() { return record(game_->close(chips_)); }

std::string Harness::refusal(int seat, const Json& action) {
  std::vector<Json> views_before;
  for (int s = 0; s < static_cast<int>(chips_.size()); ++s) views_before.push_back(game_->view(s));
  const auto chips_before = chips_;
  std::string code = "accepted";
  try {
    act(seat, action);
  } catch (const rules::RulesError& e) {
    code = e.code();
  }
  for (int s = 0; s < static_cast<int>(chips_.size()); ++s) CHECK(game_->view(s) == views_before[s]);
  CHECK(chips_ == chips_before);
  return code;
}

}  // namespace parlour::test
