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
// result does not depend on it (the reduction is in trial order either way). Eliminations happen
// between chunks: a whole block, so a candidate keeps whole strata of first rolls.
constexpr std::int64_t kChunkTrials = kRolloutBlock;

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

// Welford's running mean and sum of squared deviations of the difference of two candidates'
// values over their common trials (RolloutMoments' eight fields a pair would be K^2 times too many).
struct Running {
  std::int64_t n = 0;
  double mean = 0, m2 = 0;
  void add(double x) {
    ++n;
    const double d = x - mean;
    mean += d / static_cast<double>(n);
    m2 += d * (x - mean);
  }
  // The standard error of the mean: sample standard deviation / sqrt(n); 0 below two values.
  double std_error() const {
    if (n < 2) return 0.0;
    return std::sqrt(m2 / static_cast<double>(n - 1) / static_cast<double>(n));
  }
};

}  // namespace

PairedTrials reduce_paired_trials(std::size_t candidates, const RolloutOptions& opt, int paired, double eliminate,
                                  const CandidateTrial& trial) {
  const std::size_t K = candidates;
  const std::size_t blocks = static_cast<std::size_t>((opt.trials + kRolloutBlock - 1) / kRolloutBlock);
  PairedTrials out;
  out.blocks.assign(K, std::vector<RolloutMoments>(blocks));
  std::vector<Running> diff(K * (K - 1) / 2);  // pairs a < b, row by row, over their common trials
  auto pair = [K](std::size_t a, std::size_t b) { return a * (2 * K - a - 1) / 2 + (b - a - 1); };  // a < b
  std::vector<std::size_t> active(K);
  for (std::size_t k = 0; k < K; ++k) active[k] = k;
  struct Values {
    double x[kFields];
    bool truncated;
  };
  std::vector<Values> chunk;
  for (std::int64_t done = 0; done < opt.trials; done += kChunkTrials) {
    const std::int64_t n = std::min(kChunkTrials, opt.trials - done);
    const auto A = static_cast<std::int64_t>(active.size());
    chunk.assign(static_cast<std::size_t>(n * A), Values{});
    parallel_for(n * A, opt.threads, [&](std::int64_t item) {
      Values& v = chunk[static_cast<std::size_t>(item)];
      v.truncated = trial(active[static_cast<std::size_t>(item % A)], done + item / A, v.x);
    });
    for (std::int64_t j = 0; j < n; ++j) {
      const Values* row = &chunk[static_cast<std::size_t>(j * A)];
      const auto block = static_cast<std::size_t>((done + j) / kRolloutBlock);
      for (std::size_t a = 0; a < active.size(); ++a) {
        const std::size_t k = active[a];
        out.blocks[k][block].add(row[a].x, row[a].truncated ? 1 : 0);
        for (std::size_t b = a + 1; b < active.size(); ++b)
          diff[pair(k, active[b])].add(row[a].x[paired] - row[b].x[paired]);
      }
    }
    // Elimination, between chunks (whole strata of first rolls): a play that trails the leader by
    // more than `eliminate` standard errors of their paired difference is rolled out no further.
    if (eliminate > 0 && active.size() > 1 && done + n < opt.trials) {
      std::vector<double> mean(K);  // of field `paired`, as the result will report it
      for (std::size_t k : active) mean[k] = fold_blocks(out.blocks[k]).mean[paired];
      std::size_t lead = active[0];
      for (std::size_t k : active)
        if (mean[k] > mean[lead]) lead = k;
      std::vector<std::size_t> kept;
      for (std::size_t k : active) {
        const Running& d = diff[k < lead ? pair(k, lead) : pair(lead, k)];
        const double gap = mean[lead] - mean[k];
        if (k == lead || !(gap > eliminate * d.std_error())) kept.push_back(k);
      }
      active = std::move(kept);
      if (active.size() == 1) break;  // the question is answered: the leader stops too
    }
  }
  out.difference_std_error.assign(K * K, 0.0);
  for (std::size_t a = 0; a < K; ++a)
    for (std::size_t b = a + 1; b < K; ++b)
      out.difference_std_error[a * K + b] = out.difference_std_error[b * K + a] = diff[pair(a, b)].std_error();
  return out;
}

void check_play_rollout(const std::vector<Play>& plays, double eliminate) {
  if (plays.empty()) throw std::invalid_argument("no plays to roll out");
  if (plays.size() > static_cast<std::size_t>(kMaxRolloutPlays))
    throw std::invalid_argument("at most " + std::to_string(kMaxRolloutPlays) + " plays a rollout");
  if (!(eliminate >= 0 && eliminate <= kMaxEliminate))
    throw std::invalid_argument("eliminate must be 0 (off) .. " + std::to_string(static_cast<int>(kMaxEliminate)) +
                                " standard errors");
}

PlayRollout rollout_plays(const Position& pos, const Rules& rules, const std::vector<Play>& plays,
                          const Evaluator& ev, const RolloutOptions& opt, double eliminate) {
  check_rollout_options(pos, rules, opt);
  check_play_rollout(plays, eliminate);

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
  const PairedTrials t = reduce_paired_trials(
      plays.size(), opt, kEquity, eliminate, [&](std::size_t k, std::int64_t i, double (&x)[kFields]) {
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
