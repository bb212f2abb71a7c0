// Tests of a SQLite file's step log (storage/step_log.h) and its filer
// (storage/step_filer.h): the encoding of a batch, the log's files (torn
// tails, the lock, the move between its two files), and a logged store: its
// steps read by any connection of the process, at the time they were
// committed; what a crash left filed at the next open, once; a refused step
// stopping its table and no other.
#include "storage/sqlite_store.h"
#include "storage/step_filer.h"
#include "storage/step_log.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <doctest/doctest.h>

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace parlour::storage;
namespace fs = std::filesystem;

class TempFolder {
 public:
  TempFolder() {
    static std::atomic<int> counter{0};
    std::random_device entropy;
    path_ = fs::temp_directory_path() / ("parlour-step-log-test-" + std::to_string(::getpid()) + "-" +
                                         std::to_string(entropy()) + "-" + std::to_string(counter++));
    fs::create_directories(path_);
  }
  ~TempFolder() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
  std::string file() const { return (path_ / "parlour.db").string(); }

 private:
  fs::path path_;
};

// A write with every field set, and one with none but its table.
TableWrite full_write() {
  TableWrite write;
  write.table = "t1";
  write.fence = Fence{"node-a", 7};
  write.event = Event{12, R"({"kind":"act","note":"é \u0000 \"quoted\""})"};
  write.postings = {Posting{"player:ann", "pool:t1:pot", 5, "Red Dog: a bet", "t1", "red_dog", 12, 3},
                    Posting{"pool:t1:pot", "player:bob", 9, "", "", "", std::nullopt, std::nullopt}};
  write.status = "playing";
  write.seats = std::vector<Seat>{{0, "ann", false, 0}, {1, "", false, 0}, {2, "Bot Bea", true, 2}};
  write.result_json = R"({"winner":"bob"})";
  write.failure = "a fault";
  write.deal_start = DealStart{3, 12, R"({"deal":3})", std::string(3000, 's'), true};
  return write;
}

void check_same(const TableWrite& a, const TableWrite& b) {
  CHECK(a.table == b.table);
  REQUIRE(a.fence.has_value() == b.fence.has_value());
  if (a.fence) {
    CHECK(a.fence->node == b.fence->node);
    CHECK(a.fence->generation == b.fence->generation);
  }
  REQUIRE(a.event.has_value() == b.event.has_value());
  if (a.event) {
    CHECK(a.event->seq == b.event->seq);
    CHECK(a.event->json == b.event->json);
  }
  REQUIRE(a.postings.size() == b.postings.size());
  for (std::size_t i = 0; i < a.postings.size(); ++i) {
    const Posting& x = a.postings[i];
    const Posting& y = b.postings[i];
    CHECK(x.from == y.from);
    CHECK(x.to == y.to);
    CHECK(x.amount == y.amount);
    CHECK(x.memo == y.memo);
    CHECK(x.table == y.table);
    CHECK(x.game == y.game);
    CHECK(x.seq == y.seq);
    CHECK(x.deal == y.deal);
  }
  CHECK(a.status == b.status);
  REQUIRE(a.seats.has_value() == b.seats.has_value());
  if (a.seats) {
    REQUIRE(a.seats->size() == b.seats->size());
    for (std::size_t i = 0; i < a.seats->size(); ++i) {
      CHECK((*a.seats)[i].seat == (*b.seats)[i].seat);
      CHECK((*a.seats)[i].player == (*b.seats)[i].player);
      CHECK((*a.seats)[i].bot == (*b.seats)[i].bot);
      CHECK((*a.seats)[i].bot_level == (*b.seats)[i].bot_level);
    }
  }
  CHECK(a.result_json == b.result_json);
  CHECK(a.failure == b.failure);
  REQUIRE(a.deal_start.has_value() == b.deal_start.has_value());
  if (a.deal_start) {
    CHECK(a.deal_start->deal == b.deal_start->deal);
    CHECK(a.deal_start->seq == b.deal_start->seq);
    CHECK(a.deal_start->entry_json == b.deal_start->entry_json);
    CHECK(a.deal_start->state_json == b.deal_start->state_json);
    CHECK(a.deal_start->state_kept == b.deal_start->state_kept);
  }
}

TableWrite bare_write(const std::string& table) {
  TableWrite write;
  write.table = table;
  return write;
}

