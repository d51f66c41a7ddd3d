#include "tavli/rollout.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "tavli/parallel.h"
#include "tavli/rng.h"
#include "tavli/search.h"

namespace tavli {
namespace {

constexpr int kOutcomes = 36;
constexpr std::int64_t kBlock = kOutcomes * kOutcomes;
// Trials are played a chunk at a time and reduced in trial order, so memory stays flat for
// millions of trials; the chunk size does not change any result.
constexpr std::int64_t kChunk = 4096;

Dice outcome_dice(std::int64_t k) { return Dice{static_cast<int>(k / 6) + 1, static_cast<int>(k % 6) + 1}; }

// What one trial leaves: its probabilities from the original mover's view, and whether the
// evaluator valued it.
struct Trial {
  Probabilities p;
  bool truncated = false;
};

// The value of a position the trial stops in, for its side to move: the evaluator's, at the
// depth the player searches at.
Probabilities value_unfinished(const Position& pos, const Rules& rules, const Evaluator& ev, const PlayerSpec& player) {
  if (player.kind != PlayerSpec::Kind::Search || player.plies == 0) return ev.evaluate(pos, rules);
  SearchOptions so;
  so.plies = player.plies;
  so.filters = player.filters;
  return evaluate(pos, rules, ev, so).probabilities;
}

Trial play_trial(const Position& start, const Rules& rules, const Evaluator& ev, const RolloutOptions& opt,
                 std::int64_t i) {
  Rng rng(Rng::derive(opt.seed, static_cast<std::uint64_t>(i)));
  const bool second_stratified = opt.stratify && i < opt.trials / kBlock * kBlock;
  // Per-thread scratch: a generator's tables and a move list are too big to build for every trial.
  MoveGenerator& gen = thread_generator();
  thread_local MoveList list;
  thread_local std::vector<Position> batch;
  thread_local std::vector<Probabilities> vals;
  // Colours only label the sides here: the original mover is White.
  Position pos = start;
  Player mover = kWhite;
  const int max_plies = opt.truncate > 0 ? std::min(opt.truncate, kMaxRolloutPlies) : kMaxRolloutPlies;
  for (int ply = 0; ply < max_plies; ++ply) {
    Dice dice;
    if (ply == 0 && opt.stratify) {
      dice = outcome_dice(i % kOutcomes);
    } else if (ply == 1 && second_stratified) {
      dice = outcome_dice(i / kOutcomes % kOutcomes);
    } else {
      const auto [a, b] = rng.roll();
      dice = Dice{a, b};
    }
    gen.generate(pos, rules, dice, list);
    const int k = choose_play(opt.player, ev, pos, rules, dice, list, rng, batch, vals);
    const Position before = pos;
    pos = list[k].result;
    pos.flip();
    mover = other(mover);
    if (const auto o = outcome_after_play(before, pos, rules, mover)) return Trial{terminal_probabilities(*o, kWhite)};
  }
  const Probabilities v = value_unfinished(pos, rules, ev, opt.player);
  return Trial{mover == kWhite ? v : v.inverted(), true};
}

// Welford's running mean and variance of the trials' outcome vectors, fed in trial order.
class Moments {
 public:
  void add(const Probabilities& p) {
    const double x[kFields] = {p.win, p.win_double, p.win_triple, p.lose_double, p.lose_triple, p.draw, p.margin,
                               p.equity()};
    ++n_;
    for (int f = 0; f < kFields; ++f) {
      const double d = x[f] - mean_[f];
      mean_[f] += d / static_cast<double>(n_);
      m2_[f] += d * (x[f] - mean_[f]);
    }
  }
  double mean(int f) const { return mean_[f]; }
  // Sample standard deviation / sqrt(n); 0 for a single trial.
  double std_error(int f) const {
    if (n_ < 2) return 0;
    return std::sqrt(m2_[f] / static_cast<double>(n_ - 1) / static_cast<double>(n_));
  }
  static constexpr int kFields = 8;  // the seven fields of Probabilities, then the equity

 private:
  std::int64_t n_ = 0;
  double mean_[kFields] = {};
  double m2_[kFields] = {};
};

Probabilities fields(const Moments& m, double (Moments::*get)(int) const) {
  Probabilities p;
  p.win = static_cast<float>((m.*get)(0));
  p.win_double = static_cast<float>((m.*get)(1));
  p.win_triple = static_cast<float>((m.*get)(2));
  p.lose_double = static_cast<float>((m.*get)(3));
  p.lose_triple = static_cast<float>((m.*get)(4));
  p.draw = static_cast<float>((m.*get)(5));
  p.margin = static_cast<float>((m.*get)(6));
  return p;
}

}  // namespace

RolloutResult rollout(const Position& pos, const Rules& rules, const Evaluator& ev, const RolloutOptions& opt) {
  if (opt.trials < 1 || opt.trials > kMaxRolloutTrials)
    throw std::invalid_argument("trials must be 1.." + std::to_string(kMaxRolloutTrials));
  if (opt.truncate < 0) throw std::invalid_argument("truncate must be >= 1 (or 0: play to the end)");
  if (opt.threads < 1 || opt.threads > 1024) throw std::invalid_argument("threads must be 1..1024");
  if (game_outcome(pos, rules, kWhite)) throw std::invalid_argument("the game is over: nothing to roll out");

  Moments moments;
  RolloutResult r;
  std::vector<Trial> chunk;
  for (std::int64_t first = 0; first < opt.trials; first += kChunk) {
    const std::int64_t n = std::min(kChunk, opt.trials - first);
    chunk.assign(static_cast<std::size_t>(n), Trial{});
    parallel_for(n, opt.threads, [&](std::int64_t j) {
      chunk[static_cast<std::size_t>(j)] = play_trial(pos, rules, ev, opt, first + j);
    });
    for (const Trial& t : chunk) {
      moments.add(t.p);
      r.truncated += t.truncated;
    }
  }
  r.trials = opt.trials;
  r.mean = fields(moments, &Moments::mean);
  r.std_error = fields(moments, &Moments::std_error);
  r.equity = moments.mean(Moments::kFields - 1);
  r.equity_std_error = moments.std_error(Moments::kFields - 1);
  return r;
}

}  // namespace tavli
