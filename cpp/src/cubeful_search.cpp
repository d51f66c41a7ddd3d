#include "tavli/cubeful_search.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "tavli/interrupt.h"
#include "tavli/parallel.h"
#include "tavli/playout.h"
#include "tavli/scratch.h"

namespace tavli {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
const MoveFilter kRootFilter{0, 8, 0.16f};  // search.h's defaults
const MoveFilter kInnerFilter{0, 0, 0.0f};

// An analysis's limits (SearchOptions' time_limit and node_limit), shared by its threads: the
// static evaluation that passes either ends the iteration under way by LimitReached, and the
// analysis keeps the deepest iteration completed (as search.h's). The node total an iteration
// needs does not depend on the threads, so neither does whether it completes under a node limit.
struct LimitReached {};
struct CubefulBudget {
  using Clock = std::chrono::steady_clock;
  std::atomic<std::int64_t> nodes{0};
  std::atomic<bool> stop{false};
  std::int64_t node_limit = 0;
  bool timed = false;
  Clock::time_point deadline{};

  // The limits of `opt`, `spent` static evaluations already made (the root's).
  CubefulBudget(const SearchOptions& opt, std::int64_t spent)
      : nodes(spent), node_limit(opt.node_limit), timed(opt.time_limit > 0) {
    if (timed)  // beyond a year a limit is none (interrupt.h's cap)
      deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                    std::chrono::duration<double>(std::min(opt.time_limit, 366.0 * 86400.0)));
  }
  bool limited() const { return timed || node_limit > 0; }

  void spend(std::int64_t n) {
    const std::int64_t total = nodes.fetch_add(n, std::memory_order_relaxed) + n;
    if (node_limit && total > node_limit) stop.store(true, std::memory_order_relaxed);
    if (timed && (total & 255) < n && Clock::now() > deadline) stop.store(true, std::memory_order_relaxed);
    if (stop.load(std::memory_order_relaxed)) throw LimitReached{};
  }
};

// One roll's work at a node: its plays and their values. Leased per thread (scratch.h) and kept
// between nodes: a move list is megabytes, too big to build at every node.
struct RollScratch {
  MoveList list;
  std::vector<double> vals;  // vals[i * states + s]: play i's value in state s
  std::vector<int> keep;     // the plays searched to the full depth
  std::vector<Position> children, batch;
  std::vector<int> where;
  std::vector<char> over;
  std::vector<Probabilities> probs;
  std::vector<double> v;
};

// A node's cube states (expand's) and its values of playing on in them.
struct NodeScratch {
  std::vector<CubeState> states;
  std::vector<int> nd, dt;
  std::vector<double> r, best;
};

class CubefulSearch {
 public:
  CubefulSearch(const Rules& rules, const Evaluator& ev, const MatchState& match, const MatchEquityTable& met,
                const std::vector<MoveFilter>& filters, CubefulBudget* budget = nullptr)
      : rules_(rules), ev_(ev), match_(match), met_(met), filters_(filters), budget_(budget),
        away_{match.away(kWhite), match.away(kBlack)},
        one_away_now_(!match.money() && (match.crawford || away_[0] == 1 || away_[1] == 1)) {}

  std::int64_t nodes = 0;

  bool money() const { return match_.money(); }
  // The same value seen by the other side.
  double flip(double v) const { return money() ? -v : 1.0 - v; }
  // What `self` has once `winner` scores `points` times the cube.
  double result(Player self, Player winner, int points, const CubeState& c) const {
    if (money()) {
      const int pts = (c.jacoby && c.centred() ? 1 : points) * c.value;
      return self == winner ? pts : -pts;
    }
    return met_.after_game(away_, one_away_now_, self, winner, points * c.value);
  }
  // Double/pass for `mover` with the cube at c.
  double cash(Player mover, const CubeState& c) const { return result(mover, mover, 1, c); }

