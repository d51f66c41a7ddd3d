// Perft for dice games: counts of distinct plays over all 21 rolls, recursively.
//
// perft(p, 0) = 1; perft(p, d) = sum over the 21 distinct rolls (each once, unweighted) of the sum
// over the legal plays (a forced pass counts as one play) of perft(child, d - 1). A finished game
// counts as one leaf.
#pragma once

#include <cstdint>

#include "tavli/game.h"

namespace tavli {

std::uint64_t perft(const Position& pos, const Rules& rules, int depth);

}  // namespace tavli
