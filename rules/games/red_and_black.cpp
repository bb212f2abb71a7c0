#include "rules/games/red_and_black.h"

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

enum class Status { dealer, waiting, bet, won, won_double, lost, lost_double, skipped, withdrawn, void_bet,
                    sitting_out, left };

const char* status_name(Status status) {
  switch (status) {
    case Status::dealer: return "dealer";
    case Status::waiting: return "waiting";
    case Status::bet: return "bet";
    case Status::won: return "won";
    case Status::won_double: return "won_double";
    case Status::lost: return "lost";
    case Status::lost_double: return "lost_double";
    case Status::skipped: return "skipped";
    case Status::withdrawn: return "withdrawn";
    case Status::void_bet: return "void";
    case Status::sitting_out: return "sitting_out";
    case Status::left: return "left";
  }
  return "waiting";
}

struct RedAndBlackSeat {
  Status status = Status::sitting_out;
  bool left = false;
  std::optional<bool> red;  // the colour named: true red, false black
  std::optional<std::int64_t> bet;
  std::vector<Card> cards;
  std::int64_t deal_net = 0;
};

const char* colour_name(bool red) { return red ? "red" : "black"; }

class RedAndBlack final : public GameState {
 public:
  std::unique_ptr<GameState> clone() const override { return std::make_unique<RedAndBlack>(*this); }
  explicit RedAndBlack(const GameSetup& setup)
      : limit_(setup.options.at("limit").get<std::int64_t>()),
        sequential_(setup.options.at("sequential").get<bool>()),
        bank_passes_(setup.options.at("bank_passes").get<bool>()),
        cover_double_(setup.options.at("cover_double").get<bool>()),
        deal_limit_(setup.options.at("deals").get<int>()),
        shoe_(PackSpec{}, setup.seed, setup.stacked_deck),
        seats_(static_cast<std::size_t>(setup.players)),
        dealer_(setup.starting_dealer()) {}

  Phase phase() const override { return phase_; }

  std::vector<int> to_act() const override {
    if (phase_ != Phase::playing) return {};
    return {order_[turn_]};
  }

  void write_legal_actions(int seat, const Balances& balances, JsonWriter& out) const override {
    out.begin_array();
    if (phase_ == Phase::playing && seat == order_[turn_]) write_bets(seat, balances, out);
    out.end_array();
  }

  // The bettor's and the banker's chips are theirs across tables and may have
  // gone since the turn began: with no bet left to cover, the bettor may only skip.
  void write_bets(int seat, const Balances& balances, JsonWriter& out) const {
    const auto most = max_bet(seat, balances);
    if (most < 1) return write_skip_action(out);
    for (const char* colour : {"red", "black"}) {
      out.object([&] {
        out.field("type", "bet");
        out.field("colour", colour);
        out.key("amount");
        write_bounds(out, 1, most);
      });
    }
  }

  Effects apply(int seat, const Json& action, const Balances& balances) override {
    if (phase_ != Phase::playing) throw not_your_turn("no deal is in progress");
    const int actor = order_[turn_];
    if (seat != actor) throw not_your_turn("it is " + seat_tag(actor) + "'s turn to bet");
    const auto type = action_type(action);
    if (type == "skip") return skip_turn(seat, action, balances);
    if (type != "bet") throw illegal_action("expected a bet, got a '" + type + "' action");
    expect_only_fields(action, {"colour", "amount"});
    auto colour = action.find("colour");
    if (colour == action.end() || !colour->is_string() || (*colour != "red" && *colour != "black"))
      throw illegal_action("a bet names a \"colour\": \"red\" or \"black\"");
    const bool red = *colour == "red";
    const auto amount = int_field(action, "amount");
    if (amount < 1) throw illegal_action("a bet is at least 1 chip, got " + std::to_string(amount));
    if (limit_ > 0 && amount > limit_)
      throw illegal_action("the limit is " + std::to_string(limit_) + ", got " + std::to_string(amount));
    const auto cover = bank_cover(balances);
    if (amount > cover)
      throw illegal_action("the bank covers a bet of at most " + std::to_string(cover) + ", got " +
                           std::to_string(amount));
    const auto own = own_cover(seat, balances);
    if (amount > own)
      throw insufficient_chips("a bet of " + std::to_string(amount) + " needs " +
                               std::to_string(cover_double_ ? 2 * amount : amount) + " chips; you have " +
                               std::to_string(balances[seat]));

    Effects fx;
    Balances chips = balances;
    auto& s = seats_[seat];
    s.red = red;
    s.bet = amount;
    s.status = Status::bet;
    fx.say(seat_tag(seat) + " bets " + std::to_string(amount) + " on " + colour_name(red) + ".");
    if (sequential_) {
      s.cards = stock_.draw(5);
      settle_bettor(seat, chips, fx);
    }
    advance_turn(turn_ + 1, chips, fx);
    return fx;
  }

