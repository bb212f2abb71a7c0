#include "protocol/messages.h"

#include <type_traits>

#include <algorithm>
#include <array>
#include <limits>

namespace parlour::protocol {
namespace {

constexpr std::size_t max_name_chars = 24;
constexpr std::size_t max_token_chars = 256;
constexpr std::size_t max_table_id_chars = 64;
constexpr std::size_t max_invite_chars = 64;
constexpr std::size_t max_action_id_chars = 64;
constexpr int max_seats = 64;
constexpr int max_bot_level = 10;
constexpr int max_ledger_limit = 500;
constexpr int max_history_deal = 1'000'000;
// Eight 52-card decks: the largest pack any game uses.
constexpr std::size_t max_deck_cards = 416;
// No message needs deep nesting, and a frame of 64 KiB of '[' would otherwise give
// a value whose recursive copy or dump could exhaust the stack.
constexpr int max_json_depth = 32;
// Values quoted back in error messages are cut to this many bytes, the JSON
// parser's own explanation to a few more.
constexpr std::size_t max_quoted_bytes = 60;
constexpr std::size_t max_parser_message_bytes = 200;

constexpr std::int64_t int64_max = std::numeric_limits<std::int64_t>::max();

[[noreturn]] void fail(const std::string& message) { throw ProtocolError(code::bad_request, message); }

// Cuts at a UTF-8 character boundary: the message ends up in a JSON string, and
// nlohmann::json refuses to dump broken UTF-8.
std::string shorten(std::string text, std::size_t max_bytes = max_quoted_bytes) {
  if (text.size() <= max_bytes) return text;
  std::size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  text.resize(cut);
  return text + "…";
}

// How a received value is shown in an error: as JSON, so strings keep their quotes.
std::string shown(const Json& value) { return shorten(value.dump()); }
// How a field or type name is shown: in single quotes, as in "unknown field 'x'".
std::string named(std::string_view name) { return "'" + shorten(std::string(name)) + "'"; }

// nlohmann's message without its "[json.exception.parse_error.101] " prefix, which
// means nothing to a client. It may quote raw input bytes, so it is kept ASCII to
// stay valid UTF-8.
std::string parser_explanation(const Json::exception& error) {
  std::string text = error.what();
  if (const auto prefix_end = text.find("] "); text.starts_with("[json.exception.") && prefix_end != std::string::npos) {
    text.erase(0, prefix_end + 2);
  }
  std::replace_if(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; }, '?');
  return shorten(text, max_parser_message_bytes);
}

Json parse_json(std::string_view text) {
  const auto limit_depth = [](int depth, Json::parse_event_t event, Json&) {
    const bool opens = event == Json::parse_event_t::object_start || event == Json::parse_event_t::array_start;
    if (opens && depth >= max_json_depth) fail("JSON nested deeper than " + std::to_string(max_json_depth) + " levels");
    return true;
  };
  try {
    return Json::parse(text, limit_depth);
  } catch (const Json::exception& error) {  // parse_error, or out_of_range for a number like 1e999
    fail("not valid JSON: " + parser_explanation(error));
  }
}

// ----- Single values. `field` names the value in the error message.

std::string range_text(std::int64_t min, std::int64_t max) {
  if (max < int64_max) return "an integer from " + std::to_string(min) + " to " + std::to_string(max);
  if (min == 0) return "a non-negative integer";
  if (min == 1) return "a positive integer";
  return "an integer of at least " + std::to_string(min);
}

std::int64_t as_integer(const Json& value, std::string_view field, std::int64_t min, std::int64_t max) {
  // Non-negative numbers parse as unsigned; those beyond int64 are out of every range here.
  const bool representable =
      value.is_number_integer() && !(value.is_number_unsigned() && value.get<std::uint64_t>() > std::uint64_t(int64_max));
  if (representable) {
    const auto number = value.get<std::int64_t>();
    if (number >= min && number <= max) return number;
  }
  fail("field " + named(field) + " must be " + range_text(min, max) + ", got " + shown(value));
}

std::uint64_t as_seed(const Json& value) {
  if (value.is_number_unsigned()) return value.get<std::uint64_t>();
  fail("field 'seed' must be an integer from 0 to " + std::to_string(std::numeric_limits<std::uint64_t>::max()) +
       ", got " + shown(value));
}

std::string as_string(const Json& value, std::string_view field) {
  if (!value.is_string()) fail("field " + named(field) + " must be a string, got " + shown(value));
  return value.get<std::string>();
}

// Lengths are in bytes: every bounded string here (ids, tokens) is ASCII.
std::string as_bounded_string(const Json& value, std::string_view field, std::size_t min_chars, std::size_t max_chars) {
  if (value.is_string()) {
    const auto& text = value.get_ref<const std::string&>();
    if (text.size() >= min_chars && text.size() <= max_chars) return text;
  }
  const std::string length = min_chars == 0 ? "at most " + std::to_string(max_chars)
                                            : std::to_string(min_chars) + "–" + std::to_string(max_chars);
  fail("field " + named(field) + " must be a string of " + length + " characters, got " + shown(value));
}

std::string as_table_id(const Json& value, std::string_view field) {
  return as_bounded_string(value, field, 1, max_table_id_chars);
}

std::string as_invite(const Json& value, std::string_view field) {
  return as_bounded_string(value, field, 1, max_invite_chars);
}

// Printable ASCII, so that it can be logged and echoed back as it came.
std::string as_action_id(const Json& value, std::string_view field) {
  auto id = as_bounded_string(value, field, 1, max_action_id_chars);
  if (!std::all_of(id.begin(), id.end(), [](char c) { return c >= 0x20 && c < 0x7f; }))
    fail("field " + named(field) + " must be printable ASCII, got " + shown(value));
  return id;
}

std::string as_token(const Json& value, std::string_view field) {
  return as_bounded_string(value, field, 0, max_token_chars);
}

// Shown in a list of devices: printable, one line.
std::string as_device_label(const Json& value, std::string_view field) {
  auto label = as_bounded_string(value, field, 1, max_device_label_chars);
  if (!std::all_of(label.begin(), label.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x20 && c != 0x7f; }))
    fail("field " + named(field) + " must be one line of printable text, got " + shown(value));
  return label;
}

