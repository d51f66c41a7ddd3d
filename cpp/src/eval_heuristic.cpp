// Hand-written evaluators: a race formula, and per family of games a linear score of structure
// features turned into probabilities. Weights are set by hand (and checked by the strength script
// bench/strength.py); they are a baseline that learned evaluators (a later issue) replace.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "tavli/bearoff.h"
#include "tavli/eval.h"
#include "tavli/movegen.h"

namespace tavli {

Probabilities terminal_probabilities(const Outcome& o, Player to_move) {
  Probabilities p;
  if (o.winner < 0) {
    p.draw = 1.0f;
    return p;
  }
  const bool mover_wins = o.winner == static_cast<int>(to_move);
  if (o.kind == ResultKind::Checkers) {  // Tawla 31: one point per checker left, no kinds of win
    p.win = mover_wins ? 1.0f : 0.0f;
    p.margin = static_cast<float>(mover_wins ? o.points - 1 : 1 - o.points);
    return p;
  }
  // By points, so that equity is in the game's points: a mother win is a double, or a triple with
  // mother_points = 3.
  const bool dbl = o.points >= 2;
  const bool tpl = o.points >= 3;
  if (mover_wins) {
    p.win = 1;
    p.win_double = dbl;
    p.win_triple = tpl;
  } else {
    p.lose_double = dbl;
    p.lose_triple = tpl;
  }
  return p;
}

namespace {

inline std::uint32_t in_other_frame(std::uint32_t occ, Movement m) { return facing_points(m, occ); }

// One pass over a side's points: what the features need.
struct SideSummary {
  int pips = 0;
  int checkers = 0;           // on the board and the bar
  std::uint32_t made = 0;     // points with two or more
  std::uint32_t blots = 0;    // points with exactly one (free: not pinned)
};

SideSummary summarize(const SideState& s, int checkers) {
  SideSummary x;
  x.checkers = checkers - s.off;
#if defined(__SSE2__)
  // The 24 counts in two registers: masks by comparison, pips by a weighted sum.
  const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.n));       // n[0..15]
  const __m128i hi = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(s.n + 16));  // n[16..23], then 0
  const __m128i one = _mm_set1_epi8(1);
  const std::uint32_t made = static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpgt_epi8(lo, one))) |
                             static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpgt_epi8(hi, one))) << 16;
  const std::uint32_t single = static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(lo, one))) |
                               static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(hi, one))) << 16;
  const __m128i zero = _mm_setzero_si128();
  const __m128i w0 = _mm_setr_epi16(24, 23, 22, 21, 20, 19, 18, 17);
  const __m128i w1 = _mm_setr_epi16(16, 15, 14, 13, 12, 11, 10, 9);
  const __m128i w2 = _mm_setr_epi16(8, 7, 6, 5, 4, 3, 2, 1);
  __m128i sum = _mm_madd_epi16(_mm_unpacklo_epi8(lo, zero), w0);
  sum = _mm_add_epi32(sum, _mm_madd_epi16(_mm_unpackhi_epi8(lo, zero), w1));
  sum = _mm_add_epi32(sum, _mm_madd_epi16(_mm_unpacklo_epi8(hi, zero), w2));
  sum = _mm_add_epi32(sum, _mm_shuffle_epi32(sum, 0x4E));
  sum = _mm_add_epi32(sum, _mm_shuffle_epi32(sum, 0xB1));
  x.pips = 25 * s.bar + _mm_cvtsi128_si32(sum);
#else
  int pips = 25 * s.bar;
  std::uint32_t made = 0, single = 0;
  for (std::uint32_t m = s.occ; m; m &= m - 1) {
    const int r = lowest_bit(m);
    pips += s.n[r] * (24 - r);
    if (s.n[r] >= 2) made |= bit(r);
    else single |= bit(r);
  }
  x.pips = pips;
#endif
  x.made = made;
  x.blots = single & ~s.pinned;
  return x;
}

// Checkers beyond three on a point outside home and the start: hard to use (blocking games).
int piles(const SideState& s) {
  int p = 0;
  for (std::uint32_t m = s.occ & range_mask(1, 17); m; m &= m - 1) p += std::max(0, s.n[lowest_bit(m)] - 3);
  return p;
}

// Pips still to go before the first checker can be borne off: every checker home, then one off.
int pips_to_first_off(const SideState& s) {
  int p = 19 * s.bar;
  int nearest = 24;
  for (std::uint32_t m = s.occ; m; m &= m - 1) {
    const int r = lowest_bit(m);
    if (r < 18) p += s.n[r] * (18 - r);
    nearest = std::min(nearest, 24 - std::max(r, 18));
  }
  return p + std::min(nearest, 6);
}

