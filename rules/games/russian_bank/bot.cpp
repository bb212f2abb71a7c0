#include "rules/games/russian_bank/game.h"

#include "rules/building/bot_view.h"

namespace parlour::rules::russian_bank {

// Lower is better: stop, base plays, turning the stock, loads, stock and hand
// cards onto builds, layout moves that open a space, then discarding. Any other
// layout move comes last, so the bot never shuffles cards to and fro.
int bot_preference(const Json& action, const building::SeenPiles& seen) {
  const auto type = action.value("type", "");
  if (type == "stop") return 0;
  if (type == "turn_stock") return 2;
  if (type == "turn_hand") return 8;
  if (type == "end_turn") return 11;
  if (type == "demand") return 12;
  if (type != "move") return 20;
  const auto from = building::parse_spot(action["from"].get<std::string>());
  const auto to = building::parse_spot(action["to"].get<std::string>());
  if (to.zone == Zone::centre) return 1;
  if ((to.zone == Zone::stock || to.zone == Zone::discard) && to.index != seen.viewer()) return 3;
  if (to.zone == Zone::discard) return 10;
  const bool onto_build = seen.count(to_string(to)) > 0;
  if (from.zone == Zone::stock) return onto_build ? 4 : 5;
  if (from.zone == Zone::turned) return onto_build ? 7 : 9;
  if (from.zone == Zone::layout && seen.count(to_string(from)) == 1 && onto_build) return 6;
  return 20;
}

}  // namespace parlour::rules::russian_bank

namespace parlour::rules {

Json russian_bank_bot(const Json& view, const Json& legal, Rng&) {
  const building::SeenPiles seen(view);
  return building::preferred_action(legal,
                                    [&seen](const Json& action) { return russian_bank::bot_preference(action, seen); });
}

}  // namespace parlour::rules
