// Features of Plakoto (contrary movement, a lone checker is pinned instead of hit) for the
// "plakoto2" encoding (encode.h): the hitting games' shot counts (hit_features.h) read for pins,
// the danger to the mother (the last checker on the start point), pips and walls.
//
// Conventions as hit_features.h: each side by its own route index r = 0..23, my r facing the
// other side's 23 - r. Point states as RULES.md 5.2: a pinned checker (SideState::pinned) lies
// under one or more checkers of the other side, which hold the point; a side may not land where
// the other side's checkers sit on a pinned one of its own.
#pragma once

#include "tavli/position.h"

namespace tavli {

// `me` as the other side's moves see it: its free lone checkers are the blots (a landing pins
// them); a point where `me` sits on a pinned checker of `them`, or has two or more, is made (no
// landing); `me`'s own pinned checkers are gone (their point is `them`'s).
SideState pin_targets(const SideState& me, const SideState& them);
// `them` as movers: only their free checkers (a pinned one cannot move).
SideState free_movers(const SideState& them);
// `them` as a wall against `me`: every point `them` holds (lone checkers too, and those sitting on
// a pinned checker of `me`) counts as made, except lone free checkers `me` may pin.
SideState plakoto_wall(const SideState& them, const SideState& me);

// Of the 36 rolls, how many let `them` pin `me`'s mother: `me`'s r = 0 holds exactly one free
// checker (0 otherwise).
int mother_shots(const SideState& me, const SideState& them);

// The units "plakoto2" adds to "plakoto" (encode.h), kPlakotoUnits per side (mover first, each
// against the other), then contact (1) or a race (0). Returns out + 2 * kPlakotoUnits + 1.
constexpr int kPlakotoUnits = 6;
float* encode_plakoto_features(const Position& pos, float* out);

}  // namespace tavli
