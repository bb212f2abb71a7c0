#include "rules/cassino/cassino_game.h"

#include <algorithm>
#include <climits>
#include <optional>
#include <stdexcept>

#include "rules/action.h"
#include "rules/cassino/scoring.h"
#include "rules/chip_book.h"
#include "rules/pools.h"
#include "rules/shoe.h"
#include "rules/snapshot.h"
#include "rules/view.h"

namespace parlour::rules::cassino {

namespace {

// The one phase with actions is play; the others wait for the table.
enum class Step { play, deal_over, game_over };

const char* step_name(Step step) {
  switch (step) {
    case Step::play: return "play";
    case Step::deal_over: return "deal_over";
    case Step::game_over: return "game_over";
  }
  return "play";
}

std::vector<Card> without(std::vector<Card> hand, Card card) {
  hand.erase(std::find(hand.begin(), hand.end(), card));
  return hand;
}

class CassinoGame final : public GameState {
 public:
  std::unique_ptr<GameState> clone() const override { return std::make_unique<CassinoGame>(*this); }
  CassinoGame(const CassinoConfig& config, const GameSetup& setup)
      : config_(config),
        players_(setup.players),
        shoe_(PackSpec{.eleven_twelve_spots = config.special_pack}, setup.seed, setup.stacked_deck),
        hands_(static_cast<std::size_t>(setup.players)),
        captured_(static_cast<std::size_t>(setup.players)),
        sweeps_(static_cast<std::size_t>(setup.players), 0),
        left_(static_cast<std::size_t>(setup.players), false) {
    if (config_.partnership && players_ != 4)
      throw SetupError(config_.name + ": partnerships need four players, got " + std::to_string(players_));
    for (int seat = 0; seat < players_; ++seat) side_of_.push_back(config_.partnership ? seat % 2 : seat);
    scores_.assign(side_count(), 0);
    card_values_ = card_values_json();
    dealer_ = setup.starting_dealer();
  }

  Phase phase() const override {
    switch (step_) {
      case Step::play: return Phase::playing;
      case Step::deal_over: return Phase::deal_over;
      case Step::game_over: return Phase::game_over;
    }
    return Phase::game_over;
  }

  std::vector<int> to_act() const override {
    if (step_ != Step::play) return {};
    return {turn_};
  }

  void write_legal_actions(int seat, const Balances&, JsonWriter& out) const override {
    out.begin_array();
    if (step_ == Step::play && seat == turn_) write_legal_plays(seat, out);
    out.end_array();
  }

  Effects apply(int seat, const Json& action, const Balances& balances) override {
    if (step_ != Step::play) throw not_your_turn("no deal is in progress");
    if (seat != turn_) throw not_your_turn("it is " + seat_tag(turn_) + "'s turn to play");
    return apply_play(seat, action, balances);
  }

  Effects start_next_deal(const Balances&) override {
    if (step_ != Step::deal_over) throw std::logic_error(config_.name + ": next deal while a deal is on");
    Effects fx;
    if (deals_ > 0) dealer_ = (dealer_ + 1) % players_;
    begin_deal(fx);
    return fx;
  }

  Effects seat_left(int seat, const Balances&) override {
    Effects fx;
    if (left_[seat]) return fx;
    left_[seat] = true;
    fx.say(seat_tag(seat) + " leaves the table.");
    // Cassino cannot go on short of a player: the game ends unfinished and no chips move.
    if (step_ == Step::play) {
      result_ = {{"deal", deals_}, {"dealer", dealer_}, {"end", "abandoned"}};
      fx.say("The deal is abandoned; the game ends unfinished.");
    }
    step_ = Step::game_over;
    return fx;
  }

  Effects close(const Balances&) override {
    step_ = Step::game_over;
    return {};
  }

