#include "rules/games/royal_cassino.h"

#include "rules/cassino/bot.h"
#include "rules/cassino/cassino_game.h"

namespace parlour::rules {

namespace {

bool flag(const Json& options, const char* name) { return options.at(name).get<bool>(); }

// The usual game: 21 points, Spade Cassino 61.
int target_of(const Json& options) {
  const int target = options.at("target").get<int>();
  if (target > 0) return target;
  return flag(options, "spade") ? 61 : 21;
}

cassino::CassinoConfig config_of(const Json& options) {
  cassino::CassinoConfig config;
  config.name = "Royal Cassino";
  config.special_pack = flag(options, "special_pack");
  config.values = cassino::CardValues::royal(flag(options, "ace_high"), config.special_pack);
  config.draw = flag(options, "draw");
  config.spade = flag(options, "spade");
  config.sweeps = flag(options, "sweeps");
  config.partnership = flag(options, "partnership");
  config.per_deal_game = flag(options, "per_deal_game");
  config.target = target_of(options);
  // Spade Cassino's lurch: under 31 of 61, i.e. under half the target.
  config.lurch_below = config.spade ? (config.target + 1) / 2 : 0;
  config.deal_limit = options.at("deals").get<int>();
  config.stake = options.at("stake").get<std::int64_t>();
  config.game_stake = options.at("game_stake").get<std::int64_t>();
  return config;
}

void check_options(const Json& options) {
  if (flag(options, "per_deal_game") && options.at("target").get<int>() != 0)
    throw SetupError("per_deal_game makes each deal a game of its own: it has no 'target' (leave it 0)");
  if (flag(options, "per_deal_game") && flag(options, "spade"))
    throw SetupError("Spade Cassino is a game to 61 with a lurch: 'spade' cannot be combined with per_deal_game");
  if (options.at("game_stake").get<std::int64_t>() > 0 && options.at("stake").get<std::int64_t>() != 1)
    throw SetupError("choose one way to settle: 'stake' chips per point or 'game_stake' chips per game, not both");
}

OptionSpec boolean(const char* name, bool fallback, const char* description) {
  return {name, OptionSpec::Type::boolean, fallback, {}, std::nullopt, std::nullopt, description};
}

}  // namespace

GameInfo royal_cassino_info() {
  GameInfo info;
  info.view_constants = {"rules", "card_values", "max_build", "target"};  // set by the options (registry.h)
  info.id = "royal_cassino";
  info.name = "Royal Cassino";
  info.aliases = {"Royal Casino", "Royal Draw Cassino", "Royal Spade Cassino"};
  info.min_players = 2;
  info.max_players = 4;
  info.summary =
      "Cassino with numbered court cards (J 11, Q 12, K 13): capture by pairing and by sums, build to 13, "
      "sweep the table; cards, spades, the cassinos and the aces score, 21 wins.";
  info.source = "000";
  info.options = {
      boolean("ace_high", false, "Each ace counts 1 or 14 (1 or 16 with the special pack), chosen each time."),
      boolean("special_pack", false,
              "The 60-card pack with eleven- and twelve-spot cards (E, W): J 13, Q 14, K 15."),
      boolean("draw", false, "Royal Draw Cassino: after each play draw from the stock to keep four; no 'last'."),
      boolean("spade", false, "Royal Spade Cassino: A, J and 2 of spades 2 each, other spades 1; game 61, lurch."),
      boolean("partnership", false, "Four players play as two partnerships, partners opposite."),
      boolean("sweeps", true, "A capture that clears the table scores 1."),
      {"target", OptionSpec::Type::integer, 0, {}, 0, 1000, "Points that win the game; 0: 21, or 61 with spade."},
      boolean("per_deal_game", false, "Each deal is a game of its own, settled at once (no target)."),
      {"stake", OptionSpec::Type::integer, 1, {}, 1, 1000000, "Chips per point of difference between winner and loser."},
      {"game_stake", OptionSpec::Type::integer, 0, {}, 0, 1000000,
       "Chips per game lost instead of per point (0: per point)."},
      {"deals", OptionSpec::Type::integer, 0, {}, 0, 10000,
       "End the table after this many deals (0: no limit); a game cut short pays nothing."},
  };
  info.check_options = check_options;
  info.create = [](const GameSetup& setup) { return cassino::make_cassino(config_of(setup.options), setup); };
  info.bot = cassino::cassino_bot;
  return info;
}

}  // namespace parlour::rules
