// The writer's group commit by the I/O loop's bursts (Writer::gather_steps_with):
// the "loop" here is a list of flushes the test runs by hand.
#include <doctest/doctest.h>

#include <filesystem>
#include <functional>
#include <future>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include "server/persistence/writer.h"

using namespace parlour;
using parlour::server::Writer;

namespace {

// A SQLite file with one table to write to, removed at the end.
class WriterFile {
 public:
  explicit WriterFile(const std::string& name)
      : path_(std::filesystem::temp_directory_path() / ("parlour-writer-" + name + "-" + std::to_string(::getpid()) + ".db")) {
    remove();
    storage::TableRecord table;
    table.id = "t1";
    table.game = "red_dog";
    table.options_json = "{}";
    table.host = "ann";
    table.status = "waiting";
    table.seats = {storage::Seat{0, "ann", false, 0}};
    storage::open_store(path_.string())->create_table(table);
  }
  ~WriterFile() { remove(); }
  std::string path() const { return path_.string(); }
  std::vector<std::int64_t> seqs() const {
    std::vector<std::int64_t> found;
    for (const auto& event : storage::open_store(path_.string())->events_after("t1", 0)) found.push_back(event.seq);
    return found;
  }

 private:
  void remove() {
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path_.string() + suffix);
  }
  std::filesystem::path path_;
};

storage::TableWrite step(std::int64_t seq) {
  storage::TableWrite write;
  write.table = "t1";
  write.event = storage::Event{seq, R"({"seq":)" + std::to_string(seq) + "}"};
  return write;
}

// What the writer asked the loop to run later, run when the test says.
struct HandLoop {
  std::mutex mutex;
  std::vector<std::function<void()>> queued;
  Writer::Later later() {
    return [this](std::function<void()> flush) {
      std::lock_guard lock(mutex);
      queued.push_back(std::move(flush));
    };
  }
  std::size_t waiting() {
    std::lock_guard lock(mutex);
    return queued.size();
  }
  void run() {
    std::vector<std::function<void()>> now;
    {
      std::lock_guard lock(mutex);
      now.swap(queued);
    }
    for (auto& flush : now) flush();
  }
};

}  // namespace

TEST_CASE("a burst's steps wait for its one flush and commit in one transaction, on the loop's thread, in order") {
  WriterFile file("burst");
  HandLoop loop;
  Writer writer(file.path());
  writer.gather_steps_with(loop.later());
  std::vector<std::int64_t> answered;
  std::vector<std::thread::id> answered_on;
  for (std::int64_t seq = 1; seq <= 3; ++seq)
    writer.commit(step(seq), [&, seq](const storage::CommitOutcome& outcome) {
      CHECK(outcome.committed());
      answered.push_back(seq);
      answered_on.push_back(std::this_thread::get_id());
    });
  // One flush for the three, and nothing written before it runs.
  CHECK(loop.waiting() == 1);
  CHECK(answered.empty());
  CHECK(writer.transactions() == 0);
  loop.run();
  CHECK(answered == std::vector<std::int64_t>{1, 2, 3});
  CHECK(answered_on == std::vector<std::thread::id>(3, std::this_thread::get_id()));
  CHECK(writer.transactions() == 1);
  CHECK(file.seqs() == std::vector<std::int64_t>{1, 2, 3});
  // The next burst asks for a flush of its own.
  writer.commit(step(4), [&](const storage::CommitOutcome& outcome) { CHECK(outcome.committed()); });
  CHECK(loop.waiting() == 1);
  loop.run();
  CHECK(writer.transactions() == 2);
  writer.stop();
}

