#include "rules/games/rabouge.h"

#include <algorithm>

#include "rules/action.h"
#include "rules/building/bot_view.h"
#include "rules/building/moves.h"
#include "rules/building/packs.h"
#include "rules/building/pile_view.h"
#include "rules/chip_book.h"
#include "rules/shoe.h"
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

constexpr std::size_t pile_full = 13;  // a rabouge
constexpr int discard_slots = 4;
constexpr int first_opening_draws = 5;  // the starter and four more
constexpr int later_opening_draws = 4;
constexpr std::int64_t marks_per_stock_card = 2;

// An action of the player to move.
struct Move {
  enum class Kind { place, draw, pass };
  Kind kind = Kind::place;
  Placement placement;
  Card card;  // the card placed
};

bool places_from(const Move& m, Zone from) { return m.kind == Move::Kind::place && m.placement.from.zone == from; }
bool places_to(const Move& m, Zone to) { return m.kind == Move::Kind::place && m.placement.to.zone == to; }

Json move_to_json(const Move& move) {
  switch (move.kind) {
    case Move::Kind::place: return building::move_json(move.placement, move.card);
    case Move::Kind::draw: return {{"type", "draw"}};
    case Move::Kind::pass: return {{"type", "pass"}};
  }
  return {};
}

const std::string rule_drawn_first = "the drawn card must be placed before anything else (§9.4)";
const std::string rule_opening_draws = "the opening turn draws its cards first, one at a time (§9.4)";
const std::string rule_drawn_fits = "a drawn card that fits a centre pile must be played there (§9.4)";
const std::string rule_stock_first =
    "the stock card fits a centre pile and must be played before a discard, because it counts double (§9.4)";
const std::string rule_centre_first = "every centre play comes before drawing or passing (§9.4)";

std::string rank_letter(int rank) { return std::string(1, to_string(Card{static_cast<std::uint8_t>(rank)})[0]); }

struct Player {
  Reserve cards;  // stock (top face up), supply as `hand`, the drawn card as `turned`, four discard slots
  bool opened = false;
  bool stock_paid = false;  // has been paid for exhausting his stock
  int rabouges = 0;
  bool left = false;
};

struct CentrePile {
  int id = 0;
  Pile cards;
};

class Rabouge final : public GameState {
 public:
  std::unique_ptr<GameState> clone() const override { return std::make_unique<Rabouge>(*this); }
  Rabouge(const Json& options, int players, std::uint64_t seed, std::optional<std::vector<Card>> stacked)
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

  Rabouge(const Json& options, int players, const Json& position) : Rabouge(options, players, 0, std::nullopt) {
    position_ = position;
  }

  Phase phase() const override { return phase_; }

  std::vector<int> to_act() const override {
    if (phase_ != Phase::playing) return {};
    return {mover_};
  }

  Json legal_actions(int seat, const Balances&) const override {
    Json legal = Json::array();
    if (phase_ != Phase::playing || seat != mover_) return legal;
    for (const auto& move : legal_moves()) legal.push_back(move_to_json(move));
    return legal;
  }

