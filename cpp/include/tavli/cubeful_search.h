// Cubeful n-ply search (issue 15, item 4): expectiminimax over the dice in which, before every
// roll, the side to move may double where the cube is available to him and the other side then
// takes, passes (or beavers, in money play with beavers); leaves are valued by the 0-ply cubeful
// model (cubeful.h: Janowski's interpolation, gnubg's cube efficiencies).
//
// Plies as in search.h: a play analysed at 0 plies is the 0-ply cubeful value of the position it
// leads to (the opponent's own cube action included); at n plies, that position is worth the
// opponent's cube action over the average of his rolls, each with his best play at n - 1. A cube
// decision at n plies compares No double and Double/take, each the average over the mover's rolls
// of his best play at n - 1 with the cube left or turned, with Double/pass.
//
// Every cube state reached in the tree is searched in the same pass (the positions, plays and
// static evaluations are shared): a play is chosen for each cube state separately, so each state's
// value is its own expectiminimax. The move filters are search.h's (defaults and levels alike);
// plays are ranked for the filters by their 0-ply cubeful value in the first cube state.
//
// Values inside are absolute: money play in points (the cube's value included: +1 with the cube
// at 1, Jacoby's rule for a centred cube), match play in match winning chance. Results are given
// as search.h's and cubeful.h's: money equities per unit of the current cube, match equities in
// EMG of the current cube beside the MWC.
//
// Threads (SearchOptions::threads, 1..1024): the root's items (a cube decision's 21 rolls, an
// analysis's plays kept for the deep search) are shared out among them; each item is searched by
// a searcher of its own (its own transposition memo), so equities, the chosen plays and the node
// counts are the same for any thread count. No cache. A stop request (interrupt.h) unwinds either
// call. Limits: cubeful_analyze takes SearchOptions' time_limit and node_limit as search.h's
// analyze does (with either, it searches 1, 2, ... plies in turn and answers with the deepest
// iteration completed, `interrupted` set when a limit cut one short; the 0-ply values are always
// completed); so does cubeful_decision (its 0-ply answer always completed). Plies 0..8.
#pragma once

#include <vector>

#include "tavli/cube.h"
#include "tavli/cubeful.h"
#include "tavli/met.h"
#include "tavli/search.h"

namespace tavli {

struct CubefulPlayValue {
  Play play;
  double equity = 0;  // for the side that made the play (money: per unit of the cube; match: EMG)
  double mwc = 0;     // match play: his match winning chance (NaN in money play)
  int plies = 0;      // depth this play was searched to
};

struct CubefulAnalysis {
  std::vector<CubefulPlayValue> plays;  // best first (searched deepest first, then by value)
  int plies = 0;            // deepest iteration completed
  std::int64_t nodes = 0;   // static evaluations (of the completed iterations, under a limit)
  bool interrupted = false;  // a time or node limit cut an iteration short
};

// The legal plays for `dice` of `mover` (the absolute side to move in mover-relative `pos`), each
// valued with the cube `cube` (after the play: the opponent to roll, or to double first).
// Throws std::invalid_argument for a game without the cube, an invalid state or a table too short.
CubefulAnalysis cubeful_analyze(const Position& pos, const Rules& rules, Player mover, Dice dice,
                                const CubeState& cube, const MatchState& match, const MatchEquityTable& met,
                                const Evaluator& ev, const SearchOptions& opt);

// The deepest cubeful search (opt.plies), checked by cubeful_analyze and cubeful_decision;
// tavli._core.MAX_CUBEFUL_PLIES.
constexpr int kMaxCubefulPlies = 8;

// What a cube decision's search did: static evaluations (of the completed iterations, under a
// limit), the deepest iteration completed, and whether a limit cut one short.
struct CubefulSearchStats {
  std::int64_t nodes = 0;
  int plies = 0;
  bool interrupted = false;
};

// The cube decision for `mover` before his roll, `opt.plies` deep (0: cube_decision's 0-ply one).
// `stats`, when given, receives what the search did.
CubeDecision cubeful_decision(const Position& pos, const Rules& rules, Player mover, const CubeState& cube,
                              const MatchState& match, const MatchEquityTable& met, const Evaluator& ev,
                              const SearchOptions& opt, CubefulSearchStats* stats = nullptr);

}  // namespace tavli
