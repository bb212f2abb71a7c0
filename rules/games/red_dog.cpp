#include "rules/games/red_dog.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "rules/action.h"
#include "rules/deal_phases.h"
#include "rules/pools.h"
#include "rules/shoe.h"
#include "rules/snapshot.h"
#include "rules/view.h"

namespace parlour::rules {

namespace {

const std::string pot_pool = "pot";

enum class Status { waiting, won, lost, skipped, sitting_out, left };

const char* status_name(Status status) {
  switch (status) {
    case Status::waiting: return "waiting";
    case Status::won: return "won";
    case Status::lost: return "lost";
    case Status::skipped: return "skipped";
    case Status::sitting_out: return "sitting_out";
    case Status::left: return "left";
  }
  return "waiting";
}

struct RedDogSeat {
  std::vector<Card> hand;
  Status status = Status::sitting_out;
  bool left = false;
  bool in_pot = false;  // has paid into the current pot
  std::optional<std::int64_t> bet;
  std::optional<Card> target;
  std::optional<Card> shown;
  std::int64_t deal_net = 0;  // chips won (+) or lost (-) this deal, antes included
};

// The lowest card of the hand that beats `target`: same suit, higher rank.
std::optional<Card> lowest_beating(const std::vector<Card>& hand, Card target) {
  std::optional<Card> best;
  for (auto card : hand) {
    if (card.suit != target.suit || ace_high_value(card) <= ace_high_value(target)) continue;
    if (!best || ace_high_value(card) < ace_high_value(*best)) best = card;
  }
  return best;
}

class RedDog final : public GameState {
 public:
  std::unique_ptr<GameState> clone() const override { return std::make_unique<RedDog>(*this); }
  explicit RedDog(const GameSetup& setup)
      : hand_size_(setup.options.at("hand_size").get<int>()),
        ante_(setup.options.at("ante").get<std::int64_t>()),
        ante_per_deal_(setup.options.at("ante_per_deal").get<bool>()),
        deal_limit_(setup.options.at("deals").get<int>()),
        shoe_(PackSpec{}, setup.seed, setup.stacked_deck),
        seats_(static_cast<std::size_t>(setup.players)),
        dealer_(setup.starting_dealer()) {}

  Phase phase() const override { return phase_; }

  std::vector<int> to_act() const override {
    if (phase_ != Phase::playing) return {};
    return {order_[turn_]};
  }

  // The bettor's chips are his across tables: he may have spent them elsewhere
  // since his turn began. With nothing left to bet he may only pass his turn.
  void write_legal_actions(int seat, const Balances& balances, JsonWriter& out) const override {
    out.begin_array();
    if (phase_ == Phase::playing && seat == order_[turn_]) {
      const auto most = most_bet(seat, balances);
      if (most >= 1) {
        out.object([&] {
          out.field("type", "bet");
          out.key("amount");
          write_bounds(out, 1, most);
        });
      } else {
        write_skip_action(out);
      }
    }
    out.end_array();
  }

  Effects apply(int seat, const Json& action, const Balances& balances) override {
    if (phase_ != Phase::playing) throw not_your_turn("no deal is in progress");
    const int actor = order_[turn_];
    if (seat != actor) throw not_your_turn("it is " + seat_tag(actor) + "'s turn to bet");
    const auto type = action_type(action);
    if (type == "skip") return skip_turn(seat, action, balances);
    if (type != "bet") throw illegal_action("expected a bet, got a '" + type + "' action");
    expect_only_fields(action, {"amount"});
    const auto amount = int_field(action, "amount");
    if (amount < 1) throw illegal_action("a bet is at least 1 chip, got " + std::to_string(amount));
    if (amount > pot_)
      throw illegal_action("a bet may not exceed the pot of " + std::to_string(pot_) + ", got " +
                           std::to_string(amount));
    if (amount > balances[seat])
      throw insufficient_chips("a bet of " + std::to_string(amount) + " needs that many chips; you have " +
                               std::to_string(balances[seat]));
    return settle_bet(seat, amount, balances);
  }

  Effects start_next_deal(const Balances& balances) override {
    if (phase_ != Phase::deal_over) throw std::logic_error("red dog: next deal while a deal is on");
    Balances chips = balances;
    if (deals_ > 0) dealer_ = next_seated(dealer_, seats_);
    return begin_deal(chips);
  }

  Effects seat_taken(int seat, const Balances&) override {
    seat_afresh(seats_, seat, phase_ == Phase::deal_over, "red dog");
    return {};
  }