  Effects apply(int seat, const Json& action, const Balances& balances) override {
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

  Effects start_next_deal(const Balances& balances) override {
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

  Effects seat_left(int seat, const Balances& balances) override {
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

  Effects close(const Balances&) override {
    Effects fx;
    if (phase_ != Phase::game_over) finish("closed", {}, fx);
    return fx;
  }

  Json view(std::optional<int> viewer) const override;
  Json result() const override { return result_; }
  int deals_played() const override { return deals_; }

 private:
  int players() const { return static_cast<int>(players_.size()); }
  int seated() const {
    return static_cast<int>(std::count_if(players_.begin(), players_.end(), [](const Player& p) { return !p.left; }));
  }
  Reserve& mine() { return players_[mover_].cards; }
  const Reserve& mine() const { return players_[mover_].cards; }
  bool opening() const { return !players_[mover_].opened; }
  std::size_t stock_size() const { return static_cast<std::size_t>(7 * packs_ / players()); }

  // ------------------------------------------------------------ setup

  void deal() {
    const std::size_t share = static_cast<std::size_t>(52 * packs_ / players());
    std::vector<std::vector<OwnedCard>> shares;
    if (packs_ == players()) {
      shares = building::own_packs(players(), seed_, stacked_);
    } else {
      Stock all = Shoe(PackSpec{false, 0, packs_}, seed_, stacked_).next_deal();
      for (int seat = 0; seat < players(); ++seat) {
        std::vector<OwnedCard> cards;
        for (auto card : all.draw(share)) cards.push_back({card, seat});
        shares.push_back(std::move(cards));
      }
      aside_ = all.size();
    }
    for (int seat = 0; seat < players(); ++seat) {
      const auto& cards = shares[seat];
      auto& reserve = players_[seat].cards;
      const auto stock_end = cards.begin() + static_cast<std::ptrdiff_t>(stock_size());
      reserve.set_stock(Pile(std::make_reverse_iterator(stock_end), cards.rend()), 0);
      reserve.turn_up_stock();
      reserve.hand.assign(cards.rbegin(), std::make_reverse_iterator(stock_end));
    }
  }

  // The highest stock card leads, the ace low; ties go by the seed.
  int lead(Effects& fx) const {
    int best = 0;
    std::vector<int> tied;
    for (int seat = 0; seat < players(); ++seat) {
      const int rank = players_[seat].cards.stock().back().card.rank;
      if (rank > best) tied.clear();
      if (rank >= best) {
        best = rank;
        tied.push_back(seat);
      }
    }
    int first = tied.front();
    if (tied.size() > 1) {
      Rng rng(seed_ ^ 0x9e3779b97f4a7c15ULL);
      first = tied[rng.below(tied.size())];
      fx.say(std::to_string(tied.size()) + " stocks show the highest card; the draw lets " + seat_tag(first) +
             " lead.");
    } else {
      fx.say(seat_tag(first) + "'s stock shows the highest card: " + seat_tag(first) + " leads.");
    }
    return first;
  }

  void set_up(const Json& position) {
    if (!position.is_object()) throw SetupError("position: expected an object, got " + position.dump());
    mover_ = position.value("mover", 0);
    if (mover_ < 0 || mover_ >= players()) throw SetupError("position: 'mover' is not a seat");
    const Json starter = position.value("starter", Json());
    if (!starter.is_null()) {
      const auto card = starter.is_string() ? parse_card(starter.get<std::string>() + "S") : std::nullopt;
      if (!card) throw SetupError("position: 'starter' is a rank letter such as \"9\" or \"T\"");
      starter_rank_ = card->rank;
    }
    std::vector<const Pile*> all;
    for (const auto& cards : position.value("centre", Json::array())) {
      centre_.push_back({next_pile_id_++, building::parse_pile(cards, -1)});
      check_centre_pile(centre_.back().cards);
    }
    const Json seats = position.value("seats", Json::array());
    if (seats.size() > players_.size()) throw SetupError("position: more seats than players");
    for (std::size_t s = 0; s < seats.size(); ++s) set_up_player(players_[s], seats[s]);
    draws_left_ = position.value("draws_left", 0);
    passes_ = position.value("passes", 0);
    std::vector<Pile> turned(players_.size());
    for (const auto& pile : centre_) all.push_back(&pile.cards);
    for (std::size_t s = 0; s < players_.size(); ++s) {
      const auto& reserve = players_[s].cards;
      all.insert(all.end(), {&reserve.stock(), &reserve.hand});
      for (const auto& pile : reserve.discards) all.push_back(&pile);
      if (reserve.turned) turned[s].push_back(*reserve.turned);
      all.push_back(&turned[s]);
    }
    building::check_copies(all, packs_);
  }

  void check_centre_pile(const Pile& pile) const {
    if (!starter_rank_ || pile.empty() || pile.front().card.rank != *starter_rank_ || pile.size() >= pile_full)
      throw SetupError("position: a centre pile starts with the starter rank and holds fewer than 13 cards");
    for (std::size_t i = 1; i < pile.size(); ++i)
      if (pile[i].card.rank != building::next_rank_wrapping(pile[i - 1].card.rank))
        throw SetupError("position: a centre pile runs up one rank at a time");
  }

  static void set_up_player(Player& player, const Json& json) {
    auto& reserve = player.cards;
    reserve.set_stock(building::parse_pile(json.value("stock", Json::array()), -1), 0);
    reserve.turn_up_stock();
    reserve.hand = building::parse_pile(json.value("supply", Json::array()), -1);
    const Json discards = json.value("discards", Json::array());
    if (discards.size() > discard_slots) throw SetupError("position: at most four discard piles");
    for (std::size_t k = 0; k < discards.size(); ++k) reserve.discards[k] = building::parse_pile(discards[k], -1);
    const Json turned = json.value("turned", Json());
    if (!turned.is_null()) reserve.turned = building::parse_owned_card(turned, -1);
    player.opened = json.value("opened", true);
    player.stock_paid = json.value("stock_paid", reserve.stock().empty());
    player.rabouges = json.value("rabouges", 0);
  }

  // ------------------------------------------------------------ centre piles

  bool fits(Card card, const CentrePile& pile) const { return building::builds_up_by_rank(card, pile.cards, pile_full); }

  bool fits_any(std::optional<Card> card) const {
    return card && std::any_of(centre_.begin(), centre_.end(), [&](const CentrePile& p) { return fits(*card, p); });
  }

  const CentrePile* pile_with_id(int id) const {
    for (const auto& pile : centre_)
      if (pile.id == id) return &pile;
    return nullptr;
  }

  bool is_starter(Card card) const { return starter_rank_ && card.rank == *starter_rank_; }

  std::optional<Card> discard_top(int slot) const { return building::top_card(mine().discards[slot]); }

  bool any_centre_play() const {
    if (fits_any(mine().stock_top())) return true;
    for (int k = 0; k < discard_slots; ++k)
      if (fits_any(discard_top(k))) return true;
    return false;
  }

  // ------------------------------------------------------------ legal moves

  // The mover's card at a source spot, if he may move it.
  std::optional<Card> card_at(const Spot& from) const {
    if (from.index != mover_) return std::nullopt;
    const auto& reserve = mine();
    switch (from.zone) {
      case Zone::stock: return from.slot < 0 ? reserve.stock_top() : std::nullopt;
      case Zone::turned:
        return from.slot < 0 && reserve.turned ? std::optional<Card>(reserve.turned->card) : std::nullopt;
      case Zone::discard: return from.slot >= 0 && from.slot < discard_slots ? discard_top(from.slot) : std::nullopt;
      default: return std::nullopt;
    }
  }

  // Why the mover has no card to move at `from` (card_at found none).
  std::string source_fault(const Spot& from) const {
    const bool own = from.index == mover_;
    if (from.zone == Zone::centre) return "a card on a centre pile stays there (§9.2)";
    if (own && from.zone == Zone::supply) return "supply cards are turned one at a time with draw (§9.4)";
    if (own && from.slot < 0 && from.zone == Zone::stock) return "your stock is exhausted";
    if (own && from.slot < 0 && from.zone == Zone::turned) return "you have no drawn card";
    if (own && from.zone == Zone::discard && from.slot >= 0 && from.slot < discard_slots)
      return to_string(from) + " is empty";
    return "you may move only your own stock card, drawn card or discard tops, not " + to_string(from);
  }

  // Whether `to` takes the card: a centre pile it fits, or (a drawn card after
  // the opening) one of the mover's discard slots.
  bool takes(const Spot& from, Card card, const Spot& to) const {
    if (to.zone == Zone::centre) {
      const auto* pile = pile_with_id(to.index);
      return pile && to.slot < 0 && fits(card, *pile);
    }
    const bool own_slot = to.zone == Zone::discard && to.index == mover_ && to.slot >= 0 && to.slot < discard_slots;
    return own_slot && from.zone == Zone::turned && !opening();
  }

  // Why `to` does not take the card (takes() said no).
  std::string target_fault(const Spot& from, Card card, const Spot& to) const {
    if (to.zone == Zone::centre) {
      const auto* pile = pile_with_id(to.index);
      if (!pile || to.slot >= 0) return "there is no centre pile " + to_string(to);
      return to_string(card) + " does not fit " + to_string(to) + ": a centre pile takes the next rank, " +
             rank_letter(building::next_rank_wrapping(pile->cards.back().card.rank)) + " (§9.2)";
    }
    if (to.zone == Zone::discard && to.index == mover_ && to.slot >= 0 && to.slot < discard_slots) {
      if (from.zone != Zone::turned) return "only a drawn card goes on a discard pile (§9.4)";
      return "in the opening a drawn card that does not fit starts a discard pile by itself (§9.4)";
    }
    return "a card goes to a centre pile or, when drawn, to one of your four discard piles (discard:" +
           std::to_string(mover_) + ":0-3), not to " + to_string(to);
  }

  std::string step_fault(Move::Kind kind) const {
    const auto& reserve = mine();
    if (reserve.turned) return "place the drawn card first (§9.4)";
    if (kind == Move::Kind::draw) {
      if (reserve.hand.empty()) return "your supply is spent";
      if (opening() && draws_left_ == 0) return "the opening turn has drawn all its cards (§9.4)";
      return "";
    }
    if (opening()) return "the opening turn does not pass (§9.4)";
    if (!reserve.hand.empty()) return "you pass only with the supply spent; draw instead (§9.4)";
    return "";
  }

  std::vector<Move> candidates() const {
    std::vector<Move> out;
    std::vector<Spot> sources = {{Zone::turned, mover_}, {Zone::stock, mover_}};
    for (int k = 0; k < discard_slots; ++k) sources.push_back({Zone::discard, mover_, k});
    std::vector<Spot> targets;
    for (const auto& pile : centre_) targets.push_back({Zone::centre, pile.id});
    for (int k = 0; k < discard_slots; ++k) targets.push_back({Zone::discard, mover_, k});
    for (const auto& from : sources) {
      const auto card = card_at(from);
      if (!card) continue;
      for (const auto& to : targets)
        if (takes(from, *card, to)) out.push_back({Move::Kind::place, {from, to}, *card});
    }
    for (auto kind : {Move::Kind::draw, Move::Kind::pass})
      if (step_fault(kind).empty()) out.push_back({kind, {}, {}});
    return out;
  }

  std::vector<Priority<Move>> priorities() const {
    const auto& reserve = mine();
    const bool drawn = reserve.turned.has_value();
    const bool drawing_opening = opening() && draws_left_ > 0 && !reserve.hand.empty();
    const bool settled = !drawn && !drawing_opening;
    return {
        {rule_drawn_first, drawn, [](const Move& m) { return places_from(m, Zone::turned); }},
        {rule_opening_draws, drawing_opening && !drawn, [](const Move& m) { return m.kind == Move::Kind::draw; }},
        {rule_drawn_fits, drawn && fits_any(reserve.turned->card),
         [](const Move& m) { return places_to(m, Zone::centre); }},
        {rule_stock_first, settled && fits_any(reserve.stock_top()),
         [](const Move& m) { return places_from(m, Zone::stock); }},
        {rule_centre_first, settled && any_centre_play(), [](const Move& m) { return places_to(m, Zone::centre); }},
    };
  }

  std::vector<Move> legal_moves() const { return building::keep_compulsory(candidates(), priorities()); }

  Move parse_action(const Json& action, std::optional<Card>& named) const {
    const auto type = action_type(action);
    if (type == "move") {
      const auto request = building::parse_move(action);
      named = request.card;
      return {Move::Kind::place, request.placement, {}};
    }
    Move move;
    if (type == "draw") move.kind = Move::Kind::draw;
    else if (type == "pass") move.kind = Move::Kind::pass;
    else throw illegal_action("unknown action '" + type + "': expected move, draw or pass");
    expect_only_fields(action, {});
    return move;
  }

  // Throws unless the move is legal now; fills in the card a placement moves.
  void check(Move& move, std::optional<Card> named) const {
    if (move.kind == Move::Kind::place) {
      const auto card = card_at(move.placement.from);
      if (!card) throw illegal_action(source_fault(move.placement.from));
      move.card = *card;
      building::check_named_card({move.placement, named}, *card);
      if (!takes(move.placement.from, *card, move.placement.to))
        throw illegal_action(target_fault(move.placement.from, *card, move.placement.to));
    } else if (auto fault = step_fault(move.kind); !fault.empty()) {
      throw illegal_action(fault);
    }
    const auto rules = priorities();
    if (const auto* broken = building::broken_priority(move, rules)) throw illegal_action(broken->rule);
  }

  // ------------------------------------------------------------ playing

  void perform(const Move& move, Effects& fx) {
    switch (move.kind) {
      case Move::Kind::draw: draw(fx); break;
      case Move::Kind::pass: return pass(fx);
      case Move::Kind::place:
        if (move.placement.to.zone == Zone::discard) return lay_aside(move.placement.to.slot, fx);
        play_to_centre(move.placement, fx);
        break;
    }
    passes_ = 0;
    settle_automatic(fx);
  }

  void draw(Effects& fx) {
    auto& reserve = mine();
    reserve.turned = reserve.hand.back();
    reserve.hand.pop_back();
    const Card card = reserve.turned->card;
    if (opening()) --draws_left_;
    fx.say(seat_tag(mover_) + " draws " + to_string(card) + ".");
    if (!starter_rank_) {
      starter_rank_ = card.rank;
      fx.say(to_string(card) + " is the starter: every centre pile begins with a " + rank_letter(card.rank) + ".");
    }
  }

  void lay_aside(int slot, Effects& fx) {
    auto& reserve = mine();
    reserve.discards[slot].push_back(*reserve.turned);
    fx.say(seat_tag(mover_) + " lays " + to_string(reserve.turned->card) + " on discard pile " +
           std::to_string(slot + 1) + ".");
    reserve.turned.reset();
    passes_ = 0;
    next_turn(fx);
  }

  OwnedCard take(const Spot& from) {
    auto& reserve = mine();
    if (from.zone == Zone::stock) {
      OwnedCard card = reserve.take_stock_top();
      reserve.turn_up_stock();
      return card;
    }
    if (from.zone == Zone::turned) {
      OwnedCard card = *reserve.turned;
      reserve.turned.reset();
      return card;
    }
    OwnedCard card = reserve.discards[from.slot].back();
    reserve.discards[from.slot].pop_back();
    return card;
  }

  void play_to_centre(const Placement& p, Effects& fx) {
    const OwnedCard card = take(p.from);
    auto it = std::find_if(centre_.begin(), centre_.end(), [&](const CentrePile& pile) { return pile.id == p.to.index; });
    it->cards.push_back(card);
    fx.say(seat_tag(mover_) + " plays " + to_string(card.card) + " from " + to_string(p.from) + " to " +
           to_string(p.to) + ".");
    if (p.from.zone == Zone::stock) stock_used(fx);
    if (it->cards.size() == pile_full) claim_rabouge(*it, fx);
  }

  void claim_rabouge(const CentrePile& pile, Effects& fx) {
    ++players_[mover_].rabouges;
    rabouge_cards_ += pile.cards.size();
    fx.say(seat_tag(mover_) + " lays the 13th card on " + to_string(Spot{Zone::centre, pile.id}) +
           ": a rabouge! The pile leaves play.");
    const int id = pile.id;
    centre_.erase(std::remove_if(centre_.begin(), centre_.end(), [id](const CentrePile& p) { return p.id == id; }),
                  centre_.end());
    for (int seat : opponents())
      pay(seat, mover_, rabouge_stake_,
          seat_tag(mover_) + " completed a rabouge, a centre pile of 13: each opponent pays " +
              marks_text(rabouge_stake_),
          fx);
  }

  void stock_used(Effects& fx) {
    auto& player = players_[mover_];
    if (!player.cards.stock().empty() || player.stock_paid) return;
    player.stock_paid = true;
    fx.say(seat_tag(mover_) + " has played the last stock card and is paid 2 Marks per card in every other stock.");
    for (int seat : opponents()) {
      const auto cards = static_cast<std::int64_t>(players_[seat].cards.stock().size());
      pay(seat, mover_, marks_per_stock_card * cards,
          seat_tag(mover_) + " played his last stock card: 2 Marks for each of the " + std::to_string(cards) +
              " cards left in " + seat_tag(seat) + "'s stock",
          fx);
    }
  }

  // Marks are paid in chips at the table's stake; the memo says so when a Mark is not one chip.
  void pay(int from, int to, std::int64_t marks, const std::string& memo, Effects& fx) {
    if (marks > 0)
      book_.seat_to_seat(from, to, marks * stake_,
                         stake_ == 1 ? memo : memo + ", at " + std::to_string(stake_) + " chips a Mark", fx);
  }

  static std::string marks_text(std::int64_t marks) {
    return std::to_string(marks) + (marks == 1 ? " Mark" : " Marks");
  }

  std::vector<int> opponents() const {
    std::vector<int> out;
    for (int seat = 0; seat < players(); ++seat)
      if (seat != mover_ && !players_[seat].left) out.push_back(seat);
    return out;
  }

  void new_pile(OwnedCard card, const std::string& from, Effects& fx) {
    centre_.push_back({next_pile_id_++, {card}});
    passes_ = 0;
    fx.say(to_string(card.card) + " from " + from + " starts " + to_string(Spot{Zone::centre, centre_.back().id}) +
           ".");
  }

  // The equal-rank rule (every r0 card of the mover starts a pile at once), then
  // the win, then the end of an opening turn with nothing left to play.
  void settle_automatic(Effects& fx) {
    if (phase_ != Phase::playing) return;
    if (starter_rank_) lay_starters(fx);
    auto& reserve = mine();
    if (reserve.stock().empty() && reserve.hand.empty() && reserve.discards_empty() && !reserve.turned)
      return finish("won", {mover_}, fx);
    const bool drawing_done = draws_left_ == 0 || reserve.hand.empty();
    if (opening() && !reserve.turned && drawing_done && !any_centre_play()) {
      players_[mover_].opened = true;
      fx.say(seat_tag(mover_) + "'s opening turn is over.");
      next_turn(fx);
    }
  }

  void lay_starters(Effects& fx) {
    auto& reserve = mine();
    for (bool again = true; again;) {
      again = false;
      if (auto top = reserve.stock_top(); top && is_starter(*top)) {
        new_pile(take({Zone::stock, mover_}), "the stock", fx);
        stock_used(fx);
        again = true;
      }
      for (int k = 0; k < discard_slots; ++k) {
        if (auto top = discard_top(k); top && is_starter(*top)) {
          new_pile(take({Zone::discard, mover_, k}), "discard pile " + std::to_string(k + 1), fx);
          again = true;
        }
      }
      if (reserve.turned && is_starter(reserve.turned->card)) {
        new_pile(take({Zone::turned, mover_}), "the supply", fx);
        again = true;
      }
    }
    if (reserve.turned && opening() && !fits_any(reserve.turned->card)) start_discard_pile(fx);
  }

  // Opening: a drawn card that fits nowhere starts a discard pile by itself.
  void start_discard_pile(Effects& fx) {
    auto& reserve = mine();
    const auto slot = std::find_if(reserve.discards.begin(), reserve.discards.end(),
                                   [](const Pile& pile) { return pile.empty(); });
    const auto k = static_cast<int>(slot - reserve.discards.begin());
    slot->push_back(*reserve.turned);
    fx.say(to_string(reserve.turned->card) + " starts discard pile " + std::to_string(k + 1) + ".");
    reserve.turned.reset();
  }

  void pass(Effects& fx) {
    ++passes_;
    fx.say(seat_tag(mover_) + " cannot play and passes.");
    if (passes_ >= seated()) return impasse(fx);
    next_turn(fx);
  }

  void next_turn(Effects& fx) {
    int seat = mover_;
    do seat = (seat - 1 + players()) % players();
    while (players_[seat].left);
    begin_turn(seat, fx);
  }

  void begin_turn(int seat, Effects& fx) {
    mover_ = seat;
    if (!players_[seat].opened) draws_left_ = starter_rank_ ? later_opening_draws : first_opening_draws;
    fx.say(seat_tag(seat) + (players_[seat].opened ? " to play." : " to play the opening turn."));
    settle_automatic(fx);
  }

  // ------------------------------------------------------------ the end

  // Cards left, stock cards counting double: the impasse's tie-break.
  static std::int64_t weighted_cards(const Reserve& r) {
    std::int64_t count = 2 * static_cast<std::int64_t>(r.stock().size()) + static_cast<std::int64_t>(r.hand.size());
    for (const auto& pile : r.discards) count += static_cast<std::int64_t>(pile.size());
    return count + (r.turned ? 1 : 0);
  }

  void impasse(Effects& fx) {
    fx.say("Every player has passed in turn: the game is at an impasse.");
    std::vector<int> winners;
    for (int seat = 0; seat < players(); ++seat) {
      if (players_[seat].left) continue;
      if (winners.empty()) {
        winners.push_back(seat);
        continue;
      }
      const auto& a = players_[seat];
      const auto& b = players_[winners.front()];
      const auto key_a = std::make_pair(-a.rabouges, weighted_cards(a.cards));
      const auto key_b = std::make_pair(-b.rabouges, weighted_cards(b.cards));
      if (key_a < key_b) winners = {seat};
      else if (key_a == key_b) winners.push_back(seat);
    }
    finish("impasse", winners, fx);
  }

  void finish(const std::string& end, const std::vector<int>& winners, Effects& fx) {
    phase_ = Phase::game_over;
    const bool scored = !winners.empty();
    for (int winner : winners) fx.say(seat_tag(winner) + " wins.");
    if (scored) {
      for (int seat = 0; seat < players(); ++seat) {
        if (players_[seat].left || std::find(winners.begin(), winners.end(), seat) != winners.end()) continue;
        const auto held = card_count_ ? weighted_cards(players_[seat].cards) : 0;
        const auto owed = win_stake_ + held;
        for (int winner : winners)
          pay(seat, winner, owed,
              seat_tag(winner) + " wins: " + seat_tag(seat) + " pays the winner's stake of " + marks_text(win_stake_) +
                  (card_count_ ? " and " + marks_text(held) + " for his cards left (2 a stock card, 1 any other)"
                               : ""),
              fx);
      }
    } else {
      fx.say("The game ends unscored (" + end + ").");
    }
    Json left = Json::array();
    Json seats = Json::array();
    Json rabouges = Json::array();
    for (int seat = 0; seat < players(); ++seat) {
      const auto& p = players_[seat];
      Json discards = Json::array();
      for (const auto& pile : p.cards.discards) discards.push_back(pile.size());
      left.push_back({{"seat", seat},
                      {"stock", p.cards.stock().size()},
                      {"supply", p.cards.hand.size()},
                      {"discards", discards},
                      {"turned", p.cards.turned ? 1 : 0}});
      const bool won = std::find(winners.begin(), winners.end(), seat) != winners.end();
      const std::string outcome = !scored ? end : won ? "won" : p.left ? "left" : "lost";
      seats.push_back(book_.seat_result(seat, {{"points", p.rabouges}, {"outcome", outcome}}));
      rabouges.push_back(p.rabouges);
    }
    result_ = book_.deal_result({{"deal", deals_},
                                 {"end", end},
                                 {"winners", winners},
                                 {"rabouges", rabouges},
                                 {"starter_rank", starter_rank_ ? Json(rank_letter(*starter_rank_)) : Json()},
                                 {"left", left},
                                 {"seats", seats}});
  }

  // ------------------------------------------------------------ view

  std::string seat_status(int seat) const {
    const auto& p = players_[seat];
    if (p.left) return "left";
    if (phase_ == Phase::game_over) {
      const auto& winners = result_["winners"];
      if (std::find(winners.begin(), winners.end(), Json(seat)) != winners.end()) return "won";
      return winners.empty() ? result_["end"].get<std::string>() : "lost";
    }
    if (phase_ != Phase::playing) return "waiting";
    return seat == mover_ ? "moving" : "waiting";
  }

  Json seat_view(int seat) const {
    const auto& p = players_[seat];
    const auto& r = p.cards;
    Json out = view::seat(seat, building::plain_cards(r.hand), false, seat_status(seat), p.left);
    out["stock"] = r.stock().size();
    out["stock_top"] = r.stock_top() ? Json(to_string(*r.stock_top())) : Json();
    out["supply"] = r.hand.size();
    out["turned"] = r.turned ? Json(to_string(r.turned->card)) : Json();
    Json discards = Json::array();
    for (const auto& pile : r.discards) discards.push_back(pile.size());
    out["discards"] = std::move(discards);
    out["rabouges"] = p.rabouges;
    out["opened"] = p.opened;
    out["cards_left"] = r.cards_left();
    return out;
  }

  Json piles_view() const {
    using view::Shown;
    Json out = Json::array();
    for (const auto& pile : centre_) {
      Json json = building::pile_view(to_string(Spot{Zone::centre, pile.id}), std::nullopt, pile.cards, Shown::all, false);
      json["next"] = rank_letter(building::next_rank_wrapping(pile.cards.back().card.rank));
      out.push_back(json);
    }
    for (int seat = 0; seat < players(); ++seat) {
      const auto& r = players_[seat].cards;
      out.push_back(building::pile_view(to_string(Spot{Zone::stock, seat}), seat, r.stock(), Shown::top, false));
      out.push_back(building::pile_view(to_string(Spot{Zone::supply, seat}), seat, r.hand, Shown::count, false));
      out.push_back(building::pile_view(to_string(Spot{Zone::turned, seat}), seat, r.turned ? Pile{*r.turned} : Pile{},
                                        Shown::top, false));
      for (int k = 0; k < discard_slots; ++k)
        out.push_back(
            building::pile_view(to_string(Spot{Zone::discard, seat, k}), seat, r.discards[k], Shown::all, false));
    }
    return out;
  }

  const char* phase_name() const {
    switch (phase_) {
      case Phase::deal_over: return "waiting";
      case Phase::playing: return opening() ? "opening" : "play";
      case Phase::game_over: return "game_over";
    }
    return "play";
  }

  const int packs_;
  const std::int64_t stake_;
  const std::int64_t win_stake_;
  const bool card_count_;
  const std::int64_t rabouge_stake_;
  const std::uint64_t seed_;
  const std::optional<std::vector<Card>> stacked_;
  Json position_;

  std::vector<Player> players_;
  std::vector<CentrePile> centre_;
  int next_pile_id_ = 0;
  std::optional<int> starter_rank_;
  int mover_ = 0;
  int draws_left_ = 0;           // cards the opening turn still draws
  int passes_ = 0;               // passes in a row, no card moved
  std::size_t aside_ = 0;        // set aside unseen when the packs do not share evenly
  std::size_t rabouge_cards_ = 0;  // cards of completed piles, out of play
  ChipBook book_;
  Phase phase_ = Phase::deal_over;
  int deals_ = 0;
  Json result_;
};

Json Rabouge::view(std::optional<int> viewer) const {
  Json out = view::base(view::layouts::building, phase_name(), deals_, std::nullopt);
  out["viewer"] = viewer ? Json(*viewer) : Json();
  Json seats = Json::array();
  Json scores = Json::array();
  for (int seat = 0; seat < players(); ++seat) {
    seats.push_back(seat_view(seat));
    scores.push_back(players_[seat].rabouges);
  }
  out["seats"] = std::move(seats);
  out["piles"] = piles_view();
  out["scores"] = std::move(scores);
  out["turn"] = view::turn(to_act(), phase_ != Phase::playing ? "over" : opening() ? "opening" : "play");
  out["mover"] = phase_ == Phase::playing ? Json(mover_) : Json();
  out["starter_rank"] = starter_rank_ ? Json(rank_letter(*starter_rank_)) : Json();
  out["draws_left"] = phase_ == Phase::playing && opening() ? draws_left_ : 0;
  out["passes"] = passes_;
  out["packs"] = packs_;
  out["stock_size"] = stock_size();
  out["aside"] = aside_;
  out["rabouge_cards"] = rabouge_cards_;
  out["stake"] = stake_;
  out["win_stake"] = win_stake_;
  out["card_count"] = card_count_;
  out["rabouge_stake"] = rabouge_stake_;
  return out;
}

// ------------------------------------------------------------ the bot

// Lower is better: centre plays, then drawing, then where a drawn card waits
// best: on a discard pile showing the next rank (the card beneath follows it),
// in an empty slot, on the shortest pile.
int bot_preference(const Json& action, const building::SeenPiles& seen) {
  const auto type = action.value("type", "");
  if (type == "draw") return 10;
  if (type == "pass") return 100;
  if (type != "move") return 200;
  const auto from = action["from"].get<std::string>();
  const auto to = action["to"].get<std::string>();
  if (to.rfind("centre:", 0) == 0) return from.rfind("turned:", 0) == 0 ? 0 : from.rfind("stock:", 0) == 0 ? 1 : 2;
  const auto drawn = seen.top(from);
  const auto beneath = seen.top(to);
  if (drawn && beneath && beneath->rank == building::next_rank_wrapping(drawn->rank)) return 20;
  if (!beneath) return 21;
  return 30 + static_cast<int>(seen.count(to));
}

}  // namespace

Json rabouge_bot(const Json& view, const Json& legal, Rng&) {
  const building::SeenPiles seen(view);
  return building::preferred_action(legal, [&seen](const Json& action) { return bot_preference(action, seen); });
}

std::unique_ptr<GameState> rabouge_at(const Json& options, int players, const Json& position) {
  const auto* info = Registry::builtin().find("rabouge");
  if (!info) throw SetupError("rabouge is not registered");
  const Json checked = Registry::validate_options(*info, options);
  if (players < info->min_players || players > info->max_players_with(checked))
    throw SetupError("rabouge: bad player count for these options");
  return std::make_unique<Rabouge>(checked, players, position);
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
    return std::make_unique<Rabouge>(setup.options, setup.players, setup.seed, setup.stacked_deck);
  };
  info.bot = rabouge_bot;
  return info;
}

}  // namespace parlour::rules
