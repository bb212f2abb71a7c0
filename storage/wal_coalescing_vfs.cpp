#include "storage/wal_coalescing_vfs.h"

#include <sqlite3.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace parlour::storage {
namespace {

// The WAL grows by this much at a time, allocated when a write first needs it.
constexpr int kWalChunkBytes = 1 << 20;
// A commit's frames are flushed in one write up to this size; a bigger one in
// several. The unix VFS cannot write 128 KiB or more at once (it masks a
// write's length with 0x1ffff, and reports a disk full for what it dropped).
constexpr sqlite3_int64 kMostBuffered = 120 * 1024;

sqlite3_vfs* g_real = nullptr;  // the default VFS this one wraps
sqlite3_vfs g_vfs;

// Plain data: SQLite allocates it (szOsFile bytes) and never runs a constructor.
// The wrapped file lives right after it in the same allocation.
struct File {
  sqlite3_file base;
  sqlite3_file* real;
  bool wal;
  char* buffer;               // the writes not yet in the file, consecutive
  sqlite3_int64 buffered;     // bytes in `buffer`
  sqlite3_int64 capacity;     // bytes `buffer` can hold
  sqlite3_int64 buffer_at;    // the file offset of buffer[0]
  sqlite3_int64 allocated;    // the file is known to be allocated this far (0: ask again)
};

// The WAL whose frames this thread has buffered (a connection is used by one
// thread at a time, and a commit runs from its first frame to its WAL-index
// update on that thread).
thread_local File* t_buffered = nullptr;

File* as_file(sqlite3_file* file) { return reinterpret_cast<File*>(file); }
const sqlite3_io_methods* real_methods(File* f) { return f->real->pMethods; }

int flush(File* f) {
  if (f->buffered == 0) return SQLITE_OK;
  const int rc = real_methods(f)->xWrite(f->real, f->buffer, static_cast<int>(f->buffered), f->buffer_at);
  f->buffered = 0;
  f->allocated = 0;  // another connection may truncate the WAL once this one lets go of it
  if (t_buffered == f) t_buffered = nullptr;
  return rc;
}

int flush_this_thread() { return t_buffered ? flush(t_buffered) : SQLITE_OK; }

// Allocates the WAL up to `end` (rounded up to its chunk size), so that a
// buffered write cannot later find the disk full.
int allocate_to(File* f, sqlite3_int64 end) {
  if (end <= f->allocated) return SQLITE_OK;
  sqlite3_int64 size = (end + kWalChunkBytes - 1) / kWalChunkBytes * kWalChunkBytes;
  const int rc = real_methods(f)->xFileControl(f->real, SQLITE_FCNTL_SIZE_HINT, &size);
  if (rc == SQLITE_OK) f->allocated = size;
  return rc == SQLITE_NOTFOUND ? SQLITE_OK : rc;
}

bool make_room(File* f, sqlite3_int64 more) {
  if (f->buffered + more <= f->capacity) return true;
  sqlite3_int64 capacity = f->capacity == 0 ? 64 * 1024 : f->capacity;
  while (capacity < f->buffered + more) capacity *= 2;
  void* grown = sqlite3_realloc64(f->buffer, static_cast<sqlite3_uint64>(capacity));
  if (!grown) return false;
  f->buffer = static_cast<char*>(grown);
  f->capacity = capacity;
  return true;
}

int x_write(sqlite3_file* file, const void* data, int amount, sqlite3_int64 offset) {
  File* f = as_file(file);
  if (!f->wal) return real_methods(f)->xWrite(f->real, data, amount, offset);
  if (t_buffered && t_buffered != f) {
    if (const int rc = flush(t_buffered); rc != SQLITE_OK) return rc;
  }
  const bool follows = f->buffered > 0 && offset == f->buffer_at + f->buffered;
  if (f->buffered > 0 && (!follows || f->buffered + amount > kMostBuffered)) {
    if (const int rc = flush(f); rc != SQLITE_OK) return rc;
  }
  if (const int rc = allocate_to(f, offset + amount); rc != SQLITE_OK) return rc;
  if (!make_room(f, amount)) {
    if (const int rc = flush(f); rc != SQLITE_OK) return rc;
    return real_methods(f)->xWrite(f->real, data, amount, offset);
  }
  if (f->buffered == 0) f->buffer_at = offset;
  std::memcpy(f->buffer + f->buffered, data, static_cast<std::size_t>(amount));
  f->buffered += amount;
  t_buffered = f;
  return SQLITE_OK;
}

int x_close(sqlite3_file* file) {
  File* f = as_file(file);
  const int flushed = flush(f);
  sqlite3_free(f->buffer);
  f->buffer = nullptr;
  const int rc = real_methods(f)->xClose(f->real);
  return flushed != SQLITE_OK ? flushed : rc;
}

// A method of the wrapped file, called after this file's buffered writes are
// in it (`flush_first`): the calls below read or depend on what is in the file.
template <auto Method, bool flush_first, typename... Args>
int forwarded(sqlite3_file* file, Args... args) {
  File* f = as_file(file);
  if (flush_first) {
    if (const int rc = flush(f); rc != SQLITE_OK) return rc;
  }
  return (real_methods(f)->*Method)(f->real, args...);
}

template <auto Method, typename... Args>
auto flushed = forwarded<Method, true, Args...>;
template <auto Method, typename... Args>
auto as_is = forwarded<Method, false, Args...>;

int x_shm_lock(sqlite3_file* file, int offset, int n, int flags) {
  if (const int rc = flush_this_thread(); rc != SQLITE_OK) return rc;
  return real_methods(as_file(file))->xShmLock(as_file(file)->real, offset, n, flags);
}

// Called on the database file between a commit's frames and the WAL-index
// update that shows them to readers: the frames must be in the WAL by then.
void x_shm_barrier(sqlite3_file* file) {
  if (const int rc = flush_this_thread(); rc != SQLITE_OK) {
    std::fprintf(stderr, "parlour: could not write a commit's frames to the SQLite WAL (%s); stopping before "
                         "the commit is shown to readers\n", sqlite3_errstr(rc));
    std::abort();
  }
  real_methods(as_file(file))->xShmBarrier(as_file(file)->real);
}

// One method table a version of the wrapped file's: a version-1 file has no
// shared memory, and SQLite must not be told otherwise.
sqlite3_io_methods methods_of_version(int version) {
  sqlite3_io_methods m{};
  m.iVersion = version;
  m.xClose = x_close;
  m.xRead = flushed<&sqlite3_io_methods::xRead, void*, int, sqlite3_int64>;
  m.xWrite = x_write;
  m.xTruncate = flushed<&sqlite3_io_methods::xTruncate, sqlite3_int64>;
  m.xSync = flushed<&sqlite3_io_methods::xSync, int>;
  m.xFileSize = flushed<&sqlite3_io_methods::xFileSize, sqlite3_int64*>;
  m.xLock = flushed<&sqlite3_io_methods::xLock, int>;
  m.xUnlock = flushed<&sqlite3_io_methods::xUnlock, int>;
  m.xCheckReservedLock = as_is<&sqlite3_io_methods::xCheckReservedLock, int*>;
  m.xFileControl = flushed<&sqlite3_io_methods::xFileControl, int, void*>;
  m.xSectorSize = as_is<&sqlite3_io_methods::xSectorSize>;
  m.xDeviceCharacteristics = as_is<&sqlite3_io_methods::xDeviceCharacteristics>;
  if (version >= 2) {
    m.xShmMap = as_is<&sqlite3_io_methods::xShmMap, int, int, int, void volatile**>;
    m.xShmLock = x_shm_lock;
    m.xShmBarrier = x_shm_barrier;
    m.xShmUnmap = as_is<&sqlite3_io_methods::xShmUnmap, int>;
  }
  if (version >= 3) {
    m.xFetch = as_is<&sqlite3_io_methods::xFetch, sqlite3_int64, int, void**>;
    m.xUnfetch = as_is<&sqlite3_io_methods::xUnfetch, sqlite3_int64, void*>;
  }
  return m;
}

const sqlite3_io_methods g_methods[3] = {methods_of_version(1), methods_of_version(2), methods_of_version(3)};

int x_open(sqlite3_vfs*, const char* name, sqlite3_file* file, int flags, int* out_flags) {
  File* f = as_file(file);
  std::memset(f, 0, sizeof(File));
  f->real = reinterpret_cast<sqlite3_file*>(f + 1);
  const int rc = g_real->xOpen(g_real, name, f->real, flags, out_flags);
  if (!f->real->pMethods) {
    file->pMethods = nullptr;
    return rc;
  }
  const int version = f->real->pMethods->iVersion;
  file->pMethods = &g_methods[version < 1 ? 0 : version > 3 ? 2 : version - 1];
  f->wal = (flags & SQLITE_OPEN_WAL) != 0;
  if (rc == SQLITE_OK && f->wal) {
    int chunk = kWalChunkBytes;
    f->real->pMethods->xFileControl(f->real, SQLITE_FCNTL_CHUNK_SIZE, &chunk);
  }
  return rc;
}

}  // namespace

const char* wal_coalescing_vfs() {
  static std::once_flag registered;
  std::call_once(registered, [] {
    g_real = sqlite3_vfs_find(nullptr);
    g_vfs = *g_real;  // keeps the default's pAppData and its other methods
    g_vfs.zName = "parlour-wal-coalescing";
    g_vfs.szOsFile = static_cast<int>(sizeof(File)) + g_real->szOsFile;
    g_vfs.pNext = nullptr;
    g_vfs.xOpen = x_open;
    sqlite3_vfs_register(&g_vfs, 0);
  });
  return g_vfs.zName;
}

}  // namespace parlour::storage
