#include "tavli/search.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <thread>

#include "tavli/best_play.h"
#include "tavli/eval_cache.h"
#include "tavli/interrupt.h"
#include "tavli/parallel.h"
#include "tavli/playout.h"
#include "tavli/scratch.h"

namespace tavli {
namespace {

using Clock = std::chrono::steady_clock;

struct Aborted {};

// Shared by the threads of one search: the budget and the stop flag. A Ctrl-C (interrupt.h) is
// checked at every spend and unwinds the whole search (Interrupted), unlike the budget.
struct Budget {
  std::atomic<std::int64_t> nodes{0};
  std::atomic<bool> stop{false};
  std::int64_t node_limit = 0;
  bool timed = false;
  Clock::time_point deadline;

  void spend(std::int64_t n) {
    const std::int64_t total = nodes.fetch_add(n, std::memory_order_relaxed) + n;
    if (node_limit && total > node_limit) stop.store(true, std::memory_order_relaxed);
    if (timed && (total & 255) < n && Clock::now() > deadline) stop.store(true, std::memory_order_relaxed);
    if (stop.load(std::memory_order_relaxed)) throw Aborted{};
    check_stop();
  }
};

// Defaults (gnubg's habits): at the root of a search of two plies or more, the best play and up to
// 8 more within 0.16 of it; inside the tree, only the reply that looks best statically goes deeper.
const MoveFilter kRootFilter{0, 8, 0.16f};
const MoveFilter kInnerFilter{0, 0, 0.0f};
// Narrowing between the root's iterations, gnubg's "Normal" habits: after 2 plies keep the best
// and up to 2 more within 0.04; after any other ply keep all (gnubg's "skip this ply").
const MoveFilter kNarrowAfter2{0, 2, 0.04f};

// Slots of the static-evaluation cache of a search (eval_cache.h): 2^16 of 80 bytes, 5 MiB per
// thread that starts searches of 2 plies or more.
constexpr int kEvalCacheBits = 16;

// A search's cache, leased per search (scratch.h): a calling thread keeps its one across searches.
struct SearchEvalCache : EvalCache {
  SearchEvalCache() : EvalCache(kEvalCacheBits) {}
};

// What plays are ranked by at `level` plies below the root: the money equity, or with a match
// utility the MWC (as EMG) of the side to move there (the root mover at even levels).
float rank_score(const MatchUtility& u, const Probabilities& p, int level) {
  if (!u.active) return p.equity();
  return static_cast<float>((level & 1) ? -u.emg(p.inverted()) : u.emg(p));
}

// The evaluator as a search sees it: through the static-evaluation cache shared by the search's
// threads (when there is one), every position asked for counted against the budget.
class Leaves final : public Evaluator {
 public:
  void bind(const Evaluator& ev, Budget& budget, EvalCache* evals) {
    ev_ = &ev;
    budget_ = &budget;
    evals_ = evals;
  }
  using Evaluator::evaluate;
  std::string name() const override { return ev_->name(); }
  void evaluate(const Position* positions, int n, const Rules& rules, Probabilities* out) const override {
    if (!evals_) {
      ev_->evaluate(positions, n, rules, out);
      budget_->spend(n);
      return;
    }
    misses_.clear();
    where_.clear();
    for (int i = 0; i < n; ++i) {
      if (evals_->find(positions[i], &out[i])) continue;
      misses_.push_back(positions[i]);
      where_.push_back(i);
    }
    // Nodes count the static evaluations asked for, found in the cache or not: node counts, and
    // so node limits, do not depend on what the cache (shared by the threads) happened to hold.
    if (misses_.empty()) {
      if (n) budget_->spend(n);
      return;
    }
    res_.resize(misses_.size());
    ev_->evaluate(misses_.data(), static_cast<int>(misses_.size()), rules, res_.data());
    budget_->spend(n);
    for (std::size_t k = 0; k < misses_.size(); ++k) {
      evals_->store(misses_[k], res_[k]);
      out[where_[k]] = res_[k];
    }
  }

