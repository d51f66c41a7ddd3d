#include "tavli/structure_features.h"

#include <cmath>

#include "tavli/contact_features.h"
#include "tavli/hit_features.h"
#include "tavli/types.h"

namespace tavli {

int containment(const SideState& blocker) {
  const std::uint64_t blocks = blocks_ahead_mask(blocker);
  int fewest = 36;
  for (int r = -1; r <= 9 && fewest > 0; ++r) {
    const int e = escapes_ahead(blocks >> (r + 1));
    if (e < fewest) fewest = e;
  }
  return 36 - fewest;
}

int escape_sum(const SideState& me, const SideState& them, int* checkers) {
  const std::uint64_t blocks = blocks_ahead_mask(them);
  int sum = me.bar ? me.bar * escapes_ahead(blocks) : 0, count = me.bar;
  for (std::uint32_t m = me.occ & 0x3FFFFu; m; m &= m - 1) {  // occupied points r < 18
    const int r = __builtin_ctz(m);
    sum += me.n[r] * escapes_ahead(blocks >> (r + 1));
    count += me.n[r];
  }
  *checkers = count;
  return sum;
}

namespace {
// The point of `me`'s route just past `them`'s rearmost checker: `me`'s checkers below it are
// still in contact. Their checker on r' is my 23 - r'; one on the bar (r' = -1) is my 24, so every
// checker of mine is behind it. 0 when `them` has nothing on the board or the bar.
int contact_line(const SideState& them) {
  if (them.bar) return 25;
  if (!them.occ) return 0;
  const int rear_them = __builtin_ctz(them.occ);
  return 24 - rear_them;
}
}  // namespace

int contact_pips(const SideState& me, const SideState& them) {
  const int line = contact_line(them);
  int pips = me.bar ? me.bar * (line + 1) : 0;  // from r = -1 to r = line
  for (int r = 0; r < line && r < kPoints; ++r) pips += me.n[r] * (line - r);
  return pips;
}

int free_pips(const SideState& me, const SideState& them) {
  int pips = 0;
  for (int r = contact_line(them); r < kPoints; ++r) pips += me.n[r] * (kPoints - r);
  return pips;
}

int closed_entry_points(const SideState& them) { return popcount(made_points(them) & kHomeMask); }

int rear_anchor(const SideState& me) {
  const std::uint32_t m = made_points(me) & 0xFFFu;
  return m ? __builtin_ctz(m) : -1;
}

int forward_anchor(const SideState& me) {
  const std::uint32_t m = made_points(me) & 0xFFFu;
  return m ? 31 - __builtin_clz(m) : -1;
}

int home_anchors(const SideState& me) { return popcount(made_points(me) & 0x3Fu); }

float spread(const SideState& me) {
  int count = me.bar, sum = -me.bar, sq = me.bar;
  for (int r = 0; r < kPoints; ++r) {
    count += me.n[r];
    sum += me.n[r] * r;
    sq += me.n[r] * r * r;
  }
  if (count < 2) return 0.0f;
  const double mean = static_cast<double>(sum) / count;
  const double var = static_cast<double>(sq) / count - mean * mean;
  return static_cast<float>(std::sqrt(var > 0.0 ? var : 0.0));
}

float* encode_structure_features(const Position& pos, float* o) {
  for (int s = 0; s < 2; ++s) {
    const SideState &me = pos.side[s], &them = pos.side[1 - s];
    const float contain = containment(me) / 36.0f;
    *o++ = contain;
    *o++ = contain * contain;
    int checkers = 0;
    const int esc = escape_sum(me, them, &checkers);
    *o++ = checkers ? esc / (36.0f * checkers) : 1.0f;
    *o++ = contact_pips(me, them) / 167.0f;
    *o++ = free_pips(me, them) / 167.0f;
    const int closed = closed_entry_points(them);
    *o++ = me.bar ? closed * closed / 36.0f : 0.0f;
    *o++ = (rear_anchor(me) + 1) / 12.0f;  // 0: none; the deeper, the smaller
    *o++ = (forward_anchor(me) + 1) / 12.0f;
    *o++ = home_anchors(me) / 3.0f;
    *o++ = spread(me) / 12.0f;
  }
  return o;
}

}  // namespace tavli
