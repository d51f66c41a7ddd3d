// pybind11 binding of the evaluator interface (eval.h) as tavli._core.Evaluator, the base of every
// bound evaluator (NeuralEvaluator, NetSuite, ClassNetEvaluator): the bindings take any of them as
// the interface (args.h's evaluator_ptr), and each says through it which games it serves
// (Evaluator::refusal). Registered before the evaluators that derive from it.
#include <pybind11/pybind11.h>

#include <memory>

#include "tavli/eval.h"

namespace py = pybind11;

void bind_evaluator(py::module_& m) {
  py::class_<tavli::Evaluator, std::shared_ptr<tavli::Evaluator>>(
      m, "Evaluator", "The evaluator interface (cpp/include/tavli/eval.h): a search's value of a position.");
}
