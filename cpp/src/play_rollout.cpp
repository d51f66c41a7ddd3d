#include "tavli/play_rollout.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "tavli/parallel.h"
#include "tavli/playout.h"

namespace tavli {
namespace {

constexpr int kFields = RolloutMoments::kFields;
constexpr int kEquity = kFields - 1;
// Trials played between two reductions: memory stays flat (chunk x candidates values) and the
// result does not depend on it (the reduction is in trial order either way).
constexpr std::int64_t kChunkTrials = 256;

// The values of a trial seen by the other side, field by field (eval.h's Probabilities::inverted,
// which is affine, so it applies to luck-adjusted values as to probabilities).
void invert(double (&x)[kFields]) {
  const double win = x[0], wd = x[1], wt = x[2];
  x[0] = 1.0 - win - x[5];
  x[1] = x[3];
  x[2] = x[4];
  x[3] = wd;
  x[4] = wt;
  x[6] = -x[6];
  x[kEquity] = -x[kEquity];
}

// Welford's running mean and sum of squared deviations of one difference.
struct Running {
  double mean = 0, m2 = 0;
  void add(double x, double n) {
    const double d = x - mean;
    mean += d / n;
    m2 += d * (x - mean);
  }
};

}  // namespace

PairedTrials reduce_paired_trials(std::size_t candidates, const RolloutOptions& opt, int paired,
                                  const CandidateTrial& trial) {
  const std::size_t K = candidates;
  const auto k_count = static_cast<std::int64_t>(K);
  const std::size_t blocks = static_cast<std::size_t>((opt.trials + kRolloutBlock - 1) / kRolloutBlock);
  PairedTrials out;
  out.blocks.assign(K, std::vector<RolloutMoments>(blocks));
  std::vector<Running> diff(K * (K - 1) / 2);  // pairs a < b, row by row
  struct Values {
    double x[kFields];
    bool truncated;
  };
  std::vector<Values> chunk;
  for (std::int64_t done = 0; done < opt.trials; done += kChunkTrials) {
    const std::int64_t n = std::min(kChunkTrials, opt.trials - done);
    chunk.assign(static_cast<std::size_t>(n * k_count), Values{});
    parallel_for(n * k_count, opt.threads, [&](std::int64_t item) {
      Values& v = chunk[static_cast<std::size_t>(item)];
      v.truncated = trial(static_cast<std::size_t>(item % k_count), done + item / k_count, v.x);
    });
    for (std::int64_t j = 0; j < n; ++j) {
      const Values* row = &chunk[static_cast<std::size_t>(j * k_count)];
      const auto block = static_cast<std::size_t>((done + j) / kRolloutBlock);
      for (std::size_t k = 0; k < K; ++k) out.blocks[k][block].add(row[k].x, row[k].truncated ? 1 : 0);
      const auto count = static_cast<double>(done + j + 1);
      std::size_t p = 0;
      for (std::size_t a = 0; a < K; ++a)
        for (std::size_t b = a + 1; b < K; ++b) diff[p++].add(row[a].x[paired] - row[b].x[paired], count);
    }
  }
  out.difference_std_error.assign(K * K, 0.0);
  if (opt.trials > 1) {
    const auto n = static_cast<double>(opt.trials);
    std::size_t p = 0;
    for (std::size_t a = 0; a < K; ++a)
      for (std::size_t b = a + 1; b < K; ++b) {
        const double se = std::sqrt(diff[p++].m2 / (n - 1) / n);
        out.difference_std_error[a * K + b] = out.difference_std_error[b * K + a] = se;
      }
  }
  return out;
}

PlayRollout rollout_plays(const Position& pos, const Rules& rules, const std::vector<Play>& plays,
                          const Evaluator& ev, const RolloutOptions& opt) {
  check_rollout_options(pos, rules, opt);
  if (plays.empty()) throw std::invalid_argument("no plays to roll out");
  if (plays.size() > static_cast<std::size_t>(kMaxRolloutPlays))
    throw std::invalid_argument("at most " + std::to_string(kMaxRolloutPlays) + " plays a rollout");

  // Each candidate's result, or its outcome's values where the play ends the game.
  struct Candidate {
    Position start;       // the result, the opponent to move
    bool ended = false;   // the play ended the game: every trial is worth `outcome`
    double outcome[kFields] = {};
  };
  std::vector<Candidate> cand(plays.size());
  for (std::size_t k = 0; k < plays.size(); ++k) {
    const PlyResult step = advance(pos, plays[k], rules, kWhite);
    cand[k].start = step.position;
    cand[k].ended = step.outcome.has_value();
    if (step.outcome) rollout_fields(terminal_probabilities(*step.outcome, kWhite), cand[k].outcome);
  }
  const PairedTrials t =
      reduce_paired_trials(plays.size(), opt, kEquity, [&](std::size_t k, std::int64_t i, double (&x)[kFields]) {
        if (cand[k].ended) {
          std::copy(cand[k].outcome, cand[k].outcome + kFields, x);
          return false;
        }
        // The result's side to move is the opponent: his trial, seen by the side that played.
        const bool truncated = rollout_trial(cand[k].start, rules, ev, opt, i, x);
        invert(x);
        return truncated;
      });
  PlayRollout out;
  out.plays.reserve(plays.size());
  for (const auto& m : t.blocks) out.plays.push_back(combine_rollout(m));
  out.difference_std_error = t.difference_std_error;
  return out;
}

}  // namespace tavli
