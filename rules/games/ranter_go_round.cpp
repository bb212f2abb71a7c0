#include "rules/games/ranter_go_round.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "rules/action.h"
#include "rules/deal_phases.h"
#include "rules/chip_book.h"
#include "rules/pools.h"
#include "rules/shoe.h"
#include "rules/snapshot.h"
#include "rules/view.h"

namespace parlour::rules {

namespace {

const std::string pool_name = "pool";

// A seat's standing in the game as a whole.
enum class Standing { sitting_out, in, out, left };

const char* standing_name(Standing standing) {
  switch (standing) {
    case Standing::sitting_out: return "sitting_out";
    case Standing::in: return "in";
    case Standing::out: return "out";
    case Standing::left: return "left";
  }
  return "in";
}

struct RanterSeat {
  Standing standing = Standing::sitting_out;
  int counters = 0;
  std::optional<Card> card;
  bool in_deal = false;
  std::string done;  // this deal: "", "stood", "exchanged", "drew"
  bool lost = false;
  std::int64_t deal_net = 0;
};

// Ace low, king high: the printed rank is the order.
int rank_value(Card card) { return card.rank; }
bool is_king(Card card) { return card.rank == king; }

class RanterGoRound final : public GameState {
 public:
  std::unique_ptr<GameState> clone() const override { return std::make_unique<RanterGoRound>(*this); }
  explicit RanterGoRound(const GameSetup& setup)
      : counters_(setup.options.at("counters").get<int>()),
        stake_(setup.options.at("stake").get<std::int64_t>()),
        king_skip_(setup.options.at("king_skip").get<bool>()),
        deal_limit_(setup.options.at("deals").get<int>()),
        shoe_(PackSpec{}, setup.seed, setup.stacked_deck),
        seats_(static_cast<std::size_t>(setup.players)),
        exposed_(static_cast<std::size_t>(setup.players), false),
        dealer_(setup.starting_dealer()) {
    for (int seat = 0; seat < players(); ++seat) {
      if (setup.balances[seat] >= static_cast<std::int64_t>(counters_) * stake_) {
        seats_[seat].standing = Standing::in;
        seats_[seat].counters = counters_;
      }
    }
  }

  Phase phase() const override { return phase_; }

  std::vector<int> to_act() const override {
    if (phase_ != Phase::playing) return {};
    return {order_[turn_]};
  }

  void write_legal_actions(int seat, const Balances&, JsonWriter& out) const override {
    out.begin_array();
    if (phase_ == Phase::playing && seat == order_[turn_]) {
      write_bare_action(out, "stand");
      if (seat == dealer_) write_bare_action(out, "draw");
      else if (exchange_partner(turn_)) write_bare_action(out, "exchange");
    }
    out.end_array();
  }

  Effects apply(int seat, const Json& action, const Balances& balances) override {
    if (phase_ != Phase::playing) throw not_your_turn("no deal is in progress");
    const int actor = order_[turn_];
    if (seat != actor) throw not_your_turn("it is " + seat_tag(actor) + "'s turn");
    const auto type = action_type(action);
    expect_only_fields(action, {});
    std::optional<int> partner;
    if (type == "stand") {
    } else if (type == "draw") {
      if (seat != dealer_) throw illegal_action("only the dealer may draw a new card; stand or exchange");
    } else if (type == "exchange") {
      if (seat == dealer_) throw illegal_action("the dealer does not exchange; he may stand or draw");
      partner = exchange_partner(turn_);
      if (!partner) throw illegal_action("nobody on your left can be exchanged with (a king is immune)");
    } else {
      throw illegal_action("expected stand, exchange or draw, got a '" + type + "' action");
    }

    Effects fx;
    auto& s = seats_[seat];
    if (type == "stand") {
      s.done = "stood";
      fx.say(seat_tag(seat) + " stands.");
    } else if (type == "draw") {
      returned_.push_back(*s.card);
      s.card = stock_.draw();
      s.done = "drew";
      fx.say(seat_tag(seat) + " puts his card back under the pack and draws another.");
    } else {
      std::swap(s.card, seats_[*partner].card);
      s.done = "exchanged";
      fx.say(seat_tag(seat) + " exchanges cards with " + seat_tag(*partner) + ".");
    }
    Balances chips = balances;
    advance_turn(turn_ + 1, chips, fx);
    return fx;
  }

