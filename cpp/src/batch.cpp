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

BatchResult batch_legal_plays(const Rules& rules, const std::uint8_t* rows, const std::int64_t* dice,
                              std::int64_t n, bool want_positions, int threads) {
  check_threads(threads);
  BatchResult out;
  out.counts.assign(static_cast<std::size_t>(n), 0);
  const int t = worker_count(n, std::max(1, threads));
  // Each worker decodes and validates its own contiguous range, then generates it (the decoding is
  // no serial part), writing its result rows straight into its chunk. A bad row stops its worker;
  // the error named is the lowest bad row's, whichever worker found it, and nothing is returned.
  std::vector<RowBuffer> chunks(static_cast<std::size_t>(t));
  std::vector<std::int64_t> bad_row(static_cast<std::size_t>(t), -1);
  std::vector<std::exception_ptr> bad(static_cast<std::size_t>(t));
  parallel_ranges(n, t, [&](std::int64_t b, std::int64_t e, int w) {
    std::vector<Position> positions(static_cast<std::size_t>(e - b));
    std::vector<Player> movers(static_cast<std::size_t>(e - b));
    std::vector<Dice> rolls(static_cast<std::size_t>(e - b));
    for (std::int64_t i = b; i < e; ++i) {
      if ((i & 1023) == 0) check_stop();
      const auto k = static_cast<std::size_t>(i - b);
      try {
        positions[k] = Position::from_row(rows + kRowBytes * i, &movers[k]);
        validate_position(positions[k], rules);
        if (game_outcome(positions[k], rules, movers[k])) throw InvalidPosition("the game is already over");
      } catch (const std::invalid_argument& err) {
        bad_row[static_cast<std::size_t>(w)] = i;
        bad[static_cast<std::size_t>(w)] = std::make_exception_ptr(InvalidPosition("row " + std::to_string(i) + ": " + err.what()));
        return;
      }
      try {
        rolls[k] = row_dice(dice, i);
      } catch (const std::invalid_argument&) {  // names its row
        bad_row[static_cast<std::size_t>(w)] = i;
        bad[static_cast<std::size_t>(w)] = std::current_exception();
        return;
      }
    }
    // One generator per worker; the calling thread reuses its own across calls.
    std::unique_ptr<MoveGenerator> own_gen;
    Scratch<MoveList> plays;
    MoveGenerator* gen = &thread_generator();
    MoveList* list = plays.get();
    if (t > 1) {
      own_gen = std::make_unique<MoveGenerator>();
      gen = own_gen.get();
    }
    RowBuffer& chunk = chunks[static_cast<std::size_t>(w)];
    for (std::int64_t i = b; i < e; ++i) {
      check_stop();
      const auto k = static_cast<std::size_t>(i - b);
      gen->generate(positions[k], rules, rolls[k], *list);
      out.counts[static_cast<std::size_t>(i)] = list->size();
      if (!want_positions) continue;
      std::size_t at = chunk.size();
      const std::size_t need = at + static_cast<std::size_t>(list->size()) * kRowBytes;
      if (need > chunk.capacity()) {
        // Room for the rest of the range at the mean so far (+ 1/8): a growth or two, not a
        // doubling's copy and fresh pages every time.
        const auto done = static_cast<std::size_t>(i - b + 1), rows_left = static_cast<std::size_t>(e - i - 1);
        chunk.reserve(std::max(need + need / done * rows_left * 9 / 8, 2 * chunk.capacity()));
      }
      chunk.resize(need);
      for (const Play& p : *list) {
        Position child = p.result;
        child.flip();
        child.to_row(chunk.data() + at, other(movers[k]));
        at += kRowBytes;
      }
    }
  });
  int first = -1;
  for (int w = 0; w < t; ++w)
    if (bad_row[static_cast<std::size_t>(w)] >= 0 && (first < 0 || bad_row[static_cast<std::size_t>(w)] < bad_row[static_cast<std::size_t>(first)]))
      first = w;
  if (first >= 0) std::rethrow_exception(bad[static_cast<std::size_t>(first)]);
  if (want_positions) {
    out.offsets.resize(static_cast<std::size_t>(n) + 1);
    out.offsets[0] = 0;
    for (std::int64_t i = 0; i < n; ++i) out.offsets[i + 1] = out.offsets[i] + out.counts[i];
    if (t == 1) {
      out.positions = std::move(chunks[0]);  // no copy
    } else {
      // Worker w's rows are the contiguous slice of its range: one parallel copy into place.
      out.positions.resize(static_cast<std::size_t>(out.offsets[n]) * kRowBytes);
      parallel_ranges(n, t, [&](std::int64_t b, std::int64_t, int w) {
        const auto& c = chunks[static_cast<std::size_t>(w)];
        if (!c.empty()) std::memcpy(out.positions.data() + static_cast<std::size_t>(out.offsets[b]) * kRowBytes, c.data(), c.size());
      });
    }
  }
  return out;
}

void batch_evaluate(const Rules& rules, const Position* positions, std::int64_t n, int plies, int threads,
                    const Evaluator& ev, float* out) {
  if (plies < 0 || plies > kMaxBatchPlies)
    throw std::invalid_argument("plies must be 0.." + std::to_string(kMaxBatchPlies) + " for batch evaluation");
  check_threads(threads);
  SearchOptions opt;
  opt.plies = plies;
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
