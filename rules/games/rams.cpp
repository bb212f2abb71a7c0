#include "rules/games/rams.h"

#include "rules/tricks/bot.h"
#include "rules/tricks/pool_trick.h"

namespace parlour::rules {

GameInfo rams_info() {
  GameInfo info;
  info.view_constants = {"ranking", "unit"};  // set by the options (registry.h)
  info.id = "rams";
  info.name = "Rams";
  info.aliases = {"General Rams"};
  info.min_players = 3;
  info.max_players = 5;
  info.seats_change_between_deals = true;
  info.summary =
      "Pass, play or take the widow; each of five tricks takes a fifth of the pool, and a player who takes none "
      "pays into the next. Announce General Rams to take all five.";
  info.source = "000";
  info.options = {
      {"old_ranking", OptionSpec::Type::boolean, false, {}, std::nullopt, std::nullopt,
       "The old ranking K Q J A 10 9 8 7 instead of A K Q J 10 9 8 7."},
      {"packets", OptionSpec::Type::enumeration, "2-3", {"2-3", "3-2"}, std::nullopt, std::nullopt,
       "Deal five cards in a packet of two then three, or three then two."},
      {"deals", OptionSpec::Type::integer, 0, {}, 0, 10000, "End the table after this many deals (0: no limit)."},
  };
  info.create = [](const GameSetup& setup) {
    tricks::PoolTrickConfig config;
    config.name = "rams";
    config.short_pack = true;
    config.widow_size = 5;
    config.widow_discard = false;
    config.general_allowed = true;
    config.trump_lead_duty = false;
    config.rules.must_follow = true;
    config.rules.must_trump = true;
    config.rules.must_head = true;
    config.rules.order =
        setup.options.at("old_ranking").get<bool>() ? tricks::RankOrder::rams_old : tricks::RankOrder::ace_high;
    config.packets_two_first = setup.options.at("packets").get<std::string>() == "2-3";
    config.deal_limit = setup.options.at("deals").get<int>();
    return tricks::make_pool_trick_game(config, setup);
  };
  info.bot = tricks::pool_trick_bot(/*short_pack=*/true);
  return info;
}

}  // namespace parlour::rules
