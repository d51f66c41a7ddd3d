// Static evaluation throughput with a weight file, encoding included, no Python in the loop:
//   bench_eval net.tnet [variant] [positions] [rounds] [seed]
// The positions are the distinct results of every legal play from seeded random-game (position,
// roll) pairs (games not over, bear-off races left out: the exact table values them), shuffled,
// then evaluated in calls of 21 (a search node's batch size, but of unrelated positions) and, for
// the best case a search sees, in calls of one roll's siblings. Prints the median of `rounds`
// timed rounds in millions of positions per second of CPU time, one core.
#include <algorithm>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "tavli/batch.h"
#include "tavli/game.h"
#include "tavli/nnet.h"
#include "tavli/rng.h"

namespace {

// CPU time of this process: on a shared machine, time spent waiting for a core is not counted.
double cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tavli;
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_eval net.tnet [variant] [positions] [rounds] [seed]\n");
    return 2;
  }
  const std::string variant = argc > 2 ? argv[2] : "backgammon";
  const long n = argc > 3 ? std::atol(argv[3]) : 4000;
  const int rounds = argc > 4 ? std::atoi(argv[4]) : 7;
  const unsigned long long seed = argc > 5 ? std::strtoull(argv[5], nullptr, 10) : 20261130;
  const Rules rules = make_rules(variant_from_name(variant));
  const NeuralEvaluator ev(std::make_shared<NeuralNet>(NeuralNet::load(argv[1])));
  std::vector<std::uint8_t> rows;
  std::vector<std::int64_t> dice;
  random_positions(rules, n, seed, rows, dice);

  std::vector<Position> distinct;
  std::vector<std::vector<Position>> sibling_groups;
  std::set<PositionKey> seen;
  MoveGenerator gen;
  MoveList list;
  for (long i = 0; i < n; ++i) {
    const Position pos = Position::from_row(rows.data() + kRowBytes * i, nullptr);
    if (game_outcome(pos, rules, kWhite)) continue;
    gen.generate(pos, rules, Dice{static_cast<int>(dice[2 * i]), static_cast<int>(dice[2 * i + 1])}, list);
    std::vector<Position> group;
    for (const Play& p : list) {
      Position child = p.result;
      child.flip();
      if (outcome_after_play(pos, child, rules, kWhite) || is_bearoff_race(child, rules)) continue;
      group.push_back(child);
      if (seen.insert(child.key()).second) distinct.push_back(child);
    }
    if (!group.empty()) sibling_groups.push_back(group);
  }
  Rng rng(seed);
  for (std::size_t i = distinct.size(); i > 1; --i) std::swap(distinct[i - 1], distinct[rng.below(static_cast<std::uint32_t>(i))]);

  std::vector<Probabilities> out(distinct.size());
  double checksum = 0;
  std::uint64_t bits = 0xcbf29ce484222325ull;  // FNV-1a of every output's bytes, last round: A/B builds must agree
  auto time_round = [&](auto fn) {
    std::vector<double> rates;
    for (int r = 0; r <= rounds; ++r) {
      const double t0 = cpu_seconds();
      const std::size_t done = fn();
      const double dt = cpu_seconds() - t0;
      if (r > 0) rates.push_back(done / dt / 1e6);  // round 0 warms up
    }
    return median(rates);
  };
  const double distinct_rate = time_round([&] {
    for (std::size_t b = 0; b < distinct.size(); b += 21) {
      const int m = static_cast<int>(std::min<std::size_t>(21, distinct.size() - b));
      ev.evaluate(distinct.data() + b, m, rules, out.data() + b);
    }
    return distinct.size();
  });
  // The last round's outputs, outside the timed rounds (the byte-serial hash cost about 30 ns a
  // position, 5% of an evaluation).
  for (const Probabilities& p : out) {
    checksum += p.equity();
    const unsigned char* b = reinterpret_cast<const unsigned char*>(&p);
    for (std::size_t k = 0; k < sizeof p; ++k) bits = (bits ^ b[k]) * 0x100000001b3ull;
  }
  std::size_t sibling_total = 0;
  for (const auto& g : sibling_groups) sibling_total += g.size();
  const double sibling_rate = time_round([&] {
    for (const auto& g : sibling_groups) ev.evaluate(g.data(), static_cast<int>(g.size()), rules, out.data());
    return sibling_total;
  });
  // What the Python API's evaluate_positions does around the same evaluation: each row decoded,
  // validated and checked for a finished game, then all of them evaluated in one call.
  std::vector<std::uint8_t> distinct_rows(kRowBytes * distinct.size());
  for (std::size_t i = 0; i < distinct.size(); ++i) distinct[i].to_row(distinct_rows.data() + kRowBytes * i, kWhite);
  std::vector<Position> decoded(distinct.size());
  const double rows_rate = time_round([&] {
    for (std::size_t i = 0; i < distinct.size(); ++i) {
      Player t;
      decoded[i] = Position::from_row(distinct_rows.data() + kRowBytes * i, &t);
      validate_position(decoded[i], rules);
      if (game_outcome(decoded[i], rules, t)) std::abort();
    }
    ev.evaluate(decoded.data(), static_cast<int>(decoded.size()), rules, out.data());
    return distinct.size();
  });
  std::printf("%s: %zu distinct positions, calls of 21: %.3f M/s; %zu siblings in %zu calls: %.3f M/s; "
              "rows decoded and validated, one call: %.3f M/s "
              "(median of %d rounds, CPU time; checksum %.6f, output bits %016llx)\n",
              variant.c_str(), distinct.size(), distinct_rate, sibling_total, sibling_groups.size(), sibling_rate,
              rows_rate, rounds, checksum, static_cast<unsigned long long>(bits));
  return 0;
}
