#include "storage/step_log.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <system_error>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

namespace parlour::storage {

// ---------------------------------------------------------------------------
// The encoding: integers as 8 little-endian bytes, counts and lengths as 4,
// a string as its length and bytes, an optional as a 0/1 byte and its value.

namespace {

constexpr std::uint8_t kEncodingVersion = 1;

// Little-endian, in the encoding and in the records' headers alike.
template <typename Unsigned>
void put_fixed(char* at, Unsigned value) {
  for (std::size_t i = 0; i < sizeof value; ++i) at[i] = static_cast<char>((value >> (8 * i)) & 0xFF);
}

template <typename Unsigned>
Unsigned get_fixed(const char* at) {
  Unsigned value = 0;
  for (std::size_t i = 0; i < sizeof(Unsigned); ++i)
    value |= static_cast<Unsigned>(static_cast<unsigned char>(at[i])) << (8 * i);
  return value;
}


class Encoder {
 public:
  explicit Encoder(std::string& out) : out_(out) {}

  void byte(std::uint8_t value) { out_.push_back(static_cast<char>(value)); }
  void count(std::size_t value) {
    if (value > UINT32_MAX) throw StorageError("a step is too large to log: a count of " + std::to_string(value));
    fixed(static_cast<std::uint32_t>(value));
  }
  void integer(std::int64_t value) { fixed(static_cast<std::uint64_t>(value)); }
  void text(const std::string& value) {
    count(value.size());
    out_.append(value);
  }
  template <typename T, typename Put>
  void optional(const std::optional<T>& value, const Put& put) {
    byte(value ? 1 : 0);
    if (value) put(*value);
  }
  void optional_text(const std::optional<std::string>& value) {
    optional(value, [&](const std::string& v) { text(v); });
  }
  void optional_integer(const std::optional<std::int64_t>& value) {
    optional(value, [&](std::int64_t v) { integer(v); });
  }

 private:
  template <typename Unsigned>
  void fixed(Unsigned value) {
    char bytes[sizeof value];
    put_fixed(bytes, value);
    out_.append(bytes, sizeof value);
  }
  std::string& out_;
};

class Decoder {
 public:
  explicit Decoder(std::string_view in) : in_(in) {}

  std::uint8_t byte(const char* what) { return static_cast<std::uint8_t>(take(1, what)[0]); }
  bool flag(const char* what) {
    const std::uint8_t value = byte(what);
    if (value > 1) fail(std::string("a 0 or 1 for ") + what + ", found " + std::to_string(value));
    return value == 1;
  }
  std::size_t count(const char* what) { return static_cast<std::size_t>(fixed<std::uint32_t>(what)); }
  std::int64_t integer(const char* what) { return static_cast<std::int64_t>(fixed<std::uint64_t>(what)); }
  std::string text(const char* what) {
    const std::size_t length = count(what);
    return std::string(take(length, what));
  }
  template <typename T, typename Get>
  std::optional<T> optional(const char* what, const Get& get) {
    if (!flag(what)) return std::nullopt;
    return get();
  }
  std::optional<std::string> optional_text(const char* what) {
    return optional<std::string>(what, [&] { return text(what); });
  }
  std::optional<std::int64_t> optional_integer(const char* what) {
    return optional<std::int64_t>(what, [&] { return integer(what); });
  }
  void expect_end() {
    if (at_ != in_.size())
      fail(std::to_string(in_.size() - at_) + " bytes after the last write, expected none");
  }

  [[noreturn]] void fail(const std::string& why) const {
    throw StorageError("a logged batch is malformed at byte " + std::to_string(at_) + ": " + why);
  }

