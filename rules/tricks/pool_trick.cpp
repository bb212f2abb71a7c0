#include "rules/tricks/pool_trick.h"

#include <algorithm>

#include "rules/action.h"
#include "rules/deal_phases.h"
#include "rules/pools.h"
#include "rules/snapshot.h"
#include "rules/view.h"

namespace parlour::rules::tricks {

namespace {

const std::string pool_name = "pool";

enum class Status { out, undeclared, passed, active };
enum class Stage { declare, widow_discard, general_choose, dealer_exchange, play };

const char* status_name(Status status) {
  switch (status) {
    case Status::out: return "out";
    case Status::undeclared: return "undeclared";
    case Status::passed: return "passed";
    case Status::active: return "active";
  }
  return "out";
}

const char* stage_name(Stage stage) {
  switch (stage) {
    case Stage::declare: return "declare";
    case Stage::widow_discard: return "widow_discard";
    case Stage::general_choose: return "general";
    case Stage::dealer_exchange: return "dealer_exchange";
    case Stage::play: return "play";
  }
  return "declare";
}

struct SeatState {
  std::vector<Card> hand;
  Status status = Status::out;
  bool left = false;
  bool took_widow = false;
  int tricks = 0;
  std::size_t dead = 0;  // cards laid aside face down (an exchanged hand, discards)
};

class PoolTrick final : public GameState {
 public:
  std::unique_ptr<GameState> clone() const override { return std::make_unique<PoolTrick>(*this); }
  PoolTrick(const PoolTrickConfig& config, const GameSetup& setup)
      : config_(config),
        shoe_(PackSpec{config.short_pack, 0, 1}, setup.seed, setup.stacked_deck),
        seats_(static_cast<std::size_t>(setup.players)),
        dealer_(setup.starting_dealer()) {}

  Phase phase() const override { return phase_; }

  std::vector<int> to_act() const override {
    if (phase_ != Phase::playing) return {};
    return {actor()};
  }

  void write_legal_actions(int seat, const Balances&, JsonWriter& out) const override {
    out.begin_array();
    if (phase_ == Phase::playing && seat == actor()) write_stage_actions(seat, out);
    out.end_array();
  }

  void write_stage_actions(int seat, JsonWriter& out) const {
    const auto general = [&](bool widow) {
      out.object([&] {
        out.field("type", "general");
        out.field("widow", widow);
      });
    };
    switch (stage_) {
      case Stage::declare: {
        if (!forced(seat) && !dealer_must_play(seat)) write_bare_action(out, "pass");
        write_bare_action(out, "play");
        if (!widow_taken_) write_bare_action(out, "take_widow");
        if (config_.general_allowed) {
          general(false);
          if (!widow_taken_) general(true);
        }
        if (forced(seat)) write_bare_action(out, "pay_dealer");
        break;
      }
      case Stage::general_choose:
        write_bare_action(out, "play");
        if (!widow_taken_) write_bare_action(out, "take_widow");
        break;
      case Stage::widow_discard:
        for (auto card : seats_[seat].hand) write_card_action(out, "discard", card);
        break;
      case Stage::dealer_exchange:
        write_bare_action(out, "keep");
        for (auto card : seats_[seat].hand) write_card_action(out, "exchange", card);
        break;
      case Stage::play:
        for (auto card : playable(seat)) write_card_action(out, "card", card);
        break;
    }
  }

  Effects apply(int seat, const Json& action, const Balances& balances) override {
    if (phase_ != Phase::playing) throw not_your_turn("no deal is in progress");
    const int who = actor();
    if (seat != who) throw not_your_turn("it is " + seat_tag(who) + "'s turn");
    const auto type = action_type(action);
    switch (stage_) {
      case Stage::declare: return declare(seat, type, action, balances);
      case Stage::general_choose: return choose_for_general(seat, type, action);
      case Stage::widow_discard: return discard(seat, type, action);
      case Stage::dealer_exchange: return exchange(seat, type, action);
      case Stage::play: return play_card(seat, type, action, balances);
    }
    throw illegal_action("unexpected action");
  }

