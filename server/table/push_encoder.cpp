#include "server/table/push_encoder.h"

#include <algorithm>

#include "rules/json_writer.h"
#include "server/common/names.h"

namespace parlour::server {

using Json = nlohmann::json;

bool PushEncoder::add(ClientId client, const std::string& player, protocol::Features wants) {
  if (has(client)) return false;
  members_.push_back({client, player, wants});
  return true;
}

bool PushEncoder::remove(ClientId client) {
  return std::erase_if(members_, [&](const Member& m) { return m.client == client; }) > 0;
}

bool PushEncoder::has(ClientId client) const {
  return std::any_of(members_.begin(), members_.end(), [&](const Member& m) { return m.client == client; });
}

bool PushEncoder::has_player(const std::string& player) const { return member_named(player).has_value(); }

std::optional<std::string> PushEncoder::member_named(const std::string& player) const {
  for (const auto& member : members_)
    if (same_name(member.player, player)) return member.player;
  return std::nullopt;
}

int PushEncoder::spectators(const TableState& state) const {
  return static_cast<int>(
      std::count_if(members_.begin(), members_.end(), [&](const Member& m) { return !state.seat_of(m.player); }));
}

std::vector<Frame> PushEncoder::encode(const PushScene& scene) {
  std::vector<Frame> frames;
  if (members_.empty()) return frames;
  refresh_players(scene);
  auto parts = shared_parts(scene);
  frames.reserve(members_.size());
  for (auto& member : members_)
    frames.push_back({member.client, std::make_shared<const std::string>(state_text(member, parts, scene))});
  return frames;
}

bool PushEncoder::players_changed(const PushScene& scene) const {
  return players_version_ == 0 || players_key(scene) != players_key_;
}

void PushEncoder::resend_all() {
  for (auto& member : members_) member = Member{member.client, member.player, member.wants};
  result_read_ = false;
}

std::vector<PushEncoder::PlayerKey> PushEncoder::players_key(const PushScene& scene) {
  std::vector<PlayerKey> key;
  key.reserve(scene.state.seats().size());
  for (int seat = 0; seat < static_cast<int>(scene.state.seats().size()); ++seat) {
    const auto& s = scene.state.seats()[seat];
    key.push_back({s.player, scene.chips[seat], s.bot, s.bot ? !s.left : scene.presence[seat].connected, scene.presence[seat].away, s.leaving});
  }
  return key;
}

// Written straight to text, members in name order (JsonText): the list is
// written again whenever anyone's chips move, which is most steps.
std::string PushEncoder::players_text(const PushScene& scene) {
  rules::JsonText out;
  out.array([&] {
    for (int seat = 0; seat < static_cast<int>(scene.state.seats().size()); ++seat) {
      const auto& s = scene.state.seats()[seat];
      if (s.player.empty()) continue;
      const bool connected = s.bot ? !s.left : scene.presence[seat].connected;
      out.object([&] {
        out.field("away", scene.presence[seat].away);
        out.field("bot", s.bot);
        out.field("chips", scene.chips[seat]);
        out.field("connected", connected);
        if (!s.leaving.empty()) out.field("leaving", s.leaving);
        out.field("player", s.player);
        out.field("seat", seat);
      });
    }
  });
  return out.take();
}

// The chips of players_text's entries, in the same order: what a push carries
// when nothing else of the list changed.
std::string PushEncoder::players_chips_text(const PushScene& scene) {
  rules::JsonText out;
  out.array([&] {
    for (int seat = 0; seat < static_cast<int>(scene.state.seats().size()); ++seat)
      if (!scene.state.seats()[seat].player.empty()) out.integer(scene.chips[seat]);
  });
  return out.take();
}

bool PushEncoder::same_roster(const std::vector<PlayerKey>& a, const std::vector<PlayerKey>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    auto one = a[i];
    one.chips = b[i].chips;
    if (!(one == b[i])) return false;
  }
  return true;
}

void PushEncoder::refresh_result(const PushScene& scene) {
  // A result is the last settled deal's: it changes only when a deal settles,
  // never while one is played (after a restart it is read once).
  if (scene.state.game()->phase() == rules::Phase::playing && result_read_) return;
  result_read_ = true;
  const auto& game = *scene.state.game();
  const auto result = game.result();
  auto text = result.is_null() ? std::string() : result.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (text == result_text_) return;
  result_text_ = std::move(text);
  ++result_version_;
}