TEST_CASE("a batch decodes to exactly what was encoded, every field of every write") {
  const LoggedBatch batch{41, "2026-11-29T15:30:00.123Z", {full_write(), bare_write("t2")}};
  const LoggedBatch back = decode_batch(encode_batch(batch));
  CHECK(back.lsn == 41);
  CHECK(back.time == batch.time);
  REQUIRE(back.writes.size() == 2);
  check_same(back.writes[0], batch.writes[0]);
  check_same(back.writes[1], batch.writes[1]);
}

TEST_CASE("a cut or lengthened batch is refused with where and what was missing, never read") {
  const std::string bytes = encode_batch(LoggedBatch{1, "2026-11-29T15:30:00.123Z", {full_write()}});
  for (std::size_t length = 0; length < bytes.size(); ++length) {
    CAPTURE(length);
    CHECK_THROWS_AS(decode_batch(std::string_view(bytes).substr(0, length)), StorageError);
  }
  CHECK_THROWS_WITH_AS(decode_batch(bytes + "x"), doctest::Contains("1 bytes after the last write"), StorageError);
  std::string other_version = bytes;
  other_version[0] = 9;
  CHECK_THROWS_WITH_AS(decode_batch(other_version), doctest::Contains("encoding version 1 expected, found 9"),
                       StorageError);
}

