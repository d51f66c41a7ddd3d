// Rollouts: the value of a position before its roll, estimated by playing it out many times.
//
// Trial i plays the position (side to move, before its roll) to the end with the same player for
// both sides, or for `truncate` plies (plays made, passes included) and then values the position
// it reached with the player's evaluator: a static evaluation for the greedy and random players,
// search.h's evaluate at the player's depth and filters for a search player. Each trial's outcome
// is the vector of eval.h's Probabilities from the original mover's view (a finished game is 0/1
// indicators, or Tawla 31's margin; a truncated one the evaluator's probabilities) and its equity.
//
// Dice. Trial i draws from its own generator, Rng::derive(seed, i), so the trials, and the result,
// do not depend on the thread count. Variance reduction by stratified rolls (`stratify`):
//  - the first roll (the mover's) of trial i is ordered outcome i mod 36 (d1 = k / 6 + 1,
//    d2 = k % 6 + 1): with `trials` a multiple of 36 every first roll gets exactly its 1/36 weight.
//    Otherwise outcomes 0 .. (trials mod 36) - 1 (1-1, 1-2, ...) get one trial more than the
//    others, a weight error below 1/trials per outcome: use multiples of 36.
//  - the second roll (the opponent's) of the trials in complete blocks of 1296 (36 * 36) is
//    outcome (i / 36) mod 36, so each block holds every pair of first two rolls exactly once. The
//    trials after the last complete block (all of them when trials < 1296) roll their second roll
//    from their generator: a block cut short would over-weight the low second rolls, a bias.
//  Without `stratify` every roll comes from the trial's generator (for comparisons).
// Variance reduction by luck adjustment (`variance_reduction`, rollout_luck.h; greedy and search
// players): each trial's outcome, field by field, less the summed luck of its rolls (every roll
// of the trial, the stratified ones too: a stratum's luck averages to zero over its 36
// outcomes). The same games are played; only what each trial counts changes, an unbiased
// estimate whose fields may leave [0, 1] trial by trial. It costs a lookahead over the 21 rolls
// at every ply (about 20 times the player's own work per ply) and pays where the dice decide
// most of a trial's result (tests/test_rollout.py measures the standard error it saves). With a
// `luck_evaluator` the lookahead is that evaluator's at 0 plies whatever the player's depth: for a
// search player a small part of its own work, for nearly the same reduction.
//
// Standard errors are the sample standard deviation of the trials' outcomes / sqrt(trials). With
// stratification that is conservative: it includes the variance between strata, which
// stratification removes from the mean (the seed-to-seed spread of the mean is what shrinks;
// tests/test_rollout.py measures it).
//
// Games that cannot end (Plakoto without its mother rule) are stopped after kMaxRolloutPlies and
// valued like truncated ones (and counted in `truncated`).
//
// Shards (tavli.distributed). The trials are reduced in blocks of kRolloutBlock consecutive trials
// (block b holds trials b * kRolloutBlock ..): each block's mean and sum of squared deviations in
// trial order (Welford), then the blocks folded in block order (the pairwise update of Chan, Golub
// and LeVeque). rollout_blocks plays any range of trials that starts on a block boundary, with the
// dice of the whole rollout (trial i's generator and strata depend on i and `trials` only), and
// combine_rollout folds the blocks of consecutive ranges into exactly what rollout returns, bit for
// bit, however the trials were split between threads, processes or machines.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "tavli/eval.h"
#include "tavli/rng.h"
#include "tavli/sim.h"

