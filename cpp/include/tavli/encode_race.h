// The "race" encoding (encode.h's Encoding::Race; 224 units), for the race net of the hitting
// games (class_net.h), after the ideas of GNU Backgammon's race inputs (our own layout):
//   per side (mover, then opponent), each by its own route index r = 0..23:
//     for r = 0..23: [n >= 1, n >= 2, n >= 3, (n - 3) / 2 if n > 3 else 0]      (96 units)
//     for k = 1..14: [off >= k]  (a thermometer of the checkers borne off)       (14 units)
//     pips / 167                                                                 (1 unit)
//     crossovers / 45: sum over the checkers of the quadrant boundaries each has still to cross
//       to reach home (a checker on r crosses 3 - r / 6; the bar counts as r = -1: 4)  (1 unit)
// A race has no bar and no hits, so nothing else of the position matters but whose roll it is,
// which the mover-first order gives.
#pragma once

#include "tavli/position.h"

namespace tavli {

constexpr int kRaceEncodingSize = 224;

// Writes kRaceEncodingSize floats; returns out + kRaceEncodingSize.
float* encode_race(const Position& pos, float* out);

// The quadrant crossings of a side still to make (see above).
int crossovers(const SideState& s);

}  // namespace tavli
