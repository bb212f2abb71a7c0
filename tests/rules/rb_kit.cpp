#include "tests/rules/rb_kit.h"

#include "rules/building/piles.h"

namespace parlour::test {

Json move(const std::string& from, const std::string& to) { return {{"type", "move"}, {"from", from}, {"to", to}}; }

Json action(const std::string& type) { return {{"type", type}}; }

std::vector<std::string> listed(const Json& legal) {
  std::vector<std::string> out;
  for (const auto& entry : legal) {
    const auto type = entry["type"].get<std::string>();
    if (type == "move") {
      out.push_back(entry["from"].get<std::string>() + ">" + entry["to"].get<std::string>());
    } else if (type == "demand") {
      std::string steps;
      for (const auto& step : entry["moves"])
        steps += (steps.empty() ? "" : ",") + step["from"].get<std::string>() + ">" + step["to"].get<std::string>();
      out.push_back("demand " + steps);
    } else {
      out.push_back(type);
    }
  }
  return out;
}

bool lists(const Json& legal, const std::string& entry) {
  const auto all = listed(legal);
  return std::find(all.begin(), all.end(), entry) != all.end();
}

Json pile(const Json& view, const std::string& id) {
  for (const auto& p : view["piles"])
    if (p["id"] == id) return p;
  FAIL("no pile " << id << " in the view");
  return {};
}

std::vector<std::string> shown_cards(const Json& view) {
  std::vector<std::string> out;
  for (const auto& p : view["piles"]) {
    if (p.contains("cards") || p.contains("face_up")) {
      for (const auto& card : p.value("cards", p.value("face_up", Json::array()))) out.push_back(card.get<std::string>());
    } else if (p["top"].is_string()) {
      out.push_back(p["top"].get<std::string>());
    }
  }
  return out;
}

std::size_t cards_in_piles(const Json& view) {
  std::size_t count = 0;
  for (const auto& p : view["piles"]) count += p["count"].get<std::size_t>();
  return count;
}

std::string refusal_message(Harness& h, int seat, const Json& action, const std::string& code) {
  const auto view_before = h.game().view(std::nullopt);
  const auto legal_before = h.legal(seat);
  const auto chips_before = h.chips();
  std::string got = "accepted";
  std::string message;
  try {
    h.act(seat, action);
  } catch (const rules::RulesError& e) {
    got = e.code();
    message = e.what();
  }
  CHECK_MESSAGE(got == code, "action " << action.dump() << ": " << message);
  CHECK(h.game().view(std::nullopt) == view_before);
  CHECK(h.legal(seat) == legal_before);
  CHECK(h.chips() == chips_before);
  return message;
}

Harness Replay::at(const std::vector<Step>& history) const {
  Harness h(game, options, std::vector<std::int64_t>(players, 1000), seed);
  for (const auto& step : history) h.act(step.seat, step.action);
  return h;
}

void every_listed_action_applies(const Replay& replay, const std::vector<Step>& history, int seat, const Json& legal) {
  for (const auto& entry : legal) {
    auto copy = replay.at(history);
    CHECK_NOTHROW(copy.act(seat, entry));
  }
}

void unlisted_actions_refused(const Replay& replay, const std::vector<Step>& history, int seat, const Json& legal,
                              const std::vector<Json>& probes,
                              const std::function<bool(const Json& action, const Json& legal)>& may_accept) {
  auto copy = replay.at(history);
  for (const auto& probe : probes) {
    bool is_listed = false;
    for (const auto& entry : legal) {
      Json bare = entry;
      bare.erase("card");
      if (bare == probe) is_listed = true;
    }
    if (is_listed) continue;
    try {
      copy.act(seat, probe);
    } catch (const rules::RulesError&) {
      continue;
    }
    CHECK_MESSAGE(may_accept(probe, legal), "an unlisted action was accepted: " << probe.dump() << " legal "
                                                                               << legal.dump());
    copy = replay.at(history);
  }
}

int play_with_bots(Harness& h, const std::string& game, std::uint64_t seed, int most_actions,
                   const std::function<void(const Json& view)>& watch) {
  const auto* info = rules::Registry::builtin().find(game);
  REQUIRE(info != nullptr);
  REQUIRE(info->bot);
  rules::Rng rng(seed);
  int actions = 0;
  for (; h.game().phase() == rules::Phase::playing && actions < most_actions; ++actions) {
    const int seat = h.game().to_act().front();
    const auto view = h.game().view(seat);
    if (watch) watch(view);
    h.act(seat, info->bot(view, h.legal(seat), rng));
  }
  return actions;
}

std::vector<Json> probe_actions(const Json& view, const std::vector<std::string>& others) {
  std::vector<Json> out;
  for (const auto& from : view["piles"])
    for (const auto& to : view["piles"])
      if (from["id"] != to["id"]) out.push_back(move(from["id"], to["id"]));
  for (const auto& type : others) out.push_back(action(type));
  return out;
}

namespace {

// A stock's face-up run: at most the stock, ending in its top, one owner a
// card, and above its bottom card (the one turned up) only cards loaded each on
// the one beneath.
void check_face_up_run(const Json& stock) {
  const auto& run = stock["face_up"];
  CAPTURE(stock.dump());
  REQUIRE(run.size() <= stock["count"].get<std::size_t>());
  CHECK(stock["owners"].size() == run.size());
  CHECK((run.empty() ? stock["top"].is_null() : stock["top"] == run.back()));
  for (std::size_t i = 1; i < run.size(); ++i) {
    const auto below = rules::parse_card(run[i - 1].get<std::string>());
    const auto card = rules::parse_card(run[i].get<std::string>());
    REQUIRE((below && card));
    CHECK(rules::building::loads_in_suit(*card, {{*below, 0}}));
  }
}

}  // namespace

void check_public_view(rules::GameState& game, int seat) {
  const auto spectator = game.view(std::nullopt);
  auto view = game.view(seat);
  CHECK(view["viewer"] == seat);
  view["viewer"] = Json();
  CHECK(view == spectator);
  for (const auto& p : spectator["piles"]) {
    const auto id = p["id"].get<std::string>();
    const auto zone = id.substr(0, id.find(':'));
    if (zone == "stock") {
      CHECK_FALSE(p.contains("cards"));
      if (p.contains("face_up")) check_face_up_run(p);
    }
    if (zone == "hand" || zone == "supply") {
      CHECK_FALSE(p.contains("cards"));
      CHECK(p["top"].is_null());
    }
  }
  for (const auto& seat : spectator["seats"])
    for (const auto& card : seat["cards"]) CHECK(card == "??");
}

}  // namespace parlour::test
