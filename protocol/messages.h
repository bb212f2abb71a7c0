// The client-to-server messages of PROTOCOL.md, parsed and validated, and the
// server-to-client messages encoded back to JSON. No sockets here.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/cards.h"

namespace parlour::protocol {

using Json = nlohmann::json;

inline constexpr int version = 1;
inline constexpr std::size_t max_frame_bytes = 64 * 1024;

// PROTOCOL.md error codes.
namespace code {
inline constexpr const char* bad_request = "bad_request";
inline constexpr const char* unauthorized = "unauthorized";
inline constexpr const char* forbidden = "forbidden";
inline constexpr const char* not_found = "not_found";
inline constexpr const char* name_taken = "name_taken";
inline constexpr const char* table_full = "table_full";
inline constexpr const char* not_your_turn = "not_your_turn";
inline constexpr const char* illegal_action = "illegal_action";
inline constexpr const char* insufficient_chips = "insufficient_chips";
inline constexpr const char* rate_limited = "rate_limited";
inline constexpr const char* conflict = "conflict";
inline constexpr const char* internal = "internal";
// Sign-up (docs/protocol.md "Identity"): a new name needs a table invite or a
// sign-up link (--registration invite), or is not taken at all (closed).
inline constexpr const char* invite_required = "invite_required";
inline constexpr const char* registration_closed = "registration_closed";
}  // namespace code

// A request that cannot be served; becomes an `error` message.
class ProtocolError : public std::runtime_error {
 public:
  ProtocolError(std::string code, const std::string& message) : std::runtime_error(message), code_(std::move(code)) {}
  const std::string& code() const { return code_; }

 private:
  std::string code_;
};

// A table's turn clock, chosen at create (docs/protocol.md "Turn clock and away").
struct Clock {
  static constexpr int min_seconds = 5;  // besides 0, which turns the clock off
  static constexpr int max_seconds = 3600;
  static constexpr int max_bank = 36000;
  static constexpr int max_away_after = 20;

