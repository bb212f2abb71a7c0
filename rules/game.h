// The interface every game implements, modelled on OpenSpiel's State and on
// boardgame.io's playerView: who acts, what each seat may do, apply an action,
// and what each seat (or a spectator) may see.
//
// Rules code is pure and deterministic. Chips leave it as data (transfers between
// seats and the table's pools), never as database calls; the table records them in
// the same transaction as the action that caused them. A game never sees the
// ledger: the table passes each seat's chip balance into every call that needs it,
// and logs those balances with the action, so replaying the log gives the same state.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/cards.h"
#include "rules/json_writer.h"

namespace parlour::rules {

using Json = nlohmann::json;
using Balances = std::vector<std::int64_t>;  // one per seat, in chips

// An account in the rules' own terms: a seat, or one of the table's pools.
struct Account {
  int seat = -1;     // >= 0 for a seat
  std::string pool;  // non-empty for a pool, e.g. "pot"

  static Account of_seat(int seat) { return Account{seat, {}}; }
  static Account of_pool(std::string name) { return Account{-1, std::move(name)}; }
  bool is_seat() const { return seat >= 0; }
  friend bool operator==(const Account&, const Account&) = default;
};

// Log lines name seats as "{seat:N}"; the table writes the player's name there.
inline std::string seat_tag(int seat) { return "{seat:" + std::to_string(seat) + "}"; }
// The log's line for a game that ends before anyone wins it; `end` is the
// result's code ("abandoned": a player left; "closed": the host closed the table).
inline std::string unscored_end_sentence(const std::string& end) {
  if (end == "abandoned") return "The game ends unscored: a player left.";
  if (end == "closed") return "The game ends unscored: the table was closed.";
  return "The game ends unscored (" + end + ").";
}

struct Transfer {
  Account from;
  Account to;
  std::int64_t amount = 0;
  std::string memo;
};

// What applying something did, for the table to record and announce.
struct Effects {
  std::vector<Transfer> transfers;
  std::vector<std::string> log;  // public, human-readable lines in order

  void move(Account from, Account to, std::int64_t amount, std::string memo) {
    if (amount > 0) transfers.push_back({std::move(from), std::move(to), amount, std::move(memo)});
  }
  void say(std::string line) { log.push_back(std::move(line)); }
  void append(Effects&& other);
};

// Why an action was refused. `code` is a PROTOCOL.md error code:
// not_your_turn, illegal_action or insufficient_chips.
class RulesError : public std::runtime_error {
 public:
  RulesError(std::string code, const std::string& message)
      : std::runtime_error(message), code_(std::move(code)) {}
  const std::string& code() const { return code_; }

 private:
  std::string code_;
};

RulesError not_your_turn(const std::string& message);
RulesError illegal_action(const std::string& message);
RulesError insufficient_chips(const std::string& message);

// A turn with a time limit (rules/other.md: "a turn timer that runs out triggers
// the default action listed for that game"). The server applies `action` as
// `seat` when `seconds` pass from the start of the turn named `turn`; steps
// within the same turn keep its deadline.
struct TurnTimer {
  int seat = 0;
  int seconds = 0;
  Json action;
  std::int64_t turn = 0;  // any value that changes when a new turn starts
};

// Where a game's deals come from, for checking them against the table's seed
// (rules/fair.h): every deal is `pack` shuffled by a Shoe seeded with the table's
// seed, and `shuffles` deals have been shuffled so far (the deal in play is the
// `shuffles`-th).
struct DeckSource {
  PackSpec pack;
  int shuffles = 0;
};

enum class Phase {
  playing,    // someone is to act
  deal_over,  // the deal is settled; the table may start the next one
  game_over,  // nothing more can happen at this table
};

class GameState {
 public:
  virtual ~GameState() = default;
  // An independent copy of the whole state, hidden cards and rng included: the
  // fuzzer starts many runs from one mid-game state prepared once.
  virtual std::unique_ptr<GameState> clone() const = 0;
  // The whole state as JSON, hidden cards and random streams included
  // (rules/snapshot.h): what the server keeps of a table at a deal's start, so a
  // hand history is read from there, not replayed from the table's first event.
  virtual Json snapshot() const = 0;
  // Makes this state the one `snapshot` was taken of: the same in every view,
  // list, result and step played on. Called only through Registry::restore, on a
  // state just created with the snapshot's setup, which it may leave half
  // overwritten when it throws (SnapshotError or a JSON error).
  virtual void restore(const Json& snapshot) = 0;

  virtual Phase phase() const = 0;
  // Seats that may act now (several where a game lets them act at once).
  virtual std::vector<int> to_act() const = 0;
  // Every action the seat may take now, as JSON objects with a "type"; numbers
  // are given as {"min","max"} bounds. Empty when the seat may not act. Written
  // as one array into `out` (rules/json_writer.h: text for a push, a tree for
  // a bot), and as a tree by legal_actions.
  virtual void write_legal_actions(int seat, const Balances& balances, JsonWriter& out) const = 0;
  Json legal_actions(int seat, const Balances& balances) const;
  // How many actions, and the first one's type: what a table checks on every
  // step (may the seat act? must it skip?), without building the list.
  ListShape legal_shape(int seat, const Balances& balances) const;
  // Validates, then applies. An illegal action throws RulesError and leaves the
  // state exactly as it was.
  virtual Effects apply(int seat, const Json& action, const Balances& balances) = 0;
  // Deals the next deal; only in Phase::deal_over.
  virtual Effects start_next_deal(const Balances& balances) = 0;
  // The seat's player has left the table for good.
  virtual Effects seat_left(int seat, const Balances& balances) = 0;
  // A new player takes a seat (empty, or changing hands), to be dealt in from the
  // next deal: only where the game's GameInfo says seats_change_between_deals,
  // and only between deals. The seat starts afresh (no cards, owes what a
  // newcomer owes).
  virtual Effects seat_taken(int seat, const Balances& balances);
  // The table is closing: settles whatever the game still holds (pools, pots).
  virtual Effects close(const Balances& balances) = 0;

  // What the seat may see; std::nullopt is a spectator. Written as one object
  // into `out`, and as a tree by view().
  virtual void write_view(std::optional<int> seat, JsonWriter& out) const = 0;
  Json view(std::optional<int> seat) const;
  // The latest deal's (or the game's) result; null while none is settled.
  virtual Json result() const = 0;
  // Where the melds belong to the whole table (Carousel: anyone may rearrange
  // them), result() still names an owner for each, as PROTOCOL.md version 1's
  // readers have it; a client that asked for the `table_melds` feature gets
  // this instead, whose melds name none (null). result() in every other game.
  virtual Json result_with_table_melds() const { return result(); }
  virtual int deals_played() const = 0;
  // The running turn's time limit, for games with one; none by default.
  virtual std::optional<TurnTimer> turn_timer() const { return std::nullopt; }
  // Where the deals come from, in games that deal each deal from a Shoe; none in
  // games that lay out their packs in their own way (the building games).
  virtual std::optional<DeckSource> deck_source() const { return std::nullopt; }
};

}  // namespace parlour::rules
