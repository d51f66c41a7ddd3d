// Best-move agreement of the default (narrowed) search with the full-width one:
//   search_agreement net.tnet [plies] [positions] [seed]
// Over `positions` seeded random backgammon (position, roll) pairs with more than one play,
// analyses each at `plies` with the default narrowing and with none ({{-1, 0, 0}}: every play the
// root filter keeps is searched to full depth), and prints how often both pick the same play, the
// mean equity the narrowed choice loses by the full-width values, and both times (CPU seconds).
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <string>

#include "tavli/batch.h"
#include "tavli/nnet.h"
#include "tavli/search.h"

namespace {
double cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}
}  // namespace

int main(int argc, char** argv) {
  using namespace tavli;
  if (argc < 2) {
    std::fprintf(stderr, "usage: search_agreement net.tnet [plies] [positions] [seed]\n");
    return 2;
  }
  const int plies = argc > 2 ? std::atoi(argv[2]) : 3;
  const long want = argc > 3 ? std::atol(argv[3]) : 200;
  const unsigned long long seed = argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 20261130;
  const Rules rules = make_rules(Variant::Backgammon);
  const NeuralEvaluator ev(std::make_shared<NeuralNet>(NeuralNet::load(argv[1])));
  std::vector<std::uint8_t> rows;
  std::vector<std::int64_t> dice;
  random_positions(rules, 8 * want, seed, rows, dice);
  SearchOptions narrow, full;
  narrow.plies = full.plies = plies;
  full.narrowing = {MoveFilter{-1, 0, 0.0f}};
  long done = 0, same = 0;
  double loss = 0, t_narrow = 0, t_full = 0;
  MoveList list;
  for (long i = 0; i < 8 * want && done < want; i += 8) {  // every 8th pair: less alike
    const Position pos = Position::from_row(rows.data() + kRowBytes * i, nullptr);
    if (game_outcome(pos, rules, kWhite)) continue;
    const Dice d{static_cast<int>(dice[2 * i]), static_cast<int>(dice[2 * i + 1])};
    thread_generator().generate(pos, rules, d, list);
    if (list.size() < 2) continue;
    double t0 = cpu_seconds();
    const Analysis a = analyze(pos, rules, d, ev, narrow);
    t_narrow += cpu_seconds() - t0;
    t0 = cpu_seconds();
    const Analysis b = analyze(pos, rules, d, ev, full);
    t_full += cpu_seconds() - t0;
    const Position pick = a.plays[0].play.result;
    if (pick == b.plays[0].play.result) {
      ++same;
    } else {
      for (const PlayValue& v : b.plays)
        if (v.play.result == pick) loss += b.plays[0].probabilities.equity() - v.probabilities.equity();
    }
    ++done;
    if (done % 25 == 0)
      std::fprintf(stderr, "%ld: same %.1f%%, loss %.4f, narrowed %.3f s, full %.3f s\n", done, 100.0 * same / done,
                   loss / done, t_narrow / done, t_full / done);
  }
  std::printf("%d-ply, %ld positions: same best play %.1f%%, mean loss %.4f equity per decision; CPU s per "
              "decision: narrowed %.3f, full width %.3f (%.2fx)\n",
              plies, done, 100.0 * same / done, loss / done, t_narrow / done, t_full / done, t_full / t_narrow);
  return 0;
}
