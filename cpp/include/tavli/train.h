// Training a NeuralNet (nnet.h) by self-play with TD(lambda), as Tesauro's TD-Gammon; and matches of
// the trained net's 0-ply player against fixed opponents.
//
// Self-play. Game g (g = 0, 1, 2, ... over the trainer's whole life) draws everything random from
// Rng(Rng::derive(seed, g)): the opening throw (sim.h: roll_opening, the game's opening rule), every
// roll, and the exploration draws. Each turn the side to move evaluates the results of all legal
// plays of its roll with the net in one forward_batch (each result flipped to the opponent and
// encoded by net_encode, as NeuralEvaluator does) and plays the one with the best equity for itself
// (eval.h's equity of the inverted outputs; a play that ends the game is valued exactly); with
// probability epsilon (an option, 0 by default) it plays a uniformly random play instead.
//
// What is learned. Positions are mover-relative: the net's outputs V(s) = (win, win_double,
// win_triple, lose_double, lose_triple) are for the side to move in s (encoded as White to move).
// Let s_0, s_1, ... be the states of a game before each roll (s_{t+1} is the chosen result, flipped;
// sides alternate, a pass included). Seen by the mover of s_t, the next state is worth
//   inv(V(s_{t+1})) = (1 - win, lose_double, lose_triple, win_double, win_triple)  of V(s_{t+1}),
// i.e. the map P(v) = c + M v with c = (1, 0, 0, 0, 0) and M the signed permutation
//   win -> -win, win_double <-> lose_double, win_triple <-> lose_triple (M = M^-1).
// The target of s_t is z_t = inv(V(s_{t+1})), or, when the play from s_t ends the game, the exact
// result for the mover of s_t (terminal_probabilities, eval.h; a draw counts as win = 1/2, Tawla 31's
// margin is not learned: the net has no output for it).
//
// What is differentiated: each output V_o(s_t) of the net (sigmoid units, nnet.h) with respect to
// every weight w (w1, b1, w2, b2, in the layouts of nnet.h). With y the outputs and h the hidden
// activations for input x:
//   dV_o/db2[o] = d_o = y_o (1 - y_o);          dV_o/dw2[o][k] = d_o h_k   (zero for rows o' != o)
//   dV_o/db1[k] = g_o[k] = d_o w2[o][k] h_k (1 - h_k);   dV_o/dw1[i][k] = x_i g_o[k].
//
// The update (online, after every play, with the weights of that moment). One eligibility trace per
// output over all weights, e_o (5 traces, each the size and layout of the weights: w1, b1, w2, b2),
// zero at each game start. All traces of step t are seen by the mover of s_t; the previous step's
// were seen by the other side, so they pass through M first:
//   e_t   = lambda * M e_{t-1} + grad V(s_t)         (M acting on the output index o of e)
//   delta = z_t - V(s_t)                             (5 numbers)
//   w    += alpha * sum_o delta_o * e_t,o
// With lambda = 0 this is plain gradient descent on (1/2) sum_o (z_o - V_o)^2 toward the one-step
// target; with lambda = 1 (and alpha small) a Monte-Carlo regression on the final result. V(s_{t+1})
// is then recomputed with the new weights for the next step.
//
// Races with every checker home: trained like every other position (the net's own value is the
// target, and the net chooses the plays there too). NeuralEvaluator answers those positions from the
// exact bear-off table; training the net on them anyway keeps it sound where the table is not used
// (e.g. when a caller evaluates with the net alone) and keeps the targets of the last contact
// positions consistent with one value function.
//
// Reproducibility: the same net, rules, options and starting game counter give bit-identical
// weights on a given machine and forward path (nnet.h: AVX2 or scalar; the update loop itself gives
// the same bits in its SSE2 and AVX2 builds: no FMA, no reordering), whatever the thread count.
//
// Rounds: every core (batch_games = B > 1). With B = 1 (the default) the games run one after the
// other, each on the weights the previous one left: the algorithm above, on one thread. With B > 1
// the games are taken in rounds of B by their index (round k: games kB .. kB + B - 1). Every game of
// a round starts from the round's weights W and learns online, as above, on its own copy, ending
// with W_g; the round then sets W <- W + sum_g (W_g - W), the changes added in game order (each
// weight on its own, so the sum does not depend on which thread played which game). The games of a
// round are independent, so they run on every thread given to train(); B, not the thread count,
// decides the result. It is synchronous data-parallel TD: with a small alpha a round of B games
// moves the weights about as far as B games one after the other (no rescaling of alpha), each
// game seeing weights at most B - 1 games old. A call that starts or ends inside a round plays
// that part as a round of its own, so a run split at other places than round boundaries differs
// from an unsplit one (tavli.train splits only at round boundaries).
//
// Cost: per play one forward_batch over the candidates, one forward of the state with its hidden
// activations, and one pass over the 5 traces and the weights (train.cpp: fused_update, vectorised;
// most of the time). About 80,000 plays/s per core for a 152-80-5 Fevga net here.
// State between games is only the weights and the game counter (traces are reset at each game
// start), so a checkpoint at a game boundary (the weight file, with the counter and the options in
// its metadata) resumes to exactly the weights of an uninterrupted run. Families are trained in
// parallel as separate processes.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tavli/nnet.h"
#include "tavli/playout.h"

