// The engine's whole state as JSON and back (rules/snapshot.h): what play changes,
// hidden cards and the reshuffle rng included. The config, the hand size and the
// Shoe's pack and stacked deck come from the setup the game is restored with.
// Reading checks every index the engine later uses (seats, melds, the call
// window's entries) and throws SnapshotError saying what was expected.
#include "rules/rummy/rummy_base.h"

namespace parlour::rules::rummy {

namespace {

void check_seat(int seat, int players, const std::string& what) {
  if (seat < 0 || seat >= players)
    throw SnapshotError("expected " + what + " to be a seat below " + std::to_string(players) + ", got " +
                        std::to_string(seat));
}

}  // namespace

// ------------------------------------------------------------------ a meld on the table

Json TableMeld::snapshot() const {
  std::vector<Card> cards;
  std::vector<Card> as;
  std::vector<bool> wild;
  for (const auto& mc : meld.cards) {
    cards.push_back(mc.card);
    as.push_back(mc.as);
    wild.push_back(mc.wild);
  }
  return {{"kind", enum_json(meld.kind)}, {"owner", meld.owner},          {"cards", cards_json(cards)},
          {"as", cards_json(as)},         {"wild", wild},                  {"placed_by", placed_by},
          {"intact", melded_intact}};
}

TableMeld TableMeld::restore(const Json& snapshot, int players) {
  TableMeld out;
  out.meld.kind = enum_field(snapshot, "kind", MeldKind::jokers);
  out.meld.owner = field<int>(snapshot, "owner");
  check_seat(out.meld.owner, players, "a meld's owner");
  const auto cards = cards_from(member(snapshot, "cards"));
  if (cards.empty()) throw SnapshotError("expected a meld of at least one card, got none");
  expect_size(member(snapshot, "as"), cards.size(), "cards a meld's cards stand for");
  expect_size(member(snapshot, "wild"), cards.size(), "wild flags of a meld's cards");
  expect_size(member(snapshot, "placed_by"), cards.size(), "placers of a meld's cards");
  const auto as = cards_from(member(snapshot, "as"));
  const auto wild = field<std::vector<bool>>(snapshot, "wild");
  for (std::size_t i = 0; i < cards.size(); ++i) out.meld.cards.push_back({cards[i], as[i], wild[i]});
  out.placed_by = field<std::vector<int>>(snapshot, "placed_by");
  for (const int seat : out.placed_by) check_seat(seat, players, "a meld card's placer");
  out.melded_intact = field<bool>(snapshot, "intact");
  return out;
}

// ------------------------------------------------------------------ the engine

int RummyBase::seat_field(const Json& json, const char* key, bool or_none) const {
  const int seat = field<int>(json, key);
  if (or_none && seat == -1) return seat;
  check_seat(seat, players(), std::string("\"") + key + "\"");
  return seat;
}

Json RummyBase::snapshot() const {
  Json table = Json::array();
  for (const auto& tm : table_) table.push_back(tm.snapshot());
  return {
      {"shoe", shoe_.snapshot()},
      {"reshuffle_rng", rng_json(reshuffle_rng_)},
      {"stock", cards_json(stock_)},
      {"pile", cards_json(pile_)},
      {"hands", card_lists_json(hands_)},
      {"table", std::move(table)},
      {"melded_this_deal", melded_this_deal_},
      {"melded_before_this_turn", melded_before_this_turn_},
      {"left", left_},
      {"out", out_},
      {"scores", scores_},
      {"dealer", dealer_},
      {"deals", deals_},
      {"turn", turn_},
      {"stage", enum_json(stage_)},
      {"restocks", restocks_},
      {"whole_pile_takes", whole_pile_takes_},
      {"stock_gone", stock_gone_},
      {"turns_after_stock", turns_after_stock_},
      {"taken_upcard", optional_card_json(taken_upcard_)},
      {"must_use", optional_card_json(must_use_)},
      {"drawn_this_turn", drawn_this_turn_},
      {"plays_this_turn", plays_this_turn_},
      {"turns_taken", turns_taken_},
      {"turns_begun", turns_begun_},
      {"in_break", in_break_},
      {"breaker", breaker_},
      {"break_turns_left", break_turns_left_},
      {"final_round", final_round_},
      {"final_turns_left", final_turns_left_},
      {"call_order", call_order_},
      {"call_answer", call_answer_},
      {"call_meld", call_meld_},
      {"discarder", discarder_},
      {"caller", caller_},
      {"resume_from", resume_from_},
      {"result", result_.get()},
  };
}

void RummyBase::restore(const Json& snapshot) {
  shoe_.restore(member(snapshot, "shoe"));
  reshuffle_rng_ = rng_from(member(snapshot, "reshuffle_rng"));
  stock_ = cards_from(member(snapshot, "stock"));
  pile_ = cards_from(member(snapshot, "pile"));
  expect_size(member(snapshot, "hands"), hands_.size(), "hands");
  hands_ = card_lists_from(member(snapshot, "hands"));
  table_.clear();
  const auto& table = member(snapshot, "table");
  if (!table.is_array()) throw SnapshotError("expected the table's melds as an array, got " + table.dump());
  for (const auto& tm : table) table_.push_back(TableMeld::restore(tm, players()));
  melded_this_deal_ = seat_list_field<bool>(snapshot, "melded_this_deal");
  melded_before_this_turn_ = seat_list_field<bool>(snapshot, "melded_before_this_turn");
  left_ = seat_list_field<bool>(snapshot, "left");
  out_ = seat_list_field<bool>(snapshot, "out");
  scores_ = seat_list_field<int>(snapshot, "scores");
  dealer_ = seat_field(snapshot, "dealer");
  deals_ = field<int>(snapshot, "deals");
  turn_ = seat_field(snapshot, "turn");
  stage_ = enum_field(snapshot, "stage", Stage::game_over);
  restocks_ = field<int>(snapshot, "restocks");
  whole_pile_takes_ = field<int>(snapshot, "whole_pile_takes");
  stock_gone_ = field<bool>(snapshot, "stock_gone");
  turns_after_stock_ = field<int>(snapshot, "turns_after_stock");
  taken_upcard_ = optional_card_from(member(snapshot, "taken_upcard"));
  must_use_ = optional_card_from(member(snapshot, "must_use"));
  drawn_this_turn_ = field<int>(snapshot, "drawn_this_turn");
  plays_this_turn_ = field<int>(snapshot, "plays_this_turn");
  turns_taken_ = seat_list_field<int>(snapshot, "turns_taken");
  turns_begun_ = field<std::int64_t>(snapshot, "turns_begun");
  in_break_ = field<bool>(snapshot, "in_break");
  breaker_ = seat_field(snapshot, "breaker", true);
  break_turns_left_ = field<int>(snapshot, "break_turns_left");
  final_round_ = field<bool>(snapshot, "final_round");
  final_turns_left_ = field<int>(snapshot, "final_turns_left");
  restore_call_window(snapshot);
  resume_from_ = seat_field(snapshot, "resume_from", true);
  result_ = field<Json>(snapshot, "result");
}

// The call window's entries, one per seat asked: the seat, its answer, the meld
// it called (an index into the table, which resolve_call_window uses while the
// window is open; the last window's entries stay after it, the table since dealt anew).
void RummyBase::restore_call_window(const Json& snapshot) {
  call_order_ = field<std::vector<int>>(snapshot, "call_order");
  for (const int seat : call_order_) check_seat(seat, players(), "a seat asked in the call window");
  expect_size(member(snapshot, "call_answer"), call_order_.size(), "call window answers");
  expect_size(member(snapshot, "call_meld"), call_order_.size(), "call window melds");
  call_answer_ = field<std::vector<int>>(snapshot, "call_answer");
  call_meld_ = field<std::vector<int>>(snapshot, "call_meld");
  for (std::size_t i = 0; i < call_order_.size(); ++i) {
    if (call_answer_[i] < -1 || call_answer_[i] > 1)
      throw SnapshotError("expected a call window answer of -1, 0 or 1, got " + std::to_string(call_answer_[i]));
    const bool called = call_answer_[i] == 1;
    const bool on_table = call_meld_[i] >= 0 && call_meld_[i] < static_cast<int>(table_.size());
    if (stage_ == Stage::call_window && (called ? !on_table : call_meld_[i] != -1))
      throw SnapshotError("expected " + std::string(called ? "a meld on the table" : "no meld") +
                          " for a call window answer, got " + std::to_string(call_meld_[i]));
  }
  if (stage_ == Stage::call_window && pile_.empty()) throw SnapshotError("expected a discard in the call window");
  discarder_ = seat_field(snapshot, "discarder", true);
  caller_ = seat_field(snapshot, "caller", true);
  if (stage_ == Stage::call_discard && caller_ < 0) throw SnapshotError("expected a caller to discard");
}

}  // namespace parlour::rules::rummy
