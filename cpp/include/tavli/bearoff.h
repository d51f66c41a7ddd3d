// One-sided bear-off database: for every way to have up to 15 checkers on the six home points,
// the distribution of the number of rolls needed to bear them all off (playing each roll to
// minimise the expected number of rolls), and of the rolls needed to bear off the first one.
//
// 54,264 positions (C(21, 6): the counts on the six points, the rest borne off), built by the
// engine's own move generator on first use (about a second; thread-safe, once per process; a
// build stopped by a time limit or Ctrl-C resumes where it stopped at the next use). The
// bear-off rule is the same in every game (RULES.md §1.5), so one table serves them all. Two races
// with every checker home are then valued exactly: the side on roll wins when it needs no more
// rolls than the other (it rolls first).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "tavli/position.h"

namespace tavli {

class BearoffTable {
 public:
  static constexpr int kPositions = 54264;
  static constexpr int kMaxRolls = 32;  // distributions over 0..31 rolls (the tail is negligible)

  static const BearoffTable& get();

  // Index of a side whose checkers on the board are all in its home board (r 18..23), no bar.
  static int index(const SideState& s);
  // P(exactly k rolls to bear off everything), and P(exactly k rolls to bear off the first one).
  const float* rolls_to_finish(int index) const { return finish_[static_cast<std::size_t>(index)].data(); }
  const float* rolls_to_first(int index) const { return first_[static_cast<std::size_t>(index)].data(); }
  float expected_rolls(int index) const { return mean_[static_cast<std::size_t>(index)]; }

 private:
  BearoffTable();  // the positions in build order, nothing valued yet
  void build();    // values the positions from built_ on; check_stop() between positions
  std::vector<std::array<float, kMaxRolls>> finish_, first_;
  std::vector<float> mean_;
  // Only while building: the positions ordered by pips (children first), how many are valued,
  // and the expected rolls to bear off the first checker.
  std::vector<std::array<int, 6>> order_;
  std::size_t built_ = 0;
  std::vector<float> first_mean_;
};

// True when every checker of the side still on the board is in its home board (and none on the bar).
inline bool all_home(const SideState& s) { return s.bar == 0 && (s.occ & ~kHomeMask) == 0; }

}  // namespace tavli