namespace tavli {

struct TdOptions {
  double alpha = 0.1;    // learning rate, > 0
  double lambda = 0.7;   // trace decay, 0..1
  double epsilon = 0.0;  // probability of a random play (exploration), 0..1
  std::uint64_t seed = 1;
  int max_plies = 10000;  // a game still running after this many plays is dropped (no final update)
  int batch_games = 1;    // B, games per round (1..kMaxBatchGames): 1 plays them one by one
  static constexpr int kMaxBatchGames = 4096;
};

struct TdStats {
  std::int64_t games = 0;       // games played in the call
  std::int64_t plies = 0;       // plays made (each one TD update)
  std::int64_t unfinished = 0;  // games stopped at max_plies
};

class TdTrainer {
 public:
  // Throws std::invalid_argument when the net cannot serve the rules' game (family, encoding "raw")
  // or an option is out of range. `games_done`: the counter to start from (a resumed run).
  TdTrainer(std::shared_ptr<NeuralNet> net, const Rules& rules, const TdOptions& opt, std::int64_t games_done = 0);

  // Plays and learns from the next n games, on up to `threads` threads (1..kMaxThreads; more than
  // one is used only with batch_games > 1, and never changes the result). `stop` (optional) is
  // asked on the calling thread between games (between rounds with batch_games > 1); when it
  // returns true the call returns early, at that boundary.
  TdStats train(std::int64_t n, const std::function<bool()>& stop = {}, int threads = 1);

  // One TD step on the trainer's net, an encoded state x (net.inputs() floats) toward a target (5
  // floats, seen by the same side as x): e = lambda * M e + grad V(x) (e = grad V(x) when
  // `fresh`), w += alpha sum_o delta_o e_o. Returns V(x) before the step in `before` (5 floats)
  // when given. The game loop's step; exposed for tests.
  void td_step(const float* x, const float* target, bool fresh, float* before = nullptr);

  // A new learning rate for the games to come (a schedule: tavli.train's alpha steps change it at
  // game boundaries, so a run stays reproducible). Throws like the constructor.
  void set_alpha(double alpha);

  std::int64_t games() const { return games_; }
  const TdOptions& options() const { return opt_; }
  const Rules& rules() const { return rules_; }
  NeuralNet& net() { return *net_; }

 private:
  // What one thread needs to play and learn from a game: the traces and the scratch.
  struct Worker {
    std::vector<float> trace;  // 5 * nweights_: trace of output o at [o * nweights_, (o + 1) * nweights_)
    std::vector<float> x, hidden, g, dh, zeros;  // scratch (td_step)
    MoveList list;
    std::vector<PlyResult> batch;  // the plays' results (opponent to move) and outcomes
    std::vector<float> bx, by;
  };
  // One game on `net` (updated online); returns whether it finished, adds its plays to `plies`.
  bool play_game(NeuralNet& net, Worker& w, std::uint64_t seed, std::int64_t& plies) const;
  void step(NeuralNet& net, Worker& w, const float* x, const float* target, bool fresh, float* before) const;
  void make_workers(std::size_t n);
  // Games [games_, games_ + m) of one round (m <= batch_games), each from the current weights.
  void play_round(int m, int threads, TdStats& stats);

  std::shared_ptr<NeuralNet> net_;
  Rules rules_;
  TdOptions opt_;
  Encoding encoding_;
  std::int64_t games_ = 0;
  std::size_t nweights_ = 0;
  std::vector<std::unique_ptr<Worker>> workers_;  // one per thread (workers_[0]: td_step's)
  std::vector<NeuralNet> copies_;                 // a round's games' weights
};

// Results of a match of the net's 0-ply player against a fixed opponent.
struct VsResult {
  std::int64_t games = 0;
  std::int64_t net_wins = 0, opponent_wins = 0, other = 0;  // other: draws and unfinished games
  std::int64_t net_points = 0, opponent_points = 0;
};

// `games` games between the net's 0-ply player (best_play with a NeuralEvaluator: the bear-off
// table in home races, as in analysis) and `opponent`: "heuristic" (best_play with the heuristic
// evaluator, simulate's "greedy") or "random" (uniform over the distinct plays). Mirrored in pairs:
// games 2k and 2k + 1 use the same dice, from Rng(Rng::derive(seed, k)), the net White in game 2k
// and Black in game 2k + 1 (the random player draws from a separate generator per game). On up to
// `threads` threads, with the same results for any count. Throws std::invalid_argument for an
// unknown opponent, games < 0 or a net of another family.
VsResult evaluate_vs(std::shared_ptr<const NeuralNet> net, const Rules& rules, const std::string& opponent,
                     std::int64_t games, std::uint64_t seed, int threads = 1, int max_plies = 10000);

}  // namespace tavli
