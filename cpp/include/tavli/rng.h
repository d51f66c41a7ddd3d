// A seeded random number generator of our own, identical on every platform.
//
// xoshiro256** (Blackman & Vigna) seeded through SplitMix64, and an exact mapping of its output to
// die faces by rejection sampling, so a seed gives the same dice everywhere (std::uniform_int_
// distribution is implementation-defined and would not).
#pragma once

#include <cstdint>
#include <utility>

namespace tavli {

class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

 private:
  std::uint64_t state_;
};

class Rng {
 public:
  explicit Rng(std::uint64_t seed = 0) { reseed(seed); }

  void reseed(std::uint64_t seed) {
    SplitMix64 sm(seed);
    for (auto& w : s_) w = sm.next();
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform integer in [0, n), n >= 1: rejection sampling on the top 32 bits, so no modulo bias.
  std::uint32_t below(std::uint32_t n) {
    const std::uint64_t span = 1ull << 32;
    const std::uint64_t limit = span - span % n;  // largest multiple of n not above 2^32
    for (;;) {
      const std::uint64_t x = next() >> 32;
      if (x < limit) return static_cast<std::uint32_t>(x % n);
    }
  }

  // One die face 1..6.
  int die() { return 1 + static_cast<int>(below(6)); }

  // A roll of two dice, in the order thrown.
  std::pair<int, int> roll() {
    const int a = die();
    return {a, die()};
  }

  // Seed of the i-th independent stream derived from a master seed (for per-game seeds in bulk
  // simulation: results do not depend on how games are spread over threads).
  static std::uint64_t derive(std::uint64_t master, std::uint64_t index) {
    SplitMix64 sm(master ^ (0xD1B54A32D192ED03ull * (index + 1)));
    sm.next();
    return sm.next();
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
};

}  // namespace tavli
