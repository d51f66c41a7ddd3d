// Expectiminimax over the dice: what a position is worth n plies deep, and which play is best.
//
// Plies follow GNU Backgammon: a play analysed at 0 plies is the static evaluation of the
// position it leads to; at n plies, that position is worth the average over the opponent's 21
// rolls (1/36 or 2/36 each) of his best play analysed at n - 1 plies, seen from our side. A
// position before the roll (`evaluate`) at n plies is the average over our rolls of our best play
// at n - 1, where "best" is chosen among the plays that the filters let through (by default the
// one that looks best statically, as gnubg's evaluation does).
//
// Move filters ({accept, extra, threshold}, as gnubg's): before plays are searched deeper, all plays
// of the roll are evaluated statically; the best is always kept, then `accept` more, then up to
// `extra` more whose equity is within `threshold` of the best. filters[0] applies at the root of an
// analysis, filters[k] k plies down; missing entries repeat the last one. Defaults, as gnubg does:
// full width at the root of a 1-ply analysis, {0, 8, 0.16} at the root of deeper ones, and inside
// the tree only the play that looks best statically is searched deeper ({0, 0, 0}). A filter such
// as {1000, 0, 0} at every level gives the full-width expectiminimax.
//
// Narrowing (gnubg's move filters at the sub-plies of a decision): an analysis deepens its root
// plays one ply at a time; after the iteration at k plies (k = 1 .. plies - 1), narrowing[k - 1]
// keeps, by those k-ply values, the best, `accept` more and up to `extra` more within `threshold`
// of the best, and only they are searched at k + 1 plies; an entry with accept = -1 keeps them all
// (gnubg's "skip this ply"); missing entries repeat the last one. A play left behind keeps the
// value of the deepest iteration it took part in (PlayValue::plies) and ranks after the deeper
// ones. Default (empty), with the default filters, gnubg's "Normal" settings: keep all after 1
// ply, {0, 2, 0.04} after 2 plies, keep all after 3 plies and more; so a 2-ply analysis is
// unchanged and a 3-ply one searches at 3 plies only the plays within 0.04 of the best at 2 plies
// (at most 3). With explicit filters, empty narrowing keeps all (the filters keep their meaning:
// {1000, 0, 0} is still full width); {{-1, 0, 0}} keeps all with the default filters too.
// evaluate() has no root plays to narrow.
//
// A lone play (gnubg's rule): when the root filter or a narrowing leaves one play of several, the
// search stops there: that play is the answer whatever deeper plies would say of it, so it keeps
// the value of the depth where it was left alone (its PlayValue::plies) and Analysis::plies is the
// requested depth (the search is complete). `full_depth = true` values it at the full depth anyway
// (what the position is worth, at the cost of the whole deeper search). A position with a single
// legal play is always valued at the full depth (nothing was filtered; it costs one evaluate()).
//
// Pruning (gnubg's pruning nets): when the evaluator has a pruner (Evaluator::pruner: a small net
// that ranks plays roughly as the evaluator does; the shipped backgammon net has one), a node inside
// the tree whose filter searches only the statically best play (every node of the last ply, and the
// others under the default inner filter {0, 0, 0}) first values all its plays by the pruner, and
// only the best `prune` of them (by the pruner's ranking; all when there are no more) are valued by
// the evaluator, whose best is the node's choice. So a node takes the evaluator's best play unless
// the pruner ranks it below `prune` others. The root's plays of an analysis are always all valued
// by the evaluator; an evaluate()'s rolls are nodes like those below an analysis's plays, so a
// play's value in an analysis stays the value evaluate() gives the position after it (and evaluate
// at 1 ply, pruned, is no longer exactly the average of the rolls' statically best plays: prune = 0
// gives that). With explicit filters only the
// levels whose filter keeps the best play alone ({0, 0, t}) prune; full-width filters ({1000, 0,
// 0}) never do. `prune = 0` turns pruning off (every play of every node valued by the evaluator).
// Nodes count the evaluator's evaluations, not the pruner's.
//
// Caching: every searcher keeps a table of values keyed by (position hash, plies), emptied before
// each root item. Searches of 2 plies or more also share, between their threads, a table of static
// evaluations (eval_cache.h: bounded, lock-free, each hit verified against the exact position key,
// so a hit gives the value the evaluator would; the same results either way). Off by default:
// measured, its key packing and table misses cost more than the hits save (about 20% of a 2-ply
// search's leaves repeat) with today's evaluator; `use_cache = true` turns it on. Threads take the root items one at a time as they get free: (root play, opponent roll)
// pairs in an analysis, the 21 rolls in an evaluation, each with its own searcher; results are
// combined in a fixed order, so they do not depend on the thread count, and neither do node counts
// (each root item costs the same on any thread; cache hits count as the evaluations they stand for).
//
// Limits: a node limit (static evaluations) or a time limit stops the search; the answer is then
// the deepest iteration completed (iterative deepening from 0 plies), flagged as interrupted. With a
// node limit, an iteration is completed when the nodes of all iterations up to it fit the limit,
// for any thread count. `nodes` counts the static evaluations of the completed iterations (the 0-ply
// evaluation of the root included), not those of an abandoned one.
//
// Ranges (std::invalid_argument otherwise): plies 0..kMaxSearchPlies (32), prune 0..kMaxPrune
// (1000), threads 1..kMaxThreads
// (1024, parallel.h), time_limit >= 0 seconds
// (0: none), node_limit >= 0 (0: none), filters with accept >= 0, extra >= 0, threshold >= 0,
// narrowing filters the same but with accept >= -1.
// A stop request (interrupt.h: Ctrl-C) is not a limit: it unwinds the search with Interrupted.
//
// Score-aware play (issue 15, item 5): with a MatchUtility, plays are ranked, filtered and chosen
// at every node by the match winning chance of the side to move there instead of the money
// equity; the cubeful search with the doubling cube is cubeful_search.h.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "tavli/eval.h"