  void write_view(std::optional<int> viewer, JsonWriter& out) const override {
    out.begin_object();
    view::base_members(out, view::layouts::cassino, step_name(step_), deals_,
                       deals_ > 0 ? std::optional<int>(dealer_) : std::nullopt);
    out.array_field("seats", [&] {
      for (int seat = 0; seat < players_; ++seat) write_seat(out, seat, viewer);
    });
    out.key("piles");
    write_piles(out);
    out.array_field("melds", [&] {
      for (const auto& build : table_.builds) write_build(out, build);
    });
    out.array_field("scores", [&] {
      for (int seat = 0; seat < players_; ++seat) out.integer(scores_[side_of_[seat]]);
    });
    out.key("turn");
    view::turn(out, to_act(), step_ == Step::play ? "play" : step_name(step_));
    out.key("sides");
    write_sides(out);
    out.field("last", last_announced_);
    out.field("round", round_);
    out.field("rounds", config_.draw ? std::nullopt : std::optional<int>(rounds_));
    out.field("last_capture", last_capturer_);
    out.field("target", config_.per_deal_game ? std::nullopt : std::optional<int>(config_.target));
    out.field("max_build", config_.values.max_build());
    out.field("card_values", card_values_);
    out.object_field("rules", [&] {
      out.field("draw", config_.draw);
      out.field("spade", config_.spade);
      out.field("special_pack", config_.special_pack);
      out.field("sweeps", config_.sweeps);
      out.field("partnership", config_.partnership);
      out.field("per_deal_game", config_.per_deal_game);
    });
    out.end_object();
  }

  Json result() const override { return result_; }
  int deals_played() const override { return deals_; }
  std::optional<DeckSource> deck_source() const override { return shoe_.source(); }

  // The configuration, the players, their sides and the card values come from
  // the setup the snapshot is restored with; everything else is here.
  Json snapshot() const override {
    return {{"shoe", shoe_.snapshot()},
            {"stock", stock_.snapshot()},
            {"hands", card_lists_json(hands_)},
            {"captured", card_lists_json(captured_)},
            {"sweeps", sweeps_},
            {"sweep_sides", sweep_sides_},
            {"left", left_},
            {"scores", scores_},
            {"table", table_.snapshot()},
            {"last_capturer", optional_json(last_capturer_)},
            {"last_announced", last_announced_},
            {"next_build_id", next_build_id_},
            {"round", round_},
            {"rounds", rounds_},
            {"turn", turn_},
            {"dealer", dealer_},
            {"deals", deals_},
            {"step", enum_json(step_)},
            {"result", result_}};
  }

  void restore(const Json& snapshot) override {
    const auto seats = static_cast<std::size_t>(players_);
    shoe_.restore(member(snapshot, "shoe"));
    stock_ = Stock::restore(member(snapshot, "stock"));
    expect_size(member(snapshot, "hands"), seats, "hands");
    hands_ = card_lists_from(member(snapshot, "hands"));
    expect_size(member(snapshot, "captured"), seats, "seats' captured cards");
    captured_ = card_lists_from(member(snapshot, "captured"));
    expect_size(member(snapshot, "sweeps"), seats, "seats' sweeps");
    sweeps_ = field<std::vector<int>>(snapshot, "sweeps");
    sweep_sides_ = field<std::vector<int>>(snapshot, "sweep_sides");
    for (const int side : sweep_sides_)
      if (side < 0 || side >= side_count()) throw SnapshotError("a sweep's side is out of range");
    expect_size(member(snapshot, "left"), seats, "seats' leaving");
    left_ = field<std::vector<bool>>(snapshot, "left");
    expect_size(member(snapshot, "scores"), static_cast<std::size_t>(side_count()), "sides' scores");
    scores_ = field<std::vector<int>>(snapshot, "scores");
    table_ = TableCards::restore(member(snapshot, "table"), players_);
    last_capturer_ = optional_field<int>(snapshot, "last_capturer");
    last_announced_ = field<bool>(snapshot, "last_announced");
    next_build_id_ = field<int>(snapshot, "next_build_id");
    round_ = field<int>(snapshot, "round");
    rounds_ = field<int>(snapshot, "rounds");
    turn_ = field<int>(snapshot, "turn");
    dealer_ = field<int>(snapshot, "dealer");
    deals_ = field<int>(snapshot, "deals");
    step_ = enum_field(snapshot, "step", Step::game_over);
    result_ = field<Json>(snapshot, "result");
    const auto in_range = [&](int seat) { return seat >= 0 && seat < players_; };
    if (!in_range(turn_)) throw SnapshotError("the seat to play is out of range");
    if (!in_range(dealer_)) throw SnapshotError("the dealer's seat is out of range");
    if (last_capturer_ && !in_range(*last_capturer_)) throw SnapshotError("the last capturer's seat is out of range");
  }