  // Converts an absolute value of `mover` with the cube at c into search.h's/cubeful.h's units.
  double normalised(double v, Player mover, const CubeState& c) const {
    if (money()) return v / c.value;
    const double win = result(mover, mover, 1, c), lose = result(mover, other(mover), 1, c);
    return (2.0 * v - (win + lose)) / (win - lose);
  }

  // The states to play on with: each cube of `cubes` as it is (nd[i]) and, where `mover` may
  // double it, doubled and owned by the other side (dt[i], else -1).
  void expand(const std::vector<CubeState>& cubes, Player mover, std::vector<CubeState>& states, std::vector<int>& nd,
              std::vector<int>& dt) const {
    auto index = [&](const CubeState& c) {
      for (std::size_t k = 0; k < states.size(); ++k)
        if (states[k] == c) return static_cast<int>(k);
      states.push_back(c);
      return static_cast<int>(states.size() - 1);
    };
    for (const CubeState& c : cubes) {
      nd.push_back(index(c));
      if (may_double(c, match_, mover)) {
        CubeState d = c;
        d.value *= 2;
        d.owner = other(mover);
        dt.push_back(index(d));
      } else {
        dt.push_back(-1);
      }
    }
  }

  // The mover's value of cube i once he has chosen his cube action: r holds the values of playing
  // on in `states` (nd/dt index them).
  double act(Player mover, const CubeState& c, const std::vector<double>& r, int nd, int dt) const {
    if (dt < 0) return r[static_cast<std::size_t>(nd)];
    const double take = r[static_cast<std::size_t>(dt)];
    double answer = std::min(take, cash(mover, c));
    // A beaver: the taker redoubles at once and keeps the cube, 4v his: twice the take, in money.
    if (money() && c.beavers && (c.max_cube == 0 || 4 * c.value <= c.max_cube)) answer = std::min(answer, 2.0 * take);
    return std::max(r[static_cast<std::size_t>(nd)], answer);
  }

  // Position before the roll, `mover` to move, for each of `cubes`, his cube action included;
  // `p` (when depth is 0) its static probabilities.
  void node(const Position& pos, Player mover, const std::vector<CubeState>& cubes, int depth, int level,
            const Probabilities* p, std::vector<double>& out) {
    // Transpositions (the same position, cubes and depth by another line) are searched once.
    const int lvl = filters_.size() > 1 ? level : 0;  // the filters below differ by level
    std::uint64_t key = pos.hash() ^ (0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(depth * 64 + lvl * 2 + mover));
    for (const CubeState& c : cubes)
      key = (key ^ static_cast<std::uint64_t>(c.value * 4 + c.owner + 1)) * 0xC2B2AE3D27D4EB4Full;
    Memo* memo = nullptr;
    if (depth > 0) {
      auto range = memo_.equal_range(key);
      for (auto it = range.first; it != range.second; ++it)
        if (it->second.depth == depth && it->second.level == lvl && it->second.mover == mover &&
            it->second.cubes == cubes && it->second.pos == pos) {
          out = it->second.values;
          return;
        }
      memo = &memo_.emplace(key, Memo{pos, depth, lvl, mover, cubes, {}})->second;
    }
    Scratch<NodeScratch> scratch;
    std::vector<CubeState>& states = scratch->states;
    std::vector<int>&nd = scratch->nd, &dt = scratch->dt;
    std::vector<double>& r = scratch->r;
    states.clear();
    nd.clear();
    dt.clear();
    expand(cubes, mover, states, nd, dt);
    if (depth == 0) {
      leaf(pos, *p, mover, states, r);
    } else {
      play_on(pos, mover, states, depth, level, r, scratch->best);
    }
    out.resize(cubes.size());
    for (std::size_t i = 0; i < cubes.size(); ++i) out[i] = act(mover, cubes[i], r, nd[i], dt[i]);
    if (memo) memo->values = out;
  }

