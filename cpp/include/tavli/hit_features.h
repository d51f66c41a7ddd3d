// Hand-made features of the hitting games (Contact::Hit: Backgammon, Portes, Tavla, Nackgammon,
// Hypergammon), for the "expert" encoding (encode.h). They are what TD-Gammon 1.0 and GNU
// Backgammon add to the raw board: quantities a small net learns slowly from point counts alone.
//
// All of them take two sides of a position with contrary movement (my point r is the other side's
// 23 - r; types.h reverse24), each by its own route index r = 0..23 (r = 0 the start, bearing off
// past r = 23), the bar before r = 0.
#pragma once

#include "tavli/position.h"

namespace tavli {

// Masks of a side's points by its own route index (bit r): those it has made (2+ checkers), and
// its blots (exactly 1).
std::uint32_t made_points(const SideState& s);
std::uint32_t blot_points(const SideState& s);

// Pips still to travel: sum of n[r] * (24 - r), 25 for a checker on the bar (167 at the start).
int pip_count(const SideState& s);

// Of the 36 rolls, how many let `them` hit at least one blot of `me`: with one die, or with two
// (or up to four for doubles) through intermediate points that `me` has not made, from the board or
// entering from the bar. Ignores that checkers on the bar must enter before others move and that a
// hit may be forced to a worse play: an estimate of the danger, as gnubg's shot count.
int shots(const SideState& me, const SideState& them);

// By the same walk over the 36 rolls: those that hit two or more of `me`'s blots (double shots),
// the sum over the rolls that hit of the pips the most advanced blot hit loses (its r + 1), and
// the rolls that hit at all (shots(), from the same walk).
struct HitCounts {
  int double_shots = 0, pip_loss = 0;
  int shots = 0;
};
HitCounts hit_counts(const SideState& me, const SideState& them);

// shots, double shots and pip loss by the same walk, on masks given in the moving side's route
// shifted up one bit (bit 0 its bar, bit r + 1 its point r): where it has checkers free to move
// (from), the points it may land on (open), and the other side's checkers a landing strikes
// (targets, among the open points). For games whose landing rules are not backgammon's (Plakoto's
// pins: plakoto_features.h).
HitCounts hit_counts_on_masks(std::uint32_t from, std::uint32_t open, std::uint32_t targets);

// The longest run of consecutive points made (2+ checkers) by `them` ahead of `me`'s rearmost
// checker (the bar counts as behind every point); 0 if `me` has no checker on the board or bar.
int trapping_prime(const SideState& me, const SideState& them);

}  // namespace tavli
