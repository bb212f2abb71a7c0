// What a client keeps of each table between state pushes, so that a push that
// leaves out what the connection has had (docs/protocol.md "State": log and
// chat lines, the players list or all of it but chips, the table's fixed parts,
// the fair block, the view's constants, a result already sent) reads as a whole
// state. The browser client does the same in web-client/js/connection.js
// (completeState); the integration tests and the table core's tests use this.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace parlour::support {

class StateKeeper {
 public:
  // Fills `state` (a push as it came) in from what earlier pushes of its table
  // carried, and remembers what this one carries.
  void complete(nlohmann::json& state);
  // Lets go of what was kept of `table` (a long-lived client that moves on).
  void forget(const std::string& table) { tables_.erase(table); }

 private:
  struct TableMemory {
    nlohmann::json log = nlohmann::json::array();
    std::int64_t log_end = 0;
    nlohmann::json chat = nlohmann::json::array();
    std::int64_t chat_end = 0;
    nlohmann::json players;
    nlohmann::json result;
    nlohmann::json fixed = nlohmann::json::object();      // game, host, clock, invite, fair as last sent
    nlohmann::json constants = nlohmann::json::object();  // the view's constants as last sent
  };
  std::map<std::string, TableMemory> tables_;
};

}  // namespace parlour::support
