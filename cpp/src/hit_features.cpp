#include "tavli/hit_features.h"

#include "tavli/simd.h"
#include "tavli/types.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace tavli {
namespace {

// Masks of one side in its own route index (bit r): points made (2+ checkers), blots (1).
#if defined(__SSE2__)
// Two overlapping 16-byte loads cover the 24 counts (n[0..15], n[8..23]; counts are <= 15, so
// signed byte compares are exact).
inline std::uint32_t count_mask(const SideState& s, bool made) {
  const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.n));
  const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.n + 8));
  const __m128i one = _mm_set1_epi8(1);
  const __m128i a = made ? _mm_cmpgt_epi8(lo, one) : _mm_cmpeq_epi8(lo, one);
  const __m128i b = made ? _mm_cmpgt_epi8(hi, one) : _mm_cmpeq_epi8(hi, one);
  const auto mlo = static_cast<std::uint32_t>(_mm_movemask_epi8(a));
  const auto mhi = static_cast<std::uint32_t>(_mm_movemask_epi8(b));
  return mlo | ((mhi >> 8) << 16);
}
#else
inline std::uint32_t count_mask(const SideState& s, bool made) {
  std::uint32_t m = 0;
  for (int r = 0; r < kPoints; ++r) m |= static_cast<std::uint32_t>(made ? s.n[r] >= 2 : s.n[r] == 1) << r;
  return m;
}
#endif
// The rearmost checker's route index: -1 on the bar, 24 when none is left on the board.
int rearmost(const SideState& s) {
  if (s.bar) return -1;
  return s.occ ? __builtin_ctz(s.occ) : kPoints;
}

}  // namespace

std::uint32_t made_points(const SideState& s) { return count_mask(s, true); }

std::uint32_t blot_points(const SideState& s) { return count_mask(s, false); }

int pip_count(const SideState& s) {
#if defined(__SSE2__)
  // The 24 products n[r] * (24 - r) as 16-bit lanes, summed in pairs to 32 bits (exact integers:
  // the same count as the loop below, without its 24 dependent steps).
  const __m128i zero = _mm_setzero_si128();
  const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.n));
  const __m128i hi = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(s.n + 16));
  __m128i sum = _mm_madd_epi16(_mm_unpacklo_epi8(lo, zero), _mm_setr_epi16(24, 23, 22, 21, 20, 19, 18, 17));
  sum = _mm_add_epi32(sum, _mm_madd_epi16(_mm_unpackhi_epi8(lo, zero), _mm_setr_epi16(16, 15, 14, 13, 12, 11, 10, 9)));
  sum = _mm_add_epi32(sum, _mm_madd_epi16(_mm_unpacklo_epi8(hi, zero), _mm_setr_epi16(8, 7, 6, 5, 4, 3, 2, 1)));
  sum = _mm_add_epi32(sum, _mm_shuffle_epi32(sum, _MM_SHUFFLE(1, 0, 3, 2)));
  sum = _mm_add_epi32(sum, _mm_shuffle_epi32(sum, _MM_SHUFFLE(2, 3, 0, 1)));
  return 25 * s.bar + _mm_cvtsi128_si32(sum);
#else
  int pips = 25 * s.bar;
  for (int r = 0; r < kPoints; ++r) pips += s.n[r] * (kPoints - r);
  return pips;
#endif
}

