// The real parlour binary (tests/support/server_process.h) and a WebSocket
// client of it (tests/support/ws_client.h), as the integration tests name them.
#pragma once

#include <algorithm>
#include <map>
#include <string>
#include <sys/types.h>

#include "tests/support/server_process.h"
#include "tests/support/ws_client.h"

namespace parlour::test {

using Json = nlohmann::json;
using ServerProcess = parlour::support::ServerProcess;
using WsClient = parlour::support::WsClient;

// A player's chips in a (whole) state push, -1 if he is not listed.
inline int chips_of(const Json& state, const std::string& player) {
  for (const auto& entry : state["players"])
    if (entry["player"] == player) return entry["chips"].get<int>();
  return -1;
}

// Whether the state's reader is to act.
inline bool to_act(const Json& state) {
  const auto& acting = state["to_act"];
  return state.contains("seat") && std::find(acting.begin(), acting.end(), state["seat"]) != acting.end();
}

}  // namespace parlour::test
