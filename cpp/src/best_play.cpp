#include "tavli/best_play.h"

#include <vector>

#include "tavli/scratch.h"

namespace tavli {
namespace {

struct PlayBatch {
  std::vector<Position> positions;  // the results handed to the evaluator
  std::vector<int> where;           // their plays' indices in the list
  std::vector<Probabilities> values;
  std::vector<Probabilities> plays;  // best_play's values of every play
};

// out[k] = the value of play list[which ? which[k] : k], k < n.
void values_into(const Evaluator& ev, const Position& pos, const Rules& rules, const MoveList& list,
                 const int* which, int n, Probabilities* out, PlayBatch& scratch) {
  std::vector<Position>& batch = scratch.positions;
  std::vector<int>& where = scratch.where;
  batch.clear();
  where.clear();
  for (int i = 0; i < n; ++i) {
    const PlyResult step = advance(pos, list[which ? which[i] : i], rules, kWhite);
    if (step.outcome) {
      out[i] = mover_value(step);
    } else {
      batch.push_back(step.position);
      where.push_back(i);
    }
  }
  if (batch.empty()) return;
  std::vector<Probabilities>& vals = scratch.values;
  vals.resize(batch.size());
  ev.evaluate(batch.data(), static_cast<int>(batch.size()), rules, vals.data());
  for (std::size_t k = 0; k < batch.size(); ++k) out[where[k]] = vals[k].inverted();
}

}  // namespace

void play_values(const Evaluator& ev, const Position& pos, const Rules& rules, const MoveList& list,
                 Probabilities* out) {
  Scratch<PlayBatch> scratch;
  values_into(ev, pos, rules, list, nullptr, list.size(), out, *scratch);
}

void play_values(const Evaluator& ev, const Position& pos, const Rules& rules, const MoveList& list,
                 const int* which, int n, Probabilities* out) {
  Scratch<PlayBatch> scratch;
  values_into(ev, pos, rules, list, which, n, out, *scratch);
}

int best_play(const Evaluator& ev, const Position& pos, const Rules& rules, const MoveList& list) {
  if (list.size() == 1) return 0;
  Scratch<PlayBatch> scratch;
  std::vector<Probabilities>& vals = scratch->plays;
  vals.resize(static_cast<std::size_t>(list.size()));
  values_into(ev, pos, rules, list, nullptr, list.size(), vals.data(), *scratch);
  int best = 0;
  float best_eq = -1e9f;
  for (int i = 0; i < list.size(); ++i) {
    const float eq = vals[static_cast<std::size_t>(i)].equity();
    if (eq > best_eq) {
      best_eq = eq;
      best = i;
    }
  }
  return best;
}

}  // namespace tavli
