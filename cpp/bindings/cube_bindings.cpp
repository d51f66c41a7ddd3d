// pybind11 bindings of the cube, the match state, match equity tables, cubeful equities and the
// GNU Match ID (cube.h, met.h, cubeful.h, interchange.h): conversions only.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>

#include "tavli/cube.h"
#include "tavli/cubeful.h"
#include "tavli/game.h"
#include "tavli/interchange.h"
#include "tavli/met.h"

namespace py = pybind11;
using namespace tavli;

void bind_cube_search(py::module_& m);  // cube_search_bindings.cpp

namespace {

using OptionList = std::vector<std::pair<std::string, std::string>>;

int owner_arg(py::handle owner) {
  if (owner.is_none()) return kCentred;
  // Compared as Python integers, so that one too big for a C int is refused by name, not by cast.
  if (py::isinstance<py::bool_>(owner) || !py::isinstance<py::int_>(owner) ||
      !(owner.equal(py::int_(0)) || owner.equal(py::int_(1))))
    throw std::invalid_argument("cube owner must be None (centred), 0 or 1");
  return owner.cast<int>();
}

py::object owner_py(int owner) { return owner == kCentred ? py::object(py::none()) : py::object(py::int_(owner)); }

py::object maybe(double v) { return std::isnan(v) ? py::object(py::none()) : py::object(py::float_(v)); }

Probabilities probabilities_arg(const std::vector<double>& v) {
  if (v.size() < 5 || v.size() > 7)
    throw std::invalid_argument("probabilities: (win, win_double, win_triple, lose_double, lose_triple[, draw, margin])");
  // tavli.Probabilities' field order.
  static constexpr float Probabilities::*kFields[] = {&Probabilities::win,         &Probabilities::win_double,
                                                      &Probabilities::win_triple,  &Probabilities::lose_double,
                                                      &Probabilities::lose_triple, &Probabilities::draw,
                                                      &Probabilities::margin};
  Probabilities p;
  for (std::size_t i = 0; i < v.size(); ++i) p.*kFields[i] = static_cast<float>(v[i]);
  return p;
}

const char* class_name(CubeClass c) {
  switch (c) {
    case CubeClass::Over: return "over";
    case CubeClass::Contact: return "contact";
    case CubeClass::Race: return "race";
    case CubeClass::Bearoff: return "bearoff";
    case CubeClass::Hypergammon: return "hypergammon";
  }
  return "?";
}

}  // namespace

