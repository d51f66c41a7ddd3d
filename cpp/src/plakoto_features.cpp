#include "tavli/plakoto_features.h"

#include "tavli/block_features.h"
#include "tavli/hit_features.h"
#include "tavli/types.h"

namespace tavli {

// All by masks: my frame to theirs is reverse24 (contrary movement), and the walks of
// hit_counts_on_masks take the mover's route shifted up one bit (bit 0 the bar, empty here).

PinTargets pin_targets(const SideState& me, const SideState& them) {
  const std::uint32_t on_their_pin = me.occ & reverse24(them.pinned);  // mine on a pinned one of theirs
  const std::uint32_t free_mine = ~me.pinned;
  return {reverse24(blot_points(me) & free_mine & ~on_their_pin),
          reverse24((made_points(me) | on_their_pin) & free_mine)};
}

std::uint32_t free_movers(const SideState& them) {
  return them.occ & ~(them.pinned & blot_points(them));  // a pinned checker is alone on its point
}

std::uint32_t plakoto_wall(const SideState& them, const SideState& me) {
  const std::uint32_t pinnable = blot_points(them) & ~them.pinned & ~reverse24(me.pinned);
  return reverse24(them.occ & ~pinnable);
}

namespace {

HitCounts pin_walk(const PinTargets& t, std::uint32_t movers) {
  return hit_counts_on_masks(movers << 1, ~(t.shut << 1), t.targets << 1);
}

// mother_shots with `me`'s pin targets and the other side's free movers already at hand.
int mother_walk(const SideState& me, PinTargets t, std::uint32_t movers) {
  if (me.n[0] != 1 || (me.pinned & 1u)) return 0;
  t.targets = 1u << 23;  // my r0 by their route; my other lone checkers are open points, not targets
  return pin_walk(t, movers).shots;
}

}  // namespace

int mother_shots(const SideState& me, const SideState& them) {
  return mother_walk(me, pin_targets(me, them), free_movers(them));
}

float* encode_plakoto_features(const Position& pos, float* out) {
  for (int s = 0; s < 2; ++s) {
    const SideState &me = pos.side[s], &them = pos.side[1 - s];
    const PinTargets targets = pin_targets(me, them);
    const std::uint32_t movers = free_movers(them);
    const HitCounts hits = pin_walk(targets, movers);
    *out++ = block_pips(me) / 360.0f;
    *out++ = hits.shots / 36.0f;
    *out++ = hits.double_shots / 36.0f;
    *out++ = hits.pip_loss / 36.0f / 24.0f;
    *out++ = mother_walk(me, targets, movers) / 36.0f;
    *out++ = wall_ahead(me, plakoto_wall(them, me)) / 6.0f;
  }
  *out++ = block_contact(pos.side[0], pos.side[1], Movement::Contrary);
  return out;
}

}  // namespace tavli