 private:
  const Evaluator* ev_ = nullptr;
  Budget* budget_ = nullptr;
  EvalCache* evals_ = nullptr;  // null: no cache
  // The misses of one call (a search's thread has one Leaves, and a call does not re-enter it).
  mutable std::vector<Position> misses_;
  mutable std::vector<int> where_;
  mutable std::vector<Probabilities> res_;
};

// One thread's search state. Reusable: begin() binds it to a search; its cache entries carry the
// search's generation, so nothing has to be cleared between searches.
class Searcher {
 public:
  void begin(const Rules& rules, const Evaluator& ev, const std::vector<MoveFilter>& filters, Budget& budget,
             const MatchUtility& utility, EvalCache* evals = nullptr, int prune = 0) {
    utility_ = &utility;
    rules_ = &rules;
    filters_ = &filters;
    leaves_.bind(ev, budget, evals);
    pruner_ = prune > 0 ? ev.pruner(rules) : nullptr;
    prune_ = prune;
    forget();
  }

  // Empties the cache (in O(1)). Done before each root item (a root play, a roll), so that what an
  // item costs does not depend on which items the same thread searched before it: node counts,
  // and so node limits, are then the same for any thread count.
  void forget() {
    if (++generation_ == 0) {  // wrapped: clear for real once every 2^32 items
      std::fill(cache_.begin(), cache_.end(), Entry{});
      generation_ = 1;
    }
  }

  // The position before the roll, `depth` plies deep, for the side to move; `level` is how far
  // below the root it is (for the filters).
  Probabilities value(const Position& pos, int depth, int level) {
    if (depth == 0) return static_value(pos);
    // Values depend on the filters below, so on the level too when the filters differ by level.
    // With a match utility the side to move matters too (the score is not symmetric).
    const std::uint64_t lvl = filters_->size() > 1 ? static_cast<std::uint64_t>(level)
                              : utility_->active  ? static_cast<std::uint64_t>(level & 1) : 0;
    const std::uint64_t key = pos.hash() ^ (0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(depth)) ^
                              (0xC2B2AE3D27D4EB4Full * lvl);
    if (cache_.empty()) cache_.resize(std::size_t{1} << kCacheBits);  // only searches of 2+ plies need it
    Entry& e = cache_[key & ((std::size_t{1} << kCacheBits) - 1)];
    // The hash picks the slot; the exact position and level confirm it (a collision is a miss).
    const PositionKey exact = pos.key();
    if (e.key == key && e.depth == depth && e.level == lvl && e.generation == generation_ && e.exact == exact)
      return e.value;
    Probabilities acc;
    MoveList& list = list_at(level);
    for (const WeightedRoll& wr : all_rolls()) {
      gen_.generate(pos, *rules_, wr.dice, list);
      acc.add(best_play(pos, list, depth, level), wr.weight / 36.0f);
    }
    e.key = key;
    e.depth = depth;
    e.level = lvl;
    e.exact = exact;
    e.generation = generation_;
    e.value = acc;
    return acc;
  }

  // The best play for `dice` from `pos` (`level` plies below the root), for the mover, searched
  // `depth` - 1 plies after the play: one roll's share of value(pos, depth, level).
  Probabilities best_for_roll(const Position& pos, Dice dice, int depth, int level) {
    MoveList& list = list_at(level);
    gen_.generate(pos, *rules_, dice, list);
    return best_play(pos, list, depth, level);
  }

  // The best play of `list` (legal plays from `pos`) for the mover, each searched `depth` - 1
  // plies after the play; the value is the mover's.
  Probabilities best_play(const Position& pos, const MoveList& list, int depth, int level) {
    std::vector<Probabilities>& vals = vals_at(level);
    vals.resize(static_cast<std::size_t>(list.size()));
    if (pruner_ && list.size() > prune_ && keeps_one(level)) return pruned_best(pos, list, depth, level, vals);
    static_values(pos, list, vals);
    if (depth == 1)
      return *std::max_element(vals.begin(), vals.end(), [&](const Probabilities& a, const Probabilities& b) {
        return rank_score(*utility_, a, level) < rank_score(*utility_, b, level);
      });
    std::vector<int>& keep = keep_at(level);
    select(vals, filter(level), keep, *utility_, level);
    Probabilities best;
    float best_eq = -1e9f;
    for (int i : keep) {
      const PlyResult step = advance(pos, list[i], *rules_, kWhite);
      const Probabilities v = step.outcome ? mover_value(step) : value(step.position, depth - 1, level + 1).inverted();
      if (rank_score(*utility_, v, level) > best_eq) {
        best_eq = rank_score(*utility_, v, level);
        best = v;
      }
    }
    return best;
  }

