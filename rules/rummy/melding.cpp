// Melding and laying off (rules/rummy.md §1.2–1.3, §1.7): a meld from the hand,
// cards laid off on a table meld, a natural card taking a run wild's place
// (shift_on_natural); the checks every play shares (the card taken must be used,
// the hand must be able to end the turn, layout.cpp's too), and the listing of each.
#include "rules/rummy/rummy_base.h"

#include <algorithm>

#include "rules/action.h"
#include "rules/rummy/card_lists.h"
#include "rules/view.h"

namespace parlour::rules::rummy {

// ------------------------------------------------------------------ checks

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

void RummyBase::play_from_hand(int seat, const std::vector<Card>& cards) {
  check_must_use(cards);
  check_may_keep(seat, cards);
  remove_from_hand(seat, cards);
  forget_upcard_if_played(cards);
}

// ------------------------------------------------------------------ apply

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
  play_from_hand(seat, cards);
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
  play_from_hand(seat, cards);
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
  play_from_hand(seat, cards);
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

void RummyBase::on_meld_made(int, const TableMeld&, const std::vector<std::size_t>&, bool) {}

// ------------------------------------------------------------------ legal

namespace {

// {"type":"lay_off","meld":M,"cards":[C]}, with the members `more` writes.
template <class More>
void list_lay_off(JsonWriter& legal, std::size_t meld, Card card, More&& more) {
  legal.object([&] {
    legal.field("type", "lay_off");
    legal.field("meld", meld);
    legal.array_field("cards", [&] { legal.string(to_string(card)); });
    more();
  });
}

}  // namespace

// The melds and lay-offs the hand may make now (play_legal_actions).
void RummyBase::list_melds_and_lay_offs(int seat, JsonWriter& legal) const {
  const auto& hand = hands_[seat];
  auto may_leave = [&](const std::vector<Card>& played) {
    return why_not_keep(seat, hand_without(seat, played), played).empty();
  };
  const bool may_play = config_.melding.max_plays_per_turn == 0 || plays_this_turn_ < config_.melding.max_plays_per_turn;
  if (!may_play) return;
  for (const auto& meld : candidate_melds(hand, config_.melds)) {
    if (must_use_ && !holds(meld, *must_use_)) continue;
    if (config_.melding.meld_cards_exact > 0 && static_cast<int>(meld.size()) != config_.melding.meld_cards_exact) continue;
    if (!may_leave(meld)) continue;
    legal.object([&] {
      legal.field("type", "meld");
      legal.key("cards");
      view::cards(legal, meld);
    });
  }
  // The cards that may be laid off alone, worked out once for every meld.
  std::vector<Card> singles;
  for (auto c : distinct(hand))
    if ((!must_use_ || c == *must_use_) && may_leave({c})) singles.push_back(c);
  list_lay_offs(singles, legal);
  if (config_.melding.shift_on_natural) list_shift_lay_offs(singles, legal);
}

// Each single card laid off on each table meld it fits; a wild once for each card
// it may stand for there (each end of a run), since where it goes decides what
// may be laid off or moved later.
void RummyBase::list_lay_offs(const std::vector<Card>& singles, JsonWriter& legal) const {
  for (std::size_t i = 0; i < table_.size(); ++i)
    for (auto c : singles) {
      if (!lays_off(table_[i].meld, c, config_.melds)) continue;
      if (!is_wild(c, config_.melds) || table_[i].meld.kind != MeldKind::run) {
        list_lay_off(legal, i, c, [] {});
        continue;
      }
      const Suit suit = table_[i].meld.cards.front().as.suit;
      for (std::uint8_t rank = ace; rank <= king; ++rank) {
        const Card as{rank, suit};
        if (extend_meld(table_[i].meld, {c}, config_.melds, {as}))
          list_lay_off(legal, i, c, [&] { legal.array_field("wilds", [&] { legal.string(to_string(as)); }); });
      }
    }
}

// shift_on_natural: each natural card that takes a run wild's place, once per end
// the wild may move to.
void RummyBase::list_shift_lay_offs(const std::vector<Card>& singles, JsonWriter& legal) const {
  for (std::size_t i = 0; i < table_.size(); ++i)
    for (auto c : singles)
      for (auto end : shift_choices(table_[i].meld, c, config_.melds))
        list_lay_off(legal, i, c, [&] { legal.field("shift", to_string(end)); });
}

}  // namespace parlour::rules::rummy
