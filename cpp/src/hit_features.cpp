#include "tavli/hit_features.h"

#include "tavli/types.h"

namespace tavli {
namespace {

// The rearmost checker's route index: -1 on the bar, 24 when none is left on the board.
int rearmost(const SideState& s) {
  if (s.bar) return -1;
  return s.occ ? __builtin_ctz(s.occ) : kPoints;
}

}  // namespace

std::uint32_t made_points(const SideState& s) {
  std::uint32_t m = 0;
  for (int r = 0; r < kPoints; ++r) m |= static_cast<std::uint32_t>(s.n[r] >= 2) << r;
  return m;
}

std::uint32_t blot_points(const SideState& s) {
  std::uint32_t m = 0;
  for (int r = 0; r < kPoints; ++r) m |= static_cast<std::uint32_t>(s.n[r] == 1) << r;
  return m;
}

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
  int count = 0;
  for (int a = 1; a <= 6; ++a) {
    for (int b = a; b <= 6; ++b) {
      bool hit = false;
      if (a == b) {
        std::uint32_t at = from;
        for (int k = 0; k < 4 && at && !hit; ++k) {
          at = (at << a) & open;  // a blot is open, so a hit shows up here
          hit = (at & targets) != 0;
        }
      } else {
        const std::uint32_t via_a = (from << a) & open, via_b = (from << b) & open;
        hit = ((via_a | via_b) & targets) || ((((via_a << b) | (via_b << a)) & open) & targets);
      }
      if (hit) count += a == b ? 1 : 2;
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
