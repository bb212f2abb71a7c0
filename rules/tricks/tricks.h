// The shared core of the trick-taking games (Reversi, Rams, Rounce): the rank
// order of a game, the cards a player may play to a trick under the game's
// duties (follow suit, trump when void, head the trick when able), the winner of
// a trick, and dealing hands in packets.
//
// Pure functions over plain data; the games keep their own state.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rules/cards.h"
#include "rules/game.h"
#include "rules/shoe.h"

namespace parlour::rules::tricks {

// How a game orders the ranks within a suit.
enum class RankOrder {
  ace_high,  // A K Q J 10 9 ... 2 (Reversi, Rounce, Rams' modern ranking)
  rams_old,  // K Q J A 10 9 8 7 (Rams' old ranking)
};

// Higher is better; only meaningful between cards of one suit.
int rank_value(Card card, RankOrder order);

struct TrickRules {
  RankOrder order = RankOrder::ace_high;
  std::optional<Suit> trump;  // none in Reversi
  bool must_follow = true;    // play the suit led when able
  bool must_trump = false;    // void in the suit led: play a trump when able
  bool must_head = false;     // play a card that beats the trick's winning card when able
};

struct Play {
  int seat = -1;
  Card card;
};

using Trick = std::vector<Play>;  // in play order; the first is the lead

// Does `card` beat `best` in a trick led with `led`?
bool beats(Card card, Card best, Suit led, const TrickRules& rules);
// Index into the trick of the card winning it so far; the trick is non-empty.
std::size_t winning_index(const Trick& trick, const TrickRules& rules);
// The cards of `hand` that may be played to `trick` (any card when leading).
std::vector<Card> legal_cards(const std::vector<Card>& hand, const Trick& trick, const TrickRules& rules);

// Deals hands in packets round the table: in every round each hand in order
// receives sizes[round][hand] cards from the top of the stock.
std::vector<std::vector<Card>> deal_in_packets(Stock& stock, const std::vector<std::vector<int>>& sizes);

bool holds(const std::vector<Card>& hand, Card card);
void remove_card(std::vector<Card>& hand, Card card);  // the card must be held
bool holds_suit(const std::vector<Card>& hand, Suit suit);


// A deal's chip book: pays between seats and one pool without ever overdrawing a
// seat (GAMES.md: a debtor pays what he has; the rest is named in the result), and
// keeps every movement, each seat's net and each unpaid rest for the deal's result.
class DealBook {
 public:
  DealBook() = default;
  DealBook(int players, std::string pool) : pool_name_(std::move(pool)), net_(players, 0) {}

  // The table's balances before the call being applied.
  void sync(const Balances& balances) { chips_ = balances; }
  std::int64_t chips(int seat) const { return chips_[seat]; }

  // Pays up to `amount` (what the seat has); returns what was paid.
  std::int64_t seat_to_seat(int from, int to, std::int64_t amount, const std::string& memo, Effects& fx);
  std::int64_t seat_to_pool(int from, std::int64_t amount, std::int64_t& pool, const std::string& memo, Effects& fx);
  void pool_to_seat(int to, std::int64_t amount, std::int64_t& pool, const std::string& memo, Effects& fx);

  std::int64_t net(int seat) const { return net_[seat]; }
  std::int64_t unpaid(int seat) const;
  Json movements() const { return movements_; }
  Json unpaid_json() const { return unpaid_; }

 private:
  static Json account_json(const Account& account);
  void record(const Account& from, const Account& to, std::int64_t amount, const std::string& memo, Effects& fx);
  void shortfall(int seat, const Account& to, std::int64_t amount, const std::string& memo);

  std::string pool_name_;
  Balances chips_;
  std::vector<std::int64_t> net_;
  Json movements_ = Json::array();
  Json unpaid_ = Json::array();
};

}  // namespace parlour::rules::tricks
