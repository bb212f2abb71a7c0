#include "rules/rummy/rummy_base.h"

#include <algorithm>
#include <set>

#include "rules/action.h"
#include "rules/pools.h"

namespace parlour::rules::rummy {

namespace {

const char* step_name(int step) {
  static const char* names[] = {"draw", "play", "call_window", "call_discard", "deal_over", "game_over"};
  return names[step];
}

std::vector<Card> read_cards(const Json& list, const char* field) {
  if (!list.is_array() || list.empty())
    throw illegal_action(std::string("field '") + field + "' must be a non-empty array of cards, got " + list.dump());
  std::vector<Card> out;
  for (const auto& item : list) {
    if (!item.is_string()) throw illegal_action(std::string("field '") + field + "' holds a non-card: " + item.dump());
    auto card = parse_card(item.get<std::string>());
    if (!card) throw illegal_action(std::string("field '") + field + "' holds a non-card: " + item.dump());
    out.push_back(*card);
  }
  return out;
}

std::vector<Card> distinct(const std::vector<Card>& cards) {
  std::vector<Card> out;
  for (auto c : cards)
    if (!holds(out, c)) out.push_back(c);
  return out;
}

Json card_list(const std::vector<Card>& cards) { return to_strings(cards); }

// Melds as a log shows them: "5H 6H 7H; 9C 9D JK=9S".
std::string melds_text(const std::vector<Meld>& melds) {
  std::string text;
  for (const auto& meld : melds) {
    if (!text.empty()) text += "; ";
    std::string cards;
    for (const auto& c : meld_strings(meld)) cards += (cards.empty() ? "" : " ") + c;
    text += cards;
  }
  return text;
}

// One meld written as a list of cards, a wild as "JK=8H" to say what it stands
// for (every wild of the meld declared, or none: the server then chooses).
MeldSpec read_meld_spec(const Json& list, const MeldRules& rules, const std::string& what) {
  if (!list.is_array() || list.empty())
    throw illegal_action("each meld of a " + what + " is a non-empty list of cards, got " + list.dump());
  MeldSpec spec;
  bool undeclared_wild = false;
  for (const auto& item : list) {
    const std::string text = item.is_string() ? item.get<std::string>() : std::string();
    const auto eq = text.find('=');
    auto card = parse_card(text.substr(0, eq));
    if (!card) throw illegal_action("not a card in a " + what + ": " + item.dump());
    spec.cards.push_back(*card);
    if (eq == std::string::npos) {
      undeclared_wild = undeclared_wild || is_wild(*card, rules);
      continue;
    }
    if (!is_wild(*card, rules)) throw illegal_action(to_string(*card) + " is not wild: it stands only for itself");
    auto as = parse_card(text.substr(eq + 1));
    if (!as) throw illegal_action("a wild must stand for a card, as in \"JK=8H\": got " + item.dump());
    spec.declared.push_back(*as);
  }
  if (undeclared_wild && !spec.declared.empty()) throw illegal_action("declare every wild card of a meld, or none");
  return spec;
}

}  // namespace

RummyBase::RummyBase(const GameSetup& setup, RummyConfig config)
    : scores_(setup.players, 0),
      config_(std::move(config)),
      shoe_(config_.deal.pack, setup.seed, setup.stacked_deck),
      reshuffle_rng_(setup.seed ^ 0x9e3779b97f4a7c15ULL),
      hands_(setup.players),
      melded_this_deal_(setup.players, false),
      melded_before_this_turn_(setup.players, false),
      left_(setup.players, false),
      out_(setup.players, false),
      turns_taken_(setup.players, 0),
      withdrawn_(setup.players, false) {
  dealer_ = setup.starting_dealer();
  if (config_.scoring.deals == 0) config_.scoring.deals = setup.players;
  if (config_.stock.after_stock_turns == 0) config_.stock.after_stock_turns = 2 * setup.players;
}

// ------------------------------------------------------------------ state

Phase RummyBase::phase() const {
  if (step_ == Step::game_over) return Phase::game_over;
  if (step_ == Step::deal_over) return Phase::deal_over;
  return Phase::playing;
}

std::vector<int> RummyBase::to_act() const {
  switch (step_) {
    case Step::draw:
    case Step::play: return {turn_};
    case Step::call_discard: return {caller_};
    case Step::call_window: {
      std::vector<int> waiting;
      for (std::size_t i = 0; i < call_order_.size(); ++i)
        if (call_answer_[i] == 0) waiting.push_back(call_order_[i]);
      return waiting;
    }
    default: return {};
  }
}

// ------------------------------------------------------------------ dealing

Effects RummyBase::start_next_deal(const Balances&) {
  if (step_ != Step::deal_over) throw std::logic_error("rummy: next deal while a deal is on");
  if (deals_ > 0 || !in_play(dealer_)) {
    do dealer_ = left_of(dealer_);
    while (!in_play(dealer_));
  }
  Effects fx;
  deal(fx);
  return fx;
}

void RummyBase::deal(Effects& fx) {
  ++deals_;
  auto fresh = shoe_.next_deal();
  auto top_first = fresh.draw(fresh.size());
  stock_.assign(top_first.rbegin(), top_first.rend());
  pile_.clear();
  table_.clear();
  restocks_ = 0;
  whole_pile_takes_ = 0;
  stock_gone_ = false;
  turns_after_stock_ = 0;
  in_break_ = false;
  breaker_ = -1;
  break_turns_left_ = 0;
  final_round_ = false;
  final_turns_left_ = 0;
  knocker_ = -1;
  std::fill(withdrawn_.begin(), withdrawn_.end(), false);
  for (int s = 0; s < players(); ++s) {
    hands_[s].clear();
    melded_this_deal_[s] = false;
    turns_taken_[s] = 0;
  }
  std::vector<int> order;
  for (int i = 1; i <= players(); ++i) {
    const int seat = (dealer_ + i) % players();
    if (in_play(seat)) order.push_back(seat);
  }
  for (int round = 0; round < config_.deal.hand_size; ++round)
    for (int seat : order) {
      hands_[seat].push_back(stock_.back());
      stock_.pop_back();
    }
  if (config_.deal.upcard) {
    pile_.push_back(stock_.back());
    stock_.pop_back();
  }
  fx.say("Deal " + std::to_string(deals_) + ": " + seat_tag(dealer_) + " deals " + std::to_string(config_.deal.hand_size) +
         " cards each" + (config_.deal.upcard ? "; the upcard is " + to_string(pile_.back()) : std::string()) + ".");
  begin_turn(order.front(), fx);
}

void RummyBase::begin_turn(int seat, Effects&) {
  turn_ = seat;
  step_ = Step::draw;
  taken_upcard_.reset();
  must_use_.reset();
  drawn_this_turn_ = 0;
  plays_this_turn_ = 0;
  ++turns_taken_[seat];
  ++turns_begun_;
  melded_before_this_turn_[seat] = melded_this_deal_[seat];
  if (stock_.empty() && config_.stock.end == StockEnd::discard_only) {
    stock_gone_ = true;
    ++turns_after_stock_;
  }
}

// The next player's turn, or the end of the deal when the stock rule says so.
void RummyBase::next_turn(Effects& fx) {
  begin_turn(next_seat(turn_, players(), [&](int seat) { return in_play(seat); }), fx);
}

bool RummyBase::stock_is_dead() const {
  if (!stock_.empty()) return false;
  switch (config_.stock.end) {
    case StockEnd::turn_over: return restocks_ >= config_.stock.max_restocks || pile_.empty();
    case StockEnd::end_deal: return true;
    case StockEnd::discard_only: return pile_.empty() || turns_after_stock_ > config_.stock.after_stock_turns;
    case StockEnd::break_at_players:
    case StockEnd::end_at_players: return true;
    case StockEnd::reshuffle_except_top: return true;
    case StockEnd::final_meld_round: return true;
  }
  return true;
}

std::vector<int> RummyBase::seats_in_play() const {
  return seats_from(left_of(dealer_), players(), [&](int s) { return in_play(s); });
}

int RummyBase::active_players() const {
  int count = 0;
  for (int s = 0; s < players(); ++s) count += in_play(s) ? 1 : 0;
  return count;
}

int RummyBase::unmatched_count(int seat) const {
  return best_arrangement(hands_[seat], config_.melds, config_.values).deadwood_value;
}

int RummyBase::lowest_from(const std::vector<int>& counts, int first) const {
  int best = -1;
  for (int i = 0; i < players(); ++i) {
    const int seat = (first + i) % players();
    if (!in_play(seat)) continue;
    if (best < 0 || counts[seat] < counts[best]) best = seat;
  }
  return best;
}

// The break (R-S2): every meld goes down before the discard, so the hand may
// hold no complete meld when the player discards.
void RummyBase::check_break_discard(int seat) const {
  if (in_break_ && !candidate_melds(hands_[seat], config_.melds).empty())
    throw illegal_action("in the break, put down all your melds before you discard");
}

// ------------------------------------------------------------------ apply

Effects RummyBase::apply(int seat, const Json& action, const Balances& balances) {
  if (step_ == Step::deal_over || step_ == Step::game_over) throw not_your_turn("no deal is in progress");
  const auto acting = to_act();
  if (std::find(acting.begin(), acting.end(), seat) == acting.end()) {
    if (step_ == Step::call_window) throw not_your_turn("the call window is for the other players");
    throw not_your_turn("it is " + seat_tag(acting.front()) + "'s turn");
  }
  const auto type = action_type(action);
  // Actions that carry nothing but their type take no other field either.
  static const std::set<std::string> bare = {"take_all", "decline", "pass", "knock", "finish", "withdraw"};
  if (bare.count(type)) expect_only_fields(action, {});
  Effects fx;
  Balances chips = balances;
  if (config_.cycle.on) {
    apply_draw_meld_cycle(seat, type, action, chips, fx);
    return fx;
  }
  switch (step_) {
    case Step::draw:
      if (type == "draw") apply_draw(seat, action, fx);
      else if (type == "take") apply_take(seat, action, fx);
      else if (type == "take_all") apply_take_all(seat, fx);
      else if (type == "decline") apply_decline(seat, chips, fx);
      else if (type == "go_down") apply_go_down(seat, action, chips, fx);
      else throw illegal_action("draw first: expected draw, take or decline, got '" + type + "'");
      break;
    case Step::play:
      if (type == "meld") apply_meld(seat, action, chips, fx);
      else if (type == "lay_off") apply_lay_off(seat, action, chips, fx);
      else if (type == "discard") apply_discard(seat, action, chips, fx);
      else if (type == "go_rummy") apply_go_rummy(seat, action, chips, fx);
      else if (type == "layout") apply_layout(seat, action, chips, fx);
      else if (type == "go_down") apply_go_down(seat, action, chips, fx);
      else throw illegal_action("expected meld, lay_off, discard or go_rummy, got '" + type + "'");
      break;
    case Step::call_window:
      if (type == "call") apply_call(seat, action, chips, fx);
      else if (type == "pass") apply_pass(seat, chips, fx);
      else throw illegal_action("expected call or pass, got '" + type + "'");
      break;
    case Step::call_discard:
      if (type != "discard") throw illegal_action("after a call, discard a card from your hand");
      apply_discard(seat, action, chips, fx);
      break;
    default: break;
  }
  return fx;
}

// Stock empty under turn-over (000 Rummy): take the upcard and turn the rest,
// or turn the whole pile and draw its top. Either counts as one restock.
void RummyBase::restock_for_draw(bool take_upcard, Effects& fx) {
  std::optional<Card> upcard;
  if (take_upcard) {
    upcard = pile_.back();
    pile_.pop_back();
  }
  stock_.assign(pile_.rbegin(), pile_.rend());
  pile_.clear();
  ++restocks_;
  fx.say("The stock is exhausted; the discard pile is turned over as a new stock.");
  if (upcard) hands_[turn_].push_back(*upcard);
}

void RummyBase::apply_draw(int seat, const Json& action, Effects& fx) {
  expect_only_fields(action, {"from"});
  const auto from = action.value("from", Json()).is_string() ? action["from"].get<std::string>() : std::string();
  if (from != "stock" && from != "discard" && from != "two_discards")
    throw illegal_action("draw from \"stock\" or \"discard\", got " + action.value("from", Json()).dump());
  if (config_.draw.spread_pile && from != "stock") throw illegal_action("take from the spread pile with a take action");
  if (in_break_ && from == "discard" && !usable_take(seat, 0, true))
    throw illegal_action("in the break, take the upcard only to meld it or lay it off at once");
  if (stock_gone_) {
    if (from != "discard") throw illegal_action("the stock is gone: take the upcard or decline");
    if (pile_.empty()) throw illegal_action("there is no upcard to take");
  }
  if (config_.draw.upcard_then_one_more) return draw_upcard_then_one_more(seat, from, fx);
  if (from == "stock") {
    if (stock_.empty() && (config_.stock.end != StockEnd::turn_over || pile_.empty()))
      throw illegal_action("the stock is empty");
    if (stock_.empty()) restock_for_draw(false, fx);
    hands_[seat].push_back(stock_.back());
    stock_.pop_back();
    fx.say(seat_tag(seat) + " draws from the stock.");
  } else if (from == "discard") {
    if (pile_.empty()) throw illegal_action("the discard pile is empty");
    const bool pair_with_stock = config_.draw.boathouse && !stock_gone_;
    if (pair_with_stock && stock_.empty() && !upcard_restocks_pair())
      throw illegal_action("the upcard comes with the stock top, and the stock is empty");
    const Card upcard = pile_.back();
    if (stock_.empty() && !stock_gone_ && config_.stock.end == StockEnd::turn_over) {
      restock_for_draw(true, fx);
    } else {
      pile_.pop_back();
      hands_[seat].push_back(upcard);
    }
    taken_upcard_ = upcard;
    if (in_break_) must_use_ = upcard;
    fx.say(seat_tag(seat) + " takes the upcard " + to_string(upcard) + ".");
    if (pair_with_stock) {
      hands_[seat].push_back(stock_.back());
      stock_.pop_back();
      fx.say(seat_tag(seat) + " also draws from the stock.");
    }
  } else {
    if (!config_.draw.boathouse_two_discards) throw illegal_action("taking two discards is not allowed in this game");
    if (pile_.size() < 2) throw illegal_action("the discard pile holds fewer than two cards");
    for (int i = 0; i < 2; ++i) {
      hands_[seat].push_back(pile_.back());
      pile_.pop_back();
    }
    fx.say(seat_tag(seat) + " takes the two top discards.");
  }
  step_ = Step::play;
}

// Round-the-Corner's draw: the stock top alone, or the upcard and then one more
// card, the stock top or the new upcard (so also the two top discards).
void RummyBase::draw_upcard_then_one_more(int seat, const std::string& from, Effects& fx) {
  const bool second = drawn_this_turn_ > 0;
  if (from == "two_discards") throw illegal_action("take the two top discards as two draws from \"discard\"");
  if (from == "stock") {
    if (stock_.empty()) throw illegal_action("the stock is empty");
    hands_[seat].push_back(stock_.back());
    stock_.pop_back();
    fx.say(seat_tag(seat) + " draws from the stock.");
  } else {
    if (pile_.empty()) throw illegal_action("the discard pile is empty");
    if (!second && stock_.empty() && pile_.size() < 2)
      throw illegal_action("no second card could follow the upcard: the stock is empty");
    const Card upcard = pile_.back();
    pile_.pop_back();
    hands_[seat].push_back(upcard);
    if (!second) taken_upcard_ = upcard;
    fx.say(seat_tag(seat) + " takes the upcard " + to_string(upcard) + ".");
  }
  if (stock_.empty() && config_.stock.end == StockEnd::reshuffle_except_top) reshuffle_except_top(fx);
  if (from == "discard" && !second) {
    drawn_this_turn_ = 1;  // one more card to draw before playing
    return;
  }
  drawn_this_turn_ = 2;
  step_ = Step::play;
}

// The discard pile but its top card, shuffled into a new stock; false when the
// cap is reached or there is nothing under the top card.
bool RummyBase::reshuffle_except_top(Effects& fx) {
  if (restocks_ >= config_.stock.max_restocks || pile_.size() < 2) return false;
  const Card top = pile_.back();
  pile_.pop_back();
  reshuffle_rng_.shuffle(pile_);
  stock_ = pile_;
  pile_.assign(1, top);
  ++restocks_;
  fx.say("The stock is exhausted; the discard pile but its top card is shuffled into a new stock.");
  return true;
}

// Boathouse with an empty stock (R-BH3): the upcard is taken, the rest of the
// pile turned over as the new stock, and its top card drawn as the upcard's pair;
// possible while the pile holds a card under the upcard.
bool RummyBase::upcard_restocks_pair() const {
  return stock_.empty() && config_.stock.end == StockEnd::turn_over && pile_.size() >= 2;
}

bool RummyBase::usable_take(int seat, std::size_t depth, bool must_use) const {
  if (depth >= pile_.size()) return false;
  if (!must_use) return true;
  const Card card = pile_[pile_.size() - 1 - depth];
  auto cards = hands_[seat];
  cards.insert(cards.end(), pile_.end() - 1 - static_cast<std::ptrdiff_t>(depth), pile_.end());
  // Usable: it lays off on a table meld, or some meld of the new hand holds it.
  for (const auto& tm : table_)
    if (extend_meld(tm.meld, {card}, config_.melds)) return true;
  if (config_.melding.shift_on_natural)
    for (const auto& tm : table_)
      if (!shift_choices(tm.meld, card, config_.melds).empty()) return true;
  for (const auto& meld : candidate_melds(cards, config_.melds))
    if (holds(meld, card)) return true;
  return false;
}

void RummyBase::apply_take(int seat, const Json& action, Effects& fx) {
  if (!config_.draw.spread_pile) throw illegal_action("this game has no spread pile; draw from the stock or the discard");
  expect_only_fields(action, {"depth", "card"});
  const auto depth = int_field(action, "depth");
  if (depth < 0 || depth >= static_cast<std::int64_t>(pile_.size()))
    throw illegal_action("depth must be from 0 (the top) to " + std::to_string(static_cast<int>(pile_.size()) - 1));
  const Card card = pile_[pile_.size() - 1 - depth];
  if (action.contains("card") && card_field(action, "card") != card)
    throw illegal_action("the card at depth " + std::to_string(depth) + " is " + to_string(card));
  if (!usable_take(seat, static_cast<std::size_t>(depth), config_.draw.must_use_taken && !(depth == 0 && config_.draw.top_card_free)))
    throw illegal_action("you may take " + to_string(card) + " only if you can meld it or lay it off at once");
  std::vector<Card> taken(pile_.end() - 1 - depth, pile_.end());
  pile_.erase(pile_.end() - 1 - depth, pile_.end());
  hands_[seat].insert(hands_[seat].end(), taken.begin(), taken.end());
  if (config_.draw.must_use_taken && !(depth == 0 && config_.draw.top_card_free)) must_use_ = card;
  if (depth == 0) taken_upcard_ = card;
  fx.say(seat_tag(seat) + " takes " + to_string(card) + (depth > 0 ? " and the " + std::to_string(depth) + " cards above it" : "") + ".");
  step_ = Step::play;
}

void RummyBase::apply_take_all(int seat, Effects& fx) {
  if (!config_.draw.take_whole_pile) throw illegal_action("taking the whole pile is the Polish rule, not in play here");
  if (pile_.empty()) throw illegal_action("the discard pile is empty");
  if (whole_pile_takes_ >= whole_pile_takes_max())
    throw illegal_action("the whole pile has been taken " + std::to_string(whole_pile_takes_) +
                         " times this deal, the most allowed: draw from the stock or take a card to meld");
  ++whole_pile_takes_;
  hands_[seat].insert(hands_[seat].end(), pile_.begin(), pile_.end());
  fx.say(seat_tag(seat) + " takes the whole discard pile (" + std::to_string(pile_.size()) + " cards).");
  pile_.clear();
  step_ = Step::play;
}

std::vector<Card> RummyBase::cards_from_hand(int seat, const Json& list, const char* field) const {
  auto cards = read_cards(list, field);
  auto hand = hands_[seat];
  for (auto c : cards) {
    auto it = std::find(hand.begin(), hand.end(), c);
    if (it == hand.end()) throw illegal_action(to_string(c) + " is not in your hand");
    hand.erase(it);
  }
  return cards;
}

// A meld or lay-off must leave a hand the turn can still end with: empty (going
// out, where allowed), or holding a card the player may discard.
std::string RummyBase::why_not_keep(int seat, const std::vector<Card>& remaining, const std::vector<Card>& played) const {
  const bool may_go_out = !config_.discard.needs_earlier_meld || melded_before_this_turn_[seat];
  if (remaining.empty()) {
    if (config_.discard.final_discard_required) return "you must go out with a discard: keep a card to discard";
    if (!may_go_out) return "you may not go out this turn: you have not melded on an earlier turn";
    return "";
  }
  if (remaining.size() == 1 && !may_go_out)
    return "you may not go out this turn: keep two cards so that one stays after your discard";
  // Equal cards are interchangeable: once a copy of the taken upcard is played,
  // what stays in the hand is the player's own.
  const bool upcard_played = taken_upcard_ && holds(played, *taken_upcard_);
  for (auto c : remaining)
    if (upcard_played || !(config_.discard.no_discard_taken_upcard && taken_upcard_ && *taken_upcard_ == c &&
                           std::count(remaining.begin(), remaining.end(), c) == 1))
      return "";
  return "that would leave only the upcard you took, which you may not discard this turn";
}

std::vector<Card> RummyBase::hand_without(int seat, const std::vector<Card>& cards) const {
  auto rest = hands_[seat];
  for (auto c : cards) rest.erase(std::find(rest.begin(), rest.end(), c));
  return rest;
}

void RummyBase::check_may_keep(int seat, const std::vector<Card>& cards) const {
  if (auto why = why_not_keep(seat, hand_without(seat, cards), cards); !why.empty()) throw illegal_action(why);
}

void RummyBase::check_must_use(const std::vector<Card>& used) const {
  if (must_use_ && !holds(used, *must_use_))
    throw illegal_action("first meld or lay off " + to_string(*must_use_) + ", the card you took");
}

void RummyBase::forget_upcard_if_played(const std::vector<Card>& played) {
  if (taken_upcard_ && holds(played, *taken_upcard_)) taken_upcard_.reset();
}

void RummyBase::remove_from_hand(int seat, const std::vector<Card>& cards) {
  auto& hand = hands_[seat];
  for (auto c : cards) hand.erase(std::find(hand.begin(), hand.end(), c));
}

void RummyBase::apply_meld(int seat, const Json& action, Balances& chips, Effects& fx) {
  if (config_.melding.rummy_only && !in_break_)
    throw illegal_action("no meld until a player goes rummy with his whole hand (go_rummy)");
  if (config_.melding.max_plays_per_turn > 0 && plays_this_turn_ >= config_.melding.max_plays_per_turn)
    throw illegal_action("only one meld or one lay-off a turn");
  expect_only_fields(action, {"cards", "wilds"});
  const auto cards = cards_from_hand(seat, action.value("cards", Json()), "cards");
  if (config_.melding.meld_cards_exact > 0 && static_cast<int>(cards.size()) != config_.melding.meld_cards_exact)
    throw illegal_action("a meld here is exactly " + std::to_string(config_.melding.meld_cards_exact) + " cards");
  std::vector<Card> declared;
  if (action.contains("wilds")) declared = read_cards(action["wilds"], "wilds");
  auto check = validate_meld(cards, config_.melds, declared);
  if (!check) throw illegal_action(check.message + " (" + check.reason + ")");
  check_must_use(cards);
  check_may_keep(seat, cards);
  remove_from_hand(seat, cards);
  forget_upcard_if_played(cards);
  TableMeld placed{*check.meld, std::vector<int>(cards.size(), seat), true};
  placed.meld.owner = seat;
  table_.push_back(placed);
  melded_this_deal_[seat] = true;
  ++plays_this_turn_;
  must_use_.reset();
  fx.say(seat_tag(seat) + " melds " + melds_text({placed.meld}) + ".");
  std::vector<std::size_t> all(cards.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  on_meld_made(seat, table_.back(), all, true);
  after_hand_change(seat, chips, fx);
}

void RummyBase::apply_lay_off(int seat, const Json& action, Balances& chips, Effects& fx) {
  if (config_.melding.rummy_only && !in_break_) throw illegal_action("no lay-off in this game: meld only by going rummy");
  if (config_.melding.max_plays_per_turn > 0 && plays_this_turn_ >= config_.melding.max_plays_per_turn)
    throw illegal_action("only one meld or one lay-off a turn");
  if (config_.melding.shift_on_natural && action.contains("shift")) return apply_shift_lay_off(seat, action, chips, fx);
  expect_only_fields(action, {"meld", "cards", "wilds"});
  const auto index = int_field(action, "meld");
  if (index < 0 || index >= static_cast<std::int64_t>(table_.size()))
    throw illegal_action("no meld " + std::to_string(index) + " on the table");
  const auto cards = cards_from_hand(seat, action.value("cards", Json()), "cards");
  if (config_.melding.lay_off_cards_max > 0 && static_cast<int>(cards.size()) > config_.melding.lay_off_cards_max)
    throw illegal_action("lay off at most " + std::to_string(config_.melding.lay_off_cards_max) + " card a turn");
  auto& target = table_[index];
  std::vector<Card> declared;
  if (action.contains("wilds")) declared = read_cards(action["wilds"], "wilds");
  auto check = extend_meld(target.meld, cards, config_.melds, declared);
  if (!check) throw illegal_action(check.message + " (" + check.reason + ")");
  check_must_use(cards);
  check_may_keep(seat, cards);
  remove_from_hand(seat, cards);
  forget_upcard_if_played(cards);
  // Cards already on the meld keep who placed them; the new ones are this seat's.
  std::vector<int> placed_by;
  std::vector<bool> used(target.meld.cards.size(), false);
  std::vector<std::size_t> new_cards;
  for (std::size_t i = 0; i < check.meld->cards.size(); ++i) {
    const auto& mc = check.meld->cards[i];
    int by = seat;
    bool old = false;
    for (std::size_t j = 0; j < target.meld.cards.size(); ++j)
      if (!used[j] && target.meld.cards[j] == mc) {
        used[j] = true;
        by = target.placed_by[j];
        old = true;
        break;
      }
    placed_by.push_back(by);
    if (!old) new_cards.push_back(i);
  }
  target.meld = *check.meld;
  target.placed_by = placed_by;
  melded_this_deal_[seat] = true;
  ++plays_this_turn_;
  must_use_.reset();
  fx.say(seat_tag(seat) + " lays off " + [&] {
    std::string s;
    for (auto c : cards) s += (s.empty() ? "" : " ") + to_string(c);
    return s;
  }() + " on meld " + std::to_string(index) + ".");
  on_meld_made(seat, target, new_cards, false);
  after_hand_change(seat, chips, fx);
}

// shift_on_natural: one natural card takes the place of the run's wild standing
// for it; the wild moves to the end the player names and stays on the table.
void RummyBase::apply_shift_lay_off(int seat, const Json& action, Balances& chips, Effects& fx) {
  expect_only_fields(action, {"meld", "cards", "shift"});
  const auto index = int_field(action, "meld");
  if (index < 0 || index >= static_cast<std::int64_t>(table_.size()))
    throw illegal_action("no meld " + std::to_string(index) + " on the table");
  const auto cards = cards_from_hand(seat, action.value("cards", Json()), "cards");
  if (cards.size() != 1) throw illegal_action("a lay-off that moves a wild lays off exactly one natural card");
  const Card moved_to = card_field(action, "shift");
  auto& target = table_[index];
  auto check = shift_wild(target.meld, cards.front(), moved_to, config_.melds);
  if (!check) throw illegal_action(check.message + " (" + check.reason + ")");
  check_must_use(cards);
  check_may_keep(seat, cards);
  remove_from_hand(seat, cards);
  forget_upcard_if_played(cards);
  // Cards already on the run keep who placed them (the wild too); the natural is this seat's.
  std::vector<int> placed_by;
  std::vector<std::size_t> new_cards;
  std::vector<bool> used(target.meld.cards.size(), false);
  bool natural_placed = false;
  for (std::size_t i = 0; i < check.meld->cards.size(); ++i) {
    const auto& mc = check.meld->cards[i];
    int by = seat;
    if (!mc.wild && mc.card == cards.front() && !natural_placed) {
      natural_placed = true;
      new_cards.push_back(i);
    } else {
      for (std::size_t j = 0; j < target.meld.cards.size(); ++j)
        if (!used[j] && target.meld.cards[j].card == mc.card && target.meld.cards[j].wild == mc.wild) {
          used[j] = true;
          by = target.placed_by[j];
          break;
        }
    }
    placed_by.push_back(by);
  }
  target.meld = *check.meld;
  target.placed_by = placed_by;
  melded_this_deal_[seat] = true;
  ++plays_this_turn_;
  must_use_.reset();
  fx.say(seat_tag(seat) + " lays off " + to_string(cards.front()) + " on meld " + std::to_string(index) +
         " in the wild's place; the wild moves to stand for " + to_string(moved_to) + ".");
  on_meld_made(seat, target, new_cards, false);
  after_hand_change(seat, chips, fx);
}

void RummyBase::after_hand_change(int seat, Balances& chips, Effects& fx) {
  if (!hands_[seat].empty()) return;
  if (config_.cycle.on) return cycle_hand_emptied(seat, chips, fx);
  if (in_break_) {  // R-S6: the break goes on; an empty hand has nothing to discard
    fx.say(seat_tag(seat) + " has melded his whole hand.");
    resume_from_ = seat;
    return finish_turn(chips, fx);
  }
  const bool rummy = !melded_before_this_turn_[seat];
  fx.say(seat_tag(seat) + (rummy ? " goes rummy!" : " goes out."));
  end_deal({DealEnd::Kind::went_out, seat, rummy}, chips, fx);
}

void RummyBase::apply_discard(int seat, const Json& action, Balances& chips, Effects& fx) {
  expect_only_fields(action, {"card"});
  const Card card = card_field(action, "card");
  if (!holds(hands_[seat], card)) throw illegal_action(to_string(card) + " is not in your hand");
  const bool after_call = step_ == Step::call_discard;
  if (!after_call) {
    if (must_use_) throw illegal_action("first meld or lay off " + to_string(*must_use_) + ", the card you took");
    if (config_.discard.no_discard_taken_upcard && taken_upcard_ && *taken_upcard_ == card &&
        std::count(hands_[seat].begin(), hands_[seat].end(), card) == 1)
      throw illegal_action("you may not discard the upcard you just took");
    if (hands_[seat].size() == 1 && config_.discard.needs_earlier_meld && !melded_before_this_turn_[seat])
      throw illegal_action("you may not go out this turn: you have not melded on an earlier turn");
    check_break_discard(seat);
  }
  remove_from_hand(seat, {card});
  pile_.push_back(card);
  fx.say(seat_tag(seat) + " discards " + to_string(card) + ".");
  if (hands_[seat].empty() && !in_break_) {
    const bool rummy = !after_call && !melded_before_this_turn_[seat];
    fx.say(seat_tag(seat) + (rummy ? " goes rummy!" : " goes out."));
    return end_deal({DealEnd::Kind::went_out, seat, rummy}, chips, fx);
  }
  if (!after_call) resume_from_ = seat;
  caller_ = -1;
  if (config_.discard.call) {
    open_call_window(seat, fx);
    if (step_ == Step::call_window) return;
  }
  finish_turn(chips, fx);
}

// Play goes on from the left of the player whose turn it was, unless the stock
// rule ends the deal first.
void RummyBase::finish_turn(Balances& chips, Effects& fx) {
  if (config_.stock.end == StockEnd::end_deal && stock_.empty()) {
    fx.say("The stock is exhausted; the deal ends.");
    return end_deal({DealEnd::Kind::stock_exhausted, -1, false}, chips, fx);
  }
  if (in_break_) {
    if (--break_turns_left_ <= 0) {
      fx.say("The break is over: the unmatched cards are shown.");
      return end_deal({DealEnd::Kind::showdown, -1, false}, chips, fx);
    }
    turn_ = resume_from_;
    return next_turn(fx);
  }
  const bool at_players = static_cast<int>(stock_.size()) <= active_players();
  if (at_players && (config_.stock.end == StockEnd::break_at_players || config_.stock.end == StockEnd::end_at_players)) {
    turn_ = resume_from_;
    int next = turn_;
    do next = left_of(next);
    while (!in_play(next));
    breaker_ = next;
    if (config_.stock.end == StockEnd::end_at_players) {
      fx.say("The stock is down to the number of players; the deal ends.");
      return end_deal({DealEnd::Kind::showdown, -1, false}, chips, fx);
    }
    in_break_ = true;
    break_turns_left_ = active_players();
    fx.say("The break: " + seat_tag(breaker_) + " is the breaker.");
    return next_turn(fx);
  }
  if (config_.stock.end == StockEnd::reshuffle_except_top && stock_.empty() && !reshuffle_except_top(fx)) {
    fx.say("The stock is exhausted and may not be restocked; the deal is void.");
    return end_deal({DealEnd::Kind::no_winner, -1, false}, chips, fx);
  }
  turn_ = resume_from_;
  next_turn(fx);
  if (!stock_is_dead()) return;
  if (config_.stock.end == StockEnd::discard_only) return end_deal({DealEnd::Kind::block_showdown, -1, false}, chips, fx);
  fx.say("The stock is exhausted and may not be turned again; the deal ends with no winner.");
  end_deal({DealEnd::Kind::no_winner, -1, false}, chips, fx);
}

// The melds of a whole-hand action (go_rummy, go_down), each valid and made of
// cards from `hand`, which keeps what is left over.
std::vector<Meld> RummyBase::melds_from_hand(const Json& action, const std::string& what,
                                             std::vector<Card>& hand) const {
  const auto& melds = action.value("melds", Json());
  if (!melds.is_array() || melds.empty()) throw illegal_action(what + " needs \"melds\": an array of melds");
  std::vector<Meld> made;
  for (const auto& list : melds) {
    const auto spec = read_meld_spec(list, config_.melds, what);
    for (auto c : spec.cards) {
      auto it = std::find(hand.begin(), hand.end(), c);
      if (it == hand.end()) throw illegal_action(to_string(c) + " is not in your hand (or is used twice)");
      hand.erase(it);
    }
    auto check = validate_meld(spec.cards, config_.melds, spec.declared);
    if (!check) throw illegal_action(check.message + " (" + check.reason + ")");
    made.push_back(*check.meld);
  }
  return made;
}

// New melds go on the table whole, each card placed by `seat`.
void RummyBase::put_down(int seat, std::vector<Meld> made) {
  for (auto& meld : made) {
    meld.owner = seat;
    table_.push_back({meld, std::vector<int>(meld.cards.size(), seat), true});
    std::vector<std::size_t> all(meld.cards.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    on_meld_made(seat, table_.back(), all, true);
  }
}

void RummyBase::apply_go_rummy(int seat, const Json& action, Balances& chips, Effects& fx) {
  if (config_.melding.go_down) throw illegal_action("here you meld only by going down (go_down) before you draw");
  if (in_break_) throw illegal_action("in the break, meld and lay off one meld at a time");
  expect_only_fields(action, {"melds", "discard"});
  auto hand = hands_[seat];
  auto made = melds_from_hand(action, "go_rummy", hand);
  std::optional<Card> discard;
  if (action.contains("discard")) {
    discard = card_field(action, "discard");
    auto it = std::find(hand.begin(), hand.end(), *discard);
    if (it == hand.end()) throw illegal_action(to_string(*discard) + " is not left in your hand to discard");
    hand.erase(it);
  }
  if (!hand.empty()) throw illegal_action("going rummy melds the whole hand (a discard at most): " +
                                          std::to_string(hand.size()) + " cards are left over");
  if (config_.discard.final_discard_required && !discard) throw illegal_action("going rummy ends with a discard here");
  if (must_use_) check_must_use(hands_[seat]);
  if (discard && config_.discard.no_discard_taken_upcard && taken_upcard_ && *taken_upcard_ == *discard &&
      std::count(hands_[seat].begin(), hands_[seat].end(), *discard) == 1)
    throw illegal_action("you may not discard the upcard you just took");
  hands_[seat].clear();
  fx.say(seat_tag(seat) + " goes rummy with " + melds_text(made) +
         (discard ? ", discarding " + to_string(*discard) : std::string()) + "!");
  put_down(seat, made);
  if (discard) pile_.push_back(*discard);
  melded_this_deal_[seat] = true;
  end_deal({DealEnd::Kind::went_out, seat, true}, chips, fx);
}

// Java, Rummy Poker: at the start of a turn, before drawing, the whole hand goes
// down at once, or all of it but one card shown that counts go_down_shown_max or
// less. The shown card stays in the hand (the game scores it); the deal ends with
// no draw and no discard.
void RummyBase::apply_go_down(int seat, const Json& action, Balances& chips, Effects& fx) {
  if (!config_.melding.go_down) throw illegal_action("there is no going down in this game");
  if (step_ != Step::draw || drawn_this_turn_ > 0)
    throw illegal_action("go down only at the start of your turn, before you draw");
  expect_only_fields(action, {"melds", "shown"});
  auto hand = hands_[seat];
  auto made = melds_from_hand(action, "go_down", hand);
  std::optional<Card> shown;
  if (action.contains("shown")) {
    if (config_.melding.go_down_shown_max < 0) throw illegal_action("go down with your whole hand: no card may be kept back");
    shown = card_field(action, "shown");
    auto it = std::find(hand.begin(), hand.end(), *shown);
    if (it == hand.end()) throw illegal_action(to_string(*shown) + " is not left in your hand to show");
    const int value = config_.values.in_hand(*shown);
    if (value > config_.melding.go_down_shown_max)
      throw illegal_action("the card you keep back must count " + std::to_string(config_.melding.go_down_shown_max) +
                           " or less; " + to_string(*shown) + " counts " + std::to_string(value));
    hand.erase(it);
  }
  if (!hand.empty())
    throw illegal_action("going down melds the whole hand" +
                         std::string(config_.melding.go_down_shown_max >= 0 ? ", or all but one card shown (\"shown\")" : "") +
                         ": " + std::to_string(hand.size()) + " cards are left over");
  hands_[seat].clear();
  if (shown) hands_[seat].push_back(*shown);
  fx.say(seat_tag(seat) + " goes down: " + melds_text(made) +
         (shown ? ", showing " + to_string(*shown) : std::string(" (rummy)")) + ".");
  put_down(seat, made);
  melded_this_deal_[seat] = true;
  end_deal({DealEnd::Kind::went_out, seat, !shown}, chips, fx);
}

// A whole new table in one action; each entry of "melds" is a list of cards, a
// wild written as "JK=8H" to say what it stands for.
void RummyBase::apply_layout(int seat, const Json& action, Balances& chips, Effects& fx) {
  if (!config_.melding.rearrange) throw illegal_action("this game does not let players rearrange the table");
  expect_only_fields(action, {"melds"});
  const auto& melds = action.value("melds", Json());
  if (!melds.is_array() || melds.empty()) throw illegal_action("layout needs \"melds\": the whole new table");
  std::vector<MeldSpec> specs;
  for (const auto& list : melds) specs.push_back(read_meld_spec(list, config_.melds, "layout"));
  std::vector<Meld> old_table;
  for (const auto& tm : table_) old_table.push_back(tm.meld);
  auto check = validate_layout(old_table, specs, hands_[seat], config_.melds);
  if (!check) throw illegal_action(check.message + " (" + check.reason + ")");
  check_must_use(check.from_hand);
  check_may_keep(seat, check.from_hand);
  // Cards that were on the table keep who placed them; the rest are this seat's.
  std::vector<std::pair<MeldCard, int>> placed;
  for (const auto& tm : table_)
    for (std::size_t i = 0; i < tm.meld.cards.size(); ++i) placed.emplace_back(tm.meld.cards[i], tm.placed_by[i]);
  std::vector<TableMeld> table;
  for (auto meld : check.melds) {
    TableMeld tm{meld, {}, false};
    for (const auto& mc : meld.cards) {
      auto it = std::find_if(placed.begin(), placed.end(), [&](const auto& p) { return p.first.card == mc.card; });
      if (it != placed.end()) {
        tm.placed_by.push_back(it->second);
        placed.erase(it);
      } else {
        tm.placed_by.push_back(seat);
      }
    }
    tm.meld.owner = seat;
    table.push_back(std::move(tm));
  }
  remove_from_hand(seat, check.from_hand);
  forget_upcard_if_played(check.from_hand);
  table_ = std::move(table);
  melded_this_deal_[seat] = true;
  ++plays_this_turn_;
  must_use_.reset();
  fx.say(seat_tag(seat) + " lays out the table anew with " + std::to_string(check.from_hand.size()) +
         " cards from hand.");
  after_hand_change(seat, chips, fx);
}

// ------------------------------------------------------------------ call

void RummyBase::open_call_window(int discarder, Effects& fx) {
  const Card card = pile_.back();
  bool fits = false;
  for (const auto& tm : table_)
    if (lays_off(tm.meld, card, config_.melds)) fits = true;
  if (!fits) return;
  discarder_ = discarder;
  call_order_.clear();
  for (int i = 1; i < players(); ++i) {
    const int seat = (discarder + i) % players();
    if (in_play(seat)) call_order_.push_back(seat);
  }
  call_answer_.assign(call_order_.size(), 0);
  call_meld_.assign(call_order_.size(), -1);
  step_ = Step::call_window;
  fx.say(to_string(card) + " could be laid off: the others may call \"Rummy!\".");
}

void RummyBase::apply_call(int seat, const Json& action, Balances& chips, Effects& fx) {
  expect_only_fields(action, {"meld"});
  const auto index = int_field(action, "meld");
  if (index < 0 || index >= static_cast<std::int64_t>(table_.size()))
    throw illegal_action("no meld " + std::to_string(index) + " on the table");
  if (!extend_meld(table_[index].meld, {pile_.back()}, config_.melds))
    throw illegal_action(to_string(pile_.back()) + " does not lay off on meld " + std::to_string(index));
  const auto pos = std::find(call_order_.begin(), call_order_.end(), seat) - call_order_.begin();
  call_answer_[pos] = 1;
  call_meld_[pos] = static_cast<int>(index);
  fx.say(seat_tag(seat) + " calls \"Rummy!\"");
  resolve_call_window(chips, fx);
}

void RummyBase::apply_pass(int seat, Balances& chips, Effects& fx) {
  const auto pos = std::find(call_order_.begin(), call_order_.end(), seat) - call_order_.begin();
  call_answer_[pos] = -1;
  resolve_call_window(chips, fx);
}

// The caller nearest the discarder's left wins once everyone nearer has passed.
void RummyBase::resolve_call_window(Balances& chips, Effects& fx) {
  for (std::size_t i = 0; i < call_order_.size(); ++i) {
    if (call_answer_[i] == 0) return;  // someone nearer may still call
    if (call_answer_[i] == -1) continue;
    const int caller = call_order_[i];
    const Card card = pile_.back();
    pile_.pop_back();
    auto& target = table_[call_meld_[i]];
    auto extended = *extend_meld(target.meld, {card}, config_.melds).meld;
    std::vector<int> placed_by;
    std::vector<bool> used(target.meld.cards.size(), false);
    for (const auto& mc : extended.cards) {
      int by = caller;
      for (std::size_t j = 0; j < target.meld.cards.size(); ++j)
        if (!used[j] && target.meld.cards[j] == mc) {
          used[j] = true;
          by = target.placed_by[j];
          break;
        }
      placed_by.push_back(by);
    }
    target.meld = extended;
    target.placed_by = placed_by;
    fx.say(seat_tag(caller) + " lays off " + to_string(card) + " and must discard.");
    caller_ = caller;
    step_ = Step::call_discard;
    return;
  }
  // Everyone passed: play goes on in order.
  finish_turn(chips, fx);
}

void RummyBase::apply_decline(int seat, Balances& chips, Effects& fx) {
  if (!stock_gone_) throw illegal_action("you may decline the upcard only once the stock is gone (Block)");
  fx.say(seat_tag(seat) + " declines the upcard; play ends.");
  end_deal({DealEnd::Kind::block_showdown, -1, false}, chips, fx);
}

// ------------------------------------------------------------------ deal end

void RummyBase::end_deal(const DealEnd& given, Balances& chips, Effects& fx) {
  DealEnd end = given;
  if (end.winner >= 0) end.first_turn = turns_taken_[end.winner] == 1;
  end.after_break = in_break_;
  end.breaker = breaker_;
  Json summary = Json::object();
  summary["chips"] = std::vector<std::int64_t>(players(), 0);
  summary["points"] = std::vector<std::int64_t>(players(), 0);
  settle_deal(end, chips, fx, summary);
  const Json& points = summary.contains("deal_points") ? summary["deal_points"] : summary["points"];
  Json hands = Json::array();
  Json seats = Json::array();
  for (int s = 0; s < players(); ++s) {
    hands.push_back({{"seat", s}, {"cards", card_list(hands_[s])}, {"value", hand_count(s)}});
    seats.push_back({{"seat", s}, {"points", points[s]}, {"chips", summary["chips"][s]}});
  }
  const char* how = end.kind == DealEnd::Kind::went_out      ? "went_out"
                    : end.kind == DealEnd::Kind::block_showdown ? "showdown"
                    : end.kind == DealEnd::Kind::stock_exhausted ? "stock_exhausted"
                    : end.kind == DealEnd::Kind::showdown
                        ? (config_.stock.end == StockEnd::end_at_players ? "stock_ran_down" : "break")
                    : end.kind == DealEnd::Kind::knock           ? "knock"
                                                               : "no_winner";
  result_ = {{"deal", deals_}, {"dealer", dealer_}, {"end", how}, {"hands", hands}, {"melds", table_view()},
             {"seats", seats}};
  if (end.winner >= 0) {
    result_["winner"] = end.winner;
    result_["rummy"] = end.rummy;
  }
  if (end.breaker >= 0) result_["breaker"] = end.breaker;
  if (end.knocker >= 0) result_["knocker"] = end.knocker;
  for (auto& [key, value] : summary.items())
    if (key != "chips" && key != "points" && key != "deal_points") result_[key] = value;
  if (config_.scoring.running_scores) result_["scores"] = scores_;
  step_ = game_finished() ? Step::game_over : Step::deal_over;
  fx.say("Deal " + std::to_string(deals_) + " is over.");
}

bool RummyBase::game_finished() const { return deals_ >= config_.scoring.deals; }

void RummyBase::on_meld_made(int, const TableMeld&, const std::vector<std::size_t>&, bool) {}

void RummyBase::pay(int from, int to, std::int64_t amount, const std::string& memo, Balances& chips, Effects& fx,
                    Json& summary) {
  if (amount <= 0 || from == to) return;
  const std::int64_t paid = std::min(amount, std::max<std::int64_t>(chips[from], 0));
  if (paid > 0) {
    fx.move(Account::of_seat(from), Account::of_seat(to), paid, memo);
    chips[from] -= paid;
    chips[to] += paid;
    summary["chips"][from] = summary["chips"][from].get<std::int64_t>() - paid;
    summary["chips"][to] = summary["chips"][to].get<std::int64_t>() + paid;
    fx.say(seat_tag(from) + " pays " + seat_tag(to) + " " + std::to_string(paid) + ".");
  }
  if (paid < amount) {
    if (!summary.contains("unpaid")) summary["unpaid"] = Json::array();
    summary["unpaid"].push_back({{"from", from}, {"to", to}, {"amount", amount - paid}});
    fx.say(seat_tag(from) + " cannot cover " + std::to_string(amount - paid) + " of it.");
  }
}

std::int64_t RummyBase::pay_into_pool(int from, const std::string& pool, std::int64_t amount, const std::string& memo,
                                      Balances& chips, Effects& fx, Json& summary) {
  if (amount <= 0) return 0;
  const std::int64_t paid = std::min(amount, std::max<std::int64_t>(chips[from], 0));
  if (paid > 0) {
    fx.move(Account::of_seat(from), Account::of_pool(pool), paid, memo);
    chips[from] -= paid;
    summary["chips"][from] = summary["chips"][from].get<std::int64_t>() - paid;
    fx.say(seat_tag(from) + " puts " + std::to_string(paid) + " into the " + pool + ".");
  }
  if (paid < amount) {
    if (!summary.contains("unpaid")) summary["unpaid"] = Json::array();
    summary["unpaid"].push_back({{"from", from}, {"to", pool}, {"amount", amount - paid}});
    fx.say(seat_tag(from) + " cannot cover " + std::to_string(amount - paid) + " of it.");
  }
  return paid;
}

// ------------------------------------------------------------------ leaving

Effects RummyBase::seat_left(int seat, const Balances&) {
  Effects fx;
  if (left_[seat]) return fx;
  const bool was_playing = in_play(seat);
  left_[seat] = true;
  fx.say(seat_tag(seat) + " leaves the table.");
  const int remaining = active_players();
  if (was_playing && step_ != Step::deal_over && step_ != Step::game_over) {
    // A hand cannot be played out without its player: the deal is abandoned, no chips move.
    fx.say("The deal is abandoned.");
    result_ = {{"deal", deals_}, {"dealer", dealer_}, {"end", "abandoned"}};
    step_ = Step::deal_over;
  }
  if (remaining < 2) {
    step_ = Step::game_over;
    fx.say("Too few players remain; the game is over.");
  }
  return fx;
}

Effects RummyBase::close(const Balances&) {
  step_ = Step::game_over;
  return {};
}

// ------------------------------------------------------------------ legal

Json RummyBase::legal_actions(int seat, const Balances&) const {
  Json legal = Json::array();
  const auto acting = to_act();
  if (std::find(acting.begin(), acting.end(), seat) == acting.end()) return legal;
  if (config_.cycle.on) {
    list_draw_meld_cycle(seat, legal);
    return legal;
  }
  switch (step_) {
    case Step::draw:
      list_draws(seat, legal);
      if (config_.melding.go_down) list_go_down(seat, legal);
      break;
    case Step::play: list_plays(seat, legal); break;
    case Step::call_window: {
      legal.push_back({{"type", "pass"}});
      for (std::size_t i = 0; i < table_.size(); ++i)
        if (lays_off(table_[i].meld, pile_.back(), config_.melds)) legal.push_back({{"type", "call"}, {"meld", i}});
      break;
    }
    case Step::call_discard:
      for (auto c : distinct(hands_[seat])) legal.push_back({{"type", "discard"}, {"card", to_string(c)}});
      break;
    default: break;
  }
  return legal;
}

void RummyBase::list_draws(int seat, Json& legal) const {
  if (stock_gone_) {
    if (!pile_.empty()) legal.push_back({{"type", "draw"}, {"from", "discard"}});
    legal.push_back({{"type", "decline"}});
    return;
  }
  if (config_.draw.upcard_then_one_more) {
    if (!stock_.empty()) legal.push_back({{"type", "draw"}, {"from", "stock"}});
    if (!pile_.empty() && (drawn_this_turn_ > 0 || !stock_.empty() || pile_.size() >= 2))
      legal.push_back({{"type", "draw"}, {"from", "discard"}});
    return;
  }
  const bool can_restock = config_.stock.end == StockEnd::turn_over && !pile_.empty();
  if (!stock_.empty() || can_restock) legal.push_back({{"type", "draw"}, {"from", "stock"}});
  if (config_.draw.spread_pile) {
    for (std::size_t depth = 0; depth < pile_.size(); ++depth)
      if (usable_take(seat, depth, config_.draw.must_use_taken && !(depth == 0 && config_.draw.top_card_free)))
        legal.push_back({{"type", "take"}, {"depth", depth}, {"card", to_string(pile_[pile_.size() - 1 - depth])}});
    if (config_.draw.take_whole_pile && !pile_.empty() && whole_pile_takes_ < whole_pile_takes_max())
      legal.push_back({{"type", "take_all"}});
    return;
  }
  const bool upcard_ok = !pile_.empty() && (!config_.draw.boathouse || !stock_.empty() || upcard_restocks_pair()) &&
                        (!in_break_ || usable_take(seat, 0, true));
  if (upcard_ok) legal.push_back({{"type", "draw"}, {"from", "discard"}});
  if (config_.draw.boathouse_two_discards && pile_.size() >= 2) legal.push_back({{"type", "draw"}, {"from", "two_discards"}});
}

void RummyBase::list_plays(int seat, Json& legal) const {
  const auto& hand = hands_[seat];
  const bool may_go_out = !config_.discard.needs_earlier_meld || melded_before_this_turn_[seat];
  auto may_leave = [&](const std::vector<Card>& played) {
    return why_not_keep(seat, hand_without(seat, played), played).empty();
  };
  const bool may_play = config_.melding.max_plays_per_turn == 0 || plays_this_turn_ < config_.melding.max_plays_per_turn;
  if (config_.melding.rummy_only && !in_break_) {
    if (!config_.melding.go_down) list_go_rummy(seat, legal);
  } else if (may_play) {
    for (const auto& meld : candidate_melds(hand, config_.melds)) {
      if (must_use_ && !holds(meld, *must_use_)) continue;
      if (config_.melding.meld_cards_exact > 0 && static_cast<int>(meld.size()) != config_.melding.meld_cards_exact) continue;
      if (!may_leave(meld)) continue;
      legal.push_back({{"type", "meld"}, {"cards", card_list(meld)}});
    }
    // The cards that may be laid off alone, worked out once for every meld.
    std::vector<Card> singles;
    for (auto c : distinct(hand))
      if ((!must_use_ || c == *must_use_) && may_leave({c})) singles.push_back(c);
    list_lay_offs(singles, legal);
    if (config_.melding.shift_on_natural) list_shift_lay_offs(singles, legal);
  }
  if (must_use_) return;
  if (in_break_ && !candidate_melds(hand, config_.melds).empty()) return;  // R-S2: meld first
  for (auto c : distinct(hand)) {
    if (config_.discard.no_discard_taken_upcard && taken_upcard_ && *taken_upcard_ == c &&
        std::count(hand.begin(), hand.end(), c) == 1)
      continue;
    if (hand.size() == 1 && !may_go_out) continue;
    legal.push_back({{"type", "discard"}, {"card", to_string(c)}});
  }
}

// One canonical arrangement per possible discard (rules/rummy.md G6).
// One canonical arrangement for the whole hand, and one per card that may be
// shown, wilds written with what they stand for (rules/rummy.md G6).
void RummyBase::list_go_down(int seat, Json& legal) const {
  const auto& hand = hands_[seat];
  auto listing = [&](const std::vector<Card>& cards, std::optional<Card> shown) {
    const CardValues ones{1, 1, 1, 1, 1};
    auto best = best_arrangement(cards, config_.melds, ones);
    if (!best.deadwood.empty() || best.melds.empty()) return;
    for (const auto& arrangement : arrangements_by_worth(best.melds)) {
      Json melds = Json::array();
      for (const auto& m : arrangement) {
        // Every wild declared (a deuce standing as itself too), so the listing applies as written.
        Json list = Json::array();
        for (const auto& mc : m.cards)
          list.push_back(is_wild(mc.card, config_.melds) ? to_string(mc.card) + "=" + to_string(mc.as)
                                                         : to_string(mc.card));
        melds.push_back(list);
      }
      Json action = {{"type", "go_down"}, {"melds", melds}};
      if (shown) action["shown"] = to_string(*shown);
      legal.push_back(action);
    }
  };
  // Keeping one card back leaves at most one fewer unmatched card: a hand whose
  // best arrangement leaves two or more cannot go down at all.
  const CardValues ones{1, 1, 1, 1, 1};
  const auto unmatched = best_arrangement(hand, config_.melds, ones).deadwood.size();
  if (unmatched == 0) listing(hand, std::nullopt);
  if (config_.melding.go_down_shown_max < 0 || unmatched > 1) return;
  for (auto c : distinct(hand)) {
    if (config_.values.in_hand(c) > config_.melding.go_down_shown_max) continue;
    auto rest = hand;
    rest.erase(std::find(rest.begin(), rest.end(), c));
    if (!rest.empty()) listing(rest, c);
  }
}

void RummyBase::list_go_rummy(int seat, Json& legal) const {
  const auto& hand = hands_[seat];
  auto listing = [&](const std::vector<Card>& cards, std::optional<Card> discard) {
    const CardValues ones{1, 1, 1, 1, 1};
    auto best = best_arrangement(cards, config_.melds, ones);
    if (!best.deadwood.empty()) return;
    for (const auto& arrangement : arrangements_by_worth(best.melds)) {
      Json melds = Json::array();
      for (const auto& m : arrangement) {
        // A wild as "JK=8H"; plain cards when a wild-capable card stands as itself
        // (a natural deuce), since declarations cover every wild of a meld or none.
        const bool declarable = std::none_of(m.cards.begin(), m.cards.end(), [&](const MeldCard& mc) {
          return !mc.wild && is_wild(mc.card, config_.melds);
        });
        Json list = Json::array();
        for (const auto& mc : m.cards) list.push_back(to_string(mc.card));
        melds.push_back(declarable ? Json(meld_strings(m)) : list);
      }
      Json action = {{"type", "go_rummy"}, {"melds", melds}};
      if (discard) action["discard"] = to_string(*discard);
      legal.push_back(action);
    }
  };
  if (cards_in_no_meld(hand, config_.melds) > 1) return;  // quick exit: no arrangement can leave only one out
  if (!config_.discard.final_discard_required) listing(hand, std::nullopt);
  for (auto c : distinct(hand)) {
    if (config_.discard.no_discard_taken_upcard && taken_upcard_ && *taken_upcard_ == c &&
        std::count(hand.begin(), hand.end(), c) == 1)
      continue;
    auto rest = hand;
    rest.erase(std::find(rest.begin(), rest.end(), c));
    if (!rest.empty()) listing(rest, c);
  }
}

std::vector<std::vector<Meld>> RummyBase::arrangements_by_worth(const std::vector<Meld>& melds) const {
  std::vector<std::vector<Meld>> variants;
  std::size_t combinations = 1;
  for (const auto& meld : melds) {
    variants.push_back(declaration_variants(meld, config_.melds));
    combinations *= variants.back().size();
  }
  std::vector<std::vector<Meld>> out{melds};
  if (combinations <= 1 || combinations > 2000) return out;
  std::vector<int> worths{arrangement_worth(melds)};
  std::vector<std::size_t> pick(melds.size(), 0);
  for (std::size_t n = 1; n < combinations; ++n) {
    for (std::size_t i = 0; i < pick.size() && ++pick[i] == variants[i].size(); ++i) pick[i] = 0;  // the next pick
    std::vector<Meld> arrangement;
    for (std::size_t i = 0; i < pick.size(); ++i) arrangement.push_back(variants[i][pick[i]]);
    const int worth = arrangement_worth(arrangement);
    if (std::find(worths.begin(), worths.end(), worth) != worths.end()) continue;
    worths.push_back(worth);
    out.push_back(std::move(arrangement));
  }
  return out;
}

// Each single card laid off on each table meld it fits; a wild once for each card
// it may stand for there (each end of a run), since where it goes decides what
// may be laid off or moved later.
void RummyBase::list_lay_offs(const std::vector<Card>& singles, Json& legal) const {
  for (std::size_t i = 0; i < table_.size(); ++i)
    for (auto c : singles) {
      if (!lays_off(table_[i].meld, c, config_.melds)) continue;
      if (!is_wild(c, config_.melds) || table_[i].meld.kind != MeldKind::run) {
        legal.push_back({{"type", "lay_off"}, {"meld", i}, {"cards", {to_string(c)}}});
        continue;
      }
      const Suit suit = table_[i].meld.cards.front().as.suit;
      for (std::uint8_t rank = ace; rank <= king; ++rank) {
        const Card as{rank, suit};
        if (extend_meld(table_[i].meld, {c}, config_.melds, {as}))
          legal.push_back({{"type", "lay_off"}, {"meld", i}, {"cards", {to_string(c)}}, {"wilds", {to_string(as)}}});
      }
    }
}

// shift_on_natural: each natural card that takes a run wild's place, once per end
// the wild may move to.
void RummyBase::list_shift_lay_offs(const std::vector<Card>& singles, Json& legal) const {
  for (std::size_t i = 0; i < table_.size(); ++i)
    for (auto c : singles)
      for (auto end : shift_choices(table_[i].meld, c, config_.melds))
        legal.push_back({{"type", "lay_off"}, {"meld", i}, {"cards", {to_string(c)}}, {"shift", to_string(end)}});
}

// ------------------------------------------------------------------ view

Json RummyBase::seat_view(int seat, std::optional<int> viewer) const {
  Json cards = Json::array();
  if (viewer == seat) cards = card_list(hands_[seat]);
  else
    for (std::size_t i = 0; i < hands_[seat].size(); ++i) cards.push_back("??");
  return {{"seat", seat}, {"cards", cards}, {"count", hands_[seat].size()}, {"melded", melded_this_deal_[seat]},
          {"left", left_[seat]}};
}

// The melds on the table, every card face up: [{"meld","owner","cards"}].
Json RummyBase::table_view() const {
  Json table = Json::array();
  for (std::size_t i = 0; i < table_.size(); ++i)
    table.push_back({{"meld", i}, {"owner", table_[i].meld.owner}, {"cards", meld_strings(table_[i].meld)}});
  return table;
}

Json RummyBase::view(std::optional<int> viewer) const {
  Json table = table_view();
  Json hands = Json::array();
  for (int s = 0; s < players(); ++s) hands.push_back(seat_view(s, viewer));
  Json view = {{"deal", deals_},
               {"dealer", dealer_},
               {"phase", step_name(static_cast<int>(step_))},
               {"turn", turn_},
               {"stock", stock_.size()},
               {"table", table},
               {"hands", hands}};
  if (config_.scoring.running_scores) view["scores"] = scores_;
  if (config_.draw.spread_pile) view["pile"] = card_list(pile_);
  else {
    view["upcard"] = pile_.empty() ? Json() : Json(to_string(pile_.back()));
    view["pile_size"] = pile_.size();
  }
  if (must_use_) view["must_use"] = to_string(*must_use_);
  if (config_.draw.upcard_then_one_more && step_ == Step::draw && drawn_this_turn_ == 1) view["one_more_draw"] = true;
  if (stock_gone_) view["stock_gone"] = true;
  if (step_ == Step::call_window) view["call"] = {{"discarder", discarder_}, {"card", to_string(pile_.back())}};
  if (in_break_) view["break"] = {{"breaker", breaker_}, {"turns_left", break_turns_left_}};
  if (config_.cycle.on) cycle_view(view);
  const Json extra = extra_view();
  for (const auto& [key, value] : extra.items()) view[key] = value;
  return view;
}

// ------------------------------------------------------------------ options

std::vector<OptionSpec> common_rummy_options() {
  return {
      {"stake", OptionSpec::Type::integer, 1, {}, 1, 1000, "Chips per point (or per unit)."},
      {"deals", OptionSpec::Type::integer, 0, {}, 0, 50,
       "Deals to play (0: one round, each player dealing once)."},
  };
}

}  // namespace parlour::rules::rummy
