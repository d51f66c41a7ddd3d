// Features of the hitting games' contact structure for the "expert3" encoding (encode.h): the
// rest of what GNU Backgammon's contact inputs measure (containment, mobility, contact to break,
// free pips, entering, anchors, spread; the ideas from its documentation, the definitions ours).
// Conventions as hit_features.h: two sides with contrary movement, each by its own route index
// r = 0..23 (r = 0 the start), the bar before r = 0 (r = -1); `me`'s point r is `them`'s 23 - r.
#pragma once

#include "tavli/position.h"

namespace tavli {

// How well `blocker`'s made points hold a checker of the other side anywhere in that side's first
// ten points (its r = -1..9, the bar included, whether or not a checker stands there): 36 minus
// the fewest rolls, over those starting points, that let a checker escape past every point of
// blocker ahead of it (contact_features.h escapes_from). 0 when nothing is made ahead of them.
int containment(const SideState& blocker);

// The mean, over `me`'s checkers outside its home board (r < 18, the bar included), of the rolls
// that let the checker pass every point `them` has made ahead of it, times 36 * checkers: the
// sum of escapes_from over those checkers. Divide by 36 and the count for a mean.
int escape_sum(const SideState& me, const SideState& them, int* checkers);

// Pips `me`'s checkers must travel to pass `them`'s rearmost checker (a checker of them on the
// bar counts as behind all of `me`'s board): 0 when contact is already broken.
int contact_pips(const SideState& me, const SideState& them);
// Pips of `me`'s checkers already past every checker of `them` (out of contact).
int free_pips(const SideState& me, const SideState& them);

// Points `them` has made in its home board (where `me` enters from the bar).
int closed_entry_points(const SideState& them);

// `me`'s made points in the other side's half of the route (r = 0..11): the rearmost and the
// most advanced (-1 if none), and how many lie in the other side's home board (r = 0..5).
int rear_anchor(const SideState& me);
int forward_anchor(const SideState& me);
int home_anchors(const SideState& me);

// The standard deviation of the route index over `me`'s checkers on the board or the bar
// (the bar r = -1), 0 with fewer than two: how spread out the checkers are.
float spread(const SideState& me);

// The units "expert3" adds to "expert2" (encode.h), kStructureUnits per side, mover first;
// returns out + 2 * kStructureUnits.
constexpr int kStructureUnits = 10;
float* encode_structure_features(const Position& pos, float* out);

}  // namespace tavli
