// pybind11 bindings of the batch calls over arrays of position rows (batch.h, encode.h): legal
// plays, evaluation, encoding, random positions and the move generator's benchmark loop.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "args.h"
#include "arrays.h"
#include "stoppable.h"
#include "tavli/batch.h"
#include "tavli/encode.h"

namespace py = pybind11;
using namespace tavli;
using tavli_bindings::check_batch_shapes;
using tavli_bindings::DiceIn;
using tavli_bindings::evaluator_arg;
using tavli_bindings::OptionList;
using tavli_bindings::rows_array;
using tavli_bindings::RowsIn;
using tavli_bindings::run_stoppable;
using tavli_bindings::vector_array;

void bind_batch(py::module_& m) {
  m.def("_batch_legal_plays",
        [](const std::string& variant, const OptionList& options, const RowsIn& rows, const DiceIn& dice,
           bool want_positions, int threads, double time_limit) -> py::object {
          const Rules rules = make_rules(variant_from_name(variant), options);
          const std::int64_t n = check_batch_shapes(rows, dice);
          BatchResult r = run_stoppable(time_limit, [&] {
            return batch_legal_plays(rules, rows.data(), dice.data(), n, want_positions, threads);
          });
          if (!want_positions) return vector_array(r.counts);
          return py::make_tuple(vector_array(r.counts), vector_array(r.offsets), rows_array(std::move(r.positions), r.positions_begin,
                                                                                   static_cast<std::size_t>(r.offsets.back())));
        });

  m.def("_evaluate_batch", [](const std::string& variant, const OptionList& options, const RowsIn& rows, int plies,
                              int threads, py::object evaluator, double time_limit, int prune) {
    const Rules rules = make_rules(variant_from_name(variant), options);
    std::shared_ptr<const Evaluator> keep;
    const Evaluator& ev = evaluator_arg(evaluator, rules, keep);
    const std::vector<Position> positions = tavli_bindings::positions_of(rows, rules);
    const auto n = static_cast<std::int64_t>(positions.size());
    py::array_t<float> out({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(kEvalColumns)});
    float* o = out.mutable_data();
    run_stoppable(time_limit, [&] { batch_evaluate(rules, positions.data(), n, plies, threads, ev, o, prune); });
    return out;
  }, py::arg("variant"), py::arg("options"), py::arg("rows"), py::arg("plies"), py::arg("threads"), py::arg("evaluator"),
     py::arg("time_limit"), py::arg("prune") = kDefaultPrune);

  m.def("_encode", [](const std::string& variant, const OptionList& options, const RowsIn& rows, py::object dice_obj,
                      const std::string& encoding, py::object out_obj) {
    const Rules rules = make_rules(variant_from_name(variant), options);
    const Encoding e = encoding.empty() ? default_encoding(rules) : encoding_from_name(encoding);
    if ((expert_family(e) || e == Encoding::Race) && !encoding_fits(e, rules))
      throw std::invalid_argument(std::string("the '") + encoding_name(e) + "' encoding is for the hitting games (backgammon, portes, tavla, "
                                  "nackgammon, hypergammon)");
    tavli_bindings::check_rows_shape(rows);
    const std::int64_t n = rows.shape(0);
    std::vector<Dice> dice;
    if (!dice_obj.is_none()) {
      const auto d = dice_obj.cast<DiceIn>();
      if (d.ndim() != 2 || d.shape(0) != n || d.shape(1) != 2)
        throw std::invalid_argument("dice must be an integer array of shape (N, 2) with N = len(positions)");
      for (std::int64_t i = 0; i < n; ++i) {
        const auto a = d.at(i, 0), b = d.at(i, 1);
        if (a < 1 || a > 6 || b < 1 || b > 6) throw std::invalid_argument("dice of row " + std::to_string(i) + " must be 1..6");
        dice.push_back(Dice{static_cast<int>(a), static_cast<int>(b)});
      }
    }
    const int width = encoding_size(e, !dice_obj.is_none());
    py::array_t<float> out;
    if (out_obj.is_none()) {
      out = py::array_t<float>({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(width)});
    } else {
      out = out_obj.cast<py::array_t<float>>();
      if (!(out.flags() & py::array::c_style) || out.ndim() != 2 || out.shape(0) != n || out.shape(1) != width)
        throw std::invalid_argument("out must be a C-contiguous float32 array of shape (" + std::to_string(n) + ", " +
                                    std::to_string(width) + ")");
      if (!out.writeable()) throw std::invalid_argument("out must be writeable");
    }
    std::vector<Player> movers;
    const std::vector<Position> positions = tavli_bindings::positions_of(rows, rules, &movers);
    float* o = out.mutable_data();
    {
      py::gil_scoped_release release;
      for (std::int64_t i = 0; i < n; ++i)
        encode(positions[static_cast<std::size_t>(i)], movers[static_cast<std::size_t>(i)], rules, e,
               dice.empty() ? nullptr : &dice[static_cast<std::size_t>(i)], o + width * i);
    }
    return out;
  }, py::arg("variant"), py::arg("options"), py::arg("rows"), py::arg("dice"), py::arg("encoding"), py::arg("out"));

  m.def("_random_positions", [](const std::string& variant, const OptionList& options, std::int64_t n,
                                std::uint64_t seed, double time_limit) {
    const Rules rules = make_rules(variant_from_name(variant), options);
    std::vector<std::uint8_t> rows;
    std::vector<std::int64_t> dice;
    run_stoppable(time_limit, [&] { random_positions(rules, n, seed, rows, dice); });
    py::array_t<std::int64_t> d({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(2)});
    if (n) std::memcpy(d.mutable_data(), dice.data(), dice.size() * sizeof(std::int64_t));
    return py::make_tuple(rows_array(rows), d);
  });

  m.def("_generate_all", [](const std::string& variant, const OptionList& options, const RowsIn& rows,
                            const DiceIn& dice, int repeat) {
    const Rules rules = make_rules(variant_from_name(variant), options);
    const std::int64_t n = check_batch_shapes(rows, dice);
    // Validate once, outside the timed loop.
    for (std::int64_t i = 0; i < n; ++i) {
      Player t;
      validate_position(Position::from_row(rows.data() + kRowBytes * i, &t), rules);
    }
    py::gil_scoped_release release;
    return generate_all(rules, rows.data(), dice.data(), n, repeat);
  });

}