TEST_CASE("another write queued between two steps keeps its place, and runs without waiting for a flush") {
  WriterFile file("order");
  HandLoop loop;
  Writer writer(file.path());
  writer.gather_steps_with(loop.later());
  std::mutex mutex;
  std::vector<std::string> order;
  const auto note = [&](const std::string& what) {
    std::lock_guard lock(mutex);
    order.push_back(what);
  };
  std::vector<std::int64_t> seen_by_job;
  writer.commit(step(1), [&](const storage::CommitOutcome&) { note("step 1"); });
  std::promise<void> job_done;
  writer.run([&](storage::Store& db) {
    for (const auto& event : db.events_after("t1", 0)) seen_by_job.push_back(event.seq);
  }, [&](std::exception_ptr error) {
    CHECK(!error);
    note("job");
    job_done.set_value();
  });
  // The job takes the writer thread at once, and the step queued before it goes first.
  job_done.get_future().wait();
  CHECK(seen_by_job == std::vector<std::int64_t>{1});
  writer.commit(step(2), [&](const storage::CommitOutcome&) { note("step 2"); });
  loop.run();  // the first burst's flush, late: it takes step 2
  loop.run();
  writer.stop();
  CHECK(order == std::vector<std::string>{"step 1", "job", "step 2"});
  CHECK(file.seqs() == std::vector<std::int64_t>{1, 2});
}

TEST_CASE("a flush that waits for the commit before it stays queued: steps arriving meanwhile join it, no second flush") {
  WriterFile file("waiting");
  HandLoop loop;
  Writer writer(file.path());
  writer.gather_steps_with(loop.later());
  // A write on the writer thread holds the store until the gate opens.
  std::promise<void> started;
  std::promise<void> gate;
  auto opened = gate.get_future().share();
  writer.run([&](storage::Store&) {
    started.set_value();
    opened.wait();
  }, [](std::exception_ptr) {});
  started.get_future().wait();
  int answered = 0;
  writer.commit(step(1), [&](const storage::CommitOutcome& outcome) { answered += outcome.committed(); });
  REQUIRE(loop.waiting() == 1);
  std::thread io([&] { loop.run(); });  // the flush, waiting for the store
  while (loop.waiting() != 0) std::this_thread::yield();
  writer.commit(step(2), [&](const storage::CommitOutcome& outcome) { answered += outcome.committed(); });
  CHECK(loop.waiting() == 0);  // the waiting flush takes it
  gate.set_value();
  io.join();
  CHECK(answered == 2);
  CHECK(writer.transactions() == 2);  // the write on the writer thread, then one for both steps
  writer.stop();
  CHECK(file.seqs() == std::vector<std::int64_t>{1, 2});
}

TEST_CASE("a completion that throws is logged: the flush goes on with the rest of its batch and throws nothing") {
  WriterFile file("throws");
  HandLoop loop;
  Writer writer(file.path());
  writer.gather_steps_with(loop.later());
  bool second_answered = false;
  writer.commit(step(1), [](const storage::CommitOutcome&) { throw std::runtime_error("a broken completion"); });
  writer.commit(step(2), [&](const storage::CommitOutcome& outcome) { second_answered = outcome.committed(); });
  CHECK_NOTHROW(loop.run());
  CHECK(second_answered);
  writer.stop();
  CHECK(file.seqs() == std::vector<std::int64_t>{1, 2});
}

TEST_CASE("steps whose flush never ran (the loop stopped first) are written when the writer stops") {
  WriterFile file("stop");
  HandLoop loop;
  bool answered = false;
  {
    Writer writer(file.path());
    writer.gather_steps_with(loop.later());
    writer.commit(step(1), [&](const storage::CommitOutcome& outcome) { answered = outcome.committed(); });
    writer.stop();
    CHECK(answered);
    loop.run();  // the flush after the stop writes nothing twice
  }
  CHECK(file.seqs() == std::vector<std::int64_t>{1});
}

TEST_CASE("without a loop to gather on, each step wakes the writer thread") {
  WriterFile file("alone");
  Writer writer(file.path());
  std::promise<bool> committed;
  writer.commit(step(1), [&](const storage::CommitOutcome& outcome) { committed.set_value(outcome.committed()); });
  CHECK(committed.get_future().get());
  writer.stop();
  CHECK(file.seqs() == std::vector<std::int64_t>{1});
}
