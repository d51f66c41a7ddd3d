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
//     hash     additive hash of this side alone (see Keys below)
//
// Keys. The 64-bit hash of a position is side[0].hash ^ rotl(side[1].hash, 29): each side's hash is
// additive over its checkers, pins and flags (HashKeys below), kept up to date incrementally, and
// the rotation tells the two sides apart. The exact key (PositionKey, 33 bytes)
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

// Hash keys. A side's hash is additive: the sum (mod 2^64) of count * key over points, bar and
// off, plus a key per pinned point and one for the first-turn flag. A step then costs one add and
// one subtract, whatever the counts; distinct positions collide only if a small integer
// combination of the random 64-bit keys vanishes, about 2^-64 per pair (and deduplication always
// confirms with an exact comparison).
struct HashKeys {
  std::uint64_t point[26];  // 0..23 board, 24 bar, 25 off
  std::uint64_t pinned[24];
  std::uint64_t first_turn;
};

// Computed at compile time from a fixed SplitMix64 stream, so hashes are identical on every
// platform and run, and the hot path reads constants.
constexpr HashKeys make_hash_keys() {
  HashKeys t{};
  std::uint64_t state = 0x7A76E11ull;
  auto next = [&state]() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  };
  for (auto& k : t.point) k = next();
  for (auto& k : t.pinned) k = next();
  t.first_turn = next();
  return t;
}
inline constexpr HashKeys kHashKeys = make_hash_keys();


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
    hash -= kHashKeys.point[r];
    if (--n[r] == 0) occ &= ~bit(r);
  }
  void add(int r) {
    hash += kHashKeys.point[r];
    ++n[r];
    occ |= bit(r);
  }
  void add_off() {
    hash += kHashKeys.point[25];
    ++off;
  }
  void remove_off() {
    hash -= kHashKeys.point[25];
    --off;
  }
  void add_bar() {
    hash += kHashKeys.point[24];
    ++bar;
  }
  void remove_bar() {
    hash -= kHashKeys.point[24];
    --bar;
  }
  void set_pin(int r) {
    hash += kHashKeys.pinned[r];
    pinned |= bit(r);
  }
  void clear_pin(int r) {
    hash -= kHashKeys.pinned[r];
    pinned &= ~bit(r);
  }
  void clear_first_turn() {
    if (flags & kFirstTurn) {
      hash -= kHashKeys.first_turn;
      flags = static_cast<std::uint8_t>(flags & ~kFirstTurn);
    }
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
