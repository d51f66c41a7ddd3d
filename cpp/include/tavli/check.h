// Checks of the core invariants, compiled in with -DTAVLI_CHECKS=ON (the sanitizer and debug
// builds) and out of release builds. A failed check throws std::logic_error naming it, so a test
// fails with a message instead of the process dying.
#pragma once

#include <stdexcept>
#include <string>

#include "tavli/position.h"

namespace tavli {

#if defined(TAVLI_CHECKS)
#define TAVLI_CHECK(cond, what)                                                                         \
  do {                                                                                                  \
    if (!(cond)) throw std::logic_error(std::string("tavli invariant failed: ") + (what) + " at " +     \
                                        __FILE__ + ":" + std::to_string(__LINE__));                     \
  } while (0)
constexpr bool kChecks = true;
#else
#define TAVLI_CHECK(cond, what) \
  do {                          \
  } while (0)
constexpr bool kChecks = false;
#endif

// A side is consistent: occupancy matches the counts, 1..15 checkers (15, or Hypergammon's k; both
// sides the same: check_position), the hash matches a recomputation, pins only on single checkers.
inline int side_total(const SideState& s) {
  int total = s.bar + s.off;
  for (int r = 0; r < kPoints; ++r) total += s.n[r];
  return total;
}

inline void check_side(const SideState& s) {
  if (!kChecks) return;
  int total = s.bar + s.off;
  std::uint32_t occ = 0;
  for (int r = 0; r < kPoints; ++r) {
    total += s.n[r];
    if (s.n[r]) occ |= bit(r);
  }
  TAVLI_CHECK(total >= 1 && total <= kCheckers, "a side has 1..15 checkers");
  TAVLI_CHECK(occ == s.occ, "occupancy mask matches the counts");
  SideState copy = s;
  copy.refresh();
  TAVLI_CHECK(copy.hash == s.hash, "incremental hash matches a recomputation");
  for (std::uint32_t m = s.pinned; m; m &= m - 1) TAVLI_CHECK(s.n[lowest_bit(m)] == 1, "a pinned checker is alone");
}

inline void check_position(const Position& p) {
  check_side(p.own());
  check_side(p.opp());
  TAVLI_CHECK(side_total(p.own()) == side_total(p.opp()), "both sides have the same number of checkers");
}

}  // namespace tavli
