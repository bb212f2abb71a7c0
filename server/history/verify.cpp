#include "server/history/verify.h"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include <spdlog/spdlog.h>

#include "protocol/messages.h"
#include "rules/fair.h"
#include "server/common/config.h"
#include "server/history/history.h"
#include "server/table/table_state.h"
#include "storage/store.h"

namespace parlour::server {

using Json = nlohmann::json;

namespace {

std::optional<rules::PackSpec> pack_of(const Json& pack) {
  if (!pack.is_object()) return std::nullopt;
  return rules::PackSpec{pack.at("short_pack").get<bool>(), pack.at("jokers").get<int>(), pack.at("decks").get<int>(),
                         pack.at("eleven_twelve_spots").get<bool>()};
}

std::optional<std::vector<rules::Card>> cards_of(const Json& list) {
  if (!list.is_array()) return std::nullopt;
  std::vector<rules::Card> cards;
  for (const auto& text : list) {
    const auto card = rules::parse_card(text.get<std::string>());
    if (!card) throw std::runtime_error("the stacked deck names " + text.dump() + ", which is not a card");
    cards.push_back(*card);
  }
  return cards;
}

// The table as the history describes it, to replay its events again.
storage::TableRecord record_of(const Json& history, std::uint64_t seed) {
  storage::TableRecord record;
  record.id = history.at("table");
  record.game = history.at("game");
  record.options_json = history.at("options").dump();
  record.seed = seed;
  record.host = history.at("host");
  record.status = "finished";
  const auto& stacked = history.at("fair").value("stacked_deck", Json());
  if (stacked.is_array()) record.deck_json = stacked.dump();
  for (const auto& seat : history.at("seats"))
    record.seats.push_back({seat.at("seat").get<int>(), seat.at("player").get<std::string>(), seat.at("bot").get<bool>(), 0});
  return record;
}

std::vector<storage::Event> events_of(const Json& steps) {
  std::vector<storage::Event> events;
  for (const auto& step : steps) {
    Json event = step.at("event");
    event.erase("player");
    events.push_back({step.at("seq").get<std::int64_t>(), event.dump()});
  }
  return events;
}

void check_commitments(const Json& history, std::uint64_t seed, const std::string& salt, Verdict& verdict) {
  const std::string table = history.at("table");
  std::map<int, std::string> recomputed;
  for (const auto& deal : history.at("deals")) {
    const int number = deal.at("deal");
    recomputed[number] = rules::fair::commitment(table, number, seed, salt);
    const bool same = deal.at("commitment") == recomputed[number];
    verdict.ok = verdict.ok && same;
    verdict.lines.push_back("deal " + std::to_string(number) + ": commitment " +
                            (same ? "matches the revealed seed"
                                  : "DOES NOT match: sent " + deal.at("commitment").get<std::string>() +
                                        ", the seed gives " + recomputed[number]));
  }
  for (const auto& received : history.value("received_commitments", Json::array())) {
    const int number = received.at("deal");
    const auto it = recomputed.find(number);
    const bool same = it != recomputed.end() && received.at("commitment") == it->second;
    verdict.ok = verdict.ok && same;
    verdict.lines.push_back("deal " + std::to_string(number) + ": the commitment received during play " +
                            (same ? "matches" : "DOES NOT match the revealed seed"));
  }
}

// The table's events replayed from the revealed seed through the server's own
// replay: every deal's shuffle and pack come from here, never from the file, so
// a crafted number cannot make the verifier shuffle without end. Nullopt (and a
// failed line) when the steps are not the whole log or do not replay.
std::optional<Json> replay_of(const Json& history, std::uint64_t seed, Verdict& verdict) {
  const auto& steps = history.at("steps");
  for (std::size_t i = 0; i < steps.size(); ++i)
    if (steps[i].at("seq") != static_cast<std::int64_t>(i + 1)) {
      verdict.ok = false;
      verdict.lines.push_back("the history's steps are not the whole log (step " + std::to_string(i + 1) +
                              " is missing): download the whole table");
      return std::nullopt;
    }
  const auto record = record_of(history, seed);
  try {
    return build_history(record, events_of(steps),
                         HistoryQuery{record.host, std::nullopt, std::nullopt, true});
  } catch (const std::exception& e) {
    verdict.ok = false;
    verdict.lines.push_back(std::string("the events DO NOT replay from the revealed seed: ") + e.what());
    return std::nullopt;
  }
}

void check_decks(const Json& history, const Json& replayed, std::uint64_t seed, Verdict& verdict) {
  if (!replayed.contains("fair")) {
    verdict.ok = false;
    verdict.lines.push_back("the events replay to no deal dealt; the history lists " +
                            std::to_string(history.at("deals").size()));
    return;
  }
  const auto& fair = replayed.at("fair");
  const auto pack = pack_of(fair.value("pack", Json()));
  if (!pack) {
    verdict.lines.push_back("this game lays out its own packs: its deals are checked by the replay alone");
    return;
  }
  if (history.at("fair").value("pack", Json()) != fair.at("pack")) {
    verdict.ok = false;
    verdict.lines.push_back("the history's pack " + history.at("fair").value("pack", Json()).dump() +
                            " IS NOT the one the replay deals from, " + fair.at("pack").dump());
  }
  const auto stacked = cards_of(fair.value("stacked_deck", Json()));
  std::map<std::int64_t, const Json*> shown_at;  // the history's steps by seq
  for (const auto& step : history.at("steps")) shown_at[step.at("seq").get<std::int64_t>()] = &step;
  std::map<int, const Json*> listed;  // the history's deals by number
  for (const auto& deal : history.at("deals")) listed[deal.at("deal").get<int>()] = &deal;
  for (const auto& deal : replayed.at("deals")) {
    if (!deal.contains("shuffle")) continue;
    const int number = deal.at("deal");
    const int shuffle = deal.at("shuffle");
    const auto said = listed.find(number);
    if (said == listed.end() || said->second->value("shuffle", Json()) != deal.at("shuffle")) {
      verdict.ok = false;
      verdict.lines.push_back("deal " + std::to_string(number) + ": the history's shuffle number " +
                              (said == listed.end() ? "is missing" : said->second->value("shuffle", Json()).dump()) +
                              "; the replay shuffled " + std::to_string(shuffle));
      continue;
    }
    const auto first = shown_at.find(deal.at("from_seq").get<std::int64_t>());
    if (first == shown_at.end() || !first->second->contains("views")) continue;
    if (first->second->at("phase") != "playing") continue;  // nothing was dealt: the game ended instead
    const auto deck = rules::fair::shoe_deck(*pack, seed, shuffle, shuffle == 1 ? stacked : std::nullopt);
    const std::vector<Json> views = first->second->at("views").get<std::vector<Json>>();
    const auto problem = rules::fair::check_dealt(deck, views, views.empty() ? Json::object() : views.front());
    verdict.ok = verdict.ok && !problem;
    verdict.lines.push_back("deal " + std::to_string(number) + ": " +
                            (problem ? "the cards dealt DO NOT come from the shuffled deck: " + *problem
                                     : "the cards dealt are the top of the deck the seed shuffles"));
  }
}

void check_replay(const Json& history, const Json& replayed, Verdict& verdict) {
  const auto& steps = history.at("steps");
  const auto& again = replayed.at("steps");
  if (again.size() != steps.size()) {
    verdict.ok = false;
    verdict.lines.push_back("the replay from the revealed seed has " + std::to_string(again.size()) +
                            " steps; the history shows " + std::to_string(steps.size()));
    return;
  }
  for (std::size_t i = 0; i < steps.size(); ++i) {
    for (const char* part : {"views", "log", "chips", "to_act", "result", "legals", "table_view"}) {
      // Files saved before steps carried the legal lists and the open table have none to compare.
      const bool added_later = std::string_view(part) == "legals" || std::string_view(part) == "table_view";
      if (added_later && !steps[i].contains(part)) continue;
      // A chat or mute line logged before events carried the chips was shown with none.
      const auto& event = steps[i].value("event", Json::object());
      const bool chipless_talk = event.is_object() && !event.contains("balances") &&
                                 TableState::is_talk(event.value("kind", std::string()));
      if (std::string_view(part) == "chips" && chipless_talk) continue;
      if (steps[i].value(part, Json()) == again[i].value(part, Json())) continue;
      verdict.ok = false;
      verdict.lines.push_back("step " + steps[i].at("seq").dump() + ": its " + part +
                              " DO NOT match a replay from the revealed seed");
      return;
    }
  }
  verdict.lines.push_back("all " + std::to_string(steps.size()) +
                          " steps replay from the revealed seed to exactly the views, log and chips shown");
}

// How deep arrays and objects nest in JSON `text` (strings skipped): measured
// before parsing, since what reads a parsed document recurses as deep as it nests.
std::size_t nesting_of(const std::string& text) {
  std::size_t depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

Json read_json_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  in.seekg(0, std::ios::end);
  const auto size = static_cast<std::uint64_t>(std::max<std::streamoff>(in.tellg(), 0));
  if (size > max_history_bytes)
    throw std::runtime_error(path + " holds " + std::to_string(size) + " bytes; a history this verifier reads holds at most " +
                             std::to_string(max_history_bytes));
  in.seekg(0);
  std::string text(size, '\0');
  in.read(text.data(), static_cast<std::streamsize>(size));
  if (const auto depth = nesting_of(text); depth > max_history_nesting)
    throw std::runtime_error(path + " nests arrays and objects " + std::to_string(depth) +
                             " deep; a history nests at most " + std::to_string(max_history_nesting));
  return Json::parse(text);
}

}  // namespace

Verdict verify_history(const Json& history) {
  Verdict verdict;
  const auto fair = history.value("fair", Json());
  if (!fair.is_object() || !fair.contains("seed")) {
    verdict.ok = false;
    verdict.lines.push_back("the history reveals no seed: the table has not ended (or dealt no deal)");
    return verdict;
  }
  if (fair.value("scheme", "") != rules::fair::scheme) {
    verdict.ok = false;
    verdict.lines.push_back("unknown fairness scheme " + fair.value("scheme", Json()).dump() + "; this verifier knows " +
                            rules::fair::scheme);
    return verdict;
  }
  const std::uint64_t seed = std::stoull(fair.at("seed").get<std::string>());
  const std::string salt = fair.value("salt", "");
  check_commitments(history, seed, salt, verdict);
  const auto replayed = replay_of(history, seed, verdict);
  if (!replayed) return verdict;
  check_decks(history, *replayed, seed, verdict);
  check_replay(history, *replayed, verdict);
  return verdict;
}

int verify_main(const std::vector<std::string>& args) {
  // The replays' own info lines would bury the verdict.
  spdlog::set_level(spdlog::level::warn);
  const std::string usage =
      "usage: parlour verify --table ID --db PATH|postgresql://USER@HOST:PORT/DBNAME\n"
      "       parlour verify --history FILE   (a history downloaded from the browser's replay page)\n";
  std::map<std::string, std::string> flags;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if ((args[i] != "--table" && args[i] != "--db" && args[i] != "--history") || i + 1 == args.size()) {
      std::cerr << "parlour verify: unexpected '" << args[i] << "'\n" << usage;
      return 2;
    }
    flags[args[i]] = args[i + 1];
    ++i;
  }
  Json history;
  try {
    if (flags.count("--history") && flags.size() == 1) {
      history = read_json_file(flags["--history"]);
    } else if (flags.count("--table") && flags.count("--db") && flags.size() == 2) {
      const std::unique_ptr<storage::Store> store = storage::open_store(flags["--db"]);
      storage::Store& db = *store;
      const auto record = db.find_table(flags["--table"]);
      if (!record) {
        std::cerr << "parlour verify: no table '" << flags["--table"] << "' in " << db.describe() << "\n";
        return 2;
      }
      if (record->status != "finished") {
        std::cerr << "parlour verify: table " << record->id << " has not ended; its seed is still secret\n";
        return 2;
      }
      history = build_history(*record, db.events(record->id),
                              HistoryQuery{record->host, std::nullopt, std::nullopt, true});
    } else {
      std::cerr << usage;
      return 2;
    }
  } catch (const std::exception& e) {
    std::cerr << "parlour verify: " << e.what() << "\n";
    return 2;
  }
  Verdict verdict;
  try {
    verdict = verify_history(history);
  } catch (const std::exception& e) {
    std::cerr << "parlour verify: the history is not one this verifier can read: " << e.what() << "\n";
    return 2;
  }
  std::cout << "table " << history.value("table", "?") << " (" << history.value("game", "?") << ")\n";
  for (const auto& line : verdict.lines) std::cout << "  " << line << "\n";
  std::cout << (verdict.ok ? "verified: every deal is the one committed to before it was shown\n"
                           : "NOT VERIFIED: see the lines above\n");
  return verdict.ok ? 0 : 1;
}

}  // namespace parlour::server
