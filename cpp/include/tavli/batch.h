// Bulk work on many positions at once, in C++ threads (no Python in the loop).
//
// Positions travel as rows of kRowBytes (position.h). Results do not depend on the thread count:
// each row's work is independent and outputs are gathered in row order.
#pragma once

#include <cstdint>
#include <vector>

#include "tavli/eval.h"
#include "tavli/game.h"

namespace tavli {

struct BatchResult {
  std::vector<std::int32_t> counts;     // legal plays per row
  std::vector<std::int64_t> offsets;    // with positions: row i's results are [offsets[i], offsets[i+1])
  std::vector<std::uint8_t> positions;  // with positions: result rows, other side to move
};

// Validates every row (InvalidPosition naming the lowest bad row; nothing is returned then) and
// generates, each thread its own contiguous range of rows. threads: 1..kMaxThreads (parallel.h).
BatchResult batch_legal_plays(const Rules& rules, const std::uint8_t* rows, const std::int64_t* dice,
                              std::int64_t n, bool want_positions, int threads);

// Values of many positions (side to move, before the roll) `plies` deep with the evaluator `ev`
// (shared by the threads): out[kEvalColumns * i + k] = win, win_double, win_triple, lose_double, lose_triple, draw,
// margin, equity. plies 0..kMaxBatchPlies, threads 1..kMaxThreads (parallel.h); std::invalid_argument
// otherwise.
constexpr int kEvalColumns = 8;
constexpr int kMaxBatchPlies = 8;
void batch_evaluate(const Rules& rules, const Position* positions, std::int64_t n, int plies, int threads,
                    const Evaluator& ev, float* out);

// Seeded random self-play (uniform over the distinct plays): `n` (position, roll) pairs as they
// occur in consecutive games, restarting a game when one ends. Rows and rolls are appended.
// n: 0..kMaxRandomPositions (std::invalid_argument otherwise).
constexpr std::int64_t kMaxRandomPositions = 100000000;
void random_positions(const Rules& rules, std::int64_t n, std::uint64_t seed, std::vector<std::uint8_t>& rows,
                      std::vector<std::int64_t>& dice);

// Generates the legal plays of each (row, roll) and returns the total number of plays: the C++
// speed benchmark (no Python in the loop). Rows must be valid.
std::int64_t generate_all(const Rules& rules, const std::uint8_t* rows, const std::int64_t* dice, std::int64_t n,
                          int repeat);

}  // namespace tavli
