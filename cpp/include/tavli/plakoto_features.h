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

// `me`'s points as the other side's moves see them, as masks in that side's route (bit k = its
// point k): `targets`, `me`'s free lone checkers (a landing pins them); `shut`, the points where
// `me` has two or more or sits on a pinned checker of `them` (no landing). `me`'s own pinned
// checkers are in neither: their points are `them`'s.
struct PinTargets {
  std::uint32_t targets = 0, shut = 0;
};
PinTargets pin_targets(const SideState& me, const SideState& them);
// The points (by `them`'s own route) where `them` has a checker free to move (not pinned).
std::uint32_t free_movers(const SideState& them);
// `them`'s wall against `me`, in `me`'s route: every point `them` holds except a free lone checker
// that `me` may pin.
std::uint32_t plakoto_wall(const SideState& them, const SideState& me);

// Of the 36 rolls, how many let `them` pin `me`'s mother: `me`'s r = 0 holds exactly one free
// checker (0 otherwise).
int mother_shots(const SideState& me, const SideState& them);

// The units "plakoto2" adds to "plakoto" (encode.h), kPlakotoUnits per side (mover first, each
// against the other), then contact (1) or a race (0). Returns out + 2 * kPlakotoUnits + 1.
constexpr int kPlakotoUnits = 6;
float* encode_plakoto_features(const Position& pos, float* out);

}  // namespace tavli
