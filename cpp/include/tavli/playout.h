// The ply step every game loop shares (simulation, rollouts, training, batch walks, Game::push):
// a play made from a position, the result handed to the other side, and the end of the game if
// this play brought it.
#pragma once

#include <optional>

#include "tavli/game.h"

namespace tavli {

struct PlyResult {
  Position position;               // after the play, flipped: `to_move` is to move
  Player to_move;                  // the other side
  std::optional<Outcome> outcome;  // set when the play ended the game (outcome_after_play)
};

// `play` is a legal play of `before` (mover-relative) made by `mover`.
inline PlyResult advance(const Position& before, const Play& play, const Rules& rules, Player mover) {
  PlyResult r{play.result, other(mover), std::nullopt};
  r.position.flip();
  r.outcome = outcome_after_play(before, r.position, rules, r.to_move);
  return r;
}

}  // namespace tavli
