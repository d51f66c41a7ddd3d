// A position, stored relative to the side to move.
//
// Layout. `side[0]` is the side to move ("own", X), `side[1]` the opponent (O). Each side keeps its
// checkers by its OWN route index r (types.h), so the two sides are stored identically and flip()
// is a swap of the two halves: O(1), no per-point work. Which opponent point faces my point r is a
// trait of the game (types.h: rotate12 for parallel movement, reverse24 for contrary movement).
//
//   SideState (48 bytes, no implicit padding; equality and hashing never read `hash` twice)
//     n[24]    checkers on route index r
//     bar      checkers on the bar (hitting games)
//     off      checkers borne off
//     flags    bit 0: the side has not yet played its first turn (Narde's head exception)
//     pad      zero
//     occ      24-bit mask, bit r set when n[r] > 0 (kept in step with n)
//     pinned   24-bit mask, bit r set when this side's checker on r is pinned (Plakoto)
//     hash     Zobrist hash of this side alone (see below)
//
// Keys. The 64-bit hash of a position is side[0].hash ^ rotl(side[1].hash, 29): each side's hash is
// the XOR of table entries for (point, count), bar, off, pins and flags, kept up to date
// incrementally, and the rotation tells the two sides apart. The exact key (PositionKey, 33 bytes)
// packs both sides' counts as nibbles and is what IDs and deduplication compare.
//
// Array row (for numpy batch calls), kRowBytes = 64 uint8 per position:
//   [0..23]   mover counts by the mover's route index
//   [24..47]  opponent counts by the opponent's route index
//   [48] mover bar  [49] opponent bar  [50] mover off  [51] opponent off
//   [52] player to move (0 white, 1 black)
//   [53] flags: bit 0 mover's first turn, bit 1 opponent's first turn
//   [54..56] mover pinned mask (little endian)  [57..59] opponent pinned mask
//   [60..63] zero
#pragma once

#include <array>
#include <cstdint>
#include <cstddef>
#include <cstring>
#include <string>

#include "tavli/types.h"

namespace tavli {

struct Zobrist {
  // point[r][count]: r = 0..23 board, 24 bar, 25 off; count 0..15 (entry 0 is zero).
  std::uint64_t point[26][16];
  std::uint64_t pinned[24];
  std::uint64_t first_turn;
  static const Zobrist& table();
};

// The table is computed at compile time from a fixed SplitMix64 stream, so hashes are identical on
// every platform and run, and the hot path reads a constant (no initialisation guard).
constexpr Zobrist make_zobrist() {
  Zobrist t{};
  std::uint64_t state = 0x7A76E11ull;
  auto next = [&state]() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  };
  for (auto& row : t.point) {
    row[0] = 0;
    for (int c = 1; c < 16; ++c) row[c] = next();
  }
  for (auto& p : t.pinned) p = next();
  t.first_turn = next();
  return t;
}
inline constexpr Zobrist kZobrist = make_zobrist();
inline const Zobrist& Zobrist::table() { return kZobrist; }

struct SideState {
  std::uint8_t n[24];
  std::uint8_t bar;
  std::uint8_t off;
  std::uint8_t flags;
  std::uint8_t pad;
  std::uint32_t occ;
  std::uint32_t pinned;
  std::uint64_t hash;

  static constexpr std::uint8_t kFirstTurn = 1;

  int on_board() const {
    int s = 0;
    for (int r = 0; r < 24; ++r) s += n[r];
    return s;
  }
  // Equal as checkers (the hash follows from the rest).
  bool same(const SideState& o) const {
    return std::memcmp(this, &o, offsetof(SideState, occ)) == 0 && pinned == o.pinned;
  }
  // Recomputes occ and hash from the counts (after building a side by hand).
  void refresh();

  // In-place moves used by the generator; they keep occ and hash in step.
  void remove(int r) {
    const int c = n[r];
    hash ^= Zobrist::table().point[r][c] ^ Zobrist::table().point[r][c - 1];
    n[r] = static_cast<std::uint8_t>(c - 1);
    if (c == 1) occ &= ~bit(r);
  }
  void add(int r) {
    const int c = n[r];
    hash ^= Zobrist::table().point[r][c] ^ Zobrist::table().point[r][c + 1];
    n[r] = static_cast<std::uint8_t>(c + 1);
    occ |= bit(r);
  }
  void add_off() {
    hash ^= Zobrist::table().point[25][off] ^ Zobrist::table().point[25][off + 1];
    ++off;
  }
  void remove_off() {
    hash ^= Zobrist::table().point[25][off] ^ Zobrist::table().point[25][off - 1];
    --off;
  }
};
static_assert(sizeof(SideState) == 48, "SideState layout is documented above");

using PositionKey = std::array<std::uint8_t, 33>;
constexpr int kRowBytes = 64;

struct Position {
  SideState side[2];

  SideState& own() { return side[0]; }
  SideState& opp() { return side[1]; }
  const SideState& own() const { return side[0]; }
  const SideState& opp() const { return side[1]; }

  void flip() {
    SideState t = side[0];
    side[0] = side[1];
    side[1] = t;
  }
  std::uint64_t hash() const { return side[0].hash ^ ((side[1].hash << 29) | (side[1].hash >> 35)); }
  bool operator==(const Position& o) const { return side[0].same(o.side[0]) && side[1].same(o.side[1]); }
  bool operator!=(const Position& o) const { return !(*this == o); }

  PositionKey key() const;
  static Position from_key(const PositionKey& key);  // no validation: keys come from key()

  // Both sides empty; fill n/bar/off/pinned/flags, then call refresh().
  static Position empty();
  void refresh() {
    side[0].refresh();
    side[1].refresh();
  }

  void to_row(std::uint8_t* row, Player to_move) const;
  // Reads a row without checking the rules of a game (callers validate): throws on counts that
  // cannot be stored at all (a count above 15).
  static Position from_row(const std::uint8_t* row, Player* to_move);
};

}  // namespace tavli
