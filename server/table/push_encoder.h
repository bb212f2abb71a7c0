// The state pushes of one table (docs/protocol.md "State"): one per member,
// assembled from parts serialized once a broadcast (the same header and tail
// for everyone, one view per seat). A member who asked for deltas gets, of the
// rest, only what it has not had yet: log and chat lines, the players list (or
// just its chips), the table's fixed parts, the fair block, the view's
// constants, a result already sent. Every other member gets every push whole,
// as PROTOCOL.md version 1 promises: the first push again each time, made of
// the same parts. The encoder keeps who is at the table and what each has had;
// what the table is comes in a PushScene, never from here.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "protocol/messages.h"
#include "rules/registry.h"
#include "server/common/client.h"
#include "server/table/table_state.h"

namespace parlour::server {

struct Frame {
  ClientId to = 0;
  std::shared_ptr<const std::string> text;
};

// A seat as the players list shows it, beyond the log: whether its person is
// here, and whether a bot plays for him.
struct SeatPresence {
  bool connected = false;
  bool away = false;
};

// The table at the moment of a broadcast.
struct PushScene {
  const TableState& state;
  const rules::GameInfo& info;
  const rules::Balances& chips;             // the seats' chips now
  const std::vector<SeatPresence>& presence;  // by seat
  std::string timer;                        // the push's `,"timer":…` (and `,"timers":…`), or ""
  const std::string& clock_text;            // the table's clock, as JSON
  std::function<void(int seat, rules::JsonWriter& out)> legal;  // writes what the seat may do now
  std::function<std::optional<int>(const std::string& player)> waiting_position;  // in line for a seat
};

class PushEncoder {
 public:
  using Json = nlohmann::json;

  // A connection joins the audience (false if it was there already); `wants`:
  // what it asked for (`deltas`: pushes of what changed only; `table_melds`).
  bool add(ClientId client, const std::string& player, protocol::Features wants);
  // A connection leaves (false if it was not there).
  bool remove(ClientId client);
  bool has(ClientId client) const;
  bool has_player(const std::string& player) const;
  // The name as a member wrote it, if someone of that name is here.
  std::optional<std::string> member_named(const std::string& player) const;
  std::size_t size() const { return members_.size(); }
  bool empty() const { return members_.empty(); }
  // Members not seated at the table.
  int spectators(const TableState& state) const;

  // Every member's push of the table as it stands.
  std::vector<Frame> encode(const PushScene& scene);
  // Whether a push would show a different players list (chips, presence) than the last.
  bool players_changed(const PushScene& scene) const;
  // The table was made again (a failed commit): every member gets everything again.
  void resend_all();

