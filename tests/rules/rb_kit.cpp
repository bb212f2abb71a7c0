#include "tests/rules/rb_kit.h"

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
    if (p.contains("cards")) {
      for (const auto& card : p["cards"]) out.push_back(card.get<std::string>());
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

}  // namespace parlour::test
