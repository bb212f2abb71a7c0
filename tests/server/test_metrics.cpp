// The measurements behind /metrics (server/common/metrics.h) in process: a
// histogram's bucket bounds are inclusive (le), its lines cumulative; label
// values are escaped; a frame is told apart by its first and last bytes.
#include <utility>

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <boost/asio/io_context.hpp>
#include <filesystem>
#include <unistd.h>

#include "protocol/messages.h"
#include "server/common/metrics.h"
#include "server/net/metrics.h"
#include "storage/store.h"

namespace metrics = parlour::server::metrics;

TEST_CASE("a histogram counts a value at a bound in that bound's bucket, and writes cumulative lines") {
  metrics::Histogram steps({1, 2, 4}, 1);
  for (std::uint64_t value : {1, 2, 3, 4, 5, 100}) steps.observe(value);
  metrics::Exposition out;
  steps.write(out, "x_steps", "Steps.");
  CHECK(out.text() ==
        "# HELP x_steps Steps.\n# TYPE x_steps histogram\n"
        "x_steps_bucket{le=\"1\"} 1\nx_steps_bucket{le=\"2\"} 2\nx_steps_bucket{le=\"4\"} 4\n"
        "x_steps_bucket{le=\"+Inf\"} 6\nx_steps_sum 115\nx_steps_count 6\n");
  CHECK(steps.count() == 6);

  metrics::Histogram seconds({0.001, 0.5}, 1e-9);
  seconds.observe(1'000'000);    // 1 ms: at the first bound
  seconds.observe(250'000'000);  // 0.25 s
  metrics::Exposition timed;
  seconds.write(timed, "x_seconds", "Time.");
  CHECK(timed.text().find("x_seconds_bucket{le=\"0.001\"} 1\n") != std::string::npos);
  CHECK(timed.text().find("x_seconds_bucket{le=\"0.5\"} 2\n") != std::string::npos);
  CHECK(timed.text().find("x_seconds_sum 0.251\n") != std::string::npos);
}

TEST_CASE("label values and help text are escaped as the text format asks") {
  metrics::Exposition out;
  out.family("x_total", "counter", "a \\ b\nc");
  out.sample("x_total", {{"game", "a\"b\\c\nd"}}, 3);
  CHECK(out.text() == "# HELP x_total a \\\\ b\\nc\n# TYPE x_total counter\nx_total{game=\"a\\\"b\\\\c\\nd\"} 3\n");
}

TEST_CASE("frames: a state push's bytes and an error's code are counted, nothing else") {
  auto& registry = metrics::registry();
  const auto pushes = registry.push_bytes.count();
  auto errors = [&](const std::string& code) {
    for (const auto& [name, count] : registry.errors_by_code.values())
      if (name == code) return count;
    FAIL("no code " << code);
    return std::uint64_t{0};
  };
  const auto turn = errors("not_your_turn"), other = errors("other");
  namespace protocol = parlour::protocol;
  // As the server writes them: dump() of the message (keys sorted).
  metrics::note_frame_out(protocol::error_message(7, protocol::code::not_your_turn, "wait").dump());
  metrics::note_frame_out(protocol::error_message(std::nullopt, protocol::code::not_your_turn, "wait").dump());
  metrics::note_frame_out(protocol::error_message(std::nullopt, "made_up", "?").dump());
  metrics::note_frame_out(protocol::reply("device_link", 3, {{"code", "ABCD"}}).dump());  // a "code" that is no error
  metrics::note_frame_out(R"({"type":"state","table":"t1","seq":3})");
  metrics::note_frame_out(protocol::reply("ok", 1, {{"seq", 3}}).dump());
  CHECK(errors("not_your_turn") == turn + 2);
  CHECK(errors("other") == other + 1);
  CHECK(registry.push_bytes.count() == pushes + 1);
}

// /readyz is never refused for a client's limits, so a flood of them must not
// queue a read each on the reader that history and ledger reads share.
TEST_CASE("readiness: the checks that come while a probe runs take its answer, one read for all") {
  const auto db = std::filesystem::temp_directory_path() / ("parlour-readiness-" + std::to_string(::getpid()) + ".db");
  std::filesystem::remove(db);
  parlour::storage::open_store(db.string());  // migrated: ready
  {
    parlour::server::Reader reader(db.string());
    boost::asio::io_context io;
    auto readiness = std::make_shared<parlour::server::Readiness>(reader);
    int ready = 0;
    for (int i = 0; i < 50; ++i)
      readiness->check(io.get_executor(), [&](bool yes, const std::string& reason) {
        CHECK(reason == "ok");
        ready += yes;
      });
    io.run();  // the answer reaches the checks here, after all 50 asked
    CHECK(ready == 50);
    CHECK(readiness->probes() == 1);
    // A later check probes again: no answer is kept for later.
    io.restart();
    readiness->check(io.get_executor(), [&](bool yes, const std::string&) { ready += yes; });
    io.run();
    CHECK(ready == 51);
    CHECK(readiness->probes() == 2);
  }
  std::filesystem::remove(db);
}
