#include "tavli/cubeful_rollout.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "tavli/cubeful_search.h"
#include "tavli/interrupt.h"
#include "tavli/parallel.h"
#include "tavli/play_rollout.h"
#include "tavli/playout.h"
#include "tavli/rng.h"
#include "tavli/rollout_luck.h"
#include "tavli/scratch.h"

namespace tavli {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int kLargestCube = 1 << kMaxCubeLog2;

// The evaluator's probabilities clamped into the order the cube formulas check (a net's outputs
// can break it by a hair).
class OrderedEvaluator final : public Evaluator {
 public:
  explicit OrderedEvaluator(const Evaluator& inner) : inner_(inner) {}
  using Evaluator::evaluate;
  std::string name() const override { return inner_.name(); }
  void evaluate(const Position* positions, int n, const Rules& rules, Probabilities* out) const override {
    inner_.evaluate(positions, n, rules, out);
    for (int i = 0; i < n; ++i) out[i] = ordered_for_cube(out[i]);
  }
  std::string refusal(const Rules& rules) const override { return inner_.refusal(rules); }

 private:
  const Evaluator& inner_;
};

bool doubles(CubeAction a) {
  return a == CubeAction::DoubleTake || a == CubeAction::DoubleBeaver || a == CubeAction::DoublePass;
}

// One rollout's fixed parts, shared by every trial.
class CubefulTrials {
 public:
  CubefulTrials(const Position& start, const Rules& rules, Player mover, const Evaluator& ev,
                const CubefulRolloutOptions& opt)
      : start_(start), rules_(rules), mover_(mover), ev_(&ev), opt_(opt), met_(*opt.met),
        away_{opt.match.away(kWhite), opt.match.away(kBlack)},
        one_away_now_(!opt.match.money() && (opt.match.crawford || away_[0] == 1 || away_[1] == 1)) {
    search_.plies = opt.rollout.player.kind == PlayerSpec::Kind::Search ? opt.rollout.player.plies : 0;
    search_.filters = opt.rollout.player.filters;
  }
  // The same rollout's parts judged by `judge` at 0 plies: the luck of its rolls when a luck
  // evaluator is given (rollout.h's luck_evaluator), `ev` its ordered form.
  CubefulTrials(const CubefulTrials& of, const Evaluator& judge) : CubefulTrials(of) {
    ev_ = &judge;
    search_.plies = 0;
  }
  void judge_luck_by(const CubefulTrials* luck) { luck_ = luck; }

  bool money() const { return opt_.match.money(); }

  // What `self` has once `winner` scores `points` on the board with the cube at c (money: points,
  // the cube's value and Jacoby's rule included; match: MWC).
  double result(Player self, Player winner, int points, const CubeState& c) const {
    if (money()) {
      const int pts = (c.jacoby && c.centred() ? 1 : points) * c.value;
      return self == winner ? pts : -pts;
    }
    return met_.after_game(away_, one_away_now_, self, winner, points * c.value);
  }

  // An absolute value of the original mover in the units of cubeful.h's results for the cube c:
  // money per unit of the cube, match EMG (linear between losing and winning c's value).
  double normalised(double v, const CubeState& c) const {
    if (money()) return v / c.value;
    const double win = result(mover_, mover_, 1, c), lose = result(mover_, other(mover_), 1, c);
    return (2.0 * v - (win + lose)) / (win - lose);
  }
  // d(normalised)/dv: standard errors scale by it.
  double scale(const CubeState& c) const {
    if (money()) return 1.0 / c.value;
    return 2.0 / (result(mover_, mover_, 1, c) - result(mover_, other(mover_), 1, c));
  }

