#include "tavli/hit_features.h"

#include "tavli/types.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
// The AVX2 shot count needs GCC or Clang on x86 (target attributes, __builtin_cpu_supports).
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && !defined(TAVLI_NNET_NO_AVX2)
#define TAVLI_SHOTS_AVX2 1
#include <immintrin.h>
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

// The rolls that hit, from `from` over `open` onto `targets` (masks as in shots() below), counted
// one die pair per lane: the same reach as the scalar loop, eight rolls at a time with per-lane
// shifts. Lanes past the 15 non-double or the 6 double rolls shift by 32, which gives 0: no hit.
#ifdef TAVLI_SHOTS_AVX2
#define TAVLI_SHOTS_TARGET __attribute__((target("avx2")))

// Which of eight non-double rolls (a, b) hit (bit per lane).
TAVLI_SHOTS_TARGET inline int hitting_pairs(__m256i f, __m256i o, __m256i t, __m256i a, __m256i b) {
  const __m256i via_a = _mm256_and_si256(_mm256_sllv_epi32(f, a), o), via_b = _mm256_and_si256(_mm256_sllv_epi32(f, b), o);
  const __m256i two = _mm256_and_si256(_mm256_or_si256(_mm256_sllv_epi32(via_a, b), _mm256_sllv_epi32(via_b, a)), o);
  const __m256i reach = _mm256_or_si256(_mm256_or_si256(via_a, via_b), two);
  return ~_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_and_si256(reach, t), _mm256_setzero_si256()))) & 0xFF;
}

TAVLI_SHOTS_TARGET int shots_avx2(std::uint32_t from, std::uint32_t open, std::uint32_t targets) {
  const __m256i f = _mm256_set1_epi32(static_cast<int>(from)), o = _mm256_set1_epi32(static_cast<int>(open));
  const __m256i t = _mm256_set1_epi32(static_cast<int>(targets)), zero = _mm256_setzero_si256();
  const int low = hitting_pairs(f, o, t, _mm256_setr_epi32(1, 1, 1, 1, 1, 2, 2, 2), _mm256_setr_epi32(2, 3, 4, 5, 6, 3, 4, 5));
  const int high = hitting_pairs(f, o, t, _mm256_setr_epi32(2, 3, 3, 3, 4, 4, 5, 32), _mm256_setr_epi32(6, 4, 5, 6, 5, 6, 6, 32));
  const __m256i d = _mm256_setr_epi32(1, 2, 3, 4, 5, 6, 32, 32);
  __m256i at = _mm256_and_si256(_mm256_sllv_epi32(f, d), o), seen = at;
  for (int k = 1; k < 4; ++k) {
    at = _mm256_and_si256(_mm256_sllv_epi32(at, d), o);
    seen = _mm256_or_si256(seen, at);
  }
  const int doubles = ~_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_and_si256(seen, t), zero))) & 0xFF;
  return 2 * (__builtin_popcount(static_cast<unsigned>(low)) + __builtin_popcount(static_cast<unsigned>(high))) +
         __builtin_popcount(static_cast<unsigned>(doubles));
}

bool cpu_has_avx2() {
  static const bool has = __builtin_cpu_supports("avx2");
  return has;
}
#endif

}  // namespace

int shots(const SideState& me, const SideState& them) {
  // Everything in `them`'s route index, shifted up by one so that bit 0 is their bar (index -1):
  // a checker at index q moved d pips is bit (q + 1) << d. Landing past their last point is off
  // the board (never a hit), so masks are cut to bits 1..24.
  constexpr std::uint32_t kOnBoard = kBoardMask << 1;
  const std::uint32_t targets = reverse24(blot_points(me)) << 1;
  if (!targets) return 0;
  const std::uint32_t open = ~(reverse24(made_points(me)) << 1) & kOnBoard;
  const std::uint32_t from = (them.occ << 1) | (them.bar ? 1u : 0u);
#ifdef TAVLI_SHOTS_AVX2
  if (cpu_has_avx2()) return shots_avx2(from, open, targets);
#endif
  // via[d]: where a checker lands with one die d (blots are open points, so a hit shows up here).
  std::uint32_t via[7];
  for (int d = 1; d <= 6; ++d) via[d] = (from << d) & open;
  // Branch-free (which rolls hit is data that a branch predictor cannot learn): every test is
  // computed and counted as 0 or 1.
  int count = 0;
  for (int a = 1; a <= 6; ++a) {
    // a-a: up to four steps of a, each landing on an open point.
    std::uint32_t at = via[a], seen = at;
    for (int k = 1; k < 4; ++k) {
      at = (at << a) & open;
      seen |= at;
    }
    count += (seen & targets) != 0;
    for (int b = a + 1; b <= 6; ++b) {
      const std::uint32_t reach = via[a] | via[b] | (((via[a] << b) | (via[b] << a)) & open);
      count += 2 * ((reach & targets) != 0);
    }
  }
  return count;
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
