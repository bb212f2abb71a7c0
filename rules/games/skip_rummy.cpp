#include "rules/games/skip_rummy.h"

#include "rules/rummy/bot.h"

#include "rules/games/straight_rummy.h"

namespace parlour::rules {

namespace {

using namespace rummy;

RummyConfig skip_config(const Json& options) {
  auto c = straight_base_config(options);
  c.deal.hand_size = 5;
  c.deal.upcard = false;
  c.melding.rummy_only = false;
  c.melding.max_plays_per_turn = 1;
  c.melding.meld_cards_exact = 3;
  c.melding.lay_off_cards_max = 1;
  c.stock.end = StockEnd::end_at_players;
  return c;
}

class SkipRummy final : public StraightFamily {
 public:
  std::unique_ptr<GameState> clone() const override { return std::make_unique<SkipRummy>(*this); }
  explicit SkipRummy(const GameSetup& setup) : StraightFamily(setup, skip_config(setup.options)) {}

 private:
  int rummy_units(const DealEnd&) const override { return 2; }
};

}  // namespace

GameInfo skip_rummy_info() {
  GameInfo info;
  info.id = "skip_rummy";
  info.name = "Skip Rummy";
  info.aliases = {};
  info.min_players = 2;
  info.max_players = 6;
  info.summary = "Five cards; one three-card meld or one lay-off a turn; rummy collects two units, the lowest count "
                 "one unit when the stock runs down. Scarne rules, source 002.";
  info.source = "002";
  info.options = straight_family_options(false);
  info.bot = rummy::rummy_bot;
  info.create = [](const GameSetup& setup) -> std::unique_ptr<GameState> { return std::make_unique<SkipRummy>(setup); };
  return info;
}

}  // namespace parlour::rules
