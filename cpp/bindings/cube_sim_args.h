// The cube argument of self-play (_simulate, _simulate_matches) and the columns it adds to the
// results: conversions only (cube_player.h does the work).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <vector>

#include "tavli/cube_player.h"
#include "tavli/match_player.h"

namespace tavli_bindings {

// The options with the table they point at, kept together (not copyable: opt.met points into it).
struct CubeSimArg {
  tavli::CubeSimOptions opt;
  std::optional<tavli::MatchEquityTable> met;
  CubeSimArg() = default;
  CubeSimArg(const CubeSimArg&) = delete;
  CubeSimArg& operator=(const CubeSimArg&) = delete;
};

// None: cubeless (null). Else tavli.cube_sim's tuple (jacoby, beavers, max_cube, handles White,
// handles Black, a MatchEquityTable or None for money play, the MatchState of the games).
inline std::unique_ptr<CubeSimArg> cube_sim_arg(pybind11::handle cube) {
  if (cube.is_none()) return nullptr;
  const auto t = cube.cast<pybind11::tuple>();
  if (t.size() != 7)
    throw std::invalid_argument("cube: (jacoby, beavers, max_cube, handles0, handles1, met, match)");
  auto a = std::make_unique<CubeSimArg>();
  a->opt.cube.jacoby = t[0].cast<bool>();
  a->opt.cube.beavers = t[1].cast<bool>();
  a->opt.cube.max_cube = t[2].cast<int>();
  a->opt.handles = {t[3].cast<bool>(), t[4].cast<bool>()};
  a->opt.match = t[6].cast<tavli::MatchState>();
  if (!t[5].is_none()) {
    a->met.emplace(t[5].cast<const tavli::MatchEquityTable&>());
    a->opt.met = &*a->met;
  }
  return a;
}

// The match-play options of the two players and what score-aware play ranks by (kept together:
// scores.met points into met).
struct MatchPlayArg {
  tavli::ScoreTable scores;
  std::optional<tavli::MatchEquityTable> met;
  MatchPlayArg() = default;
  MatchPlayArg(const MatchPlayArg&) = delete;
  MatchPlayArg& operator=(const MatchPlayArg&) = delete;
};

// None: neither player has match-play options (null). Else tavli.match_players' tuple
// (score_aware, cube_plies, cubeful_play of White, the same of Black, a MatchEquityTable or None,
// the cycle's tables T[g][a][b] or None), set on `specs`.
inline std::unique_ptr<MatchPlayArg> match_play_arg(pybind11::handle play, tavli::PlayerSpec specs[2]) {
  if (play.is_none()) return nullptr;
  const auto t = play.cast<pybind11::tuple>();
  if (t.size() != 8)
    throw std::invalid_argument("play: (score_aware0, cube_plies0, cubeful_play0, score_aware1, cube_plies1, "
                                "cubeful_play1, met, cycle tables)");
  for (int k = 0; k < 2; ++k) {
    specs[k].score_aware = t[static_cast<std::size_t>(3 * k)].cast<bool>();
    specs[k].cube_plies = t[static_cast<std::size_t>(3 * k + 1)].cast<int>();
    specs[k].cubeful_play = t[static_cast<std::size_t>(3 * k + 2)].cast<bool>();
    tavli::check_player(specs[k]);
  }
  auto a = std::make_unique<MatchPlayArg>();
  if (!t[6].is_none()) {
    a->met.emplace(t[6].cast<const tavli::MatchEquityTable&>());
    a->scores.met = &*a->met;
  }
  if (!t[7].is_none()) a->scores.cycle = t[7].cast<std::vector<std::vector<std::vector<double>>>>();
  return a;
}

// cube (final value), cube_owner (-1 centred), passed (a dropped double ended the game), scored
// (the winner's points: cube x game value; 0 unfinished).
inline void add_cube_columns(pybind11::dict& out, const std::vector<tavli::GameSummary>& res) {
  namespace py = pybind11;
  const auto n = static_cast<py::ssize_t>(res.size());
  py::array_t<std::int32_t> cube(n), scored(n);
  py::array_t<std::int8_t> owner(n);
  py::array_t<bool> passed(n);
  for (py::ssize_t i = 0; i < n; ++i) {
    const tavli::GameSummary& g = res[static_cast<std::size_t>(i)];
    cube.mutable_data()[i] = g.cube;
    owner.mutable_data()[i] = g.cube_owner;
    passed.mutable_data()[i] = g.passed;
    scored.mutable_data()[i] = g.scored;
  }
  out["cube"] = cube;
  out["cube_owner"] = owner;
  out["passed"] = passed;
  out["scored"] = scored;
}

}  // namespace tavli_bindings
