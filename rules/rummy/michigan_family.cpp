#include "rules/rummy/michigan_family.h"

namespace parlour::rules::rummy {

OptionSpec top_card_free_option() {
  return {"top_card_free", OptionSpec::Type::boolean, false, {}, std::nullopt, std::nullopt,
          "The top card of the pile may be taken without having to meld it at once."};
}

RummyConfig michigan_family_config(const Json& options, int players) {
  RummyConfig c;
  c.deal.pack.decks = players >= 5 ? 2 : 1;
  c.melds.ace = AceMode::low_or_high;
  c.melds.set_max = 4;
  c.melds.set_duplicates = c.deal.pack.decks == 2;
  c.values = CardValues::michigan();
  c.deal.hand_size = players == 2 ? 13 : 7;
  c.deal.upcard = true;
  c.draw.spread_pile = true;
  c.draw.must_use_taken = true;
  c.draw.top_card_free = options.at("top_card_free").get<bool>();
  c.stock.end = StockEnd::turn_over;
  c.stock.max_restocks = options.value("max_restocks", 1);
  c.scoring.stake = options.at("stake").get<std::int64_t>();
  c.scoring.running_scores = true;
  c.scoring.deals = options.at("deals").get<int>();
  return c;
}

}  // namespace parlour::rules::rummy
