#include "tavli/movegen.h"

#include <stdexcept>

namespace tavli {

bool must_stay_on_board(const SideState& s) { return s.bar != 0 || (s.occ & ~kHomeMask) != 0; }

namespace {

// The opponent's occupancy seen in the mover's frame.
inline std::uint32_t opp_in_my_frame(std::uint32_t opp_occ, Movement m) {
  return m == Movement::Parallel ? rotate12(opp_occ) : reverse24(opp_occ);
}

// Runner rule (RULES.md §6.4): in the runner phase, checkers on r0 may not move while a checker
// stands on 1..threshold-1. Returns the mask of points whose checkers may move.
inline std::uint32_t movable_points(const SideState& s, int threshold) {
  if (threshold > 0 && s.off == 0 && (s.occ >> threshold) == 0 && (s.occ & range_mask(1, threshold - 1)))
    return s.occ & ~1u;
  return s.occ;
}

inline bool in_runner_phase(const SideState& s, int threshold) {
  return threshold > 0 && s.off == 0 && (s.occ >> threshold) == 0;
}

constexpr std::uint32_t kR2Quarter = range_mask(12, 17);   // the opponent's starting quarter
constexpr std::uint32_t kR2bFront = range_mask(13, 18);    // six points in front of his start

// Step 2 of the pipeline: hard whole-play constraints on the final position.
inline bool whole_play_ok(const Position& p, const Rules& r) {
  const std::uint32_t occ = p.own().occ;
  if (r.start_quarter == StartQuarterCheck::Play && (occ & kStartQuarter) == kStartQuarter) return false;
  switch (r.opp_start_quarter) {
    case OppStartQuarter::Off: return true;
    case OppStartQuarter::R2a: return (occ & kR2Quarter) != kR2Quarter;
    case OppStartQuarter::R2b: return p.opp().n[0] == 0 || (occ & kR2bFront) != kR2bFront;
    case OppStartQuarter::R2c: return popcount(occ & kR2Quarter) <= 4;
  }
  return true;
}

}  // namespace

bool opponent_completely_blocked(const Position& pos, const Rules& rules) {
  const SideState& o = pos.opp();
  if (o.occ == 0 && o.bar == 0) return false;      // nothing left on the board
  if (!must_stay_on_board(o)) return false;        // he may bear off
  // The mover's checkers seen from the opponent's frame (the maps are their own inverses).
  const std::uint32_t closed = opp_in_my_frame(pos.own().occ, rules.movement);
  const std::uint32_t movable = movable_points(o, rules.runner_threshold);
  for (int d = 1; d <= 6; ++d)
    if (movable & ~(closed >> d) & range_mask(0, 23 - d)) return false;
  return true;
}

// One set of candidate plays at the deepest length seen so far, de-duplicated by
// (resulting position, tag) through an open-addressing table cleared in O(1) by an epoch stamp.
struct Collector {
  static constexpr int kTableBits = 13;  // 8192 slots: load factor <= 1/2 at kMaxPlays
  static constexpr std::uint32_t kTableMask = (1u << kTableBits) - 1;

  MoveList* list = nullptr;
  int best_depth = -1;
  std::uint32_t epoch = 0;
  std::vector<std::uint32_t> stamp = std::vector<std::uint32_t>(1u << kTableBits, 0);
  std::vector<std::uint16_t> slot = std::vector<std::uint16_t>(1u << kTableBits, 0);

