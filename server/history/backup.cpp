#include "server/history/backup.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <stdexcept>

#include "server/common/config.h"
#include "server/history/store_check.h"
#include "storage/schema.h"
#include "storage/sqlite_store.h"
#include "storage/step_log.h"
#include "storage/store.h"

namespace parlour::server {

namespace fs = std::filesystem;

namespace {

// Thrown for a refusal (exit 2); anything else that fails on the way is exit 1.
class Refused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One sqlite3 connection, closed when it goes.
class Connection {
 public:
  Connection(const std::string& path, int flags) {
    if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
      const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
      sqlite3_close_v2(db_);
      throw std::runtime_error("cannot open " + path + ": " + why);
    }
    sqlite3_busy_timeout(db_, 5000);
  }
  ~Connection() { sqlite3_close_v2(db_); }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  sqlite3* get() const { return db_; }
  std::string error() const { return sqlite3_errmsg(db_); }

  // The first column of the first row of `sql`, as text ("" for none).
  std::string first(const char* sql) const {
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(db_, sql, -1, &statement, nullptr) != SQLITE_OK) throw std::runtime_error(error());
    const std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> finalize(statement, sqlite3_finalize);
    const int step = sqlite3_step(statement);
    if (step == SQLITE_DONE) return "";
    if (step != SQLITE_ROW) throw std::runtime_error(error());
    const auto* text = sqlite3_column_text(statement, 0);
    return text ? reinterpret_cast<const char*>(text) : "";
  }

 private:
  sqlite3* db_ = nullptr;
};

// Copies the whole of `from` into `to` in one step of the online backup API:
// one read transaction on `from`, so the copy is the database at one moment
// however much a server writes meanwhile (in WAL mode the writer goes on; a
// copy in several steps would start again after each of its commits).
void copy_database(const Connection& from, const Connection& to) {
  sqlite3_backup* backup = sqlite3_backup_init(to.get(), "main", from.get(), "main");
  if (!backup) throw std::runtime_error(to.error());
  int step = SQLITE_OK;
  for (int tries = 0; tries < 200; ++tries) {  // busy only while another connection recovers the WAL
    step = sqlite3_backup_step(backup, -1);
    if (step != SQLITE_BUSY && step != SQLITE_LOCKED) break;
    sqlite3_sleep(50);
  }
  const int finish = sqlite3_backup_finish(backup);
  if (step != SQLITE_DONE) throw std::runtime_error(std::string("the copy failed: ") + sqlite3_errstr(step));
  if (finish != SQLITE_OK) throw std::runtime_error("the copy failed: " + to.error());
}

