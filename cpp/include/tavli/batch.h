// Bulk work on many positions at once, in C++ threads (no Python in the loop).
//
// Positions travel as rows of kRowBytes (position.h). Results do not depend on the thread count:
// each row's work is independent and outputs are gathered in row order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "tavli/eval.h"
#include "tavli/game.h"

namespace tavli {

// Storage for large row buffers: at least 8 MiB goes in transparent huge pages where Linux offers
// them (madvise; a 2 MiB page is one fault instead of 512: page faults were half the time of a
// big batch with positions, and they serialise threads on the address space's lock).
void* allocate_rows(std::size_t bytes);
void free_rows(void* p, std::size_t bytes) noexcept;

// Bytes that a resize leaves uninitialised: a result of hundreds of MB is written by the workers
// (each touching its own pages, in parallel) instead of zero-filled by the calling thread first.
template <class T>
struct UninitAllocator : std::allocator<T> {
  T* allocate(std::size_t n) { return static_cast<T*>(allocate_rows(n * sizeof(T))); }
  void deallocate(T* p, std::size_t n) noexcept { free_rows(p, n * sizeof(T)); }
  template <class U>
  struct rebind {
    using other = UninitAllocator<U>;
  };
  UninitAllocator() = default;
  template <class U>
  UninitAllocator(const UninitAllocator<U>&) noexcept {}
  template <class U>
  void construct(U*) noexcept {}  // default-initialise: nothing for bytes
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};
using RowBuffer = std::vector<std::uint8_t, UninitAllocator<std::uint8_t>>;

struct BatchResult {
  std::vector<std::int32_t> counts;     // legal plays per row
  std::vector<std::int64_t> offsets;    // with positions: row i's results are [offsets[i], offsets[i+1])
  RowBuffer positions;                  // with positions: result rows, other side to move, from
  std::size_t positions_begin = 0;      // this byte on (the rows may sit inside a larger buffer)
};

// Validates every row (InvalidPosition naming the lowest bad row; nothing is returned then) and
// generates, each thread its own contiguous range of rows. threads: 1..kMaxThreads (parallel.h).
BatchResult batch_legal_plays(const Rules& rules, const std::uint8_t* rows, const std::int64_t* dice,
                              std::int64_t n, bool want_positions, int threads);

// Values of many positions (side to move, before the roll) `plies` deep with the evaluator `ev`
// (shared by the threads): out[kEvalColumns * i + k] = win, win_double, win_triple, lose_double, lose_triple, draw,
// margin, equity. plies 0..kMaxBatchPlies, threads 1..kMaxThreads (parallel.h), prune as search.h's
// SearchOptions::prune (its kDefaultPrune is what evaluate() does by default); std::invalid_argument
// otherwise.
constexpr int kEvalColumns = 8;
constexpr int kMaxBatchPlies = 8;
void batch_evaluate(const Rules& rules, const Position* positions, std::int64_t n, int plies, int threads,
                    const Evaluator& ev, float* out, int prune);

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