  Effects start_next_deal(const Balances& balances) override {
    if (phase_ != Phase::deal_over) throw std::logic_error(config_.name + ": next deal while a deal is on");
    Effects fx;
    if (seated_count(seats_) < config_.min_players) return end_game(fx, "Too few players remain; the game is over.");
    int dealer = deals_ > 0 || seats_[dealer_].left ? next_seated(dealer_, seats_) : dealer_;
    // The dealer antes; one who cannot sits out the deal and the deal passes on.
    could_not_deal_ = Json::array();
    for (int tries = 0; tries < players() && balances[dealer] < config_.unit; ++tries) {
      could_not_deal_.push_back(dealer);
      fx.say(seat_tag(dealer) + " cannot pay the dealer's " + std::to_string(config_.unit) +
             " chips and passes the deal.");
      dealer = next_seated(dealer, seats_);
    }
    if (balances[dealer] < config_.unit) return end_game(fx, "Nobody can pay the dealer's chips; the game is over.");
    dealer_ = dealer;
    ++deals_;
    book_ = ChipBook(players(), pool_name);
    book_.sync(balances);
    book_.seat_to_pool(dealer_, config_.unit, pool_,
                       "the dealer's " + std::to_string(config_.unit) + " into the pool: " + seat_tag(dealer_) +
                           " deals deal " + std::to_string(deals_),
                       fx);
    fx.say("Deal " + std::to_string(deals_) + ": " + seat_tag(dealer_) + " deals and puts " +
           std::to_string(config_.unit) + " chips in the pool, which holds " + std::to_string(pool_) + ".");
    deal_cards();
    phase_ = Phase::playing;
    return fx;
  }

  Effects seat_taken(int seat, const Balances&) override {
    seat_afresh(seats_, seat, phase_ == Phase::deal_over, config_.name);
    return {};
  }

  Effects seat_left(int seat, const Balances&) override {
    Effects fx;
    auto& s = seats_[seat];
    if (s.left) return fx;
    s.left = true;
    fx.say(seat_tag(seat) + " leaves the table.");
    if (phase_ == Phase::playing && s.status != Status::out) {
      fx.say("The deal is void: the cards are thrown in; the pool carries over.");
      finish_deal(fx, "void");
    }
    if (seated_count(seats_) < config_.min_players && phase_ != Phase::game_over)
      end_game(fx, "Too few players remain; the game is over.");
    return fx;
  }

  Effects close(const Balances&) override {
    Effects fx = close_pool(pool_name, pool_, dealer_, players(), still_seated(seats_));
    phase_ = Phase::game_over;
    return fx;
  }

  void write_view(std::optional<int> viewer, JsonWriter& out) const override {
    const bool dealt = deals_ > 0;
    out.begin_object();
    view::base_members(out, view::layouts::tricks, phase_name(), deals_, dealer_);
    out.array_field("seats", [&] {
      for (int seat = 0; seat < players(); ++seat) write_seat(out, seat, viewer);
    });
    out.array_field("piles", [&] { view::face_down_pile(out, "widow", std::nullopt, widow_.size()); });
    out.key("trick");
    view::trick(out, [&] { tricks::write_plays(out, trick_); }, dealt ? std::optional<Suit>(turned_.suit) : std::nullopt);
    view::one_pool(out, pool_name, pool_);
    out.key("turn");
    view::turn(out, to_act(), phase_ == Phase::playing ? stage_name(stage_) : phase_name());
    out.field("forced", forced_to_play());
    out.field("pool_at_play", pool_at_play_);
    out.key("turned");
    if (dealt) out.string(to_string(turned_));
    else out.null();
    out.field("turned_taken", turned_taken_);
    out.field("widow_taken", widow_taken_);
    out.key("general");
    if (general_ >= 0) out.integer(general_);
    else out.null();
    out.field("could_not_deal", could_not_deal_);
    out.key("leader");
    if (first_player_ >= 0) out.integer(first_player_);
    else out.null();
    out.key("last_trick");
    tricks::write_plays(out, last_trick_);
    out.field("ranking", config_.rules.order == RankOrder::rams_old ? "old" : "ace_high");
    out.field("unit", config_.unit);
    out.end_object();
  }