inline float normal_cdf(float z) { return 0.5f * std::erfc(-z * 0.70710678f); }
inline float logistic(float x) { return 1.0f / (1.0f + std::exp(-x)); }

// Rolls to bear everything off: mean pips per roll 49/6, variance 18.47 per roll; each checker
// wastes about two pips on average.
struct Rolls {
  float mean, var;
};
Rolls rolls_for(float pips, int checkers) {
  const float eff = pips + 2.0f * checkers;
  return {std::max(eff / 8.1667f, checkers / 4.0f), 0.0339f * eff + 0.15f};
}

float p_first_faster(const Rolls& a, const Rolls& b) {
  // The side with `a` rolls first: it wins ties.
  return normal_cdf((b.mean - a.mean + 0.5f) / std::sqrt(a.var + b.var));
}

// Probability estimates from a score in logits (positive: good for the side to move), with
// double and triple chances growing with the margin and only while the loser has borne off none.
Probabilities from_score(float score, const Position& pos, const Rules& rules, float double_scale) {
  Probabilities p;
  p.win = logistic(score);
  const float lose = 1.0f - p.win;
  if (pos.opp().off == 0) p.win_double = p.win * p.win * double_scale;
  if (pos.own().off == 0) p.lose_double = lose * lose * double_scale;
  if (rules.scoring == Scoring::Backgammon || rules.koks) {
    p.win_triple = 0.08f * p.win_double * p.win;
    p.lose_triple = 0.08f * p.lose_double * lose;
  }
  return p;
}

// Shots at `target_blots` (a mask in the attacker's frame) by checkers at `attacker_occ` (the
// attacker's frame; bar at index -1 given as `from_bar`): direct (1..6 away) count 1, indirect
// (7..12) 1/3; blots far along their owner's route (low attacker-frame index for contrary
// movement) cost more to lose, so those count double.
float shots(std::uint32_t attacker_occ, bool from_bar, std::uint32_t target_blots, std::uint32_t costly) {
  // Attacker checkers move to higher attacker-frame indices; the bar is just below point 0.
  const std::uint64_t a = (static_cast<std::uint64_t>(attacker_occ) << 1) | (from_bar ? 1u : 0u);  // index + 1
  std::uint64_t direct = 0, indirect = 0;
  for (int d = 1; d <= 6; ++d) direct |= a << d;
  for (int d = 7; d <= 12; ++d) indirect |= a << d;
  const std::uint32_t dir = static_cast<std::uint32_t>(direct >> 1) & target_blots;
  const std::uint32_t ind = static_cast<std::uint32_t>(indirect >> 1) & target_blots & ~dir;
  return popcount(dir) + popcount(dir & costly) + (popcount(ind) + popcount(ind & costly)) / 3.0f;
}

inline int longest_run(std::uint32_t mask) {
  int best = 0;
  while (mask) {
    mask &= mask >> 1;
    ++best;
  }
  return best;
}

// --- hitting games: backgammon, Portes, Tavla ---------------------------------------------------

float hitting_score(const Position& pos, const Rules& rules, const SideSummary& me, const SideSummary& op) {
  const Movement mv = rules.movement;
  float s = 0.10f;                     // the roll
  s += (op.pips - me.pips) / 22.0f;    // the race
  // My shots now at his blots (both in my frame; his blots far along = my low points), and his
  // shots after my turn at mine (in his frame).
  s += 0.55f * shots(pos.own().occ, pos.own().bar, in_other_frame(op.blots, mv), range_mask(0, 11));
  s -= 0.20f * shots(pos.opp().occ, pos.opp().bar, in_other_frame(me.blots, mv), range_mask(0, 11));
  s += 0.12f * (popcount(me.made & kHomeMask) - popcount(op.made & kHomeMask));
  const int rm = longest_run(me.made), ro = longest_run(op.made);
  s += 0.06f * (rm * rm - ro * ro);
  s += 0.45f * (pos.opp().bar - pos.own().bar);
  s += 0.05f * (pos.own().off - pos.opp().off);
  return s;
}

// --- blocking games: Fevga, Moultezim, Narde ----------------------------------------------------

// How much `blocker`'s points obstruct the runner's checkers at `runner_occ` (runner's frame):
// for each runner point, the blocker points among the next six (one checker blocks), and the
// run of them right in front.
float blocking_value(std::uint32_t walls, const SideState& runner) {
  float v = 0;
  for (std::uint32_t rm = runner.occ & range_mask(0, 17); rm; rm &= rm - 1) {
    const int r = lowest_bit(rm);
    const std::uint32_t ahead = (walls >> (r + 1)) & 0x3Fu;
    const int run = __builtin_ctz(~ahead);  // blocked points right in front of it
    v += runner.n[r] * (popcount(ahead) * 0.15f + run * run * 0.10f);
  }
  return v;
}