std::string as_player_name(const Json& value, std::string_view field) {
  if (value.is_string() && valid_player_name(value.get_ref<const std::string&>())) return value.get<std::string>();
  fail(std::string(field) + " must be 1–24 characters of A–Z, a–z, 0–9, _ or -, got " + shown(value));
}

bool as_bool(const Json& value, std::string_view field) {
  if (!value.is_boolean()) fail("field " + named(field) + " must be true or false, got " + shown(value));
  return value.get<bool>();
}

Json as_object(const Json& value, std::string_view field) {
  if (!value.is_object()) fail("field " + named(field) + " must be an object, got " + shown(value));
  return value;
}

Json as_action(const Json& value) {
  const auto type = value.is_object() ? value.find("type") : value.end();
  if (type == value.end() || !type->is_string()) {
    fail("field 'action' must be an object with a string 'type', got " + shown(value));
  }
  return value;
}

std::vector<rules::Card> as_deck(const Json& value) {
  if (!value.is_array()) fail("field 'deck' must be an array of cards, got " + shown(value));
  if (value.size() > max_deck_cards) {
    fail("field 'deck' must hold at most " + std::to_string(max_deck_cards) + " cards, got " +
         std::to_string(value.size()));
  }
  std::vector<rules::Card> deck;
  deck.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) {
    const auto card = value[i].is_string() ? rules::parse_card(value[i].get_ref<const std::string&>()) : std::nullopt;
    if (!card) fail("deck[" + std::to_string(i) + "] must be a card like \"TH\" or \"JK\", got " + shown(value[i]));
    deck.push_back(*card);
  }
  return deck;
}

// ----- The fields of one message.

class Fields {
 public:
  Fields(const Json& message, std::string_view type) : message_(message), type_(type) {}

  // Absent and null both mean "not given": many client libraries write an unset
  // optional value as null.
  const Json* find(std::string_view name) const {
    const auto it = message_.find(name);
    return it == message_.end() || it->is_null() ? nullptr : &*it;
  }

  const Json& required(std::string_view name) const {
    const auto it = message_.find(name);
    if (it == message_.end()) fail("missing field " + named(name) + " in " + named(type_));
    return *it;
  }

  // Reads an optional field with `convert(value, name, extra...)`.
  template <class Convert, class... Extra>
  auto optional(std::string_view name, Convert convert, Extra... extra) const
      -> std::optional<decltype(convert(std::declval<const Json&>(), name, extra...))> {
    const Json* value = find(name);
    if (!value) return std::nullopt;
    return convert(*value, name, extra...);
  }

