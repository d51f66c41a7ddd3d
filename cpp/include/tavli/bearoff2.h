// Two-sided exact bear-off database: for both sides with at most kMaxCheckers checkers left, all
// on their six home points (no bar, no contact), the exact cubeless chance that the side to move
// (before its roll) wins when both sides play to maximise their own winning chances.
//
// The one-sided table (bearoff.h) values such races by assuming each side plays to minimise its
// expected number of rolls, which is not always the play that wins most often (e.g. keeping a
// smoother distribution when the opponent needs exactly one more roll); this table is the
// minimax answer. With at most 6 checkers left of 15 each side has at least 9 off, so no gammon is
// possible (a caller applies it only where each side has a checker off: Hypergammon's three).
//
// Index conventions: a side is its counts x_j on its (j+1)-points, j = 0..5 (route index 23 - j),
// x_0 + ... + x_5 <= kMaxCheckers; side_index ranks these in lexicographic order of (x_0..x_5)
// among kSides = C(kMaxCheckers + 6, 6) = 924 compositions. The value of (mover a, other b) is
// win_[a * kSides + b]. 853,776 floats (3.4 MB), built by the engine's move generator on first use
// (well under a second; once per process, thread-safe).
//
// Recurrence, for the mover's side a and the other b (a non-empty):
//   V(a, b) = sum over the 21 rolls of p(roll) * max over the plays a -> a' of
//             (1 if a' is empty, else 1 - V(b, a'))
// Every play lowers a's pips, so V is filled in increasing order of pips(a) + pips(b).
#pragma once

#include <vector>

#include "tavli/position.h"

namespace tavli {

class TwoSidedBearoff {
 public:
  static constexpr int kMaxCheckers = 6;
  static constexpr int kSides = 924;  // C(kMaxCheckers + 6, 6)

  static const TwoSidedBearoff& get();

  // Whether a side fits: no bar, every checker on the board in its home, at most kMaxCheckers.
  static bool fits(const SideState& s);
  // The rank of a side that fits (see above); -1 if it does not.
  static int side_index(const SideState& s);
  // P(the side to move wins) with `mover` to roll against `other`; both must fit and the mover
  // must have a checker left (throws std::invalid_argument otherwise).
  float win(const SideState& mover, const SideState& other) const;
  float win_by_index(int mover, int other) const { return win_[static_cast<std::size_t>(mover) * kSides + other]; }

 private:
  TwoSidedBearoff();
  std::vector<float> win_;
};

}  // namespace tavli
