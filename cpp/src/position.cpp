#include "tavli/position.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>


namespace tavli {

void SideState::refresh() {
  // Accumulated in locals: n is uint8_t, which may alias any member, so updating occ and hash in
  // place made every iteration a load and a store (and a branch on n[r]).
  const HashKeys& k = kHashKeys;
  std::uint32_t o = 0;
  std::uint64_t h = bar * k.point[24] + off * k.point[25];
  for (int r = 0; r < 24; ++r) {
    o |= static_cast<std::uint32_t>(n[r] != 0) << r;
    h += n[r] * k.point[r];
  }
  for (std::uint32_t m = pinned & kBoardMask; m; m &= m - 1) h += k.pinned[lowest_bit(m)];
  if (flags & kFirstTurn) h += k.first_turn;
  occ = o;
  pad = 0;
  hash = h;
}

Position Position::empty() {
  Position p;
  std::memset(&p, 0, sizeof p);  // all zero is already consistent: no checkers, occ 0, hash 0
  return p;
}

PositionKey Position::key() const {
  PositionKey k{};
  for (int s = 0; s < 2; ++s) {
    const SideState& st = side[s];
    std::uint8_t* b = k.data() + 16 * s;
    for (int r = 0; r < 24; r += 2) b[r / 2] = static_cast<std::uint8_t>(st.n[r] | (st.n[r + 1] << 4));
    b[12] = static_cast<std::uint8_t>(st.bar | (st.off << 4));
    b[13] = static_cast<std::uint8_t>(st.pinned);
    b[14] = static_cast<std::uint8_t>(st.pinned >> 8);
    b[15] = static_cast<std::uint8_t>(st.pinned >> 16);
    k[32] |= static_cast<std::uint8_t>((st.flags & SideState::kFirstTurn) << s);
  }
  return k;
}

Position Position::from_key(const PositionKey& k) {
  Position p = empty();
  for (int s = 0; s < 2; ++s) {
    SideState& st = p.side[s];
    const std::uint8_t* b = k.data() + 16 * s;
    for (int r = 0; r < 24; r += 2) {
      st.n[r] = b[r / 2] & 15;
      st.n[r + 1] = b[r / 2] >> 4;
    }
    st.bar = b[12] & 15;
    st.off = b[12] >> 4;
    st.pinned = b[13] | (b[14] << 8) | (static_cast<std::uint32_t>(b[15]) << 16);
    st.flags = (k[32] >> s) & 1;
  }
  p.refresh();
  return p;
}

void Position::to_row(std::uint8_t* row, Player to_move) const {
  std::memset(row, 0, kRowBytes);
  for (int s = 0; s < 2; ++s) {
    const SideState& st = side[s];
    std::memcpy(row + 24 * s, st.n, 24);
    row[48 + s] = st.bar;
    row[50 + s] = st.off;
    row[53] |= static_cast<std::uint8_t>((st.flags & SideState::kFirstTurn) << s);
    row[54 + 3 * s] = static_cast<std::uint8_t>(st.pinned);
    row[55 + 3 * s] = static_cast<std::uint8_t>(st.pinned >> 8);
    row[56 + 3 * s] = static_cast<std::uint8_t>(st.pinned >> 16);
  }
  row[52] = static_cast<std::uint8_t>(to_move);
}

Position Position::from_row(const std::uint8_t* row, Player* to_move) {
  // The checks are folded into one maximum per field so that the loops have no branches (bulk
  // calls decode every row: this is a quarter of a 0-ply bulk evaluation's time otherwise).
  std::uint8_t point_max = 0, reserved = 0;
  for (int i = 0; i < 48; ++i) point_max = std::max(point_max, row[i]);
  for (int i = 60; i < kRowBytes; ++i) reserved |= row[i];
  if (point_max > kCheckers) throw std::invalid_argument("position row: more than 15 checkers on one point");
  if (std::max({row[48], row[49], row[50], row[51]}) > kCheckers)
    throw std::invalid_argument("position row: bar or off count above 15");
  if (row[52] > 1) throw std::invalid_argument("position row: player to move must be 0 or 1");
  if (row[53] & ~3u) throw std::invalid_argument("position row: unknown flag bits in byte 53");
  if (reserved) throw std::invalid_argument("position row: reserved bytes 60..63 must be zero");
  Position p = empty();
  for (int s = 0; s < 2; ++s) {
    SideState& st = p.side[s];
    std::memcpy(st.n, row + 24 * s, 24);
    st.bar = row[48 + s];
    st.off = row[50 + s];
    st.flags = (row[53] >> s) & 1;
    st.pinned = row[54 + 3 * s] | (row[55 + 3 * s] << 8) | (static_cast<std::uint32_t>(row[56 + 3 * s]) << 16);
  }
  if (to_move) *to_move = static_cast<Player>(row[52]);
  p.refresh();
  return p;
}

}  // namespace tavli
