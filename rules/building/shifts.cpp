#include "rules/building/shifts.h"

#include <set>
#include <string>

namespace parlour::rules::building {

namespace {

std::string signature(const Tableau& tableau) {
  std::string out;
  for (const auto& pile : tableau) {
    for (const auto& owned : pile) {
      out.push_back(static_cast<char>(owned.card.rank));
      out.push_back(static_cast<char>(owned.card.suit));
    }
    out.push_back('|');
  }
  return out;
}

// The shifts worth trying from here (see shift_sequences).
std::vector<Shift> useful_shifts(const Tableau& tableau) {
  int first_vacancy = -1;
  for (int i = 0; i < static_cast<int>(tableau.size()) && first_vacancy < 0; ++i)
    if (tableau[i].empty()) first_vacancy = i;
  std::vector<Shift> out;
  for (int from = 0; from < static_cast<int>(tableau.size()); ++from) {
    if (tableau[from].empty()) continue;
    for (int to = 0; to < static_cast<int>(tableau.size()); ++to) {
      if (tableau[to].empty() && (to != first_vacancy || tableau[from].size() == 1)) continue;
      if (can_shift(tableau, {from, to})) out.push_back({from, to});
    }
  }
  return out;
}

}  // namespace

bool can_shift(const Tableau& tableau, Shift shift) {
  const int piles = static_cast<int>(tableau.size());
  if (shift.from < 0 || shift.from >= piles || shift.to < 0 || shift.to >= piles || shift.from == shift.to) return false;
  const auto& source = tableau[shift.from];
  return !source.empty() && builds_down_alternating(source.back().card, tableau[shift.to]);
}

void apply_shift(Tableau& tableau, Shift shift) {
  tableau[shift.to].push_back(tableau[shift.from].back());
  tableau[shift.from].pop_back();
}

std::vector<std::vector<Shift>> shift_sequences(const Tableau& start, int depth, std::size_t limit,
                                                const std::function<bool(const Tableau&)>& goal) {
  struct Node {
    Tableau tableau;
    std::vector<Shift> path;
  };
  std::vector<std::vector<Shift>> found;
  std::set<std::string> seen = {signature(start)};
  std::vector<Node> level = {{start, {}}};
  for (int d = 1; d <= depth && !level.empty() && found.size() < limit; ++d) {
    std::vector<Node> next;
    for (const auto& node : level) {
      for (const auto shift : useful_shifts(node.tableau)) {
        Node child{node.tableau, node.path};
        apply_shift(child.tableau, shift);
        child.path.push_back(shift);
        if (!seen.insert(signature(child.tableau)).second) continue;
        if (goal(child.tableau)) {
          found.push_back(std::move(child.path));
          if (found.size() == limit) return found;
        } else {
          next.push_back(std::move(child));
        }
      }
    }
    level = std::move(next);
  }
  return found;
}

}  // namespace parlour::rules::building