void bind_cube(py::module_& m) {
  py::class_<CubeState>(m, "CubeState",
                        "The doubling cube: value (1, 2, 4 ...), owner (None = centred, or player 0/1), and the "
                        "money options jacoby, beavers, max_cube (0 = no cap). Validated on construction.")
      .def(py::init([](int value, py::handle owner, bool jacoby, bool beavers, int max_cube) {
             CubeState c;
             c.value = value;
             c.owner = owner_arg(owner);
             c.jacoby = jacoby;
             c.beavers = beavers;
             c.max_cube = max_cube;
             validate(c, MatchState{});
             return c;
           }),
           py::arg("value") = 1, py::arg("owner") = py::none(), py::arg("jacoby") = false, py::arg("beavers") = false,
           py::arg("max_cube") = 0)
      .def_readonly("value", &CubeState::value)
      .def_property_readonly("owner", [](const CubeState& c) { return owner_py(c.owner); })
      .def_readonly("jacoby", &CubeState::jacoby)
      .def_readonly("beavers", &CubeState::beavers)
      .def_readonly("max_cube", &CubeState::max_cube)
      .def_property_readonly("centred", &CubeState::centred)
      .def("__eq__", [](const CubeState& a, const CubeState& b) { return a == b; })
      .def("__hash__", [](const CubeState& c) {
        return py::hash(py::make_tuple(c.value, c.owner, c.jacoby, c.beavers, c.max_cube));
      })
      .def("__repr__", [](const CubeState& c) {
        std::string s = "CubeState(value=" + std::to_string(c.value) + ", owner=" +
                        (c.centred() ? std::string("None") : std::to_string(c.owner));
        if (c.jacoby) s += ", jacoby=True";
        if (c.beavers) s += ", beavers=True";
        if (c.max_cube) s += ", max_cube=" + std::to_string(c.max_cube);
        return s + ")";
      })
      .def(py::pickle([](const CubeState& c) { return py::make_tuple(c.value, c.owner, c.jacoby, c.beavers, c.max_cube); },
                      [](const py::tuple& t) {
                        CubeState c{t[0].cast<int>(), t[1].cast<int>(), t[2].cast<bool>(), t[3].cast<bool>(),
                                    t[4].cast<int>()};
                        validate(c, MatchState{});
                        return c;
                      }));

  py::class_<MatchState>(m, "MatchState",
                         "The match: length (0 = money play), score (points of players 0 and 1, each below the "
                         "length), crawford (this is the Crawford game). Validated on construction.")
      .def(py::init([](int length, std::array<int, 2> score, bool crawford) {
             MatchState s;
             s.length = length;
             s.score = score;
             s.crawford = crawford;
             validate(CubeState{}, s);
             return s;
           }),
           py::arg("length") = 0, py::arg("score") = std::array<int, 2>{0, 0}, py::arg("crawford") = false)
      .def_readonly("length", &MatchState::length)
      .def_property_readonly("score", [](const MatchState& s) { return py::make_tuple(s.score[0], s.score[1]); })
      .def_readonly("crawford", &MatchState::crawford)
      .def_property_readonly("money", &MatchState::money)
      .def_property_readonly("post_crawford", &MatchState::post_crawford)
      .def("away", [](const MatchState& s, int player) {
        if (player != 0 && player != 1) throw std::invalid_argument("player must be 0 or 1");
        if (s.money()) throw std::invalid_argument("money play has no score to count away from");
        return s.away(static_cast<Player>(player));
      }, py::arg("player"), "Points the player still needs.")
      .def("__eq__", [](const MatchState& a, const MatchState& b) { return a == b; })
      .def("__hash__", [](const MatchState& s) { return py::hash(py::make_tuple(s.length, s.score[0], s.score[1], s.crawford)); })
      .def("__repr__", [](const MatchState& s) {
        if (s.money()) return std::string("MatchState(length=0)");
        return "MatchState(length=" + std::to_string(s.length) + ", score=(" + std::to_string(s.score[0]) + ", " +
               std::to_string(s.score[1]) + ")" + (s.crawford ? ", crawford=True" : "") + ")";
      })
      .def(py::pickle([](const MatchState& s) { return py::make_tuple(s.length, s.score[0], s.score[1], s.crawford); },
                      [](const py::tuple& t) {
                        MatchState s;
                        s.length = t[0].cast<int>();
                        s.score = {t[1].cast<int>(), t[2].cast<int>()};
                        s.crawford = t[3].cast<bool>();
                        validate(CubeState{}, s);
                        return s;
                      }));

  m.def("_variant_takes_cube", [](const std::string& variant) { return variant_info(variant_from_name(variant)).takes_cube; });
  m.def("_validate_cube_for", [](const std::string& variant, const CubeState& cube, const MatchState& match) {
    validate_for(variant_info(variant_from_name(variant)), cube, match);
  });

  py::class_<MatchEquityTable>(m, "MatchEquityTable",
                               "A match equity table (met.h): pre[i][j] is the match winning chance of a side "
                               "needing i+1 points against j+1; post[p][i] player p's post-Crawford chance "
                               "needing i+1 against a leader at one-away. tavli.cube.load_met reads gnubg's XML.")
      .def(py::init<std::string, std::vector<std::vector<double>>, std::array<std::vector<double>, 2>, std::string>(),
           py::arg("name"), py::arg("pre"), py::arg("post"), py::arg("description") = "")
      .def_property_readonly("name", &MatchEquityTable::name)
      .def_property_readonly("description", &MatchEquityTable::description)
      .def_property_readonly("length", &MatchEquityTable::length)
      .def_property_readonly("pre_crawford_table", &MatchEquityTable::pre_table)
      .def_property_readonly("post_crawford_table", &MatchEquityTable::post_table)
      // Pickled as its numbers, so a table travels to Ray workers (simulate_matches' met=).
      .def(py::pickle(
          [](const MatchEquityTable& t) {
            return py::make_tuple(t.name(), t.pre_table(), t.post_table(), t.description());
          },
          [](const py::tuple& s) {
            if (s.size() != 4) throw std::invalid_argument("MatchEquityTable pickle: 4 fields expected");
            return MatchEquityTable(s[0].cast<std::string>(), s[1].cast<std::vector<std::vector<double>>>(),
                                    s[2].cast<std::array<std::vector<double>, 2>>(), s[3].cast<std::string>());
          }))
      .def("pre_crawford", &MatchEquityTable::pre_crawford, py::arg("away"), py::arg("opp_away"),
           "MWC needing `away` points against `opp_away`, in a game that is not post-Crawford.")
      .def("post_crawford", [](const MatchEquityTable& t, int away, int trailer) {
        if (trailer != 0 && trailer != 1) throw std::invalid_argument("trailer must be player 0 or 1");
        return t.post_crawford(away, static_cast<Player>(trailer));
      }, py::arg("away"), py::arg("trailer") = 0, "The trailer's post-Crawford MWC needing `away` points.")
      .def("gammon_values", [](const MatchEquityTable& t, int away, int opp_away, int cube) {
        if (away < 1 || opp_away < 1) throw std::invalid_argument("aways must be at least 1");
        if (cube < 1) throw std::invalid_argument("cube must be at least 1");
        return gammon_values(t, {away, opp_away}, away == 1 || opp_away == 1, kWhite, cube);
      }, py::arg("away"), py::arg("opp_away"), py::arg("cube") = 1,
           "(my gammon, his gammon, my backgammon extra, his backgammon extra) values at the score (gnubg's "
           "gammon prices; a game at one-away is post-Crawford or Crawford alike here).");

  m.def("_cube_decision", [](const std::vector<double>& probs, const CubeState& cube, const MatchState& match, int mover,
                             double efficiency, const MatchEquityTable& met) {
    if (mover != 0 && mover != 1) throw std::invalid_argument("mover must be player 0 or 1");
    const CubeDecision d = cube_decision(probabilities_arg(probs), cube, match, static_cast<Player>(mover), efficiency, met);
    return py::make_tuple(d.available, d.nd, maybe(d.dt), maybe(d.dp), maybe(d.nd_mwc), maybe(d.dt_mwc),
                          maybe(d.dp_mwc), action_name(d.action), take_name(d.take), d.efficiency);
  });
  m.def("_cube_efficiency", [](const Game& g) {
    const CubeClass c = cube_class(g.position(), g.rules());
    return py::make_tuple(class_name(c), cube_efficiency(g.position(), g.rules()));
  }, "(position class, cube efficiency) of a board for its side to move, as gnubg classes it.");

  m.def("_gnubg_match_id", [](const CubeState& cube, const MatchState& match, int on_roll, int turn, int game_state,
                              bool double_offered, int resignation, std::array<int, 2> dice) {
    if ((on_roll != 0 && on_roll != 1) || (turn != 0 && turn != 1)) throw std::invalid_argument("players are 0 or 1");
    GnubgMatchId id;
    id.cube = cube;
    id.match = match;
    id.on_roll = static_cast<Player>(on_roll);
    id.turn = static_cast<Player>(turn);
    id.game_state = game_state;
    id.double_offered = double_offered;
    id.resignation = resignation;
    id.dice[0] = dice[0];
    id.dice[1] = dice[1];
    return gnubg_match_id(id);
  });
  m.def("_parse_gnubg_match_id", [](const std::string& text) {
    const GnubgMatchId id = parse_gnubg_match_id(text);
    py::dict d;
    d["cube"] = id.cube;
    d["match"] = id.match;
    d["on_roll"] = static_cast<int>(id.on_roll);
    d["turn"] = static_cast<int>(id.turn);
    d["game_state"] = id.game_state;
    d["double_offered"] = id.double_offered;
    d["resignation"] = id.resignation;
    d["dice"] = py::make_tuple(id.dice[0], id.dice[1]);
    return d;
  });
  m.def("_xgid", [](const Game& g, const CubeState& cube, const MatchState& match) {
    validate_for(g.rules().info(), cube, match);
    return xgid(g.position(), g.rules(), g.turn(), cube, match);
  });
  m.def("_parse_xgid", [](const std::string& text, const std::string& variant, const OptionList& options) {
    const Rules rules = make_rules(variant_from_name(variant), options);
    Player turn;
    CubeState cube;
    MatchState match;
    const Position pos = position_from_xgid(text, rules, &turn, &cube, &match);
    // A cubeless game takes the match score but refuses a turned cube or money options; every
    // XGID carries a maximum cube (XG's default 10), which such a game drops.
    if (!rules.info().takes_cube) {
      cube.max_cube = 0;
      validate_for(rules.info(), cube, match);
    }
    return py::make_tuple(Game(rules, pos, turn), cube, match);
  });
  bind_cube_search(m);
}
