#include "rules/games/straight_rummy.h"

#include "rules/rummy/bot.h"

#include <algorithm>

namespace parlour::rules {

namespace rummy {

RummyConfig straight_base_config(const Json& options) {
  RummyConfig c;
  c.values = CardValues::basic();
  c.melds.ace = AceMode::low;
  c.deal.hand_size = options.contains("hand_size") ? options.at("hand_size").get<int>() : 7;
  c.deal.upcard = options.contains("initial_upcard") && options.at("initial_upcard").get<bool>();
  c.melding.rummy_only = true;
  c.stock.end = StockEnd::break_at_players;
  c.scoring.stake = options.at("stake").get<std::int64_t>();
  c.scoring.deals = options.at("deals").get<int>();
  return c;
}

std::vector<OptionSpec> straight_family_options(bool with_upcard_option) {
  auto options = common_rummy_options();
  options[0].description = "Chips per unit (or per point with payoff=points).";
  options.push_back({"payoff", OptionSpec::Type::enumeration, "units", {"units", "points"}, std::nullopt, std::nullopt,
                     "units: the game's payoffs in units of `stake` chips; points: each pays the difference of unmatched "
                     "counts (times the same multiple) in chips of `stake`."});
  if (with_upcard_option)
    options.push_back({"initial_upcard", OptionSpec::Type::boolean, false, {}, std::nullopt, std::nullopt,
                       "Turn an upcard after the deal (the source advises against it: it favours the leader)."});
  return options;
}

OptionSpec one_suit_rule_option() {
  return {"one_suit_rule", OptionSpec::Type::enumeration, "single_run", {"single_run", "all_runs_one_suit"},
          std::nullopt, std::nullopt,
          "The 4-unit rummy \"in a sequence of the same suit\": one unbroken run, or only runs of one suit."};
}

OptionSpec six_or_seven_card_hand_option() {
  return {"hand_size", OptionSpec::Type::integer, 7, {6, 7}, 6, 7,
          "Cards dealt to each player: 7 (two to five players) or 6 (up to six)."};
}

int players_for_six_or_seven_cards(const Json& options) { return options.at("hand_size").get<int>() == 7 ? 5 : 6; }

StraightFamily::StraightFamily(const GameSetup& setup, RummyConfig config)
    : RummyBase(setup, std::move(config)),
      points_mode_(setup.options.contains("payoff") && setup.options.at("payoff") == "points"),
      all_runs_one_suit_(setup.options.contains("one_suit_rule") &&
                         setup.options.at("one_suit_rule") == "all_runs_one_suit") {}

std::vector<int> StraightFamily::unmatched_counts() const {
  std::vector<int> counts;
  for (int s = 0; s < players(); ++s) counts.push_back(unmatched_count(s));
  return counts;
}

void StraightFamily::settle_deal(const DealEnd& end, Balances& chips, Effects& fx, Json& summary) {
  Settlement pay_out{*this, chips, fx, summary, config().scoring.stake};
  switch (end.kind) {
    case DealEnd::Kind::went_out: return settle_rummy(end, pay_out);
    case DealEnd::Kind::showdown: return settle_showdown(end, pay_out);
    case DealEnd::Kind::block_showdown: return settle_block_showdown(pay_out);
    default: return;
  }
}

// R-S4: the melded cards are all of one suit and (single_run) one unbroken
// sequence, or (all_runs_one_suit) every meld is a run. A wild counts as the card
// it stands for; an ace after a king is high (14).
bool StraightFamily::one_suit_rummy(int winner) const {
  std::vector<Meld> melds;
  for (const auto& tm : table())
    if (tm.meld.owner == winner) melds.push_back(tm.meld);
  return one_suit(melds);
}

bool StraightFamily::one_suit(const std::vector<Meld>& melds) const {
  std::vector<Card> cards;
  std::vector<int> ranks;
  for (const auto& meld : melds) {
    if (meld.kind != MeldKind::run) return false;
    for (std::size_t i = 0; i < meld.cards.size(); ++i) {
      const Card as = meld.cards[i].as;
      cards.push_back(as);
      const bool high_ace = as.rank == rules::ace && i > 0 && meld.cards[i - 1].as.rank == rules::king;
      ranks.push_back(high_ace ? 14 : as.rank);
    }
  }
  if (cards.empty()) return false;
  for (auto c : cards)
    if (c.suit != cards.front().suit) return false;
  if (all_runs_one_suit_) return true;
  std::sort(ranks.begin(), ranks.end());
  for (std::size_t i = 1; i < ranks.size(); ++i)
    if (ranks[i] != ranks[i - 1] + 1) return false;
  return true;
}

int StraightFamily::rummy_units(const DealEnd& end) const {
  if (end.after_break) return 1;
  if (end.first_turn || one_suit_rummy(end.winner)) return 4;
  return 2;
}

void StraightFamily::pay_winner(int winner, const std::vector<int>& counts, int units, const std::string& memo,
                                Settlement& pay_out) {
  pay_out.summary["counts"] = counts;
  pay_out.summary["units"] = units;
  for (int s : seats_in_play()) {
    if (s == winner) continue;
    const std::int64_t owed = points_mode_ ? std::int64_t{counts[s] - counts[winner]} * units : units;
    pay_out.points(s, winner, owed,
                   points_mode_ ? memo + ", paid in points: " + seat_tag(s) + " counts " + std::to_string(counts[s]) +
                                      " against " + std::to_string(counts[winner])
                                : memo);
  }
}

void StraightFamily::settle_rummy(const DealEnd& end, Settlement& pay_out) {
  const int units = rummy_units(end);
  const std::string how = units == 4 ? end.first_turn ? " went rummy on his first turn: 4 units"
                                                      : " went rummy in one suit: 4 units"
                         : units == 2 ? " went rummy before the break: 2 units"
                                      : " went rummy after the break: 1 unit";
  pay_winner(end.winner, unmatched_counts(), units, seat_tag(end.winner) + how, pay_out);
}

void StraightFamily::settle_showdown(const DealEnd& end, Settlement& pay_out) {
  const auto counts = unmatched_counts();
  const int winner = lowest_from(counts, end.breaker);
  pay_out.summary["winners"] = Json::array({winner});
  pay_winner(winner, counts, 1,
             seat_tag(winner) + " has the lowest count after the break, " + std::to_string(counts[winner]) + ": 1 unit",
             pay_out);
}

void StraightFamily::settle_block_showdown(Settlement& pay_out) {
  const auto counts = unmatched_counts();
  pay_out.summary["counts"] = counts;
  pay_out.summary["winners"] = pay_out.lowest_count_wins(counts, "the stock is gone: the lowest count wins");
}

}  // namespace rummy

namespace {

using namespace rummy;

class StraightRummy final : public StraightFamily {
 public:
  std::unique_ptr<GameState> clone() const override { return std::make_unique<StraightRummy>(*this); }
  explicit StraightRummy(const GameSetup& setup) : StraightFamily(setup, straight_base_config(setup.options)) {}
};

}  // namespace

GameInfo straight_rummy_info() {
  GameInfo info;
  info.id = "straight_rummy";
  info.name = "Straight Rummy";
  info.aliases = {"Six-Card Straight Rummy", "Seven-Card Straight Rummy"};
  info.min_players = 2;
  info.max_players = 6;
  info.summary = "Go rummy with the whole hand at once, or hold the lowest unmatched count when the stock runs down "
                 "to the break: 1 unit after the break, 2 before it, 4 on the first pick or in one suit. Scarne rules, "
                 "source 002.";
  info.source = "002";
  info.options = straight_family_options(true);
  info.options.push_back(six_or_seven_card_hand_option());
  info.options.push_back(one_suit_rule_option());
  info.max_players_for = players_for_six_or_seven_cards;
  info.bot = rummy::rummy_bot;
  info.create = [](const GameSetup& setup) -> std::unique_ptr<GameState> {
    return std::make_unique<StraightRummy>(setup);
  };
  return info;
}

}  // namespace parlour::rules