  // The 0-ply cubeful value of each state, the cube left as it is.
  void leaf(const Position& pos, const Probabilities& p, Player mover, const std::vector<CubeState>& states,
            std::vector<double>& out) const {
    const double x = cube_efficiency(pos, rules_);
    out.resize(states.size());
    for (std::size_t k = 0; k < states.size(); ++k) {
      const CubeState& c = states[k];
      out[k] = money() ? c.value * cubeful_equity_money(p, c, mover, x) : cubeful_mwc(p, c, match_, mover, x, met_);
    }
  }

  // The average over the mover's rolls of his best play, for each state (the cube left as it is).
  void play_on(const Position& pos, Player mover, const std::vector<CubeState>& states, int depth, int level,
               std::vector<double>& out, std::vector<double>& best) {
    check_stop();
    out.assign(states.size(), 0.0);
    for (const WeightedRoll& wr : all_rolls()) {
      best_after_roll(pos, mover, wr.dice, states, depth, level, best);
      for (std::size_t s = 0; s < states.size(); ++s) out[s] += best[s] * wr.weight / 36.0;
    }
  }

  // The mover's best play for `dice`, valued in each state (play_on's term for one roll).
  void best_after_roll(const Position& pos, Player mover, Dice dice, const std::vector<CubeState>& states, int depth,
                       int level, std::vector<double>& best) {
    Scratch<RollScratch> scratch;
    RollScratch& w = *scratch;
    thread_generator().generate(pos, rules_, dice, w.list);
    plays(pos, mover, w.list, states, depth, level, w);
    const std::size_t ns = states.size();
    best.assign(ns, -std::numeric_limits<double>::infinity());
    for (std::size_t s = 0; s < ns; ++s)
      for (int i : w.keep) best[s] = std::max(best[s], w.vals[static_cast<std::size_t>(i) * ns + s]);
  }

  // The mover's value of each play of `list` in each state (w.vals), its result searched
  // depth - 1 plies; w.keep the plays searched that deep (the others hold their 0-ply values).
  void plays(const Position& pos, Player mover, const MoveList& list, const std::vector<CubeState>& states, int depth,
             int level, RollScratch& w) {
    const Player opp = other(mover);
    const int n = list.size();
    const std::size_t ns = states.size();
    std::vector<double>& vals = w.vals;
    vals.assign(static_cast<std::size_t>(n) * ns, 0.0);
    w.children.clear();
    w.batch.clear();
    w.where.clear();
    w.over.assign(static_cast<std::size_t>(n), 0);
    for (int i = 0; i < n; ++i) {
      const PlyResult step = advance(pos, list[i], rules_, mover);
      const Position& child = step.position;
      w.children.push_back(child);
      if (const auto& o = step.outcome) {
        if (o->winner < 0) throw std::invalid_argument("the cubeful search takes games without draws");
        w.over[static_cast<std::size_t>(i)] = 1;
        for (std::size_t s = 0; s < ns; ++s)
          vals[static_cast<std::size_t>(i) * ns + s] =
              result(mover, static_cast<Player>(o->winner), o->points, states[s]);
      } else {
        w.batch.push_back(child);
        w.where.push_back(i);
      }
    }
    w.probs.resize(w.batch.size());
    if (!w.batch.empty()) {
      ev_.evaluate(w.batch.data(), static_cast<int>(w.batch.size()), rules_, w.probs.data());
      nodes += static_cast<std::int64_t>(w.batch.size());
      if (budget_) budget_->spend(static_cast<std::int64_t>(w.batch.size()));
    }
    std::vector<double>& v = w.v;
    for (std::size_t k = 0; k < w.batch.size(); ++k) {
      node(w.batch[k], opp, states, 0, level + 1, &w.probs[k], v);
      for (std::size_t s = 0; s < ns; ++s) vals[static_cast<std::size_t>(w.where[k]) * ns + s] = flip(v[s]);
    }
    w.keep.resize(static_cast<std::size_t>(n));
    std::iota(w.keep.begin(), w.keep.end(), 0);
    if (depth == 1) return;
    select(vals, ns, filter(level), w.keep);
    for (int i : w.keep) {
      if (w.over[static_cast<std::size_t>(i)]) continue;
      node(w.children[static_cast<std::size_t>(i)], opp, states, depth - 1, level + 1, nullptr, v);
      for (std::size_t s = 0; s < ns; ++s) vals[static_cast<std::size_t>(i) * ns + s] = flip(v[s]);
    }
  }

