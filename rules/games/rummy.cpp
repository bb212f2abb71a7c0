#include "rules/games/rummy.h"

#include "rules/rummy/bot.h"
#include "rules/rummy/rules_json.h"
#include "rules/rummy/rummy_base.h"
#include "rules/rummy/settlement.h"

namespace parlour::rules {

namespace {

using namespace rummy;

int hand_size_for(int players) { return players == 2 ? 10 : players <= 4 ? 7 : 6; }

RummyConfig rummy_config(const Json& options, int players) {
  RummyConfig c;
  c.deal.hand_size = hand_size_for(players);
  c.values = CardValues::basic();
  if (option_on(options, "round_the_corner")) {
    c.melds.ace = AceMode::around;
    c.values = CardValues::ace11();
  } else if (option_on(options, "high_low")) {
    c.melds.ace = AceMode::low_or_high;
    c.values = CardValues::ace11();
  }
  if (option_on(options, "wild_card")) {
    const int jokers = options.at("jokers").get<int>();
    c.melds.deuces_wild = true;
    c.melds.jokers_wild = jokers > 0;
    c.deal.pack.jokers = jokers;
    c.values.wild_deuce = 25;
    c.values.joker = 25;
  }
  c.melding.rummy_only = option_on(options, "one_meld") || option_on(options, "wild_card") || option_on(options, "boathouse");
  c.draw.boathouse = option_on(options, "boathouse");
  c.draw.boathouse_two_discards = option_on(options, "boathouse_two_discards");
  if (option_on(options, "block")) {
    c.discard.final_discard_required = true;
    c.stock.end = StockEnd::discard_only;
  }
  c.discard.needs_earlier_meld = option_on(options, "two_meld");
  c.discard.call = option_on(options, "call");
  c.discard.no_discard_taken_upcard = option_on(options, "no_discard_taken_upcard");
  c.stock.max_restocks = options.at("max_restocks").get<int>();
  c.scoring.stake = options.at("stake").get<std::int64_t>();
  c.scoring.deals = options.at("deals").get<int>();
  return c;
}

class Rummy final : public RummyBase {
 public:
  std::unique_ptr<GameState> clone() const override { return std::make_unique<Rummy>(*this); }
  explicit Rummy(const GameSetup& setup) : RummyBase(setup, rummy_config(setup.options, setup.players)), options_(setup.options) {}

 private:
  void settle_deal(const DealEnd& end, Balances& chips, Effects& fx, Json& summary) override {
    Settlement pay_out{*this, chips, fx, summary, config().scoring.stake};
    if (end.kind == DealEnd::Kind::block_showdown) return settle_lowest_count(pay_out);
    if (end.kind != DealEnd::Kind::went_out) return;
    const int winner = end.winner;
    if (option_on(options_, "one_meld") || option_on(options_, "wild_card")) {
      // The winner collects what his own melds are worth from each opponent.
      const int worth = melded_value(winner);
      summary["melded"] = worth;
      for (int s : seats_in_play())
        if (s != winner)
          pay_out.points(s, winner, worth,
                         seat_tag(winner) + " went rummy: each player pays the value of his melds, " +
                             std::to_string(worth));
      return;
    }
    const bool doubled = end.rummy && !(option_on(options_, "boathouse") && option_on(options_, "boathouse_single_pay"));
    summary["doubled"] = doubled;
    for (int s : seats_in_play())
      if (s != winner)
        pay_out.points(s, winner, hand_count(s) * (doubled ? 2 : 1),
                       seat_tag(winner) + (end.rummy ? " went rummy: " : " went out: ") + seat_tag(s) +
                           "'s cards left count " + std::to_string(hand_count(s)) +
                           (doubled ? ", doubled for going rummy in one turn" : ""));
  }

  int melded_value(int seat) const {
    int total = 0;
    for (const auto& tm : table())
      if (tm.meld.owner == seat) total += config().values.of_meld(tm.meld);
    return total;
  }

