// Move-generation throughput with no Python in the loop:
//   bench_movegen [variant] [positions] [repeat] [seed]
// Generates a fixed seeded position set by random self-play, then times generating the legal plays
// of every (position, roll) pair `repeat` times and prints distinct results per second.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tavli/batch.h"

int main(int argc, char** argv) {
  using namespace tavli;
  const std::string variant = argc > 1 ? argv[1] : "fevga";
  const long n = argc > 2 ? std::atol(argv[2]) : 20000;
  const int repeat = argc > 3 ? std::atoi(argv[3]) : 20;
  const unsigned long long seed = argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 1;
  const Rules rules = make_rules(variant_from_name(variant));
  std::vector<std::uint8_t> rows;
  std::vector<std::int64_t> dice;
  random_positions(rules, n, seed, rows, dice);
  generate_all(rules, rows.data(), dice.data(), n, 1);  // warm up
  const auto t0 = std::chrono::steady_clock::now();
  const std::int64_t total = generate_all(rules, rows.data(), dice.data(), n, repeat);
  const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%s: %ld positions x %d: %lld results in %.3f s = %.2f M results/s, %.1f ns per call, %.2f plays/call\n",
              variant.c_str(), n, repeat, static_cast<long long>(total), dt, total / dt / 1e6, dt * 1e9 / (n * repeat),
              static_cast<double>(total) / (n * repeat));
  return 0;
}