 private:
  // ------------------------------------------------------------ seats, sides
  int side_count() const { return config_.partnership ? 2 : players_; }

  std::vector<int> side_seats(int side) const {
    std::vector<int> seats;
    for (int seat = 0; seat < players_; ++seat)
      if (side_of_[seat] == side) seats.push_back(seat);
    return seats;
  }

  std::vector<Card> side_cards(int side) const {
    std::vector<Card> cards;
    for (int seat : side_seats(side)) cards.insert(cards.end(), captured_[seat].begin(), captured_[seat].end());
    return cards;
  }

  std::string seat_status(int seat) const {
    if (left_[seat]) return "left";
    if (step_ == Step::play && seat == turn_) return "to_play";
    return "waiting";
  }

  std::vector<int> owned_build_ids(int seat) const {
    std::vector<int> ids;
    for (const auto& build : table_.builds)
      if (build.owner == seat) ids.push_back(build.id);
    return ids;
  }

  // --------------------------------------------------------------- the deal
  void begin_deal(Effects& fx) {
    ++deals_;
    stock_ = shoe_.next_deal();
    table_ = {};
    for (auto& hand : hands_) hand.clear();
    for (auto& pile : captured_) pile.clear();
    std::fill(sweeps_.begin(), sweeps_.end(), 0);
    sweep_sides_.clear();
    last_capturer_.reset();
    last_announced_ = false;
    next_build_id_ = 1;
    round_ = 1;
    const std::size_t after_first = stock_.size() - 4 - 4 * static_cast<std::size_t>(players_);
    const std::size_t per_round = 4 * static_cast<std::size_t>(players_);
    rounds_ = 1 + static_cast<int>((after_first + per_round - 1) / per_round);
    fx.say("Deal " + std::to_string(deals_) + ": " + seat_tag(dealer_) + " deals.");
    deal_first_round();
    turn_ = (dealer_ + 1) % players_;
    step_ = Step::play;
  }

  // Two cards to each other player from the dealer's left, two face up to the
  // table, two to the dealer; twice.
  void deal_first_round() {
    for (int pass = 0; pass < 2; ++pass) {
      for (int i = 1; i < players_; ++i) give((dealer_ + i) % players_, 2);
      for (int k = 0; k < 2; ++k) table_.loose.push_back(stock_.draw());
      give(dealer_, 2);
    }
  }

  void give(int seat, std::size_t count) {
    for (std::size_t k = 0; k < count; ++k) hands_[seat].push_back(stock_.draw());
  }

  // Four more to each in twos; the special pack's short last round one at a
  // time, the few left over face up to the table (rules/other.md §10.4).
  void deal_next_round(Effects& fx) {
    ++round_;
    const auto players = static_cast<std::size_t>(players_);
    const bool full = stock_.size() >= 4 * players;
    const bool final_round = stock_.size() <= 4 * players;
    if (final_round) {
      last_announced_ = true;
      fx.say(seat_tag(dealer_) + " announces \"last\": the final round is dealt.");
    }
    if (full) {
      for (int pass = 0; pass < 2; ++pass)
        for (std::size_t i = 1; i <= players; ++i) give(static_cast<int>((dealer_ + i) % players), 2);
    } else {
      while (stock_.size() >= players)
        for (std::size_t i = 1; i <= players; ++i) give(static_cast<int>((dealer_ + i) % players), 1);
      while (!stock_.empty()) {
        const Card card = stock_.draw();
        table_.loose.push_back(card);
        fx.say(to_string(card) + " is left over and turned face up on the table.");
      }
    }
    fx.say("Round " + std::to_string(round_) + " is dealt.");
  }

  bool hands_empty() const {
    return std::all_of(hands_.begin(), hands_.end(), [](const std::vector<Card>& h) { return h.empty(); });
  }

