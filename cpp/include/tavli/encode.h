// Feature encodings for learning: a position (and optionally the roll) as a float32 vector.
//
// Every encoding is seen from the side to move ("mover" first, then the opponent), each side by its
// own route index r = 0..23, as positions are stored. Units per point and side:
//
//   "tesauro" (Backgammon, Portes, Tavla; 198 units, after Tesauro's TD-Gammon):
//     per side: for r = 0..23: [n >= 1, n >= 2, n >= 3, (n - 3) / 2 if n > 3 else 0]  (96 units)
//               bar / 2, off / 15                                                     (2 units)
//     then: [white to move, black to move]                                            (2 units)
//   "expert" (the hitting games; 205 units): "tesauro"'s 198, then per side (mover, opponent):
//               pips / 167, shots / 36 (rolls of the other side that hit one of its blots),
//               trapping prime / 6 (the other side's longest run of made points ahead of its
//               rearmost checker); then in contact (1) or a pure race (0: eval.h is_race). hit_features.h.
//   "plakoto" (198 units): per side: for r = 0..23: [n >= 1, n >= 2, (n - 2) / 13 if n > 2 else 0,
//               pinned]  (96), off / 15, mother pinned (its r0 holds one pinned checker)  (2);
//               then [white to move, black to move]
//   "block" (Fevga, Moultezim, Narde; 152 units): per side: for r = 0..23: [n >= 1, n >= 2,
//               (n - 2) / 13 if n > 2 else 0]  (72), off / 15, in the runner phase (Fevga,
//               Moultezim: no checker on r >= threshold and none off), first turn (Narde)  (3);
//               then [white to move, black to move]
//   "expert2" (the hitting games, a later version of "expert"; 219 units): "expert"'s 205, then
//               per side (mover, opponent), contact_features.h: double shots / 36, escapes of the
//               rearmost checker / 36, expected pips lost to a hit (pip_loss_sum / 36) / 24,
//               longest prime / 6, home points made / 6, back checkers / 15, timing pips / 100.
//               Its first 205 units are "expert"'s, so an "expert" net widens to it unchanged.
//   "expert3" (the hitting games; 239 units): "expert2"'s 219, then per side (mover, opponent),
//               structure_features.h: containment of the other side's back checkers / 36 and its
//               square, mean escapes of the checkers outside home / 36, pips to break contact / 167,
//               free pips / 167, chance of staying on the bar (closed entry points^2 / 36, 0 when
//               none is on the bar), rear and forward anchor (r + 1) / 12 (0: none), anchors in the
//               other side's home / 3, spread of the route index / 12. Widens from "expert2".
//   "expert4" (the hitting games; 251 units): "expert3"'s 239, then per side (mover, opponent),
//               mobility_features.h (escapes within the 12 pips a roll reaches, where "expert3"'s
//               count every point ahead): the rearmost checker's escapes / 36 and those past the
//               nearest block / 36, containment of the other side's first ten points / 36 and its
//               square, the same over the points where it has checkers / 36, mean escapes of the
//               checkers outside home / 36. Widens from "expert3".
//   "block2" (the blocking games, "block" with hand-made units; 167 units): "block"'s 152, then per
//               side (mover, opponent), block_features.h: pips / 360, the longest wall of the other
//               side ahead of its rearmost checker / 6, the other side's points ahead of it / 12,
//               die values no checker can play / 6, open steps of the checkers outside home / 36,
//               checkers that cannot move / 15, checkers home / 15; then in contact (1) or a race
//               (0). Widens from "block".
//   "plakoto2" (Plakoto, "plakoto" with hand-made units; 211 units): "plakoto"'s 198, then per side
//               (mover, opponent), plakoto_features.h: pips / 360, rolls of the other side that pin
//               one of its lone checkers / 36, that pin two or more / 36, the pips lost to the pin
//               (pip_loss_sum / 36) / 24, rolls that pin its mother / 36, the other side's longest
//               wall ahead of its rearmost checker / 6; then in contact (1) or a race (0). Widens
//               from "plakoto".
//   "race" (the hitting games' race net; 224 units): encode_race.h.
// With the roll, 21 more units: a one-hot of the roll among the 21 (index as in all_rolls(): 1-1,
// 2-1, 2-2, 3-1, ..., 6-6), for encodings of a position after the roll.
#pragma once

#include <string>

#include "tavli/game.h"

namespace tavli {

enum class Encoding : std::uint8_t { Tesauro, Plakoto, Block, Expert, Race, Expert2, Expert3, Expert4, Block2, Plakoto2 };

// "expert" and its later versions: "tesauro"'s units, then hand-made ones, each version beginning
// with all of the one before.
constexpr bool expert_family(Encoding e) {
  return e == Encoding::Expert || e == Encoding::Expert2 || e == Encoding::Expert3 || e == Encoding::Expert4;
}

Encoding default_encoding(const Rules& rules);
// Whether `e` can encode the rules' positions: the default one, or "expert" for the hitting games.
bool encoding_fits(Encoding e, const Rules& rules);
Encoding encoding_from_name(const std::string& name);  // throws std::invalid_argument
const char* encoding_name(Encoding e);
int encoding_size(Encoding e, bool with_dice);

// Writes encoding_size(e, dice != nullptr) floats.
void encode(const Position& pos, Player to_move, const Rules& rules, Encoding e, const Dice* dice, float* out);

// Point columns. In "tesauro", the "expert" family, "block" and "block2" a point's units are a
// function of its count n alone, so a net's weighted sum of them can be one precomputed column per
// (side, point, count): NeuralEvaluator (nnet.h) adds one weight row per occupied point instead of
// up to four (a backgammon position lists about 45 units instead of 60). The columns are numbered
// from `first` (the evaluator's: the net's input count), side s (0: the side encoded first), route
// index r, count n = 1..15:
//   column = first + (24 s + r) * kPointColumnCounts + n - 1
struct PointUnits {
  int per_point = 0;  // units per point; 0: the encoding has no point columns
  int per_side = 0;   // the first unit of the second side's points (the first side's is 0)
};
PointUnits point_units(Encoding e);
// The value encode() writes for unit j (0 <= j < per_point) of a point holding n checkers.
float point_unit_value(Encoding e, int n, int j);
constexpr int kPointColumnCounts = 15;
constexpr int kPointColumns = 2 * kPoints * kPointColumnCounts;
constexpr int point_column(int first, int s, int r, int n) { return first + (s * kPoints + r) * kPointColumnCounts + n - 1; }

// The same units as encode(pos, to_move, rules, e, nullptr, out), as a sparse list: the indices
// of the units that may be non-zero, increasing, and their values (every unit not listed is 0;
// a listed one may be 0 too). Returns the count (at most encoding_size(e, false)); the
// arrays need room for kSparseSlack entries more (scratch slots). This is what
// the evaluator feeds the net (a backgammon position has about 60 such units of 239); the values
// are computed by the same expressions as encode()'s, so they are bit-identical (tested).
// With `point_columns` > 0 and an encoding that has them, each occupied point is listed instead
// as its one point column (numbered from point_columns, value 1), those first, then the other
// units in increasing order.
constexpr int kSparseSlack = 4;
int encode_sparse(const Position& pos, Player to_move, const Rules& rules, Encoding e, std::uint16_t* index,
                  float* value, int point_columns = 0);

// Index of a roll among the 21 (all_rolls() order).
int roll_index(Dice d);

}  // namespace tavli
