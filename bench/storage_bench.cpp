#include "bench/storage_bench.h"

#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <stdexcept>
#include <sys/resource.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "bench/report.h"
#include "storage/sqlite_store.h"
#include "storage/store.h"
#include "tests/support/postgres_cluster.h"

namespace parlour::bench {

namespace {

namespace fs = std::filesystem;

const std::string table_id = "t1";
const std::string player = "a";

// A temporary folder removed on every way out, WAL and shm files included.
class TempFolder {
 public:
  TempFolder() : path_(fs::temp_directory_path() / ("parlour-bench-storage-" + std::to_string(::getpid()))) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempFolder() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// About 200 bytes, shaped like the table's "act" events; the note pads it to
// the size of a typical event with a few more seats.
std::string event_json(std::int64_t seq) {
  nlohmann::json event = {{"kind", "act"},
                          {"seat", seq % 2},
                          {"action", {{"type", "bet"}, {"amount", 1}}},
                          {"balances", {999'999'999, 1'000'000'000}},
                          {"note", std::string(100, 'x')}};
  return event.dump();
}

storage::TableWrite bet_step(std::int64_t seq) {
  const auto account = storage::player_account(player);
  const auto pot = storage::pool_account(table_id, "pot");
  storage::TableWrite write;
  write.table = table_id;
  write.event = storage::Event{seq, event_json(seq)};
  write.postings = {{account, pot, 1, "red dog bet lost", table_id, "red_dog", std::nullopt, std::nullopt},
                    {pot, account, 1, "red dog bet won", table_id, "red_dog", std::nullopt, std::nullopt}};
  return write;
}

void prepare(storage::Store& db) {
  db.create_player(player, "benchmark-token-hash", 1'000'000'000);
  storage::TableRecord table;
  table.id = table_id;
  table.game = "red_dog";
  table.options_json = R"({"ante":1})";
  table.seed = 1;
  table.host = player;
  table.status = "playing";
  table.seats = {{0, player, false, 0}};
  db.create_table(table);
}

// This thread's CPU time (user + system) in seconds: steadier than the wall
// clock on a machine shared with other work.
double thread_cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_THREAD, &usage);
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// What committing steps costs, `batch` steps from `next_step` a commit() call,
// until `duration` is up. `server_cpu` gives the CPU seconds the database
// server has used (0 for embedded SQLite), counted in each step's CPU along
// with this thread's.
struct CommitRun {
  std::int64_t steps = 0;
  std::int64_t commits = 0;
  double seconds = 0;
  double cpu_us_per_step = 0;
};

CommitRun run_commits(storage::Store& db, const std::function<storage::TableWrite()>& next_step, int batch,
                      double duration, const std::function<double()>& server_cpu) {
  CommitRun run;
  // This thread's CPU in commit() only: building the steps (a JSON dump each) is
  // the bench's own work. The database server does nothing else, so all of its
  // CPU counts (read once at each end: reading it costs time).
  double storage_cpu = -server_cpu();
  Stopwatch clock;
  while (clock.seconds() < duration) {
    std::vector<storage::TableWrite> writes;
    for (int i = 0; i < batch; ++i) writes.push_back(next_step());
    const double thread_before = thread_cpu_seconds();
    const auto outcomes = db.commit(writes);
    storage_cpu += thread_cpu_seconds() - thread_before;
    for (const storage::CommitOutcome& outcome : outcomes)
      if (!outcome.committed()) throw std::runtime_error("a benchmark step was not committed: " + outcome.detail);
    run.steps += batch;
    ++run.commits;
  }
  run.seconds = clock.seconds();
  storage_cpu += server_cpu();
  run.cpu_us_per_step = 1e6 * storage_cpu / static_cast<double>(run.steps);
  return run;
}

// One table's bet steps.
void bench_batches(storage::Store& db, std::int64_t& seq, int batch, double duration, const std::string& section,
                   const std::function<double()>& server_cpu) {
  const CommitRun run = run_commits(db, [&] { return bet_step(++seq); }, batch, duration, server_cpu);
  print_rate(section + " " + std::to_string(batch) + " step" + (batch == 1 ? "" : "s") + " per call",
             static_cast<double>(run.steps), run.seconds, "steps/s",
             std::to_string(run.commits) + " transactions, event " + std::to_string(event_json(1).size()) +
                 " bytes + 2 postings, " + fixed(run.cpu_us_per_step, 1) + " CPU us a step");
}

// The server's shape: many tables, four players each, their steps interleaved,
// so that one transaction touches several tables' pages (the one-table bench
// above finds every row's page already written by the step before). Each
// table plays five-step deals: the deal (its start kept with a state, four
// antes), three bets, the result (the pot paid out, a result row).
class ServerShapedSteps {
 public:
  static constexpr int seats = 4;

  explicit ServerShapedSteps(storage::Store& db, int tables = 10) : tables_(tables) {
    for (int t = 0; t < tables; ++t) {
      std::vector<std::string> players;
      for (int s = 0; s < seats; ++s) {
        players.push_back("p" + std::to_string(t) + "_" + std::to_string(s));
        db.create_player(players.back(), "benchmark-token-hash-" + players.back(), 1'000'000'000);
      }
      ids_.push_back("t" + std::to_string(1000 + t) + "f00d");
      db.create_table(make_table(ids_.back(), players));
      players_.push_back(players);
    }
    seqs_.assign(static_cast<std::size_t>(tables), 0);
  }
  int tables() const { return tables_; }

  // The next step of the next table in turn.
  storage::TableWrite next() {
    const int t = turn_++ % tables_;
    const std::string& id = ids_[t];
    const std::int64_t seq = ++seqs_[t];
    const std::int64_t deal = (seq - 1) / 5 + 1;
    const int phase = static_cast<int>((seq - 1) % 5);
    const std::string pot = storage::pool_account(id, "pot");
    storage::TableWrite write;
    write.table = id;
    write.event = storage::Event{seq, event_json(seq)};
    auto posting = [&](const std::string& from, const std::string& to, const char* memo) {
      write.postings.push_back({from, to, 1, memo, id, "red_dog", seq, deal});
    };
    const auto& players = players_[t];
    if (phase == 0) {
      write.deal_start = storage::DealStart{static_cast<int>(deal), seq, R"({"commitment":")" + std::string(64, 'c') + R"(","deal":)" + std::to_string(deal) + "}", std::string(190, 's')};
      for (const std::string& player : players) posting(storage::player_account(player), pot, "Red Dog: an ante into the pot");
    } else if (phase < 4) {
      posting(storage::player_account(players[static_cast<std::size_t>(phase)]), pot, "Red Dog: a bet into the pot");
    } else {
      posting(pot, storage::player_account(players[static_cast<std::size_t>(deal % seats)]), "Red Dog: the pot won");
      write.result_json = std::string(300, 'r');
    }
    return write;
  }

 private:
  static storage::TableRecord make_table(const std::string& id, const std::vector<std::string>& players) {
    storage::TableRecord table;
    table.id = id;
    table.game = "red_dog";
    table.options_json = R"({"ante":1})";
    table.seed = 1;
    table.host = players.front();
    table.status = "playing";
    for (std::size_t seat = 0; seat < players.size(); ++seat)
      table.seats.push_back({static_cast<int>(seat), players[seat], false, 0});
    return table;
  }

  int tables_;
  std::vector<std::string> ids_;
  std::vector<std::vector<std::string>> players_;
  std::vector<std::int64_t> seqs_;
  int turn_ = 0;
};

// Bytes this process has written to files and sockets so far (/proc/self/io
// wchar): what a commit costs the kernel, WAL frames and checkpoints.
std::int64_t bytes_written() {
  std::ifstream io("/proc/self/io");
  std::string key;
  std::int64_t value = 0;
  while (io >> key >> value)
    if (key == "wchar:") return value;
  return 0;
}

// `where` a --db value; `server_cpu` as in run_commits. On a SQLite file,
// also the bytes this process wrote a transaction: WAL frames and checkpoints.
void bench_server_shaped(const std::string& where, const std::string& section, int batch, double duration,
                         const std::function<double()>& server_cpu) {
  const auto db = storage::open_store(where);
  ServerShapedSteps steps(*db);
  const std::int64_t bytes_before = bytes_written();
  const CommitRun run = run_commits(*db, [&] { return steps.next(); }, batch, duration, server_cpu);
  const double kib_a_commit =
      static_cast<double>(bytes_written() - bytes_before) / 1024.0 / static_cast<double>(run.commits);
  const bool on_file = !storage::is_postgres_url(where);
  print_rate(section + " " + std::to_string(steps.tables()) + " tables, " + std::to_string(batch) +
                 " steps per call",
             static_cast<double>(run.steps), run.seconds, "steps/s",
             std::to_string(run.commits) + " transactions, " + fixed(run.cpu_us_per_step, 1) + " CPU us a step" +
                 (on_file ? ", " + fixed(kib_a_commit, 1) + " KiB written a transaction" : ""));
}

// This process's CPU time, every thread's (user + system), in seconds.
double process_cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// The server's shape as the server's writer commits on a SQLite file: each
// call appends one record to the step log, and the filer files behind on its
// thread (storage/step_filer.h). The CPU a step is the whole process's (the
// appends, the filings, the WAL's checkpoints), less building the steps,
// with every step filed by the end.
void bench_server_shaped_logged(const std::string& file, int tables, int batch, double duration) {
  storage::SqliteStore db(file);
  ServerShapedSteps steps(db, tables);
  db.housekeep_in_background([](const std::string& what) { std::cerr << "storage/logged commit: " << what << "\n"; });
  const std::int64_t bytes_before = bytes_written();
  const double cpu_before = process_cpu_seconds();
  double building = 0;
  std::int64_t count = 0;
  Stopwatch clock;
  while (clock.seconds() < duration) {
    const double build_before = thread_cpu_seconds();
    std::vector<storage::TableWrite> writes;
    for (int i = 0; i < batch; ++i) writes.push_back(steps.next());
    building += thread_cpu_seconds() - build_before;
    for (const storage::CommitOutcome& outcome : db.commit(writes))
      if (!outcome.committed()) throw std::runtime_error("a benchmark step was not committed: " + outcome.detail);
    count += batch;
  }
  db.balance(storage::bank_account());  // a read: the filer catches up first
  const double seconds = clock.seconds();
  const double cpu_us = 1e6 * (process_cpu_seconds() - cpu_before - building) / static_cast<double>(count);
  const double bytes_a_step = static_cast<double>(bytes_written() - bytes_before) / static_cast<double>(count);
  print_rate("storage/logged commit " + std::to_string(tables) + " tables, " +
                 std::to_string(batch) + " steps per call",
             static_cast<double>(count), seconds, "steps/s",
             fixed(cpu_us, 1) + " CPU us a step, filed included, " + fixed(bytes_a_step / 1024.0, 2) +
                 " KiB written a step");
}

// The same on a PostgreSQL cluster started for the purpose on loopback, with
// synchronous_commit off: like SQLite's WAL with synchronous=NORMAL, a commit
// survives the server process dying but not the machine losing power. The
// CPU a step counts this thread and every PostgreSQL process.
void run_postgres_bench(const Options& options) {
  const std::string missing = support::PostgresCluster::unavailable_reason();
  if (!missing.empty()) {
    std::cout << "storage/postgresql: skipped: " << missing << "\n";
    return;
  }
  support::PostgresCluster cluster({"synchronous_commit=off"});
  for (int batch : {1, 16, 64}) {
    const auto db = storage::open_store(cluster.create_database("bench_" + std::to_string(batch)));
    prepare(*db);
    std::int64_t seq = 0;
    bench_batches(*db, seq, batch, options.micro_seconds(), "storage/postgresql commit",
                  [&cluster] { return cluster.cpu_seconds(); });
  }
  for (int batch : {4, 16})
    bench_server_shaped(cluster.create_database("bench_tables_" + std::to_string(batch)), "storage/postgresql commit",
                        batch, options.micro_seconds(), [&cluster] { return cluster.cpu_seconds(); });
}

}  // namespace

void run_storage_bench(const Options& options) {
  TempFolder folder;
  // Each batch size starts from an empty database: commits slow down as the
  // ledger grows, which would otherwise favour whichever size runs first.
  for (int batch : {1, 16, 64}) {
    const auto db = storage::open_store((folder.path() / ("batch-" + std::to_string(batch) + ".db")).string());
    prepare(*db);
    std::int64_t seq = 0;
    bench_batches(*db, seq, batch, options.micro_seconds(), "storage/commit", [] { return 0.0; });
  }
  // Four steps a transaction is what the server's closed loop gathers at 10 tables.
  for (int batch : {4, 16})
    bench_server_shaped((folder.path() / ("tables-" + std::to_string(batch) + ".db")).string(), "storage/commit", batch,
                        options.micro_seconds(), [] { return 0.0; });
  // What the server's writer does on a SQLite file: the step log. The more
  // tables, the fewer of each table's steps a filing holds, and the more
  // pages it writes a step.
  for (int batch : {4, 16})
    bench_server_shaped_logged((folder.path() / ("logged-" + std::to_string(batch) + ".db")).string(), 10, batch,
                               options.micro_seconds());
  for (int tables : {100, 1000})
    bench_server_shaped_logged((folder.path() / ("logged-" + std::to_string(tables) + "-tables.db")).string(), tables,
                               16, options.micro_seconds());
  run_postgres_bench(options);
}

}  // namespace parlour::bench