  Effects seat_left(int seat, const Balances& balances) override {
    Effects fx;
    auto& s = seats_[seat];
    if (s.left) return fx;
    s.left = true;
    fx.say(seat_tag(seat) + " leaves the table.");
    const bool was_to_act = phase_ == Phase::playing && order_[turn_] == seat;
    if (s.status == Status::waiting) s.status = Status::left;
    if (seated_count(seats_) < 2) {
      phase_ = Phase::game_over;
      fx.say("Too few players remain; the game is over.");
      return fx;
    }
    if (was_to_act) {
      Balances chips = balances;
      advance_turn(chips, fx);
    }
    return fx;
  }

  Effects close(const Balances&) override {
    Effects fx = close_pool(pot_pool, pot_, dealer_, players(), still_seated(seats_));
    phase_ = Phase::game_over;
    return fx;
  }

  // In name order, so that the text writer has nothing to sort: a step writes
  // this for every seat.
  void write_view(std::optional<int> viewer, JsonWriter& out) const override {
    out.begin_object();
    out.field("ante", ante_);
    view::deal_members(out, deals_, dealer_);
    out.field("hand_size", hand_size_);
    view::layout_members(out, view::layouts::betting, phase_name());
    out.array_field("piles", [&] {
      view::face_down_pile(out, "stock", std::nullopt, stock_.size());
      view::pile(out, "turned", std::nullopt, turned_, view::Shown::all);
    });
    view::one_pool(out, pot_pool, pot_);
    out.array_field("seats", [&] {
      for (int seat = 0; seat < players(); ++seat) write_seat(out, seat, viewer);
    });
    out.key("turn");
    view::turn(out, to_act(), phase_ == Phase::playing ? "bet" : phase_name());
    out.end_object();
  }

  Json result() const override { return result_; }
  int deals_played() const override { return deals_; }
  std::optional<DeckSource> deck_source() const override { return shoe_.source(); }

  // The options' fields (hand size, ante, deals) come from the setup the game is
  // restored with; everything else is here.
  Json snapshot() const override {
    Json seats = Json::array();
    for (const auto& s : seats_) {
      seats.push_back({{"hand", cards_json(s.hand)},
                       {"status", enum_json(s.status)},
                       {"left", s.left},
                       {"in_pot", s.in_pot},
                       {"bet", optional_json(s.bet)},
                       {"target", optional_card_json(s.target)},
                       {"shown", optional_card_json(s.shown)},
                       {"deal_net", s.deal_net}});
    }
    return {{"shoe", shoe_.snapshot()}, {"stock", stock_.snapshot()}, {"seats", std::move(seats)},
            {"order", order_}, {"turn", turn_}, {"turned", cards_json(turned_)}, {"dealer", dealer_},
            {"deals", deals_}, {"pot", pot_}, {"phase", enum_json(phase_)}, {"result", result_}};
  }

  void restore(const Json& snapshot) override {
    shoe_.restore(member(snapshot, "shoe"));
    stock_ = Stock::restore(member(snapshot, "stock"));
    const auto& seats = member(snapshot, "seats");
    expect_size(seats, seats_.size(), "seats");
    for (std::size_t i = 0; i < seats_.size(); ++i) {
      auto& s = seats_[i];
      const auto& saved = seats[i];
      s.hand = cards_from(member(saved, "hand"));
      s.status = enum_field(saved, "status", Status::left);
      s.left = field<bool>(saved, "left");
      s.in_pot = field<bool>(saved, "in_pot");
      s.bet = optional_field<std::int64_t>(saved, "bet");
      s.target = optional_card_from(member(saved, "target"));
      s.shown = optional_card_from(member(saved, "shown"));
      s.deal_net = field<std::int64_t>(saved, "deal_net");
    }
    order_ = field<std::vector<int>>(snapshot, "order");
    for (const int seat : order_)
      if (seat < 0 || seat >= players()) throw SnapshotError("a bettor's seat is out of range");
    turn_ = field<std::size_t>(snapshot, "turn");
    turned_ = cards_from(member(snapshot, "turned"));
    dealer_ = field<int>(snapshot, "dealer");
    deals_ = field<int>(snapshot, "deals");
    pot_ = field<std::int64_t>(snapshot, "pot");
    phase_ = phase_field(snapshot, "phase");
    result_ = field<Json>(snapshot, "result");
    if (phase_ == Phase::playing && turn_ >= order_.size()) throw SnapshotError("the turn is past the bettors");
    if (dealer_ < 0 || dealer_ >= players()) throw SnapshotError("the dealer's seat is out of range");
  }

