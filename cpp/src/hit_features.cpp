#include "tavli/hit_features.h"

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
  int pips = 25 * s.bar;
  for (int r = 0; r < kPoints; ++r) pips += s.n[r] * (kPoints - r);
  return pips;
}

int shots(const SideState& me, const SideState& them) {
  // Everything in `them`'s route index, shifted up by one so that bit 0 is their bar (index -1):
  // a checker at index q moved d pips is bit (q + 1) << d. Landing past their last point is off
  // the board (never a hit), so masks are cut to bits 1..24.
  constexpr std::uint32_t kOnBoard = kBoardMask << 1;
  const std::uint32_t targets = reverse24(blot_points(me)) << 1;
  if (!targets) return 0;
  const std::uint32_t open = ~(reverse24(made_points(me)) << 1) & kOnBoard;
  const std::uint32_t from = (them.occ << 1) | (them.bar ? 1u : 0u);
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