  void reset(MoveList* l) {
    list = l;
    list->size_ = 0;
    best_depth = -1;
    clear_table();
  }
  void clear_table() {
    if (++epoch == 0) {  // wrapped: really clear once every 2^32 calls
      std::fill(stamp.begin(), stamp.end(), 0);
      epoch = 1;
    }
  }
  void record(const Position& pos, const Step* steps, int depth, std::uint8_t tag) {
    if (depth < best_depth) return;
    if (depth > best_depth) {
      best_depth = depth;
      list->size_ = 0;
      clear_table();
    }
    const std::uint64_t h = pos.hash() ^ (0x9E3779B97F4A7C15ull * tag);
    std::uint32_t i = static_cast<std::uint32_t>(h ^ (h >> 29)) & kTableMask;
    for (;; i = (i + 1) & kTableMask) {
      if (stamp[i] != epoch) break;
      const Play& q = list->plays_[slot[i]];
      if (q.tag == tag && q.result == pos) return;
    }
    if (list->size_ >= kMaxPlays) throw std::length_error("more than kMaxPlays distinct plays for one roll");
    stamp[i] = epoch;
    slot[i] = static_cast<std::uint16_t>(list->size_);
    Play& p = list->plays_[list->size_++];
    for (int k = 0; k < depth; ++k) p.steps[k] = steps[k];
    p.nsteps = static_cast<std::uint8_t>(depth);
    p.tag = tag;
    p.result = pos;
  }
};

struct MoveGenerator::Impl {
  Collector all;        // every candidate that passes the hard constraints
  Collector preferred;  // those that also pass the soft filter (unblock_priority=before_max_dice)
  MoveList preferred_list;

  // Per-call state.
  const Rules* rules = nullptr;
  Position pos;
  int seq[kMaxSteps] = {};
  int nsteps = 0;
  bool doubles = false;
  bool soft_before = false;
  std::uint32_t closed = 0;       // points the mover may not land on (fixed during a turn: blocking)
  std::uint32_t r3_wall = 0;      // R3: the wall that must be opened, 0 when not triggered
  Step steps[kMaxSteps] = {};

  bool soft_ok(const Position& p) const {
    switch (rules->unblock) {
      case Unblock::None: return true;
      case Unblock::R4Result: return !opponent_completely_blocked(p, *rules);
      case Unblock::R3StartOfTurn: return r3_wall == 0 || (p.own().occ & r3_wall) != r3_wall;
    }
    return true;
  }

  void record(int depth) {
    if (depth < all.best_depth && (!soft_before || depth < preferred.best_depth)) return;
    if (!whole_play_ok(pos, *rules)) return;
    const std::uint8_t tag = (depth == 1 && !doubles) ? static_cast<std::uint8_t>(seq[0]) : 0;
    all.record(pos, steps, depth, tag);
    if (soft_before && depth >= preferred.best_depth && soft_ok(pos)) preferred.record(pos, steps, depth, tag);
  }

  // Depth-first over the remaining dice. `min_src` >= 0 restricts sources (ordered doubles).
  void search(int depth, int min_src) {
    if (depth < nsteps) {
      const int d = seq[depth];
      SideState& me = pos.own();
      const bool order_free = doubles && !in_runner_phase(me, rules->runner_threshold) &&
                              rules->start_quarter != StartQuarterCheck::Step;
      std::uint32_t movable = movable_points(me, rules->runner_threshold);
      if (min_src > 0) movable &= ~range_mask(0, min_src - 1);
      // Steps that stay on the board: the landing point must be open.
      std::uint32_t sources = movable & ~(closed >> d) & range_mask(0, 23 - d);
      // Bear-off: all checkers home; exact, or an overshoot from the farthest checker.
      if (!must_stay_on_board(me)) {
        const int farthest = lowest_bit(me.occ);
        std::uint32_t off = movable & range_mask(24 - d, 23);
        if (farthest > 24 - d) off &= bit(farthest);
        else off &= bit(24 - d);
        sources |= off;
      }
      while (sources) {
        const int from = lowest_bit(sources);
        sources &= sources - 1;
        const int to = from + d;
        me.remove(from);
        if (to >= kPoints) me.add_off();
        else me.add(to);
        if (rules->start_quarter != StartQuarterCheck::Step || (me.occ & kStartQuarter) != kStartQuarter) {
          steps[depth] = Step{static_cast<std::int8_t>(from), static_cast<std::int8_t>(to >= kPoints ? kOff : to)};
          search(depth + 1, order_free ? from : -1);
        }
        if (to >= kPoints) me.remove_off();
        else me.remove(to);
        me.add(from);
      }
    }
    record(depth);
  }

