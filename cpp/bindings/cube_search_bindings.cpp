// pybind11 bindings of the cubeful n-ply search (cubeful_search.h) and of score-aware search with
// a match utility (search.h's MatchUtility): conversions only.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "args.h"
#include "play_object.h"
#include "stoppable.h"
#include "tavli/cubeful_search.h"
#include "tavli/game.h"

namespace py = pybind11;
using namespace tavli;

namespace {

using tavli_bindings::FilterList;
using tavli_bindings::search_options;

py::object play_py(const Play& p, Dice dice) {
  PyObject* o = tavli_bindings::new_play(p, dice);
  if (!o) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(o);
}

py::object maybe(double v) { return std::isnan(v) ? py::object(py::none()) : py::object(py::float_(v)); }

MatchUtility utility_arg(const std::array<double, 7>& after) {
  MatchUtility u;
  u.active = true;
  u.after = after;
  u.validate();
  return u;
}

}  // namespace

void bind_cube_search(py::module_& m) {
  m.def("_cubeful_analyze", [](const Game& g, std::pair<int, int> d, const CubeState& cube, const MatchState& match,
                               const MatchEquityTable& met, int plies, const FilterList& filters, py::handle evaluator,
                               int threads, double time_limit, std::int64_t node_limit) {
    const Dice dice = make_dice(d.first, d.second);
    SearchOptions opt = search_options(plies, filters, threads);
    opt.time_limit = time_limit;
    opt.node_limit = node_limit;
    std::shared_ptr<const Evaluator> keep;
    const Evaluator& ev = tavli_bindings::evaluator_arg(evaluator, g.rules(), keep);
    const CubefulAnalysis a = tavli_bindings::run_stoppable(0, [&] {
      return cubeful_analyze(g.position(), g.rules(), g.turn(), dice, cube, match, met, ev, opt);
    });
    py::list plays;
    for (const CubefulPlayValue& v : a.plays) plays.append(py::make_tuple(play_py(v.play, dice), v.equity, maybe(v.mwc), v.plies));
    return py::make_tuple(plays, a.plies, a.nodes, a.interrupted);
  }, "The plays for the roll valued by the cubeful n-ply search (tavli.cube_search.analyze).", py::arg("board"),
        py::arg("dice"), py::arg("cube"), py::arg("match"), py::arg("met"), py::arg("plies"), py::arg("filters"),
        py::arg("evaluator"), py::arg("threads") = 1, py::arg("time_limit") = 0.0, py::arg("node_limit") = 0);

  m.def("_cubeful_decision", [](const Game& g, const CubeState& cube, const MatchState& match,
                                const MatchEquityTable& met, int plies, const FilterList& filters, py::handle evaluator,
                                int threads, double time_limit, std::int64_t node_limit) {
    SearchOptions opt = search_options(plies, filters, threads);
    opt.time_limit = time_limit;
    opt.node_limit = node_limit;
    std::shared_ptr<const Evaluator> keep;
    const Evaluator& ev = tavli_bindings::evaluator_arg(evaluator, g.rules(), keep);
    CubefulSearchStats stats;
    const CubeDecision d = tavli_bindings::run_stoppable(0, [&] {
      return cubeful_decision(g.position(), g.rules(), g.turn(), cube, match, met, ev, opt, &stats);
    });
    return py::make_tuple(d.available, d.nd, maybe(d.dt), maybe(d.dp), maybe(d.nd_mwc), maybe(d.dt_mwc),
                          maybe(d.dp_mwc), action_name(d.action), take_name(d.take), d.efficiency, stats.nodes,
                          stats.plies, stats.interrupted);
  }, "The cube decision by the cubeful n-ply search (tavli.cube.cube_decision with plies >= 1).", py::arg("board"),
        py::arg("cube"), py::arg("match"), py::arg("met"), py::arg("plies"), py::arg("filters"), py::arg("evaluator"),
        py::arg("threads") = 1, py::arg("time_limit") = 0.0, py::arg("node_limit") = 0);

  m.def("_met_after_game", [](const MatchEquityTable& met, int away0, int away1, bool one_away_now, int self,
                              int winner, int points) {
    if (away0 < 1 || away1 < 1 || away0 > met.length() || away1 > met.length())
      throw std::invalid_argument("aways must be 1.." + std::to_string(met.length()) + " for " + met.name());
    if ((self != 0 && self != 1) || (winner != 0 && winner != 1)) throw std::invalid_argument("players are 0 or 1");
    if (points < 1) throw std::invalid_argument("points must be at least 1");
    return met.after_game({away0, away1}, one_away_now, static_cast<Player>(self), static_cast<Player>(winner), points);
  }, "MWC of `self` once `winner` scores `points` (met.h's after_game).");

  m.def("_analyze_utility", [](const Game& g, std::pair<int, int> d, int plies, const FilterList& filters, int threads,
                               py::handle evaluator, const std::array<double, 7>& after, double time_limit,
                               std::int64_t node_limit) {
    const Dice dice = make_dice(d.first, d.second);
    SearchOptions opt = search_options(plies, filters, threads);
    opt.utility = utility_arg(after);
    opt.time_limit = time_limit;
    opt.node_limit = node_limit;
    std::shared_ptr<const Evaluator> keep;
    const Evaluator& ev = tavli_bindings::evaluator_arg(evaluator, g.rules(), keep);
    if (g.outcome()) throw IllegalMove("the game is over: there are no legal plays");
    const Analysis a = tavli_bindings::run_stoppable(0, [&] { return analyze(g.position(), g.rules(), dice, ev, opt); });
    py::list plays;
    for (const PlayValue& v : a.plays)
      plays.append(py::make_tuple(play_py(v.play, dice), tavli_bindings::probs_tuple(v.probabilities),
                                  opt.utility.emg(v.probabilities), opt.utility.mwc(v.probabilities), v.plies));
    return py::make_tuple(plays, a.plies, a.nodes, a.interrupted);
  }, "The plays for the roll ranked by match winning chance (search.h's MatchUtility; tavli.match_play).",
        py::arg("board"), py::arg("dice"), py::arg("plies"), py::arg("filters"), py::arg("threads"),
        py::arg("evaluator"), py::arg("after"), py::arg("time_limit") = 0.0, py::arg("node_limit") = 0);

  m.def("_evaluate_utility", [](const Game& g, int plies, const FilterList& filters, int threads, py::handle evaluator,
                                const std::array<double, 7>& after, double time_limit, std::int64_t node_limit) {
    SearchOptions opt = search_options(plies, filters, threads);
    opt.utility = utility_arg(after);
    opt.time_limit = time_limit;
    opt.node_limit = node_limit;
    std::shared_ptr<const Evaluator> keep;
    const Evaluator& ev = tavli_bindings::evaluator_arg(evaluator, g.rules(), keep);
    const Evaluation e = tavli_bindings::run_stoppable(0, [&] { return evaluate(g.position(), g.rules(), ev, opt); });
    return py::make_tuple(tavli_bindings::probs_tuple(e.probabilities), opt.utility.emg(e.probabilities),
                          opt.utility.mwc(e.probabilities), e.plies, e.nodes, e.interrupted);
  }, "The position before the roll with score-aware play inside the search (tavli.match_play).", py::arg("board"),
        py::arg("plies"), py::arg("filters"), py::arg("threads"), py::arg("evaluator"), py::arg("after"),
        py::arg("time_limit") = 0.0, py::arg("node_limit") = 0);
}