  Effects start_next_deal(const Balances& balances) override {
    if (phase_ != Phase::deal_over) throw std::logic_error("red and black: next deal while a deal is on");
    Effects fx;
    Balances chips = balances;
    begin_deal(chips, fx);
    return fx;
  }

  Effects seat_taken(int seat, const Balances&) override {
    seat_afresh(seats_, seat, phase_ == Phase::deal_over, "red and black");
    return {};
  }

  Effects seat_left(int seat, const Balances& balances) override {
    Effects fx;
    auto& s = seats_[seat];
    if (s.left) return fx;
    s.left = true;
    fx.say(seat_tag(seat) + " leaves the table.");
    Balances chips = balances;
    if (phase_ == Phase::playing) {
      if (seat == dealer_) {
        for (int bettor : order_) {
          auto& b = seats_[bettor];
          if (b.status == Status::waiting || b.status == Status::bet) {
            b.status = b.bet ? Status::void_bet : Status::skipped;
            b.cards.clear();
          }
        }
        s.status = Status::left;
        fx.say("The dealer has left; the bets not yet settled are void.");
        settle_deal(fx);
      } else {
        const bool was_to_act = order_[turn_] == seat;
        if (s.status == Status::bet) {
          s.status = Status::withdrawn;
          fx.say(seat_tag(seat) + "'s bet is withdrawn.");
        } else if (s.status == Status::waiting) {
          s.status = Status::left;
        }
        if (was_to_act) advance_turn(turn_ + 1, chips, fx);
      }
    }
    if (phase_ != Phase::game_over && seated_count(seats_) < 2) {
      phase_ = Phase::game_over;
      fx.say("Too few players remain; the game is over.");
    }
    return fx;
  }

  Effects close(const Balances&) override {
    phase_ = Phase::game_over;
    return {};
  }

  // The five cards are dealt face up once a bet is made, so every viewer sees
  // the same table. The dealer banks with his own chips: there is no pool.
  void write_view(std::optional<int>, JsonWriter& out) const override {
    out.begin_object();
    view::base_members(out, view::layouts::betting, phase_name(), deals_, dealer_);
    out.array_field("seats", [&] {
      for (int seat = 0; seat < players(); ++seat) write_seat(out, seat);
    });
    out.array_field("piles", [&] { view::face_down_pile(out, "stock", std::nullopt, stock_.size()); });
    out.key("turn");
    view::turn(out, to_act(), phase_ == Phase::playing ? "bet" : phase_name());
    out.field("limit", limit_);
    out.field("sequential", sequential_);
    out.end_object();
  }

  void write_seat(JsonWriter& out, int seat) const {
    const auto& s = seats_[seat];
    out.object([&] {
      view::seat_members(out, seat, s.cards, true, status_name(s.status), s.left);
      out.key("colour");
      if (s.red) out.string(colour_name(*s.red));
      else out.null();
      out.field("bet", s.bet);
      out.key("named");
      if (s.red && !s.cards.empty()) out.integer(named_count(s));
      else out.null();
    });
  }

  Json result() const override { return result_; }
  int deals_played() const override { return deals_; }
  std::optional<DeckSource> deck_source() const override { return shoe_.source(); }

  // The limit, the options and the deal limit come from the setup the snapshot
  // is restored with; everything else is here.
  Json snapshot() const override {
    Json seats = Json::array();
    for (const auto& s : seats_) {
      seats.push_back({{"status", enum_json(s.status)},
                       {"left", s.left},
                       {"red", optional_json(s.red)},
                       {"bet", optional_json(s.bet)},
                       {"cards", cards_json(s.cards)},
                       {"deal_net", s.deal_net}});
    }
    return {{"shoe", shoe_.snapshot()}, {"stock", stock_.snapshot()}, {"seats", std::move(seats)},
            {"order", order_},          {"turn", turn_},              {"dealer", dealer_},
            {"deals", deals_},          {"unpaid", unpaid_},          {"phase", enum_json(phase_)},
            {"result", result_}};
  }

