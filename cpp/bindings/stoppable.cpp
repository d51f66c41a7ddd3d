#include "stoppable.h"

#include <pythread.h>

namespace py = pybind11;

namespace tavli_bindings {
namespace {
unsigned long main_thread_ident = 0;
}

bool on_main_thread() { return PyThread_get_thread_ident() == main_thread_ident; }

void register_stop_exceptions() {
  main_thread_ident = py::module_::import("threading").attr("main_thread")().attr("ident").cast<unsigned long>();
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const tavli::Interrupted&) {
      PyErr_SetNone(PyExc_KeyboardInterrupt);
    } catch (const tavli::TimeLimitReached& e) {
      PyErr_SetString(PyExc_TimeoutError, e.what());
    }
  });
}

bool PendingSignal::poll() {
  py::gil_scoped_acquire gil;
  if (PyErr_CheckSignals() == 0) return false;
  PyErr_Fetch(&type_, &value_, &traceback_);
  if (!type_) type_ = Py_NewRef(PyExc_KeyboardInterrupt);
  return true;
}

void PendingSignal::rethrow() {
  PyErr_Restore(type_, value_, traceback_);
  type_ = value_ = traceback_ = nullptr;
  throw py::error_already_set();
}

}  // namespace tavli_bindings
