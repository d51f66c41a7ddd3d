#include "tavli/batch.h"

#include <algorithm>
#include <memory>

#include "tavli/interrupt.h"
#include "tavli/parallel.h"
#include "tavli/playout.h"
#include "tavli/rng.h"
#include "tavli/scratch.h"
#include "tavli/search.h"

namespace tavli {
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
  std::vector<Position> positions(static_cast<std::size_t>(n));
  std::vector<Player> movers(static_cast<std::size_t>(n));
  std::vector<Dice> rolls(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    check_stop();
    try {
      positions[i] = Position::from_row(rows + kRowBytes * i, &movers[i]);
      validate_position(positions[i], rules);
      if (game_outcome(positions[i], rules, movers[i])) throw InvalidPosition("the game is already over");
    } catch (const std::invalid_argument& e) {
      throw InvalidPosition("row " + std::to_string(i) + ": " + e.what());
    }
    rolls[i] = row_dice(dice, i);
  }
  BatchResult out;
  out.counts.assign(static_cast<std::size_t>(n), 0);
  const int t = std::max(1, threads);
  std::vector<std::vector<std::uint8_t>> chunks(static_cast<std::size_t>(t));
  parallel_ranges(n, t, [&](std::int64_t b, std::int64_t e, int w) {
    // One generator per worker; the calling thread reuses its own across calls.
    std::unique_ptr<MoveGenerator> own_gen;
    Scratch<MoveList> plays;
    MoveGenerator* gen = &thread_generator();
    MoveList* list = plays.get();
    if (t > 1) {
      own_gen = std::make_unique<MoveGenerator>();
      gen = own_gen.get();
    }
    std::uint8_t row[kRowBytes];
    for (std::int64_t i = b; i < e; ++i) {
      check_stop();
      gen->generate(positions[i], rules, rolls[i], *list);
      out.counts[i] = list->size();
      if (!want_positions) continue;
      for (const Play& p : *list) {
        Position child = p.result;
        child.flip();
        child.to_row(row, other(movers[i]));
        chunks[w].insert(chunks[w].end(), row, row + kRowBytes);
      }
    }
  });
  if (want_positions) {
    out.offsets.resize(static_cast<std::size_t>(n) + 1);
    out.offsets[0] = 0;
    for (std::int64_t i = 0; i < n; ++i) out.offsets[i + 1] = out.offsets[i] + out.counts[i];
    for (auto& c : chunks) out.positions.insert(out.positions.end(), c.begin(), c.end());
  }
  return out;
}

void batch_evaluate(const Rules& rules, const Position* positions, std::int64_t n, int plies, int threads,
                    const Evaluator& ev, float* out) {
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
