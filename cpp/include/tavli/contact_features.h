// More hand-made features of the hitting games for the "expert2" encoding (encode.h): what GNU
// Backgammon's contact inputs measure beyond hit_features.h (the ideas from its documentation; the
// definitions here are ours). Same conventions as hit_features.h: two sides with contrary movement,
// each by its own route index r = 0..23, the bar before r = 0. Like shots(), the hitting estimates
// ignore that checkers on the bar must enter first and that a hit may be forced to a worse play.
#pragma once

#include "tavli/hit_features.h"
#include "tavli/position.h"
#include "tavli/types.h"

namespace tavli {

// Of the 36 rolls, how many let `them` reach two or more different blots of `me` (each directly or
// through open points as in shots()): the double shots.
int double_shots(const SideState& me, const SideState& them);

// The pips `me` would lose to a hit, summed over the 36 rolls, each roll counting its worst blot
// that `them` can reach (a checker hit on r loses r + 1 pips). Divide by 36 for the expectation.
int pip_loss_sum(const SideState& me, const SideState& them);

// Of the 36 rolls, how many let `me`'s rearmost checker (on the bar: r = -1) move past every point
// `them` has made ahead of it, with one die or the dice together through open points (doubles: up
// to four steps). 36 when nothing is made ahead of it; 0 when `me` has no checker on the board
// or the bar.
int escapes(const SideState& me, const SideState& them);
// The same for a checker of `me` standing on r (-1: the bar), whether or not one stands there.
int escapes_from(int r, const SideState& them);
// `them`'s made points in `me`'s route index + 1 (bit 0 the bar, bit r + 1 my point r), 64 bits
// wide; shifted right by r + 1, bit k is a block k pips ahead of my point r.
inline std::uint64_t blocks_ahead_mask(const SideState& them) {
  return static_cast<std::uint64_t>(reverse24(made_points(them))) << 1;
}
// escapes_from() for the blocks ahead of a checker (bit k: a block k pips ahead; bit 0 ignored).
int escapes_ahead(std::uint64_t ahead);
// escapes_ahead(blocks >> (r + 1)) for every start r = -1 (the bar) .. 23 at once: from[r + 1]
// (from[25..31] unused), `blocks` a blocks_ahead_mask(). One SIMD pass over the starts where the
// CPU has AVX2; the last two tables are kept per thread, since one encoding asks for each
// blocker's three times (containment, escape_sum, escapes).
struct EscapeCounts {
  std::uint8_t from[32];
};
EscapeCounts escape_counts(std::uint64_t blocks);

// The longest run of consecutive points made (2+ checkers) by `s`.
int longest_prime(const SideState& s);
// Points made in the home board (r = 18..23).
int home_points_made(const SideState& s);
// Checkers on the bar or in the other side's home board (r = 0..5).
int back_checkers(const SideState& s);
// Pips the checkers outside the home board still have to travel to reach it (r -> 18; the bar is
// r = -1): how long `s` can keep moving before it must break its home board.
int timing_pips(const SideState& s);

// The 14 units "expert2" adds to "expert" (encode.h), mover first; returns out + 14. `hits[s]` is
// hit_counts(pos.side[s], pos.side[1 - s]), walked once by the caller, which also reads its shots.
float* encode_contact_features(const Position& pos, const HitCounts hits[2], float* out);

}  // namespace tavli