  Effects start_next_deal(const Balances& balances) override {
    if (phase_ != Phase::deal_over) throw std::logic_error("ranter-go-round: next deal while a deal is on");
    Effects fx;
    if (remaining().size() < 2) {
      phase_ = Phase::game_over;
      fx.say("Fewer than two players can take part; the game is over.");
      return fx;
    }
    if (deals_ == 0 || seats_[dealer_].standing != Standing::in) {
      // The first dealer, or the next player still in after him.
      dealer_ = next_remaining(deals_ == 0 ? (dealer_ + players() - 1) % players() : dealer_);
    } else if (!replay_) {
      dealer_ = next_remaining(dealer_);
    }
    Balances chips = balances;
    begin_deal(chips, fx);
    return fx;
  }

  Effects seat_left(int seat, const Balances& balances) override {
    Effects fx;
    auto& s = seats_[seat];
    if (s.standing == Standing::left) return fx;
    const bool was_in = s.standing == Standing::in;
    s.standing = Standing::left;
    fx.say(seat_tag(seat) + " leaves the table.");
    if (phase_ == Phase::game_over || !was_in) return fx;
    Balances chips = balances;
    const auto left_in = remaining();
    if (left_in.size() <= 1) {
      if (phase_ == Phase::playing) {
        settle_without_showdown();
      } else {
        for (auto& other : seats_) {  // the game ends between deals: this result is the pool alone
          other.deal_net = 0;
          other.lost = false;
        }
      }
      end_game(left_in, chips, fx);
      return fx;
    }
    if (phase_ == Phase::playing && order_[turn_] == seat) advance_turn(turn_ + 1, chips, fx);
    return fx;
  }

  Effects close(const Balances&) override {
    Effects fx = close_pool(pool_name, pool_, dealer_, players(),
                            [&](int s) { return seats_[s].standing != Standing::left; });
    phase_ = Phase::game_over;
    return fx;
  }

  // Each player's one card is face down, seen by its owner, until a king is
  // turned up (it stays up) or the cards are shown at the end of the deal.
  void write_view(std::optional<int> viewer, JsonWriter& out) const override {
    out.begin_object();
    view::base_members(out, view::layouts::betting, phase_name(), deals_, dealer_);
    out.array_field("seats", [&] {
      for (int seat = 0; seat < players(); ++seat) write_seat(out, seat, viewer);
    });
    out.array_field("piles", [&] { view::face_down_pile(out, "stock", std::nullopt, stock_.size() + returned_.size()); });
    view::one_pool(out, pool_name, pool_);
    out.key("turn");
    view::turn(out, to_act(), phase_ == Phase::playing ? "exchange" : phase_name());
    out.field("stake", stake_);
    out.field("winner", winner_);
    out.end_object();
  }

  void write_seat(JsonWriter& out, int seat, std::optional<int> viewer) const {
    const auto& s = seats_[seat];
    const bool holds = s.in_deal && s.card.has_value();
    const bool face_up = holds && (shown_ || viewer == seat || (is_king(*s.card) && exposed_[seat]));
    out.object([&] {
      view::seat_members(out, seat, holds ? std::vector<Card>{*s.card} : std::vector<Card>{}, face_up,
                         standing_name(s.standing), s.standing == Standing::left);
      out.field("counters", s.counters);
      out.field("in_deal", s.in_deal);
      out.field("king", s.in_deal && exposed_[seat]);
      out.key("done");
      if (s.done.empty()) out.null();
      else out.value(s.done);
    });
  }

