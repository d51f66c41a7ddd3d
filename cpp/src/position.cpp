#include "tavli/position.h"

#include <stdexcept>


namespace tavli {

void SideState::refresh() {
  const HashKeys& k = kHashKeys;
  occ = 0;
  pad = 0;
  hash = bar * k.point[24] + off * k.point[25];
  for (int r = 0; r < 24; ++r) {
    if (n[r]) occ |= bit(r);
    hash += n[r] * k.point[r];
  }
  for (int r = 0; r < 24; ++r)
    if (pinned & bit(r)) hash += k.pinned[r];
  if (flags & kFirstTurn) hash += k.first_turn;
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
  Position p = empty();
  for (int s = 0; s < 2; ++s) {
    SideState& st = p.side[s];
    for (int r = 0; r < 24; ++r) {
      if (row[24 * s + r] > kCheckers)
        throw std::invalid_argument("position row: more than 15 checkers on one point");
      st.n[r] = row[24 * s + r];
    }
    if (row[48 + s] > kCheckers || row[50 + s] > kCheckers)
      throw std::invalid_argument("position row: bar or off count above 15");
    st.bar = row[48 + s];
    st.off = row[50 + s];
    st.flags = (row[53] >> s) & 1;
    st.pinned = row[54 + 3 * s] | (row[55 + 3 * s] << 8) | (static_cast<std::uint32_t>(row[56 + 3 * s]) << 16);
  }
  if (row[52] > 1) throw std::invalid_argument("position row: player to move must be 0 or 1");
  if (row[53] & ~3u) throw std::invalid_argument("position row: unknown flag bits in byte 53");
  for (int i = 60; i < kRowBytes; ++i)
    if (row[i]) throw std::invalid_argument("position row: reserved bytes 60..63 must be zero");
  if (to_move) *to_move = static_cast<Player>(row[52]);
  p.refresh();
  return p;
}

}  // namespace tavli
