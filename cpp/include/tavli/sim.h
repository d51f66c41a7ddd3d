// Self-play: whole games between two players, many at once in C++ threads.
//
// A game is played from the start with the game's opening rule (RULES.md §8 D-OPENING: each side
// throws one die, ties again; backgammon plays those two dice, the other games roll again). Every
// game draws its dice from its own generator, seeded with Rng::derive(seed, game index), so the
// games do not depend on how they are spread over threads.
#pragma once

#include <cstdint>
#include <vector>

#include "tavli/search.h"

namespace tavli {

struct PlayerSpec {
  enum class Kind : std::uint8_t { Random, Greedy, Search };
  Kind kind = Kind::Random;
  int plies = 0;                    // Search: depth of each analysis
  std::vector<MoveFilter> filters;  // Search: filters (empty: the defaults)
};

struct GameSummary {
  std::int8_t winner = -1;  // 0 white (players[0]), 1 black, -1 draw or unfinished
  std::int8_t points = 0;
  std::int8_t kind = 0;     // ResultKind (1 single .. 5 draw), 0 unfinished (max_plies reached)
  std::int8_t starter = 0;  // who played first
  std::int32_t plies = 0;   // plays made (passes included)
};

// One game; `max_plies` stops a game that cannot end (e.g. Plakoto without the mother rule).
GameSummary play_game(const Rules& rules, const PlayerSpec players[2], std::uint64_t seed, int max_plies);

// `n` games, game i seeded by Rng::derive(seed, i), on up to `threads` threads.
std::vector<GameSummary> simulate(const Rules& rules, const PlayerSpec players[2], std::int64_t n, std::uint64_t seed,
                                  int threads, int max_plies);

}  // namespace tavli
