#include "rules/games/queen_city_rummy.h"

#include "rules/rummy/bot.h"

#include "rules/games/straight_rummy.h"

namespace parlour::rules {

namespace {

using namespace rummy;

RummyConfig queen_city_config(const Json& options) {
  auto c = straight_base_config(options);
  c.deal.hand_size = 7;
  return c;
}

class QueenCityRummy final : public StraightFamily {
 public:
  std::unique_ptr<GameState> clone() const override { return std::make_unique<QueenCityRummy>(*this); }
  explicit QueenCityRummy(const GameSetup& setup) : StraightFamily(setup, queen_city_config(setup.options)) {}

 private:
  // The winner collects the value of his own melded cards from each other player.
  void settle_rummy(const DealEnd& end, Settlement& pay_out) override {
    int worth = 0;
    for (const auto& tm : table())
      if (tm.meld.owner == end.winner) worth += config().values.of_meld(tm.meld);
    pay_out.summary["melded"] = worth;
    for (int s : seats_in_play())
      if (s != end.winner)
        pay_out.points(s, end.winner, worth,
                       seat_tag(end.winner) + " went rummy: each player pays the value of his melds, " +
                           std::to_string(worth));
  }
};

}  // namespace

GameInfo queen_city_rummy_info() {
  GameInfo info;
  info.id = "queen_city_rummy";
  info.name = "Queen City Rummy";
  info.aliases = {"Cincinnati Rummy", "Cincinnati"};
  info.min_players = 2;
  info.max_players = 6;
  info.summary = "Seven cards, no melding until you go rummy with seven or eight cards; the winner collects the value "
                 "of his own melds from each player. Scarne rules, source 002.";
  info.source = "002";
  info.options = straight_family_options(true);
  info.bot = rummy::rummy_bot;
  info.create = [](const GameSetup& setup) -> std::unique_ptr<GameState> {
    return std::make_unique<QueenCityRummy>(setup);
  };
  return info;
}

}  // namespace parlour::rules
