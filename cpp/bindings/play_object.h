// tavli._core.Play as a plain CPython type (no pybind11 instance bookkeeping): legal_plays makes
// one per play, and at a few dozen per call their cost dominates the call, so they are kept to an
// allocation and a copy. Bindings only: no game logic here.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

#include "tavli/notation.h"

namespace tavli_bindings {

struct PlayObject {
  PyObject_HEAD
  tavli::Play play;
  tavli::Dice dice;
};

// Creates the type once (call at module init, with the GIL held) and returns it (borrowed).
PyTypeObject* play_type();

inline bool is_play(PyObject* o) { return PyObject_TypeCheck(o, play_type()); }

// A new reference to a Play object holding `play` for the roll `dice`.
inline PyObject* new_play(const tavli::Play& play, tavli::Dice dice) {
  PyTypeObject* t = play_type();
  auto* o = reinterpret_cast<PlayObject*>(t->tp_alloc(t, 0));
  if (!o) return nullptr;
  o->play = play;
  o->dice = dice;
  return reinterpret_cast<PyObject*>(o);
}

inline const PlayObject* as_play(PyObject* o) { return reinterpret_cast<const PlayObject*>(o); }

// `play` for the roll `dice` as a Python Play.
inline pybind11::object play_to_py(const tavli::Play& play, tavli::Dice dice) {
  PyObject* o = new_play(play, dice);
  if (!o) throw pybind11::error_already_set();
  return pybind11::reinterpret_steal<pybind11::object>(o);
}

// The Play a caller gave, or IllegalMove.
inline const PlayObject* checked_play(pybind11::handle o) {
  if (!is_play(o.ptr())) throw tavli::IllegalMove("expected a Play (from legal_plays, find_play or parse_play)");
  return as_play(o.ptr());
}

}  // namespace tavli_bindings
