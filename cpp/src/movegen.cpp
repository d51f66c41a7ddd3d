#include "tavli/movegen.h"

#include "tavli/check.h"

#include <cstring>
#include <stdexcept>

namespace tavli {

int checked_facing_point(Movement m, std::int64_t r) {
  if (r < 0 || r > 23) throw std::invalid_argument("route index " + std::to_string(r) + " is not a point 0..23");
  return facing_point(m, static_cast<int>(r));
}

namespace {

// The opponent's occupancy seen in the mover's frame.
inline std::uint32_t opp_in_my_frame(std::uint32_t opp_occ, Movement m) { return facing_points(m, opp_occ); }

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

// kStays[d]: sources from which die d stays on the board; kBelow[k]: points below k.
constexpr std::uint32_t kStays[7] = {0, range_mask(0, 22), range_mask(0, 21), range_mask(0, 20),
                                     range_mask(0, 19), range_mask(0, 18), range_mask(0, 17)};
constexpr std::uint32_t kBelow[25] = {0,         0x1,       0x3,       0x7,       0xF,       0x1F,     0x3F,
                                      0x7F,      0xFF,      0x1FF,     0x3FF,     0x7FF,     0xFFF,    0x1FFF,
                                      0x3FFF,    0x7FFF,    0xFFFF,    0x1FFFF,   0x3FFFF,   0x7FFFF,  0xFFFFF,
                                      0x1FFFFF,  0x3FFFFF,  0x7FFFFF,  0xFFFFFF};

constexpr std::uint32_t kR2Quarter = range_mask(12, 17);   // the opponent's starting quarter
constexpr std::uint32_t kR2bFront = range_mask(13, 18);    // six points in front of his start

}  // namespace

// One set of candidate plays at the deepest length seen so far, de-duplicated by
// (resulting position, tag). The open-addressing table starts small (most rolls have a few dozen
// results) and doubles when half full; a slot holds (epoch << 16 | index), so clearing it between
// calls is O(1), and the hash of every stored play is kept beside it so probes rarely touch plays.
struct Collector {
  static constexpr int kMinBits = 8;
  static constexpr int kMaxBits = 17;  // 131072 slots: load factor <= 1/2 at kMaxPlays
  static_assert(kMaxPlays < (1 << 16), "a slot keeps the play's index in 16 bits");
  static_assert(2 * kMaxPlays <= (1 << kMaxBits), "the table must stay at most half full");

  MoveList* list = nullptr;
  int best_depth = -1;
  int bits = kMinBits;
  std::uint32_t epoch = 0;  // 1..0xFFFF, in the slot's high half
  std::vector<std::uint32_t> table = std::vector<std::uint32_t>(1u << kMaxBits, 0);
  std::vector<std::uint64_t> hashes = std::vector<std::uint64_t>(kMaxPlays, 0);

  void reset(MoveList* l) {
    list = l;
    list->truncate(0);
    best_depth = -1;
    clear_table();
  }
  void clear_table() {
    bits = kMinBits;
    if (++epoch > 0xFFFF) {  // wrapped: really clear once every 65535 calls
      std::fill(table.begin(), table.end(), 0);
      epoch = 1;
    }
  }
  void insert_slot(std::uint64_t h, int index) {
    const std::uint32_t mask = (1u << bits) - 1;
    std::uint32_t i = static_cast<std::uint32_t>(h >> 40) & mask;
    while ((table[i] >> 16) == epoch) i = (i + 1) & mask;
    table[i] = (epoch << 16) | static_cast<std::uint32_t>(index);
  }
  void grow() {
    ++bits;
    if (++epoch > 0xFFFF) {  // a new epoch empties the table; then re-insert what is stored
      std::fill(table.begin(), table.end(), 0);
      epoch = 1;
    }
    for (int k = 0; k < list->size(); ++k) insert_slot(hashes[k], k);
  }
  // The free slot after the stored plays, where a candidate is built in place before commit().
  Play& scratch() { return list->plays_[static_cast<std::size_t>(list->size_)]; }