  const MoveFilter* filter(int level) const {
    if (filters_.empty()) return &kInnerFilter;
    return &filters_[std::min<std::size_t>(static_cast<std::size_t>(level), filters_.size() - 1)];
  }

  // search.h's move filter on the values in the first state, in the units of its equities.
  // vals as plays' (RollScratch::vals, `ns` states a play).
  void select(const std::vector<double>& vals, std::size_t ns, const MoveFilter* f, std::vector<int>& keep) const {
    if (!f) return;
    auto first = [&](int i) { return vals[static_cast<std::size_t>(i) * ns]; };
    std::vector<int> order = keep;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return first(a) > first(b); });
    // The threshold is in equity: money in points (the cube value included), match as 2 x MWC.
    const double scale = money() ? 1.0 : 2.0;
    const double best = first(order[0]);
    keep.clear();
    int extra = 0;
    for (std::size_t k = 0; k < order.size(); ++k) {
      const int i = order[k];
      if (static_cast<int>(k) <= f->accept) {
        keep.push_back(i);
      } else if (extra < f->extra && scale * (best - first(i)) <= f->threshold) {
        keep.push_back(i);
        ++extra;
      }
    }
  }

 private:
  struct Memo {
    Position pos;
    int depth, level;
    Player mover;
    std::vector<CubeState> cubes;
    std::vector<double> values;
  };
  std::unordered_multimap<std::uint64_t, Memo> memo_;
  const Rules& rules_;
  const Evaluator& ev_;
  const MatchState& match_;
  const MatchEquityTable& met_;
  const std::vector<MoveFilter>& filters_;
  CubefulBudget* budget_;
  std::array<int, 2> away_;
  bool one_away_now_;
};

// The root's independent items (its kept plays, or its rolls), fn(searcher, item) for each on up
// to `threads` threads, handed out one at a time as threads get free (items differ in cost: a
// fixed split leaves a thread idle at the end), in the order `first` gives (the costly ones
// first; empty: 0, 1, ...). Each item has a searcher of its own, its own transposition memo,
// whatever the thread count, so values and node counts (returned: their sum) do not depend on it.
template <class Fn>
std::int64_t root_items(std::size_t n, int threads, const Rules& rules, const Evaluator& ev, const MatchState& match,
                        const MatchEquityTable& met, const std::vector<MoveFilter>& filters, Fn fn,
                        CubefulBudget* budget = nullptr, const std::vector<std::size_t>& first = {}) {
  std::vector<std::int64_t> nodes(n, 0);
  std::atomic<std::size_t> next{0};
  run_on_threads(worker_count(static_cast<std::int64_t>(n), threads), [&](int) {
    for (std::size_t k = next.fetch_add(1, std::memory_order_relaxed); k < n;
         k = next.fetch_add(1, std::memory_order_relaxed)) {
      check_stop();
      const std::size_t i = first.empty() ? k : first[k];
      CubefulSearch s(rules, ev, match, met, filters, budget);
      fn(s, i);
      nodes[i] = s.nodes;
    }
  });
  return std::accumulate(nodes.begin(), nodes.end(), std::int64_t{0});
}

// The 21 rolls' indices, doubles first (four moves: the most plays to search).
const std::vector<std::size_t>& doubles_first() {
  static const std::vector<std::size_t> order = [] {
    std::vector<std::size_t> o(all_rolls().size());
    std::iota(o.begin(), o.end(), std::size_t{0});
    std::stable_sort(o.begin(), o.end(), [](std::size_t a, std::size_t b) {
      return all_rolls()[a].dice.is_double() > all_rolls()[b].dice.is_double();
    });
    return o;
  }();
  return order;
}

