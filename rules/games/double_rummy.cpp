#include "rules/games/double_rummy.h"

#include "rules/rummy/bot.h"

#include "rules/games/straight_rummy.h"

namespace parlour::rules {

namespace {

using namespace rummy;

RummyConfig double_rummy_config(const Json& options) {
  RummyConfig c = straight_base_config(options);
  c.deal.pack = PackSpec{false, 2, 2};  // two packs, two jokers
  c.deal.hand_size = 10;
  c.melds.ace = AceMode::low_or_high;
  c.melds.set_duplicates = true;
  c.melds.set_max = 10;  // no maximum: eight of a rank in two packs, and the two jokers
  c.melds.jokers_wild = true;
  c.values = CardValues::ace11();
  c.values.joker = 15;  // a joker left in the hand
  c.melding.shift_on_natural = true;
  return c;
}

class DoubleRummy final : public StraightFamily {
 public:
  std::unique_ptr<GameState> clone() const override { return std::make_unique<DoubleRummy>(*this); }
  explicit DoubleRummy(const GameSetup& setup) : StraightFamily(setup, double_rummy_config(setup.options)) {}
};

}  // namespace

GameInfo double_rummy_info() {
  GameInfo info;
  info.id = "double_rummy";
  info.name = "Double Rummy";
  info.aliases = {};
  info.min_players = 2;
  info.max_players = 6;
  info.summary = "Straight Rummy with two packs and two jokers, ten cards each; jokers are wild and move along a run "
                 "to make way for the natural card, never back to a hand; aces high or low; groups of any size. "
                 "2-6 players, best with 4-6. Scarne rules, source 002.";
  info.source = "002";
  info.options = straight_family_options(true);
  info.options.push_back(one_suit_rule_option());
  info.bot = rummy::rummy_bot;
  info.create = [](const GameSetup& setup) -> std::unique_ptr<GameState> { return std::make_unique<DoubleRummy>(setup); };
  return info;
}

}  // namespace parlour::rules
