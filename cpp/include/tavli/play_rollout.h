// Rollouts of a roll's plays on common dice: which of the candidate plays is best, found by playing
// each out, as GNU Backgammon's rollouts of a move's candidates do (issue 19: the analysis a
// backgammon user trusts most; and labels of a roll's plays, whose order a 0-ply chooser learns).
//
// Each candidate's result (the position after the play, the other side on roll) is rolled out as
// rollout.h does with the same options, so trial i of every candidate draws from
// Rng::derive(seed, i) and the same strata: the same dice for all candidates for as long as their
// games last (the greedy and search players draw nothing else). A candidate's mean and standard
// errors are those of rollout() of its result, seen from the side that plays (the values inverted
// trial by trial). Because the trials are paired, the difference of two candidates' equities has
// its own standard error (from the trial-by-trial differences), below the unpaired
// sqrt(se_a^2 + se_b^2) by as much as the two games share their luck: much in quiet positions and
// races, little in contact after the luck adjustment (0.8 times the squared error there:
// docs/classnets.md, "Stop 42"). It is what tells two plays apart. With variance reduction each
// candidate's trial counts its own luck (rollout_luck.h). A play that ends the game has its
// outcome as every trial's value (standard errors 0).
//
// The trials run a chunk at a time on opt.threads threads and are reduced in trial order (each
// candidate in rollout.h's blocks), so the result does not depend on the thread count. No shards:
// a play rollout is one machine's work (labelling many decisions spreads the decisions instead).
//
// Elimination (`eliminate` > 0; GNU Backgammon stops rolling out moves that are clearly worse the
// same way): after each block of kRolloutBlock trials (whole strata of first rolls), every play
// whose mean equity trails the leader's by more than `eliminate` standard errors of their paired
// difference is rolled out no further, and once one play is left the rollout stops (the question
// is answered). A result keeps the trials it played (its `trials`), an unbiased estimate with a
// larger error; each pair's difference error is over their common trials.
// The decisions depend on the trials' values alone, so the result still does not depend on the
// thread count.
//
// Cubeful play rollouts (cubeful_rollout.h's cubeful_rollout_plays) pair their trials the same way
// (reduce_paired_trials below).
#pragma once

#include <functional>
#include <vector>

#include "tavli/game.h"
#include "tavli/rollout.h"

namespace tavli {

constexpr int kMaxRolloutPlays = 1024;  // candidates of one call (a roll has at most a few hundred)
constexpr double kMaxEliminate = 100;   // standard errors; 0 turns the elimination off

// Trial i of candidate k: its values in RolloutMoments' field order; returns whether it was truncated.
using CandidateTrial = std::function<bool(std::size_t k, std::int64_t i, double (&x)[RolloutMoments::kFields])>;

struct PairedTrials {
  std::vector<std::vector<RolloutMoments>> blocks;  // per candidate, rollout.h's blocks of its trials
  std::vector<double> difference_std_error;         // K x K, of field `paired` (PlayRollout's layout)
};

// Runs trial(k, i, x) for the `candidates` candidates and trials 0 .. opt.trials - 1 on
// opt.threads threads, a block of trials at a time, and reduces them in trial order: each
// candidate's values into its blocks, each pair's differences of field `paired` (the larger the
// better) into their standard error; `eliminate` > 0 drops trailing candidates as above. No option
// checks (the callers make them: check_play_rollout).
PairedTrials reduce_paired_trials(std::size_t candidates, const RolloutOptions& opt, int paired, double eliminate,
                                  const CandidateTrial& trial);

// std::invalid_argument for no plays, more than kMaxRolloutPlays, or `eliminate` outside
// 0 .. kMaxEliminate.
void check_play_rollout(const std::vector<Play>& plays, double eliminate);

struct PlayRollout {
  std::vector<RolloutResult> plays;  // in the order given, for the side that plays
  // Row a, column b (K x K, row-major): the standard error of plays[a].equity - plays[b].equity
  // from the paired trials (0 on the diagonal, and for a single trial).
  std::vector<double> difference_std_error;
};

// Throws std::invalid_argument for bad options (check_rollout_options, check_play_rollout); the
// plays must be legal plays of `pos` (mover-relative) for one roll.
PlayRollout rollout_plays(const Position& pos, const Rules& rules, const std::vector<Play>& plays,
                          const Evaluator& ev, const RolloutOptions& opt, double eliminate = 0);

}  // namespace tavli
