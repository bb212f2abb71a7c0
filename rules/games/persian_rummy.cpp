#include "rules/games/persian_rummy.h"

#include "rules/rummy/bot.h"

#include "rules/games/five_hundred_rummy.h"
#include "rules/rummy/michigan_family.h"
#include "rules/rummy/rummy_base.h"

namespace parlour::rules {

namespace {

using namespace rummy;

RummyConfig persian_config(const Json& options) {
  RummyConfig c = michigan_family_config(options, 4);
  c.deal.pack.jokers = 4;
  c.melds.ace = AceMode::high;
  c.melds.jokers_own_rank = true;
  c.values = CardValues{15, 15, 10, 20, 2};  // the ace is 15 wherever it lies
  c.stock.end = StockEnd::end_deal;
  return c;
}

}  // namespace

GameInfo persian_rummy_info() {
  GameInfo info;
  info.view_constants = {"target", "deals_to_play"};  // set by the options (registry.h)
  info.id = "persian_rummy";
  info.name = "Persian Rummy";
  info.aliases = {"Five Hundred Joker Rummy"};
  info.min_players = 4;
  info.max_players = 4;
  info.summary =
      "Partnership Five Hundred Rummy with four jokers (20 each, melded only together), aces high only, a set of four "
      "melded intact counting double and 25 for going out; after two or three deals the side ahead collects its "
      "margin. Hoyle/Gibson rules, source 000.";
  info.source = "000";
  info.options = {
      {"stake", OptionSpec::Type::integer, 1, {}, 1, 1000, "Chips per point."},
      {"deals", OptionSpec::Type::integer, 2, {2, 3}, 2, 3, "Deals in the game: two or three."},
      top_card_free_option(),
  };
  info.bot = rummy::rummy_bot;
  info.create = [](const GameSetup& setup) -> std::unique_ptr<GameState> {
    FiveHundredRules rules;
    rules.partnership = true;
    rules.four_intact_double = true;
    rules.going_out_bonus = 25;
    rules.target = 0;
    rules.deals = setup.options.at("deals").get<int>();
    return make_five_hundred_family(setup, persian_config(setup.options), rules);
  };
  return info;
}

}  // namespace parlour::rules