namespace {

// One walk over the rolls serves shots() and hit_counts(). Everything is in `them`'s route index,
// shifted up by one so that bit 0 is their bar (index -1): a checker at index q moved d pips is
// bit (q + 1) << d. Landing past their last point is off the board (never a hit), so masks are
// cut to bits 1..24.
struct HitMasks {
  std::uint32_t from, open, targets;  // their checkers, the points I have not made, my blots
};

HitMasks hit_masks(const SideState& me, const SideState& them) {
  return {(them.occ << 1) | (them.bar ? 1u : 0u), ~(reverse24(made_points(me)) << 1) & (kBoardMask << 1),
          reverse24(blot_points(me)) << 1};
}

// The blots each roll (a, b) reaches: directly with one die, or through an open point (a
// double: up to four steps), passed to f(hit mask, weight: 2 for a non-double). Without
// branches on the dice: whether a roll hits is as random as the dice, and mispredicted jumps
// cost more than the arithmetic.
template <typename F>
void for_each_roll_hits(const HitMasks& m, F&& f) {
  std::uint32_t via[7];  // where one die d lands (blots are open points, so a hit shows up here)
  for (int d = 1; d <= 6; ++d) via[d] = (m.from << d) & m.open;
  for (int a = 1; a <= 6; ++a) {
    std::uint32_t reach = 0, at = via[a];
    for (int k = 0; k < 4; ++k) reach |= at, at = (at << a) & m.open;  // once blocked, `at` stays 0
    f(reach & m.targets, 1);
    for (int b = a + 1; b <= 6; ++b)
      f((via[a] | via[b] | (((via[a] << b) | (via[b] << a)) & m.open)) & m.targets, 2);
  }
}

int shots_scalar(const HitMasks& m) {
  int count = 0;
  for_each_roll_hits(m, [&](std::uint32_t hit, int w) { count += w * (hit != 0); });
  return count;
}

HitCounts hit_counts_scalar(const HitMasks& m) {
  HitCounts c;
  for_each_roll_hits(m, [&](std::uint32_t hit, int w) {
    c.shots += w * (hit != 0);
    c.double_shots += w * ((hit & (hit - 1)) != 0);  // two or more blots
    // Bit j of `them`'s index + 1 is my r = 24 - j, which loses r + 1 = 25 - j pips: the lowest
    // bit is my most advanced blot, the worst loss (no hit: the sentinel bit 25, no loss).
    c.pip_loss += w * (25 - __builtin_ctz(hit | (1u << 25)));
  });
  return c;
}

// The same walk one roll per 32-bit lane, eight rolls at a time with per-lane shifts: the 15
// non-double rolls in two vectors, the 6 doubles in a third. Lanes past them shift by 32, which
// gives 0 (no hit), and weigh 0.
#ifdef TAVLI_X86_SIMD
#define TAVLI_SHOTS_TARGET __attribute__((target("avx2")))

struct RollHits {
  __m256i pairs_low, pairs_high, doubles;  // each lane: the blots its roll hits
};

// The blots eight non-double rolls (a, b) hit.
TAVLI_SHOTS_TARGET inline __m256i pair_hits(__m256i f, __m256i o, __m256i t, __m256i a, __m256i b) {
  const __m256i via_a = _mm256_and_si256(_mm256_sllv_epi32(f, a), o), via_b = _mm256_and_si256(_mm256_sllv_epi32(f, b), o);
  const __m256i two = _mm256_and_si256(_mm256_or_si256(_mm256_sllv_epi32(via_a, b), _mm256_sllv_epi32(via_b, a)), o);
  return _mm256_and_si256(_mm256_or_si256(_mm256_or_si256(via_a, via_b), two), t);
}

TAVLI_SHOTS_TARGET inline RollHits roll_hits(const HitMasks& m) {
  const __m256i f = _mm256_set1_epi32(static_cast<int>(m.from)), o = _mm256_set1_epi32(static_cast<int>(m.open));
  const __m256i t = _mm256_set1_epi32(static_cast<int>(m.targets));
  const __m256i d = _mm256_setr_epi32(1, 2, 3, 4, 5, 6, 32, 32);
  __m256i at = _mm256_and_si256(_mm256_sllv_epi32(f, d), o), seen = at;
  for (int k = 1; k < 4; ++k) {
    at = _mm256_and_si256(_mm256_sllv_epi32(at, d), o);
    seen = _mm256_or_si256(seen, at);
  }
  return {pair_hits(f, o, t, _mm256_setr_epi32(1, 1, 1, 1, 1, 2, 2, 2), _mm256_setr_epi32(2, 3, 4, 5, 6, 3, 4, 5)),
          pair_hits(f, o, t, _mm256_setr_epi32(2, 3, 3, 3, 4, 4, 5, 32), _mm256_setr_epi32(6, 4, 5, 6, 5, 6, 6, 32)),
          _mm256_and_si256(seen, t)};
}

// The lanes that hit at least one blot (a bit each).
TAVLI_SHOTS_TARGET inline unsigned hitting_lanes(__m256i hit) {
  return static_cast<unsigned>(~_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(hit, _mm256_setzero_si256())))) &
         0xFFu;
}

