// The GameState interface: who acts, apply's dispatch, the deal's start, a
// player leaving, the table closing; and the registry entry.
#include "rules/games/russian_bank/game.h"

#include "rules/action.h"

namespace parlour::rules::russian_bank {

RussianBank::RussianBank(const GameSetup& setup) : RussianBank(setup.options) {
  seed_ = setup.seed;
  stacked_ = setup.stacked_deck;
  building::own_packs(players, seed_, stacked_);  // refuses a bad stacked deck now, not at the deal
}

std::vector<int> RussianBank::to_act() const {
  if (phase_ != Phase::playing) return {};
  std::vector<int> seats = {mover_};
  if (!opponent_actions().empty()) seats.push_back(opponent());
  return seats;
}

Json RussianBank::legal_actions(int seat, const Balances&) const {
  Json legal = Json::array();
  if (phase_ != Phase::playing) return legal;
  if (seat == opponent()) return opponent_actions();
  if (seat == mover_)
    for (const auto& move : legal_moves()) legal.push_back(move_to_json(move));
  return legal;
}

Effects RussianBank::apply(int seat, const Json& action, const Balances& balances) {
  if (phase_ != Phase::playing) throw not_your_turn("the game is not in play");
  if (seat != 0 && seat != 1) throw not_your_turn(seat_tag(seat) + " does not play Russian Bank here");
  const auto type = action_type(action);
  book_.sync(balances);
  Effects fx;
  if (seat == mover_) apply_mover(type, action, fx);
  else apply_opponent(type, action, fx);
  opponent_cache_.reset();
  return fx;
}

Effects RussianBank::start_next_deal(const Balances& balances) {
  if (phase_ != Phase::deal_over) throw std::logic_error("russian bank: one game per table");
  book_.sync(balances);
  Effects fx;
  deals_ = 1;
  if (position_.is_null()) deal(fx);
  else set_up(position_);
  phase_ = Phase::playing;
  begin_turn(mover_, fx);
  opponent_cache_.reset();
  return fx;
}

Effects RussianBank::seat_left(int seat, const Balances&) {
  Effects fx;
  if (seat < 0 || seat >= players || left_[seat]) return fx;
  left_[seat] = true;
  fx.say(seat_tag(seat) + " leaves the table.");
  if (phase_ != Phase::game_over) finish_unscored("abandoned", fx);
  return fx;
}

Effects RussianBank::close(const Balances&) {
  Effects fx;
  if (phase_ != Phase::game_over) finish_unscored("closed", fx);
  return fx;
}

RussianBank::RussianBank(const Json& options)
    : stop_rule_(options.at("stop_rule") == "call" ? StopRule::call : StopRule::refuse),
      stake_(options.at("stake").get<std::int64_t>()),
      max_turns_(options.at("max_turns").get<int>()),
      layout_(piles),
      book_(players, "pool") {
  for (auto& side : sides_) side.discards.resize(1);
}

}  // namespace parlour::rules::russian_bank

namespace parlour::rules {

std::unique_ptr<GameState> russian_bank_at(const Json& options, const Json& position) {
  const auto* info = Registry::builtin().find("russian_bank");
  if (!info) throw SetupError("russian bank is not registered");
  return std::make_unique<russian_bank::RussianBank>(Registry::validate_options(*info, options), position);
}

GameInfo russian_bank_info() {
  GameInfo info;
  info.view_constants = {"max_turns", "stop_rule", "stake"};  // set by the options (registry.h)
  info.id = "russian_bank";
  info.name = "Russian Bank";
  info.aliases = {"Crapette"};
  info.min_players = 2;
  info.max_players = 2;
  info.summary =
      "Double solitaire with a pack each: race to get rid of your stock, hand and discards onto the bases, the "
      "layout and your opponent's piles, in the strict order the rules demand.";
  info.source = "000";
  info.options = {
      {"stop_rule", OptionSpec::Type::enumeration, "refuse", {"refuse", "call"}, std::nullopt, std::nullopt,
       "refuse: an out-of-order move is refused, naming the rule; call: it is accepted and the opponent may call "
       "stop for the rest of that turn."},
      {"stake", OptionSpec::Type::integer, 1, {}, 1, 1000, "Chips per point of the winner's score."},
      {"max_turns", OptionSpec::Type::integer, 600, {}, 10, 5000, "Turns after which the game is a draw."},
  };
  info.create = [](const GameSetup& setup) -> std::unique_ptr<GameState> {
    return std::make_unique<russian_bank::RussianBank>(setup);
  };
  info.bot = russian_bank_bot;
  return info;
}

}  // namespace parlour::rules
