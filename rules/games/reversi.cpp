#include "rules/games/reversi.h"

#include <algorithm>

#include "rules/action.h"
#include "rules/deal_phases.h"
#include "rules/pools.h"
#include "rules/snapshot.h"
#include "rules/view.h"
#include "rules/tricks/bot.h"
#include "rules/tricks/tricks.h"

namespace parlour::rules {

namespace {

const std::string pool_name = "pool";

struct ReversiSeat {
  std::vector<Card> hand;
  int tricks = 0;
  bool in_deal = false;
  bool left = false;
};

bool removed_for(int players, Card card) {
  if (card.rank != 2) return false;
  switch (players) {
    case 3: return card.suit == Suit::spades;
    case 5: return card.suit == Suit::spades || card.suit == Suit::clubs;
    case 6: return true;
    default: return false;
  }
}

class Reversi final : public GameState {
 public:
  std::unique_ptr<GameState> clone() const override { return std::make_unique<Reversi>(*this); }
  explicit Reversi(const GameSetup& setup)
      : stake_(setup.options.at("stake").get<std::int64_t>()),
        deal_limit_(setup.options.at("deals").get<int>()),
        shoe_(PackSpec{}, setup.seed, setup.stacked_deck),
        seats_(static_cast<std::size_t>(setup.players)),
        dealer_(setup.starting_dealer()) {}

  Phase phase() const override { return phase_; }

  std::vector<int> to_act() const override {
    if (phase_ != Phase::playing) return {};
    return {turn_};
  }

  void write_legal_actions(int seat, const Balances&, JsonWriter& out) const override {
    out.begin_array();
    if (phase_ == Phase::playing && seat == turn_)
      for (auto card : tricks::legal_cards(seats_[seat].hand, trick_, rules_)) write_card_action(out, "card", card);
    out.end_array();
  }

  Effects apply(int seat, const Json& action, const Balances& balances) override {
    if (phase_ != Phase::playing) throw not_your_turn("no deal is in progress");
    if (seat != turn_) throw not_your_turn("it is " + seat_tag(turn_) + "'s turn to play");
    const auto type = action_type(action);
    if (type != "card") throw illegal_action("expected a card to play, got a '" + type + "' action");
    expect_only_fields(action, {"card"});
    const Card card = card_field(action, "card");
    auto& hand = seats_[seat].hand;
    if (!holds(hand, card)) throw illegal_action("you do not hold " + to_string(card));
    if (!holds(tricks::legal_cards(hand, trick_, rules_), card))
      throw illegal_action("you must follow suit: " + to_string(trick_.front().card) + " was led");
    Effects fx;
    book_.sync(balances);
    tricks::remove_card(hand, card);
    trick_.push_back({seat, card});
    fx.say(seat_tag(seat) + " plays " + to_string(card) + ".");
    if (trick_.size() < order_.size()) {
      turn_ = next_in_deal(seat);
      return fx;
    }
    const int winner = trick_[tricks::winning_index(trick_, rules_)].seat;
    ++seats_[winner].tricks;
    fx.say(seat_tag(winner) + " takes the trick.");
    last_trick_ = trick_;
    trick_.clear();
    turn_ = winner;
    if (seats_[winner].hand.empty()) settle(fx);
    return fx;
  }

  Effects start_next_deal(const Balances& balances) override {
    if (phase_ != Phase::deal_over) throw std::logic_error("reversi: next deal while a deal is on");
    Effects fx;
    if (seated_count(seats_) < 3) {
      phase_ = Phase::game_over;
      fx.say("Fewer than three players remain; the game is over.");
      return fx;
    }
    if (deals_ > 0 || seats_[dealer_].left) dealer_ = next_seated(dealer_, seats_);
    ++deals_;
    book_ = ChipBook(players(), pool_name);
    book_.sync(balances);
    order_ = seated_from_dealers_left(dealer_, seats_);
    for (auto& s : seats_) {
      s.hand.clear();
      s.tricks = 0;
      s.in_deal = false;
    }
    const int n = static_cast<int>(order_.size());
    Stock stock = shoe_.next_deal();
    std::size_t next = 0;
    while (!stock.empty()) {
      const Card card = stock.draw();
      if (removed_for(n, card)) continue;
      seats_[order_[next % order_.size()]].hand.push_back(card);
      ++next;
    }
    for (int seat : order_) seats_[seat].in_deal = true;
    tricks_per_deal_ = static_cast<int>(seats_[order_[0]].hand.size());
    trick_.clear();
    last_trick_.clear();
    turn_ = order_[0];
    phase_ = Phase::playing;
    fx.say("Deal " + std::to_string(deals_) + ": " + seat_tag(dealer_) + " deals " +
           std::to_string(tricks_per_deal_) + " cards each.");
    return fx;
  }

  Effects seat_taken(int seat, const Balances&) override {
    seat_afresh(seats_, seat, phase_ == Phase::deal_over, "reversi");
    return {};
  }