// The result as `table_melds` has it is worked out only when a member who asked
// for it is sent a result, once a deal; kept only where it differs (Carousel's).
const std::string& PushEncoder::result_for(const Member& member, const PushScene& scene) {
  if (!member.wants.table_melds) return result_text_;
  if (result_table_version_ != result_version_) {
    result_table_version_ = result_version_;
    result_table_text_ = scene.state.game()->result_with_table_melds().dump(-1, ' ', false, Json::error_handler_t::replace);
    if (result_table_text_ == result_text_) result_table_text_.clear();
  }
  return result_table_text_.empty() ? result_text_ : result_table_text_;
}

void PushEncoder::refresh_players(const PushScene& scene) {
  // Most steps change no one's chips, seat or presence: compare those first.
  auto key = players_key(scene);
  if (key == players_key_ && players_version_ != 0) return;
  const bool chips_alone = players_version_ != 0 && same_roster(key, players_key_);
  players_key_ = std::move(key);
  auto text = players_text(scene);
  if (text == players_text_) return;
  players_text_ = std::move(text);
  players_chips_text_ = players_chips_text(scene);
  ++players_version_;
  if (!chips_alone) ++roster_version_;
}

// In play the block is the deal's commitment, worked out once when it was
// dealt; a finished table's adds the seed and salt.
void PushEncoder::refresh_fair(const PushScene& scene) {
  if (scene.state.deals_started() == 0) return;
  auto text = scene.state.finished() ? scene.state.fair_json().dump()
                         : R"({"commitment":")" + scene.state.current_commitment() + R"(","deal":)" + std::to_string(scene.state.deals_started()) + "}";
  if (text == fair_text_) return;
  fair_text_ = std::move(text);
  ++fair_version_;
}

PushEncoder::SharedParts PushEncoder::shared_parts(const PushScene& scene) {
  SharedParts parts;
  auto& head = parts.head;
  head.reserve(256);
  head += R"({"type":"state","table":)";
  head += Json(scene.state.id()).dump();
  head += R"(,"seq":)";
  head += std::to_string(scene.state.seq());
  head += R"(,"status":)";
  head += Json(scene.state.status()).dump();
  parts.intro = R"(,"game":)" + Json(scene.info.id).dump() + R"(,"host":)" + Json(scene.state.record().host).dump() +
                R"(,"clock":)" + scene.clock_text;
  auto& tail = parts.tail;
  if (!scene.state.game() || scene.state.failed()) {
    tail += R"(,"to_act":[])";
  } else {
    tail += R"(,"to_act":)";
    tail += Json(scene.state.game()->to_act()).dump();
    refresh_result(scene);
    parts.result_always = scene.state.status() != "playing";
  }
  tail += scene.timer;
  if (scene.state.failed()) tail += R"(,"failure":)" + Json(scene.state.record().failure).dump(-1, ' ', false, Json::error_handler_t::replace);
  tail += talk_tail(scene);
  refresh_fair(scene);
  return parts;
}

// The view keys that stay the same all table long: before play (and after a
// fault) the table's seats and options, in play the ones the game names.
const std::vector<std::string>& PushEncoder::view_constant_keys(const PushScene& scene) {
  static const std::vector<std::string> table_keys = {"seats", "options"};
  return !scene.state.game() || scene.state.failed() ? table_keys : scene.info.view_constants;
}

// Before play (and after a fault) the view is the table's seats and options.
void PushEncoder::write_view(const PushScene& scene, std::optional<int> seat, rules::JsonWriter& out) {
  if (scene.state.game() && !scene.state.failed()) return scene.state.game()->write_view(seat, out);
  out.object([&] {
    out.field("seats", scene.state.seats().size());
    out.field("options", scene.state.options());
  });
}

namespace {

// Members "name":value joined as the text of one object.
void append_object(std::string& out, const std::vector<rules::JsonText::Member>& members) {
  out += '{';
  for (std::size_t i = 0; i < members.size(); ++i) {
    if (i > 0) out += ',';
    out += '"';
    out += members[i].name;
    out += "\":";
    out += members[i].value;
  }
  out += '}';
}

}  // namespace

