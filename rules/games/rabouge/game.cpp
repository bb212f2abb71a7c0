// The GameState interface: who acts, apply's dispatch, a deal's start, a player
// leaving, the table closing; and the registry entry.
#include "rules/games/rabouge/game.h"

#include <algorithm>

#include "rules/action.h"
#include "rules/building/pile_view.h"
#include "rules/shoe.h"
#include "rules/snapshot.h"
#include "rules/view.h"

namespace parlour::rules::rabouge {

Rabouge::Rabouge(const Json& options, int players, std::uint64_t seed, std::optional<std::vector<Card>> stacked)
    : packs_(options.at("packs").get<int>() == 0 ? players : options.at("packs").get<int>()),
      stake_(options.at("stake").get<std::int64_t>()),
      win_stake_(options.at("win_stake").get<std::int64_t>()),
      card_count_(options.at("card_count").get<bool>()),
      rabouge_stake_(options.at("rabouge_stake").get<std::int64_t>()),
      seed_(seed),
      stacked_(std::move(stacked)),
      players_(static_cast<std::size_t>(players)),
      book_(players, "pool") {
  for (auto& p : players_) p.cards.discards.resize(discard_slots);
  if (packs_ == players) building::own_packs(players, seed_, stacked_);  // refuses a bad deck now
  else Shoe(PackSpec{false, 0, packs_}, seed_, stacked_);
}

Rabouge::Rabouge(const Json& options, int players, const Json& position) : Rabouge(options, players, 0, std::nullopt) {
  position_ = position;
}

std::vector<int> Rabouge::to_act() const {
  if (phase_ != Phase::playing) return {};
  return {mover_};
}

void Rabouge::write_legal_actions(int seat, const Balances&, JsonWriter& out) const {
  out.begin_array();
  if (phase_ == Phase::playing && seat == mover_)
    for (const auto& move : legal_moves()) write_action(out, move);
  out.end_array();
}

Effects Rabouge::apply(int seat, const Json& action, const Balances& balances) {
  if (phase_ != Phase::playing) throw not_your_turn("the game is not in play");
  if (seat != mover_) throw not_your_turn("it is " + seat_tag(mover_) + "'s turn");
  std::optional<Card> named;
  Move move = parse_action(action, named);
  check(move, named);
  book_.sync(balances);
  Effects fx;
  perform(move, fx);
  return fx;
}

Effects Rabouge::start_next_deal(const Balances& balances) {
  if (phase_ != Phase::deal_over) throw std::logic_error("rabouge: one game per table");
  book_.sync(balances);
  Effects fx;
  deals_ = 1;
  phase_ = Phase::playing;
  if (position_.is_null()) {
    deal();
    mover_ = lead(fx);
    begin_turn(mover_, fx);
  } else {
    set_up(position_);
    settle_automatic(fx);
  }
  return fx;
}

Effects Rabouge::seat_left(int seat, const Balances& balances) {
  Effects fx;
  if (seat < 0 || seat >= players() || players_[seat].left) return fx;
  players_[seat].left = true;
  fx.say(seat_tag(seat) + " leaves the table.");
  if (phase_ == Phase::game_over) return fx;
  if (seated() < 2) {
    finish("abandoned", {}, fx);
    return fx;
  }
  if (phase_ == Phase::playing && seat == mover_) {
    book_.sync(balances);
    next_turn(fx);
  }
  return fx;
}

Effects Rabouge::close(const Balances&) {
  Effects fx;
  if (phase_ != Phase::game_over) finish("closed", {}, fx);
  return fx;
}

Json Player::snapshot() const {
  return {{"cards", cards.snapshot()},
          {"opened", opened},
          {"stock_paid", stock_paid},
          {"rabouges", rabouges},
          {"left", left}};
}

void Player::restore(const Json& snapshot, int seats) {
  cards.restore(member(snapshot, "cards"), seats);
  opened = field<bool>(snapshot, "opened");
  stock_paid = field<bool>(snapshot, "stock_paid");
  rabouges = field<int>(snapshot, "rabouges");
  left = field<bool>(snapshot, "left");
}

Json CentrePile::snapshot() const { return {{"id", id}, {"cards", building::pile_json(cards)}}; }

CentrePile CentrePile::restore(const Json& snapshot, int seats) {
  CentrePile pile{field<int>(snapshot, "id"), building::pile_from(member(snapshot, "cards"), seats)};
  if (pile.cards.empty() || pile.cards.size() >= pile_full)
    throw SnapshotError("expected a centre pile of 1 to " + std::to_string(pile_full - 1) + " cards, got " +
                        std::to_string(pile.cards.size()));
  return pile;
}

// A game set up at a position (rabouge_at) is not made through the registry, so
// `position_` is never part of a snapshot.
Json Rabouge::snapshot() const {
  Json seats = Json::array();
  for (const auto& p : players_) seats.push_back(p.snapshot());
  Json centre = Json::array();
  for (const auto& pile : centre_) centre.push_back(pile.snapshot());
  return {{"players", std::move(seats)},
          {"centre", std::move(centre)},
          {"next_pile_id", next_pile_id_},
          {"starter_rank", optional_json(starter_rank_)},
          {"mover", mover_},
          {"draws_left", draws_left_},
          {"passes", passes_},
          {"aside", aside_},
          {"rabouge_cards", rabouge_cards_},
          {"book", book_.snapshot()},
          {"phase", enum_json(phase_)},
          {"deals", deals_},
          {"result", result_}};
}

void Rabouge::restore(const Json& snapshot) {
  const auto& saved = member(snapshot, "players");
  expect_size(saved, players_.size(), "players");
  for (std::size_t seat = 0; seat < players_.size(); ++seat) players_[seat].restore(saved[seat], players());
  const auto& centre = member(snapshot, "centre");
  if (!centre.is_array()) throw SnapshotError("expected \"centre\" to be an array of piles, got " + centre.dump());
  centre_.clear();
  for (const auto& pile : centre) centre_.push_back(CentrePile::restore(pile, players()));
  next_pile_id_ = field<int>(snapshot, "next_pile_id");
  starter_rank_ = optional_field<int>(snapshot, "starter_rank");
  mover_ = field<int>(snapshot, "mover");
  draws_left_ = field<int>(snapshot, "draws_left");
  passes_ = field<int>(snapshot, "passes");
  aside_ = field<std::size_t>(snapshot, "aside");
  rabouge_cards_ = field<std::size_t>(snapshot, "rabouge_cards");
  book_ = ChipBook::restore(member(snapshot, "book"), static_cast<int>(players_.size()));
  phase_ = phase_field(snapshot, "phase");
  deals_ = field<int>(snapshot, "deals");
  result_ = field<Json>(snapshot, "result");
  check_restored();
}

void Rabouge::check_restored() const {
  if (mover_ < 0 || mover_ >= players()) throw SnapshotError("\"mover\" is not a seat: " + std::to_string(mover_));
  if (starter_rank_ && (*starter_rank_ < ace || *starter_rank_ > king))
    throw SnapshotError("\"starter_rank\" is not a rank: " + std::to_string(*starter_rank_));
  std::vector<int> ids;
  for (const auto& pile : centre_) ids.push_back(pile.id);
  std::sort(ids.begin(), ids.end());
  if (std::adjacent_find(ids.begin(), ids.end()) != ids.end() ||
      (!ids.empty() && (ids.front() < 0 || ids.back() >= next_pile_id_)))
    throw SnapshotError("centre piles need distinct ids below \"next_pile_id\"");
  // next_turn() looks for the next seated player, and one is always there in play.
  if (phase_ == Phase::playing && (seated() < 2 || players_[mover_].left))
    throw SnapshotError("a game in play needs two seated players, the mover one of them");
  // An opening lays each drawn card that fits nowhere on an empty discard slot
  // (start_discard_pile) and never runs out of them: an opening draws at most
  // four cards to lay aside, since the game's first draw is the starter, which
  // starts a pile. A player yet to open must have room for all he may lay aside.
  for (int seat = 0; seat < players(); ++seat) {
    const auto& p = players_[seat];
    if (p.opened || p.left) continue;
    const bool drawing = phase_ == Phase::playing && seat == mover_;
    const int draws = drawing ? std::max(draws_left_, 0) : starter_rank_ ? later_opening_draws : first_opening_draws;
    const int may_lay_aside = draws + (p.cards.turned ? 1 : 0) - (starter_rank_ ? 0 : 1);
    const auto empty = std::count_if(p.cards.discards.begin(), p.cards.discards.end(),
                                     [](const Pile& pile) { return pile.empty(); });
    if (may_lay_aside > empty)
      throw SnapshotError("seat " + std::to_string(seat) + " has yet to open and may lay aside " +
                          std::to_string(may_lay_aside) + " cards, but has " + std::to_string(empty) +
                          " empty discard slots");
  }
  // A finished game's seats read the result's "winners" and "end" (view.cpp).
  if (phase_ == Phase::game_over &&
      (!result_.is_object() || !result_.contains("winners") || !result_["winners"].is_array() ||
       !result_.contains("end") || !result_["end"].is_string()))
    throw SnapshotError("a finished game's result needs \"winners\" and \"end\", got " + result_.dump());
}

int Rabouge::seated() const {
  return static_cast<int>(std::count_if(players_.begin(), players_.end(), [](const Player& p) { return !p.left; }));
}

}  // namespace parlour::rules::rabouge

