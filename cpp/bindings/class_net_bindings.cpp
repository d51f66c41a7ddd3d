// pybind11 bindings of the position classes and their nets (position_class.h, class_net.h), the
// two-sided bear-off database (bearoff2.h) and supervised training (supervised.h).
// Conversions and shape checks only.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>

#include "args.h"
#include "arrays.h"
#include "tavli/bearoff2.h"
#include "tavli/class_net.h"
#include "tavli/supervised.h"

namespace py = pybind11;
using namespace tavli;

using tavli_bindings::OptionList;
using tavli_bindings::positions_of;
using tavli_bindings::RowsIn;

namespace {

using FloatsIn = py::array_t<float, py::array::c_style | py::array::forcecast>;

std::shared_ptr<const NeuralNet> copy_or_null(const NeuralNet* net) {
  return net ? std::make_shared<const NeuralNet>(*net) : nullptr;
}

// Training data as (n, cols) float32 arrays.
void check_rows(const FloatsIn& a, py::ssize_t cols, const char* name) {
  if (a.ndim() != 2 || a.shape(1) != cols)
    throw std::invalid_argument(std::string(name) + " must be a float32 array of shape (N, " + std::to_string(cols) + ")");
}

}  // namespace

void bind_class_nets(py::module_& m) {
  py::class_<ClassNetEvaluator, Evaluator, std::shared_ptr<ClassNetEvaluator>>(
      m, "ClassNetEvaluator", "A net per position class (contact, race, crashed) over the exact bear-off databases.")
      .def(py::init([](const NeuralNet& contact, const NeuralNet* race, const NeuralNet* crashed) {
             return std::make_shared<ClassNetEvaluator>(std::make_shared<const NeuralNet>(contact), copy_or_null(race),
                                                        copy_or_null(crashed));
           }),
           py::arg("contact"), py::arg("race") = nullptr, py::arg("crashed") = nullptr)
      .def_property_readonly("family", &ClassNetEvaluator::family)
      .def("has_own_net", [](const ClassNetEvaluator& e, const std::string& c) {
        return e.has_own_net(position_class_from_name(c));
      }, py::arg("position_class"));

  m.def("_position_classes", [](const std::string& variant, const OptionList& options, const RowsIn& rows) {
    const Rules rules = make_rules(variant_from_name(variant), options);
    const std::vector<Position> pos = positions_of(rows, rules);
    py::array_t<std::int8_t> out(static_cast<py::ssize_t>(pos.size()));
    std::int8_t* o = out.mutable_data();
    for (std::size_t i = 0; i < pos.size(); ++i) o[i] = static_cast<std::int8_t>(position_class(pos[i], rules));
    return out;
  }, py::arg("variant"), py::arg("options"), py::arg("rows"));
  m.def("_position_class_names", [] {
    std::vector<std::string> names;
    for (int c = 0; c < kPositionClasses; ++c) names.emplace_back(position_class_name(static_cast<PositionClass>(c)));
    return names;
  });

  // A net's inputs for position rows (net_encode: seen by the side to move, encoded as White to
  // move), what a trainer must feed the net.
  m.def("_net_encode", [](const std::string& variant, const OptionList& options, const RowsIn& rows,
                          const std::string& encoding) {
    const Rules rules = make_rules(variant_from_name(variant), options);
    const Encoding e = encoding_from_name(encoding);
    if (!encoding_fits(e, rules))
      throw std::invalid_argument(std::string("the '") + encoding + "' encoding does not fit " + rules.info().name);
    const std::vector<Position> pos = positions_of(rows, rules);
    const int width = encoding_size(e, false);
    py::array_t<float> out({static_cast<py::ssize_t>(pos.size()), static_cast<py::ssize_t>(width)});
    float* o = out.mutable_data();
    {
      py::gil_scoped_release release;
      for (std::size_t i = 0; i < pos.size(); ++i) net_encode(pos[i], rules, e, o + static_cast<std::size_t>(width) * i);
    }
    return out;
  }, py::arg("variant"), py::arg("options"), py::arg("rows"), py::arg("encoding"));

  m.def("_bearoff2_win", [](const std::string& variant, const OptionList& options, const RowsIn& rows) {
    const Rules rules = make_rules(variant_from_name(variant), options);
    const std::vector<Position> pos = positions_of(rows, rules);
    py::array_t<float> out(static_cast<py::ssize_t>(pos.size()));
    float* o = out.mutable_data();
    const TwoSidedBearoff& db = TwoSidedBearoff::get();
    for (std::size_t i = 0; i < pos.size(); ++i) o[i] = db.win(pos[i].own(), pos[i].opp());
    return out;
  }, py::arg("variant"), py::arg("options"), py::arg("rows"),
  "P(side to move wins) of each row from the two-sided bear-off database (ValueError if a row does not fit).");

  m.def("_supervised_epoch", [](NeuralNet& net, const FloatsIn& x, const FloatsIn& y, double alpha, std::uint64_t seed,
                                std::int64_t epoch) {
    check_rows(x, net.inputs(), "x");
    check_rows(y, NeuralNet::kOutputs, "y");
    if (x.shape(0) != y.shape(0)) throw std::invalid_argument("x and y must have the same number of rows");
    py::gil_scoped_release release;
    return supervised_epoch(net, x.data(), y.data(), x.shape(0), alpha, seed, epoch);
  }, py::arg("net"), py::arg("x"), py::arg("y"), py::arg("alpha"), py::arg("seed"), py::arg("epoch"));
  m.def("_supervised_error", [](const NeuralNet& net, const FloatsIn& x, const FloatsIn& y) {
    check_rows(x, net.inputs(), "x");
    check_rows(y, NeuralNet::kOutputs, "y");
    if (x.shape(0) != y.shape(0)) throw std::invalid_argument("x and y must have the same number of rows");
    py::gil_scoped_release release;
    return supervised_error(net, x.data(), y.data(), x.shape(0));
  }, py::arg("net"), py::arg("x"), py::arg("y"));
}
