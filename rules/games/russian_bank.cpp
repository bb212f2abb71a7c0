#include "rules/games/russian_bank.h"

#include <algorithm>
#include <array>
#include <map>

#include "rules/action.h"
#include "rules/building/bot_view.h"
#include "rules/building/moves.h"
#include "rules/building/packs.h"
#include "rules/building/pile_view.h"
#include "rules/building/shifts.h"
#include "rules/chip_book.h"
#include "rules/view.h"

namespace parlour::rules {

namespace {

using building::OwnedCard;
using building::Pile;
using building::Placement;
using building::Priority;
using building::Reserve;
using building::Spot;
using building::Zone;

constexpr int players = 2;
constexpr int piles = 8;   // layout piles, and bases
constexpr int column = 4;  // layout cards each player deals
constexpr std::size_t stock_size = 12;
constexpr int layout_moves_per_turn = 64;
constexpr std::size_t demand_most_moves = 8;
constexpr int demand_search_depth = 3;
constexpr std::size_t demands_listed = 6;
constexpr int win_points = 30;

enum class StopRule { refuse, call };

// An action of the player to move.
struct Move {
  enum class Kind { place, turn_stock, turn_hand, end_turn };
  Kind kind = Kind::place;
  Placement placement;
  Card card;  // the card placed
};

bool places(const Move& m, Zone from, Zone to) {
  return m.kind == Move::Kind::place && m.placement.from.zone == from && m.placement.to.zone == to;
}
bool places_to(const Move& m, Zone to) { return m.kind == Move::Kind::place && m.placement.to.zone == to; }
// The turned card onto the mover's own discard pile (M12), not a load.
bool is_discard(const Move& m, int mover) {
  return places(m, Zone::turned, Zone::discard) && m.placement.to.index == mover;
}
bool ends_turn(const Move& m, int mover) { return is_discard(m, mover) || m.kind == Move::Kind::end_turn; }

Json move_to_json(const Move& move) {
  switch (move.kind) {
    case Move::Kind::place: return building::move_json(move.placement, move.card);
    case Move::Kind::turn_stock: return {{"type", "turn_stock"}};
    case Move::Kind::turn_hand: return {{"type", "turn_hand"}};
    case Move::Kind::end_turn: return {{"type", "end_turn"}};
  }
  return {};
}

// The compulsory order of §8.4 (and §8.5's demanded space): what a refusal quotes.
const std::string rule_stock_first =
    "the stock card that fits a base goes there first (§8.4 P2: build from the stock before anything else)";
const std::string rule_base_first =
    "a centre play comes first (§8.4 P1: build on a base whenever possible, before playing on the layout, "
    "moving layout cards, loading or turning the hand)";
const std::string rule_demanded = "the space your opponent demanded must be filled from your stock (§8.5)";
const std::string rule_spaces =
    "every space in the layout must be filled before a hand card is turned up or the turn ends (§8.4 P3)";
const std::string rule_spaces_discard =
    "with the stock exhausted, every space in the layout must be filled before discarding (§8.4 P3)";
const std::string rule_hand_too_soon =
    "turn up your stock card before the hand (§8.4 P4: a hand card turned up too soon)";

// Why a placement breaks the form of the rules (refused in every stop mode).
enum class Fault {
  none,
  no_such_pile,
  empty_pile,
  stock_face_down,
  opponents_pile,
  from_discard,
  from_base,
  from_hand,
  onto_own_pile,
  onto_same_pile,
  base_mismatch,
  layout_mismatch,
  hand_into_space,
  load_mismatch,
  discard_not_turned,
  layout_limit,
};

std::string fault_message(Fault fault, const Placement& p, std::optional<Card> card) {
  const std::string from = to_string(p.from);
  const std::string to = to_string(p.to);
  const std::string what = card ? to_string(*card) : from;
  switch (fault) {
    case Fault::none: return "";
    case Fault::no_such_pile: return "there is no pile " + from + " or " + to + " to move between";
    case Fault::empty_pile: return from + " has no card to move";
    case Fault::stock_face_down:
      return "your stock card lies face down: turn it up first (§8.3 M10)";
    case Fault::opponents_pile:
      return "you may not take a card from your opponent's " + from + " (§8.3: never from the opponent's stock, "
             "hand or turned card)";
    case Fault::from_discard: return "no card can be taken from either discard pile (§8.3, modern rules)";
    case Fault::from_base: return "a card built on a base can never be withdrawn (§8.3)";
    case Fault::from_hand: return "the hand is played one card at a time: turn it up with turn_hand (§8.3 M11)";
    case Fault::onto_own_pile: return "you may not put cards on your own " + to + " (§8.3)";
    case Fault::onto_same_pile: return what + " is already on " + to;
    case Fault::base_mismatch:
      return what + " does not fit " + to + ": bases are built up in suit from the ace (§8.2)";
    case Fault::layout_mismatch:
      return what + " does not go on " + to + ": the layout is built down in alternating colour (§8.2)";
    case Fault::hand_into_space:
      return "a space is filled from the stock or the layout while your stock lasts, not from the hand (§8.3 M5)";
    case Fault::load_mismatch:
      return what + " cannot be loaded on " + to +
             ": loading goes on the opponent's face-up stock card or discard pile, same suit, one rank up or down "
             "(§8.2)";
    case Fault::discard_not_turned: return "only the turned hand card goes on your discard pile (§8.3 M12)";
    case Fault::layout_limit:
      return "at most " + std::to_string(layout_moves_per_turn) + " layout-to-layout moves a turn (move limit)";
  }
  return "";
}

// The columns of layout cards each seat dealt, in deal order.
using Columns = std::array<std::array<Card, column>, players>;

// §8.1: the lowest card, then the next lowest; with equal ranks the earlier deal
// position of the equal cards, lowest rank first. -1 when still tied.
int first_by_layout(const Columns& columns) {
  std::array<std::vector<int>, players> ranks;
  for (int seat = 0; seat < players; ++seat) {
    for (auto card : columns[seat]) ranks[seat].push_back(card.rank);
    std::sort(ranks[seat].begin(), ranks[seat].end());
  }
  if (ranks[0] != ranks[1]) return ranks[0] < ranks[1] ? 0 : 1;
  for (int rank = ace; rank <= king; ++rank) {
    std::array<std::vector<int>, players> positions;
    for (int seat = 0; seat < players; ++seat)
      for (int k = 0; k < column; ++k)
        if (columns[seat][k].rank == rank) positions[seat].push_back(k);
    if (positions[0] != positions[1]) return positions[0] < positions[1] ? 0 : 1;
  }
  return -1;
}

class RussianBank final : public GameState {
 public:
  std::unique_ptr<GameState> clone() const override { return std::make_unique<RussianBank>(*this); }
  explicit RussianBank(const GameSetup& setup) : RussianBank(setup.options) {
    seed_ = setup.seed;
    stacked_ = setup.stacked_deck;
    building::own_packs(players, seed_, stacked_);  // refuses a bad stacked deck now, not at the deal
  }