 private:
  std::string_view take(std::size_t length, const char* what) {
    if (in_.size() - at_ < length)
      fail(std::to_string(length) + " bytes for " + what + ", found " + std::to_string(in_.size() - at_));
    const std::string_view taken = in_.substr(at_, length);
    at_ += length;
    return taken;
  }
  template <typename Unsigned>
  Unsigned fixed(const char* what) {
    return get_fixed<Unsigned>(take(sizeof(Unsigned), what).data());
  }
  std::string_view in_;
  std::size_t at_ = 0;
};

void encode_write(Encoder& out, const TableWrite& write) {
  out.text(write.table);
  out.optional(write.fence, [&](const Fence& fence) {
    out.text(fence.node);
    out.integer(fence.generation);
  });
  out.optional(write.event, [&](const Event& event) {
    out.integer(event.seq);
    out.text(event.json);
  });
  out.count(write.postings.size());
  for (const Posting& posting : write.postings) {
    out.text(posting.from);
    out.text(posting.to);
    out.integer(posting.amount);
    out.text(posting.memo);
    out.text(posting.table);
    out.text(posting.game);
    out.optional_integer(posting.seq);
    out.optional_integer(posting.deal);
  }
  out.optional_text(write.status);
  out.optional(write.seats, [&](const std::vector<Seat>& seats) {
    out.count(seats.size());
    for (const Seat& seat : seats) {
      out.integer(seat.seat);
      out.text(seat.player);
      out.byte(seat.bot ? 1 : 0);
      out.integer(seat.bot_level);
    }
  });
  out.optional_text(write.result_json);
  out.optional_text(write.failure);
  out.optional(write.deal_start, [&](const DealStart& start) {
    out.integer(start.deal);
    out.integer(start.seq);
    out.text(start.entry_json);
    out.text(start.state_json);
    out.byte(start.state_kept ? 1 : 0);
  });
}

int small_integer(Decoder& in, const char* what) {
  const std::int64_t value = in.integer(what);
  if (value < INT32_MIN || value > INT32_MAX) in.fail(std::string("a small integer for ") + what);
  return static_cast<int>(value);
}

TableWrite decode_write(Decoder& in) {
  TableWrite write;
  write.table = in.text("the table");
  write.fence = in.optional<Fence>("the fence", [&] {
    Fence fence;
    fence.node = in.text("the fence's node");
    fence.generation = in.integer("the fence's generation");
    return fence;
  });
  write.event = in.optional<Event>("the event", [&] {
    Event event;
    event.seq = in.integer("the event's seq");
    event.json = in.text("the event's json");
    return event;
  });
  const std::size_t postings = in.count("the number of postings");
  for (std::size_t i = 0; i < postings; ++i) {
    Posting posting;
    posting.from = in.text("a posting's payer");
    posting.to = in.text("a posting's payee");
    posting.amount = in.integer("a posting's amount");
    posting.memo = in.text("a posting's memo");
    posting.table = in.text("a posting's table");
    posting.game = in.text("a posting's game");
    posting.seq = in.optional_integer("a posting's seq");
    posting.deal = in.optional_integer("a posting's deal");
    write.postings.push_back(std::move(posting));
  }
  write.status = in.optional_text("the status");
  write.seats = in.optional<std::vector<Seat>>("the seats", [&] {
    std::vector<Seat> seats(in.count("the number of seats"));
    for (Seat& seat : seats) {
      seat.seat = small_integer(in, "a seat's number");
      seat.player = in.text("a seat's player");
      seat.bot = in.flag("a seat's bot flag");
      seat.bot_level = small_integer(in, "a seat's bot level");
    }
    return seats;
  });
  write.result_json = in.optional_text("the result");
  write.failure = in.optional_text("the failure");
  write.deal_start = in.optional<DealStart>("the deal start", [&] {
    DealStart start;
    start.deal = small_integer(in, "the deal start's deal");
    start.seq = in.integer("the deal start's seq");
    start.entry_json = in.text("the deal start's entry");
    start.state_json = in.text("the deal start's state");
    start.state_kept = in.flag("the deal start's kept flag");
    return start;
  });
  return write;
}

}  // namespace

std::string encode_batch(std::int64_t lsn, const std::string& time, const std::vector<TableWrite>& writes) {
  std::string bytes;
  std::size_t guess = 64;
  for (const TableWrite& write : writes)
    guess += 256 + (write.event ? write.event->json.size() : 0) +
             (write.deal_start ? write.deal_start->state_json.size() : 0) + 160 * write.postings.size();
  bytes.reserve(guess);
  Encoder out(bytes);
  out.byte(kEncodingVersion);
  out.integer(lsn);
  out.text(time);
  out.count(writes.size());
  for (const TableWrite& write : writes) encode_write(out, write);
  return bytes;
}

LoggedBatch decode_batch(std::string_view bytes) {
  Decoder in(bytes);
  const std::uint8_t version = in.byte("the encoding's version");
  if (version != kEncodingVersion)
    in.fail("encoding version " + std::to_string(kEncodingVersion) + " expected, found " + std::to_string(version));
  LoggedBatch batch;
  batch.lsn = in.integer("the lsn");
  batch.time = in.text("the time");
  const std::size_t writes = in.count("the number of writes");
  for (std::size_t i = 0; i < writes; ++i) batch.writes.push_back(decode_write(in));
  in.expect_end();
  return batch;
}

// ---------------------------------------------------------------------------
// The files

namespace {

constexpr std::size_t kHeaderBytes = 4 + 8 + 8;
// A record's payload is a batch of steps: far below this. A length above it is damage.
constexpr std::uint32_t kMostPayloadBytes = 1u << 30;

// Not a cryptographic check: it finds a record a crash tore or a power loss
// filled with zeros, eight bytes at a step.
std::uint64_t check_of(std::int64_t lsn, std::string_view payload) {
  std::uint64_t check = 0x9E3779B97F4A7C15ull ^ (static_cast<std::uint64_t>(lsn) * 0xC2B2AE3D27D4EB4Full) ^ payload.size();
  auto mix = [&](std::uint64_t word) {
    check = (check ^ word) * 0xFF51AFD7ED558CCDull;
    check ^= check >> 32;
  };
  std::size_t at = 0;
  for (; at + 8 <= payload.size(); at += 8) {
    std::uint64_t word;
    std::memcpy(&word, payload.data() + at, 8);
    mix(word);
  }
  std::uint64_t tail = 0;
  std::memcpy(&tail, payload.data() + at, payload.size() - at);
  mix(tail ^ 0x5555);
  return check;
}

std::string file_name(const std::string& base, int which) { return base + "-" + std::to_string(which); }

[[noreturn]] void fail_with_errno(const std::string& what) {
  throw StorageError(what + ": " + std::generic_category().message(errno));
}

}  // namespace

struct StepLog::File {
  std::string path;
  int fd = -1;
  std::uint64_t size = 0;