  template <class Int>
  std::optional<Int> optional_integer(std::string_view name, Int min, Int max) const {
    const auto number = optional(name, as_integer, min, max);
    return number ? std::optional<Int>(static_cast<Int>(*number)) : std::nullopt;
  }

  std::string table() const { return as_table_id(required("table"), "table"); }
  // A seat index; a table has at most `max_seats` seats.
  std::optional<int> seat() const { return optional_integer<int>("seat", 0, max_seats - 1); }

 private:
  const Json& message_;
  std::string_view type_;
};

// An array of at most max_features names; the known ones set their flag.
Features as_features(const Json& value, std::string_view field) {
  if (!value.is_array() || value.size() > max_features)
    fail("field " + named(field) + " must be an array of at most " + std::to_string(max_features) +
         " feature names, got " + shown(value));
  Features features;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const auto name = as_bounded_string(value[i], std::string(field) + "[" + std::to_string(i) + "]", 1, max_feature_chars);
    if (name == "deltas") features.deltas = true;
    if (name == "table_melds") features.table_melds = true;
  }
  return features;
}

// ----- One builder per message type.

Body build_hello(const Fields& fields) {
  return Hello{
      .name = as_player_name(fields.required("name"), "name"),
      .token = fields.optional("token", as_token),
      .invite = fields.optional("invite", as_invite),
      .signup = fields.optional("signup", as_invite),
      .features = fields.optional("features", as_features).value_or(Features{}),
  };
}

Body build_signup_link(const Fields& fields) {
  return SignupLink{
      .uses = fields.optional_integer<int>("uses", 1, max_signup_uses).value_or(1),
      .hours = fields.optional_integer<int>("hours", 1, max_signup_hours).value_or(24),
  };
}

Body build_device_sign_in(const Fields& fields) {
  return DeviceSignIn{
      .code = as_bounded_string(fields.required("code"), "code", 1, max_invite_chars),
      .label = fields.optional("label", as_device_label).value_or(""),
      .features = fields.optional("features", as_features).value_or(Features{}),
  };
}

Body build_revoke_device(const Fields& fields) {
  return RevokeDevice{.device = as_bounded_string(fields.required("device"), "device", 1, max_invite_chars)};
}

std::string as_passphrase(const Json& value, std::string_view field) {
  return as_bounded_string(value, field, min_passphrase_chars, max_passphrase_chars);
}

Body build_set_passphrase(const Fields& fields) {
  return SetPassphrase{.passphrase = as_passphrase(fields.required("passphrase"), "passphrase")};
}

Body build_passphrase_sign_in(const Fields& fields) {
  return PassphraseSignIn{
      .name = as_player_name(fields.required("name"), "name"),
      .passphrase = as_passphrase(fields.required("passphrase"), "passphrase"),
      .label = fields.optional("label", as_device_label).value_or(""),
      .features = fields.optional("features", as_features).value_or(Features{}),
  };
}

Body build_recover(const Fields& fields) {
  return Recover{
      .name = as_player_name(fields.required("name"), "name"),
      .code = as_bounded_string(fields.required("code"), "code", 1, max_invite_chars),
      .features = fields.optional("features", as_features).value_or(Features{}),
  };
}

Body build_create(const Fields& fields) {
  Create create;
  create.game = as_string(fields.required("game"), "game");
  create.options = fields.optional("options", as_object).value_or(Json::object());
  create.seats = fields.optional_integer<int>("seats", 1, max_seats);
  if (const Json* seed = fields.find("seed")) create.seed = as_seed(*seed);
  if (const Json* deck = fields.find("deck")) create.deck = as_deck(*deck);
  create.is_private = fields.optional("private", as_bool).value_or(false);
  if (const Json* clock = fields.find("clock")) create.clock = clock_from_json(*clock);
  return create;
}

Body build_join(const Fields& fields) {
  Join join{
      .table = fields.optional("table", as_table_id),
      .invite = fields.optional("invite", as_invite),
      .seat = fields.seat(),
  };
  if (join.table.has_value() == join.invite.has_value()) {
    fail(std::string("'join' needs exactly one of 'table' or 'invite', got ") + (join.table ? "both" : "neither"));
  }
  return join;
}

Body build_watch(const Fields& fields) {
  Watch watch{.table = fields.optional("table", as_table_id), .invite = fields.optional("invite", as_invite)};
  if (watch.table.has_value() == watch.invite.has_value()) {
    fail(std::string("'watch' needs exactly one of 'table' or 'invite', got ") + (watch.table ? "both" : "neither"));
  }
  return watch;
}

