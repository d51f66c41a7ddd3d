#include "tavli/sim.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "tavli/best_play.h"
#include "tavli/cube_player.h"
#include "tavli/interrupt.h"
#include "tavli/match.h"
#include "tavli/match_player.h"
#include "tavli/parallel.h"
#include "tavli/playout.h"
#include "tavli/rng.h"
#include "tavli/scratch.h"

namespace tavli {

namespace {

// The index in `list` of the search's first play.
int searched_play(const PlayerSpec& p, int plies, const Evaluator& ev, const Position& pos, const Rules& rules,
                  Dice dice, const MoveList& list, const MatchUtility* utility) {
  SearchOptions opt;
  opt.plies = plies;
  opt.filters = p.filters;
  if (utility) opt.utility = *utility;
  const Analysis a = analyze(pos, rules, dice, ev, opt);
  return std::max(0, list.find(a.plays.front().play.result));
}

}  // namespace

int choose_play(const PlayerSpec& p, const Evaluator& ev, const Position& pos, const Rules& rules, Dice dice,
                const MoveList& list, Rng& rng, const MatchUtility* utility) {
  if (list.size() == 1) return 0;
  const MatchUtility* u = utility && utility->active ? utility : nullptr;
  switch (p.kind) {
    case PlayerSpec::Kind::Random:
      return static_cast<int>(rng.below(static_cast<std::uint32_t>(list.size())));
    case PlayerSpec::Kind::Greedy:
      return u ? searched_play(p, 0, ev, pos, rules, dice, list, u) : best_play(ev, pos, rules, list);
    case PlayerSpec::Kind::Search:
      return searched_play(p, p.plies, ev, pos, rules, dice, list, u);
  }
  return 0;
}

OpeningThrow roll_opening(const Rules& rules, Rng& rng) {
  int white_die, black_die;
  do {
    white_die = rng.die();
    black_die = rng.die();
  } while (white_die == black_die);
  OpeningThrow o;
  o.mover = white_die > black_die ? kWhite : kBlack;
  o.has_dice = rules.info().opening_dice;
  o.dice = Dice{std::max(white_die, black_die), std::min(white_die, black_die)};
  return o;
}

GameSummary play_game(const Rules& given, const PlayerSpec players[2], std::uint64_t seed, const SimOptions& opt,
                      Trajectory* trajectory) {
  // With the cube, Hypergammon's jacoby_always scores gammons on the board (cube_player.h).
  std::optional<Rules> with_cube;
  if (opt.cube && given.jacoby_always) with_cube = cube_game_rules(given);
  const Rules& rules = with_cube ? *with_cube : given;
  Rng rng(seed);
  GameSummary out;
  Position pos;
  Player mover;
  OpeningThrow opening;
  if (opt.start) {
    pos = *opt.start;
    mover = opt.start_turn;
  } else {
    opening = roll_opening(rules, rng);
    mover = opening.mover;
    pos = start_position(rules);
  }
  out.starter = static_cast<std::int8_t>(mover);
  // Per-thread scratch: a generator's tables and a move list are too big to build for every game.
  MoveGenerator& gen = thread_generator();
  Scratch<MoveList> plays;
  MoveList& list = *plays;
  std::uint8_t row[kRowBytes];
  std::optional<CubeReferee> cube;
  if (opt.cube) cube.emplace(*opt.cube, given);
  for (int ply = 0; ply < opt.max_plies; ++ply) {
    check_stop();
    // The cube before the roll (the opening roll's dice are thrown already); draws no dice.
    if (cube && !opening.has_dice && cube->before_roll(players, pos, rules, mover, out)) return out;
    const Dice dice = opening.next_dice(rng);
    gen.generate(pos, rules, dice, list);
    // A cubeful player ranks by cubeful equity; a score-aware player at a match score by its match
    // winning chance (cube value included).
    int i = 0;
    if (cube && players[mover].cubeful_play && list.size() > 1) {
      i = cube->cubeful_choice(players[mover], pos, rules, mover, dice, list);
    } else {
      const MatchUtility u = cube && players[mover].score_aware ? cube->utility(mover) : MatchUtility{};
      i = choose_play(players[mover], players[mover].eval(), pos, rules, dice, list, rng, &u);
    }
    if (trajectory) {
      pos.to_row(row, mover);
      trajectory->positions.insert(trajectory->positions.end(), row, row + kRowBytes);
      trajectory->dice.push_back(static_cast<std::int8_t>(dice.d1));
      trajectory->dice.push_back(static_cast<std::int8_t>(dice.d2));
      for (int k = 0; k < kMaxSteps; ++k) {
        const bool used = k < list[i].nsteps;
        trajectory->steps.push_back(used ? list[i].steps[k].from : static_cast<std::int8_t>(-2));
        trajectory->steps.push_back(used ? list[i].steps[k].to : static_cast<std::int8_t>(-2));
      }
    }
    const PlyResult step = advance(pos, list[i], rules, mover);
    pos = step.position;
    mover = step.to_move;
    out.plies = ply + 1;
    if (const auto& o = step.outcome) {
      out.winner = static_cast<std::int8_t>(o->winner);
      out.points = static_cast<std::int8_t>(o->points);
      out.kind = static_cast<std::int8_t>(o->kind);
      if (cube) cube->finish(out);
      return out;
    }
  }
  if (cube) cube->finish(out);
  return out;  // unfinished
}

std::vector<GameSummary> simulate(const Rules& rules, const PlayerSpec players[2], std::int64_t first, std::int64_t n,
                                  std::uint64_t seed, int threads, const SimOptions& opt,
                                  std::vector<Trajectory>* trajectories) {
  std::vector<GameSummary> out(static_cast<std::size_t>(n));
  if (trajectories) trajectories->assign(static_cast<std::size_t>(n), Trajectory{});
  parallel_for(n, threads, [&](std::int64_t i) {
    out[static_cast<std::size_t>(i)] =
        play_game(rules, players, Rng::derive(seed, static_cast<std::uint64_t>(first + i)), opt,
                  trajectories ? &(*trajectories)[static_cast<std::size_t>(i)] : nullptr);
  });
  return out;
}

std::vector<MatchSummary> simulate_matches(const std::vector<MatchGame>& cycle, int target, int next_starter,
                                           const PlayerSpec players[2], std::int64_t first, std::int64_t n,
                                           std::uint64_t seed, int threads, int max_plies_per_game,
                                           const ScoreTable* scores) {
  if (players[0].score_aware || players[1].score_aware) {
    if (!scores) throw std::invalid_argument("score-aware players need a score table (match_player.h)");
    validate_score_table(*scores, cycle, target);
  }
  std::vector<MatchSummary> out(static_cast<std::size_t>(n));
  parallel_for(n, threads, [&](std::int64_t i) {
    Rng rng(Rng::derive(seed, static_cast<std::uint64_t>(first + i)));
    Match m(cycle, target, static_cast<NextStarter>(next_starter));
    MoveGenerator& gen = thread_generator();
    Scratch<MoveList> plays;
    MoveList& list = *plays;
    int plies_this_game = 0, games_seen = 0;
    while (m.phase() != Match::Phase::Over) {
      if (m.phase() == Match::Phase::Opening) {
        m.roll_opening(rng.die(), rng.die());
        continue;
      }
      if (static_cast<int>(m.results().size()) != games_seen) {
        games_seen = static_cast<int>(m.results().size());
        plies_this_game = 0;
      }
      if (++plies_this_game > max_plies_per_game) break;  // a game that cannot end: unfinished
      check_stop();
      Dice dice;
      if (const auto f = m.forced_dice()) {
        dice = *f;
      } else {
        const auto [a, b] = rng.roll();
        dice = Dice{a, b};
      }
      const Game& g = m.game();
      gen.generate(g.position(), g.rules(), dice, list);
      const PlayerSpec& p = players[g.turn()];
      MatchUtility u;
      if (p.score_aware)
        u = score_utility(*scores, g.rules(), target, {m.score(kWhite), m.score(kBlack)}, g.turn(),
                          m.game_number() % static_cast<int>(cycle.size()));
      const int k = choose_play(p, p.eval(), g.position(), g.rules(), dice, list, rng, &u);
      m.play(list[k], dice);
    }
    MatchSummary& r = out[static_cast<std::size_t>(i)];
    r.score[0] = static_cast<std::int16_t>(m.score(kWhite));
    r.score[1] = static_cast<std::int16_t>(m.score(kBlack));
    r.games = static_cast<std::int16_t>(m.results().size());
    if (const auto w = m.winner()) r.winner = static_cast<std::int8_t>(*w);
  });
  return out;
}

}  // namespace tavli
