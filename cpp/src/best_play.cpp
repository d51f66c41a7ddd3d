#include "tavli/best_play.h"

#include <vector>

#include "tavli/scratch.h"

namespace tavli {
namespace {

struct PlayBatch {
  std::vector<Position> positions;
  std::vector<Probabilities> values;
};

}  // namespace

int best_play(const Evaluator& ev, const Position& pos, const Rules& rules, const MoveList& list) {
  if (list.size() == 1) return 0;
  Scratch<PlayBatch> scratch;
  std::vector<Position>& batch = scratch->positions;
  std::vector<Probabilities>& vals = scratch->values;
  batch.clear();
  for (const Play& pl : list) {
    batch.push_back(pl.result);
    batch.back().flip();
  }
  vals.resize(batch.size());
  ev.evaluate(batch.data(), static_cast<int>(batch.size()), rules, vals.data());
  int best = 0;
  float best_eq = -1e9f;
  for (int i = 0; i < list.size(); ++i) {
    const auto o = outcome_after_play(pos, batch[static_cast<std::size_t>(i)], rules, kWhite);
    const float eq = o ? terminal_probabilities(*o, kWhite).inverted().equity()
                       : vals[static_cast<std::size_t>(i)].inverted().equity();
    if (eq > best_eq) {
      best_eq = eq;
      best = i;
    }
  }
  return best;
}

}  // namespace tavli
