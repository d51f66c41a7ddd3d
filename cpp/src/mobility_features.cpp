#include "tavli/mobility_features.h"

#include <algorithm>

#include "tavli/contact_features.h"
#include "tavli/types.h"

namespace tavli {

namespace {

// Both counts for every 12-bit window, made once at compile time (4096 entries each).
struct WindowTables {
  std::uint8_t escapes[4096];
  std::uint8_t past[4096];
  constexpr WindowTables() : escapes(), past() {
    for (std::uint32_t w = 0; w < 4096; ++w) {
      int nearest = 13;  // pips to the nearest block; 13: none within the window
      for (int i = 11; i >= 0; --i)
        if (w >> i & 1u) nearest = i + 1;
      int all = 0, beyond = 0;
      for (int a = 1; a <= 6; ++a)
        for (int b = 1; b <= a; ++b) {
          const bool lands_open = !(w >> (a + b - 1) & 1u);
          const bool way_open = !(w >> (a - 1) & 1u) || !(w >> (b - 1) & 1u);
          if (!lands_open || !way_open) continue;
          const int rolls = a == b ? 1 : 2;
          all += rolls;
          if (a + b > nearest) beyond += rolls;
        }
      escapes[w] = static_cast<std::uint8_t>(all);
      past[w] = static_cast<std::uint8_t>(nearest == 13 ? 36 : beyond);
    }
  }
};
constexpr WindowTables kWindow;

// blocks_ahead_mask: bit r + 1 is my point r; shifted by r + 1, bit k is a block k pips ahead,
// so by r + 2 bit i is a block i + 1 pips ahead.
inline std::uint32_t window_at(std::uint64_t blocks, int r) {
  return static_cast<std::uint32_t>((blocks >> (r + 2)) & 0xFFFu);
}

}  // namespace

int window_escapes(std::uint32_t window) { return kWindow.escapes[window & 0xFFFu]; }
int window_escapes_past(std::uint32_t window) { return kWindow.past[window & 0xFFFu]; }

namespace {

// window_escapes from `runner`'s point r = -1..9 through `blocker`'s points: the fewest over all
// ten starts and over those where runner has a checker (37: none).
void fewest_escapes(const SideState& blocker, const SideState& runner, int* any, int* occupied) {
  const std::uint64_t blocks = blocks_ahead_mask(blocker);
  *any = 36, *occupied = 37;
  for (int r = -1; r <= 9; ++r) {
    const int e = window_escapes(window_at(blocks, r));
    *any = std::min(*any, e);
    if (r < 0 ? runner.bar > 0 : runner.n[r] > 0) *occupied = std::min(*occupied, e);
  }
}

}  // namespace

float* encode_mobility_features(const Position& pos, float* o) {
  for (int s = 0; s < 2; ++s) {
    const SideState &me = pos.side[s], &them = pos.side[1 - s];
    const std::uint64_t blocks = blocks_ahead_mask(them);
    auto window = [&](int r) { return window_at(blocks, r); };
    const int rear = me.bar ? -1 : me.occ ? __builtin_ctz(me.occ) : kPoints;
    *o++ = rear < kPoints ? window_escapes(window(rear)) / 36.0f : 0.0f;
    *o++ = rear < kPoints ? window_escapes_past(window(rear)) / 36.0f : 0.0f;
    int any = 36, occupied = 37;
    fewest_escapes(me, them, &any, &occupied);
    const float contain = (36 - any) / 36.0f;
    *o++ = contain;
    *o++ = contain * contain;
    *o++ = occupied <= 36 ? (36 - occupied) / 36.0f : 0.0f;
    int sum = me.bar * window_escapes(window(-1)), count = me.bar;
    for (std::uint32_t m = me.occ & 0x3FFFFu; m; m &= m - 1) {  // occupied points r < 18
      const int r = __builtin_ctz(m);
      sum += me.n[r] * window_escapes(window(r));
      count += me.n[r];
    }
    *o++ = count ? sum / (36.0f * count) : 1.0f;
  }
  return o;
}

}  // namespace tavli
