#include "rules/rummy/michigan_family.h"

namespace parlour::rules::rummy {

RummyConfig michigan_family_config(const Json& options, int players) {
  RummyConfig c;
  c.pack.decks = players >= 5 ? 2 : 1;
  c.melds.ace = AceMode::low_or_high;
  c.melds.set_max = 4;
  c.melds.set_duplicates = c.pack.decks == 2;
  c.values = CardValues::michigan();
  c.hand_size = players == 2 ? 13 : 7;
  c.upcard = true;
  c.spread_pile = true;
  c.must_use_taken = true;
  c.top_card_free = options.at("top_card_free").get<bool>();
  c.stock_end = StockEnd::turn_over;
  c.max_restocks = options.value("max_restocks", 1);
  c.stake = options.at("stake").get<std::int64_t>();
  c.running_scores = true;
  c.deals = options.at("deals").get<int>();
  return c;
}

}  // namespace parlour::rules::rummy
