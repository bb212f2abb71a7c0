// Discarding and going out (rules/rummy.md §1.7–1.8): the discard that ends a
// turn (and may empty the hand), going rummy with the whole hand at once, going
// down before the draw (Java, Rummy Poker), and a hand emptied by melding.
#include "rules/rummy/rummy_base.h"

#include <algorithm>

#include "rules/action.h"
#include "rules/rummy/card_lists.h"

namespace parlour::rules::rummy {

// ------------------------------------------------------------------ apply

// The break (R-S2): every meld goes down before the discard, so the hand may
// hold no complete meld when the player discards.
void RummyBase::check_break_discard(int seat) const {
  if (in_break_ && !candidate_melds(hands_[seat], config_.melds).empty())
    throw illegal_action("in the break, put down all your melds before you discard");
}

void RummyBase::apply_discard(int seat, const Json& action, Balances& chips, Effects& fx) {
  expect_only_fields(action, {"card"});
  const Card card = card_field(action, "card");
  if (!holds(hands_[seat], card)) throw illegal_action(to_string(card) + " is not in your hand");
  const bool after_call = stage_ == Stage::call_discard;
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
    if (stage_ == Stage::call_window) return;
  }
  finish_turn(chips, fx);
}

void RummyBase::after_hand_change(int seat, Balances& chips, Effects& fx) {
  if (hands_[seat].empty()) on_hand_emptied(seat, chips, fx);
}

void RummyBase::on_hand_emptied(int seat, Balances& chips, Effects& fx) {
  if (in_break_) {  // R-S6: the break goes on; an empty hand has nothing to discard
    fx.say(seat_tag(seat) + " has melded his whole hand.");
    resume_from_ = seat;
    return finish_turn(chips, fx);
  }
  const bool rummy = !melded_before_this_turn_[seat];
  fx.say(seat_tag(seat) + (rummy ? " goes rummy!" : " goes out."));
  end_deal({DealEnd::Kind::went_out, seat, rummy}, chips, fx);
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
  if (stage_ != Stage::draw || drawn_this_turn_ > 0)
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

// ------------------------------------------------------------------ legal

// The discards that may end the turn (play_legal_actions): none while a card
// taken must still be melded, or in the break while the hand holds a meld.
void RummyBase::list_discards(int seat, JsonWriter& legal) const {
  const auto& hand = hands_[seat];
  const bool may_go_out = !config_.discard.needs_earlier_meld || melded_before_this_turn_[seat];
  if (must_use_) return;
  if (in_break_ && !candidate_melds(hand, config_.melds).empty()) return;  // R-S2: meld first
  for (auto c : distinct(hand)) {
    if (config_.discard.no_discard_taken_upcard && taken_upcard_ && *taken_upcard_ == c &&
        std::count(hand.begin(), hand.end(), c) == 1)
      continue;
    if (hand.size() == 1 && !may_go_out) continue;
    write_card_action(legal, "discard", c);
  }
}

// One canonical arrangement for the whole hand, and one per card that may be
// shown, wilds written with what they stand for (rules/rummy.md G6).
void RummyBase::list_go_down(int seat, JsonWriter& legal) const {
  const auto& hand = hands_[seat];
  auto listing = [&](const std::vector<Card>& cards, std::optional<Card> shown) {
    const auto whole = meld_every_card(cards, config_.melds);
    if (!whole || whole->melds.empty()) return;
    list_arrangements(legal, "go_down", whole->melds, &RummyBase::write_go_down_meld, "shown", shown);
  };
  listing(hand, std::nullopt);
  // Keeping one card back, the rest must meld whole: two cards that fit no meld
  // rule that out, and so does a hand that cannot meld all but one card.
  if (config_.melding.go_down_shown_max < 0 || cards_in_no_meld(hand, config_.melds) > 1) return;
  if (!melds_all_but(hand, config_.melds, 1)) return;
  for (auto c : distinct(hand)) {
    if (config_.values.in_hand(c) > config_.melding.go_down_shown_max) continue;
    auto rest = hand;
    rest.erase(std::find(rest.begin(), rest.end(), c));
    if (!rest.empty()) listing(rest, c);
  }
}

// One canonical arrangement per possible discard (rules/rummy.md G6).
void RummyBase::list_go_rummy(int seat, JsonWriter& legal) const {
  const auto& hand = hands_[seat];
  auto listing = [&](const std::vector<Card>& cards, std::optional<Card> discard) {
    const auto whole = meld_every_card(cards, config_.melds);
    if (!whole) return;
    list_arrangements(legal, "go_rummy", whole->melds, &RummyBase::write_go_rummy_meld, "discard", discard);
  };
  if (cards_in_no_meld(hand, config_.melds) > 1) return;  // quick exit: no arrangement can leave only one out
  // One search of the whole hand spares the search without each card when no
  // card can be left over (most hands in play: a search per card was most of
  // the cost of listing a turn's actions).
  if (!config_.discard.final_discard_required) listing(hand, std::nullopt);
  if (!melds_all_but(hand, config_.melds, 1)) return;
  for (auto c : distinct(hand)) {
    if (config_.discard.no_discard_taken_upcard && taken_upcard_ && *taken_upcard_ == c &&
        std::count(hand.begin(), hand.end(), c) == 1)
      continue;
    auto rest = hand;
    rest.erase(std::find(rest.begin(), rest.end(), c));
    if (!rest.empty()) listing(rest, c);
  }
}

// {"type":T,"melds":[…]} for each arrangement of `melds` by worth, its melds
// written by `write_meld`, and the card kept out of them under `kept_key`
// when there is one (the card shown in go_down, the discard in go_rummy).
void RummyBase::list_arrangements(JsonWriter& legal, const char* type, const std::vector<Meld>& melds,
                                  MeldWriter write_meld, const char* kept_key, std::optional<Card> kept) const {
  for (const auto& arrangement : arrangements_by_worth(melds))
    legal.object([&] {
      legal.field("type", type);
      legal.array_field("melds", [&] {
        for (const auto& m : arrangement) (this->*write_meld)(legal, m);
      });
      if (kept) legal.field(kept_key, to_string(*kept));
    });
}

// A meld of a listed go_down: every wild declared (a deuce standing as itself
// too), so the listing applies as written.
void RummyBase::write_go_down_meld(JsonWriter& legal, const Meld& meld) const {
  legal.array([&] {
    for (const auto& mc : meld.cards)
      legal.string(is_wild(mc.card, config_.melds) ? to_string(mc.card) + "=" + to_string(mc.as) : to_string(mc.card));
  });
}

// A meld of a listed go_rummy: a wild as "JK=8H"; plain cards when a wild-capable
// card stands as itself (a natural deuce), since declarations cover every wild of
// a meld or none.
void RummyBase::write_go_rummy_meld(JsonWriter& legal, const Meld& meld) const {
  const bool declarable = std::none_of(meld.cards.begin(), meld.cards.end(), [&](const MeldCard& mc) {
    return !mc.wild && is_wild(mc.card, config_.melds);
  });
  if (declarable) return write_meld(legal, meld);
  legal.array([&] {
    for (const auto& mc : meld.cards) legal.string(to_string(mc.card));
  });
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

}  // namespace parlour::rules::rummy
