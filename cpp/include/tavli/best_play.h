// The best play by an evaluator at 0 plies: the one choice every greedy player makes (self-play,
// rollouts, training's opponents), and the 0-ply values the search ranks its plays by.
#pragma once

#include "tavli/eval.h"
#include "tavli/playout.h"

namespace tavli {

// The exact value of a play that ended the game (`step.outcome` set), for the side that made it.
inline Probabilities mover_value(const PlyResult& step) {
  return terminal_probabilities(*step.outcome, step.to_move).inverted();
}

// The value of every play of `list` (the plays from `pos`, mover-relative) for the mover, in
// out[0 .. list.size()): a play that ends the game exactly (mover_value), the others by `ev`, which
// is handed their resulting positions (flipped: games not over) in one batch, in list order, and
// not called when there are none.
void play_values(const Evaluator& ev, const Position& pos, const Rules& rules, const MoveList& list,
                 Probabilities* out);

// The same for the plays list[which[0]], .., list[which[n - 1]] only: their values in out[0 .. n).
void play_values(const Evaluator& ev, const Position& pos, const Rules& rules, const MoveList& list,
                 const int* which, int n, Probabilities* out);

// The index in `list` of the play that play_values values best for the mover, by equity. Ties go
// to the first such play.
int best_play(const Evaluator& ev, const Position& pos, const Rules& rules, const MoveList& list);

}  // namespace tavli
