#include "tests/support/state_keeper.h"

namespace parlour::support {

using Json = nlohmann::json;

namespace {

// Parts a push carries only when they are new to the connection; the last one sent holds.
const char* const fixed_parts[] = {"game", "host", "clock", "invite", "fair"};

// Appends the lines numbered from `state[from_key]` to what was kept, or starts
// again from them when they do not follow on (the member left and came back).
void append_lines(const Json& state, const char* from_key, const char* lines_key, Json& kept, std::int64_t& end) {
  const std::int64_t from = state[from_key];
  if (from != end) kept = Json::array();
  for (const auto& line : state[lines_key]) kept.push_back(line);
  end = from + static_cast<std::int64_t>(state[lines_key].size());
  while (kept.size() > 50) kept.erase(kept.begin());
}

}  // namespace

void StateKeeper::complete(Json& state) {
  auto& kept = tables_[state.value("table", "")];
  if (state.contains("log_from")) {
    append_lines(state, "log_from", "log", kept.log, kept.log_end);
    state["log"] = kept.log;
  }
  if (state.contains("chat_from")) append_lines(state, "chat_from", "chat", kept.chat, kept.chat_end);
  state["chat"] = kept.chat;

  // The players list; a push whose list changed only in chips carries those alone.
  if (state.contains("players")) {
    kept.players = state["players"];
  } else if (state.contains("chips") && kept.players.is_array() && state["chips"].size() == kept.players.size()) {
    for (std::size_t i = 0; i < kept.players.size(); ++i) kept.players[i]["chips"] = state["chips"][i];
  }
  state.erase("chips");
  if (!kept.players.is_null()) state["players"] = kept.players;

  if (state.contains("result")) kept.result = state["result"];
  else if (!kept.result.is_null() && state.value("status", "") == "playing") state["result"] = kept.result;

  for (const char* key : fixed_parts) {
    if (state.contains(key)) kept.fixed[key] = state[key];
    else if (kept.fixed.contains(key)) state[key] = kept.fixed[key];
  }

  // `view_constants` names the view's keys sent once; a push without it leaves them out.
  if (state.contains("view_constants")) {
    kept.constants = Json::object();
    for (const auto& key : state["view_constants"])
      if (state["view"].contains(key)) kept.constants[key.get<std::string>()] = state["view"][key.get<std::string>()];
    state.erase("view_constants");
  } else if (state.contains("view") && state["view"].is_object()) {
    for (const auto& [key, value] : kept.constants.items())
      if (!state["view"].contains(key)) state["view"][key] = value;
  }
}

}  // namespace parlour::support
