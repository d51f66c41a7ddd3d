#include "tavli/batch.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <exception>
#include <string>
#include <memory>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "tavli/interrupt.h"
#include "tavli/parallel.h"
#include "tavli/playout.h"
#include "tavli/rng.h"
#include "tavli/scratch.h"
#include "tavli/search.h"

namespace tavli {

namespace {
constexpr std::size_t kHugeFrom = std::size_t{8} << 20, kHugePage = std::size_t{2} << 20;
}  // namespace

void* allocate_rows(std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (bytes >= kHugeFrom) {
    void* p = nullptr;
    if (posix_memalign(&p, kHugePage, bytes) != 0) throw std::bad_alloc();
    madvise(p, bytes, MADV_HUGEPAGE);  // a hint: refused, the pages are ordinary ones
    return p;
  }
#endif
  return ::operator new(bytes);
}

void free_rows(void* p, std::size_t bytes) noexcept {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (bytes >= kHugeFrom) {
    std::free(p);
    return;
  }
#endif
  (void)bytes;
  ::operator delete(p);
}

namespace {

Dice row_dice(const std::int64_t* dice, std::int64_t i) {
  const std::int64_t a = dice[2 * i], b = dice[2 * i + 1];
  if (a < 1 || a > 6 || b < 1 || b > 6)
    throw std::invalid_argument("dice of row " + std::to_string(i) + " must be two integers in 1..6, got (" +
                                std::to_string(a) + ", " + std::to_string(b) + ")");
  return Dice{static_cast<int>(a), static_cast<int>(b)};
}

}  // namespace

namespace {

// A worker's rows, decoded and checked.
struct WorkerRows {
  std::int64_t begin = 0, end = 0;
  std::vector<Position> positions;
  std::vector<Player> movers;
  std::vector<Dice> rolls;
};

// Decodes and validates rows [b, e) into `w`; false (with the error in `bad`) at the first bad row.
bool decode_rows(const Rules& rules, const std::uint8_t* rows, const std::int64_t* dice, std::int64_t b,
                 std::int64_t e, WorkerRows& w, std::int64_t& bad_row, std::exception_ptr& bad) {
  w.begin = b;
  w.end = e;
  w.positions.resize(static_cast<std::size_t>(e - b));
  w.movers.resize(static_cast<std::size_t>(e - b));
  w.rolls.resize(static_cast<std::size_t>(e - b));
  for (std::int64_t i = b; i < e; ++i) {
    if ((i & 1023) == 0) check_stop();
    const auto k = static_cast<std::size_t>(i - b);
    try {
      w.positions[k] = Position::from_row(rows + kRowBytes * i, &w.movers[k]);
      validate_position(w.positions[k], rules);
      if (game_outcome(w.positions[k], rules, w.movers[k])) throw InvalidPosition("the game is already over");
    } catch (const std::invalid_argument& err) {
      bad_row = i;
      bad = std::make_exception_ptr(InvalidPosition("row " + std::to_string(i) + ": " + err.what()));
      return false;
    }
    try {
      w.rolls[k] = row_dice(dice, i);
    } catch (const std::invalid_argument&) {  // names its row
      bad_row = i;
      bad = std::current_exception();
      return false;
    }
  }
  return true;
}

// The result rows of one generated row, written at `out` (the other side to move).
void write_results(const MoveList& list, Player mover, std::uint8_t* out) {
  for (const Play& p : list) {
    Position child = p.result;
    child.flip();
    child.to_row(out, other(mover));
    out += kRowBytes;
  }
}

// Room for a worker's result rows: its sampled mean (up to 64 of its rows, evenly spaced) times
// its row count, + 1/4 and 64 rows.
std::size_t estimated_rows(const Rules& rules, const WorkerRows& w, MoveGenerator& gen, MoveList& list) {
  const std::int64_t n = w.end - w.begin;
  if (n == 0) return 0;
  const std::int64_t samples = std::min<std::int64_t>(n, 64);
  std::int64_t total = 0;
  for (std::int64_t k = 0; k < samples; ++k) {
    const auto i = static_cast<std::size_t>(k * n / samples);
    gen.generate(w.positions[i], rules, w.rolls[i], list);
    total += list.size();
  }
  return static_cast<std::size_t>(n * total / samples * 5 / 4 + 64);
}

}  // namespace

BatchResult batch_legal_plays(const Rules& rules, const std::uint8_t* rows, const std::int64_t* dice,
                              std::int64_t n, bool want_positions, int threads) {
  check_threads(threads);
  BatchResult out;
  out.counts.assign(static_cast<std::size_t>(n), 0);
  const int t = worker_count(n, std::max(1, threads));
  const auto T = static_cast<std::size_t>(t);
  // Each worker decodes and validates its own contiguous range (the decoding is no serial part).
  // A bad row stops its worker; the error named is the lowest bad row's, whichever worker found
  // it, and nothing is returned.
  std::vector<WorkerRows> work(T);
  std::vector<std::int64_t> bad_row(T, -1);
  std::vector<std::exception_ptr> bad(T);
  std::vector<std::size_t> room(T, 0);  // result rows each worker's side of the buffer holds
  // One generator per worker (kept for the generation below); the calling thread alone uses its own.
  std::vector<std::unique_ptr<MoveGenerator>> gens(T);
  parallel_ranges(n, t, [&](std::int64_t b, std::int64_t e, int w) {
    const auto k = static_cast<std::size_t>(w);
    if (!decode_rows(rules, rows, dice, b, e, work[k], bad_row[k], bad[k])) return;
    if (t > 1) gens[k] = std::make_unique<MoveGenerator>();
    if (want_positions && t > 1) {
      Scratch<MoveList> list;
      room[k] = estimated_rows(rules, work[k], *gens[k], *list);
    }
  });
  int first = -1;
  for (int w = 0; w < t; ++w)
    if (bad_row[static_cast<std::size_t>(w)] >= 0 &&
        (first < 0 || bad_row[static_cast<std::size_t>(w)] < bad_row[static_cast<std::size_t>(first)]))
      first = w;
  if (first >= 0) std::rethrow_exception(bad[static_cast<std::size_t>(first)]);

  // With positions and several workers, the result rows go into one buffer without a gather copy
  // where they fit: the workers go in pairs, each pair sharing a region split at a meeting point.
  // The even worker of a pair takes its rows from the last back, writing each row's results just
  // below what it wrote before (so below the point, in row order); the odd one takes its rows
  // forward, writing above the point. A pair's results are then contiguous and in row order
  // around its point, and with two workers that is the whole result, in place. More pairs are
  // gathered by one parallel copy; a worker whose results outgrow its room (the estimate) only
  // counts on, and its rows are generated again once the offsets are known.
  const std::size_t pairs = (T + 1) / 2;
  std::vector<std::size_t> meet(pairs, 0), low_end(pairs, 0), high_end(pairs, 0);  // in rows
  std::vector<char> overflowed(T, 0);
  std::vector<std::size_t> lo(T, 0), hi(T, 0);  // each worker's written rows: [lo, hi)
  RowBuffer region;
  if (want_positions && t > 1) {
    std::size_t at = 0;
    for (std::size_t p = 0; p < pairs; ++p) {
      low_end[p] = at;
      at += room[2 * p];
      meet[p] = at;
      if (2 * p + 1 < T) at += room[2 * p + 1];
      high_end[p] = at;
    }
    region.resize(at * kRowBytes);  // untouched pages cost nothing: the slack is never faulted in
  }
  std::vector<RowBuffer> chunks(t == 1 ? 1 : 0);  // one worker: its own growing buffer, moved out
  parallel_ranges(n, t, [&](std::int64_t b, std::int64_t e, int w) {
    const auto k = static_cast<std::size_t>(w);
    const WorkerRows& wr = work[k];
    Scratch<MoveList> plays;
    MoveList& list = *plays;
    MoveGenerator* gen = t > 1 ? gens[k].get() : &thread_generator();
    auto generate = [&](std::int64_t i) {
      check_stop();
      const auto r = static_cast<std::size_t>(i - b);
      gen->generate(wr.positions[r], rules, wr.rolls[r], list);
      out.counts[static_cast<std::size_t>(i)] = list.size();
    };
    if (!want_positions) {
      for (std::int64_t i = b; i < e; ++i) generate(i);
      return;
    }
    if (t == 1) {
      RowBuffer& chunk = chunks[0];
      for (std::int64_t i = b; i < e; ++i) {
        generate(i);
        const std::size_t at = chunk.size();
        const std::size_t need = at + static_cast<std::size_t>(list.size()) * kRowBytes;
        if (need > chunk.capacity()) {
          // Room for the rest at the mean so far (+ 1/8): a growth or two, not a doubling's copy
          // and fresh pages every time.
          const auto done = static_cast<std::size_t>(i - b + 1), rows_left = static_cast<std::size_t>(e - i - 1);
          chunk.reserve(std::max(need + need / done * rows_left * 9 / 8, 2 * chunk.capacity()));
        }
        chunk.resize(need);
        write_results(list, wr.movers[static_cast<std::size_t>(i - b)], chunk.data() + at);
      }
      return;
    }
    const std::size_t p = k / 2;
    if (k % 2 == 0) {  // below the meeting point, from the last row back
      std::size_t top = meet[p];
      for (std::int64_t i = e - 1; i >= b; --i) {
        generate(i);
        const auto c = static_cast<std::size_t>(list.size());
        if (overflowed[k] || top - low_end[p] < c) {
          overflowed[k] = 1;
          continue;
        }
        top -= c;
        write_results(list, wr.movers[static_cast<std::size_t>(i - b)], region.data() + top * kRowBytes);
      }
      lo[k] = top;
      hi[k] = meet[p];
    } else {  // above it, forward
      std::size_t at = meet[p];
      for (std::int64_t i = b; i < e; ++i) {
        generate(i);
        const auto c = static_cast<std::size_t>(list.size());
        if (overflowed[k] || high_end[p] - at < c) {
          overflowed[k] = 1;
          continue;
        }
        write_results(list, wr.movers[static_cast<std::size_t>(i - b)], region.data() + at * kRowBytes);
        at += c;
      }
      lo[k] = meet[p];
      hi[k] = at;
    }
  });
  if (!want_positions) return out;
  out.offsets.resize(static_cast<std::size_t>(n) + 1);
  out.offsets[0] = 0;
  for (std::int64_t i = 0; i < n; ++i) out.offsets[i + 1] = out.offsets[i] + out.counts[i];
  const auto total = static_cast<std::size_t>(out.offsets[n]);
  if (t == 1) {
    out.positions = std::move(chunks[0]);  // no copy
    return out;
  }
  const bool any_overflow = std::any_of(overflowed.begin(), overflowed.end(), [](char o) { return o != 0; });
  if (pairs == 1 && !any_overflow) {
    out.positions = std::move(region);  // in place: the rows are [lo[0], hi[1]) of the region
    out.positions_begin = lo[0] * kRowBytes;
    return out;
  }
  // Gathered: each worker's rows copied to their offsets, or (an overflowed worker) generated
  // again straight into place.
  out.positions.resize(total * kRowBytes);
  parallel_ranges(n, t, [&](std::int64_t b, std::int64_t e, int w) {
    const auto k = static_cast<std::size_t>(w);
    std::uint8_t* dest = out.positions.data() + static_cast<std::size_t>(out.offsets[b]) * kRowBytes;
    if (!overflowed[k]) {
      if (hi[k] > lo[k]) std::memcpy(dest, region.data() + lo[k] * kRowBytes, (hi[k] - lo[k]) * kRowBytes);
      return;
    }
    MoveGenerator gen;
    Scratch<MoveList> list;
    const WorkerRows& wr = work[k];
    for (std::int64_t i = b; i < e; ++i) {
      check_stop();
      const auto r = static_cast<std::size_t>(i - b);
      gen.generate(wr.positions[r], rules, wr.rolls[r], *list);
      write_results(*list, wr.movers[r], out.positions.data() + static_cast<std::size_t>(out.offsets[i]) * kRowBytes);
    }
  });
  return out;
}

void batch_evaluate(const Rules& rules, const Position* positions, std::int64_t n, int plies, int threads,
                    const Evaluator& ev, float* out, int prune) {
  if (plies < 0 || plies > kMaxBatchPlies)
    throw std::invalid_argument("plies must be 0.." + std::to_string(kMaxBatchPlies) + " for batch evaluation");
  check_threads(threads);
  if (prune < 0 || prune > kMaxPrune) throw std::invalid_argument("prune must be 0.." + std::to_string(kMaxPrune));
  SearchOptions opt;
  opt.plies = plies;
  opt.prune = prune;
  parallel_ranges(n, std::max(1, threads), [&](std::int64_t b, std::int64_t e, int) {
    for (std::int64_t i = b; i < e; ++i) {
      check_stop();
      const Probabilities p = evaluate(positions[i], rules, ev, opt).probabilities;
      const float v[kEvalColumns] = {p.win,  p.win_double, p.win_triple, p.lose_double,
                                     p.lose_triple, p.draw, p.margin, p.equity()};
      std::copy(v, v + kEvalColumns, out + kEvalColumns * i);
    }
  });
}

void random_positions(const Rules& rules, std::int64_t n, std::uint64_t seed, std::vector<std::uint8_t>& rows,
                      std::vector<std::int64_t>& dice) {
  if (n < 0 || n > kMaxRandomPositions)
    throw std::invalid_argument("n must be 0.." + std::to_string(kMaxRandomPositions));
  Rng rng(seed);
  MoveGenerator gen;
  MoveList list;
  Position pos = start_position(rules);
  Player mover = kWhite;
  std::uint8_t row[kRowBytes];
  for (std::int64_t i = 0; i < n; ++i) {
    check_stop();
    const auto [a, b] = rng.roll();
    const Dice d{a, b};
    pos.to_row(row, mover);
    rows.insert(rows.end(), row, row + kRowBytes);
    dice.push_back(a);
    dice.push_back(b);
    gen.generate(pos, rules, d, list);
    const PlyResult step =
        advance(pos, list[static_cast<int>(rng.below(static_cast<std::uint32_t>(list.size())))], rules, mover);
    pos = step.position;
    mover = step.to_move;
    if (step.outcome) {
      pos = start_position(rules);
      mover = kWhite;
    }
  }
}

std::int64_t generate_all(const Rules& rules, const std::uint8_t* rows, const std::int64_t* dice, std::int64_t n,
                          int repeat) {
  std::vector<Position> positions(static_cast<std::size_t>(n));
  std::vector<Dice> rolls(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    positions[i] = Position::from_row(rows + kRowBytes * i, nullptr);
    rolls[i] = row_dice(dice, i);
  }
  MoveGenerator gen;
  MoveList list;
  std::int64_t total = 0;
  for (int k = 0; k < repeat; ++k)
    for (std::int64_t i = 0; i < n; ++i) {
      gen.generate(positions[i], rules, rolls[i], list);
      total += list.size();
    }
  return total;
}

}  // namespace tavli
