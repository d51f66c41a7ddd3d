// Score-aware players in self-play matches (issue 15, items 5 and 6): the match utility
// (search.h's MatchUtility) of the side to move at a match's score, which simulate_matches and the
// cube referee (cube_player.h) hand to a PlayerSpec with score_aware set.
//
// Where the weights come from, as tavli.match_play's utility():
// - games with the doubling cube: the match equity table, post-Crawford once a side is at
//   one-away; a game won or lost with the cube at c scores c, 2c or 3c points;
// - the cubeless games: the table of the match's game cycle computed in Python from each game's
//   measured outcome rates (tavli.match_play.cycle_met): the MWC before the next game of the cycle
//   at the score the game leaves; a draw scores nothing and moves the cycle on.
#pragma once

#include <array>
#include <vector>

#include "tavli/match.h"
#include "tavli/met.h"
#include "tavli/search.h"

namespace tavli {

struct ScoreTable {
  const MatchEquityTable* met = nullptr;  // games with the cube (cubeless matches of backgammon included)
  // cycle[g][a][b]: MWC of a side needing a points against one needing b before game g of the
  // match's cycle; a and b index 1..size-1 (index 0 unused); empty where every game takes the cube.
  std::vector<std::vector<std::vector<double>>> cycle;
};

// Throws std::invalid_argument naming the problem: a table that does not cover `target`, a cycle
// table of the wrong number of games or not square, values outside [0, 1], a cube game without
// an equity table.
void validate_score_table(const ScoreTable& t, const std::vector<MatchGame>& cycle, int target);

// The utility of `mover` in a game that takes the cube, the sides needing away[0] and away[1]
// points, the cube at `cube_value`.
MatchUtility met_utility(const MatchEquityTable& met, const std::array<int, 2>& away, Player mover, int cube_value);

// The utility of `mover` in game `game_index` of the cycle (its rules `rules`) of a match to
// `target` at `score` (indexed by Player), cubeless.
MatchUtility score_utility(const ScoreTable& t, const Rules& rules, int target, const std::array<int, 2>& score,
                           Player mover, int game_index);

}  // namespace tavli
