#include "rules/games/rabouge/game.h"

#include "rules/building/bot_view.h"

namespace parlour::rules::rabouge {

// Lower is better: centre plays, then drawing, then where a drawn card waits
// best: on a discard pile showing the next rank (the card beneath follows it),
// in an empty slot, on the shortest pile.
int bot_preference(const Json& action, const building::SeenPiles& seen) {
  const auto type = action.value("type", "");
  if (type == "draw") return 10;
  if (type == "pass") return 100;
  if (type != "move") return 200;
  const auto from = action["from"].get<std::string>();
  const auto to = action["to"].get<std::string>();
  if (to.rfind("centre:", 0) == 0) return from.rfind("turned:", 0) == 0 ? 0 : from.rfind("stock:", 0) == 0 ? 1 : 2;
  const auto drawn = seen.top(from);
  const auto beneath = seen.top(to);
  if (drawn && beneath && beneath->rank == building::next_rank_wrapping(drawn->rank)) return 20;
  if (!beneath) return 21;
  return 30 + static_cast<int>(seen.count(to));
}

}  // namespace parlour::rules::rabouge

namespace parlour::rules {

Json rabouge_bot(const Json& view, const Json& legal, Rng&) {
  const building::SeenPiles seen(view);
  return building::preferred_action(legal,
                                    [&seen](const Json& action) { return rabouge::bot_preference(action, seen); });
}

}  // namespace parlour::rules
