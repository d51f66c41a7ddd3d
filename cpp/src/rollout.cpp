#include "tavli/rollout.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "tavli/interrupt.h"
#include "tavli/parallel.h"
#include "tavli/playout.h"
#include "tavli/rng.h"
#include "tavli/rollout_luck.h"
#include "tavli/scratch.h"
#include "tavli/search.h"

namespace tavli {
namespace {

constexpr int kOutcomes = 36;
constexpr std::int64_t kBlock = kOutcomes * kOutcomes;
// Trials are played a chunk at a time and reduced in trial order, so memory stays flat for
// millions of trials; the chunk size does not change any result (the blocks of rollout.h do).
constexpr std::int64_t kChunk = 4096;

Dice outcome_dice(std::int64_t k) { return Dice{static_cast<int>(k / 6) + 1, static_cast<int>(k % 6) + 1}; }

// The value of a position the trial stops in, for its side to move: the evaluator's, at the
// depth the player searches at.
Probabilities value_unfinished(const Position& pos, const Rules& rules, const Evaluator& ev, const PlayerSpec& player) {
  if (player.kind != PlayerSpec::Kind::Search || player.plies == 0) return ev.evaluate(pos, rules);
  SearchOptions so;
  so.plies = player.plies;
  so.filters = player.filters;
  return evaluate(pos, rules, ev, so).probabilities;
}

double field(const Probabilities& p, int f);

// Adds to `luck` (the original mover's view, field by field) the luck of `dice` for the side to
// move in `pos` (rollout_luck.h); `own`: he is the original mover.
void add_luck(const Position& pos, const Rules& rules, const Evaluator& ev, const RolloutOptions& opt, Dice dice,
              bool own, double (&luck)[RolloutMoments::kFields]) {
  Scratch<std::array<Probabilities, kDistinctRolls>> values;
  if (opt.luck_evaluator)
    greedy_roll_values(pos, rules, *opt.luck_evaluator, *values);
  else
    roll_values(pos, rules, ev, opt.player, *values);
  std::array<double, kDistinctRolls> v;
  for (int f = 0; f < RolloutMoments::kFields; ++f) {
    for (int r = 0; r < kDistinctRolls; ++r) {
      const Probabilities& p = (*values)[static_cast<std::size_t>(r)];
      v[static_cast<std::size_t>(r)] = field(own ? p : p.inverted(), f);
    }
    luck[f] += roll_luck(v, dice);
  }
}

}  // namespace

bool rollout_trial(const Position& start, const Rules& rules, const Evaluator& ev, const RolloutOptions& opt,
                   std::int64_t i, double (&x)[RolloutMoments::kFields]) {
  Rng rng(Rng::derive(opt.seed, static_cast<std::uint64_t>(i)));
  // Per-thread scratch: a generator's tables and a move list are too big to build for every trial.
  MoveGenerator& gen = thread_generator();
  Scratch<MoveList> plays;
  MoveList& list = *plays;
  double luck[RolloutMoments::kFields] = {};
  auto finish = [&](const Probabilities& p, bool truncated) {
    for (int f = 0; f < RolloutMoments::kFields; ++f) x[f] = field(p, f);
    if (opt.variance_reduction)
      for (int f = 0; f < RolloutMoments::kFields; ++f) x[f] -= luck[f];
    return truncated;
  };
  // Colours only label the sides here: the original mover is White.
  Position pos = start;
  Player mover = kWhite;
  const int max_plies = opt.truncate > 0 ? std::min(opt.truncate, kMaxRolloutPlies) : kMaxRolloutPlies;
  for (int ply = 0; ply < max_plies; ++ply) {
    check_stop();
    const Dice dice = rollout_dice(opt, i, ply, rng);
    if (opt.variance_reduction) add_luck(pos, rules, ev, opt, dice, mover == kWhite, luck);
    gen.generate(pos, rules, dice, list);
    const int k = choose_play(opt.player, ev, pos, rules, dice, list, rng);
    const PlyResult step = advance(pos, list[k], rules, mover);
    pos = step.position;
    mover = step.to_move;
    if (step.outcome) return finish(terminal_probabilities(*step.outcome, kWhite), false);
  }
  const Probabilities v = value_unfinished(pos, rules, ev, opt.player);
  return finish(mover == kWhite ? v : v.inverted(), true);
}

namespace {

double field(const Probabilities& p, int f) {
  switch (f) {
    case 0: return p.win;
    case 1: return p.win_double;
    case 2: return p.win_triple;
    case 3: return p.lose_double;
    case 4: return p.lose_triple;
    case 5: return p.draw;
    case 6: return p.margin;
    default: return p.equity();
  }
}

// The seven fields of Probabilities from per-field values (means or standard errors).
Probabilities probabilities_of(const double (&x)[RolloutMoments::kFields]) {
  Probabilities p;
  p.win = static_cast<float>(x[0]);
  p.win_double = static_cast<float>(x[1]);
  p.win_triple = static_cast<float>(x[2]);
  p.lose_double = static_cast<float>(x[3]);
  p.lose_triple = static_cast<float>(x[4]);
  p.draw = static_cast<float>(x[5]);
  p.margin = static_cast<float>(x[6]);
  return p;
}

}  // namespace

void check_rollout_options(const Position& pos, const Rules& rules, const RolloutOptions& opt) {
  if (opt.trials < 1 || opt.trials > kMaxRolloutTrials)
    throw std::invalid_argument("trials must be 1.." + std::to_string(kMaxRolloutTrials));
  if (opt.truncate < 0) throw std::invalid_argument("truncate must be >= 1 (or 0: play to the end)");
  check_threads(opt.threads);
  if (opt.variance_reduction && opt.player.kind == PlayerSpec::Kind::Random)
    throw std::invalid_argument("variance reduction needs a greedy or search player (its lookahead finds each "
                                "roll's best play; a random player has none)");
  if (opt.luck_evaluator) {
    if (!opt.variance_reduction)
      throw std::invalid_argument("a luck evaluator values the rolls of the luck adjustment: it needs variance "
                                  "reduction");
    const std::string why = opt.luck_evaluator->refusal(rules);
    if (!why.empty()) throw std::invalid_argument("luck evaluator: " + why);
  }
  if (game_outcome(pos, rules, kWhite)) throw std::invalid_argument("the game is over: nothing to roll out");
}

Dice rollout_dice(const RolloutOptions& opt, std::int64_t i, int ply, Rng& rng) {
  if (ply == 0 && opt.stratify) return outcome_dice(i % kOutcomes);
  if (ply == 1 && opt.stratify && i < opt.trials / kBlock * kBlock) return outcome_dice(i / kOutcomes % kOutcomes);
  const auto [a, b] = rng.roll();
  return Dice{a, b};
}

void rollout_fields(const Probabilities& p, double (&x)[RolloutMoments::kFields]) {
  for (int f = 0; f < RolloutMoments::kFields; ++f) x[f] = field(p, f);
}

void RolloutMoments::add(const Probabilities& p, bool was_truncated) {
  double x[kFields];
  rollout_fields(p, x);
  add(x, was_truncated);
}

void RolloutMoments::add(const double (&x)[kFields], std::int64_t truncated_count) {
  ++n;
  truncated += truncated_count;
  for (int f = 0; f < kFields; ++f) {
    const double d = x[f] - mean[f];
    mean[f] += d / static_cast<double>(n);
    m2[f] += d * (x[f] - mean[f]);
  }
}

void RolloutMoments::merge(const RolloutMoments& next) {
  if (next.n == 0) return;
  if (n == 0) {  // copied, not computed: a single block folds to itself exactly
    *this = next;
    return;
  }
  const double na = static_cast<double>(n), nb = static_cast<double>(next.n), total = na + nb;
  for (int f = 0; f < kFields; ++f) {
    const double d = next.mean[f] - mean[f];
    mean[f] += d * (nb / total);
    m2[f] += next.m2[f] + d * d * (na * nb / total);
  }
  n += next.n;
  truncated += next.truncated;
}

std::vector<RolloutMoments> reduce_trials(const RolloutOptions& opt, std::int64_t first, std::int64_t count,
                                          const RolloutTrial& trial) {
  if (first < 0 || first % kRolloutBlock != 0 || first >= opt.trials)
    throw std::invalid_argument("first trial must be a multiple of " + std::to_string(kRolloutBlock) +
                                " below trials");
  if (count < 1 || count > opt.trials - first)
    throw std::invalid_argument("count must be 1..trials - first");
  std::vector<RolloutMoments> blocks(static_cast<std::size_t>((count + kRolloutBlock - 1) / kRolloutBlock));
  struct Values {
    double x[RolloutMoments::kFields];
    std::int64_t truncated;
  };
  std::vector<Values> chunk;
  for (std::int64_t done = 0; done < count; done += kChunk) {
    const std::int64_t n = std::min(kChunk, count - done);
    chunk.assign(static_cast<std::size_t>(n), Values{});
    parallel_for(n, opt.threads, [&](std::int64_t j) {
      Values& v = chunk[static_cast<std::size_t>(j)];
      v.truncated = trial(first + done + j, v.x);
    });
    for (std::int64_t j = 0; j < n; ++j) {
      const Values& v = chunk[static_cast<std::size_t>(j)];
      blocks[static_cast<std::size_t>((done + j) / kRolloutBlock)].add(v.x, v.truncated);
    }
  }
  return blocks;
}

std::vector<RolloutMoments> rollout_blocks(const Position& pos, const Rules& rules, const Evaluator& ev,
                                           const RolloutOptions& opt, std::int64_t first, std::int64_t count) {
  check_rollout_options(pos, rules, opt);
  return reduce_trials(opt, first, count, [&](std::int64_t i, double (&x)[RolloutMoments::kFields]) {
    return static_cast<std::int64_t>(rollout_trial(pos, rules, ev, opt, i, x));
  });
}

RolloutMoments fold_blocks(const std::vector<RolloutMoments>& blocks) {
  RolloutMoments all;
  for (const RolloutMoments& b : blocks) all.merge(b);
  return all;
}

double std_error_of(const RolloutMoments& m, int f) {
  // Sample standard deviation / sqrt(n); 0 for a single trial.
  if (m.n < 2) return 0.0;
  return std::sqrt(m.m2[f] / static_cast<double>(m.n - 1) / static_cast<double>(m.n));
}

RolloutResult combine_rollout(const std::vector<RolloutMoments>& blocks) {
  const RolloutMoments all = fold_blocks(blocks);
  double err[RolloutMoments::kFields] = {};
  for (int f = 0; f < RolloutMoments::kFields; ++f) err[f] = std_error_of(all, f);
  RolloutResult r;
  r.trials = all.n;
  r.truncated = all.truncated;
  r.mean = probabilities_of(all.mean);
  r.std_error = probabilities_of(err);
  r.equity = all.mean[RolloutMoments::kFields - 1];
  r.equity_std_error = err[RolloutMoments::kFields - 1];
  return r;
}

RolloutResult rollout(const Position& pos, const Rules& rules, const Evaluator& ev, const RolloutOptions& opt) {
  return combine_rollout(rollout_blocks(pos, rules, ev, opt, 0, opt.trials));
}

}  // namespace tavli