  // Whether the filter at `level` searches only the statically best play (then a node may prune).
  bool keeps_one(int level) const {
    const MoveFilter* f = filter(level);
    return f->accept == 0 && f->extra == 0;
  }

  // best_play at a pruned node (search.h, "Pruning"): every play valued by the pruner, the best
  // prune_ of them (stable: ties keep generation order) by the evaluator, and the best of those
  // searched `depth` - 1 plies deeper.
  Probabilities pruned_best(const Position& pos, const MoveList& list, int depth, int level,
                            std::vector<Probabilities>& vals) {
    play_values(*pruner_, pos, *rules_, list, vals.data());
    const int n = list.size();
    std::vector<float>& score = scores_at(level);
    score.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) score[static_cast<std::size_t>(i)] = rank_score(*utility_, vals[static_cast<std::size_t>(i)], level);
    std::vector<int>& order = keep_at(level);
    order.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
    // The best prune_ by score, ties to the earlier play: the first prune_ of a stable sort.
    std::partial_sort(order.begin(), order.begin() + prune_, order.end(), [&](int a, int b) {
      const float sa = score[static_cast<std::size_t>(a)], sb = score[static_cast<std::size_t>(b)];
      return sa > sb || (sa == sb && a < b);
    });
    // The kept plays in generation order, as a plain node hands them to the evaluator.
    std::sort(order.begin(), order.begin() + prune_);
    std::vector<Probabilities>& kv = pruned_vals_at(level);
    kv.resize(static_cast<std::size_t>(prune_));
    play_values(leaves_, pos, *rules_, list, order.data(), prune_, kv.data());
    int best = 0;
    for (int k = 1; k < prune_; ++k)
      if (rank_score(*utility_, kv[static_cast<std::size_t>(k)], level) >
          rank_score(*utility_, kv[static_cast<std::size_t>(best)], level))
        best = k;
    if (depth == 1) return kv[static_cast<std::size_t>(best)];
    const PlyResult step = advance(pos, list[order[static_cast<std::size_t>(best)]], *rules_, kWhite);
    return step.outcome ? mover_value(step) : value(step.position, depth - 1, level + 1).inverted();
  }

  // Static (0-ply) values of every play of `list`, for the mover; finished games exactly.
  void static_values(const Position& pos, const MoveList& list, std::vector<Probabilities>& out) {
    play_values(leaves_, pos, *rules_, list, out.data());
  }

  Probabilities static_value(const Position& pos) { return leaves_.evaluate(pos, *rules_); }

  // The filter for plays `level` plies below the root (level >= 1 inside the tree).
  const MoveFilter* filter(int level) const {
    if (filters_->empty()) return &kInnerFilter;
    return &(*filters_)[std::min<std::size_t>(static_cast<std::size_t>(level), filters_->size() - 1)];
  }