  RussianBank(const Json& options, const Json& position) : RussianBank(options) { position_ = position; }

  Phase phase() const override { return phase_; }

  std::vector<int> to_act() const override {
    if (phase_ != Phase::playing) return {};
    std::vector<int> seats = {mover_};
    if (!opponent_actions().empty()) seats.push_back(opponent());
    return seats;
  }

  Json legal_actions(int seat, const Balances&) const override {
    Json legal = Json::array();
    if (phase_ != Phase::playing) return legal;
    if (seat == opponent()) return opponent_actions();
    if (seat == mover_)
      for (const auto& move : legal_moves()) legal.push_back(move_to_json(move));
    return legal;
  }

  Effects apply(int seat, const Json& action, const Balances& balances) override {
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

  Effects start_next_deal(const Balances& balances) override {
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

  Effects seat_left(int seat, const Balances&) override {
    Effects fx;
    if (seat < 0 || seat >= players || left_[seat]) return fx;
    left_[seat] = true;
    fx.say(seat_tag(seat) + " leaves the table.");
    if (phase_ != Phase::game_over) finish_unscored("abandoned", fx);
    return fx;
  }

  Effects close(const Balances&) override {
    Effects fx;
    if (phase_ != Phase::game_over) finish_unscored("closed", fx);
    return fx;
  }

  Json view(std::optional<int> viewer) const override;
  Json result() const override { return result_; }
  int deals_played() const override { return deals_; }

 private:
  explicit RussianBank(const Json& options)
      : stop_rule_(options.at("stop_rule") == "call" ? StopRule::call : StopRule::refuse),
        stake_(options.at("stake").get<std::int64_t>()),
        max_turns_(options.at("max_turns").get<int>()),
        layout_(piles),
        book_(players, "pool") {
    for (auto& side : sides_) side.discards.resize(1);
  }

  int opponent() const { return 1 - mover_; }
  Reserve& mover_side() { return sides_[mover_]; }
  const Reserve& mover_side() const { return sides_[mover_]; }
  bool stop_callable() const { return stop_rule_ == StopRule::call && infraction_.has_value(); }

  // ------------------------------------------------------------ setup

  void deal(Effects& fx) {
    const auto packs = building::own_packs(players, seed_, stacked_);
    Columns columns;
    for (int seat = 0; seat < players; ++seat) {
      const auto& pack = packs[seat];
      auto& side = sides_[seat];
      side.set_stock(Pile(pack.rbegin() + (pack.size() - stock_size), pack.rend()), 0);
      for (int k = 0; k < column; ++k) {
        layout_[seat * column + k] = {pack[stock_size + k]};
        columns[seat][k] = pack[stock_size + k].card;
      }
      side.hand.assign(pack.rbegin(), pack.rbegin() + (pack.size() - stock_size - column));
    }
    first_ = first_by_layout(columns);
    if (first_ < 0) {
      Rng rng(seed_ ^ 0x9e3779b97f4a7c15ULL);
      first_ = static_cast<int>(rng.below(players));
      fx.say("Both columns are alike; the draw makes " + seat_tag(first_) + " player X.");
    } else {
      fx.say(seat_tag(first_) + " dealt the lowest layout card and is player X.");
    }
    mover_ = first_;
  }

  void set_up(const Json& position) {
    if (!position.is_object()) throw SetupError("position: expected an object, got " + position.dump());
    first_ = position.value("first", 0);
    mover_ = position.value("mover", first_);
    if (first_ < 0 || first_ >= players || mover_ < 0 || mover_ >= players)
      throw SetupError("position: 'first' and 'mover' are seats 0 or 1");
    turn_number_ = position.value("turn", 1) - 1;
    const Json layout = position.value("layout", Json::array());
    const Json centre = position.value("centre", Json::array());
    const Json seats = position.value("seats", Json::array());
    if (layout.size() > piles || centre.size() > piles || seats.size() > players)
      throw SetupError("position: at most 8 layout piles, 8 bases and 2 seats");
    std::vector<const Pile*> all;
    for (std::size_t i = 0; i < layout.size(); ++i) layout_[i] = building::parse_pile(layout[i], i < column ? 0 : 1);
    for (std::size_t i = 0; i < centre.size(); ++i) {
      centre_[i] = building::parse_pile(centre[i], 0);
      check_base(centre_[i]);
    }
    for (std::size_t s = 0; s < seats.size(); ++s) set_up_side(static_cast<int>(s), seats[s]);
    for (const auto& pile : layout_) all.push_back(&pile);
    for (const auto& pile : centre_) all.push_back(&pile);
    std::vector<Pile> turned(players);
    for (int s = 0; s < players; ++s) {
      const auto& side = sides_[s];
      all.insert(all.end(), {&side.stock(), &side.hand, &side.discards[0]});
      if (side.turned) turned[s].push_back(*side.turned);
      all.push_back(&turned[s]);
    }
    building::check_copies(all, 1);
  }

  static void check_base(const Pile& base) {
    Pile built;
    for (const auto& owned : base) {
      if (!building::builds_up_in_suit(owned.card, built))
        throw SetupError("position: a base must run up in suit from the ace");
      built.push_back(owned);
    }
  }

  // "stock_up": true (the default: the top card), false, or how many cards at
  // the top lie face up: the card the owner turned up and any loaded on it.
  void set_up_stock(int seat, Pile stock, const Json& up) {
    std::size_t face_up = stock.empty() ? 0 : 1;
    if (up.is_boolean()) face_up = up.get<bool>() ? face_up : 0;
    else if (up.is_number_integer() && up.get<std::int64_t>() >= 0 && up.get<std::uint64_t>() <= stock.size())
      face_up = up.get<std::size_t>();
    else if (!up.is_null())
      throw SetupError("position: 'stock_up' is true, false or how many of the stock's " + std::to_string(stock.size()) +
                       " cards lie face up, got " + up.dump());
    check_stock_run(seat, stock, face_up);
    sides_[seat].set_stock(std::move(stock), face_up);
  }

  // A stock holds its owner's cards as dealt, face down, but for the card he
  // turned up and, face up on it, each card loaded on the one beneath (same
  // suit, one rank up or down): the loads are what may come from either pack.
  static void check_stock_run(int seat, const Pile& stock, std::size_t face_up) {
    const std::string where = "position: stock:" + std::to_string(seat) + " ";
    const std::size_t first_loaded = stock.size() - face_up + 1;
    for (std::size_t i = 0; i < stock.size(); ++i) {
      const std::string card = to_string(stock[i].card);
      if (face_up == 0 || i < first_loaded) {
        if (stock[i].owner != seat)
          throw SetupError(where + "holds " + card + " of seat " + std::to_string(stock[i].owner) +
                           "'s pack where no load lies: a loaded card lies face up ('stock_up' counts the face-up "
                           "cards)");
      } else if (!building::loads_in_suit(stock[i].card, Pile{stock[i - 1]})) {
        throw SetupError(where + "shows " + card + " face up on " + to_string(stock[i - 1].card) +
                         ": a card lies face up on a stock card only when loaded on it (same suit, one rank up or "
                         "down)");
      }
    }
  }

  void set_up_side(int seat, const Json& json) {
    auto& side = sides_[seat];
    set_up_stock(seat, building::parse_pile(json.value("stock", Json::array()), seat), json.value("stock_up", Json()));
    side.hand = building::parse_pile(json.value("hand", Json::array()), seat);
    side.discards[0] = building::parse_pile(json.value("discard", Json::array()), seat);
    const Json turned = json.value("turned", Json());
    if (!turned.is_null()) side.turned = building::parse_owned_card(turned, seat);
  }

  // ------------------------------------------------------------ the piles

  bool has_vacancy() const {
    return std::any_of(layout_.begin(), layout_.end(), [](const Pile& pile) { return pile.empty(); });
  }

  // The base a card fits: a started base of its suit, or for an ace the first
  // empty one.
  std::optional<int> base_for(Card card) const {
    for (int i = 0; i < piles; ++i)
      if (!centre_[i].empty() && building::builds_up_in_suit(card, centre_[i])) return i;
    if (card.rank != ace) return std::nullopt;
    return first_empty_base();
  }

  std::optional<int> first_empty_base() const {
    for (int i = 0; i < piles; ++i)
      if (centre_[i].empty()) return i;
    return std::nullopt;
  }

  bool layout_fits_base(const building::Tableau& layout) const {
    return std::any_of(layout.begin(), layout.end(),
                       [&](const Pile& pile) { return !pile.empty() && base_for(pile.back().card); });
  }

  bool any_base_play() const {
    const auto& side = mover_side();
    if (auto top = side.stock_top(); top && base_for(*top)) return true;
    if (side.turned && base_for(side.turned->card)) return true;
    return layout_fits_base(layout_);
  }

  static bool valid_seat(int index) { return index >= 0 && index < players; }
  static bool valid_pile(int index) { return index >= 0 && index < piles; }

  // The card at a source spot, if the mover may take it.
  Fault source_fault(const Spot& from) const {
    if (from.slot >= 0) return Fault::no_such_pile;
    switch (from.zone) {
      case Zone::stock:
        if (!valid_seat(from.index)) return Fault::no_such_pile;
        if (from.index != mover_) return Fault::opponents_pile;
        if (mover_side().stock().empty()) return Fault::empty_pile;
        return mover_side().stock_top_up() ? Fault::none : Fault::stock_face_down;
      case Zone::turned:
        if (!valid_seat(from.index)) return Fault::no_such_pile;
        if (from.index != mover_) return Fault::opponents_pile;
        return mover_side().turned ? Fault::none : Fault::empty_pile;
      case Zone::hand:
        if (!valid_seat(from.index)) return Fault::no_such_pile;
        return from.index == mover_ ? Fault::from_hand : Fault::opponents_pile;
      case Zone::layout:
        if (!valid_pile(from.index)) return Fault::no_such_pile;
        return layout_[from.index].empty() ? Fault::empty_pile : Fault::none;
      case Zone::discard: return valid_seat(from.index) ? Fault::from_discard : Fault::no_such_pile;
      case Zone::centre: return valid_pile(from.index) ? Fault::from_base : Fault::no_such_pile;
      case Zone::supply: return Fault::no_such_pile;
    }
    return Fault::no_such_pile;
  }

  Card source_card(const Spot& from) const {
    switch (from.zone) {
      case Zone::stock: return mover_side().stock().back().card;
      case Zone::turned: return mover_side().turned->card;
      default: return layout_[from.index].back().card;
    }
  }

  Fault target_fault(const Spot& from, Card card, const Spot& to) const {
    if (to.slot >= 0) return Fault::no_such_pile;
    const auto& other = sides_[opponent()];
    switch (to.zone) {
      case Zone::centre:
        if (!valid_pile(to.index)) return Fault::no_such_pile;
        return building::builds_up_in_suit(card, centre_[to.index]) ? Fault::none : Fault::base_mismatch;
      case Zone::layout:
        if (!valid_pile(to.index)) return Fault::no_such_pile;
        if (from == to) return Fault::onto_same_pile;
        if (from.zone == Zone::layout && layout_moves_ >= layout_moves_per_turn) return Fault::layout_limit;
        if (layout_[to.index].empty() && from.zone == Zone::turned && !mover_side().stock().empty())
          return Fault::hand_into_space;
        return building::builds_down_alternating(card, layout_[to.index]) ? Fault::none : Fault::layout_mismatch;
      case Zone::stock:
        if (!valid_seat(to.index)) return Fault::no_such_pile;
        if (to.index == mover_) return Fault::onto_own_pile;
        return other.stock_top_up() && building::loads_in_suit(card, other.stock()) ? Fault::none : Fault::load_mismatch;
      case Zone::discard:
        if (!valid_seat(to.index)) return Fault::no_such_pile;
        if (to.index == mover_) return from.zone == Zone::turned ? Fault::none : Fault::discard_not_turned;
        return building::loads_in_suit(card, other.discards[0]) ? Fault::none : Fault::load_mismatch;
      case Zone::hand:
      case Zone::turned:
        return valid_seat(to.index) ? Fault::onto_own_pile : Fault::no_such_pile;
      case Zone::supply: return Fault::no_such_pile;
    }
    return Fault::no_such_pile;
  }

  Fault placement_fault(const Placement& p) const {
    if (auto fault = source_fault(p.from); fault != Fault::none) return fault;
    return target_fault(p.from, source_card(p.from), p.to);
  }

  // Why a turn_stock, turn_hand or end_turn cannot be made; empty if it can.
  std::string step_fault(Move::Kind kind) const {
    const auto& side = mover_side();
    switch (kind) {
      case Move::Kind::turn_stock:
        if (side.stock().empty()) return "your stock is exhausted";
        if (side.stock_top_up()) return "your stock card is already face up: one card at a time (§8.3 M10)";
        return "";
      case Move::Kind::turn_hand:
        if (side.turned) return "you already have a turned hand card: play it or discard it first (§8.3 M11)";
        if (side.hand.empty() && side.discards[0].empty()) return "your hand and discard pile are spent";
        return "";
      case Move::Kind::end_turn:
        if (side.turned || !side.hand.empty() || !side.discards[0].empty() || side.stock().empty())
          return "end_turn is only for a player with a stock but no hand, discard or turned card left (§8.3 M13); "
                 "otherwise a turn ends by discarding the turned hand card";
        return "";
      case Move::Kind::place: return "";
    }
    return "";
  }

  // ------------------------------------------------------------ legal moves

  // Every move the form of the rules allows, in the listed order.
  std::vector<Move> candidates() const {
    std::vector<Move> out;
    std::vector<Spot> sources = {{Zone::stock, mover_}, {Zone::turned, mover_}};
    for (int i = 0; i < piles; ++i) sources.push_back({Zone::layout, i});
    std::vector<Spot> targets;
    for (int i = 0; i < piles; ++i) targets.push_back({Zone::centre, i});
    for (int i = 0; i < piles; ++i) targets.push_back({Zone::layout, i});
    targets.insert(targets.end(), {{Zone::stock, opponent()}, {Zone::discard, opponent()}, {Zone::discard, mover_}});
    const auto empty_base = first_empty_base();
    for (const auto& from : sources) {
      if (source_fault(from) != Fault::none) continue;
      const Card card = source_card(from);
      for (const auto& to : targets) {
        const bool other_empty_base = to.zone == Zone::centre && centre_[to.index].empty() && to.index != empty_base;
        if (!other_empty_base && target_fault(from, card, to) == Fault::none)
          out.push_back({Move::Kind::place, {from, to}, card});
      }
    }
    for (auto kind : {Move::Kind::turn_stock, Move::Kind::turn_hand, Move::Kind::end_turn})
      if (step_fault(kind).empty()) out.push_back({kind, {}, {}});
    return out;
  }

  // §8.4's compulsory order and §8.5's demanded space, as they stand now.
  std::vector<Priority<Move>> priorities() const {
    const auto& side = mover_side();
    const bool stock_left = !side.stock().empty();
    const bool vacancy = has_vacancy();
    const auto stock_top = side.stock_top();
    const bool stock_to_base = stock_top && base_for(*stock_top);
    const bool base_play = any_base_play();
    const auto fills_space_from_stock = [this](const Move& m) {
      return places(m, Zone::stock, Zone::layout) && layout_[m.placement.to.index].empty();
    };
    const auto neither_hand_nor_end = [](const Move& m) {
      return m.kind != Move::Kind::turn_hand && m.kind != Move::Kind::end_turn;
    };
    return {
        {rule_stock_first, stock_to_base, [](const Move& m) { return places(m, Zone::stock, Zone::centre); }},
        {rule_base_first, base_play,
         [](const Move& m) { return places_to(m, Zone::centre) || m.kind == Move::Kind::turn_stock; }},
        {rule_demanded, demanded_fill_ && stock_left && !base_play,
         [fills_space_from_stock](const Move& m) {
           return m.kind == Move::Kind::turn_stock || fills_space_from_stock(m);
         }},
        {rule_spaces, vacancy && stock_left, neither_hand_nor_end},
        {rule_spaces_discard, vacancy && !stock_left,
         [this](const Move& m) { return !is_discard(m, mover_) && m.kind != Move::Kind::end_turn; }},
        {rule_hand_too_soon, stock_left && !side.stock_top_up(), neither_hand_nor_end},
    };
  }

  std::vector<Move> legal_moves() const { return building::keep_compulsory(candidates(), priorities()); }

  // ------------------------------------------------------------ the mover

  // A move's card is filled in once its source is known to hold one.
  Move parse_mover_action(const std::string& type, const Json& action, std::optional<Card>& named) const {
    if (type == "move") {
      const auto request = building::parse_move(action);
      named = request.card;
      return {Move::Kind::place, request.placement, {}};
    }
    Move move;
    if (type == "turn_stock") move.kind = Move::Kind::turn_stock;
    else if (type == "turn_hand") move.kind = Move::Kind::turn_hand;
    else if (type == "end_turn") move.kind = Move::Kind::end_turn;
    else if (type == "stop" || type == "demand")
      throw illegal_action("'" + type + "' is for the opponent of the player moving (§8.5, §8.6)");
    else
      throw illegal_action("unknown action '" + type + "': expected move, turn_stock, turn_hand or end_turn");
    expect_only_fields(action, {});
    return move;
  }

  void apply_mover(const std::string& type, const Json& action, Effects& fx) {
    std::optional<Card> named;
    Move move = parse_mover_action(type, action, named);
    if (move.kind == Move::Kind::place) {
      if (auto fault = source_fault(move.placement.from); fault != Fault::none)
        throw illegal_action(fault_message(fault, move.placement, std::nullopt));
      move.card = source_card(move.placement.from);
      building::check_named_card({move.placement, named}, move.card);
      if (auto fault = placement_fault(move.placement); fault != Fault::none)
        throw illegal_action(fault_message(fault, move.placement, move.card));
    } else if (auto fault = step_fault(move.kind); !fault.empty()) {
      throw illegal_action(fault);
    }
    const auto rules = priorities();
    if (const auto* broken = building::broken_priority(move, rules)) {
      if (stop_rule_ == StopRule::refuse) throw illegal_action(broken->rule);
      if (ends_turn(move, mover_))
        throw illegal_action(broken->rule + "; a fault that ends the turn could never be stopped, so it is refused");
      infraction_ = broken->rule;
      fx.say(seat_tag(mover_) + " plays out of order: " + broken->rule + ". " + seat_tag(opponent()) +
             " may call stop.");
    }
    perform(move, fx);
  }

  void perform(const Move& move, Effects& fx) {
    auto& side = mover_side();
    switch (move.kind) {
      case Move::Kind::turn_stock:
        side.turn_up_stock();
        fx.say(seat_tag(mover_) + " turns up " + to_string(side.stock().back().card) + " on the stock.");
        return;
      case Move::Kind::turn_hand: {
        if (side.turn_hand()) {
          ++recycles_[mover_];
          fx.say(seat_tag(mover_) + " turns the discard pile over as a new hand.");
        }
        fx.say(seat_tag(mover_) + " turns up " + to_string(side.turned->card) + " from the hand.");
        return;
      }
      case Move::Kind::end_turn:
        fx.say(seat_tag(mover_) + " has no hand card to turn and ends the turn.");
        return pass_turn(fx);
      case Move::Kind::place: return place(move.placement, fx);
    }
  }

  OwnedCard take(const Spot& from) {
    auto& side = mover_side();
    if (from.zone == Zone::stock) return side.take_stock_top();
    if (from.zone == Zone::turned) {
      const OwnedCard card = *side.turned;
      side.turned.reset();
      return card;
    }
    const OwnedCard card = layout_[from.index].back();
    layout_[from.index].pop_back();
    return card;
  }

  // A load onto a stock lies face up on its face-up top (§8.2 load).
  void put(const Spot& to, const OwnedCard& card) {
    switch (to.zone) {
      case Zone::centre: return centre_[to.index].push_back(card);
      case Zone::stock: return sides_[to.index].load_stock(card);
      case Zone::discard: return sides_[to.index].discards[0].push_back(card);
      default: return layout_[to.index].push_back(card);
    }
  }

  void place(const Placement& p, Effects& fx) {
    const bool fills_space = p.to.zone == Zone::layout && layout_[p.to.index].empty();
    const OwnedCard card = take(p.from);
    put(p.to, card);
    fx.say(seat_tag(mover_) + " moves " + to_string(card.card) + " from " + to_string(p.from) + " to " +
           to_string(p.to) + ".");
    if (p.to.zone == Zone::centre) recycles_ = {0, 0};
    if (p.from.zone == Zone::layout && p.to.zone == Zone::layout) ++layout_moves_;
    if ((p.from.zone == Zone::stock && fills_space) || mover_side().stock().empty()) demanded_fill_ = false;
    if (mover_side().cards_left() == 0) return finish_won(mover_, fx);
    if (is_discard({Move::Kind::place, p, card.card}, mover_)) pass_turn(fx);
  }

  // ------------------------------------------------------------ the opponent

  Json opponent_actions() const {
    if (!opponent_cache_) opponent_cache_ = compute_opponent_actions();
    return *opponent_cache_;
  }

  Json compute_opponent_actions() const {
    Json out = Json::array();
    if (phase_ != Phase::playing) return out;
    if (stop_callable()) {
      out.push_back({{"type", "stop"}});
      return out;
    }
    if (!demands_open()) return out;
    const int depth = std::min(demand_search_depth, layout_moves_per_turn - layout_moves_);
    if (!demand_within_reach(depth)) return out;
    const auto found = building::shift_sequences(layout_, depth, demands_listed, demand_goal());
    for (const auto& shifts : found) out.push_back(demand_json(shifts));
    return out;
  }

  // The demand as listed: each step names the card it moves.
  Json demand_json(const std::vector<building::Shift>& shifts) const {
    building::Tableau layout = layout_;
    Json moves = Json::array();
    for (const auto& s : shifts) {
      moves.push_back(building::move_json({{Zone::layout, s.from}, {Zone::layout, s.to}}, layout[s.from].back().card));
      moves.back().erase("type");
      building::apply_shift(layout, s);
    }
    return {{"type", "demand"}, {"moves", moves}};
  }

  bool demands_open() const { return !stop_callable() && !any_base_play() && layout_moves_ < layout_moves_per_turn; }

  // Whether `depth` layout moves could reach a demand's goal at all: a pile
  // short enough to be cleared, or a card that fits a base close enough to a top
  // (shifting cards never makes a card fit a base; only uncovering does). Spares
  // the search in most positions.
  bool demand_within_reach(int depth) const {
    const bool space_wanted = !has_vacancy() && mover_side().stock_top().has_value();
    for (const auto& pile : layout_) {
      const int size = static_cast<int>(pile.size());
      if (space_wanted && size > 0 && size <= depth) return true;
      for (int below = 1; below <= depth && below < size; ++below)
        if (base_for(pile[size - 1 - below].card)) return true;
    }
    return false;
  }

  // §8.5 (a) a new space for the face-up stock card, or (b) a layout card freed for a base.
  std::function<bool(const building::Tableau&)> demand_goal() const {
    const bool space_wanted = !has_vacancy() && mover_side().stock_top().has_value();
    return [this, space_wanted](const building::Tableau& layout) {
      const bool space = std::any_of(layout.begin(), layout.end(), [](const Pile& pile) { return pile.empty(); });
      return (space_wanted && space) || layout_fits_base(layout);
    };
  }

  void apply_opponent(const std::string& type, const Json& action, Effects& fx) {
    if (type == "stop") {
      expect_only_fields(action, {});
      if (stop_rule_ == StopRule::refuse)
        throw illegal_action("stop is not called at this table: out-of-order moves are refused (option stop_rule)");
      if (!infraction_)
        throw illegal_action("there is nothing to stop: no out-of-order move was made this turn (§8.6)");
      return call_stop(fx);
    }
    if (type == "demand") return demand(action, fx);
    throw not_your_turn("it is " + seat_tag(mover_) + "'s turn; the opponent may only demand layout moves or call stop");
  }

  void call_stop(Effects& fx) {
    const int faulty = mover_;
    auto& side = mover_side();
    fx.say(seat_tag(opponent()) + " calls stop: " + *infraction_ + ".");
    if (side.turned) {
      side.discards[0].push_back(*side.turned);
      side.turned.reset();
    }
    if (auto top = side.stock_top()) {
      if (auto base = base_for(*top)) {
        centre_[*base].push_back(side.take_stock_top());
        recycles_ = {0, 0};
        fx.say(to_string(*top) + " from " + seat_tag(faulty) + "'s stock is played to centre:" +
               std::to_string(*base) + " where it should have gone.");
      }
    }
    if (side.cards_left() == 0) return finish_won(faulty, fx);
    side.turn_up_stock();
    pass_turn(fx);
  }

  std::vector<building::MoveRequest> parse_demand(const Json& action) const {
    expect_only_fields(action, {"moves"});
    const auto it = action.find("moves");
    if (it == action.end() || !it->is_array() || it->empty() || it->size() > demand_most_moves)
      throw illegal_action("a demand needs 'moves': 1 to 8 layout moves [{\"from\":\"layout:i\",\"to\":\"layout:j\"}]");
    std::vector<building::MoveRequest> steps;
    for (const auto& step : *it) {
      const auto request = building::parse_move(step);
      const auto& p = request.placement;
      if (p.from.zone != Zone::layout || p.to.zone != Zone::layout || p.from.slot >= 0 || p.to.slot >= 0)
        throw illegal_action("a demand may only move cards from layout pile to layout pile (§8.5)");
      steps.push_back(request);
    }
    return steps;
  }

  void demand(const Json& action, Effects& fx) {
    const auto steps = parse_demand(action);
    if (stop_callable()) throw illegal_action("a stop can be called now; demands wait until it is not (§8.6)");
    if (any_base_play()) throw illegal_action("a base play is already due, so there is nothing to demand (§8.5)");
    if (layout_moves_ + static_cast<int>(steps.size()) > layout_moves_per_turn)
      throw illegal_action(fault_message(Fault::layout_limit, {}, std::nullopt));
    building::Tableau layout = layout_;
    std::vector<building::Shift> shifts;
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const building::Shift shift{steps[i].placement.from.index, steps[i].placement.to.index};
      if (!building::can_shift(layout, shift))
        throw illegal_action("demanded move " + std::to_string(i + 1) + " is not a layout move that can be made then "
                             "(§8.5: layout cards go down in alternating colour, or into a space)");
      building::check_named_card(steps[i], layout[shift.from].back().card);
      building::apply_shift(layout, shift);
      shifts.push_back(shift);
    }
    if (!demand_goal()(layout))
      throw illegal_action("a demand must open a space for the face-up stock card or free a layout card for a base "
                           "(§8.5)");
    fx.say(seat_tag(opponent()) + " demands " + std::to_string(shifts.size()) + " layout move(s) of " +
           seat_tag(mover_) + ": " + demand_json(shifts)["moves"].dump() + ".");
    layout_ = std::move(layout);
    layout_moves_ += static_cast<int>(shifts.size());
    demanded_fill_ = !any_base_play();
  }

  // ------------------------------------------------------------ turns and the end

  void pass_turn(Effects& fx) { begin_turn(opponent(), fx); }

  void begin_turn(int seat, Effects& fx) {
    mover_ = seat;
    layout_moves_ = 0;
    infraction_.reset();
    demanded_fill_ = false;
    ++turn_number_;
    if (turn_number_ > max_turns_) return finish_drawn("turn_limit", fx);
    if (recycles_[0] >= 2 && recycles_[1] >= 2) return finish_drawn("recycling", fx);
    if (++positions_seen_[position_key()] >= 3) return finish_drawn("repetition", fx);
    fx.say("Turn " + std::to_string(turn_number_) + ": " + seat_tag(seat) + " to move.");
  }

  std::uint64_t position_key() const {
    std::uint64_t key = 1469598103934665603ULL;
    const auto mix = [&key](std::uint64_t value) {
      key ^= value;
      key *= 1099511628211ULL;
    };
    const auto mix_pile = [&mix](const Pile& pile) {
      mix(1000 + pile.size());
      for (const auto& owned : pile) mix(static_cast<std::uint64_t>(owned.card.rank * 8 + static_cast<int>(owned.card.suit) * 2 + owned.owner));
    };
    mix(static_cast<std::uint64_t>(mover_));
    for (const auto& pile : layout_) mix_pile(pile);
    for (const auto& pile : centre_) mix_pile(pile);
    for (const auto& side : sides_) {
      mix_pile(side.stock());
      mix(1000 + side.stock_face_up());
      mix_pile(side.hand);
      mix_pile(side.discards[0]);
      mix_pile(side.turned ? Pile{*side.turned} : Pile{});
    }
    return key;
  }

  static int points_against(const Reserve& loser) {
    return win_points + 2 * static_cast<int>(loser.stock().size()) + static_cast<int>(loser.hand.size()) +
           static_cast<int>(loser.discards[0].size()) + (loser.turned ? 1 : 0);
  }

  void finish_won(int winner, Effects& fx) {
    const int loser = 1 - winner;
    const int points = points_against(sides_[loser]);
    fx.say(seat_tag(winner) + " has got rid of every card and wins " + std::to_string(points) + " points.");
    book_.seat_to_seat(loser, winner, points * stake_,
                       seat_tag(winner) + " got rid of every card: " + std::to_string(points) +
                           " points (30 for the game, 2 a card in " + seat_tag(loser) +
                           "'s stock, 1 a card in his hand, discard and turned card)" +
                           (stake_ == 1 ? "" : ", at " + std::to_string(stake_) + " chips a point"),
                       fx);
    finish("won", winner, points, Json());
  }

  void finish_drawn(const std::string& reason, Effects& fx) {
    fx.say("The game is a draw (" + reason + ").");
    finish("draw", std::nullopt, 0, reason);
  }

  void finish_unscored(const std::string& end, Effects& fx) {
    fx.say("The game ends unscored (" + end + ").");
    finish(end, std::nullopt, 0, Json());
  }

  void finish(const std::string& end, std::optional<int> winner, int points, const Json& draw_reason) {
    phase_ = Phase::game_over;
    infraction_.reset();
    opponent_cache_.reset();
    Json left = Json::array();
    Json seats = Json::array();
    for (int seat = 0; seat < players; ++seat) {
      const auto& side = sides_[seat];
      left.push_back({{"seat", seat},
                      {"stock", side.stock().size()},
                      {"hand", side.hand.size()},
                      {"discard", side.discards[0].size()},
                      {"turned", side.turned ? 1 : 0}});
      const std::string outcome = !winner ? end : *winner == seat ? "won" : "lost";
      const int signed_points = !winner ? 0 : *winner == seat ? points : -points;
      seats.push_back(book_.seat_result(seat, {{"points", signed_points}, {"outcome", outcome}}));
    }
    result_ = book_.deal_result({{"deal", deals_},
                                 {"end", end},
                                 {"winner", winner ? Json(*winner) : Json()},
                                 {"points", points},
                                 {"draw_reason", draw_reason},
                                 {"turns", turn_number_},
                                 {"left", left},
                                 {"seats", seats}});
  }

  // ------------------------------------------------------------ view

  std::string seat_status(int seat) const {
    if (phase_ == Phase::deal_over) return "waiting";
    if (phase_ == Phase::game_over) {
      const auto& winner = result_["winner"];
      if (winner.is_null()) return result_["end"].get<std::string>();
      return winner == seat ? "won" : "lost";
    }
    return seat == mover_ ? "moving" : "watching";
  }

  Json seat_view(int seat) const {
    const auto& side = sides_[seat];
    Json out = view::seat(seat, building::plain_cards(side.hand), false, seat_status(seat), left_[seat]);
    out["role"] = seat == first_ ? "X" : "Y";
    out["stock"] = side.stock().size();
    out["stock_top"] = side.stock_top() ? Json(to_string(*side.stock_top())) : Json();
    out["hand"] = side.hand.size();
    out["turned"] = side.turned ? Json(to_string(side.turned->card)) : Json();
    out["discard"] = side.discards[0].size();
    out["cards_left"] = side.cards_left();
    return out;
  }

  Json piles_view() const {
    using view::Shown;
    Json out = Json::array();
    for (int i = 0; i < piles; ++i)
      out.push_back(building::pile_view(to_string(Spot{Zone::centre, i}), std::nullopt, centre_[i], Shown::all, true));
    for (int i = 0; i < piles; ++i) {
      Json pile = building::pile_view(to_string(Spot{Zone::layout, i}), std::nullopt, layout_[i], Shown::all, true);
      pile["side"] = i < column ? 0 : 1;
      out.push_back(pile);
    }
    for (int seat = 0; seat < players; ++seat) {
      const auto& side = sides_[seat];
      out.push_back(building::stock_view(to_string(Spot{Zone::stock, seat}), seat, side));
      out.push_back(building::pile_view(to_string(Spot{Zone::hand, seat}), seat, side.hand, Shown::count, true));
      out.push_back(building::pile_view(to_string(Spot{Zone::turned, seat}), seat,
                                        side.turned ? Pile{*side.turned} : Pile{}, Shown::top, true));
      out.push_back(building::pile_view(to_string(Spot{Zone::discard, seat}), seat, side.discards[0], Shown::all, true));
    }
    return out;
  }

  const char* phase_name() const {
    switch (phase_) {
      case Phase::deal_over: return "waiting";
      case Phase::playing: return "play";
      case Phase::game_over: return "game_over";
    }
    return "play";
  }

  const StopRule stop_rule_;
  const std::int64_t stake_;
  const int max_turns_;
  std::uint64_t seed_ = 0;
  std::optional<std::vector<Card>> stacked_;
  Json position_;

  std::array<Reserve, players> sides_;
  building::Tableau layout_;
  std::array<Pile, piles> centre_;
  std::array<bool, players> left_ = {false, false};
  int first_ = 0;
  int mover_ = 0;
  int turn_number_ = 0;
  int layout_moves_ = 0;                    // layout-to-layout moves this turn
  std::optional<std::string> infraction_;   // the rule broken this turn (stop_rule call)
  bool demanded_fill_ = false;              // a demanded space awaits the stock
  std::array<int, players> recycles_ = {0, 0};  // discard piles turned over since the last base play
  std::map<std::uint64_t, int> positions_seen_;
  mutable std::optional<Json> opponent_cache_;

  ChipBook book_;
  Phase phase_ = Phase::deal_over;
  int deals_ = 0;
  Json result_;
};

Json RussianBank::view(std::optional<int> viewer) const {
  Json out = view::base(view::layouts::building, phase_name(), deals_, std::nullopt);
  out["viewer"] = viewer ? Json(*viewer) : Json();
  Json seats = Json::array();
  for (int seat = 0; seat < players; ++seat) seats.push_back(seat_view(seat));
  out["seats"] = std::move(seats);
  out["piles"] = piles_view();
  const auto acting = to_act();
  out["turn"] = view::turn(acting, phase_ != Phase::playing ? "over" : stop_callable() ? "stop_window" : "play");
  out["mover"] = phase_ == Phase::playing ? Json(mover_) : Json();
  out["first_player"] = first_;
  out["turn_number"] = turn_number_;
  out["max_turns"] = max_turns_;
  out["stop_rule"] = stop_rule_ == StopRule::call ? "call" : "refuse";
  out["stake"] = stake_;
  out["infraction"] = infraction_ ? Json(*infraction_) : Json();
  out["demanded_space"] = demanded_fill_;
  out["layout_moves"] = {{"made", layout_moves_}, {"limit", layout_moves_per_turn}};
  out["recycles"] = recycles_;
  return out;
}

// ------------------------------------------------------------ the bot

// Lower is better: stop, base plays, turning the stock, loads, stock and hand
// cards onto builds, layout moves that open a space, then discarding. Any other
// layout move comes last, so the bot never shuffles cards to and fro.
int bot_preference(const Json& action, const building::SeenPiles& seen) {
  const auto type = action.value("type", "");
  if (type == "stop") return 0;
  if (type == "turn_stock") return 2;
  if (type == "turn_hand") return 8;
  if (type == "end_turn") return 11;
  if (type == "demand") return 12;
  if (type != "move") return 20;
  const auto from = building::parse_spot(action["from"].get<std::string>());
  const auto to = building::parse_spot(action["to"].get<std::string>());
  if (to.zone == Zone::centre) return 1;
  if ((to.zone == Zone::stock || to.zone == Zone::discard) && to.index != seen.viewer()) return 3;
  if (to.zone == Zone::discard) return 10;
  const bool onto_build = seen.count(to_string(to)) > 0;
  if (from.zone == Zone::stock) return onto_build ? 4 : 5;
  if (from.zone == Zone::turned) return onto_build ? 7 : 9;
  if (from.zone == Zone::layout && seen.count(to_string(from)) == 1 && onto_build) return 6;
  return 20;
}

}  // namespace

Json russian_bank_bot(const Json& view, const Json& legal, Rng&) {
  const building::SeenPiles seen(view);
  return building::preferred_action(legal, [&seen](const Json& action) { return bot_preference(action, seen); });
}

std::unique_ptr<GameState> russian_bank_at(const Json& options, const Json& position) {
  const auto* info = Registry::builtin().find("russian_bank");
  if (!info) throw SetupError("russian bank is not registered");
  return std::make_unique<RussianBank>(Registry::validate_options(*info, options), position);
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
    return std::make_unique<RussianBank>(setup);
  };
  info.bot = russian_bank_bot;
  return info;
}

}  // namespace parlour::rules
