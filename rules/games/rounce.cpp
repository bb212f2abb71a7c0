#include "rules/games/rounce.h"

#include "rules/tricks/bot.h"
#include "rules/tricks/pool_trick.h"

namespace parlour::rules {

GameInfo rounce_info() {
  GameInfo info;
  info.view_constants = {"ranking", "unit"};  // set by the options (registry.h)
  info.id = "rounce";
  info.name = "Rounce";
  info.aliases = {};
  info.min_players = 3;
  info.max_players = 9;
  info.seats_change_between_deals = true;
  info.summary =
      "Rams with 52 cards and up to nine players: a widow of six, no duty to head or trump, and the first "
      "trick's winner must lead a trump.";
  info.source = "000";
  info.options = {
      {"packets", OptionSpec::Type::enumeration, "2-3", {"2-3", "3-2"}, std::nullopt, std::nullopt,
       "Deal five cards in a packet of two then three, or three then two."},
      {"deals", OptionSpec::Type::integer, 0, {}, 0, 10000, "End the table after this many deals (0: no limit)."},
  };
  info.create = [](const GameSetup& setup) {
    tricks::PoolTrickConfig config;
    config.name = "rounce";
    config.short_pack = false;
    config.widow_size = 6;
    config.widow_discard = true;
    config.general_allowed = false;
    config.trump_lead_duty = true;
    config.rules.must_follow = true;
    config.rules.must_trump = false;
    config.rules.must_head = false;
    config.rules.order = tricks::RankOrder::ace_high;
    config.packets_two_first = setup.options.at("packets").get<std::string>() == "2-3";
    config.deal_limit = setup.options.at("deals").get<int>();
    return tricks::make_pool_trick_game(config, setup);
  };
  info.bot = tricks::pool_trick_bot(/*short_pack=*/false);
  return info;
}

}  // namespace parlour::rules