  Json result() const override { return result_; }
  int deals_played() const override { return deals_; }
  std::optional<DeckSource> deck_source() const override { return shoe_.source(); }

  // The counters, the stake and the options come from the setup the snapshot is
  // restored with; everything else is here.
  Json snapshot() const override {
    Json seats = Json::array();
    for (const auto& s : seats_) {
      seats.push_back({{"standing", enum_json(s.standing)},
                       {"counters", s.counters},
                       {"card", optional_card_json(s.card)},
                       {"in_deal", s.in_deal},
                       {"done", s.done},
                       {"lost", s.lost},
                       {"deal_net", s.deal_net}});
    }
    return {{"shoe", shoe_.snapshot()},   {"stock", stock_.snapshot()}, {"returned", cards_json(returned_)},
            {"seats", std::move(seats)},  {"exposed", exposed_},        {"order", order_},
            {"turn", turn_},              {"dealer", dealer_},          {"deals", deals_},
            {"pool", pool_},              {"replay", replay_},          {"shown", shown_},
            {"winner", optional_json(winner_)}, {"phase", enum_json(phase_)}, {"result", result_}};
  }

  void restore(const Json& snapshot) override {
    shoe_.restore(member(snapshot, "shoe"));
    stock_ = Stock::restore(member(snapshot, "stock"));
    returned_ = cards_from(member(snapshot, "returned"));
    const auto& seats = member(snapshot, "seats");
    expect_size(seats, seats_.size(), "seats");
    for (std::size_t i = 0; i < seats_.size(); ++i) {
      auto& s = seats_[i];
      const auto& saved = seats[i];
      s.standing = enum_field(saved, "standing", Standing::left);
      s.counters = field<int>(saved, "counters");
      s.card = optional_card_from(member(saved, "card"));
      s.in_deal = field<bool>(saved, "in_deal");
      s.done = field<std::string>(saved, "done");
      s.lost = field<bool>(saved, "lost");
      s.deal_net = field<std::int64_t>(saved, "deal_net");
      // A player in the deal holds his card until the deal is over: the showdown reads it.
      if (s.in_deal && !s.card) throw SnapshotError("a player in the deal holds no card");
    }
    expect_size(member(snapshot, "exposed"), seats_.size(), "seats' kings turned up");
    exposed_ = field<std::vector<bool>>(snapshot, "exposed");
    order_ = field<std::vector<int>>(snapshot, "order");
    for (const int seat : order_)
      if (seat < 0 || seat >= players()) throw SnapshotError("a player's seat in the deal is out of range");
    turn_ = field<std::size_t>(snapshot, "turn");
    dealer_ = field<int>(snapshot, "dealer");
    deals_ = field<int>(snapshot, "deals");
    pool_ = field<std::int64_t>(snapshot, "pool");
    replay_ = field<bool>(snapshot, "replay");
    shown_ = field<bool>(snapshot, "shown");
    winner_ = optional_field<int>(snapshot, "winner");
    phase_ = phase_field(snapshot, "phase");
    result_ = field<Json>(snapshot, "result");
    if (phase_ == Phase::playing && turn_ >= order_.size()) throw SnapshotError("the turn is past the players");
    if (dealer_ < 0 || dealer_ >= players()) throw SnapshotError("the dealer's seat is out of range");
    if (winner_ && (*winner_ < 0 || *winner_ >= players())) throw SnapshotError("the winner's seat is out of range");
  }

 private:
  int players() const { return static_cast<int>(seats_.size()); }

  const char* phase_name() const { return phase_label(phase_, "exchanging"); }

  // Seats still in the game (with counters, seated), from seat 0.
  std::vector<int> remaining() const {
    std::vector<int> out;
    for (int seat = 0; seat < players(); ++seat)
      if (seats_[seat].standing == Standing::in) out.push_back(seat);
    return out;
  }