// A written view's members (sorted by name, as in any JSON object the server
// writes) without the constants; those, when asked for, apart.
std::string PushEncoder::split_constants(const rules::JsonText& view, const std::vector<std::string>& keys,
                                         ViewConstants* constants) {
  std::vector<rules::JsonText::Member> lean;
  std::vector<rules::JsonText::Member> constant_members;
  const auto members = view.top_members();
  lean.reserve(members.size());
  for (const auto& member : members) {
    const bool constant = std::find(keys.begin(), keys.end(), member.name) != keys.end();
    (constant ? constant_members : lean).push_back(member);
  }
  std::string text;
  text.reserve(view.text().size());
  append_object(text, lean);
  if (constants) {
    constants->members.clear();
    append_object(constants->members, constant_members);
    constants->names = "[";
    for (std::size_t i = 0; i < constant_members.size(); ++i) {
      if (i > 0) constants->names += ',';
      constants->names += '"';
      constants->names += constant_members[i].name;
      constants->names += '"';
    }
    constants->names += ']';
  }
  return text;
}

// Each member's push carries its own seat's view; the constants go with it only
// while the member has not had them (they are the same in every seat's view,
// tests/rules/test_view_schema.cpp), so no push ever holds another seat's part.
PushEncoder::ViewParts& PushEncoder::view_parts(SharedParts& parts, const PushScene& scene, std::optional<int> seat) {
  const bool first = parts.views.empty();
  auto [it, fresh] = parts.views.try_emplace(seat);
  if (!fresh) return it->second;
  rules::JsonText view;
  view.reserve(kViewBytes);
  view.share_values(&parts.shared_values);
  write_view(scene, seat, view);
  it->second.lean = split_constants(view, view_constant_keys(scene), first ? &parts.constants : nullptr);
  const bool may_act = seat && scene.state.game() && !scene.state.failed();
  it->second.legal = may_act ? rules::json_text_of([&](rules::JsonWriter& legal) { scene.legal(*seat, legal); }) : "[]";
  if (first && parts.constants.members != view_constants_) {
    view_constants_ = parts.constants.members;
    ++view_constants_version_;
  }
  return it->second;
}

namespace {

// `lean` and `constants` (two serialized JSON objects) as one object.
std::string joined_objects(const std::string& lean, const std::string& constants) {
  if (constants == "{}") return lean;
  if (lean == "{}") return constants;
  return lean.substr(0, lean.size() - 1) + "," + constants.substr(1);
}

}  // namespace

std::string PushEncoder::state_text(Member& member, SharedParts& parts, const PushScene& scene) {
  // A whole push is a first push: the member is taken to have had nothing.
  if (!member.wants.deltas) member = Member{member.client, member.player, member.wants};
  const auto seat = scene.state.seat_of(member.player);
  auto& view = view_parts(parts, scene, seat);
  std::string text;
  text.reserve(parts.head.size() + parts.tail.size() + view.lean.size() + 512);
  text += parts.head;
  // What never changes goes in a member's first push only.
  if (!member.introduced) {
    text += parts.intro;
    member.introduced = true;
  }
  // The players list goes when it changed; when only chips changed, just those.
  if (member.players_sent != players_version_) {
    if (member.players_sent != 0 && member.roster_sent == roster_version_) {
      text += R"(,"chips":)";
      text += players_chips_text_;
    } else {
      text += R"(,"players":)";
      text += players_text_;
      member.roster_sent = roster_version_;
    }
    member.players_sent = players_version_;
  }
  text += R"(,"seat":)";
  text += seat ? std::to_string(*seat) : "null";
  if (!seat) {
    if (const auto place = scene.waiting_position(member.player)) text += R"(,"waiting":)" + std::to_string(*place);
  }
  // The invite is for those who may bring friends: the host and the seated.
  if (!member.invite_sent && (seat || same_name(scene.state.record().host, member.player))) {
    text += R"(,"invite":)" + Json(scene.state.record().invite).dump();
    member.invite_sent = true;
  }
  text += parts.tail;
  // A deal's commitment goes with the first push that shows its cards (before the view).
  if (!fair_text_.empty() && member.fair_sent != fair_version_) {
    text += R"(,"fair":)";
    text += fair_text_;
    member.fair_sent = fair_version_;
  }
  // While the table is played, the last deal's result goes once to each member:
  // it stays until the next deal settles (docs/protocol.md).
  if (scene.state.game() && !scene.state.failed() && !result_text_.empty() && (parts.result_always || member.result_sent != result_version_)) {
    text += R"(,"result":)";
    text += result_for(member, scene);
    member.result_sent = result_version_;
  }
  text += R"(,"view":)";
  if (member.constants_sent != view_constants_version_) {
    if (view.whole.empty()) view.whole = joined_objects(view.lean, parts.constants.members);
    text += view.whole;
    text += R"(,"view_constants":)";
    text += parts.constants.names;
    member.constants_sent = view_constants_version_;
  } else {
    text += view.lean;
  }
  text += R"(,"legal":)";
  text += view.legal;
  log_delta(member, text, scene);
  chat_delta(member, text, scene);
  text += '}';
  return text;
}