  // Indices of the plays to search deeper: the best, `accept` more, then up to `extra` more within
  // `threshold` of the best (by static equity); all of them without a filter.
  static void select(const std::vector<Probabilities>& vals, const MoveFilter* f, std::vector<int>& keep,
                     const MatchUtility& u, int level) {
    keep.clear();
    const int n = static_cast<int>(vals.size());
    thread_local std::vector<int> order;  // no allocation per node once grown
    order.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
    if (!f) {
      keep = order;
      return;
    }
    auto score = [&](int i) { return rank_score(u, vals[static_cast<std::size_t>(i)], level); };
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return score(a) > score(b); });
    const float best = score(order[0]);
    int extra = 0;
    for (int k = 0; k < n; ++k) {
      const int i = order[static_cast<std::size_t>(k)];
      if (k <= f->accept) {
        keep.push_back(i);
      } else if (extra < f->extra && best - score(i) <= f->threshold) {
        keep.push_back(i);
        ++extra;
      }
    }
  }

 private:
  struct Entry {
    std::uint64_t key = 0;
    int depth = -1;
    std::uint32_t generation = 0;
    std::uint64_t level = 0;  // the part of the level the value depends on (value())
    PositionKey exact{};
    Probabilities value;
  };
  static constexpr int kCacheBits = 15;

  template <class T>
  static T& at(std::vector<std::unique_ptr<T>>& v, int level) {
    while (static_cast<int>(v.size()) <= level) v.push_back(std::make_unique<T>());
    return *v[static_cast<std::size_t>(level)];
  }
  MoveList& list_at(int level) { return at(lists_, level); }
  std::vector<Probabilities>& vals_at(int level) { return at(vals_, level); }
  std::vector<int>& keep_at(int level) { return at(keep_, level); }
  std::vector<Probabilities>& pruned_vals_at(int level) { return at(pruned_vals_, level); }
  std::vector<float>& scores_at(int level) { return at(scores_, level); }

  const MatchUtility* utility_ = nullptr;
  const Rules* rules_ = nullptr;
  const std::vector<MoveFilter>* filters_ = nullptr;
  Leaves leaves_;
  std::uint32_t generation_ = 0;
  MoveGenerator gen_;
  std::vector<Entry> cache_;
  std::vector<std::unique_ptr<MoveList>> lists_;
  std::vector<std::unique_ptr<std::vector<Probabilities>>> vals_;
  std::vector<std::unique_ptr<std::vector<int>>> keep_;
  std::vector<std::unique_ptr<std::vector<Probabilities>>> pruned_vals_;
  std::vector<std::unique_ptr<std::vector<float>>> scores_;
  const Evaluator* pruner_ = nullptr;  // null: no pruning
  int prune_ = 0;
};

// The searchers of one search, one per worker, leased from the calling thread (scratch.h: kept
// between calls, so that a search allocates nothing once warm); the workers are the pool's
// (thread_pool.h), whichever are idle, so a searcher goes with its worker index, not a thread.
struct Searchers {
  Scratch<std::vector<std::unique_ptr<Searcher>>> lease;
  std::vector<Searcher*> use;

  void prepare(int threads, const Rules& rules, const Evaluator& ev, const std::vector<MoveFilter>& filters,
               Budget& budget, const MatchUtility& utility, EvalCache* evals, int prune) {
    if (!use.empty()) return;
    std::vector<std::unique_ptr<Searcher>>& pool = *lease;
    while (static_cast<int>(pool.size()) < threads) pool.push_back(std::make_unique<Searcher>());
    for (int w = 0; w < threads; ++w) use.push_back(pool[static_cast<std::size_t>(w)].get());
    for (Searcher* s : use) s->begin(rules, ev, filters, budget, utility, evals, prune);
  }
};

// Runs fn(item, searcher) for item = 0 .. items - 1 on `threads` workers (each with its own
// searcher), handing out the items one at a time as workers get free (items differ in cost, so a
// fixed split would leave a worker idle), and reports whether the iteration finished within the
// budget; other errors (an interruption) are rethrown. Each item writes its own slot, and costs
// the same nodes whichever worker takes it (fn calls forget() first), so neither results nor node
// counts depend on the thread count or on the order the items are taken.
template <class Fn>
bool run_items(std::size_t items, const Rules& rules, const Evaluator& ev, const SearchOptions& opt, Budget& budget,
               EvalCache* evals, Searchers& searchers, Fn fn) {
  const int threads =
      static_cast<int>(std::max<std::size_t>(1, std::min<std::size_t>(static_cast<std::size_t>(opt.threads), items)));
  searchers.prepare(threads, rules, ev, opt.filters, budget, opt.utility, evals, opt.prune);
  std::atomic<bool> aborted{false};
  std::atomic<std::size_t> next{0};
  run_on_threads(threads, [&](int w) {
    Searcher& s = *searchers.use[static_cast<std::size_t>(w)];
    try {
      for (std::size_t i = next.fetch_add(1, std::memory_order_relaxed); i < items;
           i = next.fetch_add(1, std::memory_order_relaxed))
        fn(i, s);
    } catch (const Aborted&) {  // the budget ran out: the iteration is abandoned, not an error
      aborted = true;
      budget.stop = true;
    } catch (...) {
      budget.stop = true;
      throw;
    }
  });
  return !aborted;
}

