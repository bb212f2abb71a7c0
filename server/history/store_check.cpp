#include "server/history/store_check.h"

#include <iostream>

#include <spdlog/spdlog.h>

#include "rules/registry.h"
#include "server/common/config.h"
#include "server/history/history.h"
#include "storage/check.h"
#include "storage/store.h"

namespace parlour::server {

namespace {

// Why one table's log does not replay, or nullopt when it does.
std::optional<std::string> replay_problem(const storage::TableRecord& table, const std::vector<storage::Event>& events) {
  const std::string named = "table " + table.id + " (" + table.game + ", " + table.status + ")";
  const auto* game = rules::Registry::builtin().find(table.game);
  if (!game) return named + ": its game is not one this build knows, so its " + std::to_string(events.size()) +
                    " events cannot be replayed";
  try {
    ReplayedHistory replay(table, *game);
    replay.extend(events);
    if (replay.seq() != events.back().seq)
      return named + ": the replay stands at seq " + std::to_string(replay.seq()) + ", expected " +
             std::to_string(events.back().seq);
  } catch (const std::exception& e) {
    return named + ": its " + std::to_string(events.size()) + " events do not replay: " + e.what();
  }
  return std::nullopt;
}

void print_problems(const std::vector<std::string>& problems) {
  for (const auto& problem : problems) std::cout << "  WRONG: " << problem << "\n";
}

}  // namespace

ReplayCheck replay_every_table(storage::Store& db) {
  ReplayCheck check;
  for (const char* status : {"waiting", "playing", "finished"})
    for (const auto& table : db.tables_with_status(status)) {
      const auto events = db.events(table.id);
      if (events.empty()) continue;
      ++check.tables;
      check.events += static_cast<std::int64_t>(events.size());
      if (auto problem = replay_problem(table, events)) check.problems.push_back(std::move(*problem));
    }
  return check;
}

int check_main(const std::vector<std::string>& args) {
  // The replays' own info lines would bury the findings.
  spdlog::set_level(spdlog::level::warn);
  std::string where = Config{}.db;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] != "--db" || i + 1 == args.size()) {
      std::cerr << "parlour check: unexpected '" << args[i] << "'\n"
                << "usage: parlour check [--db PATH|postgresql://USER@HOST:PORT/DBNAME]   (default --db " << where
                << ")\n";
      return 2;
    }
    where = args[++i];
  }
  storage::LedgerCheck ledger;
  ReplayCheck replays;
  try {
    ledger = storage::check_ledger(where);  // first: it refuses what is not a store at this schema, changing nothing
    const auto store = storage::open_store(where);
    std::cout << "parlour check: " << store->describe() << "\n";
    std::cout << "  ledger: " << ledger.transfers << " transfers, " << ledger.entries << " entries, "
              << ledger.accounts << " accounts; chips held " << ledger.chips_held << ", granted "
              << ledger.chips_granted << "\n";
    print_problems(ledger.problems);
    replays = replay_every_table(*store);
    std::cout << "  tables: " << ledger.tables << " tables, " << ledger.events << " events; " << replays.tables
              << " tables with events replayed (" << replays.events << " events)\n";
    print_problems(replays.problems);
  } catch (const std::exception& e) {
    std::cerr << "parlour check: " << e.what() << "\n";
    return 2;
  }
  const auto wrong = ledger.problems.size() + replays.problems.size();
  if (wrong == 0) {
    std::cout << "sound: every transfer balances, every balance is its entries' sum, the chips held are the chips "
                 "granted, and every table's log is whole and replays\n";
    return 0;
  }
  std::cout << "NOT SOUND: " << wrong << " thing" << (wrong == 1 ? " is" : "s are") << " wrong (see above)\n";
  return 1;
}

}  // namespace parlour::server
