// A SQLite VFS that hands a commit's WAL frames to the kernel in one write.
//
// SQLite writes each frame of a commit as two pwrite calls (its 24-byte header,
// then the page): about 23 system calls a table action in the server bench,
// and their fixed cost (the call, the file's lock, the filesystem's bookkeeping)
// was a sixth of the server's CPU. This VFS wraps the default one and, for WAL
// files only, gathers consecutive writes in memory; they reach the file, in one
// write, before anything could read them: before the commit is published to
// readers (xShmBarrier, which SQLite calls between writing a commit's frames
// and updating the WAL index), and before any read, sync, truncate, size query,
// lock or close of that WAL.
//
// A buffered write is already paid for on disk: the WAL grows in chunks that
// are allocated when the write is accepted (SQLITE_FCNTL_SIZE_HINT), so a full
// disk fails the write that SQLite can still roll back, not the later flush
// that it cannot hear of. A flush that still fails (an I/O error after the
// space was allocated) cannot be reported through xShmBarrier; the process then
// stops rather than publish frames that are not in the file (nothing of that
// commit was acknowledged, and recovery drops its partial frames).
#pragma once

namespace parlour::storage {

// The VFS's name for sqlite3_open_v2 (SQLiteCpp's Database takes it as its
// last argument); registered on the first call, not as the default.
const char* wal_coalescing_vfs();

}  // namespace parlour::storage