// The narrowing filter after the root's `done`-ply iteration; null: keep every play.
const MoveFilter* narrowing_after(const SearchOptions& opt, int done) {
  if (opt.narrowing.empty())  // the defaults go with the default filters (gnubg's "Normal" as a whole)
    return done == 2 && opt.filters.empty() ? &kNarrowAfter2 : nullptr;
  const MoveFilter& f = opt.narrowing[std::min<std::size_t>(static_cast<std::size_t>(done - 1), opt.narrowing.size() - 1)];
  return f.accept < 0 ? nullptr : &f;
}

void check_options(const SearchOptions& opt) {
  if (opt.plies < 0 || opt.plies > kMaxSearchPlies)
    throw std::invalid_argument("plies must be 0.." + std::to_string(kMaxSearchPlies));
  check_threads(opt.threads);
  if (opt.prune < 0 || opt.prune > kMaxPrune) throw std::invalid_argument("prune must be 0.." + std::to_string(kMaxPrune));
  if (opt.time_limit < 0) throw std::invalid_argument("time_limit must be >= 0");
  if (opt.node_limit < 0) throw std::invalid_argument("node_limit must be >= 0");
  for (const MoveFilter& f : opt.filters)
    if (f.accept < 0 || f.extra < 0 || !(f.threshold >= 0)) throw std::invalid_argument("move filters need accept >= 0, extra >= 0, threshold >= 0");
  if (opt.utility.active) opt.utility.validate();
  for (const MoveFilter& f : opt.narrowing)
    if (f.accept < -1 || f.extra < 0 || !(f.threshold >= 0))
      throw std::invalid_argument("narrowing filters need accept >= -1 (-1: keep all), extra >= 0, threshold >= 0");
}

void start_budget(Budget& b, const SearchOptions& opt) {
  b.node_limit = opt.node_limit;
  b.timed = opt.time_limit > 0;
  if (b.timed)
    b.deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(opt.time_limit));
}

}  // namespace