  // After a play: Draw Cassino refills the hand; the next player with cards
  // plays; when every hand is empty the next round is dealt or the deal ends.
  void after_play(int seat, const Balances& balances, Effects& fx) {
    if (config_.draw && !stock_.empty()) hands_[seat].push_back(stock_.draw());
    if (hands_empty()) {
      if (!config_.draw && !stock_.empty()) {
        deal_next_round(fx);
      } else {
        end_deal(balances, fx);
        return;
      }
    }
    turn_ = next_seat(seat, players_, [&](int s) { return !hands_[s].empty(); });
  }

  // ------------------------------------------------------------------ legal
  // The seat's plays, into the legal list: captures, then builds, then trails.
  void write_legal_plays(int seat, JsonWriter& out) const {
    const auto& hand = hands_[seat];
    for (const Card card : hand) {
      const auto rest = without(hand, card);
      for (const auto& take : captures_with(table_, config_.values, card, config_.limits))
        if (keeps_duty(seat, rest, take.builds, std::nullopt)) write_capture(out, card, take);
    }
    for (const Card card : hand) {
      const auto rest = without(hand, card);
      for (const auto& play : builds_with(table_, config_.values, card, rest, config_.limits))
        if (keeps_duty(seat, rest, play.with.builds, play.value)) write_build_play(out, play);
    }
    if (owned_build_ids(seat).empty())
      for (const Card card : hand) write_trail(out, card);
  }

  // A capture's or a build's table cards: the loose cards by name and the builds by id.
  static void selection_members(JsonWriter& out, const char* cards_field, const Selection& selection) {
    out.key(cards_field);
    view::cards(out, selection.loose);
    out.field("builds", selection.builds);
  }

  static void write_capture(JsonWriter& out, Card card, const Selection& take) {
    out.object([&] {
      out.field("type", "capture");
      out.field("card", to_string(card));
      selection_members(out, "take", take);
    });
  }

  static void write_build_play(JsonWriter& out, const BuildPlay& play) {
    out.object([&] {
      out.field("type", "build");
      out.field("card", to_string(play.card));
      selection_members(out, "with", play.with);
      out.field("value", play.value);
    });
  }

  static void write_trail(JsonWriter& out, Card card) {
    out.object([&] {
      out.field("type", "trail");
      out.field("card", to_string(card));
    });
  }

  // The builder's duty: whoever owns a build keeps a card that takes it. After
  // playing, the seat holds `rest`; the builds `touched` leave the table or
  // change hands in the play, and `new_build` is the value of one he makes.
  bool keeps_duty(int seat, const std::vector<Card>& rest, const std::vector<int>& touched,
                  std::optional<int> new_build) const {
    return !duty_fault(seat, rest, touched, new_build);
  }

  std::optional<std::string> duty_fault(int seat, const std::vector<Card>& rest, const std::vector<int>& touched,
                                        std::optional<int> new_build) const {
    auto covered = [&](int value) {
      return std::any_of(rest.begin(), rest.end(), [&](Card c) { return config_.values.counts_as(c, value); });
    };
    for (const auto& build : table_.builds) {
      if (build.owner != seat || std::find(touched.begin(), touched.end(), build.id) != touched.end()) continue;
      if (!covered(build.value))
        return "a build's owner must keep a card to take it: this play leaves build " + std::to_string(build.id) +
               " (worth " + std::to_string(build.value) + ") without one";
    }
    if (new_build && !covered(*new_build))
      return "a builder must keep a card to take his build: no card worth " + std::to_string(*new_build) + " is left";
    return std::nullopt;
  }

  // ------------------------------------------------------------------ apply
  Ranks ranks() const { return config_.special_pack ? Ranks::with_eleven_twelve : Ranks::standard; }

  Card read_hand_card(int seat, const Json& action) const {
    const Card card = card_field(action, "card", ranks());
    if (!holds(hands_[seat], card)) throw illegal_action(to_string(card) + " is not in your hand");
    return card;
  }

