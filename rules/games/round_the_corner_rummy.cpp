#include "rules/games/round_the_corner_rummy.h"

#include "rules/rummy/bot.h"

#include "rules/rummy/rummy_base.h"
#include "rules/rummy/settlement.h"

namespace parlour::rules {

namespace {

using namespace rummy;

RummyConfig round_the_corner_config(const GameSetup& setup) {
  RummyConfig c;
  c.values = CardValues::basic();
  c.melds.ace = AceMode::around;
  c.deal.hand_size = 9 - setup.players;
  c.deal.upcard = true;
  c.melding.rummy_only = true;
  c.discard.final_discard_required = false;
  c.discard.no_discard_taken_upcard = false;
  c.draw.upcard_then_one_more = true;
  c.stock.end = StockEnd::reshuffle_except_top;
  c.stock.max_restocks = setup.options.at("max_reshuffles").get<int>();
  c.scoring.stake = setup.options.at("stake").get<std::int64_t>();
  c.scoring.deals = setup.options.at("deals").get<int>();
  return c;
}

class RoundTheCornerRummy final : public RummyBase {
 public:
  std::unique_ptr<GameState> clone() const override { return std::make_unique<RoundTheCornerRummy>(*this); }
  explicit RoundTheCornerRummy(const GameSetup& setup) : RummyBase(setup, round_the_corner_config(setup)) {}

 private:
  void settle_deal(const DealEnd& end, Balances& chips, Effects& fx, Json& summary) override {
    Settlement pay_out(*this, chips, fx, summary, config().scoring.stake);
    if (end.kind != DealEnd::Kind::went_out || end.winner < 0) {
      summary["void"] = true;
      return;
    }
    for (int s : seats_in_play())
      if (s != end.winner)
        pay_out.points(s, end.winner, 1, seat_tag(end.winner) + " went out: one stake from each player");
  }
};

}  // namespace

GameInfo round_the_corner_rummy_info() {
  GameInfo info;
  info.id = "round_the_corner_rummy";
  info.name = "Round-the-Corner Rummy";
  info.aliases = {"Boat House Rummy", "Dizzy Rummy"};
  info.min_players = 2;
  info.max_players = 4;
  info.summary = "Nine minus the players' cards each; take the stock top, or the upcard and one more card; the ace "
                 "goes round the corner (K-A-2); meld only by going rummy, which collects the stake from each "
                 "player. Scarne rules, source 002.";
  info.source = "002";
  info.options = common_rummy_options();
  info.options[0].description = "Chips the player going rummy collects from each other player.";
  info.options.push_back({"max_reshuffles", OptionSpec::Type::integer, 5, {}, 1, 50,
                          "Times the discard pile may be reshuffled into a new stock in one deal; when the stock "
                          "runs out after that, the deal is void."});
  info.bot = rummy::rummy_bot;
  info.create = [](const GameSetup& setup) -> std::unique_ptr<GameState> {
    return std::make_unique<RoundTheCornerRummy>(setup);
  };
  return info;
}

}  // namespace parlour::rules