  Json result() const override { return result_; }
  int deals_played() const override { return deals_; }
  std::optional<DeckSource> deck_source() const override { return shoe_.source(); }

  // The configuration comes from the setup the snapshot is restored with; the
  // deal's trick rules are derived from it and the turned card (deal_cards), so
  // they are recomputed on restore. Everything else is here.
  Json snapshot() const override {
    Json seats = Json::array();
    for (const auto& s : seats_) {
      seats.push_back({{"hand", cards_json(s.hand)},
                       {"status", enum_json(s.status)},
                       {"left", s.left},
                       {"took_widow", s.took_widow},
                       {"tricks", s.tricks},
                       {"dead", s.dead}});
    }
    return {{"shoe", shoe_.snapshot()},
            {"seats", std::move(seats)},
            {"order", order_},
            {"widow", cards_json(widow_)},
            {"turned", deals_ > 0 ? card_json(turned_) : Json()},  // no card is turned before the first deal
            {"turned_taken", turned_taken_},
            {"widow_taken", widow_taken_},
            {"stage", enum_json(stage_)},
            {"decl_index", decl_index_},
            {"first_player", first_player_},
            {"general", general_},
            {"general_queue", general_queue_},
            {"discarder", discarder_},
            {"trick", trick_snapshot(trick_)},
            {"last_trick", trick_snapshot(last_trick_)},
            {"tricks_played", tricks_played_},
            {"first_trick_winner", first_trick_winner_},
            {"turn", turn_},
            {"pool_at_play", pool_at_play_},
            {"share", share_},
            {"book", book_.snapshot()},
            {"dealer", dealer_},
            {"deals", deals_},
            {"pool", pool_},
            {"phase", enum_json(phase_)},
            {"result", result_},
            {"could_not_deal", could_not_deal_}};
  }

  void restore(const Json& snapshot) override {
    shoe_.restore(member(snapshot, "shoe"));
    const auto& seats = member(snapshot, "seats");
    expect_size(seats, seats_.size(), "seats");
    for (std::size_t i = 0; i < seats_.size(); ++i) {
      auto& s = seats_[i];
      const auto& saved = seats[i];
      s.hand = cards_from(member(saved, "hand"));
      s.status = enum_field(saved, "status", Status::active);
      s.left = field<bool>(saved, "left");
      s.took_widow = field<bool>(saved, "took_widow");
      s.tricks = field<int>(saved, "tricks");
      s.dead = field<std::size_t>(saved, "dead");
    }
    order_ = seat_list(snapshot, "order");
    widow_ = cards_from(member(snapshot, "widow"));
    deals_ = field<int>(snapshot, "deals");
    const auto turned = optional_card_from(member(snapshot, "turned"));
    if (deals_ > 0 && !turned) throw SnapshotError("a deal was dealt but no trump card is turned");
    turned_ = turned.value_or(Card{});
    turned_taken_ = field<bool>(snapshot, "turned_taken");
    widow_taken_ = field<bool>(snapshot, "widow_taken");
    stage_ = enum_field(snapshot, "stage", Stage::play);
    decl_index_ = field<std::size_t>(snapshot, "decl_index");
    first_player_ = seat_or_none(snapshot, "first_player");
    general_ = seat_or_none(snapshot, "general");
    general_queue_ = seat_list(snapshot, "general_queue");
    discarder_ = seat_or_none(snapshot, "discarder");
    trick_ = trick_restore(member(snapshot, "trick"), players());
    last_trick_ = trick_restore(member(snapshot, "last_trick"), players());
    tricks_played_ = field<int>(snapshot, "tricks_played");
    first_trick_winner_ = seat_or_none(snapshot, "first_trick_winner");
    turn_ = field<int>(snapshot, "turn");
    pool_at_play_ = field<std::int64_t>(snapshot, "pool_at_play");
    share_ = field<std::int64_t>(snapshot, "share");
    book_ = ChipBook::restore(member(snapshot, "book"), players());
    dealer_ = field<int>(snapshot, "dealer");
    pool_ = field<std::int64_t>(snapshot, "pool");
    phase_ = phase_field(snapshot, "phase");
    result_ = field<Json>(snapshot, "result");
    could_not_deal_ = field<Json>(snapshot, "could_not_deal");
    if (!could_not_deal_.is_array()) throw SnapshotError("expected the seats that could not deal as an array");
    rules_ = TrickRules{};
    if (deals_ > 0) {
      rules_ = config_.rules;
      rules_.trump = turned_.suit;
    }
    if (dealer_ < 0 || dealer_ >= players()) throw SnapshotError("the dealer's seat is out of range");
    if (turn_ < 0 || turn_ >= players()) throw SnapshotError("the seat to play is out of range");
    if (phase_ == Phase::playing) expect_actor();
  }