  Selection read_selection(const Json& action, const char* cards_field) const {
    Selection selection;
    auto cards = action.find(cards_field);
    if (cards != action.end()) {
      if (!cards->is_array()) throw illegal_action(std::string("field '") + cards_field + "' must be a list of cards");
      for (const auto& item : *cards) {
        auto card = item.is_string() ? parse_card(item.get<std::string>(), ranks()) : std::nullopt;
        if (!card) throw illegal_action(std::string("field '") + cards_field + "' holds a non-card: " + item.dump());
        selection.loose.push_back(*card);
      }
    }
    auto builds = action.find("builds");
    if (builds != action.end()) {
      if (!builds->is_array()) throw illegal_action("field 'builds' must be a list of build ids");
      for (const auto& item : *builds) {
        if (!item.is_number_integer()) throw illegal_action("field 'builds' holds a non-id: " + item.dump());
        selection.builds.push_back(item.get<int>());
      }
    }
    if (auto fault = selection_fault(table_, selection)) throw illegal_action(*fault);
    return selection;
  }

  Effects apply_play(int seat, const Json& action, const Balances& balances) {
    const auto type = action_type(action);
    if (type == "capture") return capture(seat, action, balances);
    if (type == "build") return build(seat, action, balances);
    if (type == "trail") return trail(seat, action, balances);
    throw illegal_action("expected a capture, a build or a trail, got a '" + type + "' action");
  }

  Effects capture(int seat, const Json& action, const Balances& balances) {
    expect_only_fields(action, {"card", "take", "builds"});
    const Card card = read_hand_card(seat, action);
    const Selection take = read_selection(action, "take");
    if (auto fault = capture_fault(table_, config_.values, CapturePlay{card, take})) throw illegal_action(*fault);
    const auto rest = without(hands_[seat], card);
    if (auto fault = duty_fault(seat, rest, take.builds, std::nullopt)) throw illegal_action(*fault);

    Effects fx;
    hands_[seat] = rest;
    auto taken = remove_selection(table_, take);
    fx.say(seat_tag(seat) + " captures " + join(taken) + " with " + to_string(card) + ".");
    captured_[seat].push_back(card);
    captured_[seat].insert(captured_[seat].end(), taken.begin(), taken.end());
    last_capturer_ = seat;
    if (table_.empty()) {
      ++sweeps_[seat];
      sweep_sides_.push_back(side_of_[seat]);
      fx.say(seat_tag(seat) + " sweeps the table.");
    }
    after_play(seat, balances, fx);
    return fx;
  }

  Effects build(int seat, const Json& action, const Balances& balances) {
    expect_only_fields(action, {"card", "with", "builds", "value"});
    const Card card = read_hand_card(seat, action);
    const Selection with = read_selection(action, "with");
    const auto value = int_field(action, "value");
    // Any value out of an int's range is out of a build's range too.
    const auto announced = static_cast<int>(std::clamp<std::int64_t>(value, INT_MIN, INT_MAX));
    const BuildPlay play{card, with, announced};
    const auto rest = without(hands_[seat], card);
    if (auto fault = build_fault(table_, config_.values, play, rest)) throw illegal_action(*fault);
    if (auto fault = duty_fault(seat, rest, with.builds, play.value)) throw illegal_action(*fault);

    Effects fx;
    Build made = built_by(table_, config_.values, play);
    const bool raised = made.id != 0;
    hands_[seat] = rest;
    remove_selection(table_, with);
    if (!raised) made.id = next_build_id_++;
    made.owner = seat;
    fx.say(seat_tag(seat) + (raised ? " raises a build to " : " builds ") + std::to_string(made.value) +
           (made.multiple() ? "s" : "") + " with " + to_string(card) + ": " + join(made.cards()) + ".");
    table_.builds.push_back(made);
    after_play(seat, balances, fx);
    return fx;
  }

  Effects trail(int seat, const Json& action, const Balances& balances) {
    expect_only_fields(action, {"card"});
    const Card card = read_hand_card(seat, action);
    if (!owned_build_ids(seat).empty())
      throw illegal_action("a player who owns a build may not trail: take it, build again, or capture");
    Effects fx;
    hands_[seat] = without(hands_[seat], card);
    table_.loose.push_back(card);
    fx.say(seat_tag(seat) + " trails " + to_string(card) + ".");
    after_play(seat, balances, fx);
    return fx;
  }

