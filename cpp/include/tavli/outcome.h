// How a game ended: who won, how many points, and which kind of result.
#pragma once

#include <cstdint>

namespace tavli {

// Single: 1 point; Double: gammon / mars / the loser bore off none; Triple: backgammon, koks;
// Mother: Plakoto's mother rule; Draw: both mothers pinned, or a dead position (no points);
// Checkers: one point per checker the loser has left on the board (Tawla 31).
enum class ResultKind : std::uint8_t { Single = 1, Double = 2, Triple = 3, Mother = 4, Draw = 5, Checkers = 6 };

struct Outcome {
  int winner;  // 0 white, 1 black, -1 for a draw
  int points;  // before any cube (the cube is not part of these games yet: value 1)
  ResultKind kind;
};

}  // namespace tavli