 private:
  // A list of seats from a snapshot, each one of the table's.
  std::vector<int> seat_list(const Json& snapshot, const char* key) const {
    auto seats = field<std::vector<int>>(snapshot, key);
    for (const int seat : seats)
      if (seat < 0 || seat >= players()) throw SnapshotError(std::string("a seat in \"") + key + "\" is out of range");
    return seats;
  }
  // A seat from a snapshot, or -1 for none.
  int seat_or_none(const Json& snapshot, const char* key) const {
    const int seat = field<int>(snapshot, key);
    if (seat < -1 || seat >= players()) throw SnapshotError(std::string("\"") + key + "\" is out of range");
    return seat;
  }
  // Whoever actor() names in a restored deal must be a seat of the table.
  void expect_actor() const {
    const bool named = (stage_ == Stage::declare && decl_index_ < order_.size()) ||
                       (stage_ == Stage::widow_discard && discarder_ >= 0) ||
                       (stage_ == Stage::general_choose && !general_queue_.empty()) ||
                       stage_ == Stage::dealer_exchange || stage_ == Stage::play;
    if (!named) throw SnapshotError(std::string("nobody is to act in the stage \"") + stage_name(stage_) + "\"");
  }

  int players() const { return static_cast<int>(seats_.size()); }

  const char* phase_name() const {
    if (phase_ == Phase::playing) return stage_name(stage_);
    return phase_ == Phase::deal_over ? "deal_over" : "game_over";
  }

  // A hand is in play while its player is in the deal; a hand thrown in by a
  // pass (or never dealt) is shown to its owner only.
  void write_seat(JsonWriter& out, int seat, std::optional<int> viewer) const {
    const auto& s = seats_[seat];
    const bool own = viewer == seat;
    const bool live = s.status != Status::out && s.status != Status::passed;
    out.object([&] {
      view::seat_members(out, seat, own || live ? s.hand : std::vector<Card>{}, own, status_name(s.status), s.left);
      out.field("took_widow", s.took_widow);
      out.field("tricks", s.tricks);
      out.field("dead", s.dead);
    });
  }

  int actor() const {
    switch (stage_) {
      case Stage::declare: return order_[decl_index_];
      case Stage::widow_discard: return discarder_;
      case Stage::general_choose: return general_queue_.front();
      case Stage::dealer_exchange: return dealer_;
      case Stage::play: return turn_;
    }
    return dealer_;
  }

  // The player just before the dealer, when everyone before him passed.
  bool forced(int seat) const {
    if (stage_ != Stage::declare || seat == dealer_) return false;
    if (order_.size() < 2 || seat != order_[order_.size() - 2]) return false;
    for (std::size_t i = 0; i + 2 < order_.size(); ++i)
      if (seats_[order_[i]].status != Status::passed) return false;
    return true;
  }

  int active_others() const {
    int n = 0;
    for (int seat : order_)
      if (seat != dealer_ && seats_[seat].status == Status::active) ++n;
    return n;
  }

  bool dealer_must_play(int seat) const { return seat == dealer_ && active_others() == 1; }

