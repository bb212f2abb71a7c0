// Shared helpers for the Rummy-family tests: stacked decks in dealing order and
// builders for the engine's actions (rules/rummy/rummy_base.h), so every game's
// tests read as its rules rather than as JSON.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tests/rules/harness.h"

namespace parlour::test::rummy_kit {

// Every card of one pack, by suit then rank.
inline const std::vector<std::string> all_cards = [] {
  std::vector<std::string> out;
  for (char suit : std::string("SHDC"))
    for (char rank : std::string("A23456789TJQK")) out.push_back(std::string{rank, suit});
  return out;
}();

// Hands in play order (dealer last), dealt one card at a time, then the upcard
// and the stock from the top (the source-000 games turn an upcard).
std::vector<rules::Card> deal_with_upcard(const std::vector<std::vector<std::string>>& hands, const std::string& upcard,
                                          const std::vector<std::string>& stock);
// Hands as above with no upcard; the stock from the top: `top`, then `fillers`
// cards nobody holds, then `then` (the source-002 games).
std::vector<rules::Card> deal_no_upcard(const std::vector<std::vector<std::string>>& hands,
                                        const std::vector<std::string>& top = {}, int fillers = 0,
                                        const std::vector<std::string>& then = {});

// The leader (seat 1) is dealt `lead` and draws `draw_card`; the other hands are
// a seeded shuffle of the rest of the pack (no upcard).
std::vector<rules::Card> deal_leader_hand(const std::vector<std::string>& lead, const std::string& draw_card,
                                          int players, std::uint64_t seed);

// 1,000+ random deals of `game` (tests/rules/playout.h); returns how the last deal
// of each game ended ("went_out", "break", "showdown", …) and how often.
std::map<std::string, int> random_deal_ends(const std::string& game, Json options, int players_lo, int players_hi);

Json draw(const std::string& from = "stock");
Json take(int depth);
Json discard(const std::string& card);
Json meld(std::vector<std::string> cards);
Json lay_off(int meld_index, std::vector<std::string> cards);
Json go_rummy(std::vector<std::vector<std::string>> melds, std::optional<std::string> discard_card = std::nullopt);
// Java, Rummy Poker: melds (wilds may be written "2C=9H") and the card kept back, if any.
Json go_down(std::vector<std::vector<std::string>> melds, std::optional<std::string> shown = std::nullopt);
// Running totals carried in from earlier deals (the engine's set_scores).
void totals(Harness& h, std::vector<int> scores);

// The game restored from its snapshot (rules/snapshot.h) taken now, through JSON
// text as the server keeps it: a new game to play on beside the harness's.
std::unique_ptr<rules::GameState> from_snapshot(Harness& h);
// The cards a seat holds, as it sees them, sorted (to compare with a dealt hand).
std::vector<std::string> sorted_hand(const rules::GameState& game, int seat);
std::vector<std::string> sorted(std::vector<std::string> cards);

// A deal result's points per seat (its seats[].points), in seat order.
Json deal_points(const Json& result);
// The entries of a legal list with this type.
std::vector<Json> listed(const Json& legal, const std::string& type);
Json options(std::initializer_list<std::pair<const char*, Json>> set = {});

std::string last_card(Harness& h, int seat);
// Every player draws the stock top and discards it, until the break begins.
void play_to_break(Harness& h);
bool has_action(const Json& legal, const Json& action);
// Plays the deal to its end without choices: each seat to act takes the first
// listed action of these types in this order: go_rummy, go_down, meld, lay_off,
// decline, a stock draw, discard (else the first listed).
void play_deal_plainly(Harness& h);

}  // namespace parlour::test::rummy_kit