// Why the database on `db` is not a sound Parlour store, or "".
std::string store_problem(const Connection& db) {
  try {
    const std::string integrity = db.first("PRAGMA quick_check");
    if (integrity != "ok") return "SQLite's quick_check finds it damaged: " + integrity;
    if (db.first("SELECT count(*) FROM sqlite_master WHERE type IN ('table', 'view') AND name IN "
                 "('schema_version', 'players', 'accounts', 'transfers', 'ledger_entries', 'tables', "
                 "'table_events')") != "7")
      return "it lacks Parlour's tables (schema_version, players, accounts, transfers, ledger_entries, tables, "
             "table_events)";
    const int version = std::stoi(db.first("SELECT coalesce(max(version), 0) FROM schema_version"));
    if (version < 1 || version > storage::kLatestSchemaVersion)
      return "its schema version is " + std::to_string(version) + "; this build knows 1 to " +
             std::to_string(storage::kLatestSchemaVersion);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

// "12 tables, 3456 events, 7 players, schema version 11"
std::string contents_of(const Connection& db) {
  return db.first("SELECT count(*) FROM tables") + " tables, " + db.first("SELECT count(*) FROM table_events") +
         " events, " + db.first("SELECT count(*) FROM players") + " players, schema version " +
         db.first("SELECT max(version) FROM schema_version");
}

// Removes `path` and the files SQLite writes beside it while working on it.
void remove_with_companions(const std::string& path) {
  std::error_code ignored;
  for (const char* suffix : {"", "-journal", "-wal", "-shm"}) fs::remove(path + suffix, ignored);
}

std::string partial_name(const std::string& path, const char* what) {
  return path + "." + what + "-" + std::to_string(::getpid());
}

// Copies the store `from` into a new file `partial` and checks it; returns what
// it holds. Its connection is closed on return, so the copy is one file, its WAL
// folded in. On failure nothing of it is left.
std::string copy_to_partial(const Connection& from, const std::string& partial) {
  remove_with_companions(partial);
  try {
    const Connection to(partial, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    copy_database(from, to);
    // A copy of a WAL store says WAL in its header; in rollback mode it stays one
    // file even where only read (a reader of a WAL file makes a -wal and -shm).
    // The server sets WAL again when it opens the store.
    if (to.first("PRAGMA journal_mode=DELETE") != "delete") throw std::runtime_error("cannot fold the copy into one file: " + to.error());
    if (auto problem = store_problem(to); !problem.empty()) throw std::runtime_error("the copy is not sound: " + problem);
    return contents_of(to);
  } catch (...) {
    remove_with_companions(partial);
    throw;
  }
}

void refuse_postgres(const std::string& where, const char* tool) {
  if (storage::is_postgres_url(where))
    throw Refused(std::string("a PostgreSQL database is backed up with pg_dump and restored with pg_restore, not `parlour ") +
                  tool + "` (docs/operations.md \"PostgreSQL\")");
}

void require_writable_folder(const std::string& file) {
  const fs::path folder = fs::path(file).parent_path().empty() ? fs::path(".") : fs::path(file).parent_path();
  std::error_code error;
  const auto status = fs::status(folder, error);
  if (!fs::exists(status)) throw Refused("cannot write " + file + ": the folder " + folder.string() + " does not exist");
  if (!fs::is_directory(status)) throw Refused("cannot write " + file + ": " + folder.string() + " is not a folder");
  if (::access(folder.c_str(), W_OK) != 0)
    throw Refused("cannot write " + file + ": no permission to write in " + folder.string());
}

struct Arguments {
  std::string file;
  std::string db;
  bool force = false;
};

Arguments parse(const std::vector<std::string>& args, bool force_allowed, const std::string& usage) {
  Arguments parsed;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--db" && i + 1 < args.size()) parsed.db = args[++i];
    else if (args[i] == "--force" && force_allowed) parsed.force = true;
    else if (args[i].rfind("--", 0) != 0 && parsed.file.empty()) parsed.file = args[i];
    else throw Refused("unexpected '" + args[i] + "'\n" + usage);
  }
  if (parsed.file.empty()) throw Refused("which file?\n" + usage);
  return parsed;
}

int report(const char* tool, const std::exception& e, int status) {
  std::cerr << "parlour " << tool << ": " << e.what() << "\n";
  return status;
}

int backup(const Arguments& args) {
  refuse_postgres(args.db, "backup");
  std::error_code error;
  if (fs::symlink_status(args.file, error).type() != fs::file_type::not_found)
    throw Refused(args.file + " exists; a backup never replaces a file: name a new one");
  require_writable_folder(args.file);
  if (!fs::is_regular_file(args.db)) throw Refused("there is no SQLite store at " + args.db + " to back up");
  const Connection from(args.db, SQLITE_OPEN_READONLY);
  if (auto problem = store_problem(from); !problem.empty())
    throw Refused(args.db + " is not a Parlour store: " + problem);
  // Steps a server logged and did not file (it crashed) are filed first, so
  // that the copy has them; a running server's are filed within a moment of
  // their commit, and the copy is the store as of then (storage/step_filer.h).
  // Only once it is known to be a store: opening one migrates it.
  if (storage::StepLog::has_records(args.db)) storage::SqliteStore{args.db};
  const std::string partial = partial_name(args.file, "partial");
  const std::string contents = copy_to_partial(from, partial);
  // link() refuses a name that exists, so a file made there meanwhile is not replaced either.
  if (::link(partial.c_str(), args.file.c_str()) != 0) {
    const int why = errno;
    remove_with_companions(partial);
    throw std::runtime_error("cannot write " + args.file + ": " + std::generic_category().message(why));
  }
  remove_with_companions(partial);
  std::cout << "parlour backup: " << args.db << " copied to " << args.file << " (" << contents << ")\n";
  return 0;
}

// The restored store belongs to whoever owned the store it replaces (or its
// folder), with the same mode: root restoring a service's store (a dynamic
// user's, docs/operations.md) must not leave it a file the service cannot write.
void take_owner_of(const std::string& copy, const std::string& store) {
  struct stat owner {};
  const bool replacing = ::stat(store.c_str(), &owner) == 0;
  const fs::path folder = fs::path(store).parent_path().empty() ? fs::path(".") : fs::path(store).parent_path();
  if (!replacing && ::stat(folder.c_str(), &owner) != 0) return;
  if (::chown(copy.c_str(), owner.st_uid, owner.st_gid) != 0) return;  // not root: the copy is already the caller's
  if (replacing) ::chmod(copy.c_str(), owner.st_mode & 07777);
}

int restore(const Arguments& args) {
  refuse_postgres(args.db, "restore");
  if (!fs::is_regular_file(args.file)) throw Refused("there is no file " + args.file + " to restore");
  const Connection from(args.file, SQLITE_OPEN_READONLY);
  if (auto problem = store_problem(from); !problem.empty())
    throw Refused(args.file + " is not a Parlour store: " + problem);
  if (const auto holder = process_holding(args.db))
    throw Refused(args.db + " is in use by process " + std::to_string(*holder) +
                  " (a running server?): stop it before restoring over its store");
  std::error_code error;
  if (fs::symlink_status(args.db, error).type() != fs::file_type::not_found && !args.force)
    throw Refused(args.db + " exists; restore replaces a store only when given --force");
  const fs::path folder = fs::path(args.db).parent_path();
  if (!folder.empty()) fs::create_directories(folder);
  const std::string partial = partial_name(args.db, "restoring");
  const std::string contents = copy_to_partial(from, partial);
  take_owner_of(partial, args.db);
  // The old store's WAL would otherwise be read into the new file, and its
  // step log's unfiled steps filed into it.
  for (const char* suffix : {"-wal", "-shm", "-journal", "-steps-0", "-steps-1"}) fs::remove(args.db + suffix);
  fs::rename(partial, args.db);
  std::cout << "parlour restore: " << args.file << " restored to " << args.db << " (" << contents
            << "); start the server on it\n";
  return 0;
}

// Who holds a lock on `length` bytes of `file` from `start` that a write lock
// there would conflict with. Opens the file apart: never call this on a file
// this process has an SQLite connection to (closing the descriptor would drop
// that connection's locks, POSIX locks being per process and file).
std::optional<long> lock_holder(const std::string& file, off_t start, off_t length) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct flock lock {};
  lock.l_type = F_WRLCK;
  lock.l_whence = SEEK_SET;
  lock.l_start = start;
  lock.l_len = length;
  const int got = ::fcntl(fd, F_GETLK, &lock);
  ::close(fd);
  if (got != 0 || lock.l_type == F_UNLCK) return std::nullopt;
  return static_cast<long>(lock.l_pid);
}

}  // namespace

