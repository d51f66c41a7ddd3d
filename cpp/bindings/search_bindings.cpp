// pybind11 bindings of the search (search.h) as methods of tavli._core.Board: the analysis of a
// roll and the evaluation of a position, at the depth and with the evaluator given. The ranges
// are the search's own (search.h); this converts only.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "args.h"
#include "play_object.h"
#include "stoppable.h"
#include "tavli/search.h"

namespace py = pybind11;
using namespace tavli;
using tavli_bindings::dice_from_py;
using tavli_bindings::evaluator_arg;
using tavli_bindings::FilterList;
using tavli_bindings::move_filters;
using tavli_bindings::play_to_py;
using tavli_bindings::probs_tuple;
using tavli_bindings::run_stoppable;

namespace {

SearchOptions limited_search(int plies, const FilterList& filters, int threads, double time_limit,
                             std::int64_t node_limit) {
  SearchOptions o = tavli_bindings::search_options(plies, filters, threads);
  o.time_limit = time_limit;
  o.node_limit = node_limit;
  return o;
}

}  // namespace

void bind_search(py::class_<Game>& board) {
  board
      .def("_analyze", [](const Game& g, py::handle dice_arg, int plies,
                          const FilterList& filters, int threads, double time_limit,
                          std::int64_t node_limit, py::handle evaluator,
                          const FilterList& narrowing, bool use_cache, bool full_depth, int prune) {
        const Dice dice = dice_from_py(dice_arg);
        SearchOptions opt = limited_search(plies, filters, threads, time_limit, node_limit);
        opt.narrowing = move_filters(narrowing);  // search.h: accept -1 keeps all
        opt.use_cache = use_cache;
        opt.full_depth = full_depth;
        opt.prune = prune;
        std::shared_ptr<const Evaluator> keep;
        const Evaluator& ev = evaluator_arg(evaluator, g.rules(), keep);
        if (g.outcome()) throw IllegalMove("the game is over: there are no legal plays");
        // A search's own time limit returns its deepest iteration; only Ctrl-C stops it here.
        const Analysis a = run_stoppable(0, [&] { return analyze(g.position(), g.rules(), dice, ev, opt); });
        py::list plays;
        for (const PlayValue& v : a.plays)
          plays.append(py::make_tuple(play_to_py(v.play, dice), probs_tuple(v.probabilities), v.probabilities.equity(),
                                      v.plies));
        return py::make_tuple(plays, a.plies, a.nodes, a.interrupted);
      }, py::arg("dice"), py::arg("plies"), py::arg("filters"), py::arg("threads"), py::arg("time_limit"),
         py::arg("node_limit"), py::arg("evaluator"),
         py::arg("narrowing") = FilterList{}, py::arg("use_cache") = false, py::arg("full_depth") = false,
         py::arg("prune") = kDefaultPrune)
      .def("_evaluate", [](const Game& g, int plies, const FilterList& filters,
                           int threads, double time_limit, std::int64_t node_limit, py::handle evaluator,
                           bool use_cache, int prune) {
        SearchOptions opt = limited_search(plies, filters, threads, time_limit, node_limit);
        opt.use_cache = use_cache;
        opt.prune = prune;
        std::shared_ptr<const Evaluator> keep;
        const Evaluator& ev = evaluator_arg(evaluator, g.rules(), keep);
        const Evaluation e = run_stoppable(0, [&] { return evaluate(g.position(), g.rules(), ev, opt); });
        return py::make_tuple(probs_tuple(e.probabilities), e.probabilities.equity(), e.plies, e.nodes, e.interrupted);
      }, py::arg("plies"), py::arg("filters"), py::arg("threads"), py::arg("time_limit"), py::arg("node_limit"),
         py::arg("evaluator"), py::arg("use_cache") = false, py::arg("prune") = kDefaultPrune);
}