  static std::string join(const std::vector<Card>& cards) {
    std::string out;
    for (const Card card : cards) out += (out.empty() ? "" : " ") + to_string(card);
    return out;
  }

  // ------------------------------------------------------------- deal's end
  void end_deal(const Balances& balances, Effects& fx) {
    const int residue_to = last_capturer_.value_or(dealer_);
    auto residue = table_.loose;
    for (const auto& build : table_.builds) {
      const auto cards = build.cards();
      residue.insert(residue.end(), cards.begin(), cards.end());
    }
    table_ = {};
    captured_[residue_to].insert(captured_[residue_to].end(), residue.begin(), residue.end());
    if (!residue.empty())
      fx.say(seat_tag(residue_to) + (last_capturer_ ? ", the last to capture," : ", the dealer (nobody captured),") +
             " takes what is left on the table: " + join(residue) + ".");

    std::vector<SideTake> takes;
    for (int side = 0; side < side_count(); ++side) {
      SideTake take{side_cards(side), 0};
      for (int seat : side_seats(side)) take.sweeps += sweeps_[seat];
      takes.push_back(take);
    }
    const auto items = score_items(takes, sweep_sides_, ScoringRules{config_.spade, config_.sweeps});
    const auto points = deal_points(items, static_cast<std::size_t>(side_count()));

    ChipBook book(players_, "");
    book.sync(balances);
    Json deal_result = {{"deal", deals_},
                        {"dealer", dealer_},
                        {"residue", {{"seat", residue_to}, {"cards", cards_json(residue)}}}};
    if (config_.per_deal_game) {
      for (int side = 0; side < side_count(); ++side) scores_[side] += points[side];
      settle_one_deal(points, book, fx, deal_result);
      const bool limit = config_.deal_limit > 0 && deals_ >= config_.deal_limit;
      deal_result["end"] = limit ? "deal_limit" : "deal";
      step_ = limit ? Step::game_over : Step::deal_over;
    } else {
      const auto counted = count_out(scores_, items, config_.target);
      scores_ = counted.scores;
      deal_result["counted"] = counted.counted;
      if (counted.winner) {
        settle_game(*counted.winner, book, fx, deal_result);
        deal_result["end"] = "game";
        step_ = Step::game_over;
      } else {
        const bool limit = config_.deal_limit > 0 && deals_ >= config_.deal_limit;
        deal_result["end"] = limit ? "deal_limit" : "deal";
        step_ = limit ? Step::game_over : Step::deal_over;
        if (limit) fx.say("The last of " + std::to_string(config_.deal_limit) + " deals is played; nobody won.");
      }
    }
    finish_result(deal_result, takes, items, points, book);
    result_ = deal_result;
    fx.say("Deal " + std::to_string(deals_) + " is scored: " + points_text(points) + ".");
  }

  std::string points_text(const std::vector<int>& points) const {
    std::string out;
    for (int side = 0; side < side_count(); ++side) {
      std::string who;
      for (int seat : side_seats(side)) who += (who.empty() ? "" : " and ") + seat_tag(seat);
      out += (out.empty() ? "" : ", ") + who + " " + std::to_string(points[side]);
    }
    return out;
  }

  // Each seat of the losing side pays one seat of the winning side: the winner
  // himself, or in partnerships the opponent on his left.
  int payee(int loser_seat, int winner_side) const {
    if (!config_.partnership) return side_seats(winner_side).front();
    return (loser_seat + 1) % players_;
  }

  void pay_side(int loser_side, int winner_side, std::int64_t amount, const std::string& memo, ChipBook& book,
                Effects& fx) {
    for (int seat : side_seats(loser_side)) book.seat_to_seat(seat, payee(seat, winner_side), amount, memo, fx);
  }