  void restore(const Json& snapshot) override {
    shoe_.restore(member(snapshot, "shoe"));
    stock_ = Stock::restore(member(snapshot, "stock"));
    const auto& seats = member(snapshot, "seats");
    expect_size(seats, seats_.size(), "seats");
    for (std::size_t i = 0; i < seats_.size(); ++i) {
      auto& s = seats_[i];
      const auto& saved = seats[i];
      s.status = enum_field(saved, "status", Status::left);
      s.left = field<bool>(saved, "left");
      s.red = optional_field<bool>(saved, "red");
      s.bet = optional_field<std::int64_t>(saved, "bet");
      s.cards = cards_from(member(saved, "cards"));
      s.deal_net = field<std::int64_t>(saved, "deal_net");
      // A bet standing is settled by its colour and amount.
      if (s.status == Status::bet && (!s.red || !s.bet)) throw SnapshotError("a bet standing names no colour or amount");
    }
    order_ = field<std::vector<int>>(snapshot, "order");
    for (const int seat : order_)
      if (seat < 0 || seat >= players()) throw SnapshotError("a bettor's seat is out of range");
    turn_ = field<std::size_t>(snapshot, "turn");
    dealer_ = field<int>(snapshot, "dealer");
    deals_ = field<int>(snapshot, "deals");
    unpaid_ = field<Json>(snapshot, "unpaid");
    phase_ = phase_field(snapshot, "phase");
    result_ = field<Json>(snapshot, "result");
    if (!unpaid_.is_array()) throw SnapshotError("expected the unpaid rests as an array");
    if (phase_ == Phase::playing && turn_ >= order_.size()) throw SnapshotError("the turn is past the bettors");
    if (dealer_ < 0 || dealer_ >= players()) throw SnapshotError("the dealer's seat is out of range");
  }

 private:
  int players() const { return static_cast<int>(seats_.size()); }

  const char* phase_name() const { return phase_label(phase_, "betting"); }

  static int named_count(const RedAndBlackSeat& s) {
    return static_cast<int>(
        std::count_if(s.cards.begin(), s.cards.end(), [&](Card c) { return c.is_red() == *s.red; }));
  }

  // Bets accepted and not yet settled: what the bank must still cover twice over.
  std::int64_t pending() const {
    std::int64_t sum = 0;
    for (int seat : order_)
      if (seats_[seat].status == Status::bet) sum += *seats_[seat].bet;
    return sum;
  }

  std::int64_t bank_cover(const Balances& chips) const {
    return std::max<std::int64_t>(0, (chips[dealer_] - 2 * pending()) / 2);
  }

  std::int64_t own_cover(int seat, const Balances& chips) const {
    const auto have = std::max<std::int64_t>(chips[seat], 0);
    return cover_double_ ? have / 2 : have;
  }

  std::int64_t max_bet(int seat, const Balances& chips) const {
    std::int64_t most = std::min(bank_cover(chips), own_cover(seat, chips));
    if (limit_ > 0) most = std::min(most, limit_);
    return most;
  }

  // The bettor to act can no longer cover a bet (his chips or the bank's went at
  // another table since his turn began): he is skipped as if it had been so when
  // his turn came.
  Effects skip_turn(int seat, const Json& action, const Balances& balances) {
    check_skip(action, max_bet(seat, balances) >= 1);
    Effects fx;
    Balances chips = balances;
    mark_skipped(seat, chips, fx);
    advance_turn(turn_ + 1, chips, fx);
    return fx;
  }

  void mark_skipped(int seat, const Balances& chips, Effects& fx) {
    seats_[seat].status = Status::skipped;
    fx.say(seat_tag(seat) + (own_cover(seat, chips) < 1 ? " cannot cover a bet" : " finds the bank exhausted") +
           " and is skipped.");
  }

  // Who banks this deal: from the seat due, the first player seated who can cover a
  // 1-chip bet doubled.
  std::optional<int> choose_dealer(const Balances& chips) const {
    int due = dealer_;
    if (deals_ > 0 && bank_passes_) due = (dealer_ + 1) % players();
    for (int i = 0; i < players(); ++i) {
      const int seat = (due + i) % players();
      if (!seats_[seat].left && chips[seat] >= 2) return seat;
    }
    return std::nullopt;
  }

  void begin_deal(Balances& chips, Effects& fx) {
    const auto dealer = seated_count(seats_) >= 2 ? choose_dealer(chips) : std::nullopt;
    bool someone_can_bet = false;
    if (dealer) {
      for (int seat = 0; seat < players(); ++seat)
        if (seat != *dealer && !seats_[seat].left && own_cover(seat, chips) >= 1) someone_can_bet = true;
    }
    if (!dealer || !someone_can_bet) {
      phase_ = Phase::game_over;
      fx.say("Nobody can both bank and bet; the game is over.");
      return;
    }
    dealer_ = *dealer;
    ++deals_;
    for (auto& s : seats_) {
      s.red.reset();
      s.bet.reset();
      s.cards.clear();
      s.deal_net = 0;
      s.status = s.left ? Status::left : Status::waiting;
    }
    seats_[dealer_].status = Status::dealer;
    order_ = seats_from((dealer_ + 1) % players(), players(),
                        [&](int s) { return s != dealer_ && !seats_[s].left; });
    stock_ = shoe_.next_deal();
    fx.say("Deal " + std::to_string(deals_) + ": " + seat_tag(dealer_) + " deals and banks.");
    phase_ = Phase::playing;
    advance_turn(0, chips, fx);
  }

