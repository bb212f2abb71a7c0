// What the building games' bots read: the seat's view (each pile by id, the
// viewer's seat) and a choice among the legal actions by preference. A bot
// never sees the game state, only what its seat sees.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>

#include "rules/cards.h"
#include "rules/game.h"

namespace parlour::rules::building {

class SeenPiles {
 public:
  explicit SeenPiles(const Json& view);

  int viewer() const { return viewer_; }  // -1 for a spectator
  std::optional<Card> top(const std::string& id) const;
  std::size_t count(const std::string& id) const;

 private:
  std::map<std::string, Json> piles_;
  int viewer_ = -1;
};

// The first action of `legal` (non-empty) with the lowest preference.
Json preferred_action(const Json& legal, const std::function<int(const Json&)>& preference);

}  // namespace parlour::rules::building
