// Search throughput with no Python in the loop:
//   bench_search [variant] [positions] [plies] [seed] [net.tnet or "heuristic"] [threads] [cache]
// Analyses `positions` seeded random-game (position, roll) pairs at `plies` (default filters; with
// "cache", the shared static-evaluation cache on) and prints the static evaluations (leaf nodes)
// per second and the time per analysis, wall and CPU (the CPU time of all threads: on a shared
// machine, CPU / wall with 2 threads says how much of two cores the run got).
#include <chrono>
#include <cstdio>
#include <ctime>
#include <cstdlib>
#include <memory>
#include <string>

#include "tavli/batch.h"
#include "tavli/nnet.h"
#include "tavli/search.h"

int main(int argc, char** argv) {
  using namespace tavli;
  const std::string variant = argc > 1 ? argv[1] : "backgammon";
  const long n = argc > 2 ? std::atol(argv[2]) : 200;
  const int plies = argc > 3 ? std::atoi(argv[3]) : 1;
  const unsigned long long seed = argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 1;
  const std::string net_path = argc > 5 ? argv[5] : "heuristic";
  const int threads = argc > 6 ? std::atoi(argv[6]) : 1;
  const Rules rules = make_rules(variant_from_name(variant));
  std::unique_ptr<NeuralEvaluator> net;
  if (net_path != "heuristic") net = std::make_unique<NeuralEvaluator>(std::make_shared<NeuralNet>(NeuralNet::load(net_path)));
  const Evaluator& ev = net ? static_cast<const Evaluator&>(*net) : heuristic_evaluator();
  std::vector<std::uint8_t> rows;
  std::vector<std::int64_t> dice;
  random_positions(rules, n, seed, rows, dice);
  SearchOptions opt;
  opt.plies = plies;
  opt.threads = threads;
  opt.use_cache = argc > 7 && std::string(argv[7]) == "cache";
  auto cpu_seconds = [] {
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
  };
  const double c0 = cpu_seconds();
  std::int64_t nodes = 0;
  long analysed = 0;
  double checksum = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (long i = 0; i < n; ++i) {
    const Position pos = Position::from_row(rows.data() + kRowBytes * i, nullptr);
    if (game_outcome(pos, rules, kWhite)) continue;
    const Analysis a = analyze(pos, rules, Dice{static_cast<int>(dice[2 * i]), static_cast<int>(dice[2 * i + 1])},
                               ev, opt);
    nodes += a.nodes;
    checksum += a.plays[0].probabilities.equity();
    ++analysed;
  }
  const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cpu = cpu_seconds() - c0;
  std::printf("%s %d-ply %d threads%s (%s): %ld analyses, %.3f ms each (CPU %.3f ms), %lld leaf evaluations, "
              "%.2f M/s, checksum %.6f\n",
              variant.c_str(), plies, threads, opt.use_cache ? " cache" : "", ev.name().c_str(), analysed,
              dt * 1e3 / analysed, cpu * 1e3 / analysed, static_cast<long long>(nodes), nodes / dt / 1e6, checksum);
  return 0;
}