  Effects seat_left(int seat, const Balances&) override {
    Effects fx;
    auto& s = seats_[seat];
    if (s.left) return fx;
    s.left = true;
    fx.say(seat_tag(seat) + " leaves the table.");
    if (phase_ == Phase::playing && s.in_deal) {
      fx.say("The deal is void: the cards are thrown in and nobody pays.");
      result_ = {{"deal", deals_}, {"dealer", dealer_}, {"void", true}, {"pool", pool_},
                 {"movements", Json::array()}, {"unpaid", Json::array()}, {"seats", Json::array()}};
      for (auto& st : seats_) st.hand.clear();
      trick_.clear();
      phase_ = Phase::deal_over;
    }
    if (seated_count(seats_) < 3 && phase_ != Phase::game_over) {
      phase_ = Phase::game_over;
      fx.say("Fewer than three players remain; the game is over.");
    }
    return fx;
  }

  Effects close(const Balances&) override {
    Effects fx = close_pool(pool_name, pool_, dealer_, players(), still_seated(seats_));
    phase_ = Phase::game_over;
    return fx;
  }

  void write_view(std::optional<int> viewer, JsonWriter& out) const override {
    const char* phase = phase_label(phase_, "playing");
    out.begin_object();
    view::base_members(out, view::layouts::tricks, phase, deals_, dealer_);
    out.array_field("seats", [&] {
      for (int seat = 0; seat < players(); ++seat) write_seat(out, seat, viewer);
    });
    out.key("trick");
    view::trick(out, [&] { tricks::write_plays(out, trick_); }, std::nullopt);  // Reversi has no trump
    view::one_pool(out, pool_name, pool_);
    out.key("turn");
    view::turn(out, to_act(), phase_ == Phase::playing ? "play" : phase);
    out.field("stake", stake_);
    out.field("tricks_per_deal", tricks_per_deal_);
    out.key("last_trick");
    tricks::write_plays(out, last_trick_);
    out.end_object();
  }

  void write_seat(JsonWriter& out, int seat, std::optional<int> viewer) const {
    const auto& s = seats_[seat];
    const char* status = s.left ? "left" : s.in_deal ? "playing" : "out";
    out.object([&] {
      view::seat_members(out, seat, s.hand, viewer == seat, status, s.left);
      out.field("tricks", s.tricks);
      out.field("in_deal", s.in_deal);
    });
  }

  Json result() const override { return result_; }
  int deals_played() const override { return deals_; }
  std::optional<DeckSource> deck_source() const override { return shoe_.source(); }

  // The stake, the deal limit and the trick rules (no trump) come from the setup
  // the snapshot is restored with; everything else is here.
  Json snapshot() const override {
    Json seats = Json::array();
    for (const auto& s : seats_)
      seats.push_back({{"hand", cards_json(s.hand)}, {"tricks", s.tricks}, {"in_deal", s.in_deal}, {"left", s.left}});
    return {{"shoe", shoe_.snapshot()},
            {"seats", std::move(seats)},
            {"order", order_},
            {"trick", tricks::trick_snapshot(trick_)},
            {"last_trick", tricks::trick_snapshot(last_trick_)},
            {"book", book_.snapshot()},
            {"tricks_per_deal", tricks_per_deal_},
            {"turn", turn_},
            {"dealer", dealer_},
            {"deals", deals_},
            {"pool", pool_},
            {"phase", enum_json(phase_)},
            {"result", result_}};
  }

  void restore(const Json& snapshot) override {
    shoe_.restore(member(snapshot, "shoe"));
    const auto& seats = member(snapshot, "seats");
    expect_size(seats, seats_.size(), "seats");
    for (std::size_t i = 0; i < seats_.size(); ++i) {
      auto& s = seats_[i];
      const auto& saved = seats[i];
      s.hand = cards_from(member(saved, "hand"));
      s.tricks = field<int>(saved, "tricks");
      s.in_deal = field<bool>(saved, "in_deal");
      s.left = field<bool>(saved, "left");
    }
    order_ = field<std::vector<int>>(snapshot, "order");
    for (const int seat : order_)
      if (seat < 0 || seat >= players()) throw SnapshotError("a player's seat in the deal is out of range");
    trick_ = tricks::trick_restore(member(snapshot, "trick"), players());
    last_trick_ = tricks::trick_restore(member(snapshot, "last_trick"), players());
    book_ = ChipBook::restore(member(snapshot, "book"), players());
    tricks_per_deal_ = field<int>(snapshot, "tricks_per_deal");
    turn_ = field<int>(snapshot, "turn");
    dealer_ = field<int>(snapshot, "dealer");
    deals_ = field<int>(snapshot, "deals");
    pool_ = field<std::int64_t>(snapshot, "pool");
    phase_ = phase_field(snapshot, "phase");
    result_ = field<Json>(snapshot, "result");
    if (turn_ < 0 || turn_ >= players()) throw SnapshotError("the seat to play is out of range");
    if (dealer_ < 0 || dealer_ >= players()) throw SnapshotError("the dealer's seat is out of range");
    if (phase_ == Phase::playing && std::find(order_.begin(), order_.end(), turn_) == order_.end())
      throw SnapshotError("the seat to play is not in the deal");
  }