  std::vector<Card> playable(int seat) const {
    const auto& hand = seats_[seat].hand;
    if (config_.trump_lead_duty && trick_.empty() && tricks_played_ == 1 && seat == first_trick_winner_) {
      std::vector<Card> trumps;
      for (auto card : hand)
        if (card.suit == turned_.suit) trumps.push_back(card);
      if (!trumps.empty()) return trumps;
    }
    return legal_cards(hand, trick_, rules_);
  }

  void deal_cards() {
    Stock stock = shoe_.next_deal();
    order_ = seated_from_dealers_left(dealer_, seats_);
    for (auto& s : seats_) s = SeatState{{}, s.left ? Status::out : Status::out, s.left, false, 0, 0};
    const int first = config_.packets_two_first ? 2 : 3;
    const int second = 5 - first;
    std::vector<std::vector<int>> sizes(2);
    for (std::size_t i = 0; i < order_.size(); ++i) {
      sizes[0].push_back(first);
      sizes[1].push_back(second);
    }
    sizes[0].push_back(first);  // the widow, dealt as a hand after the dealer's
    sizes[1].push_back(config_.widow_size - first);
    auto hands = deal_in_packets(stock, sizes);
    for (std::size_t i = 0; i < order_.size(); ++i) {
      seats_[order_[i]].hand = hands[i];
      seats_[order_[i]].status = Status::undeclared;
    }
    widow_ = hands.back();
    turned_ = stock.draw();
    turned_taken_ = false;
    widow_taken_ = false;
    rules_ = config_.rules;
    rules_.trump = turned_.suit;
    stage_ = Stage::declare;
    decl_index_ = 0;
    first_player_ = -1;
    general_ = -1;
    general_queue_.clear();
    discarder_ = -1;
    trick_.clear();
    last_trick_.clear();
    tricks_played_ = 0;
    first_trick_winner_ = -1;
    pool_at_play_ = 0;
    share_ = 0;
  }

  void take_widow(int seat, Effects& fx) {
    auto& s = seats_[seat];
    s.dead += s.hand.size();
    s.hand = widow_;
    widow_.clear();
    s.took_widow = true;
    widow_taken_ = true;
    fx.say(seat_tag(seat) + " lays his hand aside and takes the widow.");
  }

  Effects declare(int seat, const std::string& type, const Json& action, const Balances& balances) {
    Effects fx;
    auto& s = seats_[seat];
    if (type == "pass") {
      expect_only_fields(action, {});
      if (forced(seat)) throw illegal_action("everyone before you passed: you must play or pay the dealer");
      if (dealer_must_play(seat)) throw illegal_action("one player plays: the dealer must play against him");
      s.status = Status::passed;
      fx.say(seat_tag(seat) + " passes.");
    } else if (type == "play" || type == "take_widow") {
      expect_only_fields(action, {});
      if (type == "take_widow" && widow_taken_) throw illegal_action("the widow has already been taken");
      s.status = Status::active;
      if (first_player_ < 0) first_player_ = seat;
      if (type == "take_widow") {
        take_widow(seat, fx);
        if (config_.widow_discard) {
          stage_ = Stage::widow_discard;
          discarder_ = seat;
          return fx;
        }
      } else {
        fx.say(seat_tag(seat) + " plays.");
      }
    } else if (type == "general") {
      if (!config_.general_allowed) throw illegal_action("there is no general call in " + config_.name);
      expect_only_fields(action, {"widow"});
      bool with_widow = false;
      if (action.contains("widow")) {
        if (!action["widow"].is_boolean()) throw illegal_action("field 'widow' must be true or false");
        with_widow = action["widow"].get<bool>();
      }
      if (with_widow && widow_taken_) throw illegal_action("the widow has already been taken");
      s.status = Status::active;
      general_ = seat;
      first_player_ = seat;
      fx.say(seat_tag(seat) + " announces General Rams!");
      if (with_widow) take_widow(seat, fx);
      for (int other : seats_from((seat + 1) % players(), players(), [&](int o) {
             return o != seat && (seats_[o].status == Status::passed || seats_[o].status == Status::undeclared);
           }))
        general_queue_.push_back(other);
      advance_general_queue(fx);
      return fx;
    } else if (type == "pay_dealer") {
      expect_only_fields(action, {});
      if (!forced(seat)) throw illegal_action("only the player before the dealer, when all passed, may pay the dealer");
      book_.sync(balances);
      book_.seat_to_seat(seat, dealer_, config_.unit,
                         "everyone before " + seat_tag(seat) + " passed: rather than play, he pays the dealer, " +
                             seat_tag(dealer_) + ", " + std::to_string(config_.unit),
                         fx);
      s.status = Status::passed;
      fx.say(seat_tag(seat) + " pays the dealer " + std::to_string(config_.unit) + " rather than play.");
      finish_deal(fx, "paid_dealer");
      return fx;
    } else {
      throw illegal_action("expected pass, play, take_widow" + std::string(config_.general_allowed ? ", general" : "") +
                           " or pay_dealer, got '" + type + "'");
    }
    next_declarer(fx);
    return fx;
  }

