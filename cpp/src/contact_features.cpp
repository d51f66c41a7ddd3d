#include "tavli/contact_features.h"

#include "tavli/hit_features.h"
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
