// The golden frame sequences (tests/protocol/golden-frames, README there) replayed
// through the C++ test client's decoder of state pushes (tests/support/state_keeper.cpp):
// each sequence's delta frames are merged in order, and after every frame that has a
// whole frame beside it the merged state must equal it. replay_golden.mjs does the
// same with the browser's decoder (web-client/js/state_merge.js), so both decoders
// are held to the same frames. What is compared is golden_format.mjs's rule.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/state_keeper.h"

#ifndef PARLOUR_GOLDEN_FRAMES_DIR
#error "PARLOUR_GOLDEN_FRAMES_DIR (the corpus folder) is set on this file in tests/CMakeLists.txt"
#endif

using Json = nlohmann::json;

namespace {

std::vector<std::filesystem::path> corpus_files() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(PARLOUR_GOLDEN_FRAMES_DIR))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

Json read_json(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  return Json::parse(in);
}

// "$same" (golden_format.mjs, storeAgainst): an object or array equal to the one at
// the same place of the previous frame of its kind in the sequence.
Json read_against(const Json& stored, const Json& previous) {
  if (stored.is_string() && stored.get<std::string>() == "$same") return previous;
  if (stored.is_object()) {
    Json out = Json::object();
    for (const auto& [key, value] : stored.items())
      out[key] = read_against(value, previous.is_object() && previous.contains(key) ? previous[key] : Json());
    return out;
  }
  if (stored.is_array()) {
    Json out = Json::array();
    for (std::size_t i = 0; i < stored.size(); ++i)
      out.push_back(read_against(stored[i], previous.is_array() && i < previous.size() ? previous[i] : Json()));
    return out;
  }
  return stored;
}

// A whole frame's `log` is stored as {"$lines": FROM, "count": N}: lines FROM… of the
// sequence's `log_lines`.
Json expand_log(const Json& sequence, Json whole) {
  const Json& ref = whole["log"];
  if (ref.is_object() && ref.contains("$lines")) {
    const std::size_t from = ref["$lines"], count = ref["count"];
    Json lines = Json::array();
    for (std::size_t i = from; i < from + count && i < sequence["log_lines"].size(); ++i) lines.push_back(sequence["log_lines"][i]);
    whole["log"] = lines;
  }
  return whole;
}

struct Frames {
  Json delta;
  Json whole;  // null where the step has none
};

// Every step's frames as the server sent them (golden_format.mjs, framesAsSent).
std::vector<Frames> frames_as_sent(const Json& sequence) {
  std::vector<Frames> frames;
  Json previous_delta, previous_whole;
  for (const Json& step : sequence["steps"]) {
    previous_delta = read_against(step["delta"], previous_delta);
    Json whole;
    if (step.contains("whole")) {
      previous_whole = read_against(step["whole"], previous_whole);
      whole = expand_log(sequence, previous_whole);
    }
    frames.push_back({previous_delta, whole});
  }
  return frames;
}

// `state` without the parts that say how a push was sent (log and chat numbering,
// bare chips, the names of the view's constants), its log and chat cut to as many
// last lines as `whole` carries.
Json normalized(Json state, const Json& whole) {
  for (const char* part : {"log_from", "chat_from", "chips", "view_constants"}) state.erase(part);
  for (const char* tail : {"log", "chat"}) {
    const std::size_t keep = whole.contains(tail) && whole[tail].is_array() ? whole[tail].size() : 0;
    Json lines = state.contains(tail) && state[tail].is_array() ? state[tail] : Json::array();
    Json kept = Json::array();
    for (std::size_t i = lines.size() > keep ? lines.size() - keep : 0; i < lines.size(); ++i) kept.push_back(lines[i]);
    state[tail] = kept;
  }
  return state;
}

// The first path where the two differ, for the failure message.
std::string first_difference(const Json& decoded, const Json& expected) {
  for (const auto& op : Json::diff(decoded, expected)) {
    const std::string path = op["path"];
    std::string got = "(absent)";
    const auto pointer = Json::json_pointer(path);
    if (decoded.contains(pointer)) got = decoded[pointer].dump().substr(0, 300);
    std::string want = "(absent)";
    if (expected.contains(pointer)) want = expected[pointer].dump().substr(0, 300);
    return (path.empty() ? "/" : path) + ": decoded " + got + ", whole frame " + want;
  }
  return {};
}

}  // namespace

TEST_CASE("golden frames: the C++ state keeper merges every sequence's delta frames into its whole frames") {
  const auto files = corpus_files();
  REQUIRE_MESSAGE(!files.empty(), "no sequences in " PARLOUR_GOLDEN_FRAMES_DIR);
  for (const auto& file : files) {
    CAPTURE(file.filename().string());
    const Json sequence = read_json(file);
    const auto frames = frames_as_sent(sequence);
    parlour::support::StateKeeper keeper;  // one connection's memory; a reconnect is a new connection
    int compared = 0;
    for (std::size_t i = 0; i < frames.size(); ++i) {
      if (sequence["steps"][i].value("reconnect", false)) keeper = parlour::support::StateKeeper{};
      Json merged = frames[i].delta;
      keeper.complete(merged);
      const Json& whole = frames[i].whole;
      if (whole.is_null()) continue;
      const Json decoded = normalized(merged, whole), expected = normalized(whole, whole);
      ++compared;
      if (decoded != expected) {
        FAIL_CHECK("step " << i << " (seq " << frames[i].delta.value("seq", -1) << "): " << first_difference(decoded, expected));
        break;
      }
    }
    CHECK_MESSAGE(compared > 0, "no step has a whole frame to compare with");
  }
}