  void next_declarer(Effects& fx) {
    ++decl_index_;
    stage_ = Stage::declare;
    if (decl_index_ >= order_.size()) return end_declarations(fx);
    const int seat = order_[decl_index_];
    if (forced(seat)) fx.say(seat_tag(seat) + " must play or pay the dealer: everyone before him passed.");
    if (dealer_must_play(seat)) fx.say(seat_tag(seat) + " must play: one player alone plays against the dealer.");
  }

  // The player to declare who may not pass, if any.
  std::optional<int> forced_to_play() const {
    if (phase_ != Phase::playing || stage_ != Stage::declare) return std::nullopt;
    const int seat = actor();
    if (forced(seat) || dealer_must_play(seat)) return seat;
    return std::nullopt;
  }

  void end_declarations(Effects& fx) {
    if (seats_[dealer_].status == Status::active && !turned_taken_) {
      stage_ = Stage::dealer_exchange;
      return;
    }
    start_play(fx);
  }

  // Players who passed (or had not declared) pick their hands up, or take the
  // widow while it lasts, in turn from the announcer's left.
  void advance_general_queue(Effects& fx) {
    while (!general_queue_.empty()) {
      const int seat = general_queue_.front();
      if (!widow_taken_) {
        stage_ = Stage::general_choose;
        return;
      }
      seats_[seat].status = Status::active;
      fx.say(seat_tag(seat) + " picks up his hand against the General.");
      general_queue_.erase(general_queue_.begin());
    }
    end_declarations(fx);
  }

  Effects choose_for_general(int seat, const std::string& type, const Json& action) {
    if (type != "play" && type != "take_widow")
      throw illegal_action("against a General, choose play or take_widow, got '" + type + "'");
    expect_only_fields(action, {});
    if (type == "take_widow" && widow_taken_) throw illegal_action("the widow has already been taken");
    Effects fx;
    seats_[seat].status = Status::active;
    if (type == "take_widow") take_widow(seat, fx);
    else fx.say(seat_tag(seat) + " picks up his hand against the General.");
    general_queue_.erase(general_queue_.begin());
    advance_general_queue(fx);
    return fx;
  }

  Effects discard(int seat, const std::string& type, const Json& action) {
    if (type != "discard") throw illegal_action("discard one card of the widow first, got '" + type + "'");
    expect_only_fields(action, {"card"});
    const Card card = card_field(action, "card");
    auto& s = seats_[seat];
    if (!holds(s.hand, card)) throw illegal_action("you do not hold " + to_string(card));
    Effects fx;
    remove_card(s.hand, card);
    ++s.dead;
    fx.say(seat_tag(seat) + " discards a card face down.");
    discarder_ = -1;
    next_declarer(fx);
    return fx;
  }