  // Block after the stock: the lowest count wins the difference from each other
  // player; tied winners split it.
  void settle_lowest_count(Settlement& pay_out) {
    std::vector<int> counts;
    for (int s = 0; s < players(); ++s) counts.push_back(hand_count(s));
    pay_out.summary["counts"] = counts;
    pay_out.summary["winners"] = pay_out.lowest_count_wins(counts, "the stock is gone (Block)");
  }

  Json options_;
};

void check_rummy_options(const Json& o) {
  auto both = [&](const char* a, const char* b, const char* why) {
    if (option_on(o, a) && option_on(o, b)) throw SetupError(std::string("options ") + a + " and " + b + " contradict: " + why);
  };
  both("two_meld", "boathouse", "Boathouse melds only by going rummy, Two-Meld forbids going out at once");
  both("two_meld", "one_meld", "One-Meld melds only by going rummy, Two-Meld forbids going out at once");
  both("two_meld", "wild_card", "Wild Card melds only by going rummy, Two-Meld forbids going out at once");
  if (option_on(o, "boathouse_two_discards") && !option_on(o, "boathouse"))
    throw SetupError("option boathouse_two_discards needs boathouse");
  if (o.at("jokers").get<int>() > 0 && !option_on(o, "wild_card")) throw SetupError("option jokers needs wild_card");
}

}  // namespace

GameInfo rummy_info() {
  GameInfo info;
  info.id = "rummy";
  info.name = "Rummy";
  info.aliases = {"Rum", "Basic Rummy"};
  info.min_players = 2;
  info.max_players = 6;
  info.summary = "Meld sets and runs, lay off on any meld, and go out first: collect the cards left in the other hands, "
                 "double for going rummy. Hoyle/Gibson rules, source 000.";
  info.source = "000";
  auto flag = [](const char* name, const char* description) {
    return OptionSpec{name, OptionSpec::Type::boolean, false, {}, std::nullopt, std::nullopt, description};
  };
  info.options = common_rummy_options();
  for (auto o : {
           flag("block", "Block (Hoyle): go out with a discard; after the stock, draw only the upcard until one declines; low count wins the difference."),
           flag("boathouse", "Boathouse: the upcard only together with the stock top; meld only by going rummy."),
           flag("boathouse_two_discards", "Boathouse: the two top discards may also be taken."),
           flag("boathouse_single_pay", "Boathouse: pay single, not double, for going rummy."),
           flag("call", "Call: on a discard that could be laid off, another player may call \"Rummy!\" and lay it off."),
           flag("high_low", "High-Low: the ace is high or low (A-K-Q or 3-2-A) and counts 11."),
           flag("one_meld", "One-Meld: no meld until one player goes rummy; he collects his meld's value from each."),
           flag("round_the_corner", "Round the Corner: runs go round the corner (2-A-K); the ace counts 11."),
           flag("two_meld", "Two-Meld: no going out unless you melded on an earlier turn."),
           flag("wild_card", "Wild Card: deuces wild, worth 25; meld only by going rummy; collect your meld's value."),
       })
    info.options.push_back(o);
  info.options.push_back({"jokers", OptionSpec::Type::integer, 0, {0, 1, 2}, 0, 2, "Wild Card: jokers added as extra deuces."});
  info.options.push_back({"max_restocks", OptionSpec::Type::integer, 1, {}, 1, 10,
                          "Times the discard pile may be turned into a new stock before a deal ends with no winner."});
  info.options.push_back({"no_discard_taken_upcard", OptionSpec::Type::boolean, true, {}, std::nullopt, std::nullopt,
                          "The upcard just taken may not be discarded in the same turn."});
  info.check_options = check_rummy_options;
  info.bot = rummy_bot;
  info.create = [](const GameSetup& setup) -> std::unique_ptr<GameState> { return std::make_unique<Rummy>(setup); };
  return info;
}

}  // namespace parlour::rules
