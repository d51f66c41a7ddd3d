// pybind11 bindings of the one-sided race database (race_db.h) and the evaluator over it
// (race_evaluator.h). Conversions and checks only.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>

#include "args.h"
#include "stoppable.h"
#include "tavli/race_evaluator.h"

namespace py = pybind11;
using namespace tavli;

namespace {

using RowsIn = py::array_t<std::uint8_t, py::array::c_style | py::array::forcecast>;
using OptionList = std::vector<std::pair<std::string, std::string>>;

// A side from its counts on its 1..points points (the rest off); ValueError for a bad list.
SideState side_of(const RaceDatabase& db, const std::vector<int>& counts) {
  if (static_cast<int>(counts.size()) > db.points())
    throw std::invalid_argument("counts: at most " + std::to_string(db.points()) + " points");
  SideState s{};
  int total = 0;
  for (std::size_t j = 0; j < counts.size(); ++j) {
    if (counts[j] < 0) throw std::invalid_argument("counts: negative");
    total += counts[j];
    s.n[23 - j] = static_cast<std::uint8_t>(counts[j]);
  }
  if (total > db.checkers()) throw std::invalid_argument("counts: more than " + std::to_string(db.checkers()) + " checkers");
  s.off = static_cast<std::uint8_t>(kCheckers - total);
  s.refresh();
  return s;
}

py::array_t<float> distribution(const RaceDatabase& db, const std::vector<int>& counts, bool first) {
  py::array_t<float> out(RaceDatabase::kMaxRolls);
  const std::int64_t i = db.index(side_of(db, counts));
  if (first) db.rolls_to_first(i, out.mutable_data());
  else db.rolls_to_finish(i, out.mutable_data());
  return out;
}

}  // namespace

void bind_race_db(py::module_& m) {
  py::class_<RaceDatabase, std::shared_ptr<RaceDatabase>>(
      m, "RaceDatabase", "One-sided race database: rolls to bear off, up to 15 checkers on a side's lowest points.")
      .def_property_readonly("points", &RaceDatabase::points)
      .def_property_readonly("checkers", &RaceDatabase::checkers)
      .def_property_readonly("size", &RaceDatabase::size)
      .def_property_readonly("complete", &RaceDatabase::complete)
      .def_property_readonly("max_folded", &RaceDatabase::max_folded)
      .def("rolls_to_finish", [](const RaceDatabase& db, const std::vector<int>& c) { return distribution(db, c, false); },
           py::arg("counts"))
      .def("rolls_to_first", [](const RaceDatabase& db, const std::vector<int>& c) { return distribution(db, c, true); },
           py::arg("counts"))
      .def("expected_rolls", [](const RaceDatabase& db, const std::vector<int>& c) {
        return db.expected_rolls(db.index(side_of(db, c)));
      }, py::arg("counts"))
      .def("_probabilities", [](const RaceDatabase& db, const std::string& variant, const OptionList& options,
                                const RowsIn& rows) {
        const Rules rules = make_rules(variant_from_name(variant), options);
        if (rows.ndim() != 2 || rows.shape(1) != kRowBytes)
          throw std::invalid_argument("positions must be a uint8 array of shape (N, " + std::to_string(kRowBytes) + ")");
        py::array_t<float> out({static_cast<py::ssize_t>(rows.shape(0)), static_cast<py::ssize_t>(3)});
        float* o = out.mutable_data();
        for (py::ssize_t i = 0; i < rows.shape(0); ++i) {
          Player t;
          const Position pos = Position::from_row(rows.data() + kRowBytes * i, &t);
          validate_position(pos, rules);
          if (!is_race(pos, rules) || !db.fits(pos.own()) || !db.fits(pos.opp()) || pos.own().off == kCheckers ||
              pos.opp().off == kCheckers)
            throw std::invalid_argument("row " + std::to_string(i) + ": not a race within the database's points");
          const Probabilities p = race_db_probabilities(db, pos);
          o[3 * i] = p.win, o[3 * i + 1] = p.win_double, o[3 * i + 2] = p.lose_double;
        }
        return out;
      }, py::arg("variant"), py::arg("options"), py::arg("rows"),
      "(win, win_double, lose_double) of each row, the side to move rolling first (ValueError if a row does not fit).");

  m.def("_race_database", [](int points, int checkers, const std::string& cache_dir, int threads, double time_limit) {
    if (threads < 1 || threads > 1024) throw std::invalid_argument("threads must be 1..1024");
    if (points < RaceDatabase::kMinPoints || points > RaceDatabase::kMaxPoints)
      throw std::invalid_argument("points must be 1..10");
    if (checkers < 1 || checkers > kCheckers) throw std::invalid_argument("checkers must be 1..15");
    std::shared_ptr<const RaceDatabase> db = tavli_bindings::run_stoppable(
        time_limit, [&] { return race_database(points, checkers, cache_dir, threads); });
    return std::const_pointer_cast<RaceDatabase>(db);  // Python sees only const methods
  }, py::arg("points"), py::arg("checkers"), py::arg("cache_dir"), py::arg("threads"), py::arg("time_limit") = 0.0,
  "The race database for (points, checkers) (built once per process, from or to cache_dir when not empty; "
  "a stopped build resumes at the next call).");

  py::class_<RaceDbEvaluator, Evaluator, std::shared_ptr<RaceDbEvaluator>>(
      m, "RaceDbEvaluator", "Races from the one-sided race database, the rest from a base evaluator.")
      .def(py::init([](py::handle base, std::shared_ptr<RaceDatabase> db) {
             return std::make_shared<RaceDbEvaluator>(tavli_bindings::evaluator_ptr(base), std::move(db));
           }),
           py::arg("base"), py::arg("database"))
      .def_property_readonly("name", &RaceDbEvaluator::name);
}
