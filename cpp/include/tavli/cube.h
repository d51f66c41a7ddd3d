// The doubling cube and the match score (issue 15, item 1).
//
// Field conventions:
//   CubeState.value   the cube's stake: 1, 2, 4, ... 2^15 (a power of two).
//   CubeState.owner   kCentred (-1: either side may double), or the absolute Player (0 White,
//                     1 Black) who holds the cube and alone may redouble. An owned cube is >= 2.
//   jacoby, beavers, max_cube   money-play options: gammons count only once the cube has been
//                     turned (Jacoby); a doubled player may beaver (redouble at once, keeping the
//                     cube); max_cube caps the value (0 = no cap). Match play takes none of them.
//   MatchState.length points to win the match; 0 = money play (scores 0, no Crawford).
//   MatchState.score  points each Player (index 0 White, 1 Black) has, each below the length.
//   MatchState.crawford  this is the Crawford game: one side is one point away, the first game
//                     after it got there; no doubling in it. A game at one-away that is not the
//                     Crawford game is post-Crawford.
// "Away" counts what a side still needs: away = length - score (1 = one point from winning).
//
// Which games take the cube is a trait of the variant table (VariantInfo::takes_cube):
// Backgammon, Nackgammon and Hypergammon. The others play matches to a score but have no cube.
#pragma once

#include <array>
#include <stdexcept>
#include <string>

#include "tavli/types.h"
#include "tavli/variant.h"

namespace tavli {

constexpr int kCentred = -1;
constexpr int kMaxCubeLog2 = 15;  // the largest cube 2^15 (the GNU Match ID keeps 4 bits of log2)

struct CubeState {
  int value = 1;
  int owner = kCentred;
  bool jacoby = false;
  bool beavers = false;
  int max_cube = 0;

  bool centred() const { return owner == kCentred; }
  bool operator==(const CubeState& o) const {
    return value == o.value && owner == o.owner && jacoby == o.jacoby && beavers == o.beavers && max_cube == o.max_cube;
  }
};

struct MatchState {
  int length = 0;
  std::array<int, 2> score{0, 0};
  bool crawford = false;

  bool money() const { return length == 0; }
  int away(Player p) const { return length - score[p]; }
  // One side at one-away and this not the Crawford game.
  bool post_crawford() const { return !money() && !crawford && (away(kWhite) == 1 || away(kBlack) == 1); }
  bool operator==(const MatchState& o) const {
    return length == o.length && score == o.score && crawford == o.crawford;
  }
};

// The largest match length a table of match equities covers is the table's own; the state itself
// only needs length <= kMaxMatchLength (15 bits in the GNU Match ID).
constexpr int kMaxMatchLength = 32767;

// Throws std::invalid_argument naming the problem: a cube value that is not a power of two (or
// beyond 2^15 or max_cube), an owner other than -1/0/1, an owned cube still at 1, a centred cube
// above 1 in match play, money options in match play, a score at or past the length, a Crawford
// game not at one-away (or with the cube turned), an owned cube the doubler could not have turned
// at this score (he doubled value/2 while needing more than value/2 points).
void validate(const CubeState& cube, const MatchState& match);

// validate() and, for a game without the cube, that the cube is the untouched default: throws
// std::invalid_argument "<game> has no doubling cube (...)" otherwise.
void validate_for(const VariantInfo& game, const CubeState& cube, const MatchState& match);

// May `side` offer a double now? The cube centred or his, not the Crawford game, his double
// meaningful (he needs more points than the cube's value in a match) and under max_cube.
bool may_double(const CubeState& cube, const MatchState& match, Player side);

}  // namespace tavli
