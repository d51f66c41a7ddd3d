#include "play_object.h"

#include <algorithm>

namespace tavli_bindings {
namespace {

using tavli::Play;
using tavli::PositionKey;

PyObject* play_steps(PyObject* self, void*) {
  const Play& p = as_play(self)->play;
  PyObject* list = PyList_New(p.nsteps);
  if (!list) return nullptr;
  for (int k = 0; k < p.nsteps; ++k) {
    PyObject* t = Py_BuildValue("(ii)", int(p.steps[k].from), int(p.steps[k].to));
    if (!t) {
      Py_DECREF(list);
      return nullptr;
    }
    PyList_SET_ITEM(list, k, t);
  }
  return list;
}

PyObject* play_hits(PyObject* self, void*) {
  const Play& p = as_play(self)->play;
  PyObject* list = PyList_New(p.nsteps);
  if (!list) return nullptr;
  for (int k = 0; k < p.nsteps; ++k) PyList_SET_ITEM(list, k, PyBool_FromLong((p.hits >> k) & 1u));
  return list;
}

PyObject* play_dice(PyObject* self, void*) {
  const auto* o = as_play(self);
  return Py_BuildValue("(ii)", o->dice.d1, o->dice.d2);
}

PyObject* play_text(PyObject* self, void*) {
  const std::string s = tavli::play_to_text(as_play(self)->play);
  return PyUnicode_FromStringAndSize(s.data(), static_cast<Py_ssize_t>(s.size()));
}

PyObject* play_result_key(PyObject* self, void*) {
  const PositionKey k = as_play(self)->play.result.key();
  return PyBytes_FromStringAndSize(reinterpret_cast<const char*>(k.data()), static_cast<Py_ssize_t>(k.size()));
}

PyObject* play_repr(PyObject* self) {
  const auto* o = as_play(self);
  const std::string s = "<Play " + tavli::play_to_text(o->play) + " for " + std::to_string(o->dice.d1) + "-" +
                        std::to_string(o->dice.d2) + ">";
  return PyUnicode_FromStringAndSize(s.data(), static_cast<Py_ssize_t>(s.size()));
}

PyObject* play_str(PyObject* self) { return play_text(self, nullptr); }

Py_ssize_t play_len(PyObject* self) { return as_play(self)->play.nsteps; }

Py_hash_t play_hash(PyObject* self) {
  auto h = static_cast<Py_hash_t>(as_play(self)->play.result.hash() >> 2);
  return h == -1 ? -2 : h;
}

// Equal when made for the same roll, with the same steps, to the same position.
PyObject* play_richcompare(PyObject* a, PyObject* b, int op) {
  if ((op != Py_EQ && op != Py_NE) || !is_play(b)) Py_RETURN_NOTIMPLEMENTED;
  const auto* x = as_play(a);
  const auto* y = as_play(b);
  const bool eq = x->dice.d1 == y->dice.d1 && x->dice.d2 == y->dice.d2 && x->play.nsteps == y->play.nsteps &&
                  std::equal(x->play.steps, x->play.steps + x->play.nsteps, y->play.steps) &&
                  x->play.result == y->play.result;
  if (eq == (op == Py_EQ)) Py_RETURN_TRUE;
  Py_RETURN_FALSE;
}

PyGetSetDef play_getset[] = {
    {"steps", play_steps, nullptr, "Steps (from, to) in the mover's route frame: bar -1, off 24.", nullptr},
    {"dice", play_dice, nullptr, "The roll this play is for.", nullptr},
    {"hits", play_hits, nullptr, "Per step: whether it hit a lone opposing checker (sent it to the bar).", nullptr},
    {"text", play_text, nullptr, "Move text, e.g. '24/18 13/11' (see README).", nullptr},
    {"result_key", play_result_key, nullptr, "Exact key of the position the play leads to (before the turn passes).",
     nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

PyType_Slot play_slots[] = {
    {Py_tp_doc, const_cast<char*>("A legal play: one distinct resulting position with one representative step "
                                  "sequence. Made by Board.legal_plays, find_play and parse_play.")},
    {Py_tp_getset, play_getset},
    {Py_tp_repr, reinterpret_cast<void*>(play_repr)},
    {Py_tp_str, reinterpret_cast<void*>(play_str)},
    {Py_tp_hash, reinterpret_cast<void*>(play_hash)},
    {Py_tp_richcompare, reinterpret_cast<void*>(play_richcompare)},
    {Py_sq_length, reinterpret_cast<void*>(play_len)},
    {0, nullptr},
};

PyType_Spec play_spec = {
    "tavli._core.Play",
    static_cast<int>(sizeof(PlayObject)),
    0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION | Py_TPFLAGS_IMMUTABLETYPE,
    play_slots,
};

}  // namespace

PyTypeObject* play_type() {
  static PyTypeObject* type = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&play_spec));
  return type;
}

}  // namespace tavli_bindings