 private:
  int players() const { return static_cast<int>(seats_.size()); }

  const char* phase_name() const { return phase_label(phase_, "betting"); }

  // Moves chips between a seat and the pot, keeping the pot, the bettor's
  // running balance and the deal's tally in step with the transfer.
  void to_pot(int seat, std::int64_t amount, const std::string& memo, Balances& chips, Effects& fx) {
    fx.move(Account::of_seat(seat), Account::of_pool(pot_pool), amount, memo);
    pot_ += amount;
    chips[seat] -= amount;
    seats_[seat].deal_net -= amount;
  }
  void from_pot(int seat, std::int64_t amount, const std::string& memo, Balances& chips, Effects& fx) {
    fx.move(Account::of_pool(pot_pool), Account::of_seat(seat), amount, memo);
    pot_ -= amount;
    chips[seat] += amount;
    seats_[seat].deal_net += amount;
  }

  std::vector<int> seats_in_play_order() const { return seated_from_dealers_left(dealer_, seats_); }

  // Everyone still seated antes into a new pot; whoever cannot pay sits out.
  void form_new_pot(Balances& chips, Effects& fx) {
    for (auto& s : seats_) s.in_pot = false;
    for (int seat : seats_in_play_order()) collect_ante(seat, chips, fx);
    fx.say("A new pot is formed: " + std::to_string(pot_) + " chips.");
  }

  void collect_ante(int seat, Balances& chips, Effects& fx) {
    auto& s = seats_[seat];
    if (chips[seat] >= ante_) {
      to_pot(seat, ante_, seat_tag(seat) + "'s ante of " + std::to_string(ante_) + " into the pot", chips, fx);
      s.in_pot = true;
    } else {
      s.in_pot = false;
      if (s.status == Status::waiting) s.status = Status::sitting_out;
      fx.say(seat_tag(seat) + " cannot pay the ante of " + std::to_string(ante_) + " and sits out.");
    }
  }

  // A player takes part in a deal when he can pay what he owes the pot and still
  // bet a chip: a player with no chips cannot take part, whatever he has in the pot.
  bool may_take_part(int seat, const Balances& chips) const {
    const auto& s = seats_[seat];
    if (s.left) return false;
    const bool owes_ante = ante_per_deal_ || pot_ == 0 || !s.in_pot;
    return chips[seat] >= (owes_ante ? ante_ : 0) + 1;
  }

  Effects begin_deal(Balances& chips) {
    Effects fx;
    const auto order = seats_in_play_order();
    const auto able = std::count_if(order.begin(), order.end(), [&](int s) { return may_take_part(s, chips); });
    if (able < 2) {
      phase_ = Phase::game_over;
      fx.say("Fewer than two players can take part; the game is over.");
      return fx;
    }
    ++deals_;
    turned_.clear();
    for (auto& s : seats_) {
      s.hand.clear();
      s.bet.reset();
      s.target.reset();
      s.shown.reset();
      s.deal_net = 0;
      s.status = s.left ? Status::left : Status::sitting_out;
    }
    fx.say("Deal " + std::to_string(deals_) + ": " + seat_tag(dealer_) + " deals.");
    if (pot_ == 0) {
      form_new_pot(chips, fx);
    } else {
      for (int seat : order)
        if (ante_per_deal_ || !seats_[seat].in_pot) collect_ante(seat, chips, fx);
    }
    order_.clear();
    for (int seat : order)
      if (seats_[seat].in_pot) order_.push_back(seat);
    deal_hands();
    phase_ = Phase::playing;
    turn_ = 0;
    if (!can_bet(order_[0], chips)) advance_turn(chips, fx, /*from_start=*/true);
    return fx;
  }

  void deal_hands() {
    stock_ = shoe_.next_deal();
    for (int seat : order_) seats_[seat].status = Status::waiting;
    for (int round = 0; round < hand_size_; ++round)
      for (int seat : order_) seats_[seat].hand.push_back(stock_.draw());
  }

  bool can_bet(int seat, const Balances& chips) const {
    return seats_[seat].status == Status::waiting && most_bet(seat, chips) >= 1;
  }

  std::int64_t most_bet(int seat, const Balances& chips) const { return std::min(pot_, chips[seat]); }

