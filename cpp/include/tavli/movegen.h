// Legal plays: for a position and a roll, every distinct resulting position with one
// representative sequence of steps (RULES.md §1.4).
//
// Pipeline, in the rule book's order:
//   1. step legality, evaluated on the current intermediate position (landing, runner rule, R1 when
//      checked per step, bear-off eligibility);
//   2. hard whole-play constraints on the final position (R1 at end of play, R2a/b/c);
//   3. keep the plays that use the most dice;
//   4. higher die: one die playable of a non-double -> the larger one if some play uses it;
//   5. soft preference (R3/R4 unblocking): keep the plays that satisfy it if any does
//      (with unblock_priority=before_max_dice this runs between 2 and 3 instead);
//   6. de-duplicate by resulting position.
// Every legal step sequence of every length is a candidate; a shorter one survives only when all
// longer ones fail step 2. If nothing survives the turn passes: the result is one empty play.
//
// Implementation. Depth-first over the dice (both orders for non-doubles), applying and undoing
// steps in place. Candidates are recorded post-order, only at the deepest length seen so far, into
// a caller-owned buffer with an open-addressing hash set for de-duplication: no heap allocation per
// call. For doubles, once no order-dependent step rule is active (runner phase over, R1 not checked
// per step), steps are generated with non-decreasing source points, as gnubg does: every sequence
// reordered by source stays legal and reaches the same position, so nothing is lost.
//
// Capacity. The distinct results of one roll are bounded by gnubg's argument (eval.h): a play of
// n equal dice is fixed by the multiset of its n source points, at most C(15+n-1, n) with 15
// checkers: C(18,4) = 3060 for four steps, C(20,6) = 38760 for the six of Jacquet de Versailles;
// non-doubles give at most 15*15 + 15*2. kMaxPlays = 40960 covers all of them; overflow is detected
// and reported, never written past. (A MoveList reserves that many slots but only touches the
// pages of the ones written.)
#pragma once

#include <cstdint>
#include <memory>

#include "tavli/dice.h"
#include "tavli/position.h"
#include "tavli/variant.h"