std::optional<long> process_holding(const std::string& path) {
  // Every connection to a WAL database holds a read lock on byte 128 of its
  // -shm (the "DMS" byte, after the eight WAL locks from byte 120) while it is
  // open; a connection in rollback mode locks bytes from 2^30 of the file itself
  // while it reads or writes (SQLite's os_unix.c).
  if (auto holder = lock_holder(path + "-shm", 120, 9)) return holder;
  return lock_holder(path, 0x40000000, 512 + 2);
}

int backup_main(const std::vector<std::string>& args) {
  const std::string usage = "usage: parlour backup FILE [--db PATH]   (default --db " + Config{}.db + ")\n";
  try {
    Arguments parsed = parse(args, false, usage);
    if (parsed.db.empty()) parsed.db = Config{}.db;
    return backup(parsed);
  } catch (const Refused& e) {
    return report("backup", e, 2);
  } catch (const std::exception& e) {
    return report("backup", e, 1);
  }
}

int restore_main(const std::vector<std::string>& args) {
  const std::string usage = "usage: parlour restore FILE --db PATH [--force]\n";
  try {
    const Arguments parsed = parse(args, true, usage);
    if (parsed.db.empty()) throw Refused("restore onto which store? --db PATH is needed\n" + usage);
    return restore(parsed);
  } catch (const Refused& e) {
    return report("restore", e, 2);
  } catch (const std::exception& e) {
    return report("restore", e, 1);
  }
}

std::optional<int> run_store_tool(const std::vector<std::string>& args) {
  if (args.empty()) return std::nullopt;
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (args[0] == "backup") return backup_main(rest);
  if (args[0] == "restore") return restore_main(rest);
  if (args[0] == "check") return check_main(rest);
  return std::nullopt;
}

}  // namespace parlour::server