  // Keeps the candidate in the scratch slot, found at `depth`, unless a play of the same result
  // and tag is stored. `unique`: the caller guarantees that it is new (see Impl::unique).
  void commit(int depth, bool unique) {
    if (depth < best_depth) return;
    int n = list->size_;
    if (depth > best_depth) {  // a longer play: the shorter ones are out (maximum dice)
      best_depth = depth;
      if (n != 0) list->plays_[0] = list->plays_[static_cast<std::size_t>(n)];
      n = list->size_ = 0;
      clear_table();
    }
    Play& p = list->plays_[static_cast<std::size_t>(n)];
    if (!unique) {
      const std::uint64_t h = p.result.hash() ^ (0x9E3779B97F4A7C15ull * p.tag);
      const std::uint32_t mask = (1u << bits) - 1;
      for (std::uint32_t i = static_cast<std::uint32_t>(h >> 40) & mask;; i = (i + 1) & mask) {
        const std::uint32_t e = table[i];
        if ((e >> 16) != epoch) break;
        const int k = static_cast<int>(e & 0xFFFF);
        if (hashes[k] == h) {
          const Play& q = (*list)[k];
          if (q.tag == p.tag && q.result == p.result) return;
        }
      }
      hashes[n] = h;
    }
    if (n + 1 >= kMaxPlays) throw std::length_error("more than kMaxPlays distinct plays for one roll");
    list->size_ = n + 1;
    if (unique) return;
    if (2 * (n + 1) > (1 << bits) && bits < kMaxBits) grow();
    else insert_slot(hashes[n], n);
  }