float blocking_score(const Position& pos, const Rules& rules, const SideSummary& me, const SideSummary& op) {
  const Movement mv = rules.movement;
  float s = 0.10f;
  s += (op.pips - me.pips) / 20.0f;
  s += 0.020f * (blocking_value(in_other_frame(pos.own().occ, mv), pos.opp()) -
                 blocking_value(in_other_frame(pos.opp().occ, mv), pos.own()));
  s += 0.04f * (popcount(pos.own().occ & ~1u) - popcount(pos.opp().occ & ~1u));  // spread
  s -= 0.03f * (piles(pos.own()) - piles(pos.opp()));
  s += 0.06f * (pos.own().off - pos.opp().off);
  return s;
}

// --- Plakoto --------------------------------------------------------------------------------------

// Value of `pinner`'s pins on `pinned`'s checkers: a pinned checker cannot move and blocks its
// owner's bear-off; worth more the further it has to go, most on the owner's start (the mother).
float pin_value(const SideState& pinner, const SideState& pinned, const Rules& rules) {
  float v = 0;
  for (std::uint32_t pm = pinned.pinned; pm; pm &= pm - 1) {
    const int r = lowest_bit(pm);
    v += 0.6f + 0.8f * (24 - r) / 24.0f;
    if (r == 0 && pinned.n[0] == 1) v += rules.mother != MotherRule::Off ? (pinner.n[0] == 0 ? 4.0f : 1.5f) : 0.5f;
  }
  return v;
}

float plakoto_score(const Position& pos, const Rules& rules, const SideSummary& me, const SideSummary& op) {
  const Movement mv = rules.movement;
  float s = 0.10f;
  s += (op.pips - me.pips) / 25.0f;
  s += pin_value(pos.own(), pos.opp(), rules) - pin_value(pos.opp(), pos.own(), rules);
  // Free single checkers the other side can land on (and pin); pinned checkers cannot move.
  s += 0.45f * shots(pos.own().occ & ~pos.own().pinned, false, in_other_frame(op.blots, mv), range_mask(0, 11));
  s -= 0.30f * shots(pos.opp().occ & ~pos.opp().pinned, false, in_other_frame(me.blots, mv), range_mask(0, 11));
  s += 0.05f * (popcount(me.made) - popcount(op.made));
  s += 0.05f * (pos.own().off - pos.opp().off);
  return s;
}

Probabilities race_from(const Position& pos, const SideSummary& me, const SideSummary& op) {
  if (all_home(pos.own()) && all_home(pos.opp())) return bearoff_race(pos);  // is_race holds here
  const Rolls mine = rolls_for(static_cast<float>(me.pips), me.checkers);
  const Rolls his = rolls_for(static_cast<float>(op.pips), op.checkers);
  Probabilities p;
  p.win = p_first_faster(mine, his);
  if (pos.opp().off == 0) {
    const Rolls his_first = rolls_for(static_cast<float>(pips_to_first_off(pos.opp())), 1);
    p.win_double = std::min(p.win, p_first_faster(mine, his_first) * 0.98f);
  }
  if (pos.own().off == 0) {
    const Rolls my_first = rolls_for(static_cast<float>(pips_to_first_off(pos.own())), 1);
    // He rolls second: he finishes before my first checker is off when my_first is not faster.
    p.lose_double = std::min(1.0f - p.win, (1.0f - p_first_faster(my_first, his)) * 0.98f);
  }
  return p;
}

class HeuristicEvaluator final : public Evaluator {
 public:
  std::string name() const override { return "heuristic"; }
  void evaluate(const Position* positions, int n, const Rules& rules, Probabilities* out) const override {
    for (int i = 0; i < n; ++i) out[i] = one(positions[i], rules);
  }

 private:
  static Probabilities one(const Position& pos, const Rules& rules) {
    const SideSummary me = summarize(pos.own(), rules.checkers), op = summarize(pos.opp(), rules.checkers);
    Probabilities p;
    if (is_race(pos, rules)) {
      p = race_from(pos, me, op);
    } else {
      switch (rules.contact) {
        case Contact::Hit: p = from_score(hitting_score(pos, rules, me, op), pos, rules, 0.35f); break;
        case Contact::Pin: p = from_score(plakoto_score(pos, rules, me, op), pos, rules, 0.45f); break;
        case Contact::Block: p = from_score(blocking_score(pos, rules, me, op), pos, rules, 0.30f); break;
      }
    }
    return scored(p, pos, rules, me, op);
  }

