#include "tests/rules/strong_guarantee.h"

#include <algorithm>
#include <exception>
#include <limits>
#include <optional>

#include "rules/action.h"
#include "rules/cards.h"
#include "rules/random_play.h"

namespace parlour::test {

namespace {

Json effects_json(const rules::Effects& effects) {
  Json transfers = Json::array();
  for (const auto& t : effects.transfers)
    transfers.push_back({t.from.seat, t.from.pool, t.to.seat, t.to.pool, t.amount, t.memo});
  return {{"transfers", transfers}, {"log", effects.log}};
}

void keep_balances(rules::Balances& balances, const rules::Effects& effects) {
  for (const auto& t : effects.transfers) {
    if (t.from.is_seat()) balances.at(t.from.seat) -= t.amount;
    if (t.to.is_seat()) balances.at(t.to.seat) += t.amount;
  }
}

std::string compared(const std::string& what, const Json& a, const Json& b) {
  if (a == b) return {};
  return what + " differ:\n  " + a.dump() + "\n  " + b.dump();
}

// One step of both states, the same for each: the next deal, or a random legal
// action of a seat to act. Returns the first difference in the effects.
std::string step_both(rules::GameState& a, rules::GameState& b, rules::Balances& balances, rules::Rng& rng) {
  if (a.phase() == rules::Phase::deal_over) {
    const auto ea = a.start_next_deal(balances);
    const auto eb = b.start_next_deal(balances);
    keep_balances(balances, ea);
    return compared("the next deal's effects", effects_json(ea), effects_json(eb));
  }
  const auto acting = a.to_act();
  if (acting.empty()) return "nobody to act while playing";
  const int seat = acting[rng.below(acting.size())];
  const Json legal = a.legal_actions(seat, balances);
  if (legal.empty()) return "seat " + std::to_string(seat) + " to act has no action";
  const Json action = rules::random_legal_action(legal, rng);
  const auto ea = a.apply(seat, action, balances);
  const auto eb = b.apply(seat, action, balances);
  keep_balances(balances, ea);
  return compared("the effects of " + action.dump() + " by seat " + std::to_string(seat), effects_json(ea),
                  effects_json(eb));
}

const char* const kCardNames[] = {"AS", "KH", "QD", "JC", "TS", "9H", "8D", "7C", "6S", "5H", "4D", "3C", "2S"};

// A value of another JSON type than `value`'s.
Json wrong_type(const Json& value) {
  if (value.is_number()) return std::to_string(value.get<double>());
  if (value.is_string()) return 7;
  if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
  if (value.is_array()) return "[]";
  return Json::array({1});
}

}  // namespace

std::string differences(const rules::GameState& a, const rules::GameState& b, const rules::Balances& balances) {
  if (a.phase() != b.phase()) return "the phases differ";
  if (a.deals_played() != b.deals_played())
    return "the deals played differ: " + std::to_string(a.deals_played()) + " and " + std::to_string(b.deals_played());
  if (a.to_act() != b.to_act()) return compared("the seats to act", a.to_act(), b.to_act());
  if (auto d = compared("the results", a.result(), b.result()); !d.empty()) return d;
  if (auto d = compared("the spectator's views", a.view(std::nullopt), b.view(std::nullopt)); !d.empty()) return d;
  for (int seat = 0; seat < static_cast<int>(balances.size()); ++seat) {
    const auto who = "seat " + std::to_string(seat) + "'s ";
    if (auto d = compared(who + "views", a.view(seat), b.view(seat)); !d.empty()) return d;
    if (auto d = compared(who + "listed actions", a.legal_actions(seat, balances), b.legal_actions(seat, balances));
        !d.empty())
      return d;
  }
  return {};
}

std::string drive_apart(rules::GameState& a, rules::GameState& b, rules::Balances balances, rules::Rng& rng,
                        int steps) {
  for (int step = 1; step <= steps && a.phase() != rules::Phase::game_over; ++step) {
    try {
      if (auto d = step_both(a, b, balances, rng); !d.empty()) return "after " + std::to_string(step) + " steps, " + d;
    } catch (const std::exception& e) {
      return "playing on, step " + std::to_string(step) + " threw: " + e.what();
    }
    if (auto d = differences(a, b, balances); !d.empty()) return "after " + std::to_string(step) + " steps, " + d;
  }
  return {};
}

std::string check_action(const rules::GameState& game, const rules::Balances& balances, int seat, const Json& action,
                         rules::Rng& rng, int steps) {
  const auto tried = game.clone();
  const auto untouched = game.clone();
  std::optional<rules::Effects> effects;
  try {
    effects = tried->apply(seat, action, balances);
  } catch (const rules::RulesError&) {
    if (auto d = differences(*tried, *untouched, balances); !d.empty()) return "refused, it changed the state: " + d;
    if (auto d = drive_apart(*tried, *untouched, balances, rng, steps); !d.empty())
      return "refused, it changed the hidden state: " + d;
    return {};
  } catch (const std::exception& e) {
    return std::string("it threw something else than a RulesError: ") + e.what();
  }
  const auto& again = untouched;  // a second copy, given the same action
  rules::Effects effects_again;
  try {
    effects_again = again->apply(seat, action, balances);
  } catch (const std::exception& e) {
    return std::string("accepted by one copy, refused by another: ") + e.what();
  }
  if (auto d = compared("accepted by two copies, the effects", effects_json(*effects), effects_json(effects_again));
      !d.empty())
    return d;
  auto after = balances;
  keep_balances(after, *effects);
  if (auto d = differences(*tried, *again, after); !d.empty()) return "accepted by two copies, " + d;
  if (auto d = drive_apart(*tried, *again, after, rng, steps); !d.empty()) return "accepted by two copies, " + d;
  return {};
}

std::vector<Json> mutations(const Json& listed, rules::Rng& rng) {
  const Json sent = rules::random_legal_action(Json::array({listed}), rng);
  std::vector<Json> out;
  const auto with = [&](const std::string& key, Json value) {
    Json changed = sent;
    changed[key] = std::move(value);
    out.push_back(std::move(changed));
  };
  with("type", "no_such_action");
  with("no_such_field", 1);
  for (const auto& [key, value] : sent.items()) {
    if (key == "type") continue;
    Json missing = sent;
    missing.erase(key);
    out.push_back(std::move(missing));
    with(key, wrong_type(value));
    const Json& bounds = listed[key];
    if (rules::is_bounds(bounds)) {
      const auto range = rules::listed_range(bounds);
      if (range.max < std::numeric_limits<std::int64_t>::max()) with(key, range.max + 1);
      if (range.min > std::numeric_limits<std::int64_t>::min()) with(key, range.min - 1);
    } else if (value.is_number_integer()) {
      with(key, value.get<std::int64_t>() + 1000003);
      with(key, -1);
    } else if (value.is_string() && rules::parse_card(value.get<std::string>())) {
      with(key, "ZZ");
      with(key, kCardNames[rng.below(std::size(kCardNames))]);
    } else if (value.is_array() && !value.empty()) {
      Json dropped = value;
      dropped.erase(rng.below(value.size()));
      with(key, dropped);
      Json doubled = value;
      doubled.push_back(value[rng.below(value.size())]);
      with(key, doubled);
      if (value[0].is_string() && rules::parse_card(value[0].get<std::string>())) {
        Json other = value;
        other[rng.below(value.size())] = kCardNames[rng.below(std::size(kCardNames))];
        with(key, other);
      }
    }
  }
  rng.shuffle(out);
  return out;
}

std::vector<std::string> check_refusals(const rules::GameState& game, const rules::Balances& balances, int seat,
                                        const Json& legal, rules::Rng& rng, int tries, int steps) {
  std::vector<std::string> problems;
  const auto check = [&](int actor, const Json& action) {
    if (auto problem = check_action(game, balances, actor, action, rng, steps); !problem.empty())
      problems.push_back("seat " + std::to_string(actor) + " sending " + action.dump() + ": " + problem);
  };
  const auto acting = game.to_act();
  std::vector<int> idle;
  for (int s = 0; s < static_cast<int>(balances.size()); ++s)
    if (std::find(acting.begin(), acting.end(), s) == acting.end()) idle.push_back(s);
  const Json& listed = legal[rng.below(legal.size())];
  auto mutated = mutations(listed, rng);
  for (int i = 0; i < tries && i < static_cast<int>(mutated.size()); ++i) check(seat, mutated[i]);
  if (!idle.empty()) {
    const int other = idle[rng.below(idle.size())];
    check(other, rules::random_legal_action(Json::array({listed}), rng));
    if (!mutated.empty()) check(other, mutated.back());
  }
  check(seat, rules::random_legal_action(legal, rng));
  return problems;
}

}  // namespace parlour::test
