#include "tavli/contact_features.h"

#include "tavli/hit_features.h"
#include "tavli/types.h"

namespace tavli {
namespace {

// The points a checker (or each checker of a set: the bits of `from`) can reach with the roll
// (a, b): one die, or both through an open point; a double up to four steps, each landing open.
template <typename Mask>
Mask reach_with_roll(Mask from, Mask open, int a, int b) {
  if (a == b) {
    Mask reach = 0, at = from;
    for (int k = 0; k < 4 && at; ++k) reach |= at = (at << a) & open;
    return reach;
  }
  const Mask via_a = (from << a) & open, via_b = (from << b) & open;
  return via_a | via_b | (((via_a << b) | (via_b << a)) & open);
}

// The blots of `me` (as bits of `them`'s route index + 1; bit 0 their bar) that `them` can reach
// with roll (a, b): directly with one die, or through open points (a double: up to four steps).
template <typename F>
void for_each_roll_targets(const SideState& me, const SideState& them, F&& f) {
  constexpr std::uint32_t kOnBoard = kBoardMask << 1;
  const std::uint32_t targets = reverse24(blot_points(me)) << 1;
  const std::uint32_t open = ~(reverse24(made_points(me)) << 1) & kOnBoard;
  const std::uint32_t from = (them.occ << 1) | (them.bar ? 1u : 0u);
  for (int a = 1; a <= 6; ++a)
    for (int b = a; b <= 6; ++b) {
      const std::uint32_t reach = targets ? reach_with_roll(from, open, a, b) : 0u;
      f(reach & targets, a == b ? 1 : 2);
    }
}

}  // namespace

int double_shots(const SideState& me, const SideState& them) {
  int count = 0;
  for_each_roll_targets(me, them, [&](std::uint32_t hit, int w) {
    if (__builtin_popcount(hit) >= 2) count += w;
  });
  return count;
}

int pip_loss_sum(const SideState& me, const SideState& them) {
  int sum = 0;
  for_each_roll_targets(me, them, [&](std::uint32_t hit, int w) {
    // Bit j of `them`'s index + 1 is my r = 24 - j, which loses r + 1 = 25 - j pips: the lowest
    // bit is my most advanced blot, the worst loss.
    if (hit) sum += w * (25 - __builtin_ctz(hit));
  });
  return sum;
}

int escapes(const SideState& me, const SideState& them) {
  const int rear = me.bar ? -1 : (me.occ ? __builtin_ctz(me.occ) : kPoints);
  return rear >= kPoints ? 0 : escapes_from(rear, them);
}

int escapes_from(int rear, const SideState& them) {
  // In my route index + 1 (bit 0 the bar), 64 bits wide so that no step falls off: their made
  // points ahead of the checker.
  const std::uint64_t blocks = (static_cast<std::uint64_t>(reverse24(made_points(them))) << 1) & ~((2ull << (rear + 1)) - 1);
  if (!blocks) return 36;
  const int last = 63 - __builtin_clzll(blocks);  // the farthest block, in the shifted index
  const std::uint64_t open = ~blocks, start = 1ull << (rear + 1), beyond = ~((2ull << last) - 1);
  int count = 0;
  for (int a = 1; a <= 6; ++a)
    for (int b = a; b <= 6; ++b) {
      if (reach_with_roll(start, open, a, b) & beyond) count += a == b ? 1 : 2;
    }
  return count;
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

int home_points_made(const SideState& s) { return __builtin_popcount(made_points(s) & kHomeMask); }

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
    *o++ = double_shots(me, them) / 36.0f;
    *o++ = escapes(me, them) / 36.0f;
    *o++ = pip_loss_sum(me, them) / (36.0f * 24.0f);
    *o++ = longest_prime(me) / 6.0f;
    *o++ = home_points_made(me) / 6.0f;
    *o++ = back_checkers(me) / 15.0f;
    *o++ = timing_pips(me) / 100.0f;
  }
  return o;
}

}  // namespace tavli
