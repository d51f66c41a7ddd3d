// pybind11 bindings of rollouts (rollout.h): tavli._core._rollout. Conversions only.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "args.h"
#include "tavli/rollout.h"

namespace py = pybind11;
using namespace tavli;

using tavli_bindings::probs_tuple;

void bind_rollout(py::module_& m) {
  m.def(
      "_rollout",
      [](const Game& g, std::int64_t trials, const std::string& kind, int plies,
         const std::vector<std::tuple<int, int, double>>& filters, int truncate, std::uint64_t seed, int threads,
         bool stratify, py::handle evaluator) {
        RolloutOptions opt;
        opt.trials = trials;
        opt.player = tavli_bindings::player_arg(kind, plies, filters);  // as tavli.sim._player parses it
        opt.truncate = truncate;
        opt.seed = seed;
        opt.threads = threads;
        opt.stratify = stratify;
        std::shared_ptr<const Evaluator> keep;
        const Evaluator& ev = tavli_bindings::evaluator_arg(evaluator, g.rules(), keep);
        RolloutResult r;
        {
          py::gil_scoped_release release;
          r = rollout(g.position(), g.rules(), ev, opt);
        }
        return py::make_tuple(probs_tuple(r.mean), r.equity, probs_tuple(r.std_error), r.equity_std_error, r.trials,
                              r.truncated);
      },
      py::arg("board"), py::arg("trials"), py::arg("kind"), py::arg("plies"), py::arg("filters"), py::arg("truncate"),
      py::arg("seed"), py::arg("threads"), py::arg("stratify"), py::arg("evaluator"),
      "Rollout of the board's position (cpp/include/tavli/rollout.h): (mean probabilities, equity, their standard "
      "errors, the equity's, trials, truncated). Releases the GIL.");
}
