// A SQLite file's step log (docs/architecture.md "The step log"): the server's
// table steps are made durable by appending them to a file beside the
// database, one write a commit, and are filed into the database's tables
// behind it in large transactions (storage/step_filer.h). A commit of a few
// steps touched pages all over the database's b-trees, each written whole to
// the WAL; the log writes the steps' bytes once, and a filing of hundreds of
// steps writes each page it touches once.
//
// Here: how a batch of steps is encoded in the log, the log's files, and the
// point where a process's readers of one database ask for its steps to be filed.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "storage/store.h"

namespace parlour::storage {

// One commit's table steps as the log keeps them: numbered in the order they
// were appended (lsn, from 1), with the time they were committed, which is the
// time the ledger gives their chip movements however late they are filed.
struct LoggedBatch {
  std::int64_t lsn = 0;
  std::string time;  // utc_iso8601
  std::vector<TableWrite> writes;
};

// Every field of every write, in a compact binary form that decode_batch
// reads back exactly (tests/storage/test_step_log.cpp compares them).
std::string encode_batch(std::int64_t lsn, const std::string& time, const std::vector<TableWrite>& writes);
inline std::string encode_batch(const LoggedBatch& batch) { return encode_batch(batch.lsn, batch.time, batch.writes); }
// Throws StorageError saying what was malformed and where.
LoggedBatch decode_batch(std::string_view bytes);

// The log's two files beside DATABASE: DATABASE-steps-0 and DATABASE-steps-1.
// Appends go to one; when it has grown past a limit, appends move to the
// other, and the full one is emptied once every record in it is filed, so the
// log never has to be cut while steps keep coming. Each record is
// [length u32][lsn i64][check u64][payload]; a record that a crash (or a
// power loss) left torn or damaged ends its file when read.
//
// One process holds the log at a time: an exclusive lock on the first file,
// taken without waiting. The lock is per open file, so a second StepLog of
// the same database in one process is refused too.
class StepLog {
 public:
  // nullptr when another StepLog (this process's or another's) holds it.
  // StorageError when the files cannot be opened.
  static std::unique_ptr<StepLog> open(const std::string& database_path);
  // Whether DATABASE has log files with anything in them (nothing opened or locked).
  static bool has_records(const std::string& database_path);
  ~StepLog();
  StepLog(const StepLog&) = delete;
  StepLog& operator=(const StepLog&) = delete;

  struct Record {
    std::int64_t lsn = 0;
    std::string payload;
  };
  // Every whole record of both files, by lsn; a torn or damaged tail is cut off
  // its file (so that appends never follow it).
  std::vector<Record> records();
  // One write; on failure (a full disk) the file is cut back to where it was,
  // nothing was appended, and StorageError says why.
  void append(std::int64_t lsn, std::string_view payload);
  // Moves appends to the other file when the one they go to holds `limit`
  // bytes or more and the other is empty; true when it did. The full file's
  // records are all appended before any of the other's.
  bool switch_files_past(std::uint64_t limit);
  // Empties the file appends do not go to (its records are all filed).
  void empty_other_file();
  // Empties both files (every record is filed, and nothing is appended meanwhile).
  void empty();
  bool other_file_is_empty() const;
  std::string describe() const;  // the first file's path

 private:
  struct File;
  explicit StepLog(std::string base);
  std::vector<Record> read_file(int which);
  std::string base_;
  std::unique_ptr<File> files_[2];
  int current_ = 0;
};

// When the filer (storage/step_filer.h) files.
struct FilingLimits {
  // At 100 tables, filing every 200 ms rather than 50 cost 10 % less CPU an
  // action (each table's pages are written once for more of its steps).
  std::chrono::milliseconds file_every{200};
  // While no more than this many steps are appended in a `quiet_window` (this
  // one so far, and the one before when it has just ended), each
  // batch is filed at once, before append returns: at such a pace the filing
  // costs nothing that matters, and another process reading the file (an
  // operator's command, a test) finds every step told of in the tables. Past
  // it, the thread files them behind, hundreds a transaction.
  std::size_t quiet_steps = 64;
  std::chrono::milliseconds quiet_window{50};
  // A filing writes a few pages of each table it holds whatever the number of
  // its steps there, so with many tables it waits for several steps of each:
  // past `file_every` it files once `steps_a_table` steps a table wait (of
  // the tables appended to since the last filing began), or `longest_pause`
  // has passed since it, or `file_at_steps` steps wait. At 1,000 tables that
  // is about every half second (bench: 150 -> 135 us of CPU an action); at
  // 100 tables it is every `file_every` still.
  std::size_t steps_a_table = 4;
  std::chrono::milliseconds longest_pause{1000};
  std::size_t file_at_steps = 32768;
  // A filing's transaction holds at most about this much: the WAL it makes
  // has to fit in the limits its checkpoints keep (WalLimits).
  std::size_t most_steps_a_filing = 32768;
  std::size_t most_bytes_a_filing = 16u << 20;
  // The filing thread's nice value (0: the I/O threads' own priority). A
  // filing is tens of milliseconds of CPU on the core the I/O thread answers
  // from: at nice 0, act -> ok p99 at half load and 100 tables was 7-17 ms
  // (bench, five runs), at 5 it is 5-10 ms. Nice 5 still gives the filer a
  // quarter of a contended core, more than it needs at full load; 10 (a
  // tenth) let it fall behind and raised the full-load p99.9 at the last try.
  int nice = 5;
  // Appends move to the log's other file past this size (StepLog::switch_files_past).
  std::uint64_t switch_files_at = 64ull << 20;
};

// Whatever files a process's logged steps: FilingPoint::catch_up calls it.
class Filer {
 public:
  // Files every step logged before the call; StorageError when it cannot.
  virtual void catch_up() = 0;

 protected:
  ~Filer() = default;
};

// Where a process's connections to one SQLite file find the filer of its
// logged steps: before a read or a transaction of its own, each connection
// asks it to catch up, so that it sees every step committed before (the
// filer's own connection does not). Without a filer in this process, a
// connection sees what the file holds: another process's server files its
// steps within a moment of their commit (storage/step_filer.h).
class FilingPoint {
 public:
  // The point of the database at `database_path`, one per file in a process.
  static std::shared_ptr<FilingPoint> of(const std::string& database_path);
  void attach(std::weak_ptr<Filer> filer);
  void detach();
  void catch_up();

 private:
  std::mutex mutex_;
  std::weak_ptr<Filer> filer_;
};

}  // namespace parlour::storage