  // A game to the target: every losing side pays the winner the difference in
  // points (or the game's fixed stake), doubled for a lurch.
  void settle_game(int winner, ChipBook& book, Effects& fx, Json& out) {
    Json lurched = Json::array();
    fx.say(side_name(winner) + " reach" + (config_.partnership ? "" : "es") + " " + std::to_string(config_.target) +
           " and win" + (config_.partnership ? "" : "s") + " the game.");
    for (int side = 0; side < side_count(); ++side) {
      if (side == winner) continue;
      const bool lurch = config_.lurch_below > 0 && scores_[side] < config_.lurch_below;
      if (lurch) lurched.push_back(side);
      const std::int64_t base =
          config_.game_stake > 0 ? config_.game_stake : config_.stake * (scores_[winner] - scores_[side]);
      const std::string score = side_name(winner) + (config_.partnership ? " win" : " wins") + " the game " + std::to_string(scores_[winner]) + " to " +
                                std::to_string(scores_[side]) + " of " + side_name(side);
      const std::string owed = config_.game_stake > 0 ? "the game's stake" : "the difference in points";
      pay_side(side, winner, lurch ? 2 * base : base,
               lurch ? score + ": " + owed + ", doubled for a lurch (below " + std::to_string(config_.lurch_below) + ")"
                     : score + ": " + owed,
               book, fx);
    }
    out["winner"] = winner;
    out["winner_seats"] = side_seats(winner);
    out["lurched"] = lurched;
  }

  // A game of one deal: per point, every side pays each side above it the
  // difference; per game, the side with the most points (if alone) takes the stake.
  void settle_one_deal(const std::vector<int>& points, ChipBook& book, Effects& fx, Json& out) {
    const int top = *std::max_element(points.begin(), points.end());
    const auto leaders = std::count(points.begin(), points.end(), top);
    out["winner"] = leaders == 1 ? Json(static_cast<int>(std::find(points.begin(), points.end(), top) - points.begin()))
                                 : Json();
    for (int lower = 0; lower < side_count(); ++lower) {
      for (int higher = 0; higher < side_count(); ++higher) {
        if (points[higher] <= points[lower]) continue;
        if (config_.game_stake > 0) {
          if (points[higher] == top && leaders == 1)
            pay_side(lower, higher, config_.game_stake,
                     side_name(higher) + (config_.partnership ? " win" : " wins") + " the deal " + std::to_string(points[higher]) + " to " +
                         std::to_string(points[lower]) + " of " + side_name(lower) + ": the game's stake",
                     book, fx);
        } else {
          pay_side(lower, higher, config_.stake * (points[higher] - points[lower]),
                   side_name(higher) + (config_.partnership ? " score " : " scores ") + std::to_string(points[higher]) + " to " +
                       std::to_string(points[lower]) + " of " + side_name(lower) + ": the difference in points",
                   book, fx);
        }
      }
    }
  }

  std::string side_name(int side) const {
    std::string who;
    for (int seat : side_seats(side)) who += (who.empty() ? "" : " and ") + seat_tag(seat);
    return who;
  }

  void finish_result(Json& out, const std::vector<SideTake>& takes, const std::vector<ScoreItem>& items,
                     const std::vector<int>& points, const ChipBook& book) const {
    Json sides = Json::array();
    for (int side = 0; side < side_count(); ++side) {
      const auto& cards = takes[side].cards;
      Json by_item = Json::object();
      for (const auto& item : items)
        if (item.side == side) by_item[item.item] = by_item.value(item.item, 0) + item.points;
      sides.push_back({{"side", side},
                       {"seats", side_seats(side)},
                       {"cards", cards.size()},
                       {"spades", std::count_if(cards.begin(), cards.end(), [](Card c) { return c.suit == Suit::spades; })},
                       {"sweeps", takes[side].sweeps},
                       {"items", by_item},
                       {"points", points[side]},
                       {"score", scores_[side]}});
    }
    Json item_list = Json::array();
    for (const auto& item : items) {
      Json entry = {{"item", item.item}, {"side", item.side}, {"points", item.points}};
      if (item.card) entry["card"] = to_string(*item.card);
      item_list.push_back(entry);
    }
    Json seats = Json::array();
    for (int seat = 0; seat < players_; ++seat)
      seats.push_back({{"seat", seat}, {"points", points[side_of_[seat]]}, {"chips", book.net(seat)}});
    out["sides"] = std::move(sides);
    out["items"] = std::move(item_list);
    out["seats"] = std::move(seats);
    Json scores = Json::array();
    for (int seat = 0; seat < players_; ++seat) scores.push_back(scores_[side_of_[seat]]);
    out["scores"] = std::move(scores);
    out["target"] = config_.per_deal_game ? Json() : Json(config_.target);
    out["settlement"] = book.movements();
    if (!book.unpaid_json().empty()) out["unpaid"] = book.unpaid_json();
  }

