// Cubeful rollouts (issue 15, item 4): a position, or a cube decision, valued by playing it out
// many times with the doubling cube in play, as GNU Backgammon's cubeful rollouts do.
//
// Each trial plays the game out from the position (its side to move `mover`, before his roll) with
// the same player for both sides, at the trial's cube state and the match score:
//  - before each roll the side on roll may double where the cube lets him (cube.h's may_double,
//    the cube below 2^15); he decides with the cubeful model at the player's depth (greedy:
//    cubeful.h's 0-ply cube_decision on the evaluator's probabilities; search:N: cubeful_search.h's
//    cubeful_decision N plies deep, the player's filters) and doubles on
//    "double, take", "double, beaver" and "double, pass" (too good: he plays on). The other side
//    answers with the same decision's take: take (he owns the doubled cube), pass (the doubler
//    wins the cube's value) or, with beavers on in money play, beaver (4x, his cube);
//  - the plays are chosen cubefully, at the cube as it stands: greedy, the play whose result has
//    the best 0-ply cubeful value (the opponent's cube action included; the first of equals as
//    generated); search:N, the best play of cubeful_analyze N plies deep with the player's filters;
//  - a game that ends on the board scores cube value x its points (money: Jacoby's rule while the
//    cube is centred), in money points for the original mover, or his match winning chance at the
//    score (MatchEquityTable::after_game: Crawford and post-Crawford as the score makes them);
//  - a truncated trial (`truncate` plies; games longer than kMaxRolloutPlies too) is valued by the
//    cubeful search at the player's depth for the side then on roll, his cube action included.
// Checker play and cube decisions read the evaluator's probabilities clamped into their order
// (a net's gammon chance a hair above its win chance), as the cube-handling players do.
//
// The cube decision rollout plays each trial twice with the same dice (common random numbers, so
// the difference of the two has a smaller error than either): No double (the cube as it is, and
// the mover makes no cube action before his first roll) and Double/take (the cube doubled and
// owned by the other side). Its equities, their standard errors and the proper action are those of
// cubeful.h's CubeDecision: money per unit of the current cube, match play in EMG of the current
// cube beside the MWC. A position rollout (one cube state) lets the mover act on the cube before
// his first roll as at any other.
//
// Dice as rollout.h's (trial i draws from Rng::derive(seed, i); the first roll, and the second in
// complete blocks of 1296, stratified), so the result does not depend on the thread count; no
// random player (it makes no cube decisions).
//
// Variance reduction (rollout.h's `variance_reduction`, rollout_luck.h): the luck of each roll is
// measured in the cubeful value at the trial's cube state as it stands before the roll (after
// any double and its answer), as gnubg does: the value for the side on roll of that roll's best
// cubeful play, less the mean over the 21 rolls, at the player's depth (greedy: the 0-ply
// cubeful values of the results; search:N: cubeful_analyze N plies deep); each line's trial
// counts its value less the summed luck of its rolls.
//
// Shards (tavli.distributed), as rollout.h's: the trials' values are reduced in rollout.h's
// blocks of kRolloutBlock consecutive trials (a position rollout: field 0 the value; a decision:
// 0 No double, 1 Double/take, 2 their difference; absolute values, money points or MWC, and the
// truncated count of both lines), cubeful_rollout_blocks plays any range of them that starts on
// a block boundary, and the combine functions fold the blocks of all trials, in order, into
// exactly what cubeful_rollout and cubeful_rollout_decision return (they are those two steps).
#pragma once

#include <cstdint>
#include <vector>

#include "tavli/cube.h"
#include "tavli/cubeful.h"
#include "tavli/met.h"
#include "tavli/rollout.h"

namespace tavli {

struct CubefulRolloutOptions {
  RolloutOptions rollout;  // trials, player (greedy or search), truncate, seed, threads, stratify, variance_reduction
  CubeState cube;
  MatchState match;                       // money play: length 0
  const MatchEquityTable* met = nullptr;  // match play: covers match.length
};

// A position's cubeful value (its mover's own cube action included).
struct CubefulRolloutValue {
  double equity = 0, equity_std_error = 0;  // money: per unit of the cube; match: EMG of the cube
  double mwc = 0, mwc_std_error = 0;        // match play (NaN in money play)
  std::int64_t trials = 0, truncated = 0;
};

struct CubefulRolloutDecision {
  CubeDecision decision;  // nd, dt, dp (and the MWCs), action, take; efficiency: the position's x
  double nd_std_error = 0, dt_std_error = 0;  // of the EMGs (NaN: dt where no double is available)
  double nd_mwc_std_error = 0, dt_mwc_std_error = 0;  // match play (NaN in money play)
  double difference_std_error = 0;  // of dt - nd (EMG), from the paired trials
  std::int64_t trials = 0, truncated = 0;  // truncated counts both lines' trials
};

// A roll's plays rolled out cubefully on common dice (play_rollout.h's pairing): each play's result
// (the other side on roll, who may double before his first roll, the cube as it stands) valued as
// cubeful_rollout values a position, and seen by the side that played (`mover`); a play that ends
// the game scores its result at the cube and score. The values are CubefulRolloutValue's for that
// side (money per unit of the cube, match EMG of the cube and the MWC); difference_std_error
// (K x K, row-major) the paired standard errors of the equities' differences.
struct CubefulPlayRollout {
  std::vector<CubefulRolloutValue> plays;  // in the order given
  std::vector<double> difference_std_error;
};

// Throw std::invalid_argument naming a bad option: a game without the cube, an invalid cube or
// match state, a table missing or too short, a random player, rollout.h's options.
CubefulRolloutValue cubeful_rollout(const Position& pos, const Rules& rules, Player mover, const Evaluator& ev,
                                    const CubefulRolloutOptions& opt);
CubefulRolloutDecision cubeful_rollout_decision(const Position& pos, const Rules& rules, Player mover,
                                                const Evaluator& ev, const CubefulRolloutOptions& opt);
// The plays (legal plays of `pos` for one roll, at most kMaxRolloutPlays, as rollout_plays takes
// them) rolled out as described above; `eliminate` as rollout_plays' (on the equities).
CubefulPlayRollout cubeful_rollout_plays(const Position& pos, const Rules& rules, Player mover,
                                         const std::vector<Play>& plays, const Evaluator& ev,
                                         const CubefulRolloutOptions& opt, double eliminate = 0);

// Trials first .. first + count - 1 (first a multiple of kRolloutBlock, first + count <=
// opt.rollout.trials) of the position rollout (`decision` false) or the cube decision rollout
// (true) that `opt` describes, one RolloutMoments per block in block order.
std::vector<RolloutMoments> cubeful_rollout_blocks(const Position& pos, const Rules& rules, Player mover,
                                                   const Evaluator& ev, const CubefulRolloutOptions& opt,
                                                   bool decision, std::int64_t first, std::int64_t count);

// The results from the blocks of all the rollout's trials (the same arguments), in block order;
// std::invalid_argument when they do not hold opt.rollout.trials trials.
CubefulRolloutValue combine_cubeful_rollout(const Position& pos, const Rules& rules, Player mover,
                                            const Evaluator& ev, const CubefulRolloutOptions& opt,
                                            const std::vector<RolloutMoments>& blocks);
CubefulRolloutDecision combine_cubeful_rollout_decision(const Position& pos, const Rules& rules, Player mover,
                                                        const Evaluator& ev, const CubefulRolloutOptions& opt,
                                                        const std::vector<RolloutMoments>& blocks);

}  // namespace tavli
