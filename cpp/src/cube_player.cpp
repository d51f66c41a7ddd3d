#include "tavli/cube_player.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "tavli/cubeful.h"
#include "tavli/cubeful_search.h"
#include "tavli/match_player.h"
#include "tavli/interrupt.h"
#include "tavli/parallel.h"
#include "tavli/rng.h"

namespace tavli {
namespace {

constexpr int kLargestCube = 1 << kMaxCubeLog2;

// A net's outputs can break the ordering the cube formulas check (a gammon chance a hair above
// the win chance); clamp them into it.
Probabilities ordered(Probabilities p) { return ordered_for_cube(p); }

// The largest value the cube may reach in this game.
int cube_cap(const CubeState& cube) { return cube.max_cube ? std::min(cube.max_cube, kLargestCube) : kLargestCube; }

// cube_decision reads its table in match play only; money play passes this one.
const MatchEquityTable& unused_table() {
  static const MatchEquityTable t("unused (money play)", {{0.5}}, {std::vector<double>{}, std::vector<double>{}});
  return t;
}

bool same_filters(const std::vector<MoveFilter>& a, const std::vector<MoveFilter>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const MoveFilter& x, const MoveFilter& y) {
    return x.accept == y.accept && x.extra == y.extra && x.threshold == y.threshold;
  });
}

bool doubles(CubeAction a) {
  return a == CubeAction::DoubleTake || a == CubeAction::DoubleBeaver || a == CubeAction::DoublePass;
}

}  // namespace

void validate_cube_sim(const Rules& rules, const CubeSimOptions& opt) {
  if (!rules.info().takes_cube)
    throw std::invalid_argument(rules.info().name +
                                " has no doubling cube (cube=True is for backgammon, nackgammon and hypergammon)");
  if (opt.cube.value != 1 || !opt.cube.centred())
    throw std::invalid_argument("a game with the cube starts with the cube centred at 1");
  validate(opt.cube, opt.match);
  if (!opt.match.money()) {
    if (!opt.met) throw std::invalid_argument("match play with the cube needs a match equity table");
    if (opt.match.length > opt.met->length())
      throw std::invalid_argument("the match equity table " + opt.met->name() + " covers matches up to " +
                                  std::to_string(opt.met->length()) + " points, not " +
                                  std::to_string(opt.match.length));
  }
}

int cube_score(const CubeState& cube, const MatchState& match, int points, bool jacoby_always) {
  const bool jacoby_single = ((match.money() && cube.jacoby) || jacoby_always) && cube.centred();
  return cube.value * (jacoby_single ? std::min(points, 1) : points);
}

Rules cube_game_rules(const Rules& rules) {
  Rules r = rules;
  if (r.jacoby_always) r.scoring = Scoring::Backgammon;
  return r;
}

CubeReferee::CubeReferee(const CubeSimOptions& opt, const Rules& rules)
    : opt_(opt), cube_(opt.cube), jacoby_always_(rules.jacoby_always) {
  // In money play the option is the Jacoby rule, which the cube decisions know.
  if (jacoby_always_ && opt.match.money()) cube_.jacoby = true;
}

bool CubeReferee::before_roll(const PlayerSpec players[2], const Position& pos, const Rules& rules, Player mover,
                              GameSummary& out) {
  const Player taker = other(mover);
  if (!opt_.handles[mover] || !may_double(cube_, opt_.match, mover) || 2 * cube_.value > cube_cap(cube_))
    return false;
  const CubeDecision d = decide(players[mover], pos, rules, mover);
  if (!doubles(d.action)) return false;
  TakeDecision answer = TakeDecision::Take;
  if (opt_.handles[taker]) {
    const PlayerSpec &me = players[mover], &them = players[taker];
    // The same judgement (evaluator, depth, filters) answers as it doubled.
    const bool same = &them.eval() == &me.eval() && them.cube_plies == me.cube_plies &&
                      (me.cube_plies == 0 || same_filters(them.filters, me.filters));
    answer = same ? d.take : decide(them, pos, rules, mover).take;
  }
  if (answer == TakeDecision::Pass) {
    out.winner = static_cast<std::int8_t>(mover);
    out.points = 1;
    out.kind = static_cast<std::int8_t>(ResultKind::Single);
    out.passed = true;
    out.scored = cube_.value;
    out.cube = cube_.value;
    out.cube_owner = static_cast<std::int8_t>(cube_.owner);
    return true;
  }
  // A beaver: the taker redoubles at once and keeps the cube (where the cap allows it).
  const bool beaver = answer == TakeDecision::Beaver && 4 * cube_.value <= cube_cap(cube_);
  cube_.value *= beaver ? 4 : 2;
  cube_.owner = taker;
  out.cube = cube_.value;
  out.cube_owner = static_cast<std::int8_t>(cube_.owner);
  return false;
}

