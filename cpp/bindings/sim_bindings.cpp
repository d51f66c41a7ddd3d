// pybind11 bindings of self-play (sim.h): games and matches between two players, with their
// summaries, and the trajectories of games where asked, as numpy columns.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "args.h"
#include "arrays.h"
#include "cube_sim_args.h"
#include "stoppable.h"
#include "tavli/sim.h"

namespace py = pybind11;
using namespace tavli;
using tavli_bindings::CycleArg;
using tavli_bindings::FilterList;
using tavli_bindings::OptionList;
using tavli_bindings::RowsIn;
using tavli_bindings::run_stoppable;

namespace {

// (kind, plies, filters, evaluator): tavli.sim._player's form.
using PlayerArg = std::tuple<std::string, int, FilterList, py::object>;

// The two players, their evaluators checked against every game they will play.
void player_specs(const std::vector<PlayerArg>& players, PlayerSpec specs[2], const std::vector<const Rules*>& games) {
  if (players.size() != 2) throw std::invalid_argument("players: exactly two");
  for (int i = 0; i < 2; ++i) {
    const auto& [kind, plies, filters, evaluator] = players[static_cast<std::size_t>(i)];
    specs[i] = tavli_bindings::player_arg(kind, plies, filters, evaluator);
    for (const Rules* r : games) tavli_bindings::check_serves(specs[i].eval(), *r);
  }
}

}  // namespace

void bind_simulation(py::module_& m) {
  m.def("_simulate", [](const std::string& variant, const OptionList& options, const std::vector<PlayerArg>& players,
                        std::int64_t first, std::int64_t games, std::uint64_t seed, int threads, int max_plies,
                        py::object start_row, bool keep_trajectories, double time_limit, py::object cube,
                        py::object play) {
    const Rules rules = make_rules(variant_from_name(variant), options);
    PlayerSpec specs[2];
    player_specs(players, specs, {&rules});
    const auto play_arg = tavli_bindings::match_play_arg(play, specs);  // the cube referee has the table
    const auto cube_arg = tavli_bindings::cube_sim_arg(cube);  // null: cubeless
    check_games(first, games, threads, max_plies);
    SimOptions opt;
    opt.max_plies = max_plies;
    opt.keep_trajectories = keep_trajectories;
    if (cube_arg) {
      validate_cube_sim(rules, cube_arg->opt);
      opt.cube = &cube_arg->opt;
    }
    Position start;
    if (!start_row.is_none()) {
      const auto row = start_row.cast<RowsIn>();
      if (row.ndim() != 1 || row.shape(0) != kRowBytes)
        throw std::invalid_argument("start must be one position row of " + std::to_string(kRowBytes) + " bytes");
      start = Position::from_row(row.data(), &opt.start_turn);
      validate_position(start, rules);
      if (game_outcome(start, rules, opt.start_turn)) throw InvalidPosition("start: the game is already over");
      opt.start = &start;
    }
    std::vector<GameSummary> res;
    std::vector<Trajectory> traj;
    res = run_stoppable(time_limit, [&] {
      return simulate(rules, specs, first, games, seed, threads, opt, keep_trajectories ? &traj : nullptr);
    });
    const auto n = static_cast<py::ssize_t>(res.size());
    py::array_t<std::int8_t> winner(n), points(n), kind(n), starter(n);
    py::array_t<std::int32_t> plies(n);
    for (py::ssize_t i = 0; i < n; ++i) {
      const GameSummary& g = res[static_cast<std::size_t>(i)];
      winner.mutable_data()[i] = g.winner;
      points.mutable_data()[i] = g.points;
      kind.mutable_data()[i] = g.kind;
      starter.mutable_data()[i] = g.starter;
      plies.mutable_data()[i] = g.plies;
    }
    py::dict out;
    out["winner"] = winner;
    out["points"] = points;
    out["kind"] = kind;
    out["starter"] = starter;
    out["plies"] = plies;
    if (cube_arg) tavli_bindings::add_cube_columns(out, res);
    if (keep_trajectories) {
      py::ssize_t m = 0;
      for (const Trajectory& t : traj) m += static_cast<py::ssize_t>(t.dice.size() / 2);
      py::array_t<std::uint8_t> pos({m, static_cast<py::ssize_t>(kRowBytes)});
      py::array_t<std::int8_t> dice({m, static_cast<py::ssize_t>(2)});
      py::array_t<std::int8_t> steps({m, static_cast<py::ssize_t>(kMaxSteps), static_cast<py::ssize_t>(2)});
      py::array_t<std::int64_t> game(m);
      py::ssize_t k = 0;
      for (std::size_t gi = 0; gi < traj.size(); ++gi) {
        const Trajectory& t = traj[gi];
        const auto len = static_cast<py::ssize_t>(t.dice.size() / 2);
        if (len == 0) continue;
        std::memcpy(pos.mutable_data() + k * kRowBytes, t.positions.data(), t.positions.size());
        std::memcpy(dice.mutable_data() + k * 2, t.dice.data(), t.dice.size());
        std::memcpy(steps.mutable_data() + k * 2 * kMaxSteps, t.steps.data(), t.steps.size());
        for (py::ssize_t j = 0; j < len; ++j) game.mutable_data()[k + j] = first + static_cast<std::int64_t>(gi);
        k += len;
      }
      out["positions"] = pos;
      out["dice"] = dice;
      out["steps"] = steps;
      out["game"] = game;
    }
    return out;
  });

  m.def("_simulate_matches", [](const CycleArg& cycle, int target,
                                const std::string& next_starter, const std::vector<PlayerArg>& players,
                                std::int64_t first, std::int64_t matches, std::uint64_t seed, int threads,
                                int max_plies, double time_limit, py::object cube, py::object play) {
    const auto cube_arg = tavli_bindings::cube_sim_arg(cube);  // null: cubeless
    std::vector<MatchGame> games = tavli_bindings::match_games(cycle);
    const int ns = static_cast<int>(next_starter_from_name(next_starter));
    check_match_target(target);
    PlayerSpec specs[2];
    std::vector<const Rules*> all;
    for (const MatchGame& mg : games) all.push_back(&mg.rules);
    player_specs(players, specs, all);
    const auto play_arg = tavli_bindings::match_play_arg(play, specs);  // null: no match-play options
    check_matches(first, matches, threads);
    std::vector<MatchSummary> res;
    if (cube_arg && games.size() != 1) throw std::invalid_argument("a match with the cube plays one game");
    res = run_stoppable(time_limit, [&] {
      if (cube_arg)  // games start with an opening roll (backgammon's rule), as tavli.cube_sim checks
        return simulate_cube_matches(games[0].rules, target, specs, cube_arg->opt, first, matches, seed, threads,
                                     max_plies);
      return simulate_matches(games, target, ns, specs, first, matches, seed, threads, max_plies,
                              play_arg ? &play_arg->scores : nullptr);
    });
    const auto n = static_cast<py::ssize_t>(res.size());
    py::array_t<std::int8_t> winner(n);
    py::array_t<std::int16_t> score({n, static_cast<py::ssize_t>(2)}), count(n);
    for (py::ssize_t i = 0; i < n; ++i) {
      const MatchSummary& r = res[static_cast<std::size_t>(i)];
      winner.mutable_data()[i] = r.winner;
      score.mutable_data()[2 * i] = r.score[0];
      score.mutable_data()[2 * i + 1] = r.score[1];
      count.mutable_data()[i] = r.games;
    }
    py::dict out;
    out["winner"] = winner;
    out["score"] = score;
    out["games"] = count;
    return out;
  });
}