  Effects exchange(int seat, const std::string& type, const Json& action) {
    Effects fx;
    auto& s = seats_[seat];
    if (type == "keep") {
      expect_only_fields(action, {});
      fx.say(seat_tag(seat) + " keeps his hand.");
    } else if (type == "exchange") {
      expect_only_fields(action, {"card"});
      const Card card = card_field(action, "card");
      if (!holds(s.hand, card)) throw illegal_action("you do not hold " + to_string(card));
      remove_card(s.hand, card);
      ++s.dead;
      s.hand.push_back(turned_);
      turned_taken_ = true;
      fx.say(seat_tag(seat) + " discards a card and takes up the turned trump " + to_string(turned_) + ".");
    } else {
      throw illegal_action("the dealer may keep or exchange a card for the turned trump, got '" + type + "'");
    }
    start_play(fx);
    return fx;
  }

  void start_play(Effects& fx) {
    stage_ = Stage::play;
    pool_at_play_ = pool_;
    share_ = pool_ / 5;
    turn_ = first_player_;
    fx.say(seat_tag(turn_) + " leads; " + std::string(general_ >= 0 ? "the General is on." : "each trick takes " +
                                                                         std::to_string(share_) + " from the pool."));
  }

  int next_active(int seat) const {
    for (int i = 1; i <= players(); ++i) {
      const int next = (seat + i) % players();
      if (seats_[next].status == Status::active) return next;
    }
    return seat;
  }

  int active_count() const {
    return static_cast<int>(
        std::count_if(seats_.begin(), seats_.end(), [](const SeatState& s) { return s.status == Status::active; }));
  }

  Effects play_card(int seat, const std::string& type, const Json& action, const Balances& balances) {
    if (type != "card") throw illegal_action("expected a card to play, got '" + type + "'");
    expect_only_fields(action, {"card"});
    const Card card = card_field(action, "card");
    auto& s = seats_[seat];
    if (!holds(s.hand, card)) throw illegal_action("you do not hold " + to_string(card));
    if (!holds(playable(seat), card)) {
      if (trick_.empty()) throw illegal_action("having won the first trick, you must lead a trump");
      throw illegal_action(config_.rules.must_head
                               ? "you must follow suit, else trump, and head the trick if you can"
                               : "you must follow suit");
    }
    Effects fx;
    book_.sync(balances);
    remove_card(s.hand, card);
    trick_.push_back({seat, card});
    fx.say(seat_tag(seat) + " plays " + to_string(card) + ".");
    if (static_cast<int>(trick_.size()) < active_count()) {
      turn_ = next_active(seat);
      return fx;
    }
    const int winner = trick_[winning_index(trick_, rules_)].seat;
    const Card winning_card = trick_[winning_index(trick_, rules_)].card;
    ++seats_[winner].tricks;
    ++tricks_played_;
    if (tricks_played_ == 1) first_trick_winner_ = winner;
    last_trick_ = trick_;
    trick_.clear();
    turn_ = winner;
    fx.say(seat_tag(winner) + " takes the trick.");
    if (general_ >= 0) {
      if (winner != general_) {
        settle_general(false, fx);
      } else if (tricks_played_ == 5) {
        settle_general(true, fx);
      }
      return fx;
    }
    book_.pool_to_seat(winner, share_, pool_,
                       "a fifth of the pool for a trick: " + seat_tag(winner) + " took trick " +
                           std::to_string(tricks_played_) + " with the " + card_words(winning_card),
                       fx);
    if (tricks_played_ == 5) settle_normal(fx);
    return fx;
  }

  void settle_normal(Effects& fx) {
    for (int seat : order_) {
      const auto& s = seats_[seat];
      if (s.status == Status::active && s.tricks == 0) {
        book_.seat_to_pool(seat, config_.unit, pool_,
                           seat_tag(seat) + " played and took no trick: " + std::to_string(config_.unit) +
                               " into the next pool",
                           fx);
        fx.say(seat_tag(seat) + " took no trick and puts " + std::to_string(config_.unit) + " into the next pool.");
      }
    }
    finish_deal(fx, "played");
  }

