// Self-play: whole games between two players, many at once in C++ threads.
//
// A game is played from the start with the game's opening rule (RULES.md §8 D-OPENING: each side
// throws one die, ties again; backgammon plays those two dice, the other games roll again). Every
// game draws its dice from its own generator, seeded with Rng::derive(seed, game index), so the
// games do not depend on how they are spread over threads.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "tavli/match.h"
#include "tavli/parallel.h"
#include "tavli/rng.h"
#include "tavli/search.h"

namespace tavli {

struct CubeSimOptions;

constexpr int kMaxPlayerPlies = 8;  // a search player's deepest analysis
// A cube-handling player's deepest cube decision (PlayerSpec::cube_plies): each decision is a
// cubeful search over the 21 rolls, so deeper ones are impractical inside simulations.
constexpr int kMaxCubePlayerPlies = 4;

struct PlayerSpec {
  enum class Kind : std::uint8_t { Random, Greedy, Search };
  Kind kind = Kind::Random;
  int plies = 0;                    // Search: depth of each analysis, 0..kMaxPlayerPlies
  std::vector<MoveFilter> filters;  // Search: filters (empty: the defaults)
  // Greedy and Search: the evaluator (a net, a NetSuite, ...); null: the heuristic. Shared and
  // used by every thread at once, so it must be immutable while games run.
  std::shared_ptr<const Evaluator> evaluator;
  // Match play (issue 15, items 5 and 6). score_aware: Greedy and Search rank their plays by match
  // winning chance at the score (a MatchUtility from match_player.h) wherever the game is played
  // at a match score; in money play it changes nothing. cube_plies: with the cube (cube_player.h),
  // cube decisions by the cubeful search this deep (cubeful_search.h, this player's filters);
  // 0: the 0-ply cubeful formula. cubeful_play: with the cube, Greedy and Search rank their plays
  // by cubeful equity (cubeful_search.h's cubeful_analyze at the player's depth and filters: money
  // play in points with the cube's state, a match score in match winning chance), as gnubg's
  // cubeful chequer play does; without the cube it changes nothing.
  bool score_aware = false;
  int cube_plies = 0;
  bool cubeful_play = false;
  const Evaluator& eval() const { return evaluator ? *evaluator : heuristic_evaluator(); }
};

struct GameSummary {
  std::int8_t winner = -1;  // 0 white (players[0]), 1 black, -1 draw or unfinished
  std::int8_t points = 0;
  std::int8_t kind = 0;     // ResultKind (1 single .. 6 checkers), 0 unfinished (max_plies reached)
  std::int8_t starter = 0;  // who played first
  std::int32_t plies = 0;   // plays made (passes included)
  // With the cube (cube_player.h; cubeless games keep the defaults): its final value and owner
  // (-1 centred), whether the game ended by a dropped double, and the points the winner scored.
  std::int32_t cube = 1;
  std::int8_t cube_owner = -1;
  bool passed = false;
  std::int32_t scored = 0;
};

// What a game leaves behind when trajectories are kept: one entry per play.
struct Trajectory {
  std::vector<std::uint8_t> positions;  // kRowBytes per play: the position before it (after the roll)
  std::vector<std::int8_t> dice;        // 2 per play
  std::vector<std::int8_t> steps;       // 2 * kMaxSteps per play: (from, to) pairs, unused = -2
};

struct SimOptions {
  int max_plies = 10000;                // stops a game that cannot end (Plakoto without the mother rule)
  const Position* start = nullptr;      // start every game here instead of the opening position
  Player start_turn = kWhite;           // who is to move in `start` (no opening roll then)
  bool keep_trajectories = false;
  const CubeSimOptions* cube = nullptr;  // play with the doubling cube (cube_player.h); null: cubeless
};

// The opening throw (RULES.md §8 D-OPENING, RULES-KIN.md §1): one die each from `rng`, ties
// again; the higher die starts. Backgammon, Nackgammon and Hypergammon play those two dice
// (`has_dice`, `dice` the higher first); the other games roll again.
struct OpeningThrow {
  Player mover = kWhite;
  bool has_dice = false;
  Dice dice{};
  // The dice of the next turn: the opening dice once (in the games that play them), then `rng`'s.
  Dice next_dice(Rng& rng) {
    if (has_dice) {
      has_dice = false;
      return dice;
    }
    const auto [a, b] = rng.roll();
    return Dice{a, b};
  }
};
OpeningThrow roll_opening(const Rules& rules, Rng& rng);

// Index in `list` (the plays of `dice` from `pos`) of the play `p` chooses, with `ev` behind the
// greedy (best_play.h) and search players; the random player draws from `rng`. A single play is
// taken without asking anyone. (Self-play passes each player's own eval(); rollouts (rollout.h)
// pass their evaluator.) With an active `utility` (a score-aware player at a match score) the
// greedy and search players rank by it (search.h's analyze, 0 plies for the greedy one).
int choose_play(const PlayerSpec& p, const Evaluator& ev, const Position& pos, const Rules& rules, Dice dice,
                const MoveList& list, Rng& rng, const MatchUtility* utility = nullptr);

// One game, its dice from Rng(seed).
GameSummary play_game(const Rules& rules, const PlayerSpec players[2], std::uint64_t seed, const SimOptions& opt,
                      Trajectory* trajectory);

// Throws std::invalid_argument unless the player's depth is 0..kMaxPlayerPlies and its cube
// depth 0..kMaxCubePlayerPlies, and a random player has no cubeful_play.
inline void check_player(const PlayerSpec& p) {
  if (p.plies < 0 || p.plies > kMaxPlayerPlies)
    throw std::invalid_argument("player plies must be 0.." + std::to_string(kMaxPlayerPlies));
  if (p.cube_plies < 0 || p.cube_plies > kMaxCubePlayerPlies)
    throw std::invalid_argument("cube_plies must be 0.." + std::to_string(kMaxCubePlayerPlies));
  if (p.cubeful_play && p.kind == PlayerSpec::Kind::Random)
    throw std::invalid_argument("cubeful_play ranks plays by their value: the random player has none");
}

// The bounds of simulate's and simulate_matches' arguments (std::invalid_argument naming the one
// out of range): games 0..kMaxGames, matches 0..kMaxMatches (first >= 0), threads 1..kMaxThreads
// (parallel.h), max_plies >= 1.
constexpr std::int64_t kMaxGames = 100000000;
constexpr std::int64_t kMaxMatches = 10000000;
inline void check_games(std::int64_t first, std::int64_t n, int threads, int max_plies) {
  if (n < 0 || n > kMaxGames || first < 0) throw std::invalid_argument("games must be 0.." + std::to_string(kMaxGames));
  check_threads(threads);
  if (max_plies < 1) throw std::invalid_argument("max_plies must be >= 1");
}
inline void check_matches(std::int64_t first, std::int64_t n, int threads) {
  if (n < 0 || n > kMaxMatches || first < 0)
    throw std::invalid_argument("matches must be 0.." + std::to_string(kMaxMatches));
  check_threads(threads);
}

// Games first..first+n-1, game i seeded by Rng::derive(seed, i), on up to `threads` threads.
// Trajectories (when kept) are returned per game, in game order.
std::vector<GameSummary> simulate(const Rules& rules, const PlayerSpec players[2], std::int64_t first, std::int64_t n,
                                  std::uint64_t seed, int threads, const SimOptions& opt,
                                  std::vector<Trajectory>* trajectories);

struct MatchSummary {
  std::int8_t winner = -1;  // 0 white (players[0]), 1 black; -1 unfinished
  std::int16_t score[2] = {0, 0};
  std::int16_t games = 0;
};

struct ScoreTable;

// Whole matches (match.h) between the two players, match i seeded by Rng::derive(seed, i).
// `scores` (match_player.h) is what score-aware players rank by; null: none plays score-aware.
std::vector<MatchSummary> simulate_matches(const std::vector<MatchGame>& cycle, int target, int next_starter,
                                           const PlayerSpec players[2], std::int64_t first, std::int64_t n,
                                           std::uint64_t seed, int threads, int max_plies_per_game,
                                           const ScoreTable* scores = nullptr);

}  // namespace tavli
