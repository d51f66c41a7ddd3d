// pybind11 bindings: conversions only, no game logic. Everything here forwards to the core.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "args.h"
#include "cube_sim_args.h"
#include "play_object.h"
#include "stoppable.h"
#include "tavli/batch.h"
#include "tavli/interchange.h"
#include "tavli/match.h"
#include "tavli/search.h"
#include "tavli/sim.h"
#include "tavli/encode.h"
#include "tavli/notation.h"
#include "tavli/perft.h"
#include "tavli/nnet.h"
#include "tavli/rng.h"
#include "tavli/scratch.h"

namespace py = pybind11;
using namespace tavli;

void bind_nnet(py::module_& m);     // nnet_bindings.cpp
void bind_rollout(py::module_& m);  // rollout_bindings.cpp
void bind_cube(py::module_& m);     // cube_bindings.cpp
void bind_class_nets(py::module_& m);  // class_net_bindings.cpp
void bind_race_db(py::module_& m);     // race_db_bindings.cpp

namespace {

SearchOptions search_options(int plies, const std::vector<std::tuple<int, int, double>>& filters, int threads,
                             double time_limit, std::int64_t node_limit) {
  SearchOptions o;
  o.plies = plies;
  for (const auto& [accept, extra, threshold] : filters)
    o.filters.push_back(MoveFilter{accept, extra, static_cast<float>(threshold)});
  o.threads = threads;
  o.time_limit = time_limit;
  o.node_limit = node_limit;
  return o;
}

// (kind, plies, filters, evaluator): tavli.sim._player's form.
using PlayerArg = std::tuple<std::string, int, std::vector<std::tuple<int, int, double>>, py::object>;

// The two players, their evaluators checked against every game they will play.
void player_specs(const std::vector<PlayerArg>& players, PlayerSpec specs[2], const std::vector<const Rules*>& games) {
  if (players.size() != 2) throw std::invalid_argument("players: exactly two");
  for (int i = 0; i < 2; ++i) {
    const auto& [kind, plies, filters, evaluator] = players[static_cast<std::size_t>(i)];
    specs[i] = tavli_bindings::player_arg(kind, plies, filters, evaluator);
    for (const Rules* r : games) tavli_bindings::check_serves(specs[i].eval(), *r);
  }
}

using tavli_bindings::as_play;
using tavli_bindings::evaluator_arg;
using tavli_bindings::probs_tuple;
using tavli_bindings::is_play;
using tavli_bindings::new_play;
using tavli_bindings::run_stoppable;

py::object play_to_py(const Play& p, Dice dice) {
  PyObject* o = new_play(p, dice);
  if (!o) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(o);
}

const tavli_bindings::PlayObject* checked_play(py::handle o) {
  if (!is_play(o.ptr())) throw IllegalMove("expected a Play (from legal_plays, find_play or parse_play)");
  return as_play(o.ptr());
}

// Dice from Python: a pair of ints 1..6 is read here; anything else (strings such as "6-5", numpy
// integers, lists) goes through tavli._dice.parse_dice, which names what is wrong.
Dice dice_from_py(py::handle dice) {
  PyObject* d = dice.ptr();
  if (PyTuple_CheckExact(d) && PyTuple_GET_SIZE(d) == 2) {
    PyObject* a = PyTuple_GET_ITEM(d, 0);
    PyObject* b = PyTuple_GET_ITEM(d, 1);
    if (PyLong_CheckExact(a) && PyLong_CheckExact(b)) {
      const long x = PyLong_AsLong(a), y = PyLong_AsLong(b);
      if (x >= 1 && x <= 6 && y >= 1 && y <= 6) return Dice{static_cast<int>(x), static_cast<int>(y)};
      PyErr_Clear();
    }
  }
  // Imported per call (the slow path only): a static py::object would be destroyed after the
  // interpreter has finalised, and abort the process at exit.
  const auto pair = py::module_::import("tavli._dice").attr("parse_dice")(dice).cast<std::pair<int, int>>();
  return make_dice(pair.first, pair.second);
}

using OptionList = std::vector<std::pair<std::string, std::string>>;

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

Dice to_dice(int d1, int d2) { return make_dice(d1, d2); }

std::vector<Step> steps_from(const std::vector<std::pair<int, int>>& steps) {
  if (steps.size() > static_cast<std::size_t>(kMaxSteps))
    throw IllegalMove("a play has at most " + std::to_string(kMaxSteps) + " steps, got " + std::to_string(steps.size()));
  std::vector<Step> out;
  for (const auto& [f, t] : steps) {
    if (f < kBar || f > 23 || t < 0 || t > kOff)
      throw IllegalMove("step (" + std::to_string(f) + ", " + std::to_string(t) +
                        ") is outside the board: from -1..23, to 0..24");
    out.push_back(Step{static_cast<std::int8_t>(f), static_cast<std::int8_t>(t)});
  }
  return out;
}

std::vector<std::uint8_t> side_counts(const SideState& s) { return std::vector<std::uint8_t>(s.n, s.n + 24); }

void fill_side(SideState& s, const std::vector<int>& counts, int bar, int off, const char* who) {
  if (counts.size() != 24)
    throw InvalidPosition(std::string(who) + ": expected 24 point counts, got " + std::to_string(counts.size()));
  for (int r = 0; r < 24; ++r) {
    if (counts[r] < 0 || counts[r] > kCheckers)
      throw InvalidPosition(std::string(who) + "[" + std::to_string(r) + "] = " + std::to_string(counts[r]) +
                            " is outside 0..15");
    s.n[r] = static_cast<std::uint8_t>(counts[r]);
  }
  if (bar < 0 || bar > kCheckers) throw InvalidPosition(std::string(who) + " bar count outside 0..15");
  if (off < 0 || off > kCheckers) throw InvalidPosition(std::string(who) + " off count outside 0..15");
  s.bar = static_cast<std::uint8_t>(bar);
  s.off = static_cast<std::uint8_t>(off);
}

py::object outcome_to_py(const std::optional<Outcome>& o) {
  if (!o) return py::none();
  static const char* kinds[] = {"", "single", "double", "triple", "mother", "draw", "checkers"};
  py::object winner = o->winner < 0 ? py::object(py::none()) : py::object(py::int_(o->winner));
  return py::make_tuple(winner, o->points, kinds[static_cast<int>(o->kind)]);
}

std::uint32_t pin_mask(const std::vector<int>& points, const char* who) {
  std::uint32_t m = 0;
  for (int r : points) {
    if (r < 0 || r > 23) throw InvalidPosition(std::string(who) + " pinned point " + std::to_string(r) + " outside 0..23");
    if (m & bit(r)) throw InvalidPosition(std::string(who) + " pinned point " + std::to_string(r) + " listed twice");
    m |= bit(r);
  }
  return m;
}

std::vector<int> pin_list(std::uint32_t m) {
  std::vector<int> out;
  for (; m; m &= m - 1) out.push_back(lowest_bit(m));
  return out;
}

// Hands the vector's buffer to numpy (no copy): the array owns it through a capsule.
py::array_t<std::uint8_t> rows_array(std::vector<std::uint8_t>&& bytes) {
  const auto n = static_cast<py::ssize_t>(bytes.size() / kRowBytes);
  auto* owned = new std::vector<std::uint8_t>(std::move(bytes));
  py::capsule free_it(owned, [](void* p) { delete static_cast<std::vector<std::uint8_t>*>(p); });
  return py::array_t<std::uint8_t>({n, static_cast<py::ssize_t>(kRowBytes)}, owned->data(), free_it);
}

py::array_t<std::uint8_t> rows_array(const std::vector<std::uint8_t>& bytes) {
  const auto n = static_cast<py::ssize_t>(bytes.size() / kRowBytes);
  py::array_t<std::uint8_t> a({n, static_cast<py::ssize_t>(kRowBytes)});
  if (!bytes.empty()) std::memcpy(a.mutable_data(), bytes.data(), bytes.size());
  return a;
}

template <class T>
py::array_t<T> vector_array(const std::vector<T>& v) {
  py::array_t<T> a(static_cast<py::ssize_t>(v.size()));
  if (!v.empty()) std::memcpy(a.mutable_data(), v.data(), v.size() * sizeof(T));
  return a;
}

using RowsIn = py::array_t<std::uint8_t, py::array::c_style | py::array::forcecast>;
using DiceIn = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;

std::int64_t check_batch_shapes(const RowsIn& rows, const DiceIn& dice) {
  if (rows.ndim() != 2 || rows.shape(1) != kRowBytes)
    throw std::invalid_argument("positions must be a uint8 array of shape (N, " + std::to_string(kRowBytes) + ")");
  if (dice.ndim() != 2 || dice.shape(1) != 2 || dice.shape(0) != rows.shape(0))
    throw std::invalid_argument("dice must be an integer array of shape (N, 2) with N = len(positions)");
  return rows.shape(0);
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "tavli C++ core: rules, move generation and bulk calls for the tables games";

  py::register_local_exception<InvalidPosition>(m, "InvalidPosition", PyExc_ValueError);
  py::register_local_exception<IllegalMove>(m, "IllegalMove", PyExc_ValueError);

  tavli_bindings::register_stop_exceptions();

  m.attr("ROW_BYTES") = kRowBytes;
  m.attr("MAX_PLAYS") = kMaxPlays;

  m.def("variants", [] {
    std::vector<std::string> names;
    for (const auto& v : variant_table()) names.push_back(v.name);
    return names;
  }, "Names of the variants the engine plays.");

  m.def("variant_options", [](const std::string& name) {
    py::list out;
    for (const auto& o : variant_info(variant_from_name(name)).options) {
      py::list choices;
      for (const auto& c : o.choices) {
        if (o.integer) choices.append(std::stoi(c[0]));
        else choices.append(c[0]);
      }
      py::dict d;
      d["name"] = o.name;
      d["choices"] = choices;
      d["default"] = choices[static_cast<std::size_t>(o.default_index)];
      d["help"] = o.help;
      out.append(d);
    }
    return out;
  }, py::arg("variant"), "The options of a variant: name, allowed values, default and a description.");

  m.def("variant_info", [](const std::string& name) {
    const VariantInfo& v = variant_info(variant_from_name(name));
    py::dict d;
    d["name"] = v.name;
    d["net_family"] = v.facts.net_family;
    d["encoding"] = v.facts.encoding;
    d["opening"] = opening_name(v.opening_dice ? Opening::UseOpeningDice : Opening::Reroll);
    d["next_starter"] = next_starter_name(v.facts.next_starter);
    d["match_target"] = v.facts.match_target;
    d["takes_cube"] = v.takes_cube;
    d["movement"] = v.movement == Movement::Parallel ? "parallel" : "contrary";
    return d;
  }, py::arg("variant"),
        "A game's facts from the variant table (cpp/include/tavli/variant.h): its net family and default "
        "encoding, the match defaults (opening, next_starter, match_target), whether it takes the cube, and "
        "its movement (parallel: the facing point of r is (r + 12) % 24; contrary: 23 - r).");

  m.def("canonical_variant", [](const std::string& name) { return variant_info(variant_from_name(name)).name; },
        py::arg("name"), "The canonical name of a variant given by name or alias.");

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

  m.attr("Play") = py::handle(reinterpret_cast<PyObject*>(tavli_bindings::play_type()));

  py::class_<Game>(m, "Board", "A game position with its rules, whose turn it is, and its history.")
      .def(py::init([](const std::string& variant, const OptionList& options) {
             return Game(make_rules(variant_from_name(variant), options));
           }),
           py::arg("variant") = "fevga", py::arg("options") = OptionList{})
      .def_static("_from_parts",
                  [](const std::string& variant, const OptionList& options, const std::vector<int>& mover,
                     const std::vector<int>& opponent, const std::vector<int>& bar, const std::vector<int>& off,
                     int turn, const std::vector<int>& mover_pinned, const std::vector<int>& opponent_pinned,
                     bool mover_first_turn, bool opponent_first_turn) {
                    const Rules rules = make_rules(variant_from_name(variant), options);
                    if (bar.size() != 2) throw InvalidPosition("bar: expected [mover, opponent]");
                    if (off.size() != 2) throw InvalidPosition("off: expected [mover, opponent]");
                    if (turn != 0 && turn != 1) throw InvalidPosition("turn must be 0 (white) or 1 (black)");
                    Position pos = Position::empty();
                    fill_side(pos.own(), mover, bar[0], off[0], "mover");
                    fill_side(pos.opp(), opponent, bar[1], off[1], "opponent");
                    pos.own().pinned = pin_mask(mover_pinned, "mover");
                    pos.opp().pinned = pin_mask(opponent_pinned, "opponent");
                    pos.own().flags = mover_first_turn ? SideState::kFirstTurn : 0;
                    pos.opp().flags = opponent_first_turn ? SideState::kFirstTurn : 0;
                    pos.refresh();
                    return Game(rules, pos, static_cast<Player>(turn));
                  })
      .def_static("_from_id", [](const std::string& id) {
        Rules rules;
        Position pos;
        Player turn;
        parse_position_id(id, &rules, &pos, &turn);
        return Game(rules, pos, turn);
      }, py::arg("id"))
      .def_static("_from_row", [](const std::string& variant, const OptionList& options, const RowsIn& row) {
        if (row.ndim() != 1 || row.shape(0) != kRowBytes)
          throw std::invalid_argument("row must be a uint8 array of length " + std::to_string(kRowBytes));
        Player turn;
        const Position pos = Position::from_row(row.data(), &turn);
        return Game(make_rules(variant_from_name(variant), options), pos, turn);
      })
      .def_property_readonly("variant", [](const Game& g) { return g.rules().info().name; })
      .def_property_readonly("_movement", [](const Game& g) {
        return g.rules().movement == Movement::Parallel ? "parallel" : "contrary";
      })
      .def_property_readonly("_options", [](const Game& g) { return g.rules().non_default_options(); })
      .def_property_readonly("_all_options", [](const Game& g) { return g.rules().all_options(); })
      .def_property_readonly("turn", [](const Game& g) { return int(g.turn()); })
      .def_property_readonly("checkers", [](const Game& g) { return g.rules().checkers; },
                             "Checkers per side: 15, or k in Hypergammon.")
      .def_property_readonly("_mover", [](const Game& g) { return side_counts(g.position().own()); })
      .def_property_readonly("_opponent", [](const Game& g) { return side_counts(g.position().opp()); })
      .def_property_readonly("_bar", [](const Game& g) {
        return std::vector<int>{g.position().own().bar, g.position().opp().bar};
      })
      .def_property_readonly("_off", [](const Game& g) {
        return std::vector<int>{g.position().own().off, g.position().opp().off};
      })
      .def_property_readonly("_pinned", [](const Game& g) {
        return std::vector<std::vector<int>>{pin_list(g.position().own().pinned), pin_list(g.position().opp().pinned)};
      })
      .def_property_readonly("_first_turn", [](const Game& g) {
        return std::vector<bool>{(g.position().own().flags & SideState::kFirstTurn) != 0,
                                 (g.position().opp().flags & SideState::kFirstTurn) != 0};
      })
      .def_property_readonly("_contact", [](const Game& g) {
        return g.rules().contact == Contact::Block ? "block" : g.rules().contact == Contact::Hit ? "hit" : "pin";
      })
      .def_property_readonly("ply", &Game::ply, "Number of plays pushed (and not popped).")
      .def("legal_plays", [](const Game& g, py::handle dice_arg) {
        const Dice dice = dice_from_py(dice_arg);
        Scratch<MoveList> plays;  // a MoveList is large (kMaxPlays slots): not built per call
        MoveList& list = *plays;
        {
          py::gil_scoped_release release;
          g.legal_plays(dice, list);
        }
        PyObject* out = PyList_New(list.size());
        if (!out) throw py::error_already_set();
        for (int i = 0; i < list.size(); ++i) {
          PyObject* p = new_play(list[i], dice);
          if (!p) {
            Py_DECREF(out);
            throw py::error_already_set();
          }
          PyList_SET_ITEM(out, i, p);
        }
        return py::reinterpret_steal<py::list>(out);
      }, py::arg("dice"),
      "Every distinct legal play for the roll (a pair such as (6, 5), or '6-5'); a side that cannot "
      "move gets one empty play.")
      .def("_count_plays", [](const Game& g, int d1, int d2) {
        const Dice dice = to_dice(d1, d2);
        Scratch<MoveList> plays;  // a MoveList is large (kMaxPlays slots): not built per call
        MoveList& list = *plays;
        g.legal_plays(dice, list);
        return list.size();
      })
      .def("_find_play", [](const Game& g, const std::vector<std::pair<int, int>>& steps, int d1, int d2) {
        const Dice dice = to_dice(d1, d2);
        const std::vector<Step> s = steps_from(steps);
        return play_to_py(g.find_play(s.data(), static_cast<int>(s.size()), dice), dice);
      })
      .def("_after_steps", [](const Game& g, const std::vector<std::pair<int, int>>& steps, int d1, int d2) {
        // The position part way through a play (the same side still to move): the engine's own
        // step application, checking only that each step moves a checker by a die of the roll.
        const Dice dice = to_dice(d1, d2);
        const std::vector<Step> s = steps_from(steps);
        py::array_t<std::uint8_t> a(static_cast<py::ssize_t>(kRowBytes));
        apply_steps(g.position(), s.data(), static_cast<int>(s.size()), dice, g.rules()).to_row(a.mutable_data(), g.turn());
        return a;
      })
      .def("_parse_play", [](const Game& g, const std::string& text, int d1, int d2) {
        const Dice dice = to_dice(d1, d2);
        return play_to_py(play_from_text(g, dice, text), dice);
      })
      .def("_push", [](Game& g, py::handle p) {
        const auto* play = checked_play(p);
        return play_to_py(g.push(play->play, play->dice), play->dice);
      })
      .def("_pop", &Game::pop)
      .def("_outcome", [](const Game& g) { return outcome_to_py(g.outcome()); })
      .def("id", [](const Game& g) { return position_id(g.rules(), g.position(), g.turn()); },
           "Compact position ID naming the variant and its non-default options.")
      .def("gnubg_id", [](const Game& g) {
        if (g.rules().movement != Movement::Contrary || g.rules().contact != Contact::Hit)
          throw std::invalid_argument("GNU Backgammon Position IDs describe backgammon-movement games only");
        return gnubg_position_id(g.position());
      }, "GNU Backgammon Position ID (14 characters; the side to move is the player on roll).")
      .def("xgid", [](const Game& g) {
        if (g.rules().movement != Movement::Contrary || g.rules().contact != Contact::Hit)
          throw std::invalid_argument("XGIDs describe backgammon-movement games only");
        return xgid(g.position(), g.turn());
      }, "XGID of the position (White is XG's bottom player; cube centred, no dice, money game).")
      .def_static("_from_gnubg_id", [](const std::string& id, const std::string& variant, const OptionList& options,
                                       int turn) {
        if (turn != 0 && turn != 1) throw InvalidPosition("turn must be 0 (white) or 1 (black)");
        const Rules rules = make_rules(variant_from_name(variant), options);
        return Game(rules, position_from_gnubg_id(id, rules), static_cast<Player>(turn));
      })
      .def_static("_from_xgid", [](const std::string& text, const std::string& variant, const OptionList& options) {
        const Rules rules = make_rules(variant_from_name(variant), options);
        Player turn;
        const Position pos = position_from_xgid(text, rules, &turn);
        return Game(rules, pos, turn);
      })
      .def("to_array", [](const Game& g) {
        py::array_t<std::uint8_t> a(static_cast<py::ssize_t>(kRowBytes));
        g.position().to_row(a.mutable_data(), g.turn());
        return a;
      }, "The position as one uint8 row of ROW_BYTES (layout in cpp/include/tavli/position.h).")
      .def("_hash", [](const Game& g) { return g.position().hash(); })
      .def("_core_copy_from", [](Game& g, const Game& other) { g = other; })
      .def("_analyze", [](const Game& g, py::handle dice_arg, int plies,
                          const std::vector<std::tuple<int, int, double>>& filters, int threads, double time_limit,
                          std::int64_t node_limit, py::handle evaluator,
                          const std::vector<std::tuple<int, int, double>>& narrowing, bool use_cache) {
        const Dice dice = dice_from_py(dice_arg);
        SearchOptions opt = search_options(plies, filters, threads, time_limit, node_limit);
        for (const auto& [accept, extra, threshold] : narrowing)  // search.h: accept -1 keeps all
          opt.narrowing.push_back(MoveFilter{accept, extra, static_cast<float>(threshold)});
        opt.use_cache = use_cache;
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
         py::arg("narrowing") = std::vector<std::tuple<int, int, double>>{}, py::arg("use_cache") = false)
      .def("_evaluate", [](const Game& g, int plies, const std::vector<std::tuple<int, int, double>>& filters,
                           int threads, double time_limit, std::int64_t node_limit, py::handle evaluator,
                           bool use_cache) {
        SearchOptions opt = search_options(plies, filters, threads, time_limit, node_limit);
        opt.use_cache = use_cache;
        std::shared_ptr<const Evaluator> keep;
        const Evaluator& ev = evaluator_arg(evaluator, g.rules(), keep);
        const Evaluation e = run_stoppable(0, [&] { return evaluate(g.position(), g.rules(), ev, opt); });
        return py::make_tuple(probs_tuple(e.probabilities), e.probabilities.equity(), e.plies, e.nodes, e.interrupted);
      }, py::arg("plies"), py::arg("filters"), py::arg("threads"), py::arg("time_limit"), py::arg("node_limit"),
         py::arg("evaluator"), py::arg("use_cache") = false)
      .def("_perft", [](const Game& g, int depth, double time_limit) {
        return run_stoppable(time_limit, [&] { return perft(g.position(), g.rules(), depth); });
      }, py::arg("depth"), py::arg("time_limit") = 0.0);

  py::class_<Match>(m, "Match", "Game flow of a match (see tavli.Match).")
      .def(py::init([](const std::vector<std::tuple<std::string, OptionList, std::string>>& cycle, int target,
                       const std::string& next_starter) {
             std::vector<MatchGame> games;
             for (const auto& [variant, options, opening] : cycle)
               games.push_back(MatchGame{make_rules(variant_from_name(variant), options), opening_from_name(opening)});
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
        static const char* kinds[] = {"", "single", "double", "triple", "mother", "draw", "checkers"};
        py::list out;
        for (const GameResult& r : mt.results()) {
          py::dict d;
          d["variant"] = r.rules.info().name;
          d["starter"] = int(r.starter);
          d["winner"] = r.outcome.winner < 0 ? py::object(py::none()) : py::object(py::int_(r.outcome.winner));
          d["points"] = r.outcome.points;
          d["kind"] = kinds[static_cast<int>(r.outcome.kind)];
          out.append(d);
        }
        return out;
      });

  m.def("_batch_legal_plays",
        [](const std::string& variant, const OptionList& options, const RowsIn& rows, const DiceIn& dice,
           bool want_positions, int threads, double time_limit) -> py::object {
          const Rules rules = make_rules(variant_from_name(variant), options);
          const std::int64_t n = check_batch_shapes(rows, dice);
          if (threads < 1 || threads > 1024) throw std::invalid_argument("threads must be 1..1024");
          BatchResult r = run_stoppable(time_limit, [&] {
            return batch_legal_plays(rules, rows.data(), dice.data(), n, want_positions, threads);
          });
          if (!want_positions) return vector_array(r.counts);
          return py::make_tuple(vector_array(r.counts), vector_array(r.offsets), rows_array(std::move(r.positions)));
        });

  m.def("_evaluate_batch", [](const std::string& variant, const OptionList& options, const RowsIn& rows, int plies,
                              int threads, py::object evaluator, double time_limit) {
    const Rules rules = make_rules(variant_from_name(variant), options);
    std::shared_ptr<const Evaluator> keep;
    const Evaluator& ev = evaluator_arg(evaluator, rules, keep);
    if (rows.ndim() != 2 || rows.shape(1) != kRowBytes)
      throw std::invalid_argument("positions must be a uint8 array of shape (N, " + std::to_string(kRowBytes) + ")");
    const std::int64_t n = rows.shape(0);
    std::vector<Position> positions(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
      try {
        Player t;
        positions[static_cast<std::size_t>(i)] = Position::from_row(rows.data() + kRowBytes * i, &t);
        validate_position(positions[static_cast<std::size_t>(i)], rules);
      } catch (const std::invalid_argument& e) {
        throw InvalidPosition("row " + std::to_string(i) + ": " + e.what());
      }
    }
    if (plies < 0 || plies > 8) throw std::invalid_argument("plies must be 0..8 for batch evaluation");
    if (threads < 1 || threads > 1024) throw std::invalid_argument("threads must be 1..1024");
    py::array_t<float> out({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(kEvalColumns)});
    float* o = out.mutable_data();
    run_stoppable(time_limit, [&] { batch_evaluate(rules, positions.data(), n, plies, threads, ev, o); });
    return out;
  });

  m.def("_simulate", [](const std::string& variant, const OptionList& options, const std::vector<PlayerArg>& players,
                        std::int64_t first, std::int64_t games, std::uint64_t seed, int threads, int max_plies,
                        py::object start_row, bool keep_trajectories, double time_limit, py::object cube) {
    const Rules rules = make_rules(variant_from_name(variant), options);
    PlayerSpec specs[2];
    player_specs(players, specs, {&rules});
    const auto cube_arg = tavli_bindings::cube_sim_arg(cube);  // null: cubeless
    if (games < 0 || games > 100000000 || first < 0) throw std::invalid_argument("games must be 0..100000000");
    if (threads < 1 || threads > 1024) throw std::invalid_argument("threads must be 1..1024");
    if (max_plies < 1) throw std::invalid_argument("max_plies must be >= 1");
    SimOptions opt;
    opt.max_plies = max_plies;
    opt.keep_trajectories = keep_trajectories;
    if (cube_arg) {
      validate_cube_sim(rules, cube_arg->opt);
      opt.cube = &cube_arg->opt;
    }
    Position start;
    if (!start_row.is_none()) {
      const auto row = start_row.cast<RowsIn>();
      if (row.ndim() != 1 || row.shape(0) != kRowBytes)
        throw std::invalid_argument("start must be one position row of " + std::to_string(kRowBytes) + " bytes");
      start = Position::from_row(row.data(), &opt.start_turn);
      validate_position(start, rules);
      if (game_outcome(start, rules, opt.start_turn)) throw InvalidPosition("start: the game is already over");
      opt.start = &start;
    }
    std::vector<GameSummary> res;
    std::vector<Trajectory> traj;
    res = run_stoppable(time_limit, [&] {
      return simulate(rules, specs, first, games, seed, threads, opt, keep_trajectories ? &traj : nullptr);
    });
    const auto n = static_cast<py::ssize_t>(res.size());
    py::array_t<std::int8_t> winner(n), points(n), kind(n), starter(n);
    py::array_t<std::int32_t> plies(n);
    for (py::ssize_t i = 0; i < n; ++i) {
      const GameSummary& g = res[static_cast<std::size_t>(i)];
      winner.mutable_data()[i] = g.winner;
      points.mutable_data()[i] = g.points;
      kind.mutable_data()[i] = g.kind;
      starter.mutable_data()[i] = g.starter;
      plies.mutable_data()[i] = g.plies;
    }
    py::dict out;
    out["winner"] = winner;
    out["points"] = points;
    out["kind"] = kind;
    out["starter"] = starter;
    out["plies"] = plies;
    if (cube_arg) tavli_bindings::add_cube_columns(out, res);
    if (keep_trajectories) {
      py::ssize_t m = 0;
      for (const Trajectory& t : traj) m += static_cast<py::ssize_t>(t.dice.size() / 2);
      py::array_t<std::uint8_t> pos({m, static_cast<py::ssize_t>(kRowBytes)});
      py::array_t<std::int8_t> dice({m, static_cast<py::ssize_t>(2)});
      py::array_t<std::int8_t> steps({m, static_cast<py::ssize_t>(kMaxSteps), static_cast<py::ssize_t>(2)});
      py::array_t<std::int64_t> game(m);
      py::ssize_t k = 0;
      for (std::size_t gi = 0; gi < traj.size(); ++gi) {
        const Trajectory& t = traj[gi];
        const auto len = static_cast<py::ssize_t>(t.dice.size() / 2);
        if (len == 0) continue;
        std::memcpy(pos.mutable_data() + k * kRowBytes, t.positions.data(), t.positions.size());
        std::memcpy(dice.mutable_data() + k * 2, t.dice.data(), t.dice.size());
        std::memcpy(steps.mutable_data() + k * 2 * kMaxSteps, t.steps.data(), t.steps.size());
        for (py::ssize_t j = 0; j < len; ++j) game.mutable_data()[k + j] = first + static_cast<std::int64_t>(gi);
        k += len;
      }
      out["positions"] = pos;
      out["dice"] = dice;
      out["steps"] = steps;
      out["game"] = game;
    }
    return out;
  });

  m.def("_simulate_matches", [](const std::vector<std::tuple<std::string, OptionList, std::string>>& cycle, int target,
                                const std::string& next_starter, const std::vector<PlayerArg>& players,
                                std::int64_t first, std::int64_t matches, std::uint64_t seed, int threads,
                                int max_plies, double time_limit, py::object cube) {
    const auto cube_arg = tavli_bindings::cube_sim_arg(cube);  // null: cubeless
    std::vector<MatchGame> games;
    for (const auto& [variant, options, opening] : cycle)
      games.push_back(MatchGame{make_rules(variant_from_name(variant), options), opening_from_name(opening)});
    const int ns = static_cast<int>(next_starter_from_name(next_starter));
    if (target < 1 || target > 999) throw std::invalid_argument("target must be 1..999");
    PlayerSpec specs[2];
    std::vector<const Rules*> all;
    for (const MatchGame& mg : games) all.push_back(&mg.rules);
    player_specs(players, specs, all);
    if (matches < 0 || matches > 10000000 || first < 0) throw std::invalid_argument("matches must be 0..10000000");
    if (threads < 1 || threads > 1024) throw std::invalid_argument("threads must be 1..1024");
    std::vector<MatchSummary> res;
    if (cube_arg && games.size() != 1) throw std::invalid_argument("a match with the cube plays one game");
    res = run_stoppable(time_limit, [&] {
      if (cube_arg)  // games start with an opening roll (backgammon's rule), as tavli.cube_sim checks
        return simulate_cube_matches(games[0].rules, target, specs, cube_arg->opt, first, matches, seed, threads,
                                     max_plies);
      return simulate_matches(games, target, ns, specs, first, matches, seed, threads, max_plies);
    });
    const auto n = static_cast<py::ssize_t>(res.size());
    py::array_t<std::int8_t> winner(n);
    py::array_t<std::int16_t> score({n, static_cast<py::ssize_t>(2)}), count(n);
    for (py::ssize_t i = 0; i < n; ++i) {
      const MatchSummary& r = res[static_cast<std::size_t>(i)];
      winner.mutable_data()[i] = r.winner;
      score.mutable_data()[2 * i] = r.score[0];
      score.mutable_data()[2 * i + 1] = r.score[1];
      count.mutable_data()[i] = r.games;
    }
    py::dict out;
    out["winner"] = winner;
    out["score"] = score;
    out["games"] = count;
    return out;
  });

  m.def("_encode", [](const std::string& variant, const OptionList& options, const RowsIn& rows, py::object dice_obj,
                      const std::string& encoding, py::object out_obj) {
    const Rules rules = make_rules(variant_from_name(variant), options);
    const Encoding e = encoding.empty() ? default_encoding(rules) : encoding_from_name(encoding);
    if ((e == Encoding::Expert || e == Encoding::Expert2 || e == Encoding::Race) && !encoding_fits(e, rules))
      throw std::invalid_argument(std::string("the '") + encoding_name(e) + "' encoding is for the hitting games (backgammon, portes, tavla, "
                                  "nackgammon, hypergammon)");
    if (rows.ndim() != 2 || rows.shape(1) != kRowBytes)
      throw std::invalid_argument("positions must be a uint8 array of shape (N, " + std::to_string(kRowBytes) + ")");
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
    std::vector<Position> positions(static_cast<std::size_t>(n));
    std::vector<Player> movers(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
      try {
        positions[static_cast<std::size_t>(i)] = Position::from_row(rows.data() + kRowBytes * i, &movers[static_cast<std::size_t>(i)]);
        validate_position(positions[static_cast<std::size_t>(i)], rules);
      } catch (const std::invalid_argument& err) {
        throw InvalidPosition("row " + std::to_string(i) + ": " + err.what());
      }
    }
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
    if (n < 0 || n > 100000000) throw std::invalid_argument("n must be 0..100000000");
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

  bind_nnet(m);
  bind_class_nets(m);
  bind_race_db(m);
  bind_rollout(m);
  bind_cube(m);
}