namespace parlour::rules {

std::unique_ptr<GameState> rabouge_at(const Json& options, int players, const Json& position) {
  const auto* info = Registry::builtin().find("rabouge");
  if (!info) throw SetupError("rabouge is not registered");
  const Json checked = Registry::validate_options(*info, options);
  if (players < info->min_players || players > info->max_players_with(checked))
    throw SetupError("rabouge: bad player count for these options");
  return std::make_unique<rabouge::Rabouge>(checked, players, position);
}

GameInfo rabouge_info() {
  GameInfo info;
  info.view_constants = {"packs", "stock_size", "stake", "win_stake", "card_count", "rabouge_stake"};  // set by the options (registry.h)
  info.id = "rabouge";
  info.name = "Rabouge";
  info.aliases = {"Rappuse", "Rapuse", "Grabuge", "Grabouge", "Rapouse", "Rabuse"};
  info.min_players = 2;
  info.max_players = 8;
  info.summary =
      "Get rid of your reserve and your supply onto shared centre piles that run up by rank, suits ignored; lay "
      "the 13th card of a pile to claim a rabouge.";
  info.source = "001";
  info.options = {
      {"packs", OptionSpec::Type::integer, 0, {}, 0, 24,
       "Packs in play: 0 for one each; more packs than players are shuffled together and make bigger stocks."},
      {"stake", OptionSpec::Type::integer, 1, {}, 1, 1000, "Chips per Mark."},
      {"win_stake", OptionSpec::Type::integer, 0, {}, 0, 1000, "Marks each loser pays the winner at the end."},
      {"card_count", OptionSpec::Type::boolean, false, {}, std::nullopt, std::nullopt,
       "At the end each loser also pays 2 Marks per stock card and 1 per supply or discard card left."},
      {"rabouge_stake", OptionSpec::Type::integer, 0, {}, 0, 1000,
       "Marks each opponent pays the player who claims a rabouge."},
  };
  info.check_options = [](const Json& options) {
    if (options.at("packs").get<int>() == 1) throw SetupError("option 'packs' is 0 (one each) or at least 2");
  };
  info.max_players_for = [](const Json& options) {
    const int packs = options.at("packs").get<int>();
    return packs == 0 ? 8 : std::min(8, packs);
  };
  info.create = [](const GameSetup& setup) -> std::unique_ptr<GameState> {
    return std::make_unique<rabouge::Rabouge>(setup.options, setup.players, setup.seed, setup.stacked_deck);
  };
  info.bot = rabouge_bot;
  return info;
}

}  // namespace parlour::rules
