#include "tavli/contact_features.h"

#include "tavli/hit_features.h"
#include "tavli/simd.h"
#include "tavli/types.h"

namespace tavli {

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

namespace {

// kNonDoubleEscapes widened to 32 bits, for a gather.
struct NonDoubleEscapes32 {
  std::int32_t count[1024];
  constexpr NonDoubleEscapes32() : count() {
    for (int m = 0; m < 1024; ++m) count[m] = kNonDoubleEscapes.count[m];
  }
};
constexpr NonDoubleEscapes32 kNonDoubleEscapes32;

EscapeCounts escape_counts_scalar(std::uint64_t blocks) {
  EscapeCounts e{};
  for (int s = 0; s <= kPoints; ++s) e.from[s] = static_cast<std::uint8_t>(escapes_ahead(blocks >> s));
  return e;
}

#ifdef TAVLI_X86_SIMD
// escapes_ahead's steps on eight starts a vector, as comparisons: "last <= 10" is rel < 2^11,
// "4d > last" is rel < 2^(4d), "last >= 24" is rel >= 2^24 (rel < 2^26, so signed compares hold).
__attribute__((target("avx2"))) EscapeCounts escape_counts_avx2(std::uint64_t blocks) {
  __m256i counts[4];
  const __m256i all = _mm256_set1_epi32(static_cast<std::int32_t>(blocks)), zero = _mm256_setzero_si256();
  for (int v = 0; v < 4; ++v) {
    const __m256i shift = _mm256_add_epi32(_mm256_set1_epi32(8 * v), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    const __m256i rel = _mm256_and_si256(_mm256_srlv_epi32(all, shift), _mm256_set1_epi32(~1));
    const __m256i near = _mm256_cmpgt_epi32(_mm256_set1_epi32(1 << 11), rel);
    const __m256i index = _mm256_and_si256(_mm256_srli_epi32(rel, 1), _mm256_set1_epi32(1023));
    __m256i count = _mm256_mask_i32gather_epi32(zero, kNonDoubleEscapes32.count, index, near, 4);
    for (int d = 1; d <= 6; ++d) {
      const __m256i passes = _mm256_cmpgt_epi32(_mm256_set1_epi32(1 << (4 * d)), rel);
      const __m256i open = _mm256_cmpeq_epi32(
          _mm256_and_si256(rel, _mm256_set1_epi32(static_cast<std::int32_t>(kMultiples[d]))), zero);
      count = _mm256_sub_epi32(count, _mm256_and_si256(passes, open));  // -1 where it escapes
    }
    const __m256i beyond = _mm256_cmpgt_epi32(rel, _mm256_set1_epi32((1 << 24) - 1));
    count = _mm256_andnot_si256(beyond, count);
    counts[v] = _mm256_blendv_epi8(count, _mm256_set1_epi32(36), _mm256_cmpeq_epi32(rel, zero));
  }
  // To bytes: the packs interleave the vectors by 128-bit lanes, four starts a group; the
  // permutation puts the groups back in order.
  const __m256i bytes = _mm256_packus_epi16(_mm256_packs_epi32(counts[0], counts[1]), _mm256_packs_epi32(counts[2], counts[3]));
  EscapeCounts e;
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(e.from),
                      _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)));
  return e;
}
#endif

}  // namespace

EscapeCounts escape_counts(std::uint64_t blocks) {
  struct Kept {
    std::uint64_t blocks[2] = {~0ull, ~0ull};
    EscapeCounts counts[2];
    int next = 0;  // the slot the next new table replaces (the older one)
  };
  thread_local Kept kept;
  if (kept.blocks[0] == blocks) return kept.counts[0];
  if (kept.blocks[1] == blocks) return kept.counts[1];
  const int k = kept.next;
  kept.next ^= 1;
  kept.blocks[k] = blocks;
#ifdef TAVLI_X86_SIMD
  kept.counts[k] = simd::has_avx2() ? escape_counts_avx2(blocks) : escape_counts_scalar(blocks);
#else
  kept.counts[k] = escape_counts_scalar(blocks);
#endif
  return kept.counts[k];
}

int escapes_from(int rear, const SideState& them) { return escape_counts(blocks_ahead_mask(them)).from[rear + 1]; }

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

float* encode_contact_features(const Position& pos, const HitCounts hits_of[2], float* o) {
  for (int s = 0; s < 2; ++s) {
    const SideState &me = pos.side[s], &them = pos.side[1 - s];
    const HitCounts& hits = hits_of[s];
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