void check_arguments(const Rules& rules, const CubeState& cube, const MatchState& match, const MatchEquityTable& met,
                     const SearchOptions& opt) {
  if (!rules.info().takes_cube)
    throw std::invalid_argument(rules.info().name + " has no doubling cube, so no cubeful search");
  validate_for(rules.info(), cube, match);
  if (!match.money() && match.length > met.length())
    throw std::invalid_argument("the match equity table " + met.name() + " covers matches up to " +
                                std::to_string(met.length()) + " points, not " + std::to_string(match.length));
  if (opt.plies < 0 || opt.plies > kMaxCubefulPlies)
    throw std::invalid_argument("cubeful search plies must be 0.." + std::to_string(kMaxCubefulPlies));
  if (opt.threads < 1 || opt.threads > kMaxThreads)
    throw std::invalid_argument("cubeful search threads must be 1.." + std::to_string(kMaxThreads));
  if (!(opt.time_limit >= 0) || !std::isfinite(opt.time_limit))
    throw std::invalid_argument("time_limit must be a finite number of seconds >= 0");
  if (opt.node_limit < 0) throw std::invalid_argument("node_limit must be >= 0");
  for (const MoveFilter& f : opt.filters)
    if (f.accept < 0 || f.extra < 0 || !(f.threshold >= 0))
      throw std::invalid_argument("move filters need accept >= 0, extra >= 0, threshold >= 0");
}

}  // namespace

CubefulAnalysis cubeful_analyze(const Position& pos, const Rules& rules, Player mover, Dice dice,
                                const CubeState& cube, const MatchState& match, const MatchEquityTable& met,
                                const Evaluator& ev, const SearchOptions& opt) {
  check_arguments(rules, cube, match, met, opt);
  if (game_outcome(pos, rules, mover)) throw IllegalMove("the game is over: there are no legal plays");
  CubefulSearch search(rules, ev, match, met, opt.filters);
  Scratch<RollScratch> scratch;
  const MoveList& list = scratch->list;
  thread_generator().generate(pos, rules, dice, scratch->list);
  const std::vector<CubeState> cubes{cube};
  std::vector<double>& vals = scratch->vals;  // one state: vals[i] is play i's value
  std::vector<int>& keep = scratch->keep;
  // 0 plies: every play (its result's 0-ply cubeful value); the filter picks those to search deeper.
  search.plays(pos, mover, list, cubes, 1, 0, *scratch);
  // At the root, as search.h: full width at 1 ply, the default root filter deeper, or filters[0].
  const MoveFilter* root = !opt.filters.empty() ? &opt.filters[0] : opt.plies >= 2 ? &kRootFilter : nullptr;
  if (opt.plies >= 1) search.select(vals, 1, root, keep);
  if (list.size() == 1) keep = {0};
  std::vector<int> depth_of(static_cast<std::size_t>(list.size()), 0);
  CubefulAnalysis out;
  // Without limits the kept plays are searched at opt.plies at once; with one, at 1, 2, ... plies
  // in turn (the same kept plays: the values at opt.plies are the same either way), and the
  // deepest iteration completed is the answer.
  CubefulBudget budget(opt, search.nodes);
  const bool limited = budget.limited();
  out.nodes = search.nodes;
  for (int d = limited ? 1 : opt.plies; d >= 1 && d <= opt.plies; ++d) {
    // Each kept play is searched by a searcher of its own (see root_items).
    std::vector<double> deep(keep.size());
    try {
      out.nodes += root_items(keep.size(), opt.threads, rules, ev, match, met, opt.filters,
                              [&](CubefulSearch& s, std::size_t k) {
        const int i = keep[k];
        const PlyResult step = advance(pos, list[i], rules, mover);
        if (step.outcome) {  // exact already
          deep[k] = vals[static_cast<std::size_t>(i)];
          return;
        }
        std::vector<double> v;
        s.node(step.position, step.to_move, cubes, d, 1, nullptr, v);
        deep[k] = s.flip(v[0]);
      }, limited ? &budget : nullptr);
    } catch (const LimitReached&) {
      out.interrupted = true;
      break;
    }
    for (std::size_t k = 0; k < keep.size(); ++k) {
      vals[static_cast<std::size_t>(keep[k])] = deep[k];
      depth_of[static_cast<std::size_t>(keep[k])] = d;
    }
    out.plies = d;
  }
  std::vector<int> order(static_cast<std::size_t>(list.size()));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const auto ia = static_cast<std::size_t>(a), ib = static_cast<std::size_t>(b);
    if (depth_of[ia] != depth_of[ib]) return depth_of[ia] > depth_of[ib];
    return vals[ia] > vals[ib];
  });
  for (int i : order) {
    const double value = vals[static_cast<std::size_t>(i)];
    out.plays.push_back(CubefulPlayValue{list[i], search.normalised(value, mover, cube), match.money() ? kNaN : value,
                                         depth_of[static_cast<std::size_t>(i)]});
  }
  return out;
}