  // ------------------------------------------------------------------- view
  void write_seat(JsonWriter& out, int seat, std::optional<int> viewer) const {
    out.object([&] {
      view::seat_members(out, seat, hands_[seat], viewer == seat, seat_status(seat), left_[seat]);
      out.field("side", side_of_[seat]);
      out.field("captured", captured_[seat].size());
      out.field("sweeps", sweeps_[seat]);
      out.field("owns", owned_build_ids(seat));
    });
  }

  void write_piles(JsonWriter& out) const {
    out.array([&] {
      view::face_down_pile(out, "stock", std::nullopt, stock_.size());
      view::pile(out, "table", std::nullopt, table_.loose, view::Shown::all);
      for (int side = 0; side < side_count(); ++side)
        view::pile(out, "captured-" + std::to_string(side), side_seats(side).front(), side_cards(side),
                   view::Shown::count);
    });
  }

  // A build on the table, as an entry of "melds".
  static void write_build(JsonWriter& out, const Build& build) {
    out.object([&] {
      view::meld_members(out, build.id, build.owner);
      out.field("cards", to_strings(build.cards()));
      out.field("value", build.value);
      out.field("multiple", build.multiple());
      out.array_field("groups", [&] {
        for (const auto& group : build.groups) view::cards(out, group);
      });
    });
  }

  void write_sides(JsonWriter& out) const {
    out.array([&] {
      for (int side = 0; side < side_count(); ++side) {
        int sweeps = 0;
        for (int seat : side_seats(side)) sweeps += sweeps_[seat];
        out.object([&] {
          out.field("side", side);
          out.field("seats", side_seats(side));
          out.field("captured", side_cards(side).size());
          out.field("sweeps", sweeps);
          out.field("score", scores_[side]);
        });
      }
    });
  }

  Json card_values_json() const {
    Json out = Json::object();
    auto ranks = PackSpec{.eleven_twelve_spots = config_.special_pack};
    for (const Card card : make_pack(ranks)) {
      if (card.suit != Suit::spades) continue;
      const std::string rank(1, to_string(card)[0]);
      out[rank] = config_.values.of(card);
    }
    return out;
  }

  CassinoConfig config_;
  int players_;
  Shoe shoe_;
  Stock stock_;
  std::vector<std::vector<Card>> hands_;
  std::vector<std::vector<Card>> captured_;  // by seat; a side's pile is its seats' together
  std::vector<int> sweeps_;                  // by seat, this deal
  std::vector<int> sweep_sides_;             // the side of each sweep this deal, in order
  std::vector<bool> left_;
  std::vector<int> side_of_;
  std::vector<int> scores_;  // by side, running
  TableCards table_;
  std::optional<int> last_capturer_;
  bool last_announced_ = false;
  int next_build_id_ = 1;
  int round_ = 0;
  int rounds_ = 0;
  int turn_ = 0;
  int dealer_ = 0;
  int deals_ = 0;
  Step step_ = Step::deal_over;  // the table starts play with start_next_deal
  Json result_;
  Json card_values_;  // what each rank counts for, shown in every view
};

}  // namespace

std::unique_ptr<GameState> make_cassino(const CassinoConfig& config, const GameSetup& setup) {
  return std::make_unique<CassinoGame>(config, setup);
}

std::unique_ptr<GameState> copy_cassino(const GameState& game) {
  return std::make_unique<CassinoGame>(dynamic_cast<const CassinoGame&>(game));
}

}  // namespace parlour::rules::cassino
