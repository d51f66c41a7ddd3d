// Evaluators: what a position is worth to the side to move, before it rolls.
//
// Probabilities follow GNU Backgammon's cumulative convention: win (any win), win_double (gammon,
// mars, Plakoto's mother win), win_triple (backgammon, koks), lose_double, lose_triple; a win of a
// kind counts in every lower kind too. `draw` is the chance of a drawn game (Plakoto's two pinned
// mothers, a dead position; zero elsewhere), so losing is 1 - win - draw. `margin` is the expected
// number of points beyond one per decided game where a result is worth a variable count (Tawla 31:
// the loser's checkers left, so a win by 11 adds +10); zero in the other games. Equity is in points
// of the game's scoring before any cube:
//   win - lose + (win_double - lose_double) + (win_triple - lose_triple) + margin.
//
// Search knows evaluators only through the Evaluator interface (batch form: the search hands over
// all the positions of a node at once).
#pragma once

#include <string>

#include "tavli/game.h"

namespace tavli {

struct Probabilities {
  float win = 0, win_double = 0, win_triple = 0, lose_double = 0, lose_triple = 0, draw = 0, margin = 0;

  float lose() const { return 1.0f - win - draw; }
  float equity() const { return win - lose() + (win_double - lose_double) + (win_triple - lose_triple) + margin; }
  // The same position seen by the other side.
  Probabilities inverted() const {
    Probabilities q;
    q.win = lose();
    q.win_double = lose_double;
    q.win_triple = lose_triple;
    q.lose_double = win_double;
    q.lose_triple = win_triple;
    q.draw = draw;
    q.margin = -margin;
    return q;
  }
  // Weighted accumulation (chance nodes).
  void add(const Probabilities& o, float w) {
    win += w * o.win;
    win_double += w * o.win_double;
    win_triple += w * o.win_triple;
    lose_double += w * o.lose_double;
    lose_triple += w * o.lose_triple;
    draw += w * o.draw;
    margin += w * o.margin;
  }
};

// The exact value of a finished game for the side to move in `pos` (who lost, or drew).
Probabilities terminal_probabilities(const Outcome& o, Player to_move);

class Evaluator {
 public:
  virtual ~Evaluator() = default;
  virtual std::string name() const = 0;
  // Positions are mover-relative, games not over; out[i] is for the side to move in positions[i].
  virtual void evaluate(const Position* positions, int n, const Rules& rules, Probabilities* out) const = 0;
  Probabilities evaluate(const Position& p, const Rules& rules) const {
    Probabilities out;
    evaluate(&p, 1, rules, &out);
    return out;
  }
  // Why this evaluator cannot value the rules' game, or empty when it can (a single net serves its
  // family only; the heuristic and a suite serve every game). For checks before a long call.
  virtual std::string refusal(const Rules&) const { return {}; }
  // A much cheaper evaluator that ranks the plays of a roll roughly as this one does (a pruning
  // net), for a search to pick the few plays worth this one's evaluation at its inner nodes
  // (search.h, "Pruning"); null when there is none for the rules' game. Lives as long as this.
  virtual const Evaluator* pruner(const Rules&) const { return nullptr; }
};

// Hand-written evaluators per family of games: a race formula once no checker can meet an
// opposing one again, and game-specific structure before that (eval_heuristic.cpp).
const Evaluator& heuristic_evaluator();

// True once no checker of either side can meet an opposing checker again.
bool is_race(const Position& pos, const Rules& rules);

// Both sides with every checker home and no contact: the race the one-sided bear-off table
// (bearoff.h) values exactly. Every evaluator defers to it there.
bool is_bearoff_race(const Position& pos, const Rules& rules);
// The exact win and double chances of such a race (triples, draw and margin zero; the game's
// scoring, e.g. no doubles in single-point games, is the caller's to apply).
Probabilities bearoff_race(const Position& pos);
// The same from two sides' independent roll distributions (P(exactly n rolls), n = 0..K-1, K <=
// 64) to bear off everything (me, op) and the first checker (me_first, op_first), `me` rolling
// first: a win when I need no more rolls than he does; a double won when gammon_to_win (he has
// none off) and he needs more than that for his first checker; a double lost the other way round.
Probabilities race_from_rolls(const float* me, const float* op, const float* me_first, const float* op_first, int K,
                              bool gammon_to_win, bool gammon_to_lose);

}  // namespace tavli