  // Trial i with the cube starting at `cube`; `act_first`: the mover may double before his first
  // roll. Returns the original mover's absolute value (less the luck of its rolls with variance
  // reduction); `truncated` says whether it was estimated.
  double play(std::int64_t i, CubeState cube, bool act_first, bool& truncated) const {
    double luck = 0;  // the original mover's, in his absolute units
    const bool reduce = opt_.rollout.variance_reduction;
    Rng rng(Rng::derive(opt_.rollout.seed, static_cast<std::uint64_t>(i)));
    Scratch<MoveList> plays;  // per thread: a move list is too big to build for every trial
    MoveList& list = *plays;
    Position pos = start_;
    Player side = mover_;
    const int max_plies =
        opt_.rollout.truncate > 0 ? std::min(opt_.rollout.truncate, kMaxRolloutPlies) : kMaxRolloutPlies;
    truncated = false;
    for (int ply = 0; ply < max_plies; ++ply) {
      check_stop();
      if ((ply > 0 || act_first) && may_double_now(cube, side)) {
        const CubeDecision d = decision(pos, side, cube);
        if (doubles(d.action)) {
          if (d.take == TakeDecision::Pass) {
            const double v = result(mover_, side, 1, cube);
            return reduce ? v - luck : v;
          }
          const bool beaver = d.take == TakeDecision::Beaver && 4 * cube.value <= cap(cube);
          cube.value *= beaver ? 4 : 2;
          cube.owner = other(side);
        }
      }
      const Dice dice = rollout_dice(opt_.rollout, i, ply, rng);
      if (reduce) luck += (side == mover_ ? 1.0 : -1.0) * luck_of(pos, side, dice, cube);
      const PlyResult step = advance(pos, best_play(pos, side, dice, cube, list), rules_, side);
      if (step.outcome) {
        const double v = result(mover_, static_cast<Player>(step.outcome->winner), step.outcome->points, cube);
        return reduce ? v - luck : v;
      }
      pos = step.position;
      side = step.to_move;
    }
    truncated = true;
    const double v = value_before_roll(pos, side, cube);
    return reduce ? v - luck : v;
  }

 private:
  static int cap(const CubeState& c) { return c.max_cube ? std::min(c.max_cube, kLargestCube) : kLargestCube; }
  bool may_double_now(const CubeState& c, Player side) const {
    return may_double(c, opt_.match, side) && 2 * c.value <= cap(c);
  }

  // side's cube decision before his roll in `pos` at the player's depth. At 0 plies the 0-ply
  // formula on the static probabilities (what cubeful_decision does at 0 plies, without building
  // a searcher for each call).
  CubeDecision decision(const Position& pos, Player side, const CubeState& c) const {
    if (search_.plies > 0) return cubeful_decision(pos, rules_, side, c, opt_.match, met_, *ev_, search_);
    return decision_0ply(pos, side, c, ev_->evaluate(pos, rules_));
  }
  CubeDecision decision_0ply(const Position& pos, Player side, const CubeState& c, const Probabilities& p) const {
    return cube_decision(p, c, opt_.match, side, cube_efficiency(pos, rules_), met_);
  }

  // The luck of `dice` for `side` on roll in `pos` at the cube c (rollout_luck.h), in side's
  // absolute units: the value after the roll's best play less the mean over the 21 rolls.
  double luck_of(const Position& pos, Player side, Dice dice, const CubeState& c) const {
    if (luck_) return luck_->luck_of(pos, side, dice, c);
    Scratch<MoveList> plays;  // not the trial's list
    std::array<double, kDistinctRolls> v;
    for (int r = 0; r < kDistinctRolls; ++r)
      best_play(pos, side, all_rolls()[static_cast<std::size_t>(r)].dice, c, *plays, &v[static_cast<std::size_t>(r)]);
    return roll_luck(v, dice);
  }

  // side's best play for `dice` at the cube c: the greedy player's by the 0-ply cubeful value of
  // each result (the opponent's cube action included), a search player's by cubeful_analyze.
  // `value`, when given, receives its value for side (absolute: money points or MWC).
  const Play& best_play(const Position& pos, Player side, Dice dice, const CubeState& c, MoveList& list,
                        double* value = nullptr) const {
    thread_generator().generate(pos, rules_, dice, list);
    if (list.size() == 1 && !value) return list[0];
    if (search_.plies > 0) {
      const CubefulAnalysis a = cubeful_analyze(pos, rules_, side, dice, c, opt_.match, met_, *ev_, search_);
      const CubefulPlayValue& top = a.plays.front();
      if (value) *value = money() ? top.equity * c.value : top.mwc;
      return list[std::max(0, list.find(top.play.result))];
    }
    Scratch<std::vector<Position>> children_scratch;
    Scratch<std::vector<int>> where_scratch;
    Scratch<std::vector<Probabilities>> probs_scratch;
    std::vector<Position>& children = *children_scratch;
    std::vector<int>& where = *where_scratch;
    std::vector<Probabilities>& probs = *probs_scratch;
    children.clear();
    where.clear();
    int best = 0;
    double best_value = -std::numeric_limits<double>::infinity();
    auto consider = [&](int k, double v) {  // the first of equal values wins, as generated
      if (v > best_value || (v == best_value && k < best)) best_value = v, best = k;
    };
    for (int k = 0; k < list.size(); ++k) {
      const PlyResult step = advance(pos, list[k], rules_, side);
      if (step.outcome) {
        consider(k, result(side, static_cast<Player>(step.outcome->winner), step.outcome->points, c));
      } else {
        children.push_back(step.position);
        where.push_back(k);
      }
    }
    probs.resize(children.size());
    if (!children.empty()) ev_->evaluate(children.data(), static_cast<int>(children.size()), rules_, probs.data());
    const Player opp = other(side);
    for (std::size_t j = 0; j < children.size(); ++j) {
      const double theirs = own_value(opp, c, decision_0ply(children[j], opp, c, probs[j]));
      consider(where[j], money() ? -theirs : 1.0 - theirs);
    }
    if (value) *value = best_value;
    return list[best];
  }