  void settle_general(bool won, Effects& fx) {
    const int g = general_;
    if (won) {
      fx.say(seat_tag(g) + " wins the General!");
      for (int seat : order_)
        if (seat != g)
          book_.seat_to_seat(seat, g, config_.unit,
                             seat_tag(g) + " won General Rams, all five tricks: each player pays him " +
                                 std::to_string(config_.unit),
                             fx);
      if (pool_ > 0)
        book_.pool_to_seat(g, pool_, pool_, seat_tag(g) + " won General Rams, all five tricks: he takes the pool of " +
                                                std::to_string(pool_),
                           fx);
    } else {
      fx.say(seat_tag(g) + " loses the General.");
      for (int seat : order_)
        if (seat != g)
          book_.seat_to_seat(g, seat, config_.unit,
                             seat_tag(g) + " lost General Rams, a trick taken from him: he pays each player " +
                                 std::to_string(config_.unit),
                             fx);
      const auto doubling = pool_;
      book_.seat_to_pool(g, doubling, pool_,
                         seat_tag(g) + " lost General Rams: he doubles the pool of " + std::to_string(doubling), fx);
    }
    finish_deal(fx, won ? "general_won" : "general_lost");
  }

  void finish_deal(Effects& fx, const std::string& outcome) {
    Json seats = Json::array();
    for (int seat = 0; seat < players(); ++seat) {
      const auto& s = seats_[seat];
      if (s.status == Status::out && book_.net(seat) == 0 && book_.unpaid(seat) == 0) continue;
      std::string how = status_name(s.status);
      if (s.status == Status::active) how = s.tricks > 0 ? "took_tricks" : "no_trick";
      if (seat == general_) how = outcome == "general_won" ? "general_won" : outcome == "general_lost" ? "general_lost" : how;
      seats.push_back(
          book_.seat_result(seat, {{"tricks", s.tricks}, {"took_widow", s.took_widow}, {"outcome", how}}));
    }
    result_ = book_.deal_result({{"deal", deals_},
                                 {"dealer", dealer_},
                                 {"outcome", outcome},
                                 {"trump", to_string(turned_)},
                                 {"general", general_ >= 0 ? Json(general_) : Json()},
                                 {"pool_at_play", pool_at_play_},
                                 {"pool", pool_},
                                 {"seats", seats}});
    for (auto& s : seats_) {
      s.dead += s.hand.size();
      s.hand.clear();
    }
    trick_.clear();
    fx.say("Deal " + std::to_string(deals_) + " is over; the pool holds " + std::to_string(pool_) + ".");
    phase_ = phase_after_deal(deals_, config_.deal_limit, fx);
  }

  Effects end_game(Effects& fx, const std::string& why) {
    phase_ = Phase::game_over;
    fx.say(why);
    return fx;
  }

  const PoolTrickConfig config_;
  Shoe shoe_;
  std::vector<SeatState> seats_;
  std::vector<int> order_;  // this deal's players from the dealer's left, dealer last
  std::vector<Card> widow_;
  Card turned_;
  bool turned_taken_ = false;
  bool widow_taken_ = false;
  TrickRules rules_;
  Stage stage_ = Stage::declare;
  std::size_t decl_index_ = 0;
  int first_player_ = -1;
  int general_ = -1;
  std::vector<int> general_queue_;
  int discarder_ = -1;
  Trick trick_;
  Trick last_trick_;
  int tricks_played_ = 0;
  int first_trick_winner_ = -1;
  int turn_ = 0;
  std::int64_t pool_at_play_ = 0;
  std::int64_t share_ = 0;
  ChipBook book_;
  int dealer_ = 0;
  int deals_ = 0;
  std::int64_t pool_ = 0;
  Phase phase_ = Phase::deal_over;
  Json result_;
  Json could_not_deal_ = Json::array();  // seats passed over as dealer this deal: short of the dealer's chips
};

}  // namespace

std::unique_ptr<GameState> make_pool_trick_game(const PoolTrickConfig& config, const GameSetup& setup) {
  return std::make_unique<PoolTrick>(config, setup);
}

}  // namespace parlour::rules::tricks
