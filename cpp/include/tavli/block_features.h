// Features of the blocking games (Fevga, Moultezim, Narde and their kin: one checker holds a
// point, nobody is hit) for the "block2" encoding (encode.h): how far each side has to go, how
// much of its way the other side holds, and how freely its checkers move.
//
// Conventions: each side by its own route index r = 0..23 (r = 0 the start, 18..23 home); the
// other side's point facing my r is facing_point(movement, r) (movegen.h: (r + 12) % 24 in the
// parallel games, 23 - r in the contrary ones). A point is "held" by a side with one checker or
// more. Masks are 24-bit, bit r = point r.
#pragma once

#include <cstdint>

#include "tavli/position.h"
#include "tavli/variant.h"

namespace tavli {

// Pips `me` has to travel to bear everything off: sum over checkers on the board of 24 - r
// (at most 15 * 24 = 360).
int block_pips(const SideState& me);

// The points `them` holds, as a mask in `me`'s frame.
std::uint32_t held_against(const SideState& them, Movement m);

// The longest run of consecutive points `them` holds ahead of `me`'s rearmost checker (in `me`'s
// frame; 0 when `me` has no checker on the board). The wall `me` must get past.
int wall_ahead(const SideState& me, std::uint32_t blocked);

// Of the six die values, how many `me` cannot play with any checker as a single step: no checker
// lands on a point `them` leaves open (r + d <= 23), and `me` cannot bear off (a checker outside
// home). The runner rule is left out: a feature of the structure, not of the legality.
int dead_die_values(const SideState& me, std::uint32_t blocked);

// Summed over `me`'s occupied points outside home, the die values 1..6 whose step lands on an
// open point (at most 18 points x 6).
int open_steps(const SideState& me, std::uint32_t blocked);

// `me`'s checkers with no open landing point among the six ahead (each r + d either held by
// `them` or past 23 while `me` cannot bear off): the checkers that cannot move at all.
int frozen_checkers(const SideState& me, std::uint32_t blocked);

// Whether the two sides can still get in each other's way: some point that `me` holds or will
// pass lies where `them` stands or has still to go. False in a pure race.
bool block_contact(const SideState& me, const SideState& them, Movement m);

// The units "block2" adds to "block" (encode.h), kBlockUnits per side (mover first, each against
// the other), then contact (1) or a race (0). Returns out + 2 * kBlockUnits + 1.
constexpr int kBlockUnits = 7;
float* encode_block_features(const Position& pos, Movement m, float* out);

}  // namespace tavli
