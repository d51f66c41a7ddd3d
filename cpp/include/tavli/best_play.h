// The best play by an evaluator at 0 plies: the one choice every greedy player makes (self-play,
// rollouts, training's opponents).
#pragma once

#include "tavli/eval.h"

namespace tavli {

// The index in `list` (the plays from `pos`, mover-relative) of the play whose resulting position
// `ev` values best for the mover; a play that ends the game is valued exactly. Ties go to the
// first such play. Every resulting position is handed to `ev` in one batch, in list order.
int best_play(const Evaluator& ev, const Position& pos, const Rules& rules, const MoveList& list);

}  // namespace tavli
