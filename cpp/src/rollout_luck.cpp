#include "tavli/rollout_luck.h"

#include "tavli/best_play.h"
#include <vector>

#include "tavli/game.h"
#include "tavli/playout.h"
#include "tavli/scratch.h"
#include "tavli/search.h"

namespace tavli {

namespace {

// The greedy player's lookahead: every result of every roll valued in one call of the evaluator
// (a net's rows do not depend on their batch), the best of each roll by equity, the first of
// equals as generated (best_play's choice).
struct GreedyLookahead {
  std::vector<Position> positions;  // results of plays that do not end the game
  std::vector<Probabilities> values;
  std::vector<int> roll_of;  // per result (the game-ending ones too): its roll
  std::vector<int> slot;     // per result: its index in positions, or -1 with its value in exact
  std::vector<Probabilities> exact;
};

}  // namespace

void greedy_roll_values(const Position& pos, const Rules& rules, const Evaluator& ev,
                        std::array<Probabilities, kDistinctRolls>& out) {
  Scratch<MoveList> plays;  // not the trial's own list: the caller may be using it
  Scratch<GreedyLookahead> scratch;
  GreedyLookahead& g = *scratch;
  g.positions.clear();
  g.roll_of.clear();
  g.slot.clear();
  g.exact.clear();
  for (int r = 0; r < kDistinctRolls; ++r) {
    thread_generator().generate(pos, rules, all_rolls()[static_cast<std::size_t>(r)].dice, *plays);
    for (int k = 0; k < plays->size(); ++k) {
      const PlyResult step = advance(pos, (*plays)[k], rules, kWhite);
      g.roll_of.push_back(r);
      if (step.outcome) {
        g.slot.push_back(-1 - static_cast<int>(g.exact.size()));
        g.exact.push_back(mover_value(step));
      } else {
        g.slot.push_back(static_cast<int>(g.positions.size()));
        g.positions.push_back(step.position);
      }
    }
  }
  g.values.resize(g.positions.size());
  if (!g.positions.empty())
    ev.evaluate(g.positions.data(), static_cast<int>(g.positions.size()), rules, g.values.data());
  std::array<float, kDistinctRolls> best;
  best.fill(-1e9f);
  for (std::size_t j = 0; j < g.slot.size(); ++j) {
    const int s = g.slot[j];
    const Probabilities v = s >= 0 ? g.values[static_cast<std::size_t>(s)].inverted()
                                   : g.exact[static_cast<std::size_t>(-1 - s)];
    const auto r = static_cast<std::size_t>(g.roll_of[j]);
    if (v.equity() > best[r]) {
      best[r] = v.equity();
      out[r] = v;
    }
  }
}

void roll_values(const Position& pos, const Rules& rules, const Evaluator& ev, const PlayerSpec& player,
                 std::array<Probabilities, kDistinctRolls>& out) {
  if (player.kind != PlayerSpec::Kind::Search || player.plies == 0) return greedy_roll_values(pos, rules, ev, out);
  SearchOptions so;
  so.plies = player.plies;
  so.filters = player.filters;
  so.full_depth = true;  // every roll's value at the player's depth, also where one play is left
  for (int r = 0; r < kDistinctRolls; ++r)
    out[static_cast<std::size_t>(r)] =
        analyze(pos, rules, all_rolls()[static_cast<std::size_t>(r)].dice, ev, so).plays.front().probabilities;
}

}  // namespace tavli