  int next_remaining(int from) const {
    return next_seat(from, players(), [&](int s) { return seats_[s].standing == Standing::in; });
  }

  bool present_in_deal(int seat) const { return seats_[seat].in_deal && seats_[seat].standing != Standing::left; }
  bool holds_exposed_king(int seat) const { return exposed_[seat]; }

  // The player the actor at order_[index] may exchange with, if any: the next
  // player on his left in the deal (never past the dealer) who is not protected by a
  // king; with `king_skip` off a king on the left blocks the exchange outright.
  std::optional<int> exchange_partner(std::size_t index) const {
    for (std::size_t j = index + 1; j < order_.size(); ++j) {
      const int seat = order_[j];
      if (!present_in_deal(seat)) continue;
      if (!holds_exposed_king(seat)) return seat;
      if (!king_skip_) return std::nullopt;
    }
    return std::nullopt;
  }

  void begin_deal(Balances& chips, Effects& fx) {
    ++deals_;
    replay_ = false;
    shown_ = false;
    returned_.clear();
    exposed_.assign(seats_.size(), false);
    for (auto& s : seats_) {
      s.card.reset();
      s.in_deal = false;
      s.done.clear();
      s.lost = false;
      s.deal_net = 0;
    }
    order_ = seats_from((dealer_ + 1) % players(), players(),
                        [&](int s) { return seats_[s].standing == Standing::in; });
    fx.say("Deal " + std::to_string(deals_) + ": " + seat_tag(dealer_) + " deals one card to each player.");
    stock_ = shoe_.next_deal();
    for (int seat : order_) {
      seats_[seat].in_deal = true;
      seats_[seat].card = stock_.draw();
      if (is_king(*seats_[seat].card)) {
        exposed_[seat] = true;
        fx.say(seat_tag(seat) + " turns up " + to_string(*seats_[seat].card) + " and is passed by.");
      }
    }
    phase_ = Phase::playing;
    advance_turn(0, chips, fx);
  }

  // Moves the turn to the first player at or after `from` in order_ who still acts
  // (in the deal, seated, not holding a king turned up); the showdown otherwise.
  void advance_turn(std::size_t from, Balances& chips, Effects& fx) {
    for (std::size_t next = from; next < order_.size(); ++next) {
      const int seat = order_[next];
      if (present_in_deal(seat) && !holds_exposed_king(seat)) {
        turn_ = next;
        return;
      }
    }
    showdown(chips, fx);
  }

  void lose_counter(int seat, Balances& chips, Effects& fx, Json& unpaid) {
    auto& s = seats_[seat];
    s.lost = true;
    --s.counters;
    // The cards are shown at the showdown, so the memo may name the losing card.
    const auto memo = seat_tag(seat) + "'s " + card_words(*s.card) + " is the lowest card shown: a counter into the pool";
    const auto payment = pay_what_you_have(seat, Account::of_pool(pool_name), stake_, memo, chips, fx);
    pool_ += payment.paid;
    s.deal_net -= payment.paid;
    std::string line = seat_tag(seat) + " holds the lowest card and puts a counter (" + std::to_string(payment.paid) +
                       " chips) into the pool";
    if (payment.unpaid > 0) {
      unpaid.push_back(unpaid_entry(seat, Account::of_pool(pool_name), payment.unpaid, memo));
      line += "; " + std::to_string(payment.unpaid) + " of it is unpaid";
    }
    if (s.counters == 0) {
      s.standing = Standing::out;
      line += "; with no counters left he drops out";
    }
    fx.say(line + ".");
  }

