#include "rules/cassino/table.h"

#include <algorithm>
#include <stdexcept>

#include "rules/snapshot.h"

namespace parlour::rules::cassino {

std::vector<Card> Build::cards() const {
  std::vector<Card> out;
  for (const auto& group : groups) out.insert(out.end(), group.begin(), group.end());
  return out;
}

const Build* TableCards::build(int id) const {
  auto it = std::find_if(builds.begin(), builds.end(), [&](const Build& b) { return b.id == id; });
  return it == builds.end() ? nullptr : &*it;
}

Json TableCards::snapshot() const {
  Json out_builds = Json::array();
  for (const auto& b : builds)
    out_builds.push_back({{"id", b.id}, {"value", b.value}, {"owner", b.owner}, {"groups", card_lists_json(b.groups)}});
  return {{"loose", cards_json(loose)}, {"builds", std::move(out_builds)}};
}

TableCards TableCards::restore(const Json& snapshot, int players) {
  TableCards table;
  table.loose = cards_from(member(snapshot, "loose"));
  const auto& saved = member(snapshot, "builds");
  if (!saved.is_array()) throw SnapshotError("expected the table's builds as an array, got " + saved.dump());
  for (const auto& entry : saved) {
    Build b;
    b.id = field<int>(entry, "id");
    b.value = field<int>(entry, "value");
    b.owner = field<int>(entry, "owner");
    b.groups = card_lists_from(member(entry, "groups"));
    if (b.owner < -1 || b.owner >= players) throw SnapshotError("a build's owner is out of range");
    if (table.build(b.id)) throw SnapshotError("two builds have the id " + std::to_string(b.id));
    table.builds.push_back(std::move(b));
  }
  return table;
}

std::size_t TableCards::card_count() const {
  std::size_t count = loose.size();
  for (const auto& b : builds) count += b.cards().size();
  return count;
}

std::optional<std::string> selection_fault(const TableCards& table, const Selection& selection) {
  for (std::size_t i = 0; i < selection.loose.size(); ++i) {
    const Card card = selection.loose[i];
    if (std::find(table.loose.begin(), table.loose.end(), card) == table.loose.end())
      return to_string(card) + " is not a loose card on the table";
    if (std::find(selection.loose.begin() + static_cast<long>(i) + 1, selection.loose.end(), card) !=
        selection.loose.end())
      return to_string(card) + " is named twice";
  }
  for (std::size_t i = 0; i < selection.builds.size(); ++i) {
    const int id = selection.builds[i];
    if (!table.build(id)) return "there is no build " + std::to_string(id) + " on the table";
    if (std::find(selection.builds.begin() + static_cast<long>(i) + 1, selection.builds.end(), id) !=
        selection.builds.end())
      return "build " + std::to_string(id) + " is named twice";
  }
  return std::nullopt;
}

std::vector<Card> remove_selection(TableCards& table, const Selection& selection) {
  std::vector<Card> taken;
  for (const Card card : selection.loose) {
    auto it = std::find(table.loose.begin(), table.loose.end(), card);
    if (it == table.loose.end()) throw std::logic_error("cassino: removing a card that is not on the table");
    table.loose.erase(it);
    taken.push_back(card);
  }
  for (const int id : selection.builds) {
    auto it = std::find_if(table.builds.begin(), table.builds.end(), [&](const Build& b) { return b.id == id; });
    if (it == table.builds.end()) throw std::logic_error("cassino: removing a build that is not on the table");
    const auto cards = it->cards();
    taken.insert(taken.end(), cards.begin(), cards.end());
    table.builds.erase(it);
  }
  return taken;
}

}  // namespace parlour::rules::cassino