Body build_bot(const Fields& fields) {
  return Bot{
      .table = fields.table(),
      .seat = fields.seat(),
      .level = fields.optional_integer<int>("level", 0, max_bot_level).value_or(default_bot_level),
  };
}

Body build_unseat(const Fields& fields) {
  const auto seat = fields.seat();
  if (!seat) fail("field 'seat' is required in 'unseat': the seat to free");
  const std::string replace = fields.optional("replace", as_string).value_or("open");
  if (replace != "open" && replace != "bot")
    fail("field 'replace' must be \"open\" (a new player takes the seat) or \"bot\", got " + shown(Json(replace)));
  return Unseat{.table = fields.table(), .seat = *seat, .replace = replace};
}

Body build_act(const Fields& fields) {
  return Act{.table = fields.table(),
             .action = as_action(fields.required("action")),
             .action_id = fields.optional("action_id", as_action_id)};
}

Body build_ledger(const Fields& fields) {
  return LedgerQuery{
      .player = fields.optional("player", as_player_name),
      .limit = fields.optional_integer<int>("limit", 1, max_ledger_limit),
      .before = fields.optional_integer<std::int64_t>("before", 1, int64_max),
  };
}

Body build_chat(const Fields& fields) {
  Chat chat{.table = fields.table(), .text = std::nullopt, .reaction = std::nullopt};
  if (const Json* text = fields.find("text")) chat.text = chat_text(*text);
  if (const Json* reaction = fields.find("reaction")) {
    const auto& known = chat_reactions();
    if (!reaction->is_string() || std::find(known.begin(), known.end(), reaction->get<std::string>()) == known.end()) {
      std::string names;
      for (const auto& name : known) names += (names.empty() ? "" : ", ") + name;
      fail("field 'reaction' must be one of " + names + "; got " + shown(*reaction));
    }
    chat.reaction = reaction->get<std::string>();
  }
  if (chat.text.has_value() == chat.reaction.has_value())
    fail(std::string("'chat' needs exactly one of 'text' or 'reaction', got ") + (chat.text ? "both" : "neither"));
  return chat;
}

Body build_mute(const Fields& fields) {
  return Mute{.table = fields.table(),
              .player = as_player_name(fields.required("player"), "player"),
              .muted = as_bool(fields.required("muted"), "muted")};
}

Body build_rematch(const Fields& fields) {
  return Rematch{.table = fields.table(), .same_seed = fields.optional("same_seed", as_bool).value_or(false)};
}

// Decodes one UTF-8 character at `at` (the parser has checked the encoding; a
// broken byte counts as a control character and is refused).
char32_t next_code_point(const std::string& text, std::size_t& at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(at);
  const int length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3 : (lead >> 3) == 0x1E ? 4 : 0;
  if (length == 0 || at + length > text.size()) {
    ++at;
    return 0;
  }
  char32_t code = length == 1 ? lead : lead & (0x7F >> length);
  for (int i = 1; i < length; ++i) {
    if ((byte(at + i) & 0xC0) != 0x80) {
      ++at;
      return 0;
    }
    code = (code << 6) | (byte(at + i) & 0x3F);
  }
  at += length;
  return code;
}

// C0 and C1 controls, DEL, the line and paragraph separators, and the bidi
// controls that could make a chat line read as something else.
bool is_control(char32_t c) {
  return c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0x2028 || c == 0x2029 || (c >= 0x202A && c <= 0x202E) ||
         (c >= 0x2066 && c <= 0x2069);
}

std::string hex_code_point(char32_t c) {
  static const char* digits = "0123456789ABCDEF";
  std::string out = "U+";
  for (int shift = c > 0xFFFF ? 20 : 12; shift >= 0; shift -= 4) out += digits[(c >> shift) & 0xF];
  return out;
}

Body build_history(const Fields& fields) {
  return History{
      .table = fields.table(),
      .deal = fields.optional_integer<int>("deal", 1, max_history_deal),
      .from = fields.optional_integer<std::int64_t>("from", 1, int64_max),
  };
}

// 1 to max_settle_tables table ids; a table named twice counts once.
std::vector<std::string> as_table_list(const Json& value, std::string_view field) {
  if (!value.is_array() || value.empty() || value.size() > max_settle_tables)
    fail("field " + named(field) + " must be an array of 1 to " + std::to_string(max_settle_tables) +
         " table ids, got " + (value.is_array() ? std::to_string(value.size()) + " of them" : shown(value)));
  std::vector<std::string> tables;
  for (std::size_t i = 0; i < value.size(); ++i) {
    auto id = as_table_id(value[i], std::string(field) + "[" + std::to_string(i) + "]");
    if (std::find(tables.begin(), tables.end(), id) == tables.end()) tables.push_back(std::move(id));
  }
  return tables;
}