  void showdown(Balances& chips, Effects& fx) {
    shown_ = true;
    std::vector<int> in_showdown;
    for (int seat : order_)
      if (present_in_deal(seat)) in_showdown.push_back(seat);
    std::optional<int> lowest;
    for (int seat : in_showdown) {
      const Card card = *seats_[seat].card;
      if (is_king(card)) continue;
      if (!lowest || rank_value(card) < *lowest) lowest = rank_value(card);
    }
    std::vector<int> losers;
    if (lowest)
      for (int seat : in_showdown)
        if (rank_value(*seats_[seat].card) == *lowest) losers.push_back(seat);
    std::string shown = "Cards shown:";
    for (int seat : in_showdown) shown += " " + seat_tag(seat) + " " + to_string(*seats_[seat].card);
    fx.say(shown + ".");

    const bool all_out = !losers.empty() && losers.size() == in_showdown.size() &&
                         std::all_of(losers.begin(), losers.end(), [&](int s) { return seats_[s].counters == 1; });
    Json unpaid = Json::array();
    if (losers.empty()) {
      fx.say("Everyone holds a king; nobody loses a counter.");
    } else if (all_out) {
      replay_ = true;
      fx.say("Every player would be put out; nobody loses a counter and the deal is played again.");
    } else {
      for (int seat : losers) lose_counter(seat, chips, fx, unpaid);
    }

    const auto left_in = remaining();
    if (left_in.size() <= 1) {
      end_game(left_in, chips, fx, &unpaid);
      return;
    }
    write_result(unpaid);
    fx.say("Deal " + std::to_string(deals_) + " is settled; the pool holds " + std::to_string(pool_) + ".");
    phase_ = phase_after_deal(deals_, deal_limit_, fx);
  }

  // The deal stops without a showdown (everyone else has left): nobody loses.
  void settle_without_showdown() { shown_ = true; }

  // One player (or none) is left: he takes the whole pool and the game is over.
  void end_game(const std::vector<int>& left_in, Balances& chips, Effects& fx, Json* unpaid = nullptr) {
    if (left_in.size() == 1) {
      const int winner = left_in[0];
      winner_ = winner;
      fx.move(Account::of_pool(pool_name), Account::of_seat(winner), pool_,
              seat_tag(winner) + ", the last player left in the game, takes the pool of " + std::to_string(pool_));
      chips[winner] += pool_;
      seats_[winner].deal_net += pool_;
      fx.say(seat_tag(winner) + " is the last player left and takes the pool of " + std::to_string(pool_) + ".");
      pool_ = 0;
    } else {
      fx.say("Nobody is left in the game.");
    }
    write_result(unpaid ? *unpaid : Json::array());
    phase_ = Phase::game_over;
  }

  void write_result(const Json& unpaid) {
    Json seats = Json::array();
    for (int seat = 0; seat < players(); ++seat) {
      const auto& s = seats_[seat];
      std::string outcome;
      if (winner_ == seat) outcome = "won_pool";
      else if (s.standing == Standing::sitting_out) outcome = "sitting_out";
      else if (s.standing == Standing::left) outcome = "left";
      else if (!s.in_deal) outcome = "out";
      else if (s.lost) outcome = s.standing == Standing::out ? "out" : "lost_counter";
      else if (exposed_[seat]) outcome = "king";
      else outcome = "safe";
      Json line = {{"seat", seat},
                   {"chips", s.deal_net},
                   {"outcome", outcome},
                   {"counters", s.counters},
                   {"lost_counter", s.lost}};
      if (s.in_deal && s.card) line["card"] = to_string(*s.card);
      seats.push_back(line);
    }
    result_ = {{"deal", deals_},
               {"dealer", dealer_},
               {"pool", pool_},
               {"replayed", replay_},
               {"winner", winner_ ? Json(*winner_) : Json()},
               {"unpaid", unpaid},
               {"seats", seats}};
  }

