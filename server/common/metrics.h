// The server's measurements for /metrics (docs/metrics.md): histograms and
// counters recorded from any thread without a lock (relaxed atomics: a scrape
// may see one sample's bucket before its sum, never a torn number), and the
// Prometheus text exposition format 0.0.4 they are written in.
//
// One registry for the process, as a Prometheus client library keeps a default
// one: the writer, the tables and the network front record into it without
// being handed anything, and tests built without a network record harmlessly.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace parlour::server::metrics {

// Writes families in the text format: every family's # HELP and # TYPE line
// before its samples, label values escaped as the format asks.
class Exposition {
 public:
  // `type`: counter, gauge or histogram.
  void family(std::string_view name, std::string_view type, std::string_view help);
  // `labels` as pairs; values are escaped here.
  void sample(std::string_view name, const std::vector<std::pair<std::string, std::string>>& labels, double value);
  void sample(std::string_view name, double value) { sample(name, {}, value); }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

// Counts of observations at or below fixed bounds. Values are recorded in
// whole units (nanoseconds, steps, bytes) and shown in the family's base unit
// (`unit_scale` per whole unit: 1e-9 shows nanoseconds as seconds).
class Histogram {
 public:
  // `bounds`: the buckets' upper bounds in the base unit, ascending.
  Histogram(std::vector<double> bounds, double unit_scale);
  void observe(std::uint64_t units);
  // The family (# HELP, # TYPE, cumulative _bucket lines with le="+Inf", _sum, _count).
  void write(Exposition& out, std::string_view name, std::string_view help) const;
  // Observations so far (the +Inf bucket).
  std::uint64_t count() const;

 private:
  std::vector<double> bounds_;               // base unit, as shown in le
  std::vector<std::uint64_t> unit_bounds_;   // the same in whole units
  double unit_scale_;
  std::unique_ptr<std::atomic<std::uint64_t>[]> buckets_;  // one per bound, then +Inf; not cumulative
  std::atomic<std::uint64_t> sum_units_{0};
};

// A counter per label value, for a small set of values known as they come
// (the games): `of(value)` takes a lock once, to find or make the value's
// counter; the caller keeps the reference and adds to it without one.
class LabelledCounters {
 public:
  std::atomic<std::uint64_t>& of(const std::string& value);
  std::vector<std::pair<std::string, std::uint64_t>> values() const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::unique_ptr<std::atomic<std::uint64_t>>> counters_;
};

// The error codes of docs/protocol.md, counted by a fixed table (no lock, no
// allocation); a code not in it counts as "other".
class ErrorCodeCounters {
 public:
  void count(std::string_view code);
  std::vector<std::pair<std::string, std::uint64_t>> values() const;
  static const std::vector<std::string_view>& known_codes();

 private:
  static constexpr std::size_t slots = 32;
  std::array<std::atomic<std::uint64_t>, slots> counts_{};
};

struct Registry {
  Registry();
  // From a table request's arrival at its table to its `ok` being handed to
  // the connection, for acts whose step was committed.
  Histogram act_seconds;
  // The writer's transaction for a batch of table steps, from begin to durable.
  Histogram commit_seconds;
  // Table steps in one such transaction (group commit).
  Histogram commit_batch_steps;
  // Bytes of each state push frame sent to a connection.
  Histogram push_bytes;
  LabelledCounters actions_by_game;  // acts committed, by game id
  ErrorCodeCounters errors_by_code;  // error frames sent on WebSockets, by code
};

// The process's registry.
Registry& registry();

// Looks at a frame about to go to a WebSocket client: a state push's size goes
// to push_bytes, an error's code to errors_by_code. Reads only its first and
// last bytes (the server's JSON keeps its keys sorted: an error frame begins
// {"code":" and ends "type":"error"}, a push begins {"type":"state").
void note_frame_out(std::string_view frame);

// A duration in whole nanoseconds (what the latency histograms record).
template <class Duration>
std::uint64_t nanoseconds(Duration elapsed) {
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count();
  return ns < 0 ? 0 : static_cast<std::uint64_t>(ns);
}

}  // namespace parlour::server::metrics