  // side's absolute value before his roll at the cube c from his cube decision d there: the
  // better of playing on and doubling (the taker's best answer), money points or MWC.
  double own_value(Player side, const CubeState& c, const CubeDecision& d) const {
    double best = d.nd, best_mwc = d.nd_mwc;
    if (d.available && may_double_now(c, side)) {
      double answer = std::min(d.dt, d.dp), answer_mwc = d.dt <= d.dp ? d.dt_mwc : d.dp_mwc;
      if (money() && c.beavers && 4 * c.value <= cap(c)) answer = std::min(answer, 2.0 * d.dt);
      if (answer > best) best = answer, best_mwc = answer_mwc;
    }
    return money() ? best * c.value : best_mwc;
  }

  // The original mover's absolute value of `pos` before `side`'s roll at the cube c, side's cube
  // action included, at the player's depth.
  double value_before_roll(const Position& pos, Player side, const CubeState& c) const {
    const double own = own_value(side, c, decision(pos, side, c));
    if (side == mover_) return own;
    return money() ? -own : 1.0 - own;
  }

  const Position& start_;
  const Rules& rules_;
  Player mover_;
  const Evaluator* ev_;  // a pointer: the luck judge is a copy with another evaluator
  const CubefulTrials* luck_ = nullptr;  // judges the luck of the rolls in this one's place
  const CubefulRolloutOptions& opt_;
  const MatchEquityTable& met_;
  std::array<int, 2> away_;
  bool one_away_now_;
  SearchOptions search_;
};

void check_options(const Position& pos, const Rules& rules, const CubefulRolloutOptions& opt) {
  if (!rules.info().takes_cube)
    throw std::invalid_argument(rules.info().name + " has no doubling cube, so no cubeful rollout");
  validate_for(rules.info(), opt.cube, opt.match);
  if (!opt.met) throw std::invalid_argument("a cubeful rollout needs a match equity table");
  if (!opt.match.money() && opt.match.length > opt.met->length())
    throw std::invalid_argument("the match equity table " + opt.met->name() + " covers matches up to " +
                                std::to_string(opt.met->length()) + " points, not " +
                                std::to_string(opt.match.length));
  if (opt.rollout.player.kind == PlayerSpec::Kind::Random)
    throw std::invalid_argument("a cubeful rollout needs a greedy or search player (a random one makes no cube decisions)");
  if (opt.rollout.player.plies < 0 || opt.rollout.player.plies > 8)
    throw std::invalid_argument("cubeful rollout player plies must be 0..8");
  check_rollout_options(pos, rules, opt.rollout);
}

bool decision_available(const CubefulRolloutOptions& opt, Player mover) {
  return may_double(opt.cube, opt.match, mover) && 2 * opt.cube.value <= kLargestCube;
}

// The trials' values: one line (a position, or a decision without a double available: x[0]) or
// the paired No double and Double/take lines (x[0], x[1] and their difference x[2]).
std::vector<RolloutMoments> trial_blocks(const CubefulTrials& trials, const CubefulRolloutOptions& opt, Player mover,
                                         bool decision, std::int64_t first, std::int64_t count) {
  if (decision && decision_available(opt, mover)) {
    CubeState doubled = opt.cube;
    doubled.value *= 2;
    doubled.owner = other(mover);
    // The same trial i for both lines: the same generator and strata, so the same dice until the
    // cube makes the two games differ.
    return reduce_trials(opt.rollout, first, count, [&](std::int64_t i, double (&x)[RolloutMoments::kFields]) {
      bool cut_nd = false, cut_dt = false;
      x[0] = trials.play(i, opt.cube, false, cut_nd);
      x[1] = trials.play(i, doubled, false, cut_dt);
      x[2] = x[1] - x[0];
      return static_cast<std::int64_t>(cut_nd) + static_cast<std::int64_t>(cut_dt);
    });
  }
  // A position lets the mover act on the cube before his first roll; a decision's No double does not.
  const bool act_first = !decision;
  return reduce_trials(opt.rollout, first, count, [&](std::int64_t i, double (&x)[RolloutMoments::kFields]) {
    bool cut = false;
    x[0] = trials.play(i, opt.cube, act_first, cut);
    return static_cast<std::int64_t>(cut);
  });
}

void check_blocks(const std::vector<RolloutMoments>& blocks, const CubefulRolloutOptions& opt) {
  std::int64_t n = 0;
  for (const RolloutMoments& b : blocks) n += b.n;
  if (n != opt.rollout.trials)
    throw std::invalid_argument("cubeful rollout blocks: they hold " + std::to_string(n) + " trials, not the " +
                                std::to_string(opt.rollout.trials) + " of the rollout");
}

}  // namespace