  const int counters_;
  const std::int64_t stake_;
  const bool king_skip_;
  const int deal_limit_;
  Shoe shoe_;
  Stock stock_;
  std::vector<Card> returned_;  // the dealer's card put under the stock
  std::vector<RanterSeat> seats_;
  std::vector<bool> exposed_;  // kings turned up this deal
  std::vector<int> order_;     // this deal's players, dealer last
  std::size_t turn_ = 0;       // index into order_
  int dealer_ = 0;
  int deals_ = 0;
  std::int64_t pool_ = 0;
  bool replay_ = false;
  bool shown_ = false;
  std::optional<int> winner_;
  Phase phase_ = Phase::deal_over;  // the table starts play with start_next_deal
  Json result_;
};

// The chance that a card of rank `rank` is the lowest (ties lose too) against
// `rivals` other cards that may lose, each any rank ace to queen alike.
double chance_lowest(int rank, int rivals) {
  if (rank == king) return 0.0;
  return std::pow(static_cast<double>(13 - rank) / 12.0, rivals);
}

// The level-1 bot: keep the card unless a fresh one is likelier to survive.
// A neighbour's card is any of ace to queen (a king would be turned up); the
// dealer's draw may be a king too. Nobody acts on the bot's card after its turn,
// so this is the whole of its choice: the classic "exchange a low card" with the
// threshold set by how many may hold the lowest card.
Json ranter_go_round_bot(const Json& view, const Json& legal, Rng&) {
  if (!legal.is_array() || legal.empty()) throw std::logic_error("ranter-go-round bot: no legal action");
  const Json* change = nullptr;
  const Json* stand = nullptr;
  for (const auto& action : legal) {
    const auto type = action.value("type", "");
    if (type == "exchange" || type == "draw") change = &action;
    if (type == "stand") stand = &action;
  }
  if (!change || !stand) return stand ? *stand : legal.front();
  const int me = view.at("turn").at("seats").at(0).get<int>();
  std::optional<Card> mine;
  int rivals = 0;
  for (const auto& seat : view.at("seats")) {
    const auto& cards = seat.value("cards", Json::array());
    if (seat.value("seat", -1) == me) {
      if (!cards.empty() && cards.front().is_string()) mine = parse_card(cards.front().get<std::string>());
    } else if (seat.value("in_deal", false) && !seat.value("left", false) && !seat.value("king", false)) {
      ++rivals;
    }
  }
  if (!mine) return *stand;
  const bool drawing = change->value("type", "") == "draw";
  double fresh = 0;
  for (int rank = ace; rank <= queen; ++rank) fresh += chance_lowest(rank, rivals);
  fresh /= drawing ? 13.0 : 12.0;  // a drawn king never loses
  return chance_lowest(mine->rank, rivals) > fresh ? *change : *stand;
}

}  // namespace

GameInfo ranter_go_round_info() {
  GameInfo info;
  info.view_constants = {"stake"};  // set by the options (registry.h)
  info.id = "ranter_go_round";
  info.name = "Ranter-Go-Round";
  info.aliases = {"Chase the Ace"};
  info.min_players = 2;
  info.max_players = 30;
  info.summary =
      "One card each: stand or exchange with your left-hand neighbour; the lowest card loses a counter, and the "
      "last player with counters takes the pool.";
  info.source = "000";
  info.options = {
      {"counters", OptionSpec::Type::integer, 3, {}, 1, 20, "Counters each player starts with."},
      {"stake", OptionSpec::Type::integer, 1, {}, 1, 1000000, "Chips a counter is worth."},
      {"king_skip", OptionSpec::Type::boolean, false, {}, std::nullopt, std::nullopt,
       "An exchange blocked by a king goes to the next player on the left instead of being refused."},
      {"deals", OptionSpec::Type::integer, 0, {}, 0, 10000,
       "End the table after this many deals even if several players are left (0: no limit)."},
  };
  info.create = [](const GameSetup& setup) -> std::unique_ptr<GameState> {
    return std::make_unique<RanterGoRound>(setup);
  };
  info.bot = ranter_go_round_bot;
  return info;
}

}  // namespace parlour::rules