TEST_CASE("the log gives back its records in order after a reopening, and one holder at a time") {
  TempFolder temp;
  {
    const auto log = StepLog::open(temp.file());
    REQUIRE(log);
    CHECK_FALSE(StepLog::open(temp.file()));  // held: by this process too
    log->append(1, "one");
    log->append(2, "two");
    log->append(3, std::string(100'000, 'z'));
  }
  CHECK(StepLog::has_records(temp.file()));
  const auto log = StepLog::open(temp.file());
  REQUIRE(log);
  const auto records = log->records();
  REQUIRE(records.size() == 3);
  CHECK(records[0].lsn == 1);
  CHECK(records[0].payload == "one");
  CHECK(records[1].payload == "two");
  CHECK(records[2].payload == std::string(100'000, 'z'));
  log->empty();
  CHECK(log->records().empty());
  CHECK_FALSE(StepLog::has_records(temp.file()));
}

TEST_CASE("a torn or damaged last record ends the log and is cut off, so appends after it are read") {
  TempFolder temp;
  const std::string first = temp.file() + "-steps-0";
  {
    const auto log = StepLog::open(temp.file());
    log->append(1, "whole");
    log->append(2, "torn record");
  }
  SUBCASE("torn: the last record's end never reached the file") { fs::resize_file(first, fs::file_size(first) - 3); }
  SUBCASE("damaged: a byte of its payload changed") {
    std::fstream file(first, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(-2, std::ios::end);
    file.put('X');
  }
  SUBCASE("zeros after it, as a power loss may leave") {
    std::ofstream file(first, std::ios::app | std::ios::binary);
    file << std::string(64, '\0');
    fs::resize_file(first, fs::file_size(first));
  }
  const auto log = StepLog::open(temp.file());
  REQUIRE(log);
  auto records = log->records();
  REQUIRE_FALSE(records.empty());
  CHECK(records[0].payload == "whole");
  log->append(3, "after");
  records = log->records();
  CHECK(records.back().payload == "after");
}

TEST_CASE("appends move to the other file past the limit, the full one is emptied apart, and lsns stay in order") {
  TempFolder temp;
  auto log = StepLog::open(temp.file());
  log->append(1, std::string(100, 'a'));
  log->append(2, std::string(100, 'b'));
  CHECK_FALSE(log->switch_files_past(1'000));
  CHECK(log->switch_files_past(100));
  CHECK_FALSE(log->other_file_is_empty());
  CHECK_FALSE(log->switch_files_past(0));  // not while the other holds records
  log->append(3, "c");
  auto records = log->records();
  REQUIRE(records.size() == 3);
  CHECK(records[2].lsn == 3);
  log->empty_other_file();
  CHECK(log->other_file_is_empty());
  records = log->records();
  REQUIRE(records.size() == 1);
  CHECK(records[0].lsn == 3);
  // And back again: the newer records are in the first file now, and read last.
  CHECK(log->switch_files_past(1));
  log->append(4, "d");
  log.reset();
  log = StepLog::open(temp.file());
  records = log->records();
  REQUIRE(records.size() == 2);
  CHECK(records[0].lsn == 3);
  CHECK(records[1].lsn == 4);
  log->append(5, "e");  // appends go on in the file with the later records
  CHECK(log->records().back().lsn == 5);
}

// ---------------------------------------------------------------------------
// A logged store

TableRecord make_table(const std::string& id) {
  TableRecord table;
  table.id = id;
  table.game = "red_dog";
  table.options_json = "{}";
  table.seed = 1;
  table.host = "ann";
  table.status = "playing";
  table.seats = {Seat{0, "ann", false, 0}, Seat{1, "bob", false, 0}};
  return table;
}

TableWrite bet(const std::string& table, std::int64_t seq, const std::string& player, std::int64_t amount) {
  TableWrite write;
  write.table = table;
  write.event = Event{seq, R"({"seq":)" + std::to_string(seq) + "}"};
  write.postings = {Posting{player_account(player), pool_account(table, "pot"), amount, "a bet", table, "red_dog", seq,
                            1}};
  return write;
}

void prepare(Store& db) {
  db.create_player("ann", "hash-ann", 100);
  db.create_player("bob", "hash-bob", 100);
  db.create_table(make_table("t1"));
  db.create_table(make_table("t2"));
}

std::int64_t filed_events(const std::string& file) {
  SQLite::Database raw(file, SQLite::OPEN_READONLY);
  return raw.execAndGet("SELECT count(*) FROM table_events").getInt64();
}

// Logging with every step counted busy: the filer files behind.
FilingLimits always_behind() {
  FilingLimits limits;
  limits.quiet_steps = 0;
  return limits;
}

TEST_CASE("a logged step is read by every connection of the process at once, and filed by the filer soon after") {
  TempFolder temp;
  SqliteStore writer(temp.file());
  prepare(writer);
  std::vector<std::string> reports;
  writer.file_steps_with(always_behind());
  writer.housekeep_in_background([&](const std::string& what) { reports.push_back(what); });
  const auto before = std::chrono::system_clock::now();
  REQUIRE(writer.commit({bet("t1", 1, "ann", 10), bet("t2", 1, "bob", 20)}).size() == 2);
  CHECK(StepLog::has_records(temp.file()));
  // Another connection of this process sees them (it asks the filer to catch up first).
  SqliteStore reader(temp.file());
  CHECK(reader.events("t1").size() == 1);
  CHECK(reader.balance(player_account("bob")) == 80);
  const std::vector<LedgerEntry> ledger = reader.ledger(player_account("ann"), 10, std::nullopt);
  REQUIRE(ledger.size() == 2);
  // The ledger's time is the commit's, not the filing's.
  CHECK(ledger[0].time >= utc_iso8601(before));
  CHECK(ledger[0].time <= utc_iso8601(std::chrono::system_clock::now()));
  // Another process, which cannot ask, finds them filed within a moment.
  REQUIRE(writer.commit({bet("t1", 2, "ann", 5)})[0].committed());
  for (int tries = 0; tries < 100 && filed_events(temp.file()) < 3; ++tries)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK(filed_events(temp.file()) == 3);
  CHECK(reports.empty());
}

// The nice values of this process's threads, by thread id.
std::map<int, int> thread_nice_values() {
  std::map<int, int> nice;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    const int tid = std::stoi(task.path().filename().string());
    errno = 0;
    const int value = getpriority(PRIO_PROCESS, static_cast<id_t>(tid));
    if (errno == 0) nice[tid] = value;
  }
  return nice;
}

// A filing of 200 ms of steps is tens of milliseconds of CPU: at the I/O
// threads' priority it held a busy core's answers back by as long (act -> ok
// p99 at half load, 100 tables: 7-17 ms; 5-10 behind).
TEST_CASE("the filer files behind the I/O threads, at the nice value its limits give") {
  const int ours = getpriority(PRIO_PROCESS, 0);
  FilingLimits limits = always_behind();
  REQUIRE(limits.nice == 5);
  if (ours >= limits.nice) return;  // already as low: nothing a thread can lower itself to
  TempFolder temp;
  SqliteStore writer(temp.file());
  prepare(writer);
  limits.file_every = std::chrono::milliseconds(10);
  writer.file_steps_with(limits);
  const auto before = thread_nice_values();
  writer.housekeep_in_background([](const std::string&) {});
  REQUIRE(writer.commit({bet("t1", 1, "ann", 1)})[0].committed());
  for (int tries = 0; tries < 100 && filed_events(temp.file()) < 1; ++tries)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(filed_events(temp.file()) == 1);
  const auto after = thread_nice_values();
  const auto filers = std::count_if(after.begin(), after.end(), [&](const auto& thread) {
    return !before.count(thread.first) && thread.second == limits.nice;
  });
  CHECK(filers == 1);
  CHECK(getpriority(PRIO_PROCESS, 0) == ours);  // this thread's own is untouched
}

TEST_CASE("with many tables and few steps of each, the filer waits for several steps a table before it files") {
  TempFolder temp;
  SqliteStore writer(temp.file());
  prepare(writer);
  writer.create_table(make_table("t3"));
  FilingLimits limits = always_behind();
  limits.file_every = std::chrono::milliseconds(10);
  limits.steps_a_table = 2;
  limits.longest_pause = std::chrono::minutes(10);  // never, in this test
  writer.file_steps_with(limits);
  writer.housekeep_in_background([](const std::string&) {});
  // Three tables, one step each: fewer than two a table.
  REQUIRE(writer.commit({bet("t1", 1, "ann", 1), bet("t2", 1, "bob", 1), bet("t3", 1, "ann", 1)}).size() == 3);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  CHECK(filed_events(temp.file()) == 0);
  // Three more make two a table: filed within a moment.
  REQUIRE(writer.commit({bet("t1", 2, "ann", 1), bet("t2", 2, "bob", 1), bet("t3", 2, "ann", 1)}).size() == 3);
  for (int tries = 0; tries < 200 && filed_events(temp.file()) < 6; ++tries)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(filed_events(temp.file()) == 6);
  // However few steps a table: a reader of this process still finds them all (it asks first).
  REQUIRE(writer.commit({bet("t1", 3, "ann", 1)})[0].committed());
  SqliteStore reader(temp.file());
  CHECK(reader.events("t1").size() == 3);
}

TEST_CASE("at a quiet pace each batch is filed before commit returns: another process reads it at once") {
  TempFolder temp;
  SqliteStore writer(temp.file());
  prepare(writer);
  FilingLimits limits;
  limits.quiet_steps = 3;
  limits.quiet_window = std::chrono::seconds(60);  // one window for the whole test
  writer.file_steps_with(limits);
  writer.housekeep_in_background([](const std::string&) {});
  REQUIRE(writer.commit({bet("t1", 1, "ann", 10), bet("t2", 1, "bob", 20)}).size() == 2);
  CHECK(filed_events(temp.file()) == 2);
  REQUIRE(writer.commit({bet("t1", 2, "ann", 10)})[0].committed());
  CHECK(filed_events(temp.file()) == 3);
  // The fourth step in the window is past the quiet pace: logged, and filed behind.
  REQUIRE(writer.commit({bet("t1", 3, "ann", 10)})[0].committed());
  CHECK(filed_events(temp.file()) == 3);
  CHECK(StepLog::has_records(temp.file()));
  SqliteStore reader(temp.file());
  CHECK(reader.events("t1").size() == 3);
  CHECK(filed_events(temp.file()) == 4);
}

TEST_CASE("a second writer store of the same file commits without the log, and says why: one process files it") {
  TempFolder temp;
  SqliteStore first(temp.file());
  prepare(first);
  first.file_steps_with(always_behind());
  first.housekeep_in_background([](const std::string&) {});
  SqliteStore second(temp.file());
  std::vector<std::string> reports;
  second.housekeep_in_background([&](const std::string& what) { reports.push_back(what); });
  REQUIRE(reports.size() == 1);
  CHECK(reports[0].find("is another Parlour server using this database?") != std::string::npos);
  REQUIRE(second.commit({bet("t1", 1, "ann", 10)})[0].committed());
  CHECK(filed_events(temp.file()) == 1);  // straight into the tables
}

// What a server that crashed left in its log: the steps it told its players
// were committed are in the database once the file is next opened, once.
TEST_CASE("a crash's log is filed when the file is next opened, each batch once") {
  TempFolder temp;
  {
    SqliteStore db(temp.file());
    prepare(db);
  }
  {
    const auto log = StepLog::open(temp.file());
    log->append(1, encode_batch(LoggedBatch{1, "2026-11-29T10:00:00.000Z", {bet("t1", 1, "ann", 10)}}));
    log->append(2, encode_batch(LoggedBatch{2, "2026-11-29T10:00:01.000Z", {bet("t1", 2, "bob", 30)}}));
  }
  {
    SqliteStore db(temp.file());
    CHECK(db.events("t1").size() == 2);
    CHECK(db.balance(player_account("ann")) == 90);
    CHECK(db.balance(player_account("bob")) == 70);
    CHECK(db.ledger(player_account("bob"), 1, std::nullopt)[0].time == "2026-11-29T10:00:01.000Z");
    CHECK(db.steps_filed_through() == 2);
    CHECK_FALSE(StepLog::has_records(temp.file()));
  }
  // A crash between a filing's commit and the log's emptying: the batches are read again, and passed over.
  {
    const auto log = StepLog::open(temp.file());
    log->append(2, encode_batch(LoggedBatch{2, "2026-11-29T10:00:01.000Z", {bet("t1", 2, "bob", 30)}}));
    log->append(3, encode_batch(LoggedBatch{3, "2026-11-29T10:00:02.000Z", {bet("t1", 3, "ann", 1)}}));
  }
  SqliteStore db(temp.file());
  CHECK(db.events("t1").size() == 3);
  CHECK(db.balance(player_account("bob")) == 70);
  CHECK(db.balance(player_account("ann")) == 89);
  // And a writer numbers its batches on from there.
  db.housekeep_in_background([](const std::string&) {});
  REQUIRE(db.commit({bet("t2", 1, "ann", 1)})[0].committed());
  SqliteStore reader(temp.file());
  CHECK(reader.steps_filed_through() == 4);
}

TEST_CASE("a step the database refuses at filing stops its table there, and no other") {
  TempFolder temp;
  SqliteStore writer(temp.file());
  prepare(writer);
  std::vector<std::string> reports;
  std::vector<RefusedStep> heard;
  std::mutex heard_mutex;
  writer.file_steps_with(always_behind());
  writer.when_steps_are_refused([&](const RefusedStep& step) {
    std::lock_guard lock(heard_mutex);
    heard.push_back(step);
  });
  writer.housekeep_in_background([&](const std::string& what) {
    std::lock_guard lock(heard_mutex);
    reports.push_back(what);
  });
  // Ann has 100 chips; another process takes 95 of them before the filing.
  {
    SQLite::Database raw(temp.file(), SQLite::OPEN_READWRITE);
    raw.exec("UPDATE accounts SET balance = balance - 95 WHERE name = 'player:ann'");
    raw.exec("UPDATE accounts SET balance = balance + 95 WHERE name = 'bank'");
  }
  const auto outcomes = writer.commit(
      {bet("t1", 1, "bob", 10), bet("t1", 2, "ann", 10), bet("t2", 1, "bob", 1), bet("t1", 3, "bob", 10)});
  CHECK(outcomes.size() == 4);  // all logged: the refusal comes at filing
  SqliteStore reader(temp.file());
  CHECK(reader.events("t1").size() == 1);  // step 1 only: 2 was refused, 3 came after it
  CHECK(reader.events("t2").size() == 1);
  CHECK(reader.balance(player_account("bob")) == 89);
  CHECK(reader.balance(player_account("ann")) == 5);
  const auto table = reader.find_table("t1");
  REQUIRE(table);
  CHECK(table->status == "finished");
  CHECK(table->failure.find("refused a step when it was filed") != std::string::npos);
  CHECK(reader.find_table("t2")->failure.empty());
  CHECK(reader.total_of_all_accounts() == 0);
  std::lock_guard lock(heard_mutex);
  REQUIRE(heard.size() == 1);
  CHECK(heard[0].table == "t1");
  CHECK(heard[0].seq == 2);
  CHECK(heard[0].why.find("insufficient chips") != std::string::npos);
  REQUIRE(reports.size() == 1);
  CHECK(reports[0].find("table t1: the database refused step 2 when it was filed") != std::string::npos);
}

TEST_CASE("a clean stop files everything and leaves nothing in the log") {
  TempFolder temp;
  {
    SqliteStore writer(temp.file());
    prepare(writer);
    writer.file_steps_with(always_behind());
    writer.housekeep_in_background([](const std::string&) {});
    for (std::int64_t seq = 1; seq <= 50; ++seq) REQUIRE(writer.commit({bet("t1", seq, "ann", 1)})[0].committed());
  }
  CHECK_FALSE(StepLog::has_records(temp.file()));
  CHECK(filed_events(temp.file()) == 50);
}

}  // namespace

namespace {

// A filing holds the steps of every table that played meanwhile: past a few
// dozen accounts the plan finds them by hash instead of by scanning.
TEST_CASE("a filing of forty tables' steps moves each of their hundred and twenty accounts' chips exactly") {
  TempFolder temp;
  SqliteStore writer(temp.file());
  for (int t = 0; t < 40; ++t) {
    const std::string id = "t" + std::to_string(t);
    writer.create_player("p" + std::to_string(t), "hash-" + std::to_string(t), 100);
    TableRecord table = make_table(id);
    table.seats = {Seat{0, "p" + std::to_string(t), false, 0}};
    writer.create_table(table);
  }
  writer.file_steps_with(always_behind());
  writer.housekeep_in_background([](const std::string&) {});
  for (std::int64_t seq = 1; seq <= 3; ++seq) {
    std::vector<TableWrite> writes;
    for (int t = 0; t < 40; ++t) {
      const std::string id = "t" + std::to_string(t);
      TableWrite write = bet(id, seq, "p" + std::to_string(t), 1 + t % 10);
      write.postings.push_back(Posting{pool_account(id, "pot"), pool_account(id, "side"), 1, "to the side", id,
                                       "red_dog", seq, 1});
      writes.push_back(std::move(write));
    }
    REQUIRE(writer.commit(writes).size() == 40);
  }
  SqliteStore reader(temp.file());
  for (int t = 0; t < 40; ++t) {
    CAPTURE(t);
    const std::string id = "t" + std::to_string(t);
    CHECK(reader.balance(player_account("p" + std::to_string(t))) == 100 - 3 * (1 + t % 10));
    CHECK(reader.balance(pool_account(id, "pot")) == 3 * (1 + t % 10) - 3);
    CHECK(reader.balance(pool_account(id, "side")) == 3);
  }
  CHECK(reader.total_of_all_accounts() == 0);
}

}  // namespace

namespace {

std::uintmax_t size_of(const std::string& file) {
  std::error_code error;
  const std::uintmax_t size = fs::file_size(file, error);
  return error ? 0 : size;
}

// Under a backlog that never drains, appends still move between the log's two
// files, and each is emptied once what it holds is filed: the log's files
// hold the steps not yet filed and one file's worth more, never everything.
TEST_CASE("with steps always waiting, the log moves between its files and empties each once filed") {
  TempFolder temp;
  {
    SqliteStore setup(temp.file());
    prepare(setup);
  }
  FilingLimits limits = always_behind();
  limits.switch_files_at = 1;  // every batch fills a file
  limits.file_every = std::chrono::hours(1);
  StepFiler filer(StepLog::open(temp.file()), std::make_unique<SqliteStore>(temp.file()),
                  [](const std::string& what) { FAIL(what); }, limits);  // not started: it files when told
  const std::string first = temp.file() + "-steps-0";
  const std::string second = temp.file() + "-steps-1";
  REQUIRE(filer.append({bet("t1", 1, "ann", 1)})[0].committed());  // lsn 1, first file
  REQUIRE(filer.append({bet("t1", 2, "ann", 1)})[0].committed());  // lsn 2, second file
  REQUIRE(filer.append({bet("t1", 3, "ann", 1)})[0].committed());  // lsn 3, second file still (the first holds lsn 1)
  CHECK(size_of(first) > 0);
  CHECK(size_of(second) > 0);
  filer.file_through(1);  // lsns 2 and 3 still wait
  CHECK(size_of(first) == 0);
  CHECK(size_of(second) > 0);
  REQUIRE(filer.append({bet("t1", 4, "ann", 1)})[0].committed());  // back to the first file
  CHECK(size_of(first) > 0);
  filer.file_through(3);  // lsn 4 still waits
  CHECK(size_of(second) == 0);
  CHECK(size_of(first) > 0);
  filer.catch_up();
  CHECK(size_of(first) == 0);
  CHECK(filed_events(temp.file()) == 4);
}

}  // namespace
