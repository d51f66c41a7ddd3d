#include "tavli/encode_race.h"

#include "tavli/hit_features.h"

namespace tavli {

int crossovers(const SideState& s) {
  int c = 4 * s.bar;
  for (int r = 0; r < kPoints; ++r) c += s.n[r] * (3 - r / 6);
  return c;
}

float* encode_race(const Position& pos, float* o) {
  for (int s = 0; s < 2; ++s) {
    const SideState& side = pos.side[s];
    for (int r = 0; r < kPoints; ++r) {
      const int n = side.n[r];
      *o++ = n >= 1;
      *o++ = n >= 2;
      *o++ = n >= 3;
      *o++ = n > 3 ? (n - 3) / 2.0f : 0.0f;
    }
    for (int k = 1; k <= 14; ++k) *o++ = side.off >= k;
    *o++ = pip_count(side) / 167.0f;
    *o++ = crossovers(side) / 45.0f;
  }
  return o;
}

}  // namespace tavli