std::vector<RolloutMoments> cubeful_rollout_blocks(const Position& pos, const Rules& rules, Player mover,
                                                   const Evaluator& ev, const CubefulRolloutOptions& opt,
                                                   bool decision, std::int64_t first, std::int64_t count) {
  check_options(pos, rules, opt);
  const OrderedEvaluator ordered(ev);
  CubefulTrials trials(pos, rules, mover, ordered, opt);
  if (!opt.rollout.luck_evaluator) return trial_blocks(trials, opt, mover, decision, first, count);
  const OrderedEvaluator ordered_luck(*opt.rollout.luck_evaluator);
  const CubefulTrials luck(trials, ordered_luck);
  trials.judge_luck_by(&luck);
  return trial_blocks(trials, opt, mover, decision, first, count);
}

CubefulRolloutValue combine_cubeful_rollout(const Position& pos, const Rules& rules, Player mover,
                                            const Evaluator& ev, const CubefulRolloutOptions& opt,
                                            const std::vector<RolloutMoments>& blocks) {
  check_options(pos, rules, opt);
  check_blocks(blocks, opt);
  const OrderedEvaluator ordered(ev);
  const CubefulTrials trials(pos, rules, mover, ordered, opt);
  const RolloutMoments m = fold_blocks(blocks);
  CubefulRolloutValue r;
  r.trials = m.n;
  r.truncated = m.truncated;
  r.equity = trials.normalised(m.mean[0], opt.cube);
  r.equity_std_error = std_error_of(m, 0) * trials.scale(opt.cube);
  r.mwc = opt.match.money() ? kNaN : m.mean[0];
  r.mwc_std_error = opt.match.money() ? kNaN : std_error_of(m, 0);
  return r;
}

CubefulRolloutDecision combine_cubeful_rollout_decision(const Position& pos, const Rules& rules, Player mover,
                                                        const Evaluator& ev, const CubefulRolloutOptions& opt,
                                                        const std::vector<RolloutMoments>& blocks) {
  check_options(pos, rules, opt);
  check_blocks(blocks, opt);
  const OrderedEvaluator ordered(ev);
  const CubefulTrials trials(pos, rules, mover, ordered, opt);
  const RolloutMoments m = fold_blocks(blocks);
  CubefulRolloutDecision r;
  CubeDecision& d = r.decision;
  d.efficiency = cube_efficiency(pos, rules);
  d.available = decision_available(opt, mover);
  r.trials = m.n;
  r.truncated = m.truncated;
  const double scale = trials.scale(opt.cube);
  const bool money = opt.match.money();
  d.nd = trials.normalised(m.mean[0], opt.cube);
  r.nd_std_error = std_error_of(m, 0) * scale;
  if (money) {
    r.nd_mwc_std_error = r.dt_mwc_std_error = kNaN;
  } else {
    d.nd_mwc = m.mean[0];
    r.nd_mwc_std_error = std_error_of(m, 0);
  }
  if (!d.available) {  // No double only: the mover may not double before his first roll either
    r.dt_std_error = r.dt_mwc_std_error = r.difference_std_error = kNaN;
    return r;
  }
  const double cash = trials.result(mover, mover, 1, opt.cube);
  d.dt = trials.normalised(m.mean[1], opt.cube);
  d.dp = trials.normalised(cash, opt.cube);
  r.dt_std_error = std_error_of(m, 1) * scale;
  r.difference_std_error = std_error_of(m, 2) * scale;
  if (!money) {
    d.dt_mwc = m.mean[1];
    d.dp_mwc = cash;
    r.dt_mwc_std_error = std_error_of(m, 1);
  }
  const bool beavers = money && opt.cube.beavers;
  const Probabilities p = ordered.evaluate(pos, rules);
  d.action = cube_action(d.nd, d.dt, d.dp, beavers, p.win_double > 0);
  d.take = take_decision(d.dt, d.dp, beavers);
  return r;
}

