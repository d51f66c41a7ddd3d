// pybind11 bindings of the dice: a roll from Python (dice_from_py, tavli._core.parse_dice) and the
// seeded generator (rng.h). The grammar and the range of a roll are the core's (notation.h,
// dice.h); this reads the Python types only.
#include <pybind11/pybind11.h>

#include <climits>
#include <string>
#include <utility>
#include <vector>

#include "args.h"
#include "tavli/notation.h"
#include "tavli/rng.h"

namespace py = pybind11;
using namespace tavli;

namespace {

// A Python integer (or anything with __index__) in 0..max, else ValueError naming it.
std::uint64_t index_in_range(py::handle v, const char* what, std::uint64_t max) {
  PyObject* idx = PyNumber_Index(v.ptr());
  if (!idx) {
    PyErr_Clear();
    throw std::invalid_argument(std::string(what) + " must be an integer");
  }
  const unsigned long long x = PyLong_AsUnsignedLongLong(idx);
  Py_DECREF(idx);
  const bool overflow = PyErr_Occurred() != nullptr;
  if (overflow) PyErr_Clear();
  if (overflow || x > max)
    throw std::invalid_argument(std::string(what) + " must be in 0.." + std::to_string(max));
  return x;
}

// One die of a pair: an integer (Python's, numpy's, anything with __index__; not a bool), else
// nullptr.
py::object die_value(py::handle d) {
  if (PyBool_Check(d.ptr()) || !(PyLong_Check(d.ptr()) || PyIndex_Check(d.ptr()))) return py::object();
  return py::reinterpret_steal<py::object>(PyNumber_Index(d.ptr()));
}

}  // namespace

Dice tavli_bindings::dice_from_py(py::handle dice) {
  PyObject* d = dice.ptr();
  if (PyTuple_CheckExact(d) && PyTuple_GET_SIZE(d) == 2) {  // the common case, kept cheap
    PyObject* a = PyTuple_GET_ITEM(d, 0);
    PyObject* b = PyTuple_GET_ITEM(d, 1);
    if (PyLong_CheckExact(a) && PyLong_CheckExact(b)) {
      const long x = PyLong_AsLong(a), y = PyLong_AsLong(b);
      if (x >= 1 && x <= 6 && y >= 1 && y <= 6) return Dice{static_cast<int>(x), static_cast<int>(y)};
      PyErr_Clear();
    }
  }
  if (PyUnicode_Check(d)) return parse_dice(dice.cast<std::string>());
  if (PyAnySet_Check(d) || PyDict_Check(d))  // unordered: which die is d1 would be arbitrary
    throw std::invalid_argument("dice must be an ordered pair (d1, d2), got a " +
                                py::type::handle_of(dice).attr("__name__").cast<std::string>());
  // Any iterable of exactly two items, as Python's `d1, d2 = dice` unpacks it.
  std::vector<py::object> items;
  bool pair = false;
  if (PyObject* it = PyObject_GetIter(d)) {
    py::object iter = py::reinterpret_steal<py::object>(it);
    while (items.size() < 3) {
      PyObject* item = PyIter_Next(it);
      if (!item) break;
      items.push_back(py::reinterpret_steal<py::object>(item));
    }
    pair = items.size() == 2;
  }
  if (PyErr_Occurred()) {
    if (!PyErr_ExceptionMatches(PyExc_TypeError) && !PyErr_ExceptionMatches(PyExc_ValueError))
      throw py::error_already_set();
    PyErr_Clear();
    pair = false;
  }
  if (!pair) throw std::invalid_argument("dice must be a pair of integers 1..6, got " + py::repr(dice).cast<std::string>());
  const py::object a = die_value(items[0]), b = die_value(items[1]);
  if (!a || !b) {
    PyErr_Clear();
    throw std::invalid_argument("dice must be integers 1..6, got " + py::repr(dice).cast<std::string>());
  }
  int overflow_a = 0, overflow_b = 0;
  const long long x = PyLong_AsLongLongAndOverflow(a.ptr(), &overflow_a);
  const long long y = PyLong_AsLongLongAndOverflow(b.ptr(), &overflow_b);
  if (overflow_a || overflow_b)  // beyond long long: outside 1..6 all the same, named as Python writes it
    throw std::invalid_argument(dice_range_error(py::str(a).cast<std::string>(), py::str(b).cast<std::string>()));
  return make_dice(x, y);
}

void bind_dice(py::module_& m) {
  m.def("parse_dice", [](py::handle dice) {
    const Dice d = tavli_bindings::dice_from_py(dice);
    return std::make_pair(d.d1, d.d2);
  }, py::arg("dice"),
        "A roll (d1, d2) from a pair of integers 1..6 or text such as '6-5', '65' or '6, 5' "
        "(cpp/include/tavli/notation.h); ValueError naming the problem.");

  py::class_<Rng>(m, "Rng", "Seeded xoshiro256** generator with an exact die mapping (same dice on every platform).")
      .def(py::init([](py::object seed) { return Rng(index_in_range(seed, "seed", ~0ull)); }), py::arg("seed") = 0)
      .def("next_u64", &Rng::next)
      .def("below", [](Rng& r, py::object n) {
        const auto k = static_cast<std::uint32_t>(index_in_range(n, "below(n): n", 0xFFFFFFFFull));
        if (k == 0) throw std::invalid_argument("below(n) needs n >= 1");
        return r.below(k);
      }, py::arg("n"), "Uniform integer in [0, n), 1 <= n < 2**32.")
      .def("die", &Rng::die)
      .def("roll", &Rng::roll)
      .def_static("derive", [](py::object master, py::object index) {
        return Rng::derive(index_in_range(master, "master", ~0ull), index_in_range(index, "index", ~0ull));
      }, py::arg("master"), py::arg("index"), "Seed of the index-th stream derived from a master seed.");
}
