#include "tavli/block_features.h"

#include "tavli/movegen.h"

namespace tavli {

namespace {

constexpr std::uint32_t kHomeMask = 0x3Fu << 18;  // r = 18..23
constexpr std::uint32_t kOutsideHome = kBoardMask & ~kHomeMask;

// Points r + 1 .. r + 6 that lie on the board (r + d <= 23), as a mask.
constexpr std::uint32_t ahead_six(int r) { return (0x3Fu << (r + 1)) & kBoardMask; }

// Whether `me` may bear off: every checker on the board is home (none left behind).
bool all_home(const SideState& me) { return (me.occ & kOutsideHome) == 0; }

// The points of `mask` strictly ahead of `me`'s rearmost checker (none when `me` has no checker
// on the board).
std::uint32_t ahead_of_rear(const SideState& me, std::uint32_t mask) {
  return me.occ ? mask & ~((2u << __builtin_ctz(me.occ)) - 1) : 0;
}

}  // namespace

int block_pips(const SideState& me) {
  int pips = 0;
  for (std::uint32_t m = me.occ; m; m &= m - 1) {
    const int r = __builtin_ctz(m);
    pips += me.n[r] * (24 - r);
  }
  return pips;
}

std::uint32_t held_against(const SideState& them, Movement m) { return facing_points(m, them.occ); }

int wall_ahead(const SideState& me, std::uint32_t blocked) {
  std::uint32_t run = ahead_of_rear(me, blocked);
  int longest = 0;
  while (run) {  // each pass shortens every run by one: the passes count the longest
    run &= run >> 1;
    ++longest;
  }
  return longest;
}

int dead_die_values(const SideState& me, std::uint32_t blocked) {
  if (me.occ == 0 || all_home(me)) return 0;  // bearing off plays every die
  const std::uint32_t open = kBoardMask & ~blocked;
  int dead = 0;
  for (int d = 1; d <= 6; ++d) dead += ((me.occ << d) & open) == 0;
  return dead;
}

int open_steps(const SideState& me, std::uint32_t blocked) {
  const std::uint32_t open = kBoardMask & ~blocked;
  int steps = 0;
  for (std::uint32_t m = me.occ & kOutsideHome; m; m &= m - 1) {
    const int r = __builtin_ctz(m);
    steps += popcount(ahead_six(r) & open);
  }
  return steps;
}

int frozen_checkers(const SideState& me, std::uint32_t blocked) {
  if (all_home(me)) return 0;
  const std::uint32_t open = kBoardMask & ~blocked;
  int frozen = 0;
  for (std::uint32_t m = me.occ; m; m &= m - 1) {
    const int r = __builtin_ctz(m);
    if ((ahead_six(r) & open) == 0) frozen += me.n[r];
  }
  return frozen;
}

bool block_contact(const SideState& me, const SideState& them, Movement m) {
  if (me.occ == 0 || them.occ == 0) return false;
  // The points from each side's rearmost checker on: where it stands or has still to go.
  const std::uint32_t mine = kBoardMask & ~((1u << __builtin_ctz(me.occ)) - 1);
  const std::uint32_t theirs = kBoardMask & ~((1u << __builtin_ctz(them.occ)) - 1);
  return (mine & facing_points(m, theirs)) != 0;
}

float* encode_block_features(const Position& pos, Movement m, float* out) {
  for (int s = 0; s < 2; ++s) {
    const SideState &me = pos.side[s], &them = pos.side[1 - s];
    const std::uint32_t blocked = held_against(them, m);
    *out++ = block_pips(me) / 360.0f;
    *out++ = wall_ahead(me, blocked) / 6.0f;
    *out++ = popcount(ahead_of_rear(me, blocked)) / 12.0f;
    *out++ = dead_die_values(me, blocked) / 6.0f;
    *out++ = open_steps(me, blocked) / 36.0f;
    *out++ = frozen_checkers(me, blocked) / 15.0f;
    int home = 0;
    for (int r = 18; r < 24; ++r) home += me.n[r];
    *out++ = home / 15.0f;
  }
  *out++ = block_contact(pos.side[0], pos.side[1], m);
  return out;
}

}  // namespace tavli
