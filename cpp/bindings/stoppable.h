// Long core calls from Python: run without the GIL under a StopToken (tavli/interrupt.h) whose
// poll hook runs Python's signal handlers, so that Ctrl-C stops the call (KeyboardInterrupt, or
// whatever the SIGINT handler raised) and a time limit raises TimeoutError.
#pragma once

#include <pybind11/pybind11.h>

#include <type_traits>
#include <utility>

#include "tavli/interrupt.h"

namespace tavli_bindings {

// Whether the calling thread is Python's main thread (the only one that runs signal handlers;
// elsewhere there is nothing to poll).
bool on_main_thread();
// Registers the translations Interrupted -> KeyboardInterrupt, TimeLimitReached -> TimeoutError and
// remembers the main thread; called once at import.
void register_stop_exceptions();

// The signal that stopped a call, kept from the poll hook until the GIL is back with the caller.
class PendingSignal {
 public:
  // Runs the handlers (takes the GIL for a moment); true if one raised.
  bool poll();
  bool raised() const { return type_ != nullptr; }
  [[noreturn]] void rethrow();

 private:
  PyObject* type_ = nullptr;
  PyObject* value_ = nullptr;
  PyObject* traceback_ = nullptr;
};

// fn() with the GIL released, stopping on Ctrl-C and after `time_limit` seconds (0: none; the
// range is StopToken's). Called with the GIL held.
template <class Fn>
auto run_stoppable(double time_limit, Fn&& fn) -> decltype(fn()) {
  tavli::StopToken token(time_limit);
  PendingSignal signal;
  if (on_main_thread()) token.set_poll([&signal] { return signal.poll(); });
  tavli::StopScope scope(&token);
  using R = decltype(fn());
  try {
    if constexpr (std::is_void_v<R>) {
      {
        pybind11::gil_scoped_release release;
        fn();
      }
      if (signal.raised()) signal.rethrow();  // finished as the signal came: it still counts
    } else {
      R result;
      {
        pybind11::gil_scoped_release release;
        result = fn();
      }
      if (signal.raised()) signal.rethrow();
      return result;
    }
  } catch (const tavli::Interrupted&) {
    if (signal.raised()) signal.rethrow();
    throw;
  }
}

}  // namespace tavli_bindings