  static void higher_die_rule(MoveList& l, int best_depth, Dice dice) {
    if (dice.is_double() || best_depth != 1) return;
    bool has_high = false;
    for (int i = 0; i < l.size(); ++i) has_high |= l[i].tag == dice.high();
    if (!has_high) return;
    int k = 0;
    for (int i = 0; i < l.size(); ++i)
      if (l[i].tag == dice.high()) {
        if (k != i) l[k] = l[i];
        ++k;
      }
    shrink(l, k);
  }

  void soft_filter(MoveList& l) const {
    int k = 0;
    for (int i = 0; i < l.size(); ++i)
      if (soft_ok(l[i].result)) {
        if (k != i) l[k] = l[i];
        ++k;
      }
    if (k > 0) shrink(l, k);
  }

  static void shrink(MoveList& l, int n);
};

void MoveGenerator::Impl::shrink(MoveList& l, int n) { l.truncate(n); }

MoveGenerator::MoveGenerator() : impl_(new Impl) {}
MoveGenerator::~MoveGenerator() { delete impl_; }

void MoveGenerator::generate(const Position& start, const Rules& rules, Dice dice, MoveList& out) {
  if (rules.contact != Contact::Block)
    throw std::logic_error("move generation for hitting and pinning games is not part of this build");
  Impl& s = *impl_;
  s.rules = &rules;
  s.pos = start;
  s.doubles = dice.is_double();
  s.nsteps = dice.steps();
  s.soft_before = rules.unblock != Unblock::None && rules.unblock_priority == UnblockPriority::BeforeMaxDice;
  s.closed = opp_in_my_frame(start.opp().occ, rules.movement);
  s.r3_wall = 0;
  if (rules.unblock == Unblock::R3StartOfTurn) {
    // R3 trigger (start of turn): all the opponent's checkers on one point s', s' + 6 <= 23, and the
    // mover holds the opponent's s'+1..s'+6.
    const SideState& o = start.opp();
    if (o.bar == 0 && popcount(o.occ) == 1) {
      const int sp = lowest_bit(o.occ);
      if (sp + 6 <= 23) {
        const std::uint32_t wall = opp_in_my_frame(range_mask(sp + 1, sp + 6), rules.movement);
        if ((start.own().occ & wall) == wall) s.r3_wall = wall;
      }
    }
  }
  s.all.reset(&out);
  if (s.soft_before) s.preferred.reset(&s.preferred_list);
  else s.preferred.best_depth = kMaxSteps + 1;  // never records

  if (s.doubles) {
    for (int k = 0; k < s.nsteps; ++k) s.seq[k] = dice.d1;
    s.search(0, -1);
  } else {
    s.seq[0] = dice.d1;
    s.seq[1] = dice.d2;
    s.search(0, -1);
    s.seq[0] = dice.d2;
    s.seq[1] = dice.d1;
    s.search(0, -1);
  }

  int best = s.all.best_depth;
  if (s.soft_before && s.preferred_list.size() > 0) {
    for (int i = 0; i < s.preferred_list.size(); ++i) out.plays_[i] = s.preferred_list.plays_[i];
    out.size_ = s.preferred_list.size();
    best = s.preferred.best_depth;
  }
  if (out.size_ == 0) {  // nothing satisfies the hard constraints: the turn passes
    Play& p = out.plays_[0];
    p.nsteps = 0;
    p.tag = 0;
    p.result = start;
    out.size_ = 1;
    return;
  }
  Impl::higher_die_rule(out, best, dice);
  if (!s.soft_before && rules.unblock != Unblock::None) s.soft_filter(out);
}

}  // namespace tavli