  // The next bettor at or after `from` who can bet; when none is left, the cards are
  // dealt (Gibson's order) and the deal is settled.
  void advance_turn(std::size_t from, Balances& chips, Effects& fx) {
    for (std::size_t next = from; next < order_.size(); ++next) {
      const int seat = order_[next];
      if (seats_[seat].status != Status::waiting) continue;
      if (max_bet(seat, chips) >= 1) {
        turn_ = next;
        return;
      }
      mark_skipped(seat, chips, fx);
    }
    if (!sequential_) {
      std::vector<int> betting;
      for (int seat : order_)
        if (seats_[seat].status == Status::bet) betting.push_back(seat);
      for (int round = 0; round < 5; ++round)
        for (int seat : betting) seats_[seat].cards.push_back(stock_.draw());
      for (int seat : betting) settle_bettor(seat, chips, fx);
    }
    settle_deal(fx);
  }

  // Moves up to `amount` from one seat to another; what cannot be paid is named.
  void pay(int from, int to, std::int64_t amount, const std::string& memo, Balances& chips, Effects& fx) {
    const auto payment = pay_and_announce(from, Account::of_seat(to), amount, memo, chips, fx, true);
    seats_[from].deal_net -= payment.paid;
    seats_[to].deal_net += payment.paid;
    if (payment.unpaid > 0) unpaid_.push_back(unpaid_entry(from, Account::of_seat(to), payment.unpaid, memo));
  }

  void settle_bettor(int seat, Balances& chips, Effects& fx) {
    auto& s = seats_[seat];
    const int k = named_count(s);
    const std::int64_t bet = *s.bet;
    std::string cards;
    for (auto card : s.cards) cards += " " + to_string(card);
    fx.say(seat_tag(seat) + " is dealt" + cards + ": " + std::to_string(k) + " " + colour_name(*s.red) + ".");
    // Each memo is read from both sides (the bettor's and the banker's ledger),
    // so it names who pays whom and why.
    const std::string on = std::to_string(bet) + " on " + colour_name(*s.red);
    const std::string banker = seat_tag(dealer_) + ", the banker,";
    if (k >= 3) {
      s.status = k == 5 ? Status::won_double : Status::won;
      pay(dealer_, seat, k == 5 ? 2 * bet : bet,
          k == 5 ? banker + " pays " + seat_tag(seat) + " double the bet of " + on + ": all five cards " +
                       colour_name(*s.red)
                 : banker + " pays " + seat_tag(seat) + "'s winning bet of " + on + ": " + std::to_string(k) +
                       " of the five cards " + colour_name(*s.red),
          chips, fx);
    } else {
      s.status = k == 0 ? Status::lost_double : Status::lost;
      pay(seat, dealer_, k == 0 ? 2 * bet : bet,
          k == 0 ? seat_tag(seat) + " pays the banker, " + seat_tag(dealer_) + ", double the bet of " + on +
                       ": none of the five cards " + colour_name(*s.red)
                 : seat_tag(seat) + "'s losing bet of " + on + " goes to the banker, " + seat_tag(dealer_) +
                       ": only " + std::to_string(k) + " of the five cards " + colour_name(*s.red),
          chips, fx);
    }
  }

  void settle_deal(Effects& fx) {
    Json seats = Json::array();
    for (int seat = 0; seat < players(); ++seat) {
      const auto& s = seats_[seat];
      Json line = {{"seat", seat}, {"chips", s.deal_net}, {"outcome", status_name(s.status)}};
      if (s.red) line["colour"] = colour_name(*s.red);
      if (s.bet) line["bet"] = *s.bet;
      if (!s.cards.empty()) {
        line["cards"] = to_strings(s.cards);
        line["named"] = named_count(s);
      }
      seats.push_back(line);
    }
    result_ = {{"deal", deals_}, {"dealer", dealer_}, {"unpaid", unpaid_}, {"seats", seats}};
    unpaid_ = Json::array();
    fx.say("Deal " + std::to_string(deals_) + " is settled.");
    phase_ = phase_after_deal(deals_, deal_limit_, fx);
  }

