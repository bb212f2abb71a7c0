// Small helpers every section uses: a stopwatch, percentiles, and one way of
// printing a figure, so the output reads as one table.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

namespace parlour::bench {

using Clock = std::chrono::steady_clock;

class Stopwatch {
 public:
  Stopwatch() : start_(Clock::now()) {}
  double seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

 private:
  Clock::time_point start_;
};

// "1.42": a number with `decimals` digits after the point.
inline std::string fixed(double value, int decimals = 2) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

// Nearest-rank percentile of `values`, which it sorts; 0 when empty.
inline double percentile(std::vector<double>& values, double fraction) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const auto rank = static_cast<std::size_t>(fraction * static_cast<double>(values.size() - 1) + 0.5);
  return values[std::min(rank, values.size() - 1)];
}

// "rules/red_dog apply: 1234567 actions/s (details)"
inline void print_rate(const std::string& name, double count, double seconds, const std::string& unit,
                       const std::string& details) {
  const double rate = seconds > 0 ? count / seconds : 0;
  std::printf("%-44s %12.0f %-10s (%s)\n", (name + ":").c_str(), rate, unit.c_str(), details.c_str());
  std::fflush(stdout);
}

// "p50 1.20 ms, p99 9.80 ms, max 24.10 ms, mean 2.00 ms (1234 acts)"
inline std::string describe_ms(std::vector<double> values, const std::string& what) {
  const double mean = values.empty() ? 0 : std::accumulate(values.begin(), values.end(), 0.0) / values.size();
  char text[160];
  std::snprintf(text, sizeof text, "p50 %.2f ms, p99 %.2f ms, max %.2f ms, mean %.2f ms (%zu %s)",
                percentile(values, 0.50), percentile(values, 0.99), percentile(values, 1.0), mean, values.size(),
                what.c_str());
  return text;
}

inline void print_line(const std::string& name, const std::string& text) {
  std::printf("%-44s %s\n", (name + ":").c_str(), text.c_str());
  std::fflush(stdout);
}

}  // namespace parlour::bench