// The log lines this member has not had: "log_from" numbers the first of them
// (lines are numbered from 0 for the life of the table), "log" holds them. A
// member new to the table (or too far behind) gets the whole kept tail.
void PushEncoder::log_delta(Member& member, std::string& out, const PushScene& scene) {
  append_lines_since(out, "log", scene.state.log_tail(), scene.state.log_total(), member.log_sent);
}

// `,"NAME_from":N,"NAME":[…]`: the lines of `kept` (the last of `total` lines,
// already JSON) from `sent` on, or all of them when `sent` is older than the tail.
void PushEncoder::append_lines_since(std::string& out, const char* name, const std::deque<std::string>& kept,
                                   std::int64_t total, std::int64_t& sent) {
  const std::int64_t kept_from = total - static_cast<std::int64_t>(kept.size());
  const std::int64_t from = sent < kept_from ? kept_from : sent;
  out += R"(,")";
  out += name;
  out += R"(_from":)";
  out += std::to_string(from);
  out += R"(,")";
  out += name;
  out += R"(":[)";
  for (std::int64_t line = from; line < total; ++line) {
    if (line > from) out += ',';
    out += kept[static_cast<std::size_t>(line - kept_from)];
  }
  out += ']';
  sent = total;
}

// What the log allows the seat (TableState::legal_for), less what the table's
// memory rules out: nothing while a step is being written, no second continue.
// The parts of a state push about the table's talk and end, the same for everyone.
std::string PushEncoder::talk_tail(const PushScene& scene) {
  std::string tail;
  const auto& talk = scene.state.talk();
  if (!talk.muted.empty()) {
    Json names = Json::array();
    for (const auto& [key, name] : talk.muted) names.push_back(name);
    tail += R"(,"muted":)" + names.dump();
  }
  if (talk.rematch_of) {
    tail += R"(,"rematch_of":)" +
            Json({{"table", talk.rematch_of->at("table")}, {"same_seed", talk.rematch_of->at("same_seed")}}).dump();
  }
  if (!scene.state.finished()) return tail;
  if (talk.rematch) tail += R"(,"rematch":)" + talk.rematch->dump();
  auto table_standings = scene.state.standings();
  if (table_standings.is_null()) return tail;
  if (talk.rematch_of) {
    table_standings["rematch_of"] = talk.rematch_of->at("table");
    // Duplicate play: the same deals, side by side with the table they were first played at.
    if (talk.rematch_of->at("same_seed").get<bool>() && talk.rematch_of->at("standings").is_object()) {
      auto compare = talk.rematch_of->at("standings");
      compare["table"] = talk.rematch_of->at("table");
      table_standings["compare"] = std::move(compare);
    }
  }
  tail += R"(,"standings":)" + table_standings.dump(-1, ' ', false, Json::error_handler_t::replace);
  return tail;
}

// Like the log: the chat lines this member has not had, `chat_from` numbering
// the first; left out when there are none (but always in a member's first push).
void PushEncoder::chat_delta(Member& member, std::string& out, const PushScene& scene) {
  const auto& talk = scene.state.talk();
  if (member.chat_sent == talk.chat_total) return;
  append_lines_since(out, "chat", talk.chat, talk.chat_total, member.chat_sent);
}

}  // namespace parlour::server
