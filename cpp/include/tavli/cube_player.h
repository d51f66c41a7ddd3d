// Cube-handling players in self-play (issue 15, item 6): money sessions and matches with the
// doubling cube.
//
// Before each roll (not before the opening roll's dice, which are already thrown) the side on roll
// may double when the cube lets him (cube.h's may_double, and the cube below 2^15 and max_cube).
// He decides by the 0-ply cubeful model (cubeful.h) on his own evaluator's cubeless probabilities
// of the position; he doubles on "double, take", "double, beaver" and "double, pass" (not when too
// good: he plays on for the gammon). The other side answers with his own evaluator's probabilities:
// take, pass, or (beavers on, money play) beaver: he redoubles at once to 4x and keeps the cube.
// A player that does not handle the cube (handles[k] false) never doubles and always takes.
// A player with cube_plies N > 0 (sim.h's PlayerSpec) decides, and answers, by the cubeful search
// N plies deep instead (cubeful_search.h's cubeful_decision, his filters, one thread).
// Checker play is cubeless (sim.h's players); a score_aware player at a match score ranks his
// plays by match winning chance with the cube's value (utility(), match_player.h's met_utility);
// a cubeful_play player ranks them by cubeful equity in the cube's state (cubeful_choice()).
//
// Nothing here draws from the game's Rng, so the dice of a game are those of the cubeless game
// until the first double changes the play; without the cube play_game is exactly as before.
//
// Scoring: the winner scores cube value x game value; with the Jacoby rule a gammon or backgammon
// counts single while the cube is centred; a pass scores the cube's value before the double.
// Hypergammon with jacoby_always (RULES-KIN.md H-JACOBY) is played with the cube by
// cube_game_rules: gammons on the board as in backgammon, counted single while the cube is
// centred, in money play (the Jacoby rule, which the cube decisions then see) and in matches
// (there the decisions still value a centred cube's gammons: the match formulas have no Jacoby).
//
// Matches (simulate_cube_matches): backgammon-family games to `target` points with the Crawford
// rule: the first game after a side reaches one-away is the Crawford game (no doubling), the
// later ones post-Crawford. Cube decisions use the match score through the match equity table.
// Every game starts with an opening roll (backgammon's rule); game g of match i is played by
// play_game with the seed Rng::derive(Rng::derive(seed, i), g).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "tavli/cube.h"
#include "tavli/cubeful.h"
#include "tavli/met.h"
#include "tavli/sim.h"

namespace tavli {

struct CubeSimOptions {
  CubeState cube;                     // the starting cube (centred at 1) and the money options
  MatchState match;                   // the score this game is played at (money play: length 0)
  std::array<bool, 2> handles{true, true};  // players[k] makes cube decisions (else: never doubles, takes)
  const MatchEquityTable* met = nullptr;    // match play: covers match.length
};

// Throws std::invalid_argument naming the problem: a game without the cube, a cube not centred at
// 1, a match without a table (or a table too short).
void validate_cube_sim(const Rules& rules, const CubeSimOptions& opt);

// The cube of one game as play_game runs it: two calls in its loop.
class CubeReferee {
 public:
  // `rules`: the game's, as given (not cube_game_rules').
  CubeReferee(const CubeSimOptions& opt, const Rules& rules);

  // Before `mover` rolls in `pos` (mover-relative): he may double and the other answers. Returns
  // true when the game ended by a pass; `out` then says so (winner, a single, passed, scored).
  // Records the cube in `out` either way.
  bool before_roll(const PlayerSpec players[2], const Position& pos, const Rules& rules, Player mover,
                   GameSummary& out);
  // The game ended on the board with `out.points`: records the cube and the points scored.
  void finish(GameSummary& out) const;
  // What a score-aware `mover` ranks his plays by now: inactive in money play.
  MatchUtility utility(Player mover) const;
  // The index in `list` (the plays of `dice`, more than one) of the play a cubeful_play player
  // makes: the best by cubeful_analyze in the cube's state now, at his depth and filters.
  int cubeful_choice(const PlayerSpec& p, const Position& pos, const Rules& rules, Player mover, Dice dice,
                     const MoveList& list) const;

 private:
  CubeDecision decide(const PlayerSpec& p, const Position& pos, const Rules& rules, Player mover) const;

  const CubeSimOptions& opt_;
  CubeState cube_;
  bool jacoby_always_;
};

// The rules a game with the cube is played by: `rules`, but Hypergammon's jacoby_always scores
// its gammons on the board (cube_score counts them single while the cube is centred).
Rules cube_game_rules(const Rules& rules);

// Points the winner scores when a game ends with `points` on the board and the cube at `cube`;
// `jacoby_always`: the Jacoby rule in matches too (Hypergammon's option).
int cube_score(const CubeState& cube, const MatchState& match, int points, bool jacoby_always = false);

// Whole matches with the cube; the summaries as simulate_matches gives them. `opt.match.length`
// is ignored (the target is).
std::vector<MatchSummary> simulate_cube_matches(const Rules& rules, int target, const PlayerSpec players[2],
                                                const CubeSimOptions& opt, std::int64_t first, std::int64_t n,
                                                std::uint64_t seed, int threads, int max_plies_per_game);

}  // namespace tavli