Analysis analyze(const Position& pos, const Rules& rules, Dice dice, const Evaluator& ev, const SearchOptions& opt) {
  check_options(opt);
  if (game_outcome(pos, rules, kWhite)) throw IllegalMove("the game is over: there are no legal plays");
  Budget budget;
  start_budget(budget, opt);
  Scratch<MoveList> root_list;
  MoveList& list = *root_list;  // a reference: worker threads must see the caller's list
  thread_generator().generate(pos, rules, dice, list);
  const int n = list.size();

  Analysis out;
  std::vector<Probabilities> vals(static_cast<std::size_t>(n));
  std::vector<int> depth_of(static_cast<std::size_t>(n), 0);
  Searchers searchers;
  // 0 plies: every play, statically (never interrupted: the answer needs at least this).
  {
    Scratch<Searcher> first;
    first->begin(rules, ev, opt.filters, budget, opt.utility);
    first->static_values(pos, list, vals);
    start_budget(budget, opt);
  }
  out.nodes = budget.nodes.load();
  std::vector<int> keep;
  const MoveFilter* root = !opt.filters.empty() ? &opt.filters[0] : opt.plies >= 2 ? &kRootFilter : nullptr;
  Searcher::select(vals, root, keep, opt.utility, 0);
  if (n == 1) keep = {0};  // one legal play: nothing to choose, but still value it at full depth
  std::optional<Scratch<SearchEvalCache>> cache;
  EvalCache* evals = nullptr;
  if (opt.use_cache && opt.plies >= 2) {
    evals = cache.emplace().get();
    evals->new_generation();
  }
  // The kept plays' positions (the opponent to move) and their outcomes, once.
  std::vector<PlyResult> child(static_cast<std::size_t>(n));
  for (int i : keep) child[static_cast<std::size_t>(i)] = advance(pos, list[i], rules, kWhite);
  const auto& rolls = all_rolls();
  const std::size_t R = rolls.size();
  for (int d = 1; d <= opt.plies; ++d) {
    if (keep.size() == 1 && n > 1 && !opt.full_depth) {  // a lone play (search.h): it is the answer
      out.plies = opt.plies;
      break;
    }
    // One item per (kept play, opponent roll): the roll's share of value(child, d) (search.h).
    std::vector<Probabilities> per_roll(keep.size() * R);
    const bool done = run_items(keep.size() * R, rules, ev, opt, budget, evals, searchers,
                                [&](std::size_t item, Searcher& s) {
                                  const auto i = static_cast<std::size_t>(keep[item / R]);
                                  if (child[i].outcome) return;
                                  s.forget();
                                  per_roll[item] = s.best_for_roll(child[i].position, rolls[item % R].dice, d, 1);
                                });
    if (!done) {
      out.interrupted = true;
      break;
    }
    for (std::size_t k = 0; k < keep.size(); ++k) {
      const auto i = static_cast<std::size_t>(keep[k]);
      if (child[i].outcome) {
        vals[i] = mover_value(child[i]);
      } else {
        Probabilities acc;  // in roll order, as value() adds them
        for (std::size_t r = 0; r < R; ++r) acc.add(per_roll[k * R + r], rolls[r].weight / 36.0f);
        vals[i] = acc.inverted();
      }
      depth_of[i] = d;
    }
    out.plies = d;
    out.nodes = budget.nodes.load();
    // gnubg's move filters between plies: only the plays that still look good go deeper.
    if (const MoveFilter* f = d < opt.plies ? narrowing_after(opt, d) : nullptr) {
      std::vector<Probabilities> kv;
      for (int i : keep) kv.push_back(vals[static_cast<std::size_t>(i)]);
      std::vector<int> pick;
      Searcher::select(kv, f, pick, opt.utility, 0);
      std::sort(pick.begin(), pick.end());
      std::vector<int> narrowed;
      for (int k : pick) narrowed.push_back(keep[static_cast<std::size_t>(k)]);
      keep.swap(narrowed);
    }
  }
  std::vector<int> order(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const auto ia = static_cast<std::size_t>(a), ib = static_cast<std::size_t>(b);
    if (depth_of[ia] != depth_of[ib]) return depth_of[ia] > depth_of[ib];
    return rank_score(opt.utility, vals[ia], 0) > rank_score(opt.utility, vals[ib], 0);
  });
  for (int i : order)
    out.plays.push_back(PlayValue{list[i], vals[static_cast<std::size_t>(i)], depth_of[static_cast<std::size_t>(i)]});
  return out;
}

Evaluation evaluate(const Position& pos, const Rules& rules, const Evaluator& ev, const SearchOptions& opt) {
  check_options(opt);
  Evaluation out;
  if (const auto o = game_outcome(pos, rules, kWhite)) {
    out.probabilities = terminal_probabilities(*o, kWhite);
    out.plies = opt.plies;
    return out;
  }
  Budget budget;
  out.probabilities = ev.evaluate(pos, rules);
  budget.nodes = 1;
  out.nodes = 1;
  start_budget(budget, opt);
  const auto& rolls = all_rolls();
  std::optional<Scratch<SearchEvalCache>> cache;
  EvalCache* evals = nullptr;
  if (opt.use_cache && opt.plies >= 2) {
    evals = cache.emplace().get();
    evals->new_generation();
  }
  Searchers searchers;
  for (int d = 1; d <= opt.plies; ++d) {
    std::vector<Probabilities> per_roll(rolls.size());
    const bool done = run_items(rolls.size(), rules, ev, opt, budget, evals, searchers,
                                [&](std::size_t k, Searcher& s) {
                                  s.forget();
                                  per_roll[k] = s.best_for_roll(pos, rolls[k].dice, d, 0);
                                });
    if (!done) {
      out.interrupted = true;
      break;
    }
    Probabilities acc;
    for (std::size_t k = 0; k < rolls.size(); ++k) acc.add(per_roll[k], rolls[k].weight / 36.0f);
    out.probabilities = acc;
    out.plies = d;
    out.nodes = budget.nodes.load();
  }
  return out;
}

}  // namespace tavli
