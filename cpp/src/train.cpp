// TD(lambda) self-play training and matches against fixed opponents (train.h, where the maths is).
#include "tavli/train.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "tavli/best_play.h"
#include "tavli/parallel.h"
#include "tavli/playout.h"
#include "tavli/rng.h"
#include "tavli/scratch.h"
#include "tavli/sim.h"
#include "tavli/simd.h"

namespace tavli {
namespace {

// Over `len` consecutive weights w[0..len), at offset `off` of every trace: the trace step of
// train.h with gradient s * G_o[j] for output o, then the weight update. M: win -> -win,
// win_double <-> lose_double (1 <-> 3), win_triple <-> lose_triple (2 <-> 4). This loop is most of
// a training step's time.
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
inline void fused_loop(float* __restrict w, float* const e[5], std::size_t off, std::size_t len, float s,
                       const float* const G[5], float lam, float alpha, const float delta[5]) {
  float* __restrict e0 = e[0] + off;
  float* __restrict e1 = e[1] + off;
  float* __restrict e2 = e[2] + off;
  float* __restrict e3 = e[3] + off;
  float* __restrict e4 = e[4] + off;
  const float* __restrict g0 = G[0];
  const float* __restrict g1 = G[1];
  const float* __restrict g2 = G[2];
  const float* __restrict g3 = G[3];
  const float* __restrict g4 = G[4];
  const float a0 = alpha * delta[0], a1 = alpha * delta[1], a2 = alpha * delta[2], a3 = alpha * delta[3],
              a4 = alpha * delta[4];
  // The arrays never overlap: tell the compiler, which otherwise gives up vectorising a loop of
  // eleven streams (too many run-time alias checks).
#if defined(__clang__)
#pragma clang loop vectorize(assume_safety)
#elif defined(__GNUC__)
#pragma GCC ivdep
#endif
  for (std::size_t j = 0; j < len; ++j) {
    const float t0 = s * g0[j] - lam * e0[j];
    const float t1 = s * g1[j] + lam * e3[j];
    const float t3 = s * g3[j] + lam * e1[j];
    const float t2 = s * g2[j] + lam * e4[j];
    const float t4 = s * g4[j] + lam * e2[j];
    e0[j] = t0;
    e1[j] = t1;
    e2[j] = t2;
    e3[j] = t3;
    e4[j] = t4;
    w[j] += a0 * t0 + a1 * t1 + a2 * t2 + a3 * t3 + a4 * t4;
  }
}

// Two builds of the loop: the baseline (SSE2 on x86-64) and, where the CPU has it, AVX2 (twice as
// wide). Element-wise arithmetic with no FMA in either, so both give the same bits: a run does not
// depend on which one the machine takes.
void fused_base(float* w, float* const e[5], std::size_t off, std::size_t len, float s, const float* const G[5],
                float lam, float alpha, const float delta[5]) {
  fused_loop(w, e, off, len, s, G, lam, alpha, delta);
}
#if defined(__GNUC__) && !defined(__clang__) && (defined(__x86_64__) || defined(__i386__))
#define TAVLI_TRAIN_AVX2 1
__attribute__((target("avx2"))) void fused_avx2(float* w, float* const e[5], std::size_t off, std::size_t len,
                                                 float s, const float* const G[5], float lam, float alpha,
                                                 const float delta[5]) {
  fused_loop(w, e, off, len, s, G, lam, alpha, delta);
}
#endif

using FusedFn = void (*)(float*, float* const*, std::size_t, std::size_t, float, const float* const*, float, float,
                         const float*);
FusedFn pick_fused() {
#ifdef TAVLI_TRAIN_AVX2
  if (simd::has_avx2()) return fused_avx2;
#endif
  return fused_base;
}
const FusedFn fused_update = pick_fused();

// The value of a play that ended the game for the side that made it, as the 5 learned outputs.
void terminal_target(const PlyResult& step, float* target, float* equity) {
  const Probabilities p = mover_value(step);
  target[0] = p.win + 0.5f * p.draw;
  target[1] = p.win_double;
  target[2] = p.win_triple;
  target[3] = p.lose_double;
  target[4] = p.lose_triple;
  *equity = p.equity();
}

// Outputs seen by the side to move, as seen by the other side (inv of train.h).
void invert5(const float* y, float* z) {
  z[0] = 1.0f - y[0];
  z[1] = y[3];
  z[2] = y[4];
  z[3] = y[1];
  z[4] = y[2];
}

float equity5(const float* v) { return 2.0f * v[0] - 1.0f + (v[1] - v[3]) + (v[2] - v[4]); }

void check_net(const NeuralNet& net, const Rules& rules) {
  if (net.encoding() == "raw")
    throw std::invalid_argument("a net with the 'raw' encoding cannot be trained on positions (it has no encoding)");
  if (net.family() != net_family(rules.variant))
    throw std::invalid_argument("a net of family '" + net.family() + "' cannot play " + rules.info().name +
                                " (family '" + net_family(rules.variant) + "')");
}

}  // namespace

void TdTrainer::set_alpha(double alpha) {
  if (!(alpha > 0) || !std::isfinite(alpha)) throw std::invalid_argument("alpha must be a finite number > 0");
  opt_.alpha = alpha;
}

TdTrainer::TdTrainer(std::shared_ptr<NeuralNet> net, const Rules& rules, const TdOptions& opt, std::int64_t games_done)
    : net_(std::move(net)), rules_(rules), opt_(opt), games_(games_done) {
  if (!net_) throw std::invalid_argument("TdTrainer: no net");
  check_net(*net_, rules_);
  encoding_ = encoding_from_name(net_->encoding());
  if (!(opt_.alpha > 0) || !std::isfinite(opt_.alpha)) throw std::invalid_argument("alpha must be a finite number > 0");
  if (!(opt_.lambda >= 0 && opt_.lambda <= 1)) throw std::invalid_argument("lambda must be in [0, 1]");
  if (!(opt_.epsilon >= 0 && opt_.epsilon <= 1)) throw std::invalid_argument("epsilon must be in [0, 1]");
  if (opt_.max_plies < 1) throw std::invalid_argument("max_plies must be >= 1");
  if (opt_.batch_games < 1 || opt_.batch_games > TdOptions::kMaxBatchGames)
    throw std::invalid_argument("batch_games must be 1.." + std::to_string(TdOptions::kMaxBatchGames));
  if (games_done < 0) throw std::invalid_argument("games done must be >= 0");
  const std::size_t I = static_cast<std::size_t>(net_->inputs()), H = static_cast<std::size_t>(net_->hidden());
  nweights_ = I * H + H + NeuralNet::kOutputs * H + NeuralNet::kOutputs;
  make_workers(1);
}

void TdTrainer::make_workers(std::size_t n) {
  const std::size_t I = static_cast<std::size_t>(net_->inputs()), H = static_cast<std::size_t>(net_->hidden());
  const std::size_t O = NeuralNet::kOutputs;
  while (workers_.size() < n) {
    auto w = std::make_unique<Worker>();
    w->trace.assign(O * nweights_, 0.0f);
    w->x.resize(I);
    w->hidden.resize(H);
    w->g.resize(O * H);
    w->dh.resize(H);
    w->zeros.assign(std::max(H, O), 0.0f);
    workers_.push_back(std::move(w));
  }
}

void TdTrainer::td_step(const float* x, const float* target, bool fresh, float* before) {
  step(*net_, *workers_[0], x, target, fresh, before);
}

void TdTrainer::step(NeuralNet& n, Worker& wk, const float* x, const float* target, bool fresh, float* before) const {
  const std::size_t I = static_cast<std::size_t>(n.inputs()), H = static_cast<std::size_t>(n.hidden());
  constexpr int O = NeuralNet::kOutputs;
  float y[O], d[O], delta[O];
  n.forward(x, y, wk.hidden.data());
  if (before) std::copy(y, y + O, before);
  for (int o = 0; o < O; ++o) {
    d[o] = y[o] * (1.0f - y[o]);
    delta[o] = target[o] - y[o];
  }
  const float* w2 = n.w2();
  for (int o = 0; o < O; ++o)
    for (std::size_t k = 0; k < H; ++k) {
      const float hk = wk.hidden[k];
      wk.g[o * H + k] = d[o] * w2[o * H + k] * hk * (1.0f - hk);
    }
  if (fresh) std::fill(wk.trace.begin(), wk.trace.end(), 0.0f);
  const float lam = fresh ? 0.0f : static_cast<float>(opt_.lambda);
  const float alpha = static_cast<float>(opt_.alpha);
  float* e[O];
  for (int o = 0; o < O; ++o) e[o] = wk.trace.data() + o * nweights_;
  const float* G[O];

  // w1 (input-major rows) and b1: gradient x_i * g_o, and g_o.
  for (int o = 0; o < O; ++o) G[o] = wk.g.data() + o * H;
  float* w1 = n.w1();
  for (std::size_t i = 0; i < I; ++i) fused_update(w1 + i * H, e, i * H, H, x[i], G, lam, alpha, delta);
  fused_update(n.b1(), e, I * H, H, 1.0f, G, lam, alpha, delta);
  // w2 row r: only output r depends on it, with gradient d_r * h.
  std::size_t off = I * H + H;
  for (int r = 0; r < O; ++r) {
    for (std::size_t k = 0; k < H; ++k) wk.dh[k] = d[r] * wk.hidden[k];
    for (int o = 0; o < O; ++o) G[o] = o == r ? wk.dh.data() : wk.zeros.data();
    fused_update(n.w2() + r * H, e, off + r * H, H, 1.0f, G, lam, alpha, delta);
  }
  off += O * H;
  // b2: gradient d_o for output o's own bias.
  float gb[O][O] = {};
  for (int o = 0; o < O; ++o) {
    gb[o][o] = d[o];
    G[o] = gb[o];
  }
  fused_update(n.b2(), e, off, O, 1.0f, G, lam, alpha, delta);
}

bool TdTrainer::play_game(NeuralNet& n, Worker& wk, std::uint64_t seed, std::int64_t& plies) const {
  const std::size_t I = static_cast<std::size_t>(n.inputs());
  constexpr int O = NeuralNet::kOutputs;
  Rng rng(seed);
  OpeningThrow opening = roll_opening(rules_, rng);
  Position pos = start_position(rules_);
  net_encode(pos, rules_, encoding_, wk.x.data());
  MoveGenerator& gen = thread_generator();
  bool fresh = true;
  for (int ply = 0; ply < opt_.max_plies; ++ply) {
    const Dice dice = opening.next_dice(rng);
    gen.generate(pos, rules_, dice, wk.list);
    const int m = wk.list.size();
    wk.batch.resize(static_cast<std::size_t>(m));
    wk.bx.resize(static_cast<std::size_t>(m) * I);
    wk.by.resize(static_cast<std::size_t>(m) * O);
    for (int i = 0; i < m; ++i) {
      PlyResult& r = wk.batch[static_cast<std::size_t>(i)];
      r = advance(pos, wk.list[i], rules_, kWhite);
      net_encode(r.position, rules_, encoding_, wk.bx.data() + static_cast<std::size_t>(i) * I);
    }
    n.forward_batch(wk.bx.data(), m, wk.by.data());

    // The play: the best equity for the mover, or with probability epsilon a random one.
    int forced = -1, choice = 0;
    if (opt_.epsilon > 0 && m > 1) {
      const double u = static_cast<double>(rng.next() >> 11) * 0x1.0p-53;
      if (u < opt_.epsilon) forced = static_cast<int>(rng.below(static_cast<std::uint32_t>(m)));
    }
    float target[O], best_target[O];
    bool best_terminal = false;
    float best_eq = -1e30f;
    for (int i = 0; i < m; ++i) {
      if (forced >= 0 && i != forced) continue;
      float eq;
      const PlyResult& st = wk.batch[static_cast<std::size_t>(i)];
      const bool term = st.outcome.has_value();
      if (term) {
        terminal_target(st, target, &eq);
      } else {
        invert5(wk.by.data() + static_cast<std::size_t>(i) * O, target);
        eq = equity5(target);
      }
      if (forced >= 0 || eq > best_eq) {
        best_eq = eq;
        choice = i;
        best_terminal = term;
        std::copy(target, target + O, best_target);
      }
    }
    step(n, wk, wk.x.data(), best_target, fresh, nullptr);
    fresh = false;
    ++plies;
    if (best_terminal) return true;
    pos = wk.batch[static_cast<std::size_t>(choice)].position;
    std::copy(wk.bx.data() + static_cast<std::size_t>(choice) * I,
              wk.bx.data() + static_cast<std::size_t>(choice + 1) * I, wk.x.data());
  }
  return false;
}

void TdTrainer::play_round(int m, int threads, TdStats& stats) {
  const int t = worker_count(m, threads);
  make_workers(static_cast<std::size_t>(t));
  if (copies_.size() < static_cast<std::size_t>(m)) copies_.resize(static_cast<std::size_t>(m), *net_);
  std::vector<std::int64_t> plies(static_cast<std::size_t>(m), 0);
  std::vector<char> finished(static_cast<std::size_t>(m), 0);
  run_on_threads(t, [&](int w) {
    for (int g = w; g < m; g += t) {
      check_stop();
      NeuralNet& copy = copies_[static_cast<std::size_t>(g)];
      copy = *net_;
      finished[static_cast<std::size_t>(g)] =
          play_game(copy, *workers_[static_cast<std::size_t>(w)],
                    Rng::derive(opt_.seed, static_cast<std::uint64_t>(games_ + g)), plies[static_cast<std::size_t>(g)]);
    }
  });
  // W <- W + sum_g (W_g - W), in game order for every weight; weights split over the threads.
  struct Layer {
    float* w;
    std::size_t len;
    float* (NeuralNet::*of)();
  };
  const std::size_t I = static_cast<std::size_t>(net_->inputs()), H = static_cast<std::size_t>(net_->hidden());
  const std::size_t O = NeuralNet::kOutputs;
  const Layer layers[] = {{net_->w1(), I * H, &NeuralNet::w1}, {net_->b1(), H, &NeuralNet::b1},
                          {net_->w2(), O * H, &NeuralNet::w2}, {net_->b2(), O, &NeuralNet::b2}};
  for (const Layer& l : layers) {
    parallel_ranges(static_cast<std::int64_t>(l.len), t, [&](std::int64_t begin, std::int64_t end, int) {
      for (std::int64_t j = begin; j < end; ++j) {
        const float w0 = l.w[j];
        float acc = w0;
        for (int g = 0; g < m; ++g) acc += (copies_[static_cast<std::size_t>(g)].*l.of)()[j] - w0;
        l.w[j] = acc;
      }
    });
  }
  for (int g = 0; g < m; ++g) {
    stats.plies += plies[static_cast<std::size_t>(g)];
    if (!finished[static_cast<std::size_t>(g)]) ++stats.unfinished;
  }
  games_ += m;
  stats.games += m;
}

TdStats TdTrainer::train(std::int64_t n, const std::function<bool()>& stop, int threads) {
  if (n < 0) throw std::invalid_argument("games must be >= 0");
  check_threads(threads);
  TdStats stats;
  if (opt_.batch_games == 1) {
    for (std::int64_t k = 0; k < n; ++k) {
      if (stop && stop()) break;
      std::int64_t plies = 0;
      if (!play_game(*net_, *workers_[0], Rng::derive(opt_.seed, static_cast<std::uint64_t>(games_)), plies))
        ++stats.unfinished;
      stats.plies += plies;
      ++games_;
      ++stats.games;
    }
    return stats;
  }
  const std::int64_t B = opt_.batch_games;
  for (std::int64_t k = 0; k < n;) {
    if (stop && stop()) break;
    const std::int64_t round_end = (games_ / B + 1) * B;
    const int m = static_cast<int>(std::min(round_end - games_, n - k));
    play_round(m, threads, stats);
    k += m;
  }
  return stats;
}

VsResult evaluate_vs(std::shared_ptr<const NeuralNet> net, const Rules& rules, const std::string& opponent,
                     std::int64_t games, std::uint64_t seed, int threads, int max_plies) {
  if (!net) throw std::invalid_argument("evaluate_vs: no net");
  check_net(*net, rules);
  const bool random = opponent == "random";
  if (!random && opponent != "heuristic")
    throw std::invalid_argument("unknown opponent '" + opponent + "' (known: heuristic, random)");
  if (games < 0) throw std::invalid_argument("games must be >= 0");
  if (threads < 1) throw std::invalid_argument("threads must be >= 1");
  if (max_plies < 1) throw std::invalid_argument("max_plies must be >= 1");
  const NeuralEvaluator nev(net);
  // Both sides are sim.h players: the net's 0-ply greedy one, and the opponent.
  PlayerSpec net_player, opponent_player;
  net_player.kind = PlayerSpec::Kind::Greedy;
  opponent_player.kind = random ? PlayerSpec::Kind::Random : PlayerSpec::Kind::Greedy;
  std::vector<Outcome> results(static_cast<std::size_t>(games), Outcome{-2, 0, ResultKind::Single});
  parallel_for(games, threads, [&](std::int64_t g) {
    const Player net_side = g % 2 == 0 ? kWhite : kBlack;
    Rng dice_rng(Rng::derive(seed, static_cast<std::uint64_t>(g / 2)));
    Rng choice_rng(Rng::derive(seed ^ 0xA5A5A5A55A5A5A5Aull, static_cast<std::uint64_t>(g)));
    OpeningThrow opening = roll_opening(rules, dice_rng);
    Position pos = start_position(rules);
    Player mover = opening.mover;
    MoveGenerator& gen = thread_generator();
    Scratch<MoveList> plays;
    MoveList& list = *plays;
    for (int ply = 0; ply < max_plies; ++ply) {
      const Dice dice = opening.next_dice(dice_rng);
      gen.generate(pos, rules, dice, list);
      const int i = mover == net_side
                        ? choose_play(net_player, nev, pos, rules, dice, list, choice_rng)
                        : choose_play(opponent_player, heuristic_evaluator(), pos, rules, dice, list, choice_rng);
      const PlyResult step = advance(pos, list[i], rules, mover);
      pos = step.position;
      mover = step.to_move;
      if (const auto& o = step.outcome) {
        Outcome r = *o;
        // Recorded relative to the net: winner 0 the net, 1 the opponent, -1 a draw.
        if (r.winner >= 0) r.winner = r.winner == static_cast<int>(net_side) ? 0 : 1;
        results[static_cast<std::size_t>(g)] = r;
        return;
      }
    }
  });
  VsResult out;
  out.games = games;
  for (const Outcome& r : results) {
    if (r.winner == 0) {
      ++out.net_wins;
      out.net_points += r.points;
    } else if (r.winner == 1) {
      ++out.opponent_wins;
      out.opponent_points += r.points;
    } else {
      ++out.other;
    }
  }
  return out;
}

}  // namespace tavli