TAVLI_SHOTS_TARGET inline int shots_of(const RollHits& h) {
  return 2 * (__builtin_popcount(hitting_lanes(h.pairs_low)) + __builtin_popcount(hitting_lanes(h.pairs_high))) +
         __builtin_popcount(hitting_lanes(h.doubles));
}

TAVLI_SHOTS_TARGET int shots_avx2(const HitMasks& m) { return shots_of(roll_hits(m)); }

// Adds the lanes' counts to `c`: weight w where a lane hits two or more blots, and w times the
// loss 25 - j for its lowest hit bit j (found as the exponent of that bit converted to float,
// exact for a power of two; no hit: no loss). Both sums fit one 32-bit total: the losses (at most
// 8 x 2 x 24) in the low 16 bits, the double shots above.
TAVLI_SHOTS_TARGET inline void add_hits(__m256i hit, __m256i w, HitCounts& c) {
  const __m256i zero = _mm256_setzero_si256(), ones = _mm256_set1_epi32(-1);
  const __m256i several = _mm256_andnot_si256(
      _mm256_cmpeq_epi32(_mm256_and_si256(hit, _mm256_add_epi32(hit, ones)), zero), ones);
  const __m256i any = _mm256_andnot_si256(_mm256_cmpeq_epi32(hit, zero), ones);
  const __m256i lowest = _mm256_and_si256(hit, _mm256_sub_epi32(zero, hit));
  const __m256i bit = _mm256_sub_epi32(_mm256_srli_epi32(_mm256_castps_si256(_mm256_cvtepi32_ps(lowest)), 23),
                                       _mm256_set1_epi32(127));
  const __m256i loss = _mm256_and_si256(_mm256_sub_epi32(_mm256_set1_epi32(25), bit), any);
  const __m256i sum = _mm256_add_epi32(_mm256_mullo_epi32(loss, w), _mm256_slli_epi32(_mm256_and_si256(several, w), 16));
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, _MM_SHUFFLE(1, 0, 3, 2)));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, _MM_SHUFFLE(2, 3, 0, 1)));
  const int total = _mm_cvtsi128_si32(s);
  c.pip_loss += total & 0xFFFF;
  c.double_shots += total >> 16;
}

TAVLI_SHOTS_TARGET HitCounts hit_counts_avx2(const HitMasks& m) {
  const RollHits h = roll_hits(m);
  HitCounts c;
  add_hits(h.pairs_low, _mm256_set1_epi32(2), c);
  add_hits(h.pairs_high, _mm256_setr_epi32(2, 2, 2, 2, 2, 2, 2, 0), c);
  add_hits(h.doubles, _mm256_setr_epi32(1, 1, 1, 1, 1, 1, 0, 0), c);
  c.shots = shots_of(h);
  return c;
}
#endif

}  // namespace

int shots(const SideState& me, const SideState& them) {
  const HitMasks m = hit_masks(me, them);
  if (!m.targets) return 0;  // no blot: no roll hits
#ifdef TAVLI_X86_SIMD
  if (simd::has_avx2()) return shots_avx2(m);
#endif
  return shots_scalar(m);
}

HitCounts hit_counts_on_masks(std::uint32_t from, std::uint32_t open, std::uint32_t targets) {
  const HitMasks m{from, open & (kBoardMask << 1), targets};
  if (!m.targets) return {};
#ifdef TAVLI_X86_SIMD
  if (simd::has_avx2()) return hit_counts_avx2(m);
#endif
  return hit_counts_scalar(m);
}

HitCounts hit_counts(const SideState& me, const SideState& them) {
  const HitMasks m = hit_masks(me, them);
  return hit_counts_on_masks(m.from, m.open, m.targets);
}

int trapping_prime(const SideState& me, const SideState& them) {
  const int rear = rearmost(me);
  if (rear >= kPoints) return 0;
  // Their made points in my route index, only those ahead of my rearmost checker.
  std::uint32_t m = reverse24(made_points(them));
  m &= rear < 0 ? kBoardMask : (kBoardMask & ~((2u << rear) - 1));
  int longest = 0;
  while (m) {  // each pass shortens every run by one
    m &= m << 1;
    ++longest;
  }
  return longest;
}

}  // namespace tavli
