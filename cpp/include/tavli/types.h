// Basic types and constants shared by every layer of the engine.
//
// Coordinates (RULES.md §1.1). Each player counts points along his own route:
//   route index r = 0..23   r = 0 is his start point, r = 18..23 his home board;
//   kBar = -1               a checker on the bar enters with die d onto r = d - 1;
//   kOff = 24               a step r -> r + d >= 24 bears the checker off.
// The backgammon point number of route index r is n = 24 - r (used by move text).
//
// Masks. A 24-bit occupancy mask has bit r set when the owner has a checker on his route index r.
#pragma once

#include <cstdint>

namespace tavli {

constexpr int kPoints = 24;
constexpr int kCheckers = 15;
constexpr int kBar = -1;
constexpr int kOff = 24;
constexpr std::uint32_t kBoardMask = 0xFFFFFFu;   // bits 0..23
constexpr std::uint32_t kHomeMask = 0xFC0000u;    // bits 18..23: the home board
constexpr std::uint32_t kStartQuarter = 0x00003Fu;  // bits 0..5: the starting quarter

// Absolute players: White moves first in a fresh game.
enum Player : std::uint8_t { kWhite = 0, kBlack = 1 };

constexpr Player other(Player p) { return p == kWhite ? kBlack : kWhite; }

// Bit helpers on 24-bit masks.
constexpr std::uint32_t bit(int r) { return 1u << r; }
// Bits lo..hi inclusive.
constexpr std::uint32_t range_mask(int lo, int hi) {
  return lo > hi ? 0u : (((hi >= 31 ? 0xFFFFFFFFu : ((1u << (hi + 1)) - 1u))) & ~((1u << lo) - 1u));
}
inline int lowest_bit(std::uint32_t m) { return __builtin_ctz(m); }
inline int highest_bit(std::uint32_t m) { return 31 - __builtin_clz(m); }  // m != 0
// Without a hardware popcount in the target (-mpopcnt), __builtin_popcount becomes a library
// call; the SWAR form is faster than that and the compiler turns it into the instruction when it can.
inline int popcount(std::uint32_t m) {
#if defined(__POPCNT__)
  return __builtin_popcount(m);
#else
  m = m - ((m >> 1) & 0x55555555u);
  m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
  return static_cast<int>((((m + (m >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
#endif
}

// Parallel movement (Fevga, Moultezim, Narde): my point r is the opponent's (r + 12) mod 24, and
// the map is its own inverse. On masks it is a 12-bit rotation of the 24-bit word.
constexpr std::uint32_t rotate12(std::uint32_t m) {
  return ((m << 12) | (m >> 12)) & kBoardMask;
}

// Contrary movement (Backgammon, Portes, Tavla, Plakoto): my point r is the opponent's 23 - r, a
// 24-bit reversal (also its own inverse).
constexpr std::uint32_t reverse24(std::uint32_t m) {
  std::uint32_t x = m;
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
  x = (x >> 24) | ((x >> 8) & 0xFF00u) | ((x << 8) & 0xFF0000u) | (x << 24);  // byte swap
  return x >> 8;
}
static_assert(reverse24(1u) == (1u << 23) && reverse24(1u << 23) == 1u && reverse24(0x000F01u) == 0x80F000u,
              "reverse24 maps r to 23 - r");

}  // namespace tavli