  // The bettor to act has no chips left (spent at another table since his turn
  // began): he is skipped as if he had had none when his turn came.
  Effects skip_turn(int seat, const Json& action, const Balances& balances) {
    check_skip(action, most_bet(seat, balances) >= 1);
    Effects fx;
    Balances chips = balances;
    seats_[seat].status = Status::skipped;
    fx.say(seat_tag(seat) + " cannot bet and is skipped.");
    advance_turn(chips, fx);
    return fx;
  }

  // Moves the turn to the next player who can still bet; settles the deal when
  // nobody can. Players in the deal who have no chips left (or face an empty pot)
  // are skipped.
  void advance_turn(Balances& chips, Effects& fx, bool from_start = false) {
    std::size_t next = from_start ? 0 : turn_ + 1;
    for (; next < order_.size(); ++next) {
      const int seat = order_[next];
      if (can_bet(seat, chips)) break;
      if (seats_[seat].status == Status::waiting) {
        seats_[seat].status = Status::skipped;
        fx.say(seat_tag(seat) + " cannot bet and is skipped.");
      }
    }
    if (next < order_.size()) {
      turn_ = next;
      return;
    }
    settle_deal(fx);
  }

  Effects settle_bet(int seat, std::int64_t amount, const Balances& balances) {
    Effects fx;
    Balances chips = balances;
    auto& s = seats_[seat];
    const Card target = stock_.draw();
    turned_.push_back(target);
    s.bet = amount;
    s.target = target;
    const auto beating = lowest_beating(s.hand, target);
    if (beating) {
      s.status = Status::won;
      s.shown = beating;
      from_pot(seat, amount,
               seat_tag(seat) + "'s " + card_words(*beating) + " beat the " + card_words(target) +
                   ": the pot pays the bet of " + std::to_string(amount),
               chips, fx);
      fx.say(seat_tag(seat) + " bets " + std::to_string(amount) + "; " + to_string(target) + " is turned; " +
             seat_tag(seat) + " shows " + to_string(*beating) + " and wins " + std::to_string(amount) + ".");
    } else {
      s.status = Status::lost;
      // A loser's hand is never shown: the memo names only the turned card.
      to_pot(seat, amount,
             "no card of " + seat_tag(seat) + "'s beat the " + card_words(target) + ": the bet of " +
                 std::to_string(amount) + " goes into the pot",
             chips, fx);
      fx.say(seat_tag(seat) + " bets " + std::to_string(amount) + "; " + to_string(target) + " is turned; " +
             seat_tag(seat) + " loses " + std::to_string(amount) + " to the pot.");
    }
    if (pot_ == 0) form_new_pot(chips, fx);
    advance_turn(chips, fx);
    return fx;
  }

  void settle_deal(Effects& fx) {
    Json seats = Json::array();
    for (int seat = 0; seat < players(); ++seat) {
      const auto& s = seats_[seat];
      Json line = {{"seat", seat}, {"chips", s.deal_net}, {"outcome", status_name(s.status)}};
      if (s.bet) line["bet"] = *s.bet;
      if (s.target) line["target"] = to_string(*s.target);
      if (s.shown) line["shown"] = to_string(*s.shown);
      seats.push_back(line);
    }
    result_ = {{"deal", deals_}, {"dealer", dealer_}, {"pot", pot_}, {"seats", seats}};
    fx.say("Deal " + std::to_string(deals_) + " is settled; the pot holds " + std::to_string(pot_) + ".");
    phase_ = phase_after_deal(deals_, deal_limit_, fx);
  }

  // A hand is in play until its bet is settled; then only its owner still sees
  // it (a winner's beating card is in `shown`, a loser's hand is never shown).
  // `bet`, `target` and `shown` are present once they have a value: a state
  // push goes to every seat on every step, and most seats have none yet.
  void write_seat(JsonWriter& out, int seat, std::optional<int> viewer) const {
    const auto& s = seats_[seat];
    const bool own = viewer == seat;
    const bool in_play = own || s.status == Status::waiting;
    // A seat reads the same in every view but its own: the pushes of one
    // moment write it twice (its key: 2 * seat, + 1 as its own player sees it),
    // not once a view.
    out.shared_value(static_cast<std::uint64_t>(seat) * 2 + (own ? 1 : 0), [&] {
      // In name order around view::seat_members' members (cards … status), so
      // that the writer has nothing to sort but at a showdown ("shown").
      out.object([&] {
        if (s.bet) out.field("bet", *s.bet);
        view::seat_members(out, seat, in_play ? s.hand : std::vector<Card>{}, own, status_name(s.status), s.left);
        if (s.shown) out.field("shown", to_string(*s.shown));
        if (s.target) out.field("target", to_string(*s.target));
      });
    });
  }

