// The GameState interface: who acts, apply's dispatch, the deal's start, a
// player leaving, the table closing; and the registry entry.
#include "rules/games/russian_bank/game.h"

#include "rules/action.h"
#include "rules/snapshot.h"

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

// The opponent's actions are kept as a tree: to_act() asks whether there are any.
void RussianBank::write_legal_actions(int seat, const Balances&, JsonWriter& out) const {
  if (phase_ == Phase::playing && seat == opponent()) {
    out.json(opponent_actions());
    return;
  }
  out.begin_array();
  if (phase_ == Phase::playing && seat == mover_)
    for (const auto& move : legal_moves()) write_action(out, move);
  out.end_array();
}

Effects RussianBank::apply(int seat, const Json& action, const Balances& balances) {
  if (phase_ != Phase::playing) throw not_your_turn("the game is not in play");
  if (seat != 0 && seat != 1) throw not_your_turn(seat_tag(seat) + " does not play Russian Bank here");
  const auto type = action_type(action);
  // The book keeps the chips of the call before; a refused action leaves them so
  // (the fuzzer's snapshot comparison found a refusal that had synced them).
  const Balances synced_before{book_.chips(0), book_.chips(1)};  // synced at the deal, before any apply
  book_.sync(balances);
  Effects fx;
  try {
    if (seat == mover_) apply_mover(type, action, fx);
    else apply_opponent(type, action, fx);
  } catch (const RulesError&) {
    book_.sync(synced_before);
    throw;
  }
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

// A game set up at a position (russian_bank_at) is not made through the registry,
// so `position_` is never part of a snapshot. The opponent's listed actions are
// a cache of the state: restore() drops it and they are worked out again.
Json RussianBank::snapshot() const {
  Json seen = Json::array();
  for (const auto& [key, count] : positions_seen_) seen.push_back({key, count});
  return {{"sides", Json::array({sides_[0].snapshot(), sides_[1].snapshot()})},
          {"layout", building::piles_json(layout_)},
          {"centre", building::piles_json(centre_)},
          {"left", left_},
          {"first", first_},
          {"mover", mover_},
          {"turn_number", turn_number_},
          {"layout_moves", layout_moves_},
          {"infraction", optional_json(infraction_)},
          {"demanded_fill", demanded_fill_},
          {"recycles", recycles_},
          {"positions_seen", std::move(seen)},
          {"book", book_.snapshot()},
          {"phase", enum_json(phase_)},
          {"deals", deals_},
          {"result", result_}};
}

namespace {

// One value a seat, exactly `players` of them.
template <typename T>
std::array<T, players> per_seat(const Json& snapshot, const char* key) {
  expect_size(member(snapshot, key), players, key);
  const auto values = field<std::vector<T>>(snapshot, key);
  std::array<T, players> out{};
  std::copy(values.begin(), values.end(), out.begin());
  return out;
}

int seat_field(const Json& snapshot, const char* key) {
  const int seat = field<int>(snapshot, key);
  if (seat < 0 || seat >= players) throw SnapshotError(std::string("\"") + key + "\" is not seat 0 or 1");
  return seat;
}

// A finished game's seats read the result's "winner" and "end" (view.cpp).
void check_final_result(const Json& result) {
  if (!result.is_object() || !result.contains("winner") || !result.contains("end") || !result["end"].is_string() ||
      !(result["winner"].is_null() || result["winner"].is_number_integer()))
    throw SnapshotError("a finished game's result needs \"winner\" and \"end\", got " + result.dump());
}

}  // namespace

void RussianBank::restore(const Json& snapshot) {
  const auto& sides = member(snapshot, "sides");
  expect_size(sides, players, "sides");
  for (int seat = 0; seat < players; ++seat) sides_[seat].restore(sides[seat], players);
  building::piles_from(member(snapshot, "layout"), layout_, players, "layout piles");
  building::piles_from(member(snapshot, "centre"), centre_, players, "bases");
  left_ = per_seat<bool>(snapshot, "left");
  first_ = seat_field(snapshot, "first");
  mover_ = seat_field(snapshot, "mover");
  turn_number_ = field<int>(snapshot, "turn_number");
  layout_moves_ = field<int>(snapshot, "layout_moves");
  if (layout_moves_ < 0 || layout_moves_ > layout_moves_per_turn)
    throw SnapshotError("\"layout_moves\" is out of range: " + std::to_string(layout_moves_));
  infraction_ = optional_field<std::string>(snapshot, "infraction");
  demanded_fill_ = field<bool>(snapshot, "demanded_fill");
  recycles_ = per_seat<int>(snapshot, "recycles");
  const auto seen = field<std::vector<std::pair<std::uint64_t, int>>>(snapshot, "positions_seen");
  positions_seen_ = {seen.begin(), seen.end()};
  book_ = ChipBook::restore(member(snapshot, "book"), static_cast<int>(players));
  phase_ = phase_field(snapshot, "phase");
  deals_ = field<int>(snapshot, "deals");
  result_ = field<Json>(snapshot, "result");
  if (phase_ == Phase::game_over) check_final_result(result_);
  opponent_cache_.reset();
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
