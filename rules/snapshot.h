// Snapshots of a game's whole state (GameState::snapshot and restore): JSON that
// holds everything a state is, hidden cards and random streams included, so that
// the server can keep a table's state at a deal's start and read a hand history
// from there instead of replaying the table's whole log (server/history/history.h).
//
// A snapshot is made and read by the same build of the server: it is a cache of
// the log, never the truth (a table is a pure function of its log), so it carries
// no format version; a snapshot that cannot be read is thrown away and the log
// replayed. Reading one checks every field's presence and type and throws
// SnapshotError saying what was expected and what came, never a crash.
//
// The pieces every game shares are written here once: cards, the rng, the stock
// and the shoe, the chip book. A game writes its own fields with them.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "rules/cards.h"
#include "rules/game.h"
#include "rules/rng.h"

namespace parlour::rules {

// The layout of every game's snapshot (and the server's table snapshot around
// it). A stored snapshot of another format is not read: the log is replayed
// instead, so that a server upgraded to a build that reads a field otherwise
// never shows a state its log does not make. Bump it with any change to what a
// snapshot holds: the golden replays (tests/rules/test_golden_replay.cpp) hash
// every game's snapshot along each log and refuse a changed hash under the same
// format, when checking and when re-recording.
// 2: the table snapshot holds "deal_seq", the seq that dealt the deal in play.
// 3: every game's result names an unpaid rest in one shape (rules/chip_book.h
//    unpaid_entry); a result kept in an older snapshot is made again by the log.
inline constexpr int snapshot_format = 3;

class SnapshotError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Cards as the wire writes them ("TH", "JK", "ES"); read back with every rank a
// pack of this project can hold.
Json card_json(Card card);
Card card_from(const Json& json);
Json cards_json(const std::vector<Card>& cards);
std::vector<Card> cards_from(const Json& json);
Json card_lists_json(const std::vector<std::vector<Card>>& lists);
std::vector<std::vector<Card>> card_lists_from(const Json& json);
Json optional_card_json(const std::optional<Card>& card);
std::optional<Card> optional_card_from(const Json& json);

// A random stream's whole state: restored, it draws the same numbers on.
Json rng_json(const Rng& rng);
Rng rng_from(const Json& json);

// The member `key` of the object `json`, as a T; throws SnapshotError naming the
// key when it is missing or of another type.
template <typename T>
T field(const Json& json, const char* key) {
  if (!json.is_object()) throw SnapshotError(std::string("expected an object holding \"") + key + "\"");
  const auto found = json.find(key);
  if (found == json.end()) throw SnapshotError(std::string("expected \"") + key + "\" in the snapshot");
  try {
    return found->get<T>();
  } catch (const Json::exception& e) {
    throw SnapshotError(std::string("\"") + key + "\" is not what was expected: " + e.what());
  }
}

// The member `key`, null for none.
template <typename T>
std::optional<T> optional_field(const Json& json, const char* key) {
  const auto found = json.is_object() ? json.find(key) : json.end();
  if (json.is_object() && found != json.end() && found->is_null()) return std::nullopt;
  return field<T>(json, key);
}
template <typename T>
Json optional_json(const std::optional<T>& value) {
  return value ? Json(*value) : Json(nullptr);
}

// An enum stored as its number; reading one checks it is within [0, last].
template <typename E>
Json enum_json(E value) {
  return static_cast<int>(value);
}
template <typename E>
E enum_field(const Json& json, const char* key, E last) {
  const int value = field<int>(json, key);
  if (value < 0 || value > static_cast<int>(last))
    throw SnapshotError(std::string("\"") + key + "\" is out of range: " + std::to_string(value));
  return static_cast<E>(value);
}
inline Phase phase_field(const Json& json, const char* key) { return enum_field(json, key, Phase::game_over); }

// Throws unless `json` is an array of `size` entries (one per seat, say): a
// snapshot's per-seat lists must fit the game they are restored into.
void expect_size(const Json& json, std::size_t size, const char* what);

// The member `key` of `json`, which must be there (for cards_from and the like).
const Json& member(const Json& json, const char* key);

}  // namespace parlour::rules
