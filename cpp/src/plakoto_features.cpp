#include "tavli/plakoto_features.h"

#include <algorithm>

#include "tavli/block_features.h"
#include "tavli/hit_features.h"

namespace tavli {

namespace {

// A side with the counts n[] as given (bar and off cleared), occ kept in step.
SideState with_counts(const std::uint8_t (&n)[24]) {
  SideState s{};
  for (int r = 0; r < kPoints; ++r) {
    s.n[r] = n[r];
    if (n[r]) s.occ |= 1u << r;
  }
  return s;
}

}  // namespace

SideState pin_targets(const SideState& me, const SideState& them) {
  std::uint8_t n[24];
  for (int r = 0; r < kPoints; ++r) {
    const bool mine_pinned = (me.pinned >> r) & 1u, theirs_pinned_here = (them.pinned >> (23 - r)) & 1u;
    n[r] = mine_pinned ? 0 : (theirs_pinned_here && me.n[r] ? std::max<std::uint8_t>(me.n[r], 2) : me.n[r]);
  }
  return with_counts(n);
}

SideState free_movers(const SideState& them) {
  std::uint8_t n[24];
  for (int r = 0; r < kPoints; ++r) n[r] = static_cast<std::uint8_t>(them.n[r] - ((them.pinned >> r) & 1u));
  return with_counts(n);
}

SideState plakoto_wall(const SideState& them, const SideState& me) {
  std::uint8_t n[24];
  for (int r = 0; r < kPoints; ++r) {
    const bool on_pin = (me.pinned >> (23 - r)) & 1u;
    const bool free_lone = them.n[r] == 1 && !((them.pinned >> r) & 1u) && !on_pin;
    n[r] = them.n[r] && !free_lone ? std::max<std::uint8_t>(them.n[r], 2) : 0;
  }
  return with_counts(n);
}

int mother_shots(const SideState& me, const SideState& them) {
  if (me.n[0] != 1 || (me.pinned & 1u)) return 0;
  SideState only_mother = pin_targets(me, them);
  for (int r = 1; r < kPoints; ++r)  // other blots: open points the other side may land on, not targets
    if (only_mother.n[r] == 1) only_mother.n[r] = 0, only_mother.occ &= ~(1u << r);
  return shots(only_mother, free_movers(them));
}

float* encode_plakoto_features(const Position& pos, float* out) {
  for (int s = 0; s < 2; ++s) {
    const SideState &me = pos.side[s], &them = pos.side[1 - s];
    const SideState targets = pin_targets(me, them), movers = free_movers(them);
    const HitCounts hits = hit_counts(targets, movers);
    *out++ = block_pips(me) / 360.0f;
    *out++ = shots(targets, movers) / 36.0f;
    *out++ = hits.double_shots / 36.0f;
    *out++ = hits.pip_loss / 36.0f / 24.0f;
    *out++ = mother_shots(me, them) / 36.0f;
    *out++ = trapping_prime(me, plakoto_wall(them, me)) / 6.0f;
  }
  *out++ = block_contact(pos.side[0], pos.side[1], Movement::Contrary);
  return out;
}

}  // namespace tavli
