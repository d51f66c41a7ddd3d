#include "tavli/structure_features.h"

#include <algorithm>
#include <cmath>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "tavli/contact_features.h"
#include "tavli/hit_features.h"
#include "tavli/types.h"

namespace tavli {

int containment(const SideState& blocker) {
  const EscapeCounts e = escape_counts(blocks_ahead_mask(blocker));
  int fewest = 36;
  for (int s = 0; s <= 10; ++s) fewest = std::min(fewest, static_cast<int>(e.from[s]));  // r = -1 .. 9
  return 36 - fewest;
}

int escape_sum(const SideState& me, const SideState& them, int* checkers) {
  const EscapeCounts e = escape_counts(blocks_ahead_mask(them));
  int sum = me.bar * e.from[0], count = me.bar;
  for (std::uint32_t m = me.occ & 0x3FFFFu; m; m &= m - 1) {  // occupied points r < 18
    const int r = __builtin_ctz(m);
    sum += me.n[r] * e.from[r + 1];
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

// Sums over `s`'s checkers on the board (not the bar) by route index r: how many, the sum of r and
// of r * r, and the count and sum of r of those below `line` (r < line). Exact integers; one pass
// serves contact_pips, free_pips and spread.
struct RouteSums {
  int count, sum, sq, count_below, sum_below;
};

#if defined(__SSE2__)
inline int hsum32(__m128i v) {
  v = _mm_add_epi32(v, _mm_shuffle_epi32(v, _MM_SHUFFLE(1, 0, 3, 2)));
  v = _mm_add_epi32(v, _mm_shuffle_epi32(v, _MM_SHUFFLE(2, 3, 0, 1)));
  return _mm_cvtsi128_si32(v);
}

// The counts as three blocks of eight 16-bit lanes (r = 8k..8k+7), each product summed in pairs to
// 32 bits by madd (n <= 15, r * r <= 529: no overflow).
RouteSums route_sums(const SideState& s, int line) {
  const __m128i zero = _mm_setzero_si128(), ones = _mm_set1_epi16(1);
  const __m128i limit = _mm_set1_epi16(static_cast<short>(line));
  const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.n));
  const __m128i hi = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(s.n + 16));
  const __m128i blocks[3] = {_mm_unpacklo_epi8(lo, zero), _mm_unpackhi_epi8(lo, zero), _mm_unpacklo_epi8(hi, zero)};
  __m128i count = zero, sum = zero, sq = zero, count_below = zero, sum_below = zero;
  __m128i r = _mm_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7);
  for (const __m128i n : blocks) {
    const __m128i below = _mm_and_si128(n, _mm_cmplt_epi16(r, limit));
    count = _mm_add_epi32(count, _mm_madd_epi16(n, ones));
    sum = _mm_add_epi32(sum, _mm_madd_epi16(n, r));
    sq = _mm_add_epi32(sq, _mm_madd_epi16(n, _mm_mullo_epi16(r, r)));
    count_below = _mm_add_epi32(count_below, _mm_madd_epi16(below, ones));
    sum_below = _mm_add_epi32(sum_below, _mm_madd_epi16(below, r));
    r = _mm_add_epi16(r, _mm_set1_epi16(8));
  }
  return {hsum32(count), hsum32(sum), hsum32(sq), hsum32(count_below), hsum32(sum_below)};
}
#else
RouteSums route_sums(const SideState& s, int line) {
  RouteSums t{0, 0, 0, 0, 0};
  for (int r = 0; r < kPoints; ++r) {
    t.count += s.n[r];
    t.sum += s.n[r] * r;
    t.sq += s.n[r] * r * r;
    if (r < line) t.count_below += s.n[r], t.sum_below += s.n[r] * r;
  }
  return t;
}
#endif

// From r = -1 (the bar) or r < line to r = line.
int contact_pips_of(const SideState& me, int line, const RouteSums& t) {
  return me.bar * (line + 1) + line * t.count_below - t.sum_below;
}
// From r >= line off the board (r -> 24).
int free_pips_of(const RouteSums& t) {
  return kPoints * (t.count - t.count_below) - (t.sum - t.sum_below);
}
float spread_of(const SideState& me, const RouteSums& t) {
  const int count = me.bar + t.count, sum = t.sum - me.bar, sq = t.sq + me.bar;  // the bar is r = -1
  if (count < 2) return 0.0f;
  const double mean = static_cast<double>(sum) / count;
  const double var = static_cast<double>(sq) / count - mean * mean;
  return static_cast<float>(std::sqrt(var > 0.0 ? var : 0.0));
}
}  // namespace

int contact_pips(const SideState& me, const SideState& them) {
  const int line = contact_line(them);
  return contact_pips_of(me, line, route_sums(me, line));
}

int free_pips(const SideState& me, const SideState& them) { return free_pips_of(route_sums(me, contact_line(them))); }

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

float spread(const SideState& me) { return spread_of(me, route_sums(me, 0)); }

float* encode_structure_features(const Position& pos, float* o) {
  for (int s = 0; s < 2; ++s) {
    const SideState &me = pos.side[s], &them = pos.side[1 - s];
    const float contain = containment(me) / 36.0f;
    *o++ = contain;
    *o++ = contain * contain;
    int checkers = 0;
    const int esc = escape_sum(me, them, &checkers);
    *o++ = checkers ? esc / (36.0f * checkers) : 1.0f;
    const int line = contact_line(them);
    const RouteSums sums = route_sums(me, line);
    *o++ = contact_pips_of(me, line, sums) / 167.0f;
    *o++ = free_pips_of(sums) / 167.0f;
    const int closed = closed_entry_points(them);
    *o++ = me.bar ? closed * closed / 36.0f : 0.0f;
    *o++ = (rear_anchor(me) + 1) / 12.0f;  // 0: none; the deeper, the smaller
    *o++ = (forward_anchor(me) + 1) / 12.0f;
    *o++ = home_anchors(me) / 3.0f;
    *o++ = spread_of(me, sums) / 12.0f;
  }
  return o;
}

}  // namespace tavli