namespace tavli {

constexpr int kMaxRolloutPlies = 10000;
constexpr std::int64_t kMaxRolloutTrials = 10000000;

struct RolloutOptions {
  std::int64_t trials = 1296;  // 1..kMaxRolloutTrials
  PlayerSpec player;           // both sides
  int truncate = 0;            // plies (at most kMaxRolloutPlies count); 0: play every game to the end
  std::uint64_t seed = 0;
  int threads = 1;
  bool stratify = true;
  bool variance_reduction = false;  // luck adjustment (above); not with the random player
  // The luck adjustment's lookahead by another evaluator (with variance_reduction only; null: the
  // player's own): each roll's value is its best play's 0-ply value by this evaluator, best by it.
  // Any function of the position and the roll keeps the estimate unbiased (a roll's luck has mean
  // zero whatever the function), so a small net that tracks the player's values removes most of
  // the variance for a fraction of the lookahead's cost (the 21 rolls' plays are most of it).
  std::shared_ptr<const Evaluator> luck_evaluator;
};

struct RolloutResult {
  Probabilities mean;    // from the original mover's view
  double equity = 0;     // mean of the trials' equities
  Probabilities std_error;  // of each mean, field by field (its lose() and equity() mean nothing)
  double equity_std_error = 0;
  std::int64_t trials = 0;
  std::int64_t truncated = 0;  // trials valued by the evaluator instead of played out
};

constexpr std::int64_t kRolloutBlock = 144;  // 4 * 36: shards as small as that; 10 MB of blocks for 10^7 trials

// The running moments of a block of trials (or of several blocks folded together).
struct RolloutMoments {
  static constexpr int kFields = 8;  // the seven fields of Probabilities, then the equity
  std::int64_t n = 0;
  std::int64_t truncated = 0;
  double mean[kFields] = {};
  double m2[kFields] = {};  // sum of squared deviations from the mean

  void add(const Probabilities& p, bool was_truncated);
  void add(const double (&x)[kFields], std::int64_t truncated_count);  // one trial's values
  void merge(const RolloutMoments& next);  // `next` holds the trials that follow this one's
};

// Throws std::invalid_argument naming a bad option (trials, truncate, threads, variance
// reduction with the random player) or a finished game.
void check_rollout_options(const Position& pos, const Rules& rules, const RolloutOptions& opt);

// The dice of ply `ply` (0: the original mover's first roll) of trial i, stratified as above;
// `rng` is the trial's generator, drawn from only where the roll is not stratified.
Dice rollout_dice(const RolloutOptions& opt, std::int64_t i, int ply, Rng& rng);

// `ev` is the greedy and search players' evaluator and values truncated trials. The game must not
// be over; throws std::invalid_argument naming a bad option.
RolloutResult rollout(const Position& pos, const Rules& rules, const Evaluator& ev, const RolloutOptions& opt);

// Trials first .. first + count - 1 of the rollout `opt` describes (first a multiple of
// kRolloutBlock, first + count <= opt.trials), one RolloutMoments per block, in block order.
std::vector<RolloutMoments> rollout_blocks(const Position& pos, const Rules& rules, const Evaluator& ev,
                                           const RolloutOptions& opt, std::int64_t first, std::int64_t count);

// The rollout's result from the blocks of all its trials, in block order.
RolloutResult combine_rollout(const std::vector<RolloutMoments>& blocks);

// The blocks of all trials' moments, in block order (the whole rollout: every block), and the
// sample standard error of a mean from its folded moments (0 for a single trial).
RolloutMoments fold_blocks(const std::vector<RolloutMoments>& blocks);
double std_error_of(const RolloutMoments& m, int field);

// Trial i of the rollout `opt` describes from `pos` (game not over; check_rollout_options first):
// its values in RolloutMoments' field order from the view of pos's side to move, less its luck with
// variance reduction; returns whether the evaluator valued it (truncated or too long).
bool rollout_trial(const Position& pos, const Rules& rules, const Evaluator& ev, const RolloutOptions& opt,
                   std::int64_t i, double (&x)[RolloutMoments::kFields]);

// `p`'s values in RolloutMoments' field order (the seven fields, then the equity).
void rollout_fields(const Probabilities& p, double (&x)[RolloutMoments::kFields]);

// Runs `trial(i, x)` (filling trial i's values, unused ones left 0, and returning how many of its
// lines were truncated) for trials first .. first + count - 1 on opt.threads threads and reduces
// them into blocks of kRolloutBlock trials in trial order, as rollout_blocks does (cubeful
// rollouts shard the same way). Throws std::invalid_argument for a bad range.
using RolloutTrial = std::function<std::int64_t(std::int64_t, double (&)[RolloutMoments::kFields])>;
std::vector<RolloutMoments> reduce_trials(const RolloutOptions& opt, std::int64_t first, std::int64_t count,
                                          const RolloutTrial& trial);

}  // namespace tavli
