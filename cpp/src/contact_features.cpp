#include "tavli/contact_features.h"

#include "tavli/hit_features.h"
#include "tavli/types.h"

// The AVX2 walk over the rolls needs GCC or Clang on x86 (target attributes, __builtin_cpu_supports).
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && !defined(TAVLI_NNET_NO_AVX2)
#define TAVLI_HITS_AVX2 1
#include <immintrin.h>
#endif

namespace tavli {
namespace {

// double_shots() and pip_loss_sum() in one walk over the rolls (the encoder wants both).
struct HitCounts {
  int double_shots = 0, pip_loss = 0;
};

// The masks of one walk, in `them`'s route index + 1 (bit 0 their bar): where their checkers
// start, the points open to them (not made by `me`) and `me`'s blots.
struct HitMasks {
  std::uint32_t from, open, targets;
};

// The blots of `me` that `them` reaches with each roll (a, b): directly with one die, or through
// an open point (a double: up to four steps), passed to f(hit mask, weight: 2 for a non-double).
// Without branches on the dice: whether a roll hits is as random as the dice, and mispredicted
// jumps cost more than the arithmetic.
template <typename F>
void for_each_roll_targets(const HitMasks& m, F&& f) {
  std::uint32_t via[7];  // where one die d lands
  for (int d = 1; d <= 6; ++d) via[d] = (m.from << d) & m.open;
  for (int a = 1; a <= 6; ++a) {
    std::uint32_t reach = 0, at = via[a];
    for (int k = 0; k < 4; ++k) reach |= at, at = (at << a) & m.open;  // once blocked, `at` stays 0
    f(reach & m.targets, 1);
    for (int b = a + 1; b <= 6; ++b)
      f((via[a] | via[b] | (((via[a] << b) | (via[b] << a)) & m.open)) & m.targets, 2);
  }
}

HitCounts hit_counts_scalar(const HitMasks& m) {
  HitCounts c;
  for_each_roll_targets(m, [&](std::uint32_t hit, int w) {
    c.double_shots += w * ((hit & (hit - 1)) != 0);  // two or more blots
    // Bit j of `them`'s index + 1 is my r = 24 - j, which loses r + 1 = 25 - j pips: the lowest
    // bit is my most advanced blot, the worst loss (no hit: the sentinel bit 25, no loss).
    c.pip_loss += w * (25 - __builtin_ctz(hit | (1u << 25)));
  });
  return c;
}

#ifdef TAVLI_HITS_AVX2
#define TAVLI_HITS_TARGET __attribute__((target("avx2")))

// The same walk, one roll per 32-bit lane (as shots() in hit_features.cpp). Lanes past the 15
// non-double or the 6 double rolls shift by 32, which gives 0 (no hit), and weigh 0.

// Adds the lanes' counts to `c`: weight w where a lane hits two or more blots, and w times the
// loss 25 - j for its lowest hit bit j (found as the exponent of that bit converted to float,
// exact for a power of two; no hit: no loss). Both sums fit one 32-bit total: the losses (at most
// 8 x 2 x 24) in the low 16 bits, the double shots above.
TAVLI_HITS_TARGET inline void add_hits(__m256i hit, __m256i w, HitCounts& c) {
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

// The blots eight non-double rolls (a, b) hit.
TAVLI_HITS_TARGET inline __m256i pair_hits(__m256i f, __m256i o, __m256i t, __m256i a, __m256i b) {
  const __m256i via_a = _mm256_and_si256(_mm256_sllv_epi32(f, a), o), via_b = _mm256_and_si256(_mm256_sllv_epi32(f, b), o);
  const __m256i two = _mm256_and_si256(_mm256_or_si256(_mm256_sllv_epi32(via_a, b), _mm256_sllv_epi32(via_b, a)), o);
  return _mm256_and_si256(_mm256_or_si256(_mm256_or_si256(via_a, via_b), two), t);
}

TAVLI_HITS_TARGET HitCounts hit_counts_avx2(const HitMasks& m) {
  const __m256i f = _mm256_set1_epi32(static_cast<int>(m.from)), o = _mm256_set1_epi32(static_cast<int>(m.open));
  const __m256i t = _mm256_set1_epi32(static_cast<int>(m.targets));
  HitCounts c;
  add_hits(pair_hits(f, o, t, _mm256_setr_epi32(1, 1, 1, 1, 1, 2, 2, 2), _mm256_setr_epi32(2, 3, 4, 5, 6, 3, 4, 5)),
           _mm256_set1_epi32(2), c);
  add_hits(pair_hits(f, o, t, _mm256_setr_epi32(2, 3, 3, 3, 4, 4, 5, 32), _mm256_setr_epi32(6, 4, 5, 6, 5, 6, 6, 32)),
           _mm256_setr_epi32(2, 2, 2, 2, 2, 2, 2, 0), c);
  const __m256i d = _mm256_setr_epi32(1, 2, 3, 4, 5, 6, 32, 32);
  __m256i at = _mm256_and_si256(_mm256_sllv_epi32(f, d), o), seen = at;
  for (int k = 1; k < 4; ++k) {
    at = _mm256_and_si256(_mm256_sllv_epi32(at, d), o);
    seen = _mm256_or_si256(seen, at);
  }
  add_hits(_mm256_and_si256(seen, t), _mm256_setr_epi32(1, 1, 1, 1, 1, 1, 0, 0), c);
  return c;
}

bool cpu_has_avx2() {
  static const bool has = __builtin_cpu_supports("avx2");
  return has;
}
#endif

HitCounts hit_counts(const SideState& me, const SideState& them) {
  const std::uint32_t targets = reverse24(blot_points(me)) << 1;
  if (!targets) return {};  // no blot: no roll hits
  const HitMasks m{(them.occ << 1) | (them.bar ? 1u : 0u), ~(reverse24(made_points(me)) << 1) & (kBoardMask << 1),
                   targets};
#ifdef TAVLI_HITS_AVX2
  if (cpu_has_avx2()) return hit_counts_avx2(m);
#endif
  return hit_counts_scalar(m);
}

}  // namespace

int double_shots(const SideState& me, const SideState& them) { return hit_counts(me, them).double_shots; }

int pip_loss_sum(const SideState& me, const SideState& them) { return hit_counts(me, them).pip_loss; }

int escapes(const SideState& me, const SideState& them) {
  const int rear = me.bar ? -1 : (me.occ ? __builtin_ctz(me.occ) : kPoints);
  return rear >= kPoints ? 0 : escapes_from(rear, them);
}

namespace {
// Non-double rolls (each counted twice) that carry a checker past every block ahead of it, by the
// blocks 1..10 pips ahead (bit k - 1 = a block k pips ahead), for blocks no farther than 10 pips
// (a non-double moves at most 11): the roll (a, b) escapes iff a + b passes the farthest block and
// a or b lands open (a die that passes it alone lands open too).
struct NonDoubleEscapes {
  std::uint8_t count[1024];
  constexpr NonDoubleEscapes() : count() {
    for (int m = 1; m < 1024; ++m) {
      int last = 0;
      for (int k = 1; k <= 10; ++k)
        if (m >> (k - 1) & 1) last = k;
      int c = 0;
      for (int a = 2; a <= 6; ++a)
        for (int b = 1; b < a; ++b)
          if (a + b > last && (!(m >> (a - 1) & 1) || !(m >> (b - 1) & 1))) c += 2;
      count[m] = static_cast<std::uint8_t>(c);
    }
  }
};
constexpr NonDoubleEscapes kNonDoubleEscapes;

// Bits d, 2d, 3d and 4d: a double's landings, in pips ahead.
constexpr std::uint64_t kMultiples[7] = {0, 0x1Eull, 0x154ull, 0x1248ull, 0x11110ull, 0x108420ull, 0x1041040ull};
}  // namespace

int escapes_ahead(std::uint64_t ahead) {
  const std::uint64_t rel = ahead & ~1ull;
  if (!rel) return 36;
  const int last = 63 - __builtin_clzll(rel);  // the farthest block, in pips
  if (last >= 24) return 0;                    // beyond any roll (6-6 moves 24 pips)
  int count = last <= 10 ? kNonDoubleEscapes.count[(rel >> 1) & 1023u] : 0;
  // A double d moves on while it lands open, up to four steps: it escapes if it lands past the
  // farthest block, which needs 4d > last and, as no block lies beyond `last`, none of its
  // landings d, 2d, 3d, 4d blocked.
  for (int d = 1; d <= 6; ++d) count += (4 * d > last) & ((rel & kMultiples[d]) == 0);
  return count;
}

int escapes_from(int rear, const SideState& them) {
  return escapes_ahead(blocks_ahead_mask(them) >> (rear + 1));
}

int longest_prime(const SideState& s) {
  std::uint32_t m = made_points(s);
  int longest = 0;
  while (m) {  // each pass shortens every run by one
    m &= m << 1;
    ++longest;
  }
  return longest;
}

int home_points_made(const SideState& s) { return popcount(made_points(s) & kHomeMask); }

int back_checkers(const SideState& s) {
  int n = s.bar;
  for (int r = 0; r < 6; ++r) n += s.n[r];
  return n;
}

int timing_pips(const SideState& s) {
  int t = 19 * s.bar;
  for (int r = 0; r < 18; ++r) t += s.n[r] * (18 - r);
  return t;
}

float* encode_contact_features(const Position& pos, float* o) {
  for (int s = 0; s < 2; ++s) {
    const SideState &me = pos.side[s], &them = pos.side[1 - s];
    const HitCounts hits = hit_counts(me, them);
    *o++ = hits.double_shots / 36.0f;
    *o++ = escapes(me, them) / 36.0f;
    *o++ = hits.pip_loss / (36.0f * 24.0f);
    *o++ = longest_prime(me) / 6.0f;
    *o++ = home_points_made(me) / 6.0f;
    *o++ = back_checkers(me) / 15.0f;
    *o++ = timing_pips(me) / 100.0f;
  }
  return o;
}

}  // namespace tavli