 private:
  struct Member {
    ClientId client = 0;
    std::string player;
    protocol::Features wants;        // no deltas: every push whole, as if it were the member's first
    std::int64_t log_sent = -1;      // absolute number of log lines this member has had; -1: none yet
    std::uint64_t players_sent = 0;  // the players list version this member has had (whole or by chips); 0: none yet
    std::uint64_t roster_sent = 0;   // the roster version of the last whole players list it had; 0: none yet
    std::uint64_t result_sent = 0;   // the result version this member has had; 0: none yet
    std::int64_t chat_sent = -1;     // absolute number of chat lines this member has had; -1: none yet
    bool introduced = false;         // has had the table's fixed parts: game, host, clock
    bool invite_sent = false;
    std::uint64_t fair_sent = 0;       // the fair block version this member has had; 0: none yet
    std::uint64_t constants_sent = 0;  // the view constants version this member has had; 0: none yet
  };
  // What the pushes show one seat (or a spectator), written once a broadcast
  // however many of the seat's connections are members: its view without its
  // constants (the keys the game names in GameInfo::view_constants), and what
  // the seat may do.
  struct ViewParts {
    std::string lean;   // the view without its constants
    std::string whole;  // lean and the constants together, made when a member needs it
    std::string legal;  // the seat's legal list, as JSON ("[]" for a spectator)
  };
  // A view's constants, taken from the first view a broadcast writes: they are
  // the same in every seat's view (tests/rules/test_view_schema.cpp).
  struct ViewConstants {
    std::string members;  // {key: value} of the constants, as JSON
    std::string names;    // their keys, a JSON array
  };
  // The parts of a state push that are the same for everyone, serialized once a broadcast.
  struct SharedParts {
    std::string head;   // {"type":"state","table":..,"seq":..,"status":.. (no closing brace)
    std::string intro;  // ,"game":..,"host":..,"clock":..: a member's first push only
    std::string tail;   // ,"to_act":[..],"timer":{..},"failure":".."
    bool result_always = false;  // the table is over: every push carries the result
    std::map<std::optional<int>, ViewParts> views;  // by seat (nullopt: a spectator), filled as needed
    rules::SharedValues shared_values;              // what the views have in common (JsonWriter::shared_value)
    ViewConstants constants;                        // set with the first of views
  };
  // What the players list is made of, to tell cheaply whether it changed.
  struct PlayerKey {
    std::string player;
    std::int64_t chips = 0;
    bool bot = false;
    bool connected = false;
    bool away = false;
    std::string leaving;
    bool operator==(const PlayerKey&) const = default;
  };

  // Room made before a view is written: most games' views fit, so their text
  // is not copied as it grows.
  static constexpr std::size_t kViewBytes = 1024;

  SharedParts shared_parts(const PushScene& scene);
  std::string state_text(Member& member, SharedParts& parts, const PushScene& scene);
  ViewParts& view_parts(SharedParts& parts, const PushScene& scene, std::optional<int> seat);
  static void write_view(const PushScene& scene, std::optional<int> seat, rules::JsonWriter& out);
  // The view without the constants; the constants themselves into `constants` when given.
  static std::string split_constants(const rules::JsonText& view, const std::vector<std::string>& keys,
                                     ViewConstants* constants);
  static const std::vector<std::string>& view_constant_keys(const PushScene& scene);
  void refresh_fair(const PushScene& scene);
  void refresh_result(const PushScene& scene);
  const std::string& result_for(const Member& member, const PushScene& scene);
  void refresh_players(const PushScene& scene);
  static std::vector<PlayerKey> players_key(const PushScene& scene);
  static bool same_roster(const std::vector<PlayerKey>& a, const std::vector<PlayerKey>& b);
  static std::string players_text(const PushScene& scene);
  static std::string players_chips_text(const PushScene& scene);
  static std::string talk_tail(const PushScene& scene);
  static void log_delta(Member& member, std::string& out, const PushScene& scene);
  static void chat_delta(Member& member, std::string& out, const PushScene& scene);
  static void append_lines_since(std::string& out, const char* name, const std::deque<std::string>& kept,
                                 std::int64_t total, std::int64_t& sent);

  std::vector<Member> members_;
  std::string players_text_;            // the players list as last serialized
  std::vector<PlayerKey> players_key_;  // what it was made of
  std::uint64_t players_version_ = 0;
  std::string players_chips_text_;      // the chips of the players list, one per entry in its order
  std::uint64_t roster_version_ = 0;    // bumped when the players list changes in anything but chips
  std::string fair_text_;               // the state's fair block as last serialized ("" before play)
  std::uint64_t fair_version_ = 0;
  std::string view_constants_;          // the view's constants as last seen, as JSON ("": none yet)
  std::uint64_t view_constants_version_ = 0;
  std::string result_text_;             // the latest result as last serialized ("" if none)
  std::uint64_t result_version_ = 0;
  std::string result_table_text_;       // the same, as `table_melds` has it, where that differs ("" otherwise)
  std::uint64_t result_table_version_ = 0;  // the result_version_ result_table_text_ was worked out for
  bool result_read_ = false;            // result_text_ holds the game's result since the last settlement
};

}  // namespace parlour::server
