#include "tavli/sim.h"

#include <algorithm>
#include <thread>

#include "tavli/rng.h"

namespace tavli {
namespace {

// Index of the play a player chooses.
int choose(const PlayerSpec& p, const Position& pos, const Rules& rules, Dice dice, const MoveList& list, Rng& rng,
           std::vector<Position>& batch, std::vector<Probabilities>& vals) {
  if (list.size() == 1) return 0;
  switch (p.kind) {
    case PlayerSpec::Kind::Random:
      return static_cast<int>(rng.below(static_cast<std::uint32_t>(list.size())));
    case PlayerSpec::Kind::Greedy: {
      // The play whose resulting position is statically best for us (finished games exactly).
      batch.clear();
      for (const Play& pl : list) {
        batch.push_back(pl.result);
        batch.back().flip();
      }
      vals.resize(batch.size());
      heuristic_evaluator().evaluate(batch.data(), static_cast<int>(batch.size()), rules, vals.data());
      int best = 0;
      float best_eq = -1e9f;
      for (int i = 0; i < list.size(); ++i) {
        const auto o = outcome_after_play(pos, batch[static_cast<std::size_t>(i)], rules, kWhite);
        const float eq = o ? terminal_probabilities(*o, kWhite).inverted().equity()
                           : vals[static_cast<std::size_t>(i)].inverted().equity();
        if (eq > best_eq) {
          best_eq = eq;
          best = i;
        }
      }
      return best;
    }
    case PlayerSpec::Kind::Search: {
      SearchOptions opt;
      opt.plies = p.plies;
      opt.filters = p.filters;
      const Analysis a = analyze(pos, rules, dice, heuristic_evaluator(), opt);
      for (int i = 0; i < list.size(); ++i)
        if (list[i].result == a.plays.front().play.result) return i;
      return 0;
    }
  }
  return 0;
}

}  // namespace

GameSummary play_game(const Rules& rules, const PlayerSpec players[2], std::uint64_t seed, int max_plies) {
  Rng rng(seed);
  GameSummary out;
  // The opening throw: one die each, ties again.
  int white_die, black_die;
  do {
    white_die = rng.die();
    black_die = rng.die();
  } while (white_die == black_die);
  Player mover = white_die > black_die ? kWhite : kBlack;
  out.starter = static_cast<std::int8_t>(mover);
  // Backgammon opens with those two dice; the other games roll again (RULES.md §9).
  bool opening_dice = rules.variant == Variant::Backgammon;
  Position pos = start_position(rules);
  MoveList list;
  MoveGenerator gen;
  std::vector<Position> batch;
  std::vector<Probabilities> vals;
  for (int ply = 0; ply < max_plies; ++ply) {
    Dice dice;
    if (opening_dice) {
      dice = Dice{std::max(white_die, black_die), std::min(white_die, black_die)};
      opening_dice = false;
    } else {
      const auto [a, b] = rng.roll();
      dice = Dice{a, b};
    }
    gen.generate(pos, rules, dice, list);
    const int i = choose(players[mover], pos, rules, dice, list, rng, batch, vals);
    const Position before = pos;
    pos = list[i].result;
    pos.flip();
    mover = other(mover);
    out.plies = ply + 1;
    if (const auto o = outcome_after_play(before, pos, rules, mover)) {
      out.winner = static_cast<std::int8_t>(o->winner);
      out.points = static_cast<std::int8_t>(o->points);
      out.kind = static_cast<std::int8_t>(o->kind);
      return out;
    }
  }
  return out;  // unfinished
}

std::vector<GameSummary> simulate(const Rules& rules, const PlayerSpec players[2], std::int64_t n, std::uint64_t seed,
                                  int threads, int max_plies) {
  std::vector<GameSummary> out(static_cast<std::size_t>(n));
  const int t = static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(threads, n)));
  auto work = [&](int w) {
    for (std::int64_t i = w; i < n; i += t) out[static_cast<std::size_t>(i)] = play_game(rules, players, Rng::derive(seed, static_cast<std::uint64_t>(i)), max_plies);
  };
  if (t == 1) {
    work(0);
  } else {
    std::vector<std::thread> pool;
    std::vector<std::exception_ptr> errors(static_cast<std::size_t>(t));
    for (int w = 0; w < t; ++w)
      pool.emplace_back([&, w] {
        try {
          work(w);
        } catch (...) {
          errors[static_cast<std::size_t>(w)] = std::current_exception();
        }
      });
    for (auto& th : pool) th.join();
    for (auto& e : errors)
      if (e) std::rethrow_exception(e);
  }
  return out;
}

}  // namespace tavli