Body build_tables(const Fields& fields) { return Tables{.mine = fields.optional("mine", as_bool).value_or(false)}; }

Body build_settle(const Fields& fields) { return Settle{.tables = fields.optional("tables", as_table_list)}; }

template <class Message>
Body build_empty(const Fields&) {
  return Message{};
}

template <class Message>
Body build_table_only(const Fields& fields) {
  return Message{.table = fields.table()};
}

struct MessageSpec {
  std::string_view type;
  std::vector<std::string_view> fields;  // besides "type" and "id"
  Body (*build)(const Fields&);
};

// In the order of the Body variant, so that type_name can index it.
const std::array<MessageSpec, std::variant_size_v<Body>>& message_specs() {
  static const std::array<MessageSpec, std::variant_size_v<Body>> specs{{
      {"hello", {"name", "token", "invite", "signup", "features"}, build_hello},
      {"games", {}, build_empty<Games>},
      {"tables", {"mine"}, build_tables},
      {"create", {"game", "options", "seats", "seed", "deck", "private", "clock"}, build_create},
      {"join", {"table", "invite", "seat"}, build_join},
      {"watch", {"table", "invite"}, build_watch},
      {"leave", {"table"}, build_table_only<Leave>},
      {"bot", {"table", "seat", "level"}, build_bot},
      {"start", {"table"}, build_table_only<Start>},
      {"end", {"table"}, build_table_only<End>},
      {"act", {"table", "action", "action_id"}, build_act},
      {"ledger", {"player", "limit", "before"}, build_ledger},
      {"ping", {}, build_empty<Ping>},
      {"back", {"table"}, build_table_only<Back>},
      {"unseat", {"table", "seat", "replace"}, build_unseat},
      {"chat", {"table", "text", "reaction"}, build_chat},
      {"mute", {"table", "player", "muted"}, build_mute},
      {"rematch", {"table", "same_seed"}, build_rematch},
      {"history", {"table", "deal", "from"}, build_history},
      {"settle", {"tables"}, build_settle},
      {"signup_link", {"uses", "hours"}, build_signup_link},
      {"recover", {"name", "code", "features"}, build_recover},
      {"device_link", {}, build_empty<DeviceLink>},
      {"device_sign_in", {"code", "label", "features"}, build_device_sign_in},
      {"devices", {}, build_empty<Devices>},
      {"revoke_device", {"device"}, build_revoke_device},
      {"set_passphrase", {"passphrase"}, build_set_passphrase},
      {"passphrase_sign_in", {"name", "passphrase", "label", "features"}, build_passphrase_sign_in},
  }};
  return specs;
}

const MessageSpec& find_spec(const std::string& type) {
  const auto& specs = message_specs();
  const auto spec = std::find_if(specs.begin(), specs.end(), [&](const MessageSpec& s) { return s.type == type; });
  if (spec == specs.end()) fail("unknown message type " + named(type));
  return *spec;
}

void reject_unknown_fields(const Json& message, const MessageSpec& spec) {
  for (const auto& [name, value] : message.items()) {
    const bool known = name == "type" || name == "id" ||
                       std::find(spec.fields.begin(), spec.fields.end(), name) != spec.fields.end();
    if (!known) fail("unknown field " + named(name) + " in " + named(spec.type));
  }
}

std::string read_type(const Json& message) {
  const auto type = message.find("type");
  if (type == message.end()) fail("missing field 'type'");
  return as_string(*type, "type");
}

}  // namespace

Json clock_to_json(const Clock& clock) {
  return {{"seconds", clock.seconds}, {"bank", clock.bank}, {"away_after", clock.away_after}};
}

