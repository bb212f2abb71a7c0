// The catalogue of games: metadata for the lobby (PROTOCOL.md `games`), option
// validation, and a factory per game.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rules/bot.h"
#include "rules/cards.h"
#include "rules/default_action.h"
#include "rules/game.h"

namespace parlour::rules {

struct OptionSpec {
  enum class Type { integer, boolean, enumeration };
  std::string name;
  Type type = Type::integer;
  Json default_value;
  std::vector<Json> choices;  // enumeration (and integers restricted to a set)
  std::optional<std::int64_t> min;
  std::optional<std::int64_t> max;
  std::string description;
};

// Everything a game needs to deal its first deal.
struct GameSetup {
  Json options;  // validated, every option present
  int players = 0;
  std::uint64_t seed = 0;
  std::optional<std::vector<Card>> stacked_deck;  // top of stock first, first deal only
  Balances balances;
  // The first deal's dealer (rules/rummy.md §1.9, rules/other.md §0: a seeded
  // random first dealer). None: Registry::create draws it from the seed, on a
  // random stream of its own so that the cards dealt do not depend on it.
  std::optional<int> first_dealer = std::nullopt;

  int starting_dealer() const { return first_dealer.value_or(0); }
};

// The first dealer a table with this seed and this many players gets.
int draw_first_dealer(std::uint64_t seed, int players);

// Bad options, a bad player count or a bad stacked deck.
class SetupError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct GameInfo {
  std::string id;
  std::string name;
  std::vector<std::string> aliases;
  int min_players = 2;
  int max_players = 2;
  std::string summary;
  std::string source;
  // The client layout that draws this game's view (rules/view.h): "betting",
  // "tricks", "rummy", "building", "cassino"; "generic" draws any view.
  std::string layout = "generic";
  std::vector<OptionSpec> options;
  // The top-level keys of the game's view whose values the options (and the
  // table's start) fix for the whole table, the same in every seat's view
  // (tests/rules/test_view_schema.cpp checks it): a state push sends them once
  // per connection (docs/protocol.md "State"). The registry adds `layout`, and
  // `rules` for the Rummy layout, whose every view carries the game's rules.
  std::vector<std::string> view_constants;
  // Where the player limit depends on the options (e.g. hand size).
  std::function<int(const Json& options)> max_players_for;
  // Refuses option combinations that contradict each other (throws SetupError).
  std::function<void(const Json& options)> check_options;
  std::function<std::unique_ptr<GameState>(const GameSetup&)> create;
  // A game without a natural end whose every deal settles its own chips (GAMES.md):
  // a seat left empty may be taken by a new player between deals (GameState::seat_taken).
  bool seats_change_between_deals = false;
  // The game's level-1 bot (a careful player); empty: bots of every level play
  // at random.
  BotPolicy bot;
  // What the table plays for a seat whose turn clock runs out (rules/default_action.h);
  // the builtin registry gives each family's default to games without their own.
  DefaultAction default_action;

  // The default action for the seat that sees `view` and may take `legal` (non-empty).
  Json default_for(const Json& view, const Json& legal) const {
    return default_action ? default_action(view, legal) : generic_default(view, legal);
  }

  int max_players_with(const Json& options) const {
    return max_players_for ? max_players_for(options) : max_players;
  }
};

Json option_to_json(const OptionSpec& option);
Json info_to_json(const GameInfo& info);

class Registry {
 public:
  // The registry with every game of the project.
  static const Registry& builtin();

  void add(GameInfo info);
  const GameInfo* find(const std::string& id_or_alias) const;
  const std::vector<GameInfo>& all() const { return games_; }

  // Fills in defaults and checks names, types and ranges; throws SetupError.
  static Json validate_options(const GameInfo& info, const Json& given);
  // Validates the setup and creates the game; throws SetupError.
  static std::unique_ptr<GameState> create(const GameInfo& info, GameSetup setup);
  // The game created with `setup` and made the state `snapshot` was taken of
  // (GameState::snapshot). Throws SnapshotError (SetupError for a bad setup):
  // a snapshot that does not fit the game is refused, never half applied.
  static std::unique_ptr<GameState> restore(const GameInfo& info, GameSetup setup, const Json& snapshot);

 private:
  std::vector<GameInfo> games_;
};

}  // namespace parlour::rules
