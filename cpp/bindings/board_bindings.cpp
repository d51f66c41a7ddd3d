// pybind11 bindings of a game position (game.h, as tavli._core.Board, which tavli.Board extends):
// construction from parts, IDs and rows, its views, its plays and history, and its text forms.
// The search's methods on the board are added by bind_search (search_bindings.cpp).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "args.h"
#include "arrays.h"
#include "play_object.h"
#include "stoppable.h"
#include "tavli/interchange.h"
#include "tavli/notation.h"
#include "tavli/perft.h"
#include "tavli/scratch.h"

namespace py = pybind11;
using namespace tavli;
using tavli_bindings::checked_play;
using tavli_bindings::dice_from_py;
using tavli_bindings::new_play;
using tavli_bindings::OptionList;
using tavli_bindings::play_to_py;
using tavli_bindings::RowsIn;
using tavli_bindings::run_stoppable;

namespace {

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
  py::object winner = o->winner < 0 ? py::object(py::none()) : py::object(py::int_(o->winner));
  return py::make_tuple(winner, o->points, tavli_bindings::result_kind_name(o->kind));
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

}  // namespace

py::class_<Game> bind_board(py::module_& m) {
  m.attr("Play") = py::handle(reinterpret_cast<PyObject*>(tavli_bindings::play_type()));

  py::class_<Game> board(m, "Board", "A game position with its rules, whose turn it is, and its history.");
  board.def(py::init([](const std::string& variant, const OptionList& options) {
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
        return movement_name(g.rules().movement);
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
        const Dice dice = make_dice(d1, d2);
        Scratch<MoveList> plays;  // a MoveList is large (kMaxPlays slots): not built per call
        MoveList& list = *plays;
        g.legal_plays(dice, list);
        return list.size();
      })
      .def("_find_play", [](const Game& g, const std::vector<std::pair<int, int>>& steps, int d1, int d2) {
        const Dice dice = make_dice(d1, d2);
        const std::vector<Step> s = steps_from(steps);
        return play_to_py(g.find_play(s.data(), static_cast<int>(s.size()), dice), dice);
      })
      .def("_after_steps", [](const Game& g, const std::vector<std::pair<int, int>>& steps, int d1, int d2) {
        // The position part way through a play (the same side still to move): the engine's own
        // step application, checking only that each step moves a checker by a die of the roll.
        const Dice dice = make_dice(d1, d2);
        const std::vector<Step> s = steps_from(steps);
        py::array_t<std::uint8_t> a(static_cast<py::ssize_t>(kRowBytes));
        apply_steps(g.position(), s.data(), static_cast<int>(s.size()), dice, g.rules()).to_row(a.mutable_data(), g.turn());
        return a;
      })
      .def("_parse_play", [](const Game& g, const std::string& text, int d1, int d2) {
        const Dice dice = make_dice(d1, d2);
        return play_to_py(play_from_text(g, dice, text), dice);
      })
      .def("_push", [](Game& g, py::handle p) {
        const auto* play = checked_play(p);
        return play_to_py(g.push(play->play, play->dice), play->dice);
      })
      .def("_pop", [](Game& g) {
        const Game::Played p = g.pop();  // IndexError when there is nothing to undo
        return play_to_py(p.play, p.dice);
      })
      .def("_move_stack", [](const Game& g) {
        py::list out;
        for (const Game::Played& p : g.plays()) out.append(play_to_py(p.play, p.dice));
        return out;
      })
      .def("_forget_history", &Game::clear_history)
      .def("_outcome", [](const Game& g) { return outcome_to_py(g.outcome()); })
      .def("id", [](const Game& g) { return position_id(g.rules(), g.position(), g.turn()); },
           "Compact position ID naming the variant and its non-default options.")
      .def("gnubg_id", [](const Game& g) {
        return gnubg_position_id(g.position(), g.rules());
      }, "GNU Backgammon Position ID (14 characters; the side to move is the player on roll).")
      .def("xgid", [](const Game& g) {
        return xgid(g.position(), g.rules(), g.turn());
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
      .def("_perft", [](const Game& g, int depth, double time_limit) {
        return run_stoppable(time_limit, [&] { return perft(g.position(), g.rules(), depth); });
      }, py::arg("depth"), py::arg("time_limit") = 0.0);
  return board;
}