Clock clock_from_json(const Json& value) {
  if (!value.is_object()) fail("field 'clock' must be an object like {\"seconds\":90,\"bank\":0,\"away_after\":2}, got " + shown(value));
  Clock clock;
  for (const auto& [name, field] : value.items()) {
    if (field.is_null()) continue;
    if (name == "seconds") {
      const bool representable = field.is_number_integer() && !(field.is_number_unsigned() && field.get<std::uint64_t>() > 3600);
      const auto seconds = representable ? field.get<std::int64_t>() : -1;
      if (seconds != 0 && (seconds < Clock::min_seconds || seconds > Clock::max_seconds))
        fail("field 'clock.seconds' must be 0 (no clock) or an integer from " + std::to_string(Clock::min_seconds) +
             " to " + std::to_string(Clock::max_seconds) + ", got " + shown(field));
      clock.seconds = static_cast<int>(seconds);
    } else if (name == "bank") {
      clock.bank = static_cast<int>(as_integer(field, "clock.bank", 0, Clock::max_bank));
    } else if (name == "away_after") {
      clock.away_after = static_cast<int>(as_integer(field, "clock.away_after", 1, Clock::max_away_after));
    } else {
      fail("unknown field " + named("clock." + name) + " in 'create'; a clock has seconds, bank and away_after");
    }
  }
  return clock;
}

Request parse_request(std::string_view text, std::optional<std::int64_t>* id_out) {
  const Json message = parse_json(text);
  if (!message.is_object()) fail("a request must be a JSON object, got " + shown(message));

  Request request;
  // The id is read first so that every later error can still carry `re`.
  if (const auto id = message.find("id"); id != message.end() && !id->is_null()) {
    request.id = as_integer(*id, "id", 0, int64_max);
    if (id_out) *id_out = request.id;
  }
  request.type = read_type(message);
  const MessageSpec& spec = find_spec(request.type);
  reject_unknown_fields(message, spec);
  request.body = spec.build(Fields(message, spec.type));
  return request;
}

namespace {

template <typename T, typename Variant>
struct is_alternative;
template <typename T, typename... Ts>
struct is_alternative<T, std::variant<Ts...>> : std::bool_constant<(std::is_same_v<T, Ts> || ...)> {};

}  // namespace

std::optional<TableRequest> table_request(const Body& body) {
  return std::visit(
      [](const auto& request) -> std::optional<TableRequest> {
        using T = std::decay_t<decltype(request)>;
        if constexpr (is_alternative<T, TableRequest>::value) return TableRequest{request};
        else return std::nullopt;
      },
      body);
}

TableAddress address_of(const TableRequest& request) {
  return std::visit(
      [](const auto& body) -> TableAddress {
        using T = std::decay_t<decltype(body)>;
        if constexpr (std::is_same_v<T, Join> || std::is_same_v<T, Watch>) return {body.table, body.invite};
        else return {body.table, std::nullopt};
      },
      request);
}

const std::vector<std::string>& chat_reactions() {
  static const std::vector<std::string> reactions{"gg", "nice", "oops", "thanks", "hurry", "wow", "sorry", "thumbs_up"};
  return reactions;
}

std::string chat_text(const Json& value) {
  if (!value.is_string()) fail("field 'text' must be a string, got " + shown(value));
  const auto& raw = value.get_ref<const std::string&>();
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; };
  std::size_t begin = 0, end = raw.size();
  while (begin < end && blank(raw[begin])) ++begin;
  while (end > begin && blank(raw[end - 1])) --end;
  std::string text = raw.substr(begin, end - begin);
  std::size_t characters = 0;
  for (std::size_t at = 0; at < text.size();) {
    const char32_t c = next_code_point(text, at);
    ++characters;
    if (is_control(c))
      fail("chat text may not hold control characters; character " + std::to_string(characters) + " is " +
           hex_code_point(c));
  }
  if (characters == 0 || characters > max_chat_chars)
    fail("chat text must be 1–" + std::to_string(max_chat_chars) + " characters once trimmed, got " +
         std::to_string(characters));
  return text;
}

bool valid_player_name(std::string_view name) {
  const auto allowed = [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  };
  return !name.empty() && name.size() <= max_name_chars && std::all_of(name.begin(), name.end(), allowed);
}

std::string_view type_name(const Body& body) { return message_specs()[body.index()].type; }

Json error_message(std::optional<std::int64_t> re, const std::string& code, const std::string& message) {
  return reply("error", re, Json{{"code", code}, {"message", message}});
}

Json features_json(const Features& features) {
  Json names = Json::array();
  if (features.deltas) names.push_back("deltas");
  if (features.table_melds) names.push_back("table_melds");
  return names;
}

Json reply(std::string type, std::optional<std::int64_t> re, Json fields) {
  fields["type"] = std::move(type);
  if (re) fields["re"] = *re;
  return fields;
}

}  // namespace parlour::protocol