  const int hand_size_;
  const std::int64_t ante_;
  const bool ante_per_deal_;
  const int deal_limit_;
  Shoe shoe_;
  Stock stock_;
  std::vector<RedDogSeat> seats_;
  std::vector<int> order_;  // this deal's bettors, dealer last
  std::size_t turn_ = 0;    // index into order_
  std::vector<Card> turned_;
  int dealer_ = 0;
  int deals_ = 0;
  std::int64_t pot_ = 0;
  Phase phase_ = Phase::deal_over;  // the table starts play with start_next_deal
  Json result_;
};

// The level-1 bot. A bet wins at even money with the chance p that a card of
// its hand beats the card to come; that card is one of those it has not seen
// (its own hand, the turned cards and the winners' shown cards are seen), each
// as likely. The stake grows with the edge 2p - 1: nothing above the minimum
// without an edge, the whole of what it may bet from p = 5/8 on (in the league
// against random players this steep a stake did better than a gentler one).
Json red_dog_bot(const Json& view, const Json& legal, Rng&) {
  if (!legal.is_array() || legal.empty()) throw std::logic_error("red dog bot: no legal action");
  const Json* bet = nullptr;
  for (const auto& action : legal)
    if (action.value("type", "") == "bet") bet = &action;
  if (!bet) return legal.front();
  const double p = red_dog_win_chance(view);
  return {{"type", "bet"}, {"amount", amount_at_share(bet->at("amount"), 4.0 * (2.0 * p - 1.0))}};
}

}  // namespace

double red_dog_win_chance(const Json& view) {
  const auto& turn_seats = view.at("turn").at("seats");
  if (!turn_seats.is_array() || turn_seats.empty()) return 0.0;
  const auto me = turn_seats.front().get<std::size_t>();
  auto read = [](const Json& text, std::vector<Card>& into) {
    if (!text.is_string()) return;
    if (auto card = parse_card(text.get<std::string>())) into.push_back(*card);
  };
  std::vector<Card> hand, seen;
  for (const auto& text : view.at("seats").at(me).at("cards")) read(text, hand);
  seen = hand;
  for (const auto& pile : view.value("piles", Json::array()))
    if (pile.value("id", "") == "turned")
      for (const auto& text : pile.value("cards", Json::array())) read(text, seen);
  for (const auto& seat : view.at("seats")) read(seat.value("shown", Json()), seen);
  int unseen = 0, beaten = 0;
  for (auto card : make_pack(PackSpec{})) {
    if (holds(seen, card)) continue;
    ++unseen;
    if (lowest_beating(hand, card)) ++beaten;
  }
  return unseen > 0 ? static_cast<double>(beaten) / unseen : 0.0;
}

GameInfo red_dog_info() {
  GameInfo info;
  info.view_constants = {"ante", "hand_size"};  // set by the options (registry.h)
  info.id = "red_dog";
  info.name = "Red Dog";
  info.aliases = {"High-Card Pool"};
  info.min_players = 2;
  info.max_players = 10;
  info.seats_change_between_deals = true;
  info.summary =
      "Bet from one chip up to the whole pot that your hand holds a higher card of the same suit as the next "
      "card turned.";
  info.source = "000";
  info.options = {
      {"hand_size", OptionSpec::Type::integer, 5, {5, 4, 3}, 3, 5,
       "Cards dealt to each player: 5, or 4 (harder to win), or 3 (no sure win)."},
      {"ante", OptionSpec::Type::integer, 1, {}, 1, 1000, "Chips each player puts in when a pot is formed."},
      {"ante_per_deal", OptionSpec::Type::boolean, false, {}, std::nullopt, std::nullopt,
       "Everyone also antes at the start of every deal, not only when a new pot is formed."},
      {"deals", OptionSpec::Type::integer, 0, {}, 0, 10000, "End the table after this many deals (0: no limit)."},
  };
  info.max_players_for = [](const Json& options) { return options.at("hand_size").get<int>() == 5 ? 8 : 10; };
  info.create = [](const GameSetup& setup) -> std::unique_ptr<GameState> { return std::make_unique<RedDog>(setup); };
  info.bot = red_dog_bot;
  return info;
}

}  // namespace parlour::rules
