// pybind11 bindings of a match's game flow (match.h, as tavli._core.Match, which tavli.Match wraps).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "args.h"
#include "play_object.h"
#include "tavli/match.h"

namespace py = pybind11;
using namespace tavli;
using tavli_bindings::checked_play;
using tavli_bindings::CycleArg;
using tavli_bindings::play_to_py;

void bind_match(py::module_& m) {
  py::class_<Match>(m, "Match", "Game flow of a match (see tavli.Match).")
      .def(py::init([](const CycleArg& cycle, int target, const std::string& next_starter) {
             std::vector<MatchGame> games = tavli_bindings::match_games(cycle);  // its errors first
             return Match(std::move(games), target, next_starter_from_name(next_starter));
           }),
           py::arg("cycle"), py::arg("target"), py::arg("next_starter"))
      .def_property_readonly("phase", [](const Match& mt) {
        return mt.phase() == Match::Phase::Opening ? "opening" : mt.phase() == Match::Phase::Playing ? "playing" : "over";
      })
      .def_property_readonly("target", &Match::target)
      .def_property_readonly("score", [](const Match& mt) { return py::make_tuple(mt.score(kWhite), mt.score(kBlack)); })
      .def_property_readonly("game_number", &Match::game_number)
      .def_property_readonly("winner", [](const Match& mt) -> py::object {
        const auto w = mt.winner();
        return w ? py::object(py::int_(int(*w))) : py::object(py::none());
      })
      .def_property_readonly("forced_dice", [](const Match& mt) -> py::object {
        const auto d = mt.forced_dice();
        return d ? py::object(py::make_tuple(d->d1, d->d2)) : py::object(py::none());
      })
      .def("_game", [](const Match& mt) { return mt.game(); })
      .def_property_readonly("_turn", [](const Match& mt) { return int(mt.game().turn()); })
      .def("roll_opening", &Match::roll_opening, py::arg("white_die"), py::arg("black_die"))
      .def("play", [](Match& mt, py::handle p) {
        const auto* play = checked_play(p);
        return play_to_py(mt.play(play->play, play->dice), play->dice);
      })
      .def_property_readonly("results", [](const Match& mt) {
        py::list out;
        for (const GameResult& r : mt.results()) {
          py::dict d;
          d["variant"] = r.rules.info().name;
          d["starter"] = int(r.starter);
          d["winner"] = r.outcome.winner < 0 ? py::object(py::none()) : py::object(py::int_(r.outcome.winner));
          d["points"] = r.outcome.points;
          d["kind"] = tavli_bindings::result_kind_name(r.outcome.kind);
          out.append(d);
        }
        return out;
      });
}