CubeDecision cubeful_decision(const Position& pos, const Rules& rules, Player mover, const CubeState& cube,
                              const MatchState& match, const MatchEquityTable& met, const Evaluator& ev,
                              const SearchOptions& opt, CubefulSearchStats* stats) {
  check_arguments(rules, cube, match, met, opt);
  if (game_outcome(pos, rules, mover)) throw std::invalid_argument("the game is over: no cube decision");
  CubefulSearch search(rules, ev, match, met, opt.filters);
  std::vector<CubeState> states;
  std::vector<int> nd, dt;
  search.expand({cube}, mover, states, nd, dt);
  const Probabilities p = ev.evaluate(pos, rules);
  search.nodes = 1;
  std::vector<double> r;
  search.leaf(pos, p, mover, states, r);  // 0 plies (and the answer when a limit cuts 1 ply short)
  // As cubeful_analyze: with a limit, 1, 2, ... plies in turn, the deepest completed kept.
  CubefulBudget budget(opt, 1);
  const bool limited = budget.limited();
  int done = 0;
  bool cut = false;
  for (int depth = limited ? 1 : opt.plies; depth >= 1 && depth <= opt.plies; ++depth) {
    // play_on's average, each roll searched by a searcher of its own (see root_items).
    const auto& rolls = all_rolls();
    std::vector<std::vector<double>> best(rolls.size());
    std::int64_t spent = 0;
    try {
      spent = root_items(rolls.size(), opt.threads, rules, ev, match, met, opt.filters,
                         [&](CubefulSearch& s, std::size_t k) {
        s.best_after_roll(pos, mover, rolls[k].dice, states, depth, 0, best[k]);
      }, limited ? &budget : nullptr, doubles_first());
    } catch (const LimitReached&) {
      cut = true;
      break;
    }
    search.nodes += spent;
    r.assign(states.size(), 0.0);
    for (std::size_t k = 0; k < rolls.size(); ++k)
      for (std::size_t i = 0; i < states.size(); ++i) r[i] += best[k][i] * rolls[k].weight / 36.0;
    done = depth;
  }
  if (stats) *stats = CubefulSearchStats{search.nodes, done, cut};
  CubeDecision d;
  d.efficiency = cube_efficiency(pos, rules);
  d.available = dt[0] >= 0;
  const double nd_v = r[static_cast<std::size_t>(nd[0])];
  d.nd = search.normalised(nd_v, mover, cube);
  if (!match.money()) d.nd_mwc = nd_v;
  if (!d.available) return d;
  const double dt_v = r[static_cast<std::size_t>(dt[0])], dp_v = search.cash(mover, cube);
  d.dt = search.normalised(dt_v, mover, cube);
  d.dp = search.normalised(dp_v, mover, cube);
  if (!match.money()) {
    d.dt_mwc = dt_v;
    d.dp_mwc = dp_v;
  }
  const bool beavers = match.money() && cube.beavers;
  d.action = cube_action(d.nd, d.dt, d.dp, beavers, p.win_double > 0);
  d.take = take_decision(d.dt, d.dp, beavers);
  return d;
}

}  // namespace tavli