  // What the game's scoring makes of the estimates: no doubles where every win is single, and for
  // Tawla 31 the expected count of checkers the loser keeps.
  static Probabilities scored(Probabilities p, const Position& pos, const Rules& rules, const SideSummary& me,
                              const SideSummary& op) {
    if (rules.scoring != Scoring::Single && rules.scoring != Scoring::CheckersLeft) return p;
    p.win_double = p.win_triple = p.lose_double = p.lose_triple = 0.0f;
    if (rules.scoring == Scoring::CheckersLeft)
      p.margin = p.win * (expected_left(pos.opp(), op, me, false) - 1.0f) -
                 p.lose() * (expected_left(pos.own(), me, op, true) - 1.0f);
    return p;
  }

  // A rough count of the loser's checkers left when the winner finishes: the winner needs about
  // rolls_for(...) rolls; the loser first brings every checker home, then bears off about two a roll.
  static float expected_left(const SideState& loser, const SideSummary& l, const SideSummary& w, bool loser_on_roll) {
    int to_home = 0;
    for (std::uint32_t m = loser.occ & ~kHomeMask; m; m &= m - 1) {
      const int r = lowest_bit(m);
      to_home += loser.n[r] * (18 - r);
    }
    const float winner_rolls = rolls_for(static_cast<float>(w.pips), w.checkers).mean;
    const float loser_rolls = winner_rolls - (loser_on_roll ? 0.0f : 1.0f);  // the winner rolls first
    const float bearing = std::max(0.0f, loser_rolls - to_home / 8.1667f);
    return std::clamp(static_cast<float>(l.checkers) - 2.0f * bearing, 1.0f, static_cast<float>(l.checkers));
  }
};

}  // namespace

bool is_race(const Position& pos, const Rules& rules) {
  const SideState& me = pos.own();
  const SideState& op = pos.opp();
  if (me.bar || op.bar || me.pinned || op.pinned) return false;
  if (me.occ == 0 || op.occ == 0) return true;
  // Contact: an opposing checker stands somewhere ahead of one of mine on my route, or the reverse.
  const int my_rear = lowest_bit(me.occ), op_rear = lowest_bit(op.occ);
  const std::uint32_t op_in_mine = in_other_frame(op.occ, rules.movement);
  const std::uint32_t me_in_his = in_other_frame(me.occ, rules.movement);
  const std::uint32_t ahead_of_me = kBoardMask & ~((2u << my_rear) - 1);
  const std::uint32_t ahead_of_him = kBoardMask & ~((2u << op_rear) - 1);
  return !(op_in_mine & ahead_of_me) && !(me_in_his & ahead_of_him);
}

// Both sides with every checker home: exact one-sided distributions (bearoff.h). The side on roll
// wins when it needs no more rolls than the other; a double when the other needs more rolls than
// that even for his first checker (only while he has none off).
Probabilities bearoff_race(const Position& pos) {
  const BearoffTable& t = BearoffTable::get();
  const int mi = BearoffTable::index(pos.own()), oi = BearoffTable::index(pos.opp());
  return race_from_rolls(t.rolls_to_finish(mi), t.rolls_to_finish(oi), t.rolls_to_first(mi), t.rolls_to_first(oi),
                         BearoffTable::kMaxRolls, pos.opp().off == 0, pos.own().off == 0);
}

Probabilities race_from_rolls(const float* me, const float* op, const float* me_first, const float* op_first, int K,
                              bool gammon_to_win, bool gammon_to_lose) {
  constexpr int kMax = 64;
  if (K < 1 || K > kMax) throw std::invalid_argument("race_from_rolls: 1..64 roll counts");
  // Tails: P(N >= n).
  float op_tail[kMax + 1], opf_tail[kMax + 1], mef_tail[kMax + 1];
  op_tail[K] = opf_tail[K] = mef_tail[K] = 0.0f;
  for (int n = K - 1; n >= 0; --n) {
    op_tail[n] = op_tail[n + 1] + op[n];
    opf_tail[n] = opf_tail[n + 1] + op_first[n];
    mef_tail[n] = mef_tail[n + 1] + me_first[n];
  }
  Probabilities p;
  for (int n = 1; n < K; ++n) {
    p.win += me[n] * op_tail[n];
    if (gammon_to_win) p.win_double += me[n] * opf_tail[n];
    if (gammon_to_lose && n < K) p.lose_double += op[n] * mef_tail[std::min(n + 1, K)];
  }
  p.win = std::min(1.0f, p.win);
  return p;
}

bool is_bearoff_race(const Position& pos, const Rules& rules) {
  return all_home(pos.own()) && all_home(pos.opp()) && is_race(pos, rules);
}

const Evaluator& heuristic_evaluator() {
  static const HeuristicEvaluator e;
  return e;
}

}  // namespace tavli