  int seconds = 90;    // per move; 0: no clock
  int bank = 0;        // seconds a seat may use beyond `seconds`, over the whole table
  int away_after = 2;  // expiries in a row after which the seat is away
  friend bool operator==(const Clock&, const Clock&) = default;
};
Json clock_to_json(const Clock& clock);
// Reads `create`'s "clock" object (absent fields keep their defaults). Throws
// ProtocolError(bad_request) naming the field and its range.
Clock clock_from_json(const Json& value);

// What a client says it understands, in the `features` of its sign-in (`hello`,
// `recover`, `device_sign_in`, `passphrase_sign_in`); `welcome` names those
// granted. A client that asks for nothing gets PROTOCOL.md version 1 exactly
// (docs/protocol.md "Features"). Names the server does not know are ignored, so
// a client may ask an older server for a newer feature.
struct Features {
  bool deltas = false;  // state pushes carry only what changed (docs/protocol.md "State")
  // A result's melds in a game whose melds belong to the table (Carousel) name no owner (null).
  bool table_melds = false;
  friend bool operator==(const Features&, const Features&) = default;
};
inline constexpr std::size_t max_features = 16;
inline constexpr std::size_t max_feature_chars = 32;
// The granted features as `welcome` lists them, e.g. ["deltas"] or [].
Json features_json(const Features& features);

// `invite` (a table's) or `signup` (a sign-up link's code) lets a new name in
// when the server takes new names by invitation only.
struct Hello {
  std::string name;
  std::optional<std::string> token;
  std::optional<std::string> invite;
  std::optional<std::string> signup;
  Features features;
};
struct Games {};
struct Tables {
  bool mine = false;  // the tables the sender holds a seat at or hosts, private ones too
};
struct Create {
  std::string game;
  Json options = Json::object();
  std::optional<int> seats;
  std::optional<std::uint64_t> seed;
  std::optional<std::vector<rules::Card>> deck;
  bool is_private = false;
  Clock clock;
};
struct Join { std::optional<std::string> table; std::optional<std::string> invite; std::optional<int> seat; };
struct Watch { std::optional<std::string> table; std::optional<std::string> invite; };
struct Leave { std::string table; };
// A `bot` without `level` is the careful bot (docs/playing.md "Bots"); level 0, asked
// for by name, is the random one.
inline constexpr int default_bot_level = 1;
struct Bot { std::string table; std::optional<int> seat; int level = default_bot_level; };
struct Start { std::string table; };
struct End { std::string table; };
// `action_id` (optional, chosen by the client) makes a resent act idempotent.
struct Act { std::string table; Json action; std::optional<std::string> action_id; };
struct LedgerQuery { std::optional<std::string> player; std::optional<int> limit; std::optional<std::int64_t> before; };
// Settle-up over the named tables, or by default the sender's tables of tonight.
inline constexpr std::size_t max_settle_tables = 50;
struct Settle { std::optional<std::vector<std::string>> tables; };
struct Ping {};
// The seat's player is back at the table: a seat marked away is his again.
struct Back { std::string table; };
// A table's hand history, a deal at a time (docs/protocol.md "Hand history and replay").
struct History { std::string table; std::optional<int> deal; std::optional<std::int64_t> from; };
// A sign-up link for friends (docs/protocol.md "Identity"): `uses` new names
// within `hours`.
inline constexpr int max_signup_uses = 20;
inline constexpr int max_signup_hours = 24 * 7;
struct SignupLink { int uses = 1; int hours = 24; };
// A new token for a name whose token is lost, in exchange for its recovery code.
struct Recover { std::string name; std::string code; Features features; };
// Devices (docs/protocol.md "Identity"): a one-time code that signs another
// device in as the same name with its own token; the name's devices; one revoked.
struct DeviceLink {};
inline constexpr std::size_t max_device_label_chars = 40;
struct DeviceSignIn { std::string code; std::string label; Features features; };
struct Devices {};
struct RevokeDevice { std::string device; };
// An optional passphrase (8–128 characters): set or changed while signed in
// with a token; signing in with it adds a device.
inline constexpr std::size_t min_passphrase_chars = 8;
inline constexpr std::size_t max_passphrase_chars = 128;
struct SetPassphrase { std::string passphrase; };
struct PassphraseSignIn { std::string name; std::string passphrase; std::string label; Features features; };

// A line of table chat: exactly one of `text` (already trimmed and checked, see
// chat_text) and `reaction` (one of chat_reactions()).
struct Chat { std::string table; std::optional<std::string> text; std::optional<std::string> reaction; };
// The host mutes (or unmutes) a person's chat at the table.
struct Mute { std::string table; std::string player; bool muted = true; };
// The host opens a new table like this finished one (docs/protocol.md "End of a table").
struct Rematch { std::string table; bool same_seed = false; };

// The host frees a seat (docs/protocol.md "Late joiners and open seats"): it goes
// to a new player ("open") or to a bot ("bot").
struct Unseat {
  std::string table;
  int seat = 0;
  std::string replace;  // "open" or "bot"
};

using Body = std::variant<Hello, Games, Tables, Create, Join, Watch, Leave, Bot, Start, End, Act, LedgerQuery, Ping,
                          Back, Unseat, Chat, Mute, Rematch, History, Settle, SignupLink, Recover, DeviceLink,
                          DeviceSignIn, Devices, RevokeDevice, SetPassphrase, PassphraseSignIn>;

// The requests a table serves itself (its actor, on the node that holds it):
// the one list that says which requests must reach the table's node first.
using TableRequest = std::variant<Join, Watch, Leave, Bot, Start, End, Act, Back, Unseat, Chat, Mute, Rematch>;

// The table a request is served by: its id, or the invite that names it.
struct TableAddress {
  std::optional<std::string> table;
  std::optional<std::string> invite;
};
// A request's TableRequest, if it is one (derived from the variants' types, so
// no list can forget one).
std::optional<TableRequest> table_request(const Body& body);
TableAddress address_of(const TableRequest& request);

// Table chat (docs/protocol.md "Table chat").
inline constexpr std::size_t max_chat_chars = 200;
// The quick reactions, by wire name.
const std::vector<std::string>& chat_reactions();
// A chat text as kept: surrounding white space trimmed, 1–max_chat_chars Unicode
// characters, no control characters (nor the invisible ones that reorder text).
// Throws ProtocolError(bad_request) saying what is wrong.
std::string chat_text(const Json& value);

struct Request {
  std::optional<std::int64_t> id;
  std::string type;
  Body body;
};

// Parses one text frame. Throws ProtocolError(bad_request) for anything that is
// not a well-formed request: not JSON, not an object, unknown type, a missing or
// mistyped field, an unknown field. `id_out` receives the request's id whenever
// one could be read, so the error can carry `re`.
Request parse_request(std::string_view text, std::optional<std::int64_t>* id_out = nullptr);

bool valid_player_name(std::string_view name);

// The wire name of a parsed body ("hello", "ledger", ...), e.g. for logs and metrics.
std::string_view type_name(const Body& body);

// Encoders. `re` is added when present.
Json error_message(std::optional<std::int64_t> re, const std::string& code, const std::string& message);
Json reply(std::string type, std::optional<std::int64_t> re, Json fields = Json::object());

}  // namespace parlour::protocol