 private:
  int players() const { return static_cast<int>(seats_.size()); }
  int next_in_deal(int seat) const {
    auto it = std::find(order_.begin(), order_.end(), seat);
    ++it;
    return it == order_.end() ? order_.front() : *it;
  }

  void settle(Effects& fx) {
    const std::int64_t unit = stake_;
    int slam = -1;
    for (int seat : order_)
      if (seats_[seat].tricks == tricks_per_deal_) slam = seat;
    std::vector<int> clean;
    for (int seat : order_)
      if (seats_[seat].tricks == 0) clean.push_back(seat);
    std::string outcome_note;
    if (slam >= 0) {
      fx.say(seat_tag(slam) + " takes every trick: reversis!");
      for (int seat : order_)
        if (seat != slam)
          book_.seat_to_seat(seat, slam, unit * tricks_per_deal_,
                             seat_tag(slam) + " took every trick (reversis): each player pays him " +
                                 std::to_string(unit) + " a trick for " + std::to_string(tricks_per_deal_) + " tricks",
                             fx);
      if (pool_ > 0)
        book_.pool_to_seat(slam, pool_, pool_,
                           seat_tag(slam) + " took every trick (reversis) and takes the pool of " +
                               std::to_string(pool_),
                           fx);
    } else {
      for (int seat : order_)
        book_.seat_to_pool(seat, unit * seats_[seat].tricks, pool_,
                           seat_tag(seat) + " took " + std::to_string(seats_[seat].tricks) + " trick" +
                               (seats_[seat].tricks == 1 ? "" : "s") + ": " + std::to_string(unit) +
                               " a trick into the pool",
                           fx);
      if (!clean.empty()) {
        const auto share = pool_ / static_cast<std::int64_t>(clean.size());
        for (int seat : clean)
          book_.pool_to_seat(seat, share, pool_,
                             seat_tag(seat) + " took no trick: an equal share of the pool among the " +
                                 std::to_string(clean.size()) + " who took none",
                             fx);
        fx.say("The players who took no trick share the pool; " + std::to_string(pool_) + " stays in it.");
      } else {
        fx.say("Everyone took a trick: the pool of " + std::to_string(pool_) + " is a jack and carries over.");
      }
    }
    Json seats = Json::array();
    for (int seat = 0; seat < players(); ++seat) {
      const auto& s = seats_[seat];
      if (!s.in_deal) continue;
      std::string outcome = slam == seat ? "reversis" : s.tricks == 0 && slam < 0 ? "clean" : "paid";
      seats.push_back(book_.seat_result(seat, {{"tricks", s.tricks}, {"outcome", outcome}}));
    }
    result_ = book_.deal_result({{"deal", deals_},
                                 {"dealer", dealer_},
                                 {"void", false},
                                 {"reversis", slam >= 0 ? Json(slam) : Json()},
                                 {"jack", slam < 0 && clean.empty()},
                                 {"pool", pool_},
                                 {"seats", seats}});
    fx.say("Deal " + std::to_string(deals_) + " is settled; the pool holds " + std::to_string(pool_) + ".");
    phase_ = phase_after_deal(deals_, deal_limit_, fx);
  }

  const std::int64_t stake_;
  const int deal_limit_;
  Shoe shoe_;
  std::vector<ReversiSeat> seats_;
  tricks::TrickRules rules_{};
  std::vector<int> order_;  // this deal's players from the dealer's left
  tricks::Trick trick_;
  tricks::Trick last_trick_;
  ChipBook book_;
  int tricks_per_deal_ = 0;
  int turn_ = 0;
  int dealer_ = 0;
  int deals_ = 0;
  std::int64_t pool_ = 0;
  Phase phase_ = Phase::deal_over;
  Json result_;
};

}  // namespace

GameInfo reversi_info() {
  GameInfo info;
  info.view_constants = {"stake", "tricks_per_deal"};  // set by the options (registry.h)
  info.id = "reversi";
  info.name = "Reversi";
  info.aliases = {"Forerunner of Hearts"};
  info.min_players = 3;
  info.max_players = 6;
  info.seats_change_between_deals = true;
  info.summary =
      "Avoid taking tricks: each trick taken costs a chip into the pool, which the players who took none share; "
      "or take every trick and collect from everyone.";
  info.source = "000";
  info.options = {
      {"stake", OptionSpec::Type::integer, 1, {}, 1, 1000, "Chips per trick (the unit of every payment)."},
      {"deals", OptionSpec::Type::integer, 0, {}, 0, 10000, "End the table after this many deals (0: no limit)."},
  };
  info.create = [](const GameSetup& setup) -> std::unique_ptr<GameState> { return std::make_unique<Reversi>(setup); };
  info.bot = tricks::reversi_bot;
  return info;
}

}  // namespace parlour::rules
