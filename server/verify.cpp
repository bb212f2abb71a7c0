#include "server/verify.h"

#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include <spdlog/spdlog.h>

#include "protocol/messages.h"
#include "rules/fair.h"
#include "server/config.h"
#include "server/history.h"
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

void check_decks(const Json& history, std::uint64_t seed, Verdict& verdict) {
  const auto& fair = history.at("fair");
  const auto pack = pack_of(fair.value("pack", Json()));
  if (!pack) {
    verdict.lines.push_back("this game lays out its own packs: its deals are checked by the replay alone");
    return;
  }
  const auto stacked = cards_of(fair.value("stacked_deck", Json()));
  for (const auto& deal : history.at("deals")) {
    if (!deal.contains("shuffle")) continue;
    const int shuffle = deal.at("shuffle");
    const auto first = std::find_if(history.at("steps").begin(), history.at("steps").end(),
                                    [&](const Json& step) { return step.at("seq") == deal.at("from_seq"); });
    if (first == history.at("steps").end() || !first->contains("views")) continue;
    if (first->at("phase") != "playing") continue;  // nothing was dealt: the game ended instead
    const auto deck = rules::fair::shoe_deck(*pack, seed, shuffle, shuffle == 1 ? stacked : std::nullopt);
    const std::vector<Json> views = first->at("views").get<std::vector<Json>>();
    const auto problem = rules::fair::check_dealt(deck, views, views.empty() ? Json::object() : views.front());
    verdict.ok = verdict.ok && !problem;
    verdict.lines.push_back("deal " + deal.at("deal").dump() + ": " +
                            (problem ? "the cards dealt DO NOT come from the shuffled deck: " + *problem
                                     : "the cards dealt are the top of the deck the seed shuffles"));
  }
}

void check_replay(const Json& history, std::uint64_t seed, Verdict& verdict) {
  const auto& steps = history.at("steps");
  for (std::size_t i = 0; i < steps.size(); ++i)
    if (steps[i].at("seq") != static_cast<std::int64_t>(i + 1)) {
      verdict.ok = false;
      verdict.lines.push_back("the history's steps are not the whole log (step " + std::to_string(i + 1) +
                              " is missing): download the whole table");
      return;
    }
  Config config;
  const auto record = record_of(history, seed);
  Json again;
  try {
    again = build_history(record, events_of(steps), config, HistoryQuery{record.host, std::nullopt, std::nullopt, true});
  } catch (const std::exception& e) {
    verdict.ok = false;
    verdict.lines.push_back(std::string("the events DO NOT replay from the revealed seed: ") + e.what());
    return;
  }
  const auto& replayed = again.at("steps");
  for (std::size_t i = 0; i < steps.size(); ++i) {
    for (const char* part : {"views", "log", "chips", "to_act", "result"}) {
      if (steps[i].value(part, Json()) == replayed[i].value(part, Json())) continue;
      verdict.ok = false;
      verdict.lines.push_back("step " + steps[i].at("seq").dump() + ": its " + part +
                              " DO NOT match a replay from the revealed seed");
      return;
    }
  }
  verdict.lines.push_back("all " + std::to_string(steps.size()) +
                          " steps replay from the revealed seed to exactly the views, log and chips shown");
}

Json read_json_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::stringstream text;
  text << in.rdbuf();
  return Json::parse(text.str());
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
  check_decks(history, seed, verdict);
  check_replay(history, seed, verdict);
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
      history = build_history(*record, db.events(record->id), Config{},
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