  ~File() {
    if (fd >= 0) ::close(fd);
  }

  void cut_to(std::uint64_t length) {
    if (::ftruncate(fd, static_cast<off_t>(length)) != 0) fail_with_errno("cutting " + path + " back");
    size = length;
  }
};

StepLog::StepLog(std::string base) : base_(std::move(base)) {}
StepLog::~StepLog() = default;

bool StepLog::has_records(const std::string& database_path) {
  for (int which = 0; which < 2; ++which) {
    std::error_code error;
    const std::uintmax_t size = std::filesystem::file_size(file_name(database_path + "-steps", which), error);
    if (!error && size > 0) return true;
  }
  return false;
}

std::unique_ptr<StepLog> StepLog::open(const std::string& database_path) {
  std::unique_ptr<StepLog> log(new StepLog(database_path + "-steps"));
  for (int which = 0; which < 2; ++which) {
    auto& file = log->files_[which];
    file = std::make_unique<File>();
    file->path = file_name(log->base_, which);
    file->fd = ::open(file->path.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (file->fd < 0) fail_with_errno("opening the step log " + file->path);
    if (which == 0 && ::flock(file->fd, LOCK_EX | LOCK_NB) != 0) {
      if (errno == EWOULDBLOCK) return nullptr;
      fail_with_errno("locking the step log " + file->path);
    }
    struct stat status {};
    if (::fstat(file->fd, &status) != 0) fail_with_errno("reading the size of " + file->path);
    file->size = static_cast<std::uint64_t>(status.st_size);
  }
  // Appends go on in the file holding the latest record (the first when both are empty).
  std::int64_t latest[2] = {0, 0};
  for (int which = 0; which < 2; ++which) {
    const std::vector<Record> found = log->read_file(which);
    if (!found.empty()) latest[which] = found.back().lsn;
  }
  log->current_ = latest[1] > latest[0] ? 1 : 0;
  return log;
}

std::vector<StepLog::Record> StepLog::read_file(int which) {
  File& file = *files_[which];
  std::vector<Record> found;
  std::string header(kHeaderBytes, '\0');
  std::uint64_t at = 0;
  auto read_at = [&](char* into, std::size_t length, std::uint64_t offset) {
    std::size_t done = 0;
    while (done < length) {
      const ssize_t got = ::pread(file.fd, into + done, length - done, static_cast<off_t>(offset + done));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) fail_with_errno("reading the step log " + file.path);
      if (got == 0) return false;
      done += static_cast<std::size_t>(got);
    }
    return true;
  };
  while (at + kHeaderBytes <= file.size) {
    if (!read_at(header.data(), kHeaderBytes, at)) break;
    const std::uint32_t length = get_fixed<std::uint32_t>(header.data());
    const auto lsn = static_cast<std::int64_t>(get_fixed<std::uint64_t>(header.data() + 4));
    const std::uint64_t check = get_fixed<std::uint64_t>(header.data() + 12);
    if (length > kMostPayloadBytes || at + kHeaderBytes + length > file.size) break;
    Record record{lsn, std::string(length, '\0')};
    if (!read_at(record.payload.data(), length, at + kHeaderBytes)) break;
    if (check_of(lsn, record.payload) != check) break;
    if (!found.empty() && lsn <= found.back().lsn) break;  // lsns only grow within a file
    found.push_back(std::move(record));
    at += kHeaderBytes + length;
  }
  // What follows the last whole record is a torn write: appends must not follow it.
  if (at < file.size) file.cut_to(at);
  return found;
}

std::vector<StepLog::Record> StepLog::records() {
  std::vector<Record> all = read_file(0);
  std::vector<Record> other = read_file(1);
  // Each file holds a run of lsns; the file appended to first holds the lower ones.
  if (!all.empty() && !other.empty() && other.front().lsn < all.front().lsn) all.swap(other);
  for (Record& record : other) all.push_back(std::move(record));
  return all;
}

void StepLog::append(std::int64_t lsn, std::string_view payload) {
  File& file = *files_[current_];
  if (payload.size() > kMostPayloadBytes)
    throw StorageError("a batch of steps of " + std::to_string(payload.size()) + " bytes is too large to log");
  char header[kHeaderBytes];
  put_fixed(header, static_cast<std::uint32_t>(payload.size()));
  put_fixed(header + 4, static_cast<std::uint64_t>(lsn));
  put_fixed(header + 12, check_of(lsn, payload));
  iovec parts[2] = {{header, kHeaderBytes}, {const_cast<char*>(payload.data()), payload.size()}};
  const std::size_t length = kHeaderBytes + payload.size();
  // O_APPEND: the whole record goes in one write, after whatever the file holds.
  ssize_t wrote;
  do {
    wrote = ::writev(file.fd, parts, 2);
  } while (wrote < 0 && errno == EINTR);
  if (wrote == static_cast<ssize_t>(length)) {
    file.size += length;
    return;
  }
  const std::string why = wrote < 0 ? std::generic_category().message(errno)
                                    : "only " + std::to_string(wrote) + " of " + std::to_string(length) +
                                          " bytes were written (is the disk full?)";
  // A part of a record would end the file for every reader: cut it off.
  try {
    file.cut_to(file.size);
  } catch (const StorageError&) {
  }
  throw StorageError("appending to the step log " + file.path + ": " + why);
}

bool StepLog::switch_files_past(std::uint64_t limit) {
  if (files_[current_]->size < limit || files_[1 - current_]->size != 0) return false;
  current_ = 1 - current_;
  return true;
}

void StepLog::empty_other_file() { files_[1 - current_]->cut_to(0); }

void StepLog::empty() {
  files_[0]->cut_to(0);
  files_[1]->cut_to(0);
}

bool StepLog::other_file_is_empty() const { return files_[1 - current_]->size == 0; }
std::string StepLog::describe() const { return files_[0]->path; }

// ---------------------------------------------------------------------------
// The filing point

std::shared_ptr<FilingPoint> FilingPoint::of(const std::string& database_path) {
  static std::mutex registry_mutex;
  static std::map<std::string, std::weak_ptr<FilingPoint>> registry;
  std::error_code error;
  std::string key = std::filesystem::weakly_canonical(database_path, error).string();
  if (error) key = database_path;
  std::lock_guard lock(registry_mutex);
  std::weak_ptr<FilingPoint>& slot = registry[key];
  std::shared_ptr<FilingPoint> point = slot.lock();
  if (!point) {
    point = std::make_shared<FilingPoint>();
    slot = point;
  }
  return point;
}

void FilingPoint::attach(std::weak_ptr<Filer> filer) {
  std::lock_guard lock(mutex_);
  filer_ = std::move(filer);
}

void FilingPoint::detach() {
  std::lock_guard lock(mutex_);
  filer_.reset();
}

void FilingPoint::catch_up() {
  std::shared_ptr<Filer> filer;
  {
    std::lock_guard lock(mutex_);
    filer = filer_.lock();
  }
  if (filer) filer->catch_up();
}

}  // namespace parlour::storage