CubeDecision CubeReferee::decide(const PlayerSpec& p, const Position& pos, const Rules& rules, Player mover) const {
  const MatchEquityTable& met = opt_.met ? *opt_.met : unused_table();  // read in match play only
  if (p.cube_plies == 0)
    return cube_decision(ordered(p.eval().evaluate(pos, rules)), cube_, opt_.match, mover, cube_efficiency(pos, rules),
                         met);
  SearchOptions so;
  so.plies = p.cube_plies;
  so.filters = p.filters;
  return cubeful_decision(pos, rules, mover, cube_, opt_.match, met, p.eval(), so);
}

MatchUtility CubeReferee::utility(Player mover) const {
  if (opt_.match.money()) return MatchUtility{};
  return met_utility(*opt_.met, {opt_.match.away(kWhite), opt_.match.away(kBlack)}, mover, cube_.value);
}

int CubeReferee::cubeful_choice(const PlayerSpec& p, const Position& pos, const Rules& rules, Player mover,
                                Dice dice, const MoveList& list) const {
  const MatchEquityTable& met = opt_.met ? *opt_.met : unused_table();  // read in match play only
  SearchOptions so;
  so.plies = p.kind == PlayerSpec::Kind::Search ? p.plies : 0;
  so.filters = p.filters;
  const CubefulAnalysis a = cubeful_analyze(pos, rules, mover, dice, cube_, opt_.match, met, p.eval(), so);
  return std::max(0, list.find(a.plays.front().play.result));
}

void CubeReferee::finish(GameSummary& out) const {
  out.cube = cube_.value;
  out.cube_owner = static_cast<std::int8_t>(cube_.owner);
  out.scored = out.kind == 0 ? 0 : cube_score(cube_, opt_.match, out.points, jacoby_always_);
}

std::vector<MatchSummary> simulate_cube_matches(const Rules& rules, int target, const PlayerSpec players[2],
                                                const CubeSimOptions& opt, std::int64_t first, std::int64_t n,
                                                std::uint64_t seed, int threads, int max_plies_per_game) {
  CubeSimOptions base = opt;
  base.match = MatchState{target, {0, 0}, false};
  validate_cube_sim(rules, base);
  std::vector<MatchSummary> out(static_cast<std::size_t>(n));
  parallel_for(n, threads, [&](std::int64_t i) {
    const std::uint64_t match_seed = Rng::derive(seed, static_cast<std::uint64_t>(first + i));
    CubeSimOptions game = base;
    SimOptions sim;
    sim.max_plies = max_plies_per_game;
    sim.cube = &game;
    std::array<int, 2> score{0, 0};
    bool crawford_played = false;
    MatchSummary& r = out[static_cast<std::size_t>(i)];
    for (int g = 0;; ++g) {
      check_stop();
      const GameSummary s = play_game(rules, players, Rng::derive(match_seed, static_cast<std::uint64_t>(g)), sim,
                                      nullptr);
      r.games = static_cast<std::int16_t>(g + 1);
      if (s.winner < 0) break;  // unfinished game: the match is unfinished
      score[static_cast<std::size_t>(s.winner)] += s.scored;
      if (score[static_cast<std::size_t>(s.winner)] >= target) {
        r.winner = s.winner;
        break;
      }
      // Crawford: the first game after a side reaches one-away; the later ones post-Crawford.
      const bool one_away = score[0] == target - 1 || score[1] == target - 1;
      game.match.score = score;
      game.match.crawford = one_away && !crawford_played;
      crawford_played = crawford_played || one_away;
    }
    r.score[0] = static_cast<std::int16_t>(std::min(score[0], 32767));
    r.score[1] = static_cast<std::int16_t>(std::min(score[1], 32767));
  });
  return out;
}

}  // namespace tavli