  const std::int64_t limit_;
  const bool sequential_;
  const bool bank_passes_;
  const bool cover_double_;
  const int deal_limit_;
  Shoe shoe_;
  Stock stock_;
  std::vector<RedAndBlackSeat> seats_;
  std::vector<int> order_;  // this deal's bettors from the dealer's left
  std::size_t turn_ = 0;    // index into order_
  int dealer_ = 0;
  int deals_ = 0;
  Json unpaid_ = Json::array();
  Phase phase_ = Phase::deal_over;  // the table starts play with start_next_deal
  Json result_;
};

// The level-1 bot names the colour with more cards left in the stock and
// stakes by the edge: a chip without one (all bets made before any card is
// dealt, the default, leave none: red and black are then alike), more as the
// seen cards tilt the stock, up to the most allowed at an edge of a quarter.
Json red_and_black_bot(const Json& view, const Json& legal, Rng&) {
  if (!legal.is_array() || legal.empty()) throw std::logic_error("red and black bot: no legal action");
  const Json* red_bet = nullptr;
  const Json* black_bet = nullptr;
  for (const auto& action : legal) {
    if (action.value("type", "") != "bet") continue;
    (action.value("colour", "") == "red" ? red_bet : black_bet) = &action;
  }
  if (!red_bet || !black_bet) return legal.front();
  const double red_edge = red_and_black_edge(view, true);
  const double black_edge = red_and_black_edge(view, false);
  const bool red = red_edge >= black_edge;
  const Json& chosen = red ? *red_bet : *black_bet;
  const double edge = std::max(red_edge, black_edge);
  Json bet = chosen;
  bet["amount"] = amount_at_share(chosen.at("amount"), edge * 4.0);
  return bet;
}

}  // namespace

double red_and_black_edge(const Json& view, bool red) {
  int red_left = 26, black_left = 26;
  for (const auto& seat : view.at("seats"))
    for (const auto& text : seat.value("cards", Json::array())) {
      if (!text.is_string()) continue;
      const auto card = parse_card(text.get<std::string>());
      if (!card) continue;
      (card->is_red() ? red_left : black_left) -= 1;
    }
  const int named = red ? red_left : black_left;
  const int other = red ? black_left : red_left;
  const int total = named + other;
  if (named < 0 || other < 0 || total < 5) return 0.0;
  // Five cards from the stock: the chance of k of the named colour, and the
  // payment (in bets) each k brings.
  auto choose = [](int n, int k) {
    if (k < 0 || k > n) return 0.0;
    double out = 1.0;
    for (int i = 1; i <= k; ++i) out = out * (n - k + i) / i;
    return out;
  };
  const double all = choose(total, 5);
  double edge = 0;
  for (int k = 0; k <= 5; ++k) {
    const double chance = choose(named, k) * choose(other, 5 - k) / all;
    const double pays = k == 5 ? 2.0 : k >= 3 ? 1.0 : k == 0 ? -2.0 : -1.0;
    edge += chance * pays;
  }
  return edge;
}

GameInfo red_and_black_info() {
  GameInfo info;
  info.view_constants = {"limit", "sequential"};  // set by the options (registry.h)
  info.id = "red_and_black";
  info.name = "Red and Black";
  info.aliases = {};
  info.min_players = 2;
  info.max_players = 10;
  info.seats_change_between_deals = true;
  info.summary =
      "Name red or black and bet; five cards face up: the dealer pays if most are your colour and collects if "
      "not, double when all five are one colour.";
  info.source = "000";
  info.options = {
      {"limit", OptionSpec::Type::integer, 0, {}, 0, 1000000, "The most a bet may be (0: no limit but chips)."},
      {"sequential", OptionSpec::Type::boolean, false, {}, std::nullopt, std::nullopt,
       "Deal and settle each bettor as soon as he has bet, instead of all bets first."},
      {"bank_passes", OptionSpec::Type::boolean, true, {}, std::nullopt, std::nullopt,
       "The bank passes to the left after every deal; off, the same player keeps it while he can."},
      {"cover_double", OptionSpec::Type::boolean, false, {}, std::nullopt, std::nullopt,
       "A bettor must hold twice his bet, to cover losing double."},
      {"deals", OptionSpec::Type::integer, 0, {}, 0, 10000, "End the table after this many deals (0: no limit)."},
  };
  info.create = [](const GameSetup& setup) -> std::unique_ptr<GameState> {
    return std::make_unique<RedAndBlack>(setup);
  };
  info.bot = red_and_black_bot;
  return info;
}

}  // namespace parlour::rules
