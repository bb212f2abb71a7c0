#include "server/common/metrics.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "protocol/messages.h"

namespace parlour::server::metrics {

namespace {

// A sample value as the format writes it: integers without a fraction, the
// rest in the shortest form that reads back the same, infinities as +Inf/-Inf.
std::string number(double value) {
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  if (std::isnan(value)) return "NaN";
  if (value == std::floor(value) && std::fabs(value) < 1e15) return fmt::format("{}", static_cast<std::int64_t>(value));
  return fmt::format("{}", value);
}

// Label values: backslash, double quote and line feed escaped (format 0.0.4).
std::string escaped(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

// HELP text: backslash and line feed escaped.
std::string escaped_help(std::string_view help) {
  std::string out;
  for (char c : help) {
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

}  // namespace

void Exposition::family(std::string_view name, std::string_view type, std::string_view help) {
  text_ += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, escaped_help(help), name, type);
}

void Exposition::sample(std::string_view name, const std::vector<std::pair<std::string, std::string>>& labels,
                        double value) {
  text_ += name;
  if (!labels.empty()) {
    text_ += '{';
    for (std::size_t i = 0; i < labels.size(); ++i) {
      if (i) text_ += ',';
      text_ += labels[i].first + "=\"" + escaped(labels[i].second) + "\"";
    }
    text_ += '}';
  }
  text_ += ' ' + number(value) + '\n';
}

Histogram::Histogram(std::vector<double> bounds, double unit_scale)
    : bounds_(std::move(bounds)),
      unit_scale_(unit_scale),
      buckets_(std::make_unique<std::atomic<std::uint64_t>[]>(bounds_.size() + 1)) {
  if (!std::is_sorted(bounds_.begin(), bounds_.end()) || unit_scale <= 0)
    throw std::invalid_argument("a histogram's bounds must ascend and its unit be positive");
  for (double bound : bounds_) unit_bounds_.push_back(static_cast<std::uint64_t>(std::llround(bound / unit_scale)));
  for (std::size_t i = 0; i <= bounds_.size(); ++i) buckets_[i].store(0, std::memory_order_relaxed);
}

void Histogram::observe(std::uint64_t units) {
  // A dozen bounds: a linear scan is as quick as a binary search and simpler.
  std::size_t bucket = 0;
  while (bucket < unit_bounds_.size() && units > unit_bounds_[bucket]) ++bucket;
  buckets_[bucket].fetch_add(1, std::memory_order_relaxed);
  sum_units_.fetch_add(units, std::memory_order_relaxed);
}

std::uint64_t Histogram::count() const {
  std::uint64_t total = 0;
  for (std::size_t i = 0; i <= bounds_.size(); ++i) total += buckets_[i].load(std::memory_order_relaxed);
  return total;
}

void Histogram::write(Exposition& out, std::string_view name, std::string_view help) const {
  out.family(name, "histogram", help);
  const std::string bucket = std::string(name) + "_bucket";
  // Cumulative, from one read of each bucket: _count is the +Inf bucket, so
  // the buckets never disagree with it.
  std::uint64_t running = 0;
  for (std::size_t i = 0; i <= bounds_.size(); ++i) {
    running += buckets_[i].load(std::memory_order_relaxed);
    const double le = i < bounds_.size() ? bounds_[i] : HUGE_VAL;
    out.sample(bucket, {{"le", number(le)}}, static_cast<double>(running));
  }
  out.sample(std::string(name) + "_sum", static_cast<double>(sum_units_.load(std::memory_order_relaxed)) * unit_scale_);
  out.sample(std::string(name) + "_count", static_cast<double>(running));
}

std::atomic<std::uint64_t>& LabelledCounters::of(const std::string& value) {
  std::lock_guard lock(mutex_);
  auto& counter = counters_[value];
  if (!counter) counter = std::make_unique<std::atomic<std::uint64_t>>(0);
  return *counter;
}

std::vector<std::pair<std::string, std::uint64_t>> LabelledCounters::values() const {
  std::lock_guard lock(mutex_);
  std::vector<std::pair<std::string, std::uint64_t>> out;
  for (const auto& [value, counter] : counters_) out.emplace_back(value, counter->load(std::memory_order_relaxed));
  return out;
}

const std::vector<std::string_view>& ErrorCodeCounters::known_codes() {
  namespace code = protocol::code;
  // Every code docs/protocol.md lists, then the catch-all.
  static const std::vector<std::string_view> codes = {
      code::bad_request,      code::unauthorized, code::forbidden,       code::not_found,
      code::name_taken,       code::table_full,   code::not_your_turn,   code::illegal_action,
      code::insufficient_chips, code::rate_limited, code::conflict,     code::internal,
      code::invite_required,  code::registration_closed, "other"};
  static_assert(slots >= 16);
  return codes;
}

void ErrorCodeCounters::count(std::string_view code) {
  const auto& codes = known_codes();
  std::size_t slot = codes.size() - 1;  // "other"
  for (std::size_t i = 0; i + 1 < codes.size(); ++i)
    if (codes[i] == code) {
      slot = i;
      break;
    }
  counts_[slot].fetch_add(1, std::memory_order_relaxed);
}

std::vector<std::pair<std::string, std::uint64_t>> ErrorCodeCounters::values() const {
  std::vector<std::pair<std::string, std::uint64_t>> out;
  const auto& codes = known_codes();
  for (std::size_t i = 0; i < codes.size(); ++i)
    out.emplace_back(std::string(codes[i]), counts_[i].load(std::memory_order_relaxed));
  return out;
}

Registry::Registry()
    : act_seconds({0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}, 1e-9),
      commit_seconds({0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5}, 1e-9),
      commit_batch_steps({1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}, 1),
      push_bytes({128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536}, 1) {}

Registry& registry() {
  static Registry the_registry;
  return the_registry;
}

void note_frame_out(std::string_view frame) {
  constexpr std::string_view push_head = R"({"type":"state")";
  constexpr std::string_view error_head = R"({"code":")";
  constexpr std::string_view error_tail = R"("type":"error"})";
  if (frame.substr(0, push_head.size()) == push_head) return registry().push_bytes.observe(frame.size());
  if (frame.size() < error_head.size() + error_tail.size() || frame.substr(0, error_head.size()) != error_head ||
      frame.substr(frame.size() - error_tail.size()) != error_tail)
    return;
  const auto code = frame.substr(error_head.size());
  registry().errors_by_code.count(code.substr(0, code.find('"')));
}

}  // namespace parlour::server::metrics
