// A seeded random number generator that gives the same numbers on every compiler
// and standard library: the event log stores only a seed, so a deal must be a pure
// function of it. xoshiro256** seeded through splitmix64, unbiased bounded integers
// by rejection, and Fisher–Yates shuffling.
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace parlour::rules {

class Rng {
 public:
  explicit Rng(std::uint64_t seed);

  std::uint64_t next();
  // Uniform in [0, bound); throws std::invalid_argument when bound is 0.
  std::uint64_t below(std::uint64_t bound);
  // Uniform in [lo, hi]; throws std::invalid_argument when lo > hi.
  std::int64_t between(std::int64_t lo, std::int64_t hi);

  // The whole state, for snapshots (rules/snapshot.h): restored, the same numbers follow.
  std::array<std::uint64_t, 4> state() const { return state_; }
  static Rng from_state(const std::array<std::uint64_t, 4>& state);

  template <typename T>
  void shuffle(std::vector<T>& items) {
    for (std::size_t i = items.size(); i > 1; --i) {
      std::size_t j = static_cast<std::size_t>(below(i));
      std::swap(items[i - 1], items[j]);
    }
  }

 private:
  std::array<std::uint64_t, 4> state_{};
};

}  // namespace parlour::rules
