// Variance reduction in rollouts by luck adjustment, as GNU Backgammon's manual describes it
// ("Rollouts": variance reduction). Before each roll of a trial, the value of every roll for the
// side on roll is found with a lookahead at the rollout player's depth: the value after that
// roll's best play (greedy: the 0-ply values of the results; search:N: the N-ply analysis). The
// luck of the roll rolled is its value minus the mean over the 21 distinct rolls (weights 1/36 and
// 2/36). A luck term has mean zero given the position, whatever comes after it, so a trial's
// result minus the sum of its lucks is an unbiased estimate of the position's value, with a much
// smaller variance: most of a trial's spread is the dice. The value of a roll is a function of the
// position and the roll alone (no generator is drawn from), so the dice, the plays and the games
// of a trial are the same with and without the adjustment.
#pragma once

#include <array>

#include "tavli/dice.h"
#include "tavli/eval.h"
#include "tavli/sim.h"

namespace tavli {

constexpr int kDistinctRolls = 21;  // dice.h's all_rolls()

// The index in all_rolls() of a roll, its dice in either order.
inline int distinct_roll_index(Dice d) {
  const int hi = d.high(), lo = d.low();
  return hi * (hi - 1) / 2 + lo - 1;
}

// The value, for the side to move in `pos` (mover-relative, before his roll), of each distinct
// roll: the probabilities after that roll's best play by the rollout player (greedy: best by
// 0-ply equity, the first of equals; search: the first play of search.h's analyze at the player's
// plies and filters), in all_rolls() order. The random player makes no lookahead: refused by
// check_rollout_options.
void roll_values(const Position& pos, const Rules& rules, const Evaluator& ev, const PlayerSpec& player,
                 std::array<Probabilities, kDistinctRolls>& out);

// roll_values of the greedy player by `ev`: each roll's best play by its 0-ply equity.
void greedy_roll_values(const Position& pos, const Rules& rules, const Evaluator& ev,
                        std::array<Probabilities, kDistinctRolls>& out);

// The luck of `rolled` from one number per distinct roll: value[rolled] minus the weighted mean
// of all 21.
inline double roll_luck(const std::array<double, kDistinctRolls>& value, Dice rolled) {
  double mean = 0;
  for (int r = 0; r < kDistinctRolls; ++r) mean += all_rolls()[r].weight * value[r];
  return value[distinct_roll_index(rolled)] - mean / 36.0;
}

}  // namespace tavli