namespace tavli {

constexpr int kMaxSteps = 6;      // 4 for doubles; 6 for 6-6 in Jacquet de Versailles (doubles=n_times)
constexpr int kMaxPlays = 40960;  // see "Capacity" above (the collector's slots index plays in 16 bits)

struct Step {
  std::int8_t from;  // route index of the mover, kBar = -1
  std::int8_t to;    // route index, kOff = 24
  bool operator==(const Step& o) const { return from == o.from && to == o.to; }
};

// Trivially constructible on purpose: a MoveList's slots are left untouched until used.
struct Play {
  Step steps[kMaxSteps];
  std::uint8_t nsteps;
  std::uint8_t tag;   // internal: the die of a one-step play of a non-double (higher-die rule)
  std::uint8_t hits;  // bit k: step k hit an opposing checker (move text marks it with '*')
  Position result;    // after the play, still seen from the mover (not flipped)
};

// What a step did to the opponent (for undo_step and move text).
constexpr std::uint8_t kStepHit = 1, kStepPinned = 2, kStepReleased = 4;

// The facing-point geometry, in this one place: which opponent point faces the mover's point r
// (the same map takes the opponent's points to the mover's: it is its own inverse).
template <Movement M>
constexpr int facing_point(int r) {
  return M == Movement::Parallel ? (r + 12) % 24 : 23 - r;
}
constexpr int facing_point(Movement m, int r) {
  return m == Movement::Parallel ? facing_point<Movement::Parallel>(r) : facing_point<Movement::Contrary>(r);
}
// facing_point for untrusted input: throws std::invalid_argument unless r is a point 0..23.
int checked_facing_point(Movement m, std::int64_t r);
// The same map on a 24-bit mask of points (bit r = point r): one side's occupancy in the other's frame.
constexpr std::uint32_t facing_points(Movement m, std::uint32_t mask) {
  return m == Movement::Parallel ? rotate12(mask) : reverse24(mask);
}

// Moves one checker of the side to move in place, with what landing does in the game: a hit sends
// a lone opposing checker to the bar, a pin pins it, and the last checker leaving a point releases
// the opposing checker pinned under it. No legality check: the generator only calls it for legal
// steps, and callers identifying a play compare the result with the legal ones. Templated on the
// traits so that the generator's hot path has no branches on them.
template <Movement M, Contact C>
inline std::uint8_t apply_step(Position& p, int from, int to) {
  SideState& me = p.own();
  SideState& op = p.opp();
  std::uint8_t fx = 0;
  if (from == kBar) {
    me.remove_bar();
  } else {
    me.remove(from);
    if (C == Contact::Pin && me.n[from] == 0) {
      const int o = facing_point<M>(from);
      if (op.pinned & bit(o)) {
        op.clear_pin(o);
        fx |= kStepReleased;
      }
    }
  }
  if (to >= kPoints) {
    me.add_off();
  } else {
    if (C != Contact::Block) {
      const int o = facing_point<M>(to);
      if (op.n[o] == 1 && !(op.pinned & bit(o))) {
        if (C == Contact::Hit) {
          op.remove(o);
          op.add_bar();
          fx |= kStepHit;
        } else {
          op.set_pin(o);
          fx |= kStepPinned;
        }
      }
    }
    me.add(to);
  }
  return fx;
}

template <Movement M>
inline void undo_step(Position& p, int from, int to, std::uint8_t fx) {
  SideState& me = p.own();
  SideState& op = p.opp();
  if (to >= kPoints) {
    me.remove_off();
  } else {
    me.remove(to);
    if (fx & kStepHit) {
      op.remove_bar();
      op.add(facing_point<M>(to));
    }
    if (fx & kStepPinned) op.clear_pin(facing_point<M>(to));
  }
  if (from == kBar) {
    me.add_bar();
  } else {
    me.add(from);
    if (fx & kStepReleased) op.set_pin(facing_point<M>(from));
  }
}

// The same, choosing the traits at run time (for callers outside the generator).
inline std::uint8_t apply_step(Position& p, int from, int to, Contact contact, Movement movement) {
  if (movement == Movement::Parallel) {
    switch (contact) {
      case Contact::Block: return apply_step<Movement::Parallel, Contact::Block>(p, from, to);
      case Contact::Hit: return apply_step<Movement::Parallel, Contact::Hit>(p, from, to);
      case Contact::Pin: return apply_step<Movement::Parallel, Contact::Pin>(p, from, to);
    }
  }
  switch (contact) {
    case Contact::Block: return apply_step<Movement::Contrary, Contact::Block>(p, from, to);
    case Contact::Hit: return apply_step<Movement::Contrary, Contact::Hit>(p, from, to);
    case Contact::Pin: return apply_step<Movement::Contrary, Contact::Pin>(p, from, to);
  }
  return 0;
}

// A caller-owned, reusable list of plays.
class MoveList {
 public:
  // One spare slot: the generator builds candidates there. Default-initialised, so memory pages
  // are only touched as plays are written (most rolls use a few dozen slots).
  MoveList() : plays_(new Play[kMaxPlays + 1]) {}
  int size() const { return size_; }
  const Play& operator[](int i) const { return plays_[i]; }
  Play& operator[](int i) { return plays_[i]; }
  const Play* begin() const { return plays_.get(); }
  const Play* end() const { return plays_.get() + size_; }
  void clear() { size_ = 0; }
  // Keeps the first n plays (n <= size()).
  void truncate(int n) { size_ = n < size_ ? n : size_; }
  // The index of the play that leads to `result` (a search's answer, found among these plays),
  // or -1 (plays are distinct by result: one at most).
  int find(const Position& result) const {
    for (int i = 0; i < size_; ++i)
      if (plays_[i].result == result) return i;
    return -1;
  }

 private:
  friend class MoveGenerator;
  friend struct Collector;
  std::unique_ptr<Play[]> plays_;
  int size_ = 0;
};

// Scratch space for generation (hash tables, the second candidate set). Reuse one per thread.
class MoveGenerator {
 public:
  MoveGenerator();
  ~MoveGenerator();
  MoveGenerator(const MoveGenerator&) = delete;
  MoveGenerator& operator=(const MoveGenerator&) = delete;

  // Fills `out` with the legal plays of the side to move. Never empty: a blocked side gets one play
  // with no steps. Throws std::length_error if a result set ever exceeded kMaxPlays.
  void generate(const Position& pos, const Rules& rules, Dice dice, MoveList& out);

 private:
  struct Impl;
  Impl* impl_;
};

// True when the side has a checker outside its home board or on the bar (so it may not bear off).
inline bool must_stay_on_board(const SideState& s) { return s.bar != 0 || (s.occ & ~kHomeMask) != 0; }

// Whether the side `me` (facing `opp`) has a legal single step for some die value 1..6, judged by
// step legality alone (landing, runner rule, pins, bar, bear-off). The dead-position guard of the
// blocking kin games asks it for both sides (RULES-KIN.md §8 point 5).
bool has_any_step(const SideState& me, const SideState& opp, const Rules& rules);

}  // namespace tavli
