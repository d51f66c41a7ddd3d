#include "tavli/perft.h"

#include <vector>

#include "tavli/interrupt.h"
#include "tavli/playout.h"

namespace tavli {
namespace {

std::uint64_t perft_rec(const Position& pos, const Rules& rules, int depth, MoveGenerator& gen,
                        std::vector<MoveList>& lists) {
  if (depth == 0 || game_outcome(pos, rules, kWhite)) return 1;
  check_stop();  // a node above the leaves: 21 move generations at most between checks
  MoveList& list = lists[depth];
  std::uint64_t total = 0;
  for (const WeightedRoll& wr : all_rolls()) {
    gen.generate(pos, rules, wr.dice, list);
    if (depth == 1) {
      total += static_cast<std::uint64_t>(list.size());
      continue;
    }
    for (int i = 0; i < list.size(); ++i) {
      const PlyResult step = advance(pos, list[i], rules, kWhite);
      // A play that ends the game is a leaf (the mother rule may need the play itself to tell).
      total += step.outcome ? 1 : perft_rec(step.position, rules, depth - 1, gen, lists);
      // `list` is reused only by deeper levels, which use their own entries.
    }
  }
  return total;
}

}  // namespace

std::uint64_t perft(const Position& pos, const Rules& rules, int depth) {
  if (depth < 0 || depth > 6) throw std::invalid_argument("perft depth must be 0..6");
  MoveGenerator gen;
  std::vector<MoveList> lists(static_cast<std::size_t>(depth) + 1);
  return perft_rec(pos, rules, depth, gen, lists);
}

}  // namespace tavli