CubefulPlayRollout cubeful_rollout_plays(const Position& pos, const Rules& rules, Player mover,
                                         const std::vector<Play>& plays, const Evaluator& ev,
                                         const CubefulRolloutOptions& opt, double eliminate) {
  check_options(pos, rules, opt);
  check_play_rollout(plays, eliminate);
  const OrderedEvaluator ordered(ev);
  const CubefulTrials here(pos, rules, mover, ordered, opt);  // the side that plays: its units, finished games
  std::unique_ptr<OrderedEvaluator> ordered_luck;
  if (opt.rollout.luck_evaluator) ordered_luck = std::make_unique<OrderedEvaluator>(*opt.rollout.luck_evaluator);
  // Each candidate's trials from its result (the other side on roll), or its finished game's value.
  struct Candidate {
    Position start;  // CubefulTrials keeps a reference to it: the vector is sized once, never moved
    std::unique_ptr<CubefulTrials> trials, luck;
    double ended = kNaN;
  };
  std::vector<Candidate> cand(plays.size());
  for (std::size_t k = 0; k < plays.size(); ++k) {
    const PlyResult step = advance(pos, plays[k], rules, mover);
    if (step.outcome) {
      cand[k].ended = here.result(mover, static_cast<Player>(step.outcome->winner), step.outcome->points, opt.cube);
      continue;
    }
    cand[k].start = step.position;
    cand[k].trials = std::make_unique<CubefulTrials>(cand[k].start, rules, step.to_move, ordered, opt);
    if (ordered_luck) {
      cand[k].luck = std::make_unique<CubefulTrials>(*cand[k].trials, *ordered_luck);
      cand[k].trials->judge_luck_by(cand[k].luck.get());
    }
  }
  const bool money = opt.match.money();
  using Values = double[RolloutMoments::kFields];
  const PairedTrials t = reduce_paired_trials(
      plays.size(), opt.rollout, 0, eliminate, [&](std::size_t k, std::int64_t i, Values& x) {
        if (!cand[k].trials) {
          x[0] = cand[k].ended;
          return false;
        }
        bool cut = false;
        const double theirs = cand[k].trials->play(i, opt.cube, true, cut);  // he may double first
        x[0] = money ? -theirs : 1.0 - theirs;  // money points, or MWC, of the side that played
        return cut;
      });
  CubefulPlayRollout out;
  const double scale = here.scale(opt.cube);
  for (const auto& blocks : t.blocks) {
    const RolloutMoments m = fold_blocks(blocks);
    CubefulRolloutValue r;
    r.trials = m.n;
    r.truncated = m.truncated;
    r.equity = here.normalised(m.mean[0], opt.cube);
    r.equity_std_error = std_error_of(m, 0) * scale;
    r.mwc = money ? kNaN : m.mean[0];
    r.mwc_std_error = money ? kNaN : std_error_of(m, 0);
    out.plays.push_back(r);
  }
  out.difference_std_error = t.difference_std_error;
  for (double& se : out.difference_std_error) se *= scale;
  return out;
}

CubefulRolloutValue cubeful_rollout(const Position& pos, const Rules& rules, Player mover, const Evaluator& ev,
                                    const CubefulRolloutOptions& opt) {
  return combine_cubeful_rollout(pos, rules, mover, ev, opt,
                                 cubeful_rollout_blocks(pos, rules, mover, ev, opt, false, 0, opt.rollout.trials));
}

CubefulRolloutDecision cubeful_rollout_decision(const Position& pos, const Rules& rules, Player mover,
                                                const Evaluator& ev, const CubefulRolloutOptions& opt) {
  return combine_cubeful_rollout_decision(
      pos, rules, mover, ev, opt, cubeful_rollout_blocks(pos, rules, mover, ev, opt, true, 0, opt.rollout.trials));
}

}  // namespace tavli
