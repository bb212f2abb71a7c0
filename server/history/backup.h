// `parlour backup`, `parlour restore` and the dispatch of the store's tools
// (docs/operations.md). A SQLite store only: a PostgreSQL one is backed up and
// restored with pg_dump and pg_restore, which these commands say.
//
//   parlour backup FILE [--db PATH]      a consistent copy of a live store, through
//                                        SQLite's online backup API
//   parlour restore FILE --db PATH [--force]
//                                        FILE (a Parlour store) becomes the store at PATH
//   parlour check [--db PATH|URI]        server/history/store_check.h
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace parlour::server {

// Exit status: 0 done, 1 it failed on the way (nothing left behind), 2 refused
// (the command, FILE or PATH is wrong; nothing changed).
int backup_main(const std::vector<std::string>& args);
int restore_main(const std::vector<std::string>& args);

// The process at work on the SQLite file `path` (a running server, or any other
// SQLite connection in another process), or nullopt when none holds it. Read
// from the locks SQLite's Unix VFS holds on the file and its -shm.
std::optional<long> process_holding(const std::string& path);

// argv without the program's name: the exit status of `backup`, `restore` or
// `check` when args[0] names one, nullopt otherwise (the server runs).
std::optional<int> run_store_tool(const std::vector<std::string>& args);

}  // namespace parlour::server