namespace tavli {

constexpr int kMaxSearchPlies = 32;  // the deepest search (see Ranges above)
// The plays a pruned node values by the evaluator (see Pruning above). With the shipped backgammon
// pruning net at 2 plies (tools/pruning_agreement.py, 300 self-play decisions): 97% the unpruned
// best play, 0.00013 mean loss, 1.49x less CPU; 4 gives 95.7% and 1.51x, 6 98.0% and 1.43x.
constexpr int kDefaultPrune = 5;
constexpr int kMaxPrune = 1000;

struct MoveFilter {
  int accept = 0;
  int extra = 8;
  float threshold = 0.16f;
};

// The match winning chance (MWC) of the side to move at the root once this game ends, linear in the
// outcome probabilities: after[0..2] he wins 1, 2 or 3 points (single, win_double, win_triple),
// after[3..5] he loses 1, 2 or 3 points, after[6] a draw (tavli/match_utility.py builds it from
// the match equity table at the score). Scores are MWC as EMG (a single win +1, a single loss -1),
// so move-filter thresholds keep their scale; the root mover's opponent ranks by the negation.
struct MatchUtility {
  bool active = false;
  std::array<double, 7> after{};

  // Throws std::invalid_argument unless every entry is in [0, 1] and a single win beats a single loss.
  void validate() const;
  double mwc(const Probabilities& p) const;  // for the root mover, `p` his probabilities
  double emg(const Probabilities& p) const;
};

struct SearchOptions {
  int plies = 1;
  std::vector<MoveFilter> filters;  // empty: the defaults described above
  int threads = 1;
  double time_limit = 0;      // seconds; 0: none
  std::int64_t node_limit = 0;  // static evaluations; 0: none
  MatchUtility utility;         // inactive: money equity (Probabilities::equity)
  std::vector<MoveFilter> narrowing;  // between the root's iterations; empty: the defaults above
  bool use_cache = false;             // the shared static-evaluation cache (2+ plies)
  bool full_depth = false;            // value a lone play at the full depth (see "A lone play")
  int prune = kDefaultPrune;          // plays valued by the evaluator at a pruned node; 0: no pruning
};

struct PlayValue {
  Play play;
  Probabilities probabilities;  // for the side that made the play
  int plies;                    // depth this play was searched to
};

struct Analysis {
  std::vector<PlayValue> plays;  // best first (by equity; ties keep generation order)
  int plies = 0;                 // deepest iteration completed
  std::int64_t nodes = 0;        // static evaluations
  bool interrupted = false;
};

struct Evaluation {
  Probabilities probabilities;  // for the side to move
  int plies = 0;
  std::int64_t nodes = 0;
  bool interrupted = false;
};

// The legal plays for `dice`, valued and ranked. The game must not be over.
Analysis analyze(const Position& pos, const Rules& rules, Dice dice, const Evaluator& ev, const SearchOptions& opt);
// The position before the roll, for the side to move (exact if the game is over).
Evaluation evaluate(const Position& pos, const Rules& rules, const Evaluator& ev, const SearchOptions& opt);

}  // namespace tavli