  void record(const Position& pos, const Step* steps, int depth, std::uint8_t tag, std::uint8_t hits, bool unique) {
    if (depth < best_depth) return;
    Play& p = scratch();
    for (int k = 0; k < depth; ++k) p.steps[k] = steps[k];
    p.nsteps = static_cast<std::uint8_t>(depth);
    p.tag = tag;
    p.hits = hits;
    p.result = pos;
    commit(depth, unique);
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
  bool second_order = false;      // non-doubles: searching the order (d2, d1)
  bool per_step_r1 = false;       // R1 checked after every step
  bool per_step_prime = false;    // Narde's six-prime rule checked after every step
  bool bearoff_pinned_ok = true;  // Plakoto: may bear off with a pinned checker
  Contact contact = Contact::Block;
  Movement movement = Movement::Parallel;
  std::uint32_t closed = 0;       // points the mover may not land on (fixed during a turn, see generate)
  std::uint32_t blots = 0;        // single opposing checkers that a landing hits or pins, at the start
  int head_left = 0;              // Narde: checkers that may still leave r0 this turn (large: no rule)
  std::uint32_t r3_wall = 0;      // R3: the wall that must be opened, 0 when not triggered
  // R4: the opponent does not move during the turn, so his possible sources per die are fixed;
  // a result blocks him when the mover's checkers cover every target. r4_live is false when he
  // cannot be blocked at all (nothing on the board, free to bear off, or too many free targets).
  bool r4_live = false;
  std::uint32_t opp_sources[7] = {};
  // Non-doubles: true when the two die orders are interchangeable for different checkers (no
  // runner phase, no per-step rule, nothing on the bar, no bear-off reachable this turn).
  bool orders_commute = false;
  // True when the enumeration cannot reach one result twice, so the hash set is skipped:
  // non-doubles whose orders commute (distinct (x, y) source pairs give distinct results, and the
  // second order adds only chains the first could not make), and doubles that are order-free from
  // the first step (each non-decreasing source multiset S gives start - S + (S + d), and S is
  // recovered from that difference; hits and pins depend only on the landing points).
  bool unique = false;
  Step steps[kMaxSteps] = {};
  std::uint8_t hit_mask = 0;  // bit k: step k of the current sequence hit
  // Facts fixed for the turn, so the hot path can skip what cannot apply.
  bool has_hard_constraints = false;  // any whole-play constraint (R1 at end of play, R2, Narde's prime)
  std::uint32_t forbid_full[2] = {0, 0};  // R1 / R2a / R2b: the mover may not hold all of these points
  bool r2c = false;                       // R2c: at most four points of r12..r17
  bool runner_live = false;           // the mover starts the turn in the runner phase
  // The runner threshold for this turn: the rules', or 24 (never reached) when the runner's arrival
  // frees the others only from the next turn (runner_release=turn) and this turn starts in the phase.
  int runner_threshold = 0;
  bool jacquet_six_prime = false;     // Jacquet: six consecutive points need r22 and r23
  bool bearoff_live = false;          // few enough checkers outside home that a bear-off can come

  bool soft_ok(const Position& p) const {
    switch (rules->unblock) {
      case Unblock::None: return true;
      case Unblock::R4Result: return !r4_live || !blocks_opponent(p);
      case Unblock::R3StartOfTurn: return r3_wall == 0 || (p.own().occ & r3_wall) != r3_wall;
    }
    return true;
  }

  bool blocks_opponent(const Position& p) const {
    const std::uint32_t closed_for_opp = opp_in_my_frame(p.own().occ, movement);
    for (int d = 1; d <= 6; ++d)
      if (opp_sources[d] & ~(closed_for_opp >> d)) return false;
    return true;
  }

  // Narde (RULES.md §7.2, §6.5): no six consecutive points, counted along the opponent's route
  // (his s..s+5, 0 <= s <= 18: a run may cross my r23 -> r0 but not my r11 -> r12, his end and
  // start), unless an opposing checker has passed every point of that wall (his index > s + 5) or,
  // by default, has been borne off.
  bool six_prime_ok(const Position& p) const {
    const std::uint32_t theirs = opp_in_my_frame(p.own().occ, movement);  // my points in his route's order
    std::uint32_t walls = theirs;
    for (int k = 1; k < 6; ++k) walls &= theirs >> k;  // bit s: his s..s+5 all held by me
    if (!walls) return true;
    const SideState& o = p.opp();
    if (rules->prime_borne_off_ahead && o.off > 0) return true;
    // The wall that starts last along his route is the hardest to be ahead of.
    const int last = highest_bit(walls) + 5;
    return last < 23 && (o.occ >> (last + 1)) != 0;
  }

  // Step 2 of the pipeline: hard whole-play constraints on the final position.
  bool whole_play_ok(const Position& p) const {
    if (!has_hard_constraints) return true;
    const std::uint32_t occ = p.own().occ;
    if ((occ & forbid_full[0]) == forbid_full[0] && forbid_full[0]) return false;
    if ((occ & forbid_full[1]) == forbid_full[1] && forbid_full[1]) return false;
    if (r2c && popcount(occ & kR2Quarter) > 4) return false;
    if (jacquet_six_prime && !jacquet_six_prime_ok(occ)) return false;
    return rules->six_prime != PrimeCheck::Play || six_prime_ok(p);
  }

  // Jacquet's needs_last_two (RULES-KIN.md §2.5): six consecutive points counted along the
  // opponent's route (his s..s+5, 0 <= s <= 18, so a run may cross my r23 -> r0 but not my
  // r11 -> r12) are allowed only while holding r22 and r23.
  bool jacquet_six_prime_ok(std::uint32_t occ) const {
    constexpr std::uint32_t kLastTwo = (1u << 22) | (1u << 23);
    if ((occ & kLastTwo) == kLastTwo) return true;
    const std::uint32_t theirs = opp_in_my_frame(occ, movement);  // my points in his route's order
    std::uint32_t walls = theirs;
    for (int k = 1; k < 6; ++k) walls &= theirs >> k;
    return walls == 0;
  }

  // Applies one step in place (and counts head departures); returns what it did to the opponent.
  template <Movement M, Contact C>
  std::uint8_t apply(int from, int to, int depth) {
    if (from == 0) --head_left;
    const std::uint8_t fx = apply_step<M, C>(pos, from, to);
    if (C == Contact::Hit) hit_mask = static_cast<std::uint8_t>(hit_mask | ((fx & kStepHit) << depth));
    return fx;
  }

  template <Movement M, Contact C>
  void undo(int from, int to, std::uint8_t fx, int depth) {
    undo_step<M>(pos, from, to, fx);
    if (from == 0) ++head_left;
    if (C == Contact::Hit) hit_mask = static_cast<std::uint8_t>(hit_mask & ~(1u << depth));
  }

  // Step rules checked on the position after a step.
  bool step_ok() const {
    if (per_step_r1 && (pos.own().occ & kStartQuarter) == kStartQuarter) return false;
    return !per_step_prime || six_prime_ok(pos);
  }

  void record(int depth) {
    if (depth < all.best_depth && (!soft_before || depth < preferred.best_depth)) return;
    if (!whole_play_ok(pos)) return;
    const std::uint8_t tag = (depth == 1 && !doubles) ? static_cast<std::uint8_t>(seq[0]) : 0;
    all.record(pos, steps, depth, tag, hit_mask, unique);
    if (soft_before && depth >= preferred.best_depth && soft_ok(pos))
      preferred.record(pos, steps, depth, tag, hit_mask, unique);
  }

  // Sources of the steps that the die `d` allows from the current position (step 1 of the
  // pipeline), restricted to sources >= min_src and in `allowed`. The bar is handled by callers.
  template <Contact C>
  std::uint32_t step_sources(const SideState& me, int d, int min_src, std::uint32_t allowed) const {
    std::uint32_t movable = (runner_live ? movable_points(me, runner_threshold) : me.occ) & allowed;
    if (C == Contact::Pin) movable &= ~me.pinned;
    if (head_left <= 0) movable &= ~1u;
    if (min_src > 0) movable &= ~kBelow[min_src];
    // Steps that stay on the board: the landing point must be open.
    std::uint32_t sources = movable & ~(closed >> d) & kStays[d];
    // Bear-off: all checkers home; exact, or an overshoot from the farthest checker.
    // (me.occ is empty once the last checker is off in mid-play: nothing is left to move.)
    if (bearoff_live && me.occ && !must_stay_on_board(me) && (C != Contact::Pin || bearoff_pinned_ok || me.pinned == 0)) {
      const int farthest = lowest_bit(me.occ);
      std::uint32_t off = movable & range_mask(24 - d, 23);
      if (farthest > 24 - d) off &= bit(farthest);
      else off &= bit(24 - d);
      sources |= off;
    }
    return sources;
  }

  // Depth-first over the remaining dice. `min_src` >= 0 restricts sources (ordered doubles);
  // `allowed` masks the sources: in the second die order of a non-double whose orders commute,
  // only the checker that just moved may take the second step, since a different checker's step
  // repeats a sequence of the first order (same steps swapped, equally legal, same result).
  template <Movement M, Contact C>
  void search(int depth, int min_src, std::uint32_t allowed = ~0u) {
    if (depth < nsteps) {
      const int d = seq[depth];
      SideState& me = pos.own();
      if (depth + 1 == nsteps) {
        last_step<M, C>(depth, min_src, allowed);
      } else if (C == Contact::Hit && me.bar) {  // everything on the bar enters first
        const int to = d - 1;
        if (!((closed >> to) & 1u)) {
          const std::uint8_t fx = apply<M, C>(kBar, to, depth);
          steps[depth] = Step{static_cast<std::int8_t>(kBar), static_cast<std::int8_t>(to)};
          search<M, C>(depth + 1, -1);
          undo<M, C>(kBar, to, fx, depth);
        }
      } else {
        const bool order_free = doubles && !per_step_r1 && !per_step_prime &&
                                !in_runner_phase(me, runner_threshold);
        for (std::uint32_t sources = step_sources<C>(me, d, min_src, allowed); sources; sources &= sources - 1) {
          const int from = lowest_bit(sources);
          const int to = from + d >= kPoints ? kOff : from + d;
          const std::uint8_t fx = apply<M, C>(from, to, depth);
          if (step_ok()) {
            steps[depth] = Step{static_cast<std::int8_t>(from), static_cast<std::int8_t>(to)};
            search<M, C>(depth + 1, order_free ? from : -1, next_allowed<C>(depth, from, to));
          }
          undo<M, C>(from, to, fx, depth);
        }
      }
    }
    // The empty play is the root of both die orders: record it once.
    if ((depth >= all.best_depth || (soft_before && depth >= preferred.best_depth)) && !(depth == 0 && second_order))
      record(depth);
  }

  template <Contact C>
  std::uint32_t next_allowed(int depth, int from, int to) const {
    if (depth != 0 || !orders_commute) return ~0u;
    const int other = seq[1];  // the die not yet used
    if (second_order) {
      // Only the checker that moved may go on, and only if the first order could not make the same
      // chain: its intermediate point from + other is closed, or holds a checker that the first
      // order's chain would hit (hitting games; a pin on an intermediate point is released again).
      if (to >= kPoints) return 0u;
      const int mid = from + other;
      const bool same_chain = mid <= 23 && !((closed >> mid) & 1u) &&
                              (C != Contact::Hit || !(((blots >> mid) | (blots >> to)) & 1u));
      return same_chain ? 0u : bit(to);
    }
    // A checker stepping onto the point just left, y + other = from, makes the chain y -> from + d
    // (through from or through y + d), which one of the two orders makes as a chain anyway.
    return from - other >= 0 ? ~bit(from - other) : ~0u;
  }

  // The last die: each step's result is built directly in the collector's free slot (no undo, no
  // recursion), then checked and kept or dropped.
  template <Movement M, Contact C>
  void last_step(int depth, int min_src, std::uint32_t allowed) {
    const int d = seq[depth];
    const std::uint8_t tag = (depth == 0 && !doubles) ? static_cast<std::uint8_t>(d) : 0;
    std::uint32_t sources;
    bool from_bar = false;
    if (C == Contact::Hit && pos.own().bar) {  // one candidate: entering from the bar
      from_bar = true;
      sources = ((closed >> (d - 1)) & 1u) ? 0u : 1u;
    } else {
      sources = step_sources<C>(pos.own(), d, min_src, allowed);
    }
    for (; sources; sources &= sources - 1) {
      const int from = from_bar ? kBar : lowest_bit(sources);
      const int to = from + d >= kPoints ? kOff : from + d;
      Play& p = all.scratch();
      p.result = pos;
      const std::uint8_t fx = apply_step<M, C>(p.result, from, to);
      if (per_step_r1 && (p.result.own().occ & kStartQuarter) == kStartQuarter) continue;
      if (per_step_prime && !six_prime_ok(p.result)) continue;
      if (!whole_play_ok(p.result)) continue;
      std::memcpy(p.steps, steps, sizeof steps);  // fixed size: cheaper than a loop over depth
      p.steps[depth] = Step{static_cast<std::int8_t>(from), static_cast<std::int8_t>(to)};
      p.nsteps = static_cast<std::uint8_t>(depth + 1);
      p.tag = tag;
      p.hits = C == Contact::Hit ? static_cast<std::uint8_t>(hit_mask | ((fx & kStepHit) << depth)) : 0;
      if (soft_before && depth + 1 >= preferred.best_depth && soft_ok(p.result))
        preferred.record(p.result, p.steps, depth + 1, tag, p.hits, unique);
      all.commit(depth + 1, unique);
    }
  }

  // One instantiation of the search per pair of traits: no branching on them in the hot path.
  void run() {
    if (movement == Movement::Parallel) {
      switch (contact) {
        case Contact::Block: return search<Movement::Parallel, Contact::Block>(0, -1);
        case Contact::Hit: return search<Movement::Parallel, Contact::Hit>(0, -1);
        case Contact::Pin: return search<Movement::Parallel, Contact::Pin>(0, -1);
      }
    }
    switch (contact) {
      case Contact::Block: return search<Movement::Contrary, Contact::Block>(0, -1);
      case Contact::Hit: return search<Movement::Contrary, Contact::Hit>(0, -1);
      case Contact::Pin: return search<Movement::Contrary, Contact::Pin>(0, -1);
    }
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
    l.truncate(k);
  }

  void soft_filter(MoveList& l) const {
    int k = 0;
    for (int i = 0; i < l.size(); ++i)
      if (soft_ok(l[i].result)) {
        if (k != i) l[k] = l[i];
        ++k;
      }
    if (k > 0) l.truncate(k);
  }
};

bool has_any_step(const SideState& me, const SideState& opp, const Rules& rules) {
  std::uint32_t closed;
  if (rules.contact == Contact::Block) {
    closed = opp_in_my_frame(opp.occ, rules.movement);
  } else {
    std::uint32_t two = 0;
    for (std::uint32_t m = opp.occ; m; m &= m - 1)
      if (opp.n[lowest_bit(m)] >= 2) two |= bit(lowest_bit(m));
    closed = opp_in_my_frame(two, rules.movement) | (rules.contact == Contact::Pin ? me.pinned : 0u);
  }
  if (rules.contact == Contact::Hit && me.bar) return (~closed & 0x3Fu) != 0;  // an entry point r0..r5 is open
  std::uint32_t movable = movable_points(me, rules.runner_threshold);
  if (rules.contact == Contact::Pin) movable &= ~me.pinned;
  for (int d = 1; d <= 6; ++d)
    if (movable & ~(closed >> d) & kStays[d]) return true;
  // All home: a 6 bears off the farthest checker (unless a pinned checker forbids bearing off).
  return me.occ && !must_stay_on_board(me) && (movable & kHomeMask) &&
         (rules.contact != Contact::Pin || rules.bearoff_with_pinned || me.pinned == 0);
}

MoveGenerator::MoveGenerator() : impl_(new Impl) {}
MoveGenerator::~MoveGenerator() { delete impl_; }

void MoveGenerator::generate(const Position& start, const Rules& rules, Dice dice, MoveList& out) {
  Impl& s = *impl_;
  s.rules = &rules;
  s.pos = start;
  s.contact = rules.contact;
  s.movement = rules.movement;
  s.doubles = dice.is_double();
  s.nsteps = rules.steps(dice.d1, dice.d2);
  s.per_step_r1 = rules.start_quarter == StartQuarterCheck::Step;
  s.per_step_prime = rules.six_prime == PrimeCheck::Step;
  s.bearoff_pinned_ok = rules.bearoff_with_pinned;
  s.soft_before = rules.unblock != Unblock::None && rules.unblock_priority == UnblockPriority::BeforeMaxDice;

  // Narde's head rule: one checker leaves r0 per turn, two on a first turn with the listed doubles.
  // The first-turn flag is the mover's until he has played: every result has it cleared.
  const bool first_turn = start.own().flags & SideState::kFirstTurn;
  s.pos.own().clear_first_turn();
  s.head_left = rules.head_limit == 0 ? kMaxSteps
                                      : rules.head_limit + (first_turn && s.doubles && ((rules.head_doubles >> dice.d1) & 1));

  // Points closed to the mover, fixed for the whole turn: a hit or a pin only ever touches a single
  // checker, and the mover's own pinned checkers stay pinned until the opponent moves.
  const SideState& o = start.opp();
  if (rules.contact == Contact::Block) {
    s.closed = opp_in_my_frame(o.occ, rules.movement);
    s.blots = 0;
  } else {
    std::uint32_t two = 0, one = 0;
    for (std::uint32_t m = o.occ; m; m &= m - 1) {
      const int r = lowest_bit(m);
      if (o.n[r] >= 2) two |= bit(r);
      else if (!(o.pinned & bit(r))) one |= bit(r);
    }
    s.closed = opp_in_my_frame(two, rules.movement);
    s.blots = opp_in_my_frame(one, rules.movement);
    if (rules.contact == Contact::Pin) s.closed |= start.own().pinned;  // the opponent sits on them
  }

  s.r3_wall = 0;
  if (rules.unblock == Unblock::R3StartOfTurn) {
    // R3 trigger (start of turn): all the opponent's checkers on one point s', s' + 6 <= 23, and the
    // mover holds the opponent's s'+1..s'+6.
    if (o.bar == 0 && popcount(o.occ) == 1) {
      const int sp = lowest_bit(o.occ);
      if (sp + 6 <= 23) {
        const std::uint32_t wall = opp_in_my_frame(range_mask(sp + 1, sp + 6), rules.movement);
        if ((start.own().occ & wall) == wall) s.r3_wall = wall;
      }
    }
  }
  s.r4_live = false;
  if (rules.unblock == Unblock::R4Result) {
    s.r4_live = (o.occ != 0 || o.bar != 0) && must_stay_on_board(o);
    const std::uint32_t movable = movable_points(o, rules.runner_threshold);
    std::uint32_t targets = 0;  // every point the opponent could step to, in his frame
    for (int d = 1; d <= 6; ++d) {
      s.opp_sources[d] = movable & range_mask(0, 23 - d);
      targets |= s.opp_sources[d] << d;
    }
    // A play changes the mover's occupancy on at most as many points as it has steps: if more of
    // the opponent's targets than that are free now, no result can block him.
    const std::uint32_t free_targets = targets & ~opp_in_my_frame(start.own().occ, rules.movement);
    if (popcount(free_targets) > s.nsteps) s.r4_live = false;
  }
  s.runner_threshold = rules.runner_release_turn && in_runner_phase(start.own(), rules.runner_threshold)
                           ? kPoints
                           : rules.runner_threshold;
  const bool order_dependent_steps =
      s.per_step_r1 || s.per_step_prime || in_runner_phase(start.own(), s.runner_threshold);
  // Checkers outside home (and on the bar): a bear-off needs one step for each of them first.
  int outside = start.own().bar;
  for (std::uint32_t m = start.own().occ & ~kHomeMask; m; m &= m - 1) outside += start.own().n[lowest_bit(m)];
  s.bearoff_live = outside < s.nsteps;
  // Two outside: after one step one remains, so no bear-off can make the die order matter.
  s.orders_commute = outside >= 2 && start.own().bar == 0 && !order_dependent_steps;
  s.unique = s.doubles ? !order_dependent_steps : s.orders_commute;
  // The Fevga family's whole-play constraints as masks: R1 at end of play (not all of r0..r5), R2a
  // (not all of r12..r17), R2b (not all of r13..r18 while the opponent has a start stack: he does not
  // move during the turn, so that is fixed), R2c (at most four of r12..r17).
  s.forbid_full[0] = rules.start_quarter == StartQuarterCheck::Play ? kStartQuarter : 0;
  s.forbid_full[1] = rules.opp_start_quarter == OppStartQuarter::R2a   ? kR2Quarter
                     : rules.opp_start_quarter == OppStartQuarter::R2b ? (o.n[0] ? kR2bFront : 0)
                                                                       : 0;
  s.r2c = rules.opp_start_quarter == OppStartQuarter::R2c;
  s.jacquet_six_prime = rules.six_prime_needs_last_two;
  s.has_hard_constraints =
      s.forbid_full[0] || s.forbid_full[1] || s.r2c || s.jacquet_six_prime || rules.six_prime == PrimeCheck::Play;
  s.runner_live = in_runner_phase(start.own(), s.runner_threshold);
  s.all.reset(&out);
  if (s.soft_before) s.preferred.reset(&s.preferred_list);
  else s.preferred.best_depth = kMaxSteps + 1;  // never records

  s.second_order = false;
  s.hit_mask = 0;
  if (s.doubles) {
    for (int k = 0; k < s.nsteps; ++k) s.seq[k] = dice.d1;
    s.run();
  } else {
    s.seq[0] = dice.d1;
    s.seq[1] = dice.d2;
    s.run();
    s.seq[0] = dice.d2;
    s.seq[1] = dice.d1;
    s.second_order = true;
    s.run();
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
    p.hits = 0;
    p.result = s.pos;
    out.size_ = 1;
    return;
  }
  if (kChecks)
    for (const Play& p : out) check_position(p.result);
  Impl::higher_die_rule(out, best, dice);
  const bool soft_live = rules.unblock == Unblock::R4Result       ? s.r4_live
                         : rules.unblock == Unblock::R3StartOfTurn ? s.r3_wall != 0
                                                                   : false;
  if (!s.soft_before && soft_live) s.soft_filter(out);
}

}  // namespace tavli
