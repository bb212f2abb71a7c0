#include "rules/games/block_rummy.h"

#include "rules/rummy/bot.h"

#include "rules/games/straight_rummy.h"

namespace parlour::rules {

namespace {

using namespace rummy;

RummyConfig block_config(const Json& options) {
  auto c = straight_base_config(options);
  c.discard.final_discard_required = true;
  c.stock.end = StockEnd::discard_only;
  return c;
}

class BlockRummy final : public StraightFamily {
 public:
  std::unique_ptr<GameState> clone() const override { return std::make_unique<BlockRummy>(*this); }
  explicit BlockRummy(const GameSetup& setup) : StraightFamily(setup, block_config(setup.options)) {}
};

}  // namespace

GameInfo block_rummy_info() {
  GameInfo info;
  info.id = "block_rummy";
  info.name = "Block Rummy (Scarne)";
  info.aliases = {};
  info.min_players = 2;
  info.max_players = 6;
  info.summary = "Straight Rummy that goes out with a discard; after the stock, play goes on only while each player "
                 "takes the discard, and the lowest count wins the differences. Scarne rules, source 002.";
  info.source = "002";
  info.options = straight_family_options(true);
  info.options.push_back(six_or_seven_card_hand_option());
  info.options.push_back(one_suit_rule_option());
  info.max_players_for = players_for_six_or_seven_cards;
  info.bot = rummy::rummy_bot;
  info.create = [](const GameSetup& setup) -> std::unique_ptr<GameState> { return std::make_unique<BlockRummy>(setup); };
  return info;
}

}  // namespace parlour::rules
