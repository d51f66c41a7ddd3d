// Escapes within reach, for the "expert4" encoding (encode.h): how freely a checker can move past
// the other side's made points within the 12 pips a roll can carry it (GNU Backgammon's notion of
// escapes: the idea from its documentation, the definitions ours).
//
// contact_features.h's escapes_from() counts the rolls that carry a checker past *every* point made
// ahead of it, anywhere on its route; while the other side holds a point 11 or more pips ahead (its
// mid point, its home board) that is 0 or a double or two, so "expert3"'s containment is 1 in three
// contact positions of four and the escape units hardly move. Here a roll escapes when the checker
// can move its whole roll within the 12-pip window ahead: it lands on an open point, through an
// open point (one die or the other first); doubles count their first two steps, as for 6-6 the
// window ends there. A wall in front holds the checker; a point 12 pips away costs one roll.
//
// Conventions as hit_features.h: two sides with contrary movement, each by its own route index
// r = 0..23, the bar before r = 0 (r = -1).
#pragma once

#include <cstdint>

#include "tavli/position.h"

namespace tavli {

// `window`: bit i set when the point i + 1 pips ahead is blocked (i = 0..11). Of the 36 rolls,
// how many move a checker its whole roll: (a, b) with a >= b escapes when a + b pips ahead is open
// and a or b pips ahead is open; a double d when d and 2d are open.
int window_escapes(std::uint32_t window);
// The same, counting only the rolls that also land past the nearest block of the window (36 when
// the window holds none): escapes that get beyond the blockade, not merely short of it.
int window_escapes_past(std::uint32_t window);

// The units "expert4" adds to "expert3", kMobilityUnits per side, mover first (side s = me, the
// other them):
//   window escapes of me's rearmost checker / 36 (0 with none on the board or the bar),
//   the same past the nearest block / 36,
//   containment: (36 - the fewest window escapes, through me's points, from any of them's first
//     ten points r = -1..9) / 36, and its square,
//   actual containment: the same over the points among those where them has a checker (0: none),
//   mobility: the mean window escapes of me's checkers outside its home board (r < 18, the bar
//     included) / 36 (1 with none).
// Returns out + 2 * kMobilityUnits.
constexpr int kMobilityUnits = 6;
float* encode_mobility_features(const Position& pos, float* out);

}  // namespace tavli
