// The whole table laid out anew (melding.rearrange: Carousel's `layout`): one
// action states every meld of the new table, every table card staying on it and
// at least one card coming from the hand; and the listing of a useful subset of
// such layouts. Apart from melding.cpp because a layout replaces the whole table
// where a meld or a lay-off adds to one meld.
#include "rules/rummy/rummy_base.h"

#include <algorithm>
#include <initializer_list>

#include "rules/action.h"
#include "rules/rummy/card_lists.h"

namespace parlour::rules::rummy {

namespace {

// A cheap first test before lays_off: a full set, or (distinct suits) a set that
// already holds the card's suit, takes nothing.
bool set_could_take(const Meld& meld, Card card, const MeldRules& rules) {
  if (meld.kind != MeldKind::set) return true;
  if (static_cast<int>(meld.cards.size()) >= rules.set_max) return false;
  if (card.is_joker() || !rules.set_distinct_suits) return true;
  return std::none_of(meld.cards.begin(), meld.cards.end(), [&](const MeldCard& mc) { return mc.as.suit == card.suit; });
}

// A table meld a listed layout puts in another form.
struct ChangedMeld {
  std::size_t index;  // in the table
  const Meld* to;
};

// {"type":"layout","melds":[…]}: the table's melds in their order, each as it
// stands or as `changed` says (the last change of a meld counting), then `added`
// where there is one.
void list_layout(JsonWriter& legal, const std::vector<TableMeld>& table, std::initializer_list<ChangedMeld> changed,
                 const Meld* added) {
  legal.object([&] {
    legal.field("type", "layout");
    legal.array_field("melds", [&] {
      for (std::size_t i = 0; i < table.size(); ++i) {
        const Meld* meld = &table[i].meld;
        for (const auto& change : changed)
          if (change.index == i) meld = change.to;
        write_meld(legal, *meld);
      }
      if (added) write_meld(legal, *added);
    });
  });
}

}  // namespace

// A whole new table in one action; each entry of "melds" is a list of cards, a
// wild written as "JK=8H" to say what it stands for.
void RummyBase::apply_layout(int seat, const Json& action, Balances& chips, Effects& fx) {
  if (!config_.melding.rearrange) throw illegal_action("this game does not let players rearrange the table");
  expect_only_fields(action, {"melds"});
  const auto melds = action.find("melds");
  if (melds == action.end() || !melds->is_array() || melds->empty())
    throw illegal_action("layout needs \"melds\": the whole new table");
  std::vector<MeldSpec> specs;
  specs.reserve(melds->size());
  for (const auto& list : *melds) specs.push_back(read_meld_spec(list, config_.melds, "layout"));
  std::vector<Meld> old_table;
  old_table.reserve(table_.size());
  for (const auto& tm : table_) old_table.push_back(tm.meld);
  auto check = validate_layout(old_table, specs, hands_[seat], config_.melds);
  if (!check) throw illegal_action(check.message + " (" + check.reason + ")");
  play_from_hand(seat, check.from_hand);
  // Cards that were on the table keep who placed them (each copy of a card once);
  // the rest are this seat's.
  struct Placed {
    Card card;
    int by;
    bool taken = false;
  };
  std::vector<Placed> placed;
  for (const auto& tm : table_)
    for (std::size_t i = 0; i < tm.meld.cards.size(); ++i) placed.push_back({tm.meld.cards[i].card, tm.placed_by[i]});
  std::vector<TableMeld> table;
  table.reserve(check.melds.size());
  for (auto& meld : check.melds) {
    TableMeld tm{std::move(meld), {}, false};
    tm.placed_by.reserve(tm.meld.cards.size());
    for (const auto& mc : tm.meld.cards) {
      auto it = std::find_if(placed.begin(), placed.end(), [&](const Placed& p) { return !p.taken && p.card == mc.card; });
      if (it != placed.end()) it->taken = true;
      tm.placed_by.push_back(it != placed.end() ? it->by : seat);
    }
    tm.meld.owner = seat;
    table.push_back(std::move(tm));
  }
  table_ = std::move(table);
  melded_this_deal_[seat] = true;
  ++plays_this_turn_;
  must_use_.reset();
  fx.say(seat_tag(seat) + " lays out the table anew with " + std::to_string(check.from_hand.size()) +
         " cards from hand.");
  after_hand_change(seat, chips, fx);
}

// A useful subset of layouts (rules/rummy.md G6), each valid as listed: every
// new meld the hand could put down beside the table as it stands (the engine's
// candidate melds, jokers declared as the validator places them), every single
// card laid off on a table meld, and every exchange of a table joker for the
// natural card it stands for, the joker then laid off on the first meld that
// takes it or, failing that, melded with cards from the hand.
void RummyBase::list_layouts(int seat, JsonWriter& legal) const {
  const auto& hand = hands_[seat];
  if (hand.empty()) return;
  const auto& rules = config_.melds;

  for (const auto& cards : candidate_melds(hand, rules)) {
    auto check = validate_meld(cards, rules);
    if (!check) continue;
    list_layout(legal, table_, {}, &*check.meld);
  }

  const auto singles = distinct(hand);
  for (std::size_t i = 0; i < table_.size(); ++i)
    for (auto c : singles) {
      if (!set_could_take(table_[i].meld, c, rules)) continue;
      if (const auto extended = laid_off(table_[i].meld, c, rules)) list_layout(legal, table_, {{i, &*extended}}, nullptr);
    }

  for (std::size_t i = 0; i < table_.size(); ++i) {
    const auto& meld = table_[i].meld;
    for (std::size_t k = 0; k < meld.cards.size(); ++k) {
      const auto& mc = meld.cards[k];
      if (!mc.wild || !holds(hand, mc.as)) continue;
      if (k > 0 && std::find(meld.cards.begin(), meld.cards.begin() + k, mc) != meld.cards.begin() + k) continue;
      Meld swapped = meld;
      swapped.cards[k] = MeldCard{mc.as, mc.as, false};
      const Card wild = mc.card;
      bool placed = false;
      for (std::size_t j = 0; j < table_.size() && !placed; ++j) {
        auto check = extend_meld(j == i ? swapped : table_[j].meld, {wild}, rules);
        if (!check) continue;
        list_layout(legal, table_, {{i, &swapped}, {j, &*check.meld}}, nullptr);
        placed = true;
      }
      if (placed) continue;
      auto rest = hand;
      rest.erase(std::find(rest.begin(), rest.end(), mc.as));
      rest.push_back(wild);
      for (const auto& cards : candidate_melds(rest, rules)) {
        if (!holds(cards, wild)) continue;
        auto check = validate_meld(cards, rules);
        if (!check) continue;
        list_layout(legal, table_, {{i, &swapped}}, &*check.meld);
        break;
      }
    }
  }
}

}  // namespace parlour::rules::rummy
